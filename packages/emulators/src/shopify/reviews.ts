import type { SampleReview } from '../framework/sample-store.ts';
import type { MetafieldRec, ProductRec, ShopStore } from './store.ts';

/**
 * Product reviews in a shop. Shopify's Admin API has no reviews resource (review apps keep their
 * own), so a shop holds them where Replatform keeps them: each product's reviews are one product
 * metafield, replatform.reviews (type json), a list of entries in the shape the Shopify connector
 * documents (packages/connectors/src/shopify/README.md, "Reviews"), next to Shopify's standard
 * aggregate metafields that themes show as stars, reviews.rating (type rating) and
 * reviews.rating_count (type number_integer), worked out from the approved reviews.
 *
 * Shopify itself knows nothing of the entries: the emulator enforces only what Shopify enforces of
 * the metafields (metafields.ts, mutations.ts). The shape lives here to seed shops and to count
 * what a shop holds.
 */

export const REVIEWS_NAMESPACE = 'replatform';
export const REVIEWS_KEY = 'reviews';
export const RATING_NAMESPACE = 'reviews';

/** One review of a product's list, as the connector writes it. */
export interface ReviewEntry {
  key: string;
  /** The review's id in the store it was migrated from (absent for the shop's own reviews). */
  source_id?: string;
  reviewer_name: string;
  reviewer_email: string;
  /** 1 to 5, null for a review given without stars. */
  rating: number | null;
  title: string;
  body_html: string;
  status: 'approved' | 'pending' | 'rejected' | 'spam';
  verified: boolean;
  created_at: string;
}

const isEntry = (value: unknown): boolean =>
  value !== null &&
  typeof value === 'object' &&
  typeof (value as Record<string, unknown>).key === 'string' &&
  typeof (value as Record<string, unknown>).reviewer_name === 'string' &&
  (typeof (value as Record<string, unknown>).rating === 'number' ||
    (value as Record<string, unknown>).rating === null);

/** The entries of a product's reviews list, or none when it has no list of that shape. */
export function reviewEntriesOf(product: ProductRec): ReviewEntry[] {
  const list = product.metafields.find(
    (m) => m.namespace === REVIEWS_NAMESPACE && m.key === REVIEWS_KEY && m.type === 'json',
  );
  if (!list) return [];
  try {
    const parsed = JSON.parse(list.value) as unknown;
    return Array.isArray(parsed) && parsed.every(isEntry) ? (parsed as ReviewEntry[]) : [];
  } catch {
    return [];
  }
}

/** Reviews the shop holds: the entries of every product's list. */
export function countReviews(store: ShopStore): number {
  let n = 0;
  for (const p of store.products.values()) n += reviewEntriesOf(p).length;
  return n;
}

/** A decimal with at most two places, at least one ('5.0', '4.5', '4.67'). */
function decimalText(value: number): string {
  return (Math.round(value * 100) / 100).toFixed(2).replace(/0$/, '');
}

/**
 * The aggregate metafields of a list: average stars and count of its approved reviews that give
 * stars.
 */
export function ratingMetafields(
  store: ShopStore,
  entries: readonly ReviewEntry[],
  at: string,
): MetafieldRec[] {
  const approved = entries.flatMap((e) =>
    e.status === 'approved' && e.rating !== null ? [e.rating] : [],
  );
  if (approved.length === 0) return [];
  const average = approved.reduce((n, rating) => n + rating, 0) / approved.length;
  const field = (key: string, type: string, value: string): MetafieldRec => ({
    id: store.nextId(),
    namespace: RATING_NAMESPACE,
    key,
    type,
    value,
    createdAt: at,
    updatedAt: at,
  });
  return [
    field(
      'rating',
      'rating',
      JSON.stringify({ value: decimalText(average), scale_min: '1.0', scale_max: '5.0' }),
    ),
    field('rating_count', 'number_integer', String(approved.length)),
  ];
}

/**
 * Seeds the sample reviews in the shop's shape: each reviewed product gets its list (entries in
 * the order the sample gives them, keyed by the sample's key) and, when one of them is approved,
 * its star rating and count.
 */
export function seedReviews(
  store: ShopStore,
  reviews: readonly SampleReview[],
  productOf: (key: string) => ProductRec | undefined,
): void {
  const byProduct = new Map<ProductRec, ReviewEntry[]>();
  for (const r of reviews) {
    const product = productOf(r.productKey);
    if (!product) continue;
    const entries = byProduct.get(product) ?? [];
    entries.push({
      key: r.key,
      reviewer_name: r.reviewerName,
      reviewer_email: r.reviewerEmail,
      rating: r.rating,
      title: r.title,
      body_html: r.body,
      status: r.status,
      verified: r.verified,
      created_at: r.createdAt,
    });
    byProduct.set(product, entries);
  }
  for (const [product, entries] of byProduct) {
    const at =
      entries
        .map((e) => e.created_at)
        .sort()
        .pop() ?? store.timestamp();
    const when = at.replace(/\.\d{3}Z$/, 'Z');
    product.metafields.push(
      {
        id: store.nextId(),
        namespace: REVIEWS_NAMESPACE,
        key: REVIEWS_KEY,
        type: 'json',
        value: JSON.stringify(entries),
        createdAt: when,
        updatedAt: when,
      },
      ...ratingMetafields(store, entries, when),
    );
  }
}
