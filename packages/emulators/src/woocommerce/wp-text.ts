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
