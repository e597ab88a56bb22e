import {
  ChevronDown,
  Clock,
  FileDown,
  Mail,
  MessagesSquare,
  Phone,
  PlayCircle,
  Search,
  SearchX,
} from 'lucide-react';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { support } from '@replatform/contracts/support';
import { Page } from '../../components/page.tsx';
import {
  faqItems,
  filterFaq,
  helpTopics,
  isHelpTopic,
  topicLabel,
  type FaqItem,
  type HelpTopic,
} from './faq.ts';
import { guideBlocks } from './migration-guide.ts';
import { WalkthroughDialog } from './walkthrough-dialog.tsx';

const guideTitle = 'Replatform migration guide';

/** Builds the guide in the browser (loading the PDF code first) and hands it over as a download. */
async function downloadGuide() {
  const { buildGuidePdf } = await import('./guide-pdf.ts');
  const bytes = await buildGuidePdf(guideBlocks(new Date()), {
    title: guideTitle,
    footer: guideTitle,
  });
  const url = URL.createObjectURL(
    new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'application/pdf' }),
  );
  const link = document.createElement('a');
  link.href = url;
  link.download = 'replatform-migration-guide.pdf';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

function ResourceCard({
  icon,
  title,
  children,
  action,
}: {
  icon: ReactNode;
  title: string;
  children: ReactNode;
  action?: ReactNode;
}) {
  return (
    <section className="flex flex-col rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <div className="flex items-center gap-3">
        <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-lg bg-indigo-50 text-indigo-700">
          {icon}
        </span>
        <h2 className="font-semibold text-slate-900">{title}</h2>
      </div>
      <div className="mt-3 flex-1 text-sm text-slate-600">{children}</div>
      {action ? <div className="mt-4">{action}</div> : null}
    </section>
  );
}

const actionClass =
  'inline-flex w-full items-center justify-center gap-2 rounded-lg border border-slate-300 bg-white px-4 py-2 text-sm font-semibold text-slate-800 shadow-sm hover:bg-slate-50';

function FaqEntry({
  item,
  open,
  onToggle,
}: {
  item: FaqItem;
  open: boolean;
  onToggle: () => void;
}) {
  const id = useId();
  return (
    <li className="border-b border-slate-200 last:border-b-0">
      <h3>
        <button
          type="button"
          id={`${id}-q`}
          aria-expanded={open}
          aria-controls={`${id}-a`}
          onClick={onToggle}
          className="flex w-full items-start justify-between gap-4 px-1 py-4 text-left font-medium text-slate-900 hover:text-indigo-700"
        >
          <span>{item.question}</span>
          <ChevronDown
            size={20}
            aria-hidden
            className={`mt-0.5 shrink-0 text-slate-400 transition-transform motion-reduce:transition-none ${open ? 'rotate-180' : ''}`}
          />
        </button>
      </h3>
      <div
        id={`${id}-a`}
        role="region"
        aria-labelledby={`${id}-q`}
        hidden={!open}
        className="px-1 pb-5"
      >
        <p className="leading-7 text-slate-700">{item.answer}</p>
        <p className="mt-2 text-xs font-medium tracking-wide text-slate-400 uppercase">
          {topicLabel(item.category)}
        </p>
      </div>
    </li>
  );
}

