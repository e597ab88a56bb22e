import { z } from 'zod';

/**
 * Where a review stands in the store's moderation: shown on the product page ('approved'),
 * waiting for the merchant ('pending'), turned down by the merchant ('rejected'), or marked as
 * spam. Platforms that know fewer states say in their field declarations what each becomes.
 */
export const reviewStatuses = ['approved', 'pending', 'rejected', 'spam'] as const;
export type ReviewStatus = (typeof reviewStatuses)[number];

/**
 * A customer's review of a product (WooCommerce product review, BigCommerce product review, a
 * Shopify product's reviews metafield list). A review belongs to one product and moves after it:
 * its productId goes through the id map, and a review of a product that was not migrated fails
 * with that reason.
 */
export const reviewSchema = z.strictObject({
  /** The source platform's id, as a string. */
  id: z.string().min(1),
  /** Source id of the product reviewed. */
  productId: z.string().min(1),
  /** The name the reviewer gave, shown with the review. */
  reviewerName: z.string().min(1),
  /** The reviewer's e-mail address, '' when the platform holds none. */
  reviewerEmail: z.string(),
  /**
   * Stars given, 1 to 5; null when the reviewer gave none (a store that does not ask for a
   * rating keeps such reviews, and answers 0 for them).
   */
  rating: z.number().int().min(1).max(5).nullable(),
  /** The review's headline, '' when none (WooCommerce reviews have none). */
  title: z.string(),
  /** The review itself, as HTML (a platform that keeps plain text gets the text). */
  body: z.string(),
  status: z.enum(reviewStatuses),
  /** True when the store marked the reviewer as a buyer of the product ("verified owner"). */
  verified: z.boolean(),
  /** When the review was written (ISO-8601). */
  createdAt: z.iso.datetime({ offset: true }),
});
export type Review = z.infer<typeof reviewSchema>;
