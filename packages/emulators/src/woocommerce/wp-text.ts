/**
 * WordPress's text handling that a real store applies to what the REST API writes (see
 * platform-specs/woocommerce/observed-behaviour.md, "Writing"): slugs sanitised, post content
 * passed through the post HTML filter, term descriptions through the much narrower term filter,
 * term names stored HTML-escaped.
 */

const accentMap: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  Æ: 'AE',
  ø: 'o',
  Ø: 'O',
  œ: 'oe',
  Œ: 'OE',
  đ: 'd',
  Đ: 'D',
  ł: 'l',
  Ł: 'L',
  þ: 'th',
  Þ: 'TH',
  ð: 'd',
  Ð: 'D',
};

/** remove_accents(): Latin letters lose their diacritics; other scripts are left alone. */
export function removeAccents(text: string): string {
  return [...text]
    .map((ch) => {
      if (accentMap[ch]) return accentMap[ch];
      const stripped = ch.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
      return ch.charCodeAt(0) <= 0x24f ? stripped : ch;
    })
    .join('');
}

/**
 * sanitize_title_with_dashes(): tags stripped, accents removed, other non-ASCII letters
 * percent-encoded (lower-case hex), entities and punctuation dropped, spaces and dots to dashes.
 */
export function sanitizeTitle(title: string): string {
  let slug = removeAccents(title.replace(/<[^>]*>/g, ''));
  slug = [...slug]
    .map((ch) =>
      ch.charCodeAt(0) > 0x7f
        ? [...new TextEncoder().encode(ch)].map((b) => `%${b.toString(16)}`).join('')
        : ch,
    )
    .join('')
    .toLowerCase()
    .replace(/&.+?;/g, '')
    .replace(/\./g, '-')
    .replace(/[^%a-z0-9 _-]/g, '')
    .replace(/\s+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug;
}

/** esc_html(): what term names look like when WordPress answers with them. */
export function escHtml(text: string): string {
  return text
    .replace(/&(?!(#\d+|#x[0-9a-f]+|[a-z][a-z0-9]*);)/gi, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#039;');
}

/** Tags the post HTML filter (wp_kses_post) keeps for an administrator. */
const postTags = new Set(
  (
    'a abbr acronym address area article aside audio b bdo big blockquote br button caption cite ' +
    'code col colgroup dd del details dfn div dl dt em fieldset figcaption figure font footer h1 h2 ' +
    'h3 h4 h5 h6 header hgroup hr i img ins kbd label legend li main map mark menu nav ol p pre q ' +
    's samp section small span strike strong sub summary sup table tbody td textarea tfoot th ' +
    'thead time tr tt u ul var video'
  ).split(' '),
);
/** Tags the term description filter ($allowedtags of wp_filter_kses) keeps. */
const termTags = new Set(
  'a abbr acronym b blockquote cite code del em i q s strike strong'.split(' '),
);

function filterHtml(html: string, allowed: Set<string>): string {
  const kept = html.replace(/<(\/?)([a-zA-Z][a-zA-Z0-9]*)([^>]*)>/g, (_m, slash, name, attrs) => {
    const tag = String(name).toLowerCase();
    if (!allowed.has(tag)) return '';
    // Event handler attributes never survive, whatever the tag.
    const cleanAttrs = String(attrs)
      .replace(/\s+on[a-z]+\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/gi, '')
      .replace(/\s+(href|src)\s*=\s*("|')\s*javascript:[^"']*\2/gi, '');
    return `<${slash}${tag}${cleanAttrs}>`;
  });
  return kept.replace(/&(?!(#\d+|#x[0-9a-f]+|[a-z][a-z0-9]*);)/gi, '&amp;').replace(/\\/g, '');
}

/** What a product description looks like after WordPress stored it. */
export function filterPostHtml(html: string): string {
  return filterHtml(html, postTags);
}

/** What a category description looks like after WordPress stored it. */
export function filterTermDescription(html: string): string {
  return filterHtml(html, termTags);
}

/**
 * The `context=view` rendering of post content (wpautop and wptexturize, reduced to what changes
 * typical catalogue text): bare text gets paragraphs and straight quotes become curly.
 */
export function renderForView(html: string): string {
  if (html.trim() === '') return '';
  // wpautop() works on the trimmed text: formatting twice changes nothing more.
  const curled = html.trim().replace(/(^|>)([^<]+)/g, (_m, gt: string, text: string) =>
    gt.concat(
      text
        .replace(/(\w)'(\w)/g, '$1&#8217;$2')
        .replace(/"([^"]*)"/g, '&#8220;$1&#8221;')
        .replace(/'([^']*)'/g, '&#8216;$1&#8217;'),
    ),
  );
  const blocky = /^\s*<(p|div|ul|ol|h[1-6]|table|blockquote|pre|figure|section)[\s>]/i.test(curled);
  return blocky ? `${curled}\n` : `<p>${curled}</p>\n`;
}

// ---------------------------------------------------------------------------------------------
// Comments (product reviews are WordPress comments of type 'review')

/** The attributes WordPress's comment filter ($allowedtags of wp_filter_kses) keeps, by tag. */
const commentTags: Record<string, readonly string[]> = {
  a: ['href', 'title'],
  abbr: ['title'],
  acronym: ['title'],
  b: [],
  blockquote: ['cite'],
  cite: [],
  code: [],
  del: ['datetime'],
  em: [],
  i: [],
  q: ['cite'],
  s: [],
  strike: [],
  strong: [],
};

/** wp_kses_hair(), reduced: a tag's attributes in order, with their values ('' when none). */
function tagAttributes(text: string): [string, string | null][] {
  const out: [string, string | null][] = [];
  const pattern = /([a-zA-Z_:][-a-zA-Z0-9_:.]*)(\s*=\s*("([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g;
  for (const m of text.matchAll(pattern)) {
    const value = m[2] === undefined ? null : (m[4] ?? m[5] ?? m[6] ?? '');
    out.push([m[1]!.toLowerCase(), value]);
  }
  return out;
}

const escAttr = (value: string) =>
  value
    .replace(/&(?!(#\d+|#x[0-9a-f]+|[a-z][a-z0-9]*);)/gi, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#039;');

/**
 * wp_rel_ugc() on a comment's text as it is saved: every link gets rel "nofollow ugc" (merged into
 * a rel it has, its other attributes then written name="value"); a link to the site itself only
 * "ugc".
 */
export function relUgc(html: string, home = ''): string {
  return html.replace(/<a (.+?)>/gi, (_whole, inner: string) => {
    const atts = tagAttributes(inner);
    const href = atts.find(([name]) => name === 'href')?.[1] ?? '';
    const internal = home !== '' && href !== '' && href.startsWith(home);
    let rel = internal ? 'ugc' : 'nofollow ugc';
    let text = inner;
    const own = atts.find(([name]) => name === 'rel');
    if (own) {
      const parts = [...(own[1] ?? '').split(' '), ...rel.split(' ')].map((p) => p.trim());
      rel = [...new Set(parts)].join(' ');
      text = atts
        .filter(([name]) => name !== 'rel')
        .map(([name, value]) => (value === null ? name : `${name}="${escAttr(value)}"`))
        .join(' ');
    }
    return `<a ${text}${rel ? ` rel="${escAttr(rel)}"` : ''}>`;
  });
}

/**
 * What WordPress's comment filter (wp_filter_kses, then wp_rel_ugc) leaves of a comment's text:
 * WordPress runs it whenever a comment is updated, since the comment's own author (none, for a
 * review the REST API wrote) may not post unfiltered HTML. Only $allowedtags survive, with their
 * few attributes (no paragraphs); the text of other tags stays, script and style contents too;
 * a lone & becomes &amp;.
 */
export function filterCommentHtml(html: string, home = ''): string {
  const kept = html.replace(/<(\/?)([a-zA-Z][a-zA-Z0-9]*)([^>]*)>/g, (_m, slash, name, attrs) => {
    const tag = String(name).toLowerCase();
    const allowed = commentTags[tag];
    if (!allowed) return '';
    if (slash) return `</${tag}>`;
    const attributes = tagAttributes(String(attrs))
      .filter(([attr, value]) => allowed.includes(attr) && value !== null)
      .filter(([, value]) => !/^\s*javascript:/i.test(value ?? ''))
      .map(([attr, value]) => ` ${attr}="${value ?? ''}"`)
      .join('');
    return `<${tag}${attributes}>`;
  });
  return relUgc(kept.replace(/&(?!(#\d+|#x[0-9a-f]+|[a-z][a-z0-9]*);)/gi, '&amp;'), home);
}

/**
 * A comment author's name as WordPress saves it (sanitize_text_field, then _wp_specialchars):
 * tags and their script contents removed, white space on one line, percent-encoded octets
 * dropped, and &, < and > escaped (entities already there left as they are).
 */
export function sanitizeCommentAuthor(name: string): string {
  let text = name;
  if (text.includes('<'))
    text = text
      .replace(/<(script|style)[^>]*?>.*?<\/\1>/gis, '')
      .replace(/<[^>]*>?/g, '')
      .replace(/<\n/g, '&lt;\n');
  text = text.replace(/[\r\n\t ]+/g, ' ').trim();
  if (/%[a-f0-9]{2}/i.test(text))
    text = text
      .replace(/%[a-f0-9]{2}/gi, '')
      .replace(/ +/g, ' ')
      .trim();
  return text
    .replace(/&(?!(#\d+|#x[0-9a-f]+|[a-z][a-z0-9]*);)/gi, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

/**
 * sanitize_email(): '' for what has no local part, '@' and a domain of two labels or more;
 * otherwise the address with the characters it may not hold removed (its case kept).
 */
export function sanitizeEmail(raw: string): string {
  const email = raw.trim();
  if (email.length < 6 || email.indexOf('@', 1) === -1) return '';
  const at = email.indexOf('@');
  const local = email.slice(0, at).replace(/[^a-zA-Z0-9!#$%&'*+/=?^_`{|}~.-]/g, '');
  if (local === '') return '';
  const domain = email
    .slice(at + 1)
    .replace(/\.{2,}/g, '')
    .replace(/^[\s\0.]+|[\s\0.]+$/g, '');
  const labels = domain.split('.');
  if (domain === '' || labels.length < 2) return '';
  const kept = labels
    .map((l) => l.replace(/^[\s\0-]+|[\s\0-]+$/g, '').replace(/[^a-z0-9-]+/gi, ''))
    .filter((l) => l !== '');
  return kept.length < 2 ? '' : `${local}@${kept.join('.')}`;
}
