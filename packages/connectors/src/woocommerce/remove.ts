import { z } from 'zod';
import type { EntityType } from '@replatform/canonical/entities';
import type { AssetRecord, RemoveOutcome } from '../kit/contract.ts';
import { ConnectorError } from '../kit/errors.ts';
import { runBatch, type BatchOp } from './batch.ts';
import type { WooClient } from './client.ts';
import type { WcError } from './wc-schemas.ts';

/**
 * Undo: deletes, for good, what a migration created in a WooCommerce store (Connection.remove and
 * removeAssets). What a real WooCommerce 11.0.1 store does (real-store/remove-behaviour.ts keeps
 * it checked):
 *
 * - wc/v3 records go through their `.../batch` routes with `delete: [ids]`, at most 100 a request
 *   (batch.ts cuts and shrinks them). A batch delete is always forced: a product, order or coupon
 *   skips the bin (even one the owner put there since), a product takes its variations and its
 *   reviews with it. An id the store no longer has answers an error item with status 404
 *   (woocommerce_rest_product_invalid_id, wc_user_invalid_id, woocommerce_rest_term_invalid...):
 *   'gone'. A batch sent again after a lost answer finds what it deleted gone, which is 'gone'.
 * - A customer who has orders is deleted; the orders stay, as guest orders. A deleted category's
 *   subcategories move up to its parent. WooCommerce refuses to delete its default category.
 * - Pages and posts go one by one through wp/v2 (`DELETE ...?force=true`, no bin); a deleted
 *   page's subpages move up to its parent. They need the WordPress application password.
 * - Assets: terms a write created (product tags, vendor brands, shipping classes, store-wide
 *   attributes and their terms; post categories and tags) once nothing uses them, and media
 *   library images (wp/v2 media, only with the WordPress application password: wc/v3 has no
 *   route that deletes a file).
 */

const batchRoutes: Record<Exclude<EntityType, 'pages' | 'posts'>, string> = {
  categories: '/products/categories/batch',
  brands: '/products/brands/batch',
  products: '/products/batch',
  coupons: '/coupons/batch',
  customers: '/customers/batch',
  orders: '/orders/batch',
  reviews: '/products/reviews/batch',
};

const what: Record<EntityType, string> = {
  categories: 'product category',
  brands: 'brand',
  products: 'product',
  coupons: 'coupon',
  customers: 'customer',
  orders: 'order',
  reviews: 'review',
  pages: 'page',
  posts: 'post',
};

/** Where a term asset is deleted (see termAsset in terms.ts for its encoding). */
const termBatchRoutes: Record<string, string> = {
  product_tag: '/products/tags/batch',
  product_brand: '/products/brands/batch',
  product_shipping_class: '/products/shipping_classes/batch',
};
const wpTermRoutes: Record<string, string> = {
  category: '/wp-json/wp/v2/categories',
  post_tag: '/wp-json/wp/v2/tags',
};

const usageSchema = z.looseObject({ id: z.number(), count: z.number().catch(0) });

/** A store's "this does not exist" (any 404 of an item). */
const isMissing = (e: WcError) =>
  e.data?.status === 404 || /invalid_id|term_invalid|taxonomy_invalid/.test(e.code);

const clean = (text: string) => text.replace(/<[^>]*>/g, '').trim();

/** Why the store kept a record, in the owner's words, with what they can do. */
function refusal(kind: string, e: { code: string; message: string }): string {
  const said = `${clean(e.message)} (${e.code})`;
  if (e.code === 'woocommerce_rest_cannot_delete' || e.code === 'rest_cannot_delete')
    return `WooCommerce would not delete this ${kind}: ${said}. It is probably the store's default ${kind}, which WooCommerce keeps; choose another default under Products > Categories, or leave it.`;
  return `WooCommerce did not delete this ${kind}: ${said}. Delete it in the WordPress admin, or try undo again.`;
}

export class Remover {
  private readonly client: WooClient;

  constructor(client: WooClient) {
    this.client = client;
  }

  async remove(entity: EntityType, ids: readonly string[]): Promise<RemoveOutcome[]> {
    if (entity === 'pages' || entity === 'posts')
      return this.oneByOne(ids, (id) => `/wp-json/wp/v2/${entity}/${id}`, what[entity]);
    return this.batch(batchRoutes[entity], ids, what[entity]);
  }