/** /help (spec.md section 2): searchable FAQ with topics, tutorials, guide and contacts. */
export function HelpPage() {
  const [params, setParams] = useSearchParams();
  const topicParam = params.get('topic');
  const topic: HelpTopic = isHelpTopic(topicParam) ? topicParam : 'all';
  const search = params.get('q') ?? '';
  const [openQuestion, setOpenQuestion] = useState<string | null>(null);
  const [walkthrough, setWalkthrough] = useState(false);
  const searchId = useId();

  // The search and topic live in the address, so links can point at a topic and Back restores it.
  // A change made before the address has caught up with the previous one (typing right after
  // choosing a topic) starts from that previous change, so it cannot put the old topic back.
  const pending = useRef<URLSearchParams | null>(null);
  useEffect(() => {
    pending.current = null;
  }, [params]);
  const update = (next: { q?: string; topic?: HelpTopic }) => {
    const merged = new URLSearchParams(pending.current ?? params);
    if (next.q !== undefined) {
      if (next.q) merged.set('q', next.q);
      else merged.delete('q');
    }
    if (next.topic !== undefined) {
      if (next.topic === 'all') merged.delete('topic');
      else merged.set('topic', next.topic);
    }
    pending.current = merged;
    setParams(merged, { replace: true });
  };

  const found = filterFaq(faqItems, search, topic);
  const countText = `${found.length} ${found.length === 1 ? 'question' : 'questions'} ${
    search.trim() || topic !== 'all' ? 'found' : 'in total'
  }`;

  return (
    <Page
      title="Help Center"
      intro="Answers about moving your store between Magento 2, Shopify, WooCommerce and BigCommerce, and every way to reach our team."
    >
      <div className="grid gap-8 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <section
          aria-labelledby="faq-title"
          className="min-w-0 self-start rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6"
        >
          <h2 id="faq-title" className="text-lg font-semibold text-slate-900">
            Frequently asked questions
          </h2>
          <div className="relative mt-4">
            <label htmlFor={searchId} className="sr-only">
              Search questions and answers
            </label>
            <Search
              size={18}
              aria-hidden
              className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-slate-400"
            />
            <input
              id={searchId}
              type="search"
              value={search}
              onChange={(e) => update({ q: e.target.value })}
              placeholder="Search questions and answers..."
              className="w-full rounded-lg border border-slate-300 py-2.5 pr-3 pl-10 text-slate-900 shadow-sm placeholder:text-slate-400 focus:border-indigo-500 focus:ring-2 focus:ring-indigo-200 focus:outline-none"
            />
          </div>
          <div role="group" aria-label="Topics" className="mt-4 flex flex-wrap gap-2">
            {helpTopics.map((t) => (
              <button
                key={t.id}
                type="button"
                aria-pressed={topic === t.id}
                onClick={() => update({ topic: t.id })}
                className={`rounded-full px-3 py-1.5 text-sm font-medium ring-1 transition ${
                  topic === t.id
                    ? 'bg-indigo-600 text-white ring-indigo-600'
                    : 'bg-white text-slate-600 ring-slate-200 hover:bg-slate-50'
                }`}
              >
                {t.label}
              </button>
            ))}
          </div>
          <p role="status" aria-live="polite" className="mt-4 text-sm text-slate-500">
            {countText}
          </p>
          {found.length ? (
            <ul className="mt-2">
              {found.map((item) => (
                <FaqEntry
                  key={item.question}
                  item={item}
                  open={openQuestion === item.question}
                  onToggle={() =>
                    setOpenQuestion((current) => (current === item.question ? null : item.question))
                  }
                />
              ))}
            </ul>
          ) : (
            <div className="mt-6 rounded-lg border border-dashed border-slate-300 px-4 py-10 text-center">
              <SearchX size={32} aria-hidden className="mx-auto text-slate-400" />
              <p className="mt-3 font-medium text-slate-900">No questions match your search.</p>
              <p className="mt-1 text-sm text-slate-600">
                Try other words or another topic, or{' '}
                <Link to="/contact" className="font-semibold text-indigo-700 hover:underline">
                  ask our team
                </Link>
                .
              </p>
              <button
                type="button"
                onClick={() => update({ q: '', topic: 'all' })}
                className="mt-4 rounded-lg bg-indigo-600 px-4 py-2 text-sm font-semibold text-white hover:bg-indigo-700"
              >
                Show all questions
              </button>
            </div>
          )}
        </section>

        <aside
          aria-label="More help"
          className="grid content-start gap-4 sm:grid-cols-2 lg:grid-cols-1"
        >
          <ResourceCard
            icon={<PlayCircle size={20} aria-hidden />}
            title="Video Tutorials"
            action={
              <button type="button" className={actionClass} onClick={() => setWalkthrough(true)}>
                <PlayCircle size={16} aria-hidden /> Watch the walkthrough
              </button>
            }
          >
            A guided walkthrough of the five steps, from connecting your stores to the final report.
            Play it or step through at your own pace.
          </ResourceCard>
          <ResourceCard
            icon={<MessagesSquare size={20} aria-hidden />}
            title="Live Chat"
            action={
              <Link to="/contact?channel=chat" className={actionClass}>
                <MessagesSquare size={16} aria-hidden /> Start a conversation
              </Link>
            }
          >
            Write to a migration specialist and we reply {support.responseTime}, including weekends.
          </ResourceCard>
          <ResourceCard
            icon={<FileDown size={20} aria-hidden />}
            title="PDF Migration Guide"
            action={
              <button type="button" className={actionClass} onClick={() => void downloadGuide()}>
                <FileDown size={16} aria-hidden /> Download the guide (PDF)
              </button>
            }
          >
            Every step, what each platform needs, prices and a cut-over checklist, to read offline
            or share with your team.
          </ResourceCard>
          <ResourceCard icon={<Clock size={20} aria-hidden />} title="Contact Support">
            <ul className="space-y-2">
              <li className="flex items-center gap-2">
                <Mail size={16} aria-hidden className="shrink-0 text-slate-400" />
                <a
                  href={`mailto:${support.email}`}
                  className="font-medium break-all text-indigo-700 hover:underline"
                >
                  {support.email}
                </a>
              </li>
              <li className="flex items-center gap-2">
                <Phone size={16} aria-hidden className="shrink-0 text-slate-400" />
                <a href={support.phoneHref} className="font-medium text-indigo-700 hover:underline">
                  {support.phoneDisplay}
                </a>
              </li>
              <li className="flex items-start gap-2">
                <Clock size={16} aria-hidden className="mt-0.5 shrink-0 text-slate-400" />
                <span>
                  {support.hours.weekdays}
                  <br />
                  {support.hours.weekend}
                </span>
              </li>
            </ul>
          </ResourceCard>
        </aside>
      </div>
      {walkthrough ? <WalkthroughDialog onClose={() => setWalkthrough(false)} /> : null}
    </Page>
  );
}
