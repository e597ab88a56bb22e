import DOMPurify from 'dompurify';
import { postContents } from './post-contents.ts';

/** The tags a post body may use, each with its typography; DOMPurify removes every other tag. */
const tagClasses: Record<string, string> = {
  p: 'mt-5 leading-7 text-slate-700',
  h2: 'mt-10 text-2xl font-semibold tracking-tight text-slate-900',
  h3: 'mt-8 text-xl font-semibold text-slate-900',
  h4: 'mt-6 font-semibold text-slate-900',
  ul: 'mt-5 list-disc space-y-2 pl-6 text-slate-700',
  ol: 'mt-5 list-decimal space-y-2 pl-6 text-slate-700',
  li: 'leading-7 pl-1',
  strong: 'font-semibold text-slate-900',
  b: 'font-semibold text-slate-900',
  em: 'italic',
  i: 'italic',
  a: 'font-medium text-indigo-700 underline underline-offset-2 hover:text-indigo-900',
  blockquote: 'mt-6 border-l-4 border-indigo-200 bg-indigo-50/50 py-2 pl-4 italic text-slate-700',
  code: 'rounded bg-slate-100 px-1.5 py-0.5 font-mono text-sm text-slate-800',
  pre: 'mt-5 overflow-x-auto rounded-lg bg-slate-900 p-4 font-mono text-sm text-slate-100',
  br: '',
  hr: 'my-8 border-slate-200',
};

/** Links may lead to our own paths, anchors, web pages and e-mail addresses, nothing else. */
const safeLink = /^(?:\/(?!\/)|#|https?:\/\/|mailto:)/i;

// An instance of our own, so the hook below touches no other use of DOMPurify.
const purifier = DOMPurify();
purifier.addHook('afterSanitizeAttributes', (node) => {
  const tag = node.nodeName.toLowerCase();
  const classes = tagClasses[tag];
  if (classes) node.setAttribute('class', classes);
  if (tag === 'a' && /^https?:/i.test(node.getAttribute('href') ?? '')) {
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer');
  }
});

/**
 * HTML whose markup we trust less than its words (decisions.md section 3: no unsanitised HTML in
 * our pages), cleaned by DOMPurify: the allowed tags keep only a checked link target, other tags
 * give up their text, and scripts, styles and embedded documents go with their content.
 */
export function sanitizePostHtml(html: string): string {
  return purifier.sanitize(html, {
    ALLOWED_TAGS: Object.keys(tagClasses),
    ALLOWED_ATTR: ['href'],
    ALLOWED_URI_REGEXP: safeLink,
  });
}

export function PostBody({ html, className }: { html: string; className?: string }) {
  return <div className={className} dangerouslySetInnerHTML={{ __html: sanitizePostHtml(html) }} />;
}

/** An article's body, in a chunk of its own with the sanitiser, which the post page loads lazily. */
export function PostContent({ id, className }: { id: number; className?: string }) {
  return <PostBody html={postContents[id] ?? ''} className={className} />;
}