  /** Deletes through a wc/v3 batch route; one outcome per id, in order. */
  private async batch(route: string, ids: readonly string[], kind: string) {
    const outcomes: RemoveOutcome[] = ids.map((id) => ({ destinationId: id, outcome: 'gone' }));
    const ops: BatchOp[] = [];
    ids.forEach((id, key) => {
      // An id that is no number was never one of this store's: there is nothing to delete.
      if (/^\d+$/.test(id) && Number(id) > 0) ops.push({ key, body: { id: Number(id) } });
    });
    if (!ops.length) return outcomes;
    const results = await runBatch(
      this.client,
      route,
      { create: [], update: [], delete: ops },
      async () => new Map(),
    );
    for (const op of ops) {
      const result = results.get(op.key);
      const id = ids[op.key] as string;
      if (result?.ok) outcomes[op.key] = { destinationId: id, outcome: 'removed' };
      else if (result && isMissing(result.error))
        outcomes[op.key] = { destinationId: id, outcome: 'gone' };
      else
        outcomes[op.key] = {
          destinationId: id,
          outcome: 'failed',
          reason: result
            ? refusal(kind, result.error)
            : `The store did not answer for this ${kind}; try undo again.`,
        };
    }
    return outcomes;
  }

  /**
   * Deletes through wp/v2, one request at a time (WordPress has no batch route for these), with
   * force: nothing goes to the bin. Sent again after a lost answer, a delete finds nothing: 'gone'.
   */
  private async oneByOne(
    ids: readonly string[],
    path: (id: string) => string,
    kind: string,
  ): Promise<RemoveOutcome[]> {
    const outcomes: RemoveOutcome[] = [];
    for (const id of ids) {
      if (!/^\d+$/.test(id)) {
        outcomes.push({ destinationId: id, outcome: 'gone' });
        continue;
      }
      outcomes.push(await this.deleteOne(id, path(id), kind));
    }
    return outcomes;
  }

  private async deleteOne(id: string, path: string, kind: string): Promise<RemoveOutcome> {
    try {
      await this.client.request('DELETE', path, {
        query: { force: true },
        retryable: true,
        schema: z.unknown(),
      });
      return { destinationId: id, outcome: 'removed' };
    } catch (error) {
      if (!(error instanceof ConnectorError)) throw error;
      if (error.status === 404) return { destinationId: id, outcome: 'gone' };
      // WordPress answers 403 rest_cannot_delete for the one term it keeps (the default post
      // category); the client reads any 403 of wp/v2 as a refused password.
      if (error.status === 403 && /rest_cannot_delete/.test(error.message))
        return {
          destinationId: id,
          outcome: 'failed',
          reason: refusal(kind, { code: 'rest_cannot_delete', message: 'not allowed' }),
        };
      if (error.errorClass === 'system' && error.status !== undefined && error.status < 500)
        return {
          destinationId: id,
          outcome: 'failed',
          reason: `WordPress did not delete this ${kind}: ${error.message}. Delete it in the WordPress admin, or try undo again.`,
        };
      throw error;
    }
  }

  /**
   * Terms and images the writes stored, in the order given. Attribute terms go before their
   * attributes (an attribute takes its terms with it, which then answer 'gone'). A term that a
   * product the migration did not create uses now (its count) is kept, and said so.
   */
  async removeAssets(assets: readonly AssetRecord[]): Promise<RemoveOutcome[]> {
    const outcomes: RemoveOutcome[] = assets.map((a) => ({
      destinationId: a.destinationId,
      outcome: 'gone',
    }));
    const groups = new Map<string, { index: number; id: string }[]>();
    const add = (group: string, index: number, id: string) =>
      groups.set(group, [...(groups.get(group) ?? []), { index, id }]);
    assets.forEach((asset, index) => {
      if (asset.kind === 'image') return add('image', index, asset.destinationId);
      const [taxonomy = '', ...rest] = asset.destinationId.split(':');
      if (taxonomy === 'attribute_term') {
        const [attribute = '', term = ''] = rest;
        return add(`attribute_term:${attribute}`, index, term);
      }
      add(taxonomy, index, rest.join(':'));
    });
    const order = [...groups.keys()].sort(
      (a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0),
    );
    for (const group of order) {
      const items = groups.get(group) ?? [];
      const ids = items.map((i) => i.id);
      let answers: RemoveOutcome[];
      if (group === 'image') answers = await this.removeImages(ids);
      else if (group.startsWith('attribute_term:')) {
        const attribute = group.slice('attribute_term:'.length);
        answers = await this.unusedOnly(
          `/products/attributes/${attribute}/terms`,
          ids,
          'attribute value',
          (kept) => this.batch(`/products/attributes/${attribute}/terms/batch`, kept, 'value'),
        );
      } else if (group === 'attribute') answers = await this.removeAttributes(ids);
      else if (termBatchRoutes[group]) {
        const route = termBatchRoutes[group];
        const kind =
          group === 'product_tag' ? 'tag' : group === 'product_brand' ? 'brand' : 'shipping class';
        answers = await this.unusedOnly(route.replace(/\/batch$/, ''), ids, kind, (kept) =>
          this.batch(route, kept, kind),
        );
      } else if (wpTermRoutes[group]) {
        const route = wpTermRoutes[group];
        answers = await this.oneByOne(
          ids,
          (id) => `${route}/${id}`,
          group === 'category' ? 'post category' : 'post tag',
        );
      } else
        answers = ids.map((id) => ({
          destinationId: id,
          outcome: 'failed' as const,
          reason: `Not something this connector stored (${group}); nothing was deleted.`,
        }));
      items.forEach((item, at) => {
        const answer = answers[at];
        const destinationId = assets[item.index]?.destinationId ?? item.id;
        if (answer) outcomes[item.index] = { ...answer, destinationId };
      });
    }
    return outcomes;
  }

