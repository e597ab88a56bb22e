import type { Review, ReviewStatus } from '@replatform/canonical/review';
import { isoDate } from './map-catalog.ts';
import type { Json } from './native.ts';
import type { BcReview } from './payloads.ts';

/**
 * BigCommerce product reviews (products_catalog.v3.yml "Product Review") <-> canonical reviews.
 *
 * - The text is plain text at BigCommerce (the storefront shows it with any markup stripped); the
 *   model's body is HTML. Read, the text becomes escaped paragraphs (a blank line apart) with
 *   line breaks; written, the HTML becomes text with its paragraphs and line breaks, and other
 *   formatting (bold, links, lists) is named in the report.
 * - BigCommerce requires a title (at most 255 characters). A review without one is written with
 *   the first sentence of its text, or its rating in stars when it has no text, and says so.
 * - Moderation: approved and pending are the same on both sides; disapproved reads as rejected,
 *   and rejected and spam are both written as disapproved (spam is named in the report).
 * - BigCommerce keeps no "verified buyer" flag: reviews read from it are not verified, and a
 *   destination declares the flag unsupported.
 * - A review without a reviewer name, or with 0 stars (BigCommerce takes 0 to 5), has no place in
 *   the model, which needs a name and 1 to 5 stars: it is not read, with that reason.
 */

/** products_catalog.v3.yml Product Review Base: title and name are at most 255 characters. */
export const titleMaxLength = 255;
export const nameMaxLength = 255;

/** What BigCommerce takes as "a valid email" (products_catalog.v3.yml Product Review Base). */
const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const statusesRead: Record<string, ReviewStatus> = {
  approved: 'approved',
  pending: 'pending',
  disapproved: 'rejected',
};

const statusesWritten: Record<ReviewStatus, BcReviewBody['status']> = {
  approved: 'approved',
  pending: 'pending',
  rejected: 'disapproved',
  spam: 'disapproved',
};

const named: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
};

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name.startsWith('#')) {
      const code =
        name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1));
      return Number.isInteger(code) && code > 0 && code <= 0x10ffff
        ? String.fromCodePoint(code)
        : whole;
    }
    return named[name.toLowerCase()] ?? whole;
  });
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Tags that end a paragraph of text. */
const blockTags =
  'p|div|h[1-6]|blockquote|pre|ul|ol|table|section|article|header|footer|figure|figcaption';

/**
 * A review's HTML as plain text: whitespace as HTML reads it, paragraphs (and other blocks) a
 * blank line apart, line breaks and list items on lines of their own, tags dropped, entities
 * decoded. Text already in this form comes back unchanged through textToHtml and this.
 */
export function htmlToText(html: string): string {
  const text = html
    // HTML whitespace (not the no-break space, which is text).
    .replace(/[ \t\n\r\f]+/g, ' ')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(new RegExp(`</?(?:${blockTags})(?:\\s[^>]*)?>`, 'gi'), '\n\n')
    .replace(/<\/(?:li|tr|dt|dd)\s*>/gi, '\n')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<\/?[a-z][^>]*>/gi, '');
  return decodeEntities(text)
    .replace(/[ \t\r\f]+/g, ' ')
    .split('\n')
    .map((line) => line.replace(/^ +| +$/g, ''))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .replace(/^\n+|\n+$/g, '');
}

/** Plain text as HTML: escaped paragraphs (split at blank lines), line breaks as <br>. */
export function textToHtml(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t]*\n/)
    .map((paragraph) =>
      paragraph
        .split('\n')
        .map((line) => line.replace(/^[ \t]+|[ \t]+$/g, ''))
        .filter((line) => line !== '')
        .join('\n'),
    )
    .filter((paragraph) => paragraph !== '')
    .map((paragraph) => `<p>${escapeHtml(paragraph).replace(/\n/g, '<br>')}</p>`)
    .join('');
}

/** Whether HTML carries formatting beyond paragraphs and line breaks, which plain text loses. */
export function hasFormatting(html: string): boolean {
  for (const match of html.matchAll(/<\/?([a-z][a-z0-9]*)\b[^>]*>/gi))
    if (!['p', 'br'].includes((match[1] ?? '').toLowerCase())) return true;
  return false;
}

const stars = (rating: number | null) => {
  const n = Math.max(0, Math.min(5, rating ?? 0));
  return '★'.repeat(n) + '☆'.repeat(5 - n);
};

/**
 * The title a review without one is written with: the first sentence of its first line of text,
 * at most 80 characters (cut at a word), or its rating in stars when it has no text.
 */
export function headline(text: string, rating: number | null): string {
  const first =
    text
      .split('\n')
      .map((line) => line.trim())
      .find((line) => line !== '') ?? '';
  if (!first) return stars(rating);
  const sentence = /^.+?[.!?…。！？](?=\s|$)/u.exec(first)?.[0] ?? first;
  const chars = [...sentence];
  if (chars.length <= 80) return sentence;
  const cut = chars.slice(0, 80).join('');
  const space = cut.lastIndexOf(' ');
  return (space > 20 ? cut.slice(0, space) : cut).trimEnd();
}

