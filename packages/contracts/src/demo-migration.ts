import { z } from 'zod';
import type { Platform } from './migration.ts';
import { verificationSchema } from './progress.ts';

/**
 * GET/POST /api/migrations/{id}/demo: the free demo migration of Select Data, which moves a few
 * records of each selected type from the real source into the real destination before payment.
 */
export const demoMigrationSchema = z.object({
  /** none: never run; queued/running: under way; completed/failed: the last demo's outcome. */
  state: z.enum(['none', 'queued', 'running', 'completed', 'failed']),
  /** Records of each selected type a demo moves (besides what its orders and reviews name). */
  limit: z.number().int().positive(),
  /** Demo runs this migration has had, and may have. */
  runsUsed: z.number().int().nonnegative(),
  runsAllowed: z.number().int().nonnegative(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  /** Why the last demo failed, in words the owner can act on. */
  message: z.string().optional(),
  /** What the last demo did per data type so far (categories included). */
  entities: z.record(
    z.string(),
    z.object({
      migrated: z.number().int().nonnegative(),
      skipped: z.number().int().nonnegative(),
      failed: z.number().int().nonnegative(),
    }),
  ),
  /** The record-by-record check of what the demo wrote; null until it ran. */
  verification: verificationSchema.nullable(),
  /** The demo's records, each with a link to it in the destination's admin where there is one. */
  records: z.array(
    z.object({
      entity: z.string(),
      sourceId: z.string(),
      destinationId: z.string().nullable(),
      outcome: z.enum(['migrated', 'skipped', 'failed']),
      reason: z.string().nullable(),
      adminUrl: z.string().nullable(),
    }),
  ),
});
export type DemoMigration = z.infer<typeof demoMigrationSchema>;

/** The number at the end of a Shopify global id ('gid://shopify/Product/42' -> '42'). */
function shopifyNumber(id: string): string | null {
  return /(\d+)(?:\?.*)?$/.exec(id)?.[1] ?? null;
}

/**
 * Where the merchant sees a migrated record in the destination store's admin, or null where the
 * platform's admin address cannot be told from the store's address (BigCommerce's control panel
 * lives on its own host, and Magento's admin path is the merchant's choice).
 */
export function adminRecordUrl(
  platform: Platform,
  storeUrl: string,
  entity: string,
  destinationId: string | null,
): string | null {
  // A Shopify store is kept by its domain ('shop.myshopify.com').
  const address = /^[a-z][a-z0-9+.-]*:/i.test(storeUrl) ? storeUrl : `https://${storeUrl}`;
  if (!destinationId || !URL.canParse(address)) return null;
  const base = new URL(address);
  if (base.protocol !== 'https:' && base.protocol !== 'http:') return null;
  const at = (path: string) =>
    new URL(path, `${base.origin}${base.pathname.replace(/\/*$/, '/')}`).href;
  const id = encodeURIComponent(destinationId);
  if (platform === 'woocommerce') {
    switch (entity) {
      case 'products':
      case 'coupons':
      case 'pages':
      case 'posts':
        return at(`wp-admin/post.php?post=${id}&action=edit`);
      case 'orders':
        return at(`wp-admin/admin.php?page=wc-orders&action=edit&id=${id}`);
      case 'customers':
        return at(`wp-admin/user-edit.php?user_id=${id}`);
      case 'categories':
        return at(`wp-admin/term.php?taxonomy=product_cat&tag_ID=${id}&post_type=product`);
      case 'brands':
        return at(`wp-admin/term.php?taxonomy=product_brand&tag_ID=${id}&post_type=product`);
      case 'reviews':
        return at(`wp-admin/comment.php?action=editcomment&c=${id}`);
      default:
        return null;
    }
  }
  if (platform === 'shopify') {
    const path: Record<string, string> = {
      products: 'products',
      categories: 'collections',
      customers: 'customers',
      orders: 'orders',
      coupons: 'discounts',
      pages: 'pages',
      posts: 'articles',
      // A review lives on its product ('<product number>:<key>').
      reviews: 'products',
    };
    const section = path[entity];
    const number = shopifyNumber(
      entity === 'reviews' ? (destinationId.split(':')[0] ?? '') : destinationId,
    );
    return section && number ? `${base.origin}/admin/${section}/${number}` : null;
  }
  return null;
}