  /**
   * Deletes the listed terms that nothing uses any more: one still counted on products (the
   * owner's, since) is kept, and the outcome says so; one the store no longer lists is 'gone'.
   */
  private async unusedOnly(
    listRoute: string,
    ids: string[],
    kind: string,
    remove: (ids: string[]) => Promise<RemoveOutcome[]>,
  ): Promise<RemoveOutcome[]> {
    const counts = new Map<string, number>();
    const numeric = ids.filter((id) => /^\d+$/.test(id));
    for (let i = 0; i < numeric.length; i += 100) {
      const chunk = numeric.slice(i, i + 100);
      try {
        const { data } = await this.client.get(
          listRoute,
          { include: chunk.join(','), per_page: 100, hide_empty: false },
          usageSchema.array(),
        );
        for (const t of data) counts.set(String(t.id), t.count);
      } catch (error) {
        // The attribute itself is gone: so are its terms.
        if (error instanceof ConnectorError && error.status === 404) continue;
        throw error;
      }
    }
    const free = ids.filter((id) => counts.has(id) && (counts.get(id) ?? 0) === 0);
    const removed = new Map<string, RemoveOutcome>();
    (await remove(free)).forEach((o) => removed.set(o.destinationId, o));
    return ids.map((id): RemoveOutcome => {
      const used = counts.get(id) ?? 0;
      if (!counts.has(id)) return { destinationId: id, outcome: 'gone' };
      if (used > 0)
        return {
          destinationId: id,
          outcome: 'kept',
          reason: `This ${kind} was created by the migration, but ${used} product${used === 1 ? '' : 's'} staying in your store use${used === 1 ? 's' : ''} it, so it was kept. Delete it in the WordPress admin if it is no longer wanted.`,
        };
      return removed.get(id) ?? { destinationId: id, outcome: 'gone' };
    });
  }

  /** Store-wide attributes: deleted (with their terms) once no product uses one of their terms. */
  private async removeAttributes(ids: string[]): Promise<RemoveOutcome[]> {
    const free: string[] = [];
    const kept = new Map<string, RemoveOutcome>();
    for (const id of ids) {
      if (!/^\d+$/.test(id)) continue;
      let terms: { count: number }[];
      try {
        terms = (
          await this.client.get(
            `/products/attributes/${id}/terms`,
            { per_page: 100, hide_empty: false },
            usageSchema.array(),
          )
        ).data;
      } catch (error) {
        if (error instanceof ConnectorError && error.status === 404) continue;
        throw error;
      }
      const used = terms.reduce((n, t) => n + t.count, 0);
      if (used > 0)
        kept.set(id, {
          destinationId: id,
          outcome: 'kept',
          reason: `This store-wide attribute was created by the migration, but products staying in your store use it, so it was kept. Delete it under Products > Attributes if it is no longer wanted.`,
        });
      else free.push(id);
    }
    const removed = new Map(
      (await this.batch('/products/attributes/batch', free, 'attribute')).map((o) => [
        o.destinationId,
        o,
      ]),
    );
    return ids.map(
      (id) => kept.get(id) ?? removed.get(id) ?? { destinationId: id, outcome: 'gone' },
    );
  }

  /**
   * Media library images: wp/v2 with the WordPress application password; without it wc/v3 cannot
   * delete a file, and the owner is told so.
   */
  private async removeImages(ids: string[]): Promise<RemoveOutcome[]> {
    if (!this.client.hasWordPressPassword)
      return ids.map((id) => ({
        destinationId: id,
        outcome: 'failed',
        reason:
          "The image stays in the store's media library: WooCommerce's API keys cannot delete media files. Connect the store with WordPress access (a WordPress user and application password) and undo again to remove it, or delete it under Media > Library.",
      }));
    return this.oneByOne(ids, (id) => `/wp-json/wp/v2/media/${id}`, 'image');
  }
}

/** Attribute terms before attributes; the rest in any fixed order. */
function rank(group: string): number {
  if (group.startsWith('attribute_term:')) return 0;
  if (group === 'attribute') return 1;
  return 2;
}
