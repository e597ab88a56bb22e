import { z } from 'zod';
import { runSpeedSchema, runWaitingSchema } from './run-speed.ts';

/** GET /migration-progress?migrationId= (spec.md section 3, progress response). */
export const migrationProgressSchema = z.object({
  productsTotal: z.number().int().nonnegative(),
  customersTotal: z.number().int().nonnegative(),
  ordersTotal: z.number().int().nonnegative(),
  productsCompleted: z.number().int().nonnegative(),
  customersCompleted: z.number().int().nonnegative(),
  ordersCompleted: z.number().int().nonnegative(),
  /** Coupons, beyond the sketch's three types: 0 when not selected. */
  couponsTotal: z.number().int().nonnegative().optional(),
  couponsCompleted: z.number().int().nonnegative().optional(),
  /** Product reviews, likewise: 0 when not selected. */
  reviewsTotal: z.number().int().nonnegative().optional(),
  reviewsCompleted: z.number().int().nonnegative().optional(),
  /** Brands, likewise: 0 when not selected. */
  brandsTotal: z.number().int().nonnegative().optional(),
  brandsCompleted: z.number().int().nonnegative().optional(),
  /** Web pages and blog posts, likewise: 0 when not selected. */
  pagesTotal: z.number().int().nonnegative().optional(),
  pagesCompleted: z.number().int().nonnegative().optional(),
  postsTotal: z.number().int().nonnegative().optional(),
  postsCompleted: z.number().int().nonnegative().optional(),
  /** 0 to 100. */
  overallProgress: z.number().min(0).max(100),
  /** Where the run stands (beyond the sketch): payment_required asks the owner to top up. */
  state: z
    .enum(['idle', 'queued', 'running', 'verifying', 'completed', 'failed', 'payment_required'])
    .optional(),
  /** Why the run failed or stopped, in words the owner can act on. */
  message: z.string().optional(),
  /** The store the run is waiting for while it is down; absent when none. */
  waiting: runWaitingSchema.optional(),
  /** Records done over time, the measured rate and the time left; absent before a run. */
  speed: runSpeedSchema.optional(),
});
export type MigrationProgress = z.infer<typeof migrationProgressSchema>;

/** Status line of the Migrate step (spec.md section 4), from the progress figures. */
export function migrateStatusText(
  p: MigrationProgress,
  selected: {
    products?: boolean;
    customers?: boolean;
    orders?: boolean;
    coupons?: boolean;
    reviews?: boolean;
    brands?: boolean;
    pages?: boolean;
    posts?: boolean;
  },
): string {
  const streams = [
    {
      on: selected.brands,
      done: p.brandsCompleted ?? 0,
      total: p.brandsTotal ?? 0,
      text: 'Migrating brands...',
    },
    {
      on: selected.products,
      done: p.productsCompleted,
      total: p.productsTotal,
      text: 'Migrating products...',
    },
    {
      on: selected.coupons,
      done: p.couponsCompleted ?? 0,
      total: p.couponsTotal ?? 0,
      text: 'Migrating coupons...',
    },
    {
      on: selected.customers,
      done: p.customersCompleted,
      total: p.customersTotal,
      text: 'Migrating customers...',
    },
    {
      on: selected.orders,
      done: p.ordersCompleted,
      total: p.ordersTotal,
      text: 'Migrating orders...',
    },
    {
      on: selected.reviews,
      done: p.reviewsCompleted ?? 0,
      total: p.reviewsTotal ?? 0,
      text: 'Migrating reviews...',
    },
    {
      on: selected.pages,
      done: p.pagesCompleted ?? 0,
      total: p.pagesTotal ?? 0,
      text: 'Migrating pages...',
    },
    {
      on: selected.posts,
      done: p.postsCompleted ?? 0,
      total: p.postsTotal ?? 0,
      text: 'Migrating blog posts...',
    },
  ].filter((s) => s.on);
  if (p.overallProgress >= 100) return 'Migration complete!';
  const started = streams.some((s) => s.done > 0);
  if (!started) return 'Initializing migration...';
  const pending = streams.find((s) => s.done < s.total);
  return pending ? pending.text : 'Finalizing migration...';
}

/** Result of comparing source and destination record by record after a run. */
export const verificationSchema = z.object({
  status: z.enum(['not-run', 'running', 'passed', 'failed']),
  checkedAt: z.string().nullable(),
  /** Why the comparison could not be made, when it could not. */
  message: z.string().optional(),
  entities: z.record(
    z.string(),
    z.object({
      checked: z.number().int().nonnegative(),
      matched: z.number().int().nonnegative(),
      mismatched: z.number().int().nonnegative(),
      missing: z.number().int().nonnegative(),
    }),
  ),
  /**
   * Fields the destination could not hold (or the source's model could not carry), with the
   * reason and how many migrated records had a value for each: a run with any is "completed with
   * N known differences", never "every record matches".
   */
  knownDifferences: z.array(
    z.object({
      entity: z.string(),
      field: z.string(),
      reason: z.string(),
      records: z.number().int().nonnegative(),
    }),
  ),
  /** A few differences to show, e.g. { entity, sourceId, destinationId, field, detail }. */
  examples: z.array(
    z.object({
      entity: z.string(),
      sourceId: z.string(),
      destinationId: z.string().nullable(),
      detail: z.string(),
    }),
  ),
});
export type Verification = z.infer<typeof verificationSchema>;
