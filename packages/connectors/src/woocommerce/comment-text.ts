import { decodeEntities } from './slugs.ts';

/**
 * What WordPress does to a product review's name, address and text when the REST API saves one
 * (a review is a WordPress comment), as far as the connector needs to know it beforehand: to
 * compare a source review with what the destination holds, to tell the owner what changed, and to
 * know when an update would damage the text. Observed on WooCommerce 11.0.1
 * (real-store/observed-behaviour.ts).
 */

/** One of a tag's attributes, as WordPress's attribute parser (wp_kses_hair) reads it. */
type Attribute = [name: string, value: string | null];

function attributesOf(text: string): Attribute[] {
  const out: Attribute[] = [];
  const pattern = /([a-zA-Z_:][-a-zA-Z0-9_:.]*)(\s*=\s*("([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g;
  for (const m of text.matchAll(pattern))
    out.push([
      (m[1] ?? '').toLowerCase(),
      m[2] === undefined ? null : (m[4] ?? m[5] ?? m[6] ?? ''),
    ]);
  return out;
}

const escapeAttribute = (value: string) =>
  value
    .replace(/&(?!(#\d+|#x[0-9a-f]+|[a-z][a-z0-9]*);)/gi, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#039;');

/**
 * A review's text in the form WordPress saves it in: every link gets rel "nofollow ugc"
 * (wp_rel_ugc), merged into a rel it has, whose other attributes are then written name="value".
 * Applying it twice changes nothing more. (A link to the destination's own site gets only "ugc";
 * the connector does not know that site's address, so such a link compares as different.)
 */
export function reviewTextForm(html: string): string {
  return html.replace(/<a (.+?)>/gi, (_whole, inner: string) => {
    const attributes = attributesOf(inner);
    const own = attributes.find(([name]) => name === 'rel');
    if (!own) return `<a ${inner} rel="nofollow ugc">`;
    const parts = [...(own[1] ?? '').split(' '), 'nofollow', 'ugc'].map((p) => p.trim());
    const rest = attributes
      .filter(([name]) => name !== 'rel')
      .map(([name, value]) => (value === null ? name : `${name}="${escapeAttribute(value)}"`));
    return `<a ${rest.join(' ')} rel="${escapeAttribute([...new Set(parts)].join(' '))}">`;
  });
}

/**
 * Whether WordPress's comment filter leaves a saved text as it is. WordPress passes a review's
 * whole text through that filter on every update through the REST API, a change of status
 * included (the review's author, nobody, may not post unfiltered HTML): it keeps only a few
 * inline tags, no paragraphs, and writes a lone & as &amp;. Plain text (no markup, no & < >) is
 * the text it surely keeps.
 */
export function keptOnUpdate(text: string): boolean {
  return !/[<>&]/.test(text);
}

/**
 * A reviewer's name as WordPress keeps it (sanitize_text_field): tags and their script contents
 * removed, white space on one line, percent-encoded octets dropped. WordPress then stores it
 * HTML-escaped, which a read undoes.
 */
export function storedReviewerName(name: string): string {
  let text = name;
  if (text.includes('<'))
    text = text.replace(/<(script|style)[^>]*?>.*?<\/\1>/gis, '').replace(/<[^>]*>?/g, '');
  text = text.replace(/[\r\n\t ]+/g, ' ').trim();
  if (/%[a-f0-9]{2}/i.test(text))
    text = text
      .replace(/%[a-f0-9]{2}/gi, '')
      .replace(/ +/g, ' ')
      .trim();
  return text;
}

/** A name as a review answer gives it (HTML-escaped by WordPress) in plain text. */
export function reviewerNameOf(answer: string): string {
  return decodeEntities(answer);
}

/**
 * The address WordPress keeps of an e-mail (sanitize_email): '' for anything without a local
 * part, '@' and a domain of two labels; otherwise the address with the characters an address
 * may not hold removed. Its case is kept.
 */
export function storedEmail(raw: string): string {
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
