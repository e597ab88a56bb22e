import {
  ArrowRight,
  BookOpen,
  Clock,
  Headphones,
  History,
  LifeBuoy,
  Mail,
  MapPin,
  MessagesSquare,
  Phone,
  Rocket,
  ShieldCheck,
  Video,
  Wrench,
  type LucideIcon,
} from 'lucide-react';
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { support } from '@replatform/contracts/support';
import { Page } from '../../components/page.tsx';
import { useSession } from '../session/api/get-session.ts';
import { ContactForm, emptyMessage, useContactForm } from './contact-form.tsx';

/** What a channel card puts into the form when it starts a conversation there. */
const channelDrafts = {
  chat: {
    subject: 'Chat with a migration specialist',
    message: '',
  },
  video: {
    subject: '30-minute video consultation',
    message:
      'I would like a 30-minute video call.\nDays and times that suit me (with my time zone): ',
  },
} as const;
type Channel = keyof typeof channelDrafts;

function ChannelCard({
  icon: Icon,
  title,
  text,
  detail,
  action,
}: {
  icon: LucideIcon;
  title: string;
  text: string;
  detail: string;
  action: ReactNode;
}) {
  return (
    <li className="flex flex-col rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <span className="flex h-11 w-11 items-center justify-center rounded-xl bg-indigo-50 text-indigo-700">
        <Icon size={22} aria-hidden />
      </span>
      <h3 className="mt-4 font-semibold text-slate-900">{title}</h3>
      <p className="mt-1 flex-1 text-sm text-slate-600">{text}</p>
      <p className="mt-3 text-xs font-medium text-slate-500">{detail}</p>
      <div className="mt-4">{action}</div>
    </li>
  );
}

const actionClass =
  'inline-flex w-full items-center justify-center gap-2 rounded-lg bg-indigo-600 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-indigo-700';

function SocialMark({ text, color }: { text: string; color: string }) {
  return (
    <svg viewBox="0 0 24 24" width={22} height={22} aria-hidden>
      <rect width="24" height="24" rx="6" fill={color} />
      <text
        x="12"
        y="16.5"
        textAnchor="middle"
        fontFamily="system-ui, sans-serif"
        fontSize={text.length > 1 ? 10 : 12}
        fontWeight="700"
        fill="#fff"
      >
        {text}
      </text>
    </svg>
  );
}

const quickLinks = [
  { to: '/help', label: 'Browse the Help Center', icon: LifeBuoy },
  { to: '/help?topic=getting-started', label: 'Getting started', icon: Rocket },
  { to: '/help?topic=pricing', label: 'Pricing questions', icon: BookOpen },
  { to: '/help?topic=troubleshooting', label: 'Troubleshooting', icon: Wrench },
  { to: '/migration-history', label: 'Your migration history', icon: History },
];

const team = [
  {
    icon: Wrench,
    title: 'Migration engineers',
    text: 'Look into failed records, API limits and anything the report cannot explain on its own.',
  },
  {
    icon: Headphones,
    title: 'Customer success',
    text: 'Help you plan the move and the cut-over day, and answer your messages and calls.',
  },
  {
    icon: Rocket,
    title: 'Solutions architects',
    text: 'Plan large and multi-store migrations and prepare enterprise quotes.',
  },
  {
    icon: ShieldCheck,
    title: 'Security and billing',
    text: 'Handle questions about your data, receipts, refunds and our money-back guarantee.',
  },
];

