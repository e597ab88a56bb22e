import { createHash } from 'node:crypto';
import { reviewStatuses } from '@replatform/canonical/review';
import { z } from 'zod';
import { MARKER_NAMESPACE } from './documents.ts';

/**
 * Product reviews at Shopify. The Admin API has no reviews resource (reviews live in review apps),
 * so a migration keeps each product's reviews in one product metafield, replatform.reviews (type
 * json): a list of entries in the shape below, which themes and apps can read. Next to it the
 * writer keeps Shopify's standard aggregate metafields, which themes and Shopify's search show as
 * stars: reviews.rating (type rating, the average on a scale of 1 to 5) and reviews.rating_count
 * (type number_integer), both of the approved reviews only.
 *
 * An entry:
 *   key             its own key in the list, never reused: a review's id at this shop is
 *                   '<product number>:<key>', the same however the list is rewritten
 *   source_id       the review's id in the store it was migrated from (the migration's marker;
 *                   absent from entries the merchant or another tool wrote)
 *   reviewer_name, reviewer_email ('' when none), rating (1 to 5, null when the reviewer gave
 *   no stars), title ('' when none),
 *   body_html, status (approved, pending, rejected or spam), verified (a buyer of the product),
 *   created_at (ISO-8601)
 * Fields of an entry beyond these are kept as they are when the entry is rewritten.
 */

export const REVIEWS_NAMESPACE = MARKER_NAMESPACE;
export const REVIEWS_KEY = 'reviews';
/** Namespace of Shopify's standard review metafields (reviews.rating, reviews.rating_count). */
export const RATING_NAMESPACE = 'reviews';
export const RATING_KEY = 'rating';
export const RATING_COUNT_KEY = 'rating_count';

/**
 * Most a json metafield holds, in bytes of UTF-8: 128 KB for writes from API version 2026-04 on
 * (Shopify's changelog "JSON metafield values limited to 128KB"; shopify.dev "Metafield limits").
 */
export const REVIEWS_MAX_BYTES = 128 * 1024;

const validDate = (value: string) => !Number.isNaN(Date.parse(value));

export const reviewEntrySchema = z
  .object({
    key: z.string().min(1),
    source_id: z.string().min(1).optional(),
    reviewer_name: z.string().min(1),
    reviewer_email: z.string().optional(),
    rating: z.number().int().min(1).max(5).nullable(),
    title: z.string().optional(),
    body_html: z.string(),
    status: z.enum(reviewStatuses),
    verified: z.boolean().optional(),
    created_at: z.string().refine(validDate, 'not a date'),
  })
  .loose();

/** What an entry says of its review (fields beyond these are kept, not typed). */
export interface ReviewFields {
  source_id?: string;
  reviewer_name: string;
  reviewer_email?: string;
  rating: number | null;
  title?: string;
  body_html: string;
  status: (typeof reviewStatuses)[number];
  verified?: boolean;
  created_at: string;
}
export type ReviewEntry = ReviewFields & { key: string };

/** A product's reviews list as Shopify answers the metafield (null when the product has none). */
export interface ReviewsMetafield {
  type: string;
  value: string;
}

/**
 * The entries of a product's list, or why the metafield is not a list of reviews in this shape
 * (written by someone else: it is then neither read as reviews nor overwritten).
 */
export function parseReviewList(
  metafield: ReviewsMetafield | null | undefined,
): { entries: ReviewEntry[] } | { foreign: string } {
  if (!metafield) return { entries: [] };
  if (metafield.type !== 'json')
    return { foreign: `it is a ${metafield.type} metafield, not a json list of reviews` };
  let parsed: unknown;
  try {
    parsed = JSON.parse(metafield.value);
  } catch {
    return { foreign: 'its value is not JSON' };
  }
  if (!Array.isArray(parsed)) return { foreign: 'its value is not a list' };
  const entries: ReviewEntry[] = [];
  const keys = new Set<string>();
  for (const [i, item] of parsed.entries()) {
    const entry = reviewEntrySchema.safeParse(item);
    if (!entry.success)
      return {
        foreign: `its entry ${i + 1} is not a review in Replatform's shape (${entry.error.issues
          .map((issue) => issue.path.join('.') || issue.message)
          .join(', ')})`,
      };
    if (keys.has(entry.data.key)) return { foreign: `its key '${entry.data.key}' is used twice` };
    keys.add(entry.data.key);
    entries.push(entry.data as ReviewEntry);
  }
  return { entries };
}

