import { createElement, type ReactNode } from 'react';

/**
 * Post bodies are HTML, and HTML is never handed to the browser to parse into the live page
 * (decisions.md section 3): it is tokenised here and rebuilt as React elements from an allow-list
 * of tags, with no attributes except checked link targets. Anything else is unwrapped to its
 * text, and scripts, styles and embedded documents are dropped with their content.
 */

export type HtmlNode =
  | { kind: 'text'; text: string }
  | { kind: 'element'; tag: string; attrs: Record<string, string>; children: HtmlNode[] };

const voidTags = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'source',
  'track',
  'wbr',
]);
/** Tags whose content is not markup: skipped to their end tag without looking inside. */
const rawTextTags = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'noscript']);
/** Dropped together with everything inside them. */
const droppedTags = new Set([
  ...rawTextTags,
  'iframe',
  'object',
  'embed',
  'template',
  'svg',
  'math',
  'form',
  'button',
  'input',
  'select',
  'img',
  'video',
  'audio',
  'head',
]);

const namedEntities: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  mdash: '—',
  ndash: '–',
  hellip: '…',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
  rarr: '→',
  larr: '←',
  times: '×',
  copy: '©',
};

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, body: string) => {
    if (body[0] === '#') {
      const code =
        body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1));
      // Surrogates, NUL and out-of-range code points are not characters.
      if (!code || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return '\ufffd';
      return String.fromCodePoint(code);
    }
    return namedEntities[body.toLowerCase()] ?? whole;
  });
}

function parseAttributes(source: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  const pattern = /([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;
  for (const match of source.matchAll(pattern)) {
    const name = match[1]?.toLowerCase();
    if (!name || name in attrs) continue;
    attrs[name] = decodeEntities(match[2] ?? match[3] ?? match[4] ?? '');
  }
  return attrs;
}

/** Finds the `>` that ends a tag, skipping any inside quoted attribute values. */
function tagEnd(html: string, from: number): number {
  let quote: string | null = null;
  for (let i = from; i < html.length; i++) {
    const c = html[i];
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '>') return i;
  }
  return -1;
}

/** A forgiving HTML parser: unclosed tags close with their parent, stray end tags are ignored. */
export function parseHtml(html: string): HtmlNode[] {
  const root: HtmlNode & { kind: 'element' } = {
    kind: 'element',
    tag: '#root',
    attrs: {},
    children: [],
  };
  const stack: Array<HtmlNode & { kind: 'element' }> = [root];
  const top = () => stack[stack.length - 1] ?? root;
  const addText = (text: string) => {
    if (text) top().children.push({ kind: 'text', text: decodeEntities(text) });
  };

  let i = 0;
  while (i < html.length) {
    const lt = html.indexOf('<', i);
    if (lt === -1) {
      addText(html.slice(i));
      break;
    }
    addText(html.slice(i, lt));
    if (html.startsWith('<!--', lt)) {
      const end = html.indexOf('-->', lt + 4);
      i = end === -1 ? html.length : end + 3;
      continue;
    }
    const closing = html[lt + 1] === '/';
    const nameMatch = /^[a-zA-Z][a-zA-Z0-9-]*/.exec(html.slice(lt + (closing ? 2 : 1)));
    if (!nameMatch && html[lt + 1] === '!') {
      // A doctype or other declaration.
      const end = html.indexOf('>', lt);
      i = end === -1 ? html.length : end + 1;
      continue;
    }
    if (!nameMatch) {
      addText('<');
      i = lt + 1;
      continue;
    }
    const tag = nameMatch[0].toLowerCase();
    const nameEnd = lt + (closing ? 2 : 1) + nameMatch[0].length;
    const end = tagEnd(html, nameEnd);
    if (end === -1) {
      // An unterminated tag: the rest is not markup we can trust, so it is dropped.
      break;
    }
    i = end + 1;
    if (closing) {
      const at = stack.findLastIndex((el) => el.tag === tag);
      if (at > 0) stack.length = at;
      continue;
    }
    const attrs = parseAttributes(html.slice(nameEnd, end).replace(/\/\s*$/, ''));
    const element: HtmlNode & { kind: 'element' } = { kind: 'element', tag, attrs, children: [] };
    top().children.push(element);
    if (rawTextTags.has(tag)) {
      const close = html.toLowerCase().indexOf(`</${tag}`, i);
      const rawEnd = close === -1 ? html.length : close;
      element.children.push({ kind: 'text', text: html.slice(i, rawEnd) });
      const after = close === -1 ? -1 : html.indexOf('>', close);
      i = after === -1 ? html.length : after + 1;
      continue;
    }
    if (!voidTags.has(tag) && !/\/\s*$/.test(html.slice(nameEnd, end))) stack.push(element);
  }
  return root.children;
}

/** Classes per allowed tag: the post body's typography. */
const allowed: Record<string, string> = {
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

/** Only links to our own paths, anchors, web pages and e-mail addresses are kept. */
export function safeHref(href: string | undefined): string | undefined {
  if (!href) return undefined;
  // Browsers ignore tabs and newlines inside URLs, so `java\tscript:` must not slip through.
  const cleaned = [...href].filter((c) => c.charCodeAt(0) > 0x20).join('');
  if (/^\/(?!\/)/.test(cleaned) || cleaned.startsWith('#')) return cleaned;
  if (/^(https?:\/\/|mailto:)/i.test(cleaned)) return cleaned;
  return undefined;
}

function render(nodes: HtmlNode[], keyPrefix: string): ReactNode[] {
  const out: ReactNode[] = [];
  nodes.forEach((node, index) => {
    const key = `${keyPrefix}.${index}`;
    if (node.kind === 'text') {
      out.push(node.text);
      return;
    }
    if (droppedTags.has(node.tag)) return;
    const className = allowed[node.tag];
    const children = render(node.children, key);
    if (className === undefined) {
      // Not allowed: keep what it says, not what it is.
      out.push(...children);
      return;
    }
    if (node.tag === 'br' || node.tag === 'hr') {
      out.push(createElement(node.tag, { key, className: className || undefined }));
      return;
    }
    const props: Record<string, string | undefined> = { key, className };
    if (node.tag === 'a') {
      const href = safeHref(node.attrs.href);
      if (!href) {
        out.push(createElement('span', { key }, ...children));
        return;
      }
      props.href = href;
      if (/^https?:\/\//i.test(href)) {
        props.target = '_blank';
        props.rel = 'noopener noreferrer';
      }
    }
    out.push(createElement(node.tag, props, ...children));
  });
  return out;
}

/** Renders trusted-format, untrusted-content HTML as React elements from the allow-list. */
export function SafeHtml({ html, className }: { html: string; className?: string }) {
  return <div className={className}>{render(parseHtml(html), 'h')}</div>;
}
