import type { EntityRecord, EntityType } from '@replatform/canonical/entities';
import type { Checkpoint, Page } from '../kit/contract.ts';
import { ConnectorError } from '../kit/errors.ts';
import type { WooClient } from './client.ts';
import type { StoreInfo } from './store-info.ts';
import {
  categoryToCanonical,
  customerToCanonical,
  orderToCanonical,
  productToCanonical,
  type Converted,
} from './to-canonical.ts';
import {
  wcCustomerSchema,
  wcOrderSchema,
  wcProductSchema,
  wcTermSchema,
  wcVariationSchema,
  type WcTerm,
  type WcVariation,
} from './wc-schemas.ts';

/**
 * Reading a store: pages of 100 (wc/v3's maximum) in a stable order (orderby=id, order=asc, so
 * records created during a read land on later pages), with `context=edit` so descriptions come
 * back as stored rather than rendered for display. The checkpoint is the next page number.
 */

export const pageSize = 100;

export function pageOf(checkpoint: Checkpoint | null): number {
  if (!checkpoint) return 1;
  const match = /^page:(\d+)$/.exec(checkpoint.cursor);
  if (checkpoint.version !== 1 || !match)
    throw new ConnectorError(
      'system',
      'bad_checkpoint',
      `Unknown checkpoint '${checkpoint.cursor}'`,
    );
  return Number(match[1]);
}

const nextCheckpoint = (page: number, totalPages: number): Checkpoint | null =>
  page < totalPages ? { version: 1, cursor: `page:${page + 1}` } : null;

function split<T>(converted: { id: number; result: Converted<T> }[]) {
  const records: T[] = [];
  const rejected: { sourceId: string; reason: string }[] = [];
  for (const { id, result } of converted) {
    if (result.ok) records.push(result.record);
    else rejected.push({ sourceId: String(id), reason: result.reason });
  }
  return { records, ...(rejected.length ? { rejected } : {}) };
}

export async function readVariations(client: WooClient, productId: number): Promise<WcVariation[]> {
  const all: WcVariation[] = [];
  for (let page = 1; ; page++) {
    const result = await client.page(
      `/products/${productId}/variations`,
      { page, per_page: pageSize, orderby: 'id', order: 'asc', context: 'edit' },
      wcVariationSchema,
    );
    all.push(...result.items);
    if (page >= result.totalPages || result.items.length === 0) return all;
  }
}

export async function readAllCategories(client: WooClient): Promise<WcTerm[]> {
  const all: WcTerm[] = [];
  for (let page = 1; ; page++) {
    const result = await client.page(
      '/products/categories',
      { page, per_page: pageSize, orderby: 'id', order: 'asc' },
      wcTermSchema,
    );
    all.push(...result.items);
    if (page >= result.totalPages || result.items.length === 0) return all;
  }
}

export async function* readEntity<E extends EntityType>(
  client: WooClient,
  info: StoreInfo,
  entity: E,
  checkpoint: Checkpoint | null,
): AsyncGenerator<Page<E>> {
  let page = pageOf(checkpoint);
  if (entity === 'categories') {
    // Categories are few: all are loaded so each record's storefront path can use its ancestors.
    const all = (await readAllCategories(client)).filter((t) => t.id !== info.defaultCategoryId);
    const byId = new Map(all.map((t) => [t.id, t]));
    const totalPages = Math.ceil(all.length / pageSize);
    do {
      const slice = all.slice((page - 1) * pageSize, page * pageSize);
      const records = slice.map((t) => categoryToCanonical(t, byId, info));
      yield { records, next: nextCheckpoint(page, totalPages) } as Page<E>;
      page++;
    } while (page <= totalPages);
    return;
  }
  const query = { per_page: pageSize, orderby: 'id', order: 'asc', context: 'edit' };
  for (;;) {
    let converted: { id: number; result: Converted<EntityRecord[E]> }[];
    let totalPages: number;
    if (entity === 'products') {
      const result = await client.page('/products', { ...query, page }, wcProductSchema);
      totalPages = result.totalPages;
      converted = [];
      for (const p of result.items) {
        const variations = p.type === 'variable' ? await readVariations(client, p.id) : [];
        converted.push({
          id: p.id,
          result: productToCanonical(p, variations, info) as Converted<EntityRecord[E]>,
        });
      }
    } else if (entity === 'customers') {
      const result = await client.page('/customers', { ...query, page }, wcCustomerSchema);
      totalPages = result.totalPages;
      converted = result.items.map((c) => ({
        id: c.id,
        result: customerToCanonical(c) as Converted<EntityRecord[E]>,
      }));
    } else {
      const result = await client.page('/orders', { ...query, page }, wcOrderSchema);
      totalPages = result.totalPages;
      converted = result.items.map((o) => ({
        id: o.id,
        result: orderToCanonical(o) as Converted<EntityRecord[E]>,
      }));
    }
    const next = nextCheckpoint(page, totalPages);
    yield { ...split(converted), next };
    if (!next) return;
    page++;
  }
}