/** The list as the metafield value: entries in their order, compact JSON. */
export function serializeReviewList(entries: readonly ReviewEntry[]): string {
  return JSON.stringify(entries);
}

export const byteLength = (text: string) => Buffer.byteLength(text, 'utf8');

/**
 * The key of a new entry: derived from its source id (so a review written again after a lost
 * answer or by another run gets the same one), made unique within the list.
 */
export function entryKey(sourceId: string, taken: ReadonlySet<string>): string {
  const base = `r${createHash('sha256').update(sourceId).digest('hex').slice(0, 12)}`;
  let key = base;
  for (let n = 2; taken.has(key); n++) key = `${base}-${n}`;
  return key;
}

// ------------------------------------------------------------------ stars

export interface Rating {
  /** Average stars of the approved reviews, a decimal with at most two places ('4.5', '4.67'). */
  value: string;
  count: number;
}

/**
 * The star rating of a list: its approved reviews that give stars only; null when it has none.
 */
export function ratingOf(entries: readonly ReviewEntry[]): Rating | null {
  const approved = entries.flatMap((e) =>
    e.status === 'approved' && e.rating !== null ? [e.rating] : [],
  );
  if (approved.length === 0) return null;
  const average = approved.reduce((n, rating) => n + rating, 0) / approved.length;
  return {
    value: (Math.round(average * 100) / 100).toFixed(2).replace(/0$/, ''),
    count: approved.length,
  };
}

/** The value of the reviews.rating metafield (type rating) on Shopify's 1 to 5 scale. */
export function ratingValue(rating: Rating): string {
  return JSON.stringify({ value: rating.value, scale_min: '1.0', scale_max: '5.0' });
}

/** The stars a shop's reviews.rating and reviews.rating_count say, if they are readable. */
export function shownRating(
  rating: ReviewsMetafield | null | undefined,
  count: ReviewsMetafield | null | undefined,
): Rating | null | 'other' {
  if (!rating && !count) return null;
  if (!rating || !count) return 'other';
  try {
    const parsed = JSON.parse(rating.value) as { value?: unknown };
    const value = Number(parsed.value);
    const n = Number(count.value);
    if (!Number.isFinite(value) || !Number.isInteger(n)) return 'other';
    return { value: String(value), count: n };
  } catch {
    return 'other';
  }
}

/** Whether two star ratings say the same (the same count, averages equal to two places). */
export function sameRating(a: Rating | null | 'other', b: Rating | null): boolean {
  if (a === 'other') return false;
  if (a === null || b === null) return a === b;
  return a.count === b.count && Math.abs(Number(a.value) - Number(b.value)) < 0.005;
}

// ------------------------------------------------------------------ merging

/** One review to write into a list: its source id and the entry it should be (without key). */
export interface WantedEntry {
  sourceId: string;
  entry: ReviewFields;
  /** The natural key: reviewer, date and text, for finding the merchant's own copy. */
  natural: string;
}

/**
 * What became of a review: created, updated or skipped (`write`: whether this merge changes its
 * entry, or a write whose answer was lost had already made it so), linked to the merchant's own
 * entry, or too large for the list.
 */
export type EntryResult =
  | { kind: 'created' | 'updated' | 'skipped'; key: string; write: boolean }
  | { kind: 'linked'; key: string }
  | { kind: 'too large'; bytes: number };

/** Reviewer, instant and text: how a review the shop already had is recognised. */
export function naturalKey(
  entry: Pick<ReviewEntry, 'reviewer_name' | 'reviewer_email' | 'created_at' | 'body_html'>,
): string {
  return JSON.stringify([
    entry.reviewer_name.trim(),
    (entry.reviewer_email ?? '').trim().toLowerCase(),
    Date.parse(entry.created_at),
    entry.body_html.trim(),
  ]);
}

const compared = [
  'source_id',
  'reviewer_name',
  'reviewer_email',
  'rating',
  'title',
  'body_html',
  'status',
  'verified',
] as const;

/** Whether an entry already says what the wanted one says (dates compared as instants). */
export function sameEntry(have: ReviewEntry, want: ReviewFields): boolean {
  return (
    compared.every((field) => have[field] === want[field]) &&
    Date.parse(have.created_at) === Date.parse(want.created_at)
  );
}

