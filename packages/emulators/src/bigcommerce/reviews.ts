import { z } from 'zod';
import type { CatalogContext } from './catalog.ts';
import { v3Date } from './http.ts';
import type { BcProduct, BcReview } from './state.ts';

/**
 * Product reviews (products_catalog.v3.yml `/catalog/products/{product_id}/reviews`). What the
 * description says, and where the emulator reads it strictly:
 *
 * - POST requires `title` and `date_reviewed` ("Required Fields"). The schema lets the title be
 *   0 to 255 characters; the emulator refuses an empty (or blank) title, since a review
 *   "requires" one, so that nothing passes here that depends on BigCommerce taking an empty one.
 * - PUT says "Required Fields: none" in its text, but its schema (Product Review Put, allOf the
 *   same base) requires `title` and `date_reviewed` too; the emulator follows the schema, as the
 *   request validator does, so a review is written whole.
 * - `rating` is one of 0 to 5; `status` one of approved, disapproved, pending (pending when left
 *   out, as the v2 reviews API documented); `name` at most 255 characters.
 * - `email` "must be a valid email, or an empty string". A report against the documentation
 *   (bigcommerce/dev-docs pull request 886) says the live API refuses the empty string; the
 *   emulator does too, so a review without an address is sent without the field.
 * - Fields the base does not declare (the read-only `id`, `product_id`, `date_created`,
 *   `date_modified`) are refused with 422, like every closed body of this emulator.
 *
 * A product's `reviews_count` and `reviews_rating_sum` count its approved reviews only, as
 * BigCommerce answered in bigcommerce/docs issue 563 ("when this review is sent and approved,
 * reviews_count will increase by 1"): a product whose reviews all wait for moderation shows 0.
 */

export const reviewStatuses = ['approved', 'disapproved', 'pending'] as const;

/** What "a valid email" means here: something@domain.tld, without spaces. */
const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** RFC 3339 date-time, the `format: date-time` of `date_reviewed`. */
const dateTimePattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

const dateTime = z
  .string()
  .refine((v) => dateTimePattern.test(v) && Number.isFinite(Date.parse(v)), 'must be a date-time')
  .transform((v) => Date.parse(v));

const reviewFields = {
  title: z
    .string()
    .max(255)
    .refine((v) => v.trim() !== '', 'a review needs a title'),
  text: z.string().optional(),
  status: z.enum(reviewStatuses).optional(),
  rating: z.number().int().min(0).max(5).optional(),
  email: z
    .string()
    .refine((v) => emailPattern.test(v), 'must be a valid email address')
    .optional(),
  name: z.string().max(255).optional(),
  date_reviewed: dateTime,
};

/** POST .../reviews (Product Review Post). */
export const reviewCreateSchema = z.strictObject(reviewFields);
export type ReviewCreate = z.infer<typeof reviewCreateSchema>;

/** PUT .../reviews/{id} (Product Review Put: the same base, with its required fields). */
export const reviewUpdateSchema = reviewCreateSchema;
export type ReviewUpdate = z.infer<typeof reviewUpdateSchema>;

/** Sets the product's review aggregates from its approved reviews. */
export function recountReviews(ctx: CatalogContext, product: BcProduct): void {
  const approved = ctx.state.reviews.filter(
    (r) => r.product_id === product.id && r.status === 'approved',
  );
  product.reviews_count = approved.length;
  product.reviews_rating_sum = approved.reduce((sum, r) => sum + r.rating, 0);
}

export function createReview(
  ctx: CatalogContext,
  product: BcProduct,
  input: ReviewCreate,
  now = ctx.now(),
): BcReview {
  const review: BcReview = {
    id: ctx.state.nextId('review'),
    product_id: product.id,
    title: input.title,
    text: input.text ?? '',
    status: input.status ?? 'pending',
    rating: input.rating ?? 0,
    email: input.email ?? '',
    name: input.name ?? '',
    date_reviewed: input.date_reviewed,
    date_created: now,
    date_modified: now,
  };
  ctx.state.reviews.push(review);
  recountReviews(ctx, product);
  return review;
}

export function updateReview(
  ctx: CatalogContext,
  product: BcProduct,
  review: BcReview,
  input: ReviewUpdate,
): void {
  const changes = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
  Object.assign(review, changes, { date_modified: ctx.now() });
  recountReviews(ctx, product);
}

export function deleteReview(ctx: CatalogContext, product: BcProduct, review: BcReview): void {
  const { reviews } = ctx.state;
  reviews.splice(reviews.indexOf(review), 1);
  recountReviews(ctx, product);
}

/** The reviews of a product, oldest id first. */
export function reviewsOf(ctx: CatalogContext, productId: number): BcReview[] {
  return ctx.state.reviews.filter((r) => r.product_id === productId).sort((a, b) => a.id - b.id);
}

/** A review as the API answers it (Product Review with `product_id`, as the examples show). */
export function reviewJson(r: BcReview): Record<string, unknown> {
  return {
    id: r.id,
    product_id: r.product_id,
    title: r.title,
    text: r.text,
    status: r.status,
    rating: r.rating,
    email: r.email,
    name: r.name,
    date_reviewed: v3Date(r.date_reviewed),
    date_created: v3Date(r.date_created),
    date_modified: v3Date(r.date_modified),
  };
}