/** /contact (spec.md section 2): channels, message form, office, quick help, social, team. */
export function ContactPage() {
  const session = useSession();
  const user = session.data?.user;
  const [params] = useSearchParams();
  const initial = useCallback(
    () => emptyMessage({ name: user?.name ?? '', email: user?.email ?? '' }),
    [user?.name, user?.email],
  );
  const form = useContactForm(initial());
  const { getValues, setValue } = form;
  const formSection = useRef<HTMLElement>(null);

  // The account's name and address fill in once the session has loaded, unless typed over.
  useEffect(() => {
    if (!getValues('name')) setValue('name', user?.name ?? '');
    if (!getValues('email')) setValue('email', user?.email ?? '');
  }, [user?.name, user?.email, getValues, setValue]);

  const [focusRequests, setFocusRequests] = useState(0);
  const startWith = useCallback(
    (channel: Channel) => {
      const preset = channelDrafts[channel];
      setValue('subject', preset.subject);
      if (!getValues('message')) setValue('message', preset.message);
      setFocusRequests((n) => n + 1);
      formSection.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
    },
    [getValues, setValue],
  );
  // Runs once the prefilled values are rendered: the visitor goes on typing after the preset.
  useEffect(() => {
    if (!focusRequests) return;
    const message = document.querySelector<HTMLTextAreaElement>('#contact-form [name="message"]');
    message?.focus({ preventScroll: true });
    message?.setSelectionRange(message.value.length, message.value.length);
  }, [focusRequests]);

  const requested = params.get('channel');
  useEffect(() => {
    if (requested === 'chat' || requested === 'video') startWith(requested);
  }, [requested, startWith]);

  return (
    <Page
      title="Contact Us"
      intro={`Questions about a migration, a quote or your account? Our team replies ${support.responseTime}, and failed migrations are resolved ${support.failureResolution}.`}
    >
      <section aria-labelledby="channels-title">
        <h2 id="channels-title" className="sr-only">
          Ways to reach us
        </h2>
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          <ChannelCard
            icon={MessagesSquare}
            title="Live Chat"
            text="Message a migration specialist from this page and keep the conversation going by e-mail."
            detail={`Replies ${support.responseTime}`}
            action={
              <button type="button" className={actionClass} onClick={() => startWith('chat')}>
                Start chat
              </button>
            }
          />
          <ChannelCard
            icon={Phone}
            title="Phone"
            text="Talk a migration through with our team."
            detail={support.hours.weekdays}
            action={
              <a href={support.phoneHref} className={actionClass}>
                Call {support.phoneDisplay}
              </a>
            }
          />
          <ChannelCard
            icon={Mail}
            title="Email"
            text="Send screenshots, reports or long questions."
            detail={`Replies ${support.responseTime}`}
            action={
              <a href={`mailto:${support.email}`} className={actionClass}>
                Email support
              </a>
            }
          />
          <ChannelCard
            icon={Video}
            title="Video Consultation"
            text="A 30-minute call to plan your migration with a specialist."
            detail="Tell us when suits you and we confirm a time"
            action={
              <button type="button" className={actionClass} onClick={() => startWith('video')}>
                Book a call
              </button>
            }
          />
        </ul>
      </section>

      <div className="mt-10 grid gap-8 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <section
          ref={formSection}
          aria-labelledby="form-title"
          className="min-w-0 scroll-mt-24 self-start rounded-xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6"
        >
          <h2 id="form-title" className="text-lg font-semibold text-slate-900">
            Send us a message
          </h2>
          <p className="mt-1 mb-5 text-sm text-slate-600">
            Name, email, subject and message are required.
          </p>
          <ContactForm form={form} initial={initial} />
        </section>

        <div className="grid content-start gap-6">
          <section
            aria-labelledby="office-title"
            className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
          >
            <h2 id="office-title" className="font-semibold text-slate-900">
              Our office
            </h2>
            <div className="mt-3 flex gap-3 text-sm text-slate-700">
              <MapPin size={18} aria-hidden className="mt-0.5 shrink-0 text-indigo-600" />
              <address className="not-italic">
                {support.office.name}
                <br />
                {support.office.street}
                <br />
                {support.office.city}
                <br />
                {support.office.country}
              </address>
            </div>
            <div className="mt-4 flex gap-3 text-sm text-slate-700">
              <Clock size={18} aria-hidden className="mt-0.5 shrink-0 text-indigo-600" />
              <p>
                {support.hours.weekdays}
                <br />
                {support.hours.weekend}
              </p>
            </div>
          </section>

          <nav
            aria-labelledby="quick-title"
            className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
          >
            <h2 id="quick-title" className="font-semibold text-slate-900">
              Quick help
            </h2>
            <ul className="mt-2 divide-y divide-slate-100">
              {quickLinks.map(({ to, label, icon: Icon }) => (
                <li key={to}>
                  <Link
                    to={to}
                    className="group flex items-center gap-3 py-2.5 text-sm font-medium text-slate-700 hover:text-indigo-700"
                  >
                    <Icon
                      size={16}
                      aria-hidden
                      className="text-slate-400 group-hover:text-indigo-600"
                    />
                    <span className="flex-1">{label}</span>
                    <ArrowRight size={14} aria-hidden className="text-slate-300" />
                  </Link>
                </li>
              ))}
            </ul>
          </nav>

          <section
            aria-labelledby="social-title"
            className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
          >
            <h2 id="social-title" className="font-semibold text-slate-900">
              Follow us
            </h2>
            <ul className="mt-3 flex flex-wrap gap-2">
              {support.social.map((s) => (
                <li key={s.name}>
                  <a
                    href={s.url}
                    target="_blank"
                    rel="noopener noreferrer"
                    className="flex items-center gap-2 rounded-lg border border-slate-200 px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50"
                  >
                    <SocialMark text={s.short} color={s.color} />
                    {s.name}
                    <span className="sr-only"> (opens in a new tab)</span>
                  </a>
                </li>
              ))}
            </ul>
          </section>
        </div>
      </div>

      <section aria-labelledby="team-title" className="mt-12">
        <h2 id="team-title" className="text-xl font-semibold text-slate-900">
          The team you will talk to
        </h2>
        <p className="mt-1 text-slate-600">
          Every message reaches people who work on migrations every day.
        </p>
        <ul className="mt-5 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {team.map(({ icon: Icon, title, text }) => (
            <li key={title} className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
              <span className="flex h-12 w-12 items-center justify-center rounded-full bg-gradient-to-br from-indigo-500 to-violet-500 text-white">
                <Icon size={22} aria-hidden />
              </span>
              <h3 className="mt-4 font-semibold text-slate-900">{title}</h3>
              <p className="mt-1 text-sm text-slate-600">{text}</p>
            </li>
          ))}
        </ul>
      </section>
    </Page>
  );
}