/**
 * Merges reviews into a product's list. A review is found by its source id (written by a
 * migration before: updated when it changed, else left), else by its natural key among the entries
 * no migration wrote (no source id: the merchant's own, linked, never changed), else added with a
 * new key. An entry with another source id is another review's copy, never this one's. Entries of the list that are none of these stay as they were, in their place.
 * A change that would take the list beyond Shopify's size limit is not made.
 *
 * `before` is the list as it was when this write began, so that a review a lost answer had already
 * written counts as created by this write.
 */
export function mergeReviews(
  current: readonly ReviewEntry[],
  wanted: readonly WantedEntry[],
  before: readonly ReviewEntry[] = current,
  maxBytes = REVIEWS_MAX_BYTES,
): { entries: ReviewEntry[]; results: Map<string, EntryResult>; changed: boolean } {
  const entries = current.map((e) => ({ ...e }));
  const results = new Map<string, EntryResult>();
  const keys = new Set(entries.map((e) => e.key));
  /** Entries this merge wrote or linked: a second review with the same natural key is its own. */
  const claimed = new Set<string>();
  let size = byteLength(serializeReviewList(entries));
  let changed = false;
  for (const want of wanted) {
    const had = before.find((e) => e.source_id === want.sourceId);
    const kind = had ? (sameEntry(had, want.entry) ? 'skipped' : 'updated') : 'created';
    const at = entries.findIndex((e) => e.source_id === want.sourceId);
    const existing = entries[at];
    if (existing) {
      claimed.add(existing.key);
      if (sameEntry(existing, want.entry)) {
        results.set(want.sourceId, { kind, key: existing.key, write: false });
        continue;
      }
      // Fields of the entry beyond the documented ones are kept.
      const next: ReviewEntry = { ...existing, ...want.entry, key: existing.key };
      const grown = size - byteLength(JSON.stringify(existing)) + byteLength(JSON.stringify(next));
      if (grown > maxBytes) {
        results.set(want.sourceId, { kind: 'too large', bytes: grown });
        continue;
      }
      entries[at] = next;
      size = grown;
      changed = true;
      results.set(want.sourceId, {
        kind: kind === 'skipped' ? 'updated' : kind,
        key: next.key,
        write: true,
      });
      continue;
    }
    const own = entries.find(
      (e) => e.source_id === undefined && !claimed.has(e.key) && naturalKey(e) === want.natural,
    );
    if (own) {
      claimed.add(own.key);
      results.set(want.sourceId, { kind: 'linked', key: own.key });
      continue;
    }
    const key = entryKey(want.sourceId, keys);
    const added: ReviewEntry = { key, ...want.entry };
    const grown = size + byteLength(JSON.stringify(added)) + (entries.length ? 1 : 0);
    if (grown > maxBytes) {
      results.set(want.sourceId, { kind: 'too large', bytes: grown });
      continue;
    }
    entries.push(added);
    keys.add(key);
    claimed.add(key);
    size = grown;
    changed = true;
    results.set(want.sourceId, { kind: 'created', key, write: true });
  }
  return { entries, results, changed };
}

// ------------------------------------------------------------------ products

interface AnyMetafield {
  namespace: string;
  key: string;
  type: string;
  value: string;
}

const isAt = (m: { namespace: string; key: string }, namespace: string, key: string) =>
  m.namespace === namespace && m.key === key;

/**
 * A product's metafields without those that belong to its reviews: the list in Replatform's shape
 * (read as reviews) and the star rating worked out from it (a Shopify destination works it out
 * again from the reviews it holds). A list in another shape, and stars another app keeps, stay
 * the product's own metafields.
 */
export function withoutReviewFields<M extends AnyMetafield>(metafields: M[]): M[] {
  const list = metafields.find((m) => isAt(m, REVIEWS_NAMESPACE, REVIEWS_KEY));
  if (!list) return metafields;
  const parsed = parseReviewList(list);
  if ('foreign' in parsed) return metafields;
  const rating = metafields.find((m) => isAt(m, RATING_NAMESPACE, RATING_KEY));
  const count = metafields.find((m) => isAt(m, RATING_NAMESPACE, RATING_COUNT_KEY));
  const derived = sameRating(shownRating(rating, count), ratingOf(parsed.entries));
  return metafields.filter((m) => m !== list && !(derived && (m === rating || m === count)));
}