export function reviewToCanonical(r: BcReview, productId: number): Review {
  if (!r.name)
    throw new Error(
      `review ${r.id} has no reviewer name, which the model requires (BigCommerce shows it as anonymous)`,
    );
  // 0 is BigCommerce's rating of a review given without stars.
  if (!Number.isInteger(r.rating) || r.rating < 0 || r.rating > 5)
    throw new Error(
      `review ${r.id} gives ${r.rating} stars; the model keeps ratings of 1 to 5 stars (rating)`,
    );
  const status = statusesRead[r.status];
  if (!status) throw new Error(`review ${r.id} has a status the model does not know: ${r.status}`);
  const createdAt = isoDate(r.date_reviewed);
  if (!createdAt) throw new Error(`review ${r.id} has no date it was reviewed`);
  return {
    id: String(r.id),
    productId: String(productId),
    reviewerName: r.name,
    reviewerEmail: r.email,
    rating: r.rating === 0 ? null : r.rating,
    title: r.title,
    body: textToHtml(r.text),
    status,
    // BigCommerce does not say whether the reviewer bought the product.
    verified: false,
    createdAt,
  };
}

/** The body of POST (and PUT, which takes the review whole) .../reviews. */
export interface BcReviewBody {
  title: string;
  text: string;
  status: 'approved' | 'disapproved' | 'pending';
  rating: number;
  /** Left out when the review has none: BigCommerce refuses an empty address. */
  email?: string;
  name: string;
  date_reviewed: string;
}

export type ReviewWrite =
  { ok: true; body: BcReviewBody; warnings: string[] } | { ok: false; reason: string };

/** At most `max` characters (code points), cut at the end. */
function shorten(text: string, max: number): string | undefined {
  const chars = [...text];
  return chars.length > max ? chars.slice(0, max).join('').trimEnd() : undefined;
}

/**
 * The review as BigCommerce takes it, or why BigCommerce would refuse it. Fields BigCommerce has
 * no place for (verified) are reported by the run from destinationFields; the warnings here name
 * what the mapping itself gave up or added.
 */
export function reviewToBc(review: Review): ReviewWrite {
  const warnings: string[] = [];
  const email = review.reviewerEmail.trim();
  if (email && !emailPattern.test(email))
    return {
      ok: false,
      reason: `BigCommerce takes a reviewer's e-mail only when it is an address, and '${review.reviewerEmail}' is not one (reviewerEmail)`,
    };
  const text = htmlToText(review.body);
  if (hasFormatting(review.body))
    warnings.push(
      "the text's formatting (bold, links, lists) was not kept: BigCommerce keeps a review's text as plain text (body)",
    );
  let title = review.title;
  if (title.trim() === '') {
    title = headline(text, review.rating);
    warnings.push(
      text
        ? `the review had no title, which BigCommerce requires: the first sentence of its text, '${title}', was written as its title (title)`
        : `the review had no title and no text; BigCommerce requires a title, so its rating in stars, '${title}', was written as its title (title)`,
    );
  }
  const shortTitle = shorten(title, titleMaxLength);
  if (shortTitle !== undefined) {
    title = shortTitle;
    warnings.push(
      `the title was shortened to ${titleMaxLength} characters, the most a BigCommerce review title holds (title)`,
    );
  }
  let name = review.reviewerName;
  const shortName = shorten(name, nameMaxLength);
  if (shortName !== undefined) {
    name = shortName;
    warnings.push(
      `the reviewer's name was shortened to ${nameMaxLength} characters, the most BigCommerce holds (reviewerName)`,
    );
  }
  if (review.status === 'spam')
    warnings.push(
      'the review was marked as spam, a state BigCommerce does not have: it was written as disapproved (status)',
    );
  return {
    ok: true,
    body: {
      title,
      text,
      status: statusesWritten[review.status],
      // BigCommerce keeps a review given without stars as a rating of 0.
      rating: review.rating ?? 0,
      ...(email ? { email } : {}),
      name,
      date_reviewed: new Date(review.createdAt).toISOString(),
    },
    warnings,
  };
}

/** What two reviews are compared on to tell whether they are the same review. */
export interface ReviewFields {
  title: string;
  text: string;
  status: string;
  rating: number;
  email?: string;
  name: string;
  date_reviewed: string;
}

const words = (text: string) => text.normalize('NFC').replace(/\s+/g, ' ').trim().toLowerCase();
const second = (date: string) => Math.floor(Date.parse(date) / 1000);

/**
 * The natural key of a review on its product: the reviewer's name and e-mail, the second it was
 * reviewed, and its text (its title when it has no text). Reviews carry no custom fields for a
 * marker, so a run finds the reviews an earlier run wrote by this key.
 */
export function naturalKey(r: ReviewFields): string {
  return [
    words(r.name),
    (r.email ?? '').trim().toLowerCase(),
    String(second(r.date_reviewed)),
    words(r.text || r.title),
  ].join('\u0000');
}

/** Whether a review at the destination already holds what would be written. */
export function sameReview(current: ReviewFields, wanted: ReviewFields): boolean {
  return (
    current.title === wanted.title &&
    current.text === wanted.text &&
    current.status === wanted.status &&
    current.rating === wanted.rating &&
    (current.email ?? '').toLowerCase() === (wanted.email ?? '').toLowerCase() &&
    current.name === wanted.name &&
    second(current.date_reviewed) === second(wanted.date_reviewed)
  );
}

/**
 * The forms a BigCommerce destination keeps these review fields in (DestinationFields.comparable):
 * a review without a title holds the one written for it, its text holds what plain text keeps,
 * and its date is kept to the second.
 */
export const reviewTitleAsWritten = (value: unknown, record: Readonly<Json>): unknown =>
  typeof value === 'string' && value.trim() === ''
    ? headline(htmlToText(String(record.body ?? '')), Number(record.rating ?? 0))
    : value;

export const reviewTextAsKept = (value: unknown): unknown =>
  typeof value === 'string' ? htmlToText(value) : value;

export const toTheSecond = (value: unknown): unknown => {
  if (typeof value !== 'string') return value;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? new Date(Math.floor(ms / 1000) * 1000).toISOString() : value;
};
