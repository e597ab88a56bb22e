import { z } from 'zod';
import { entitySchemas, type EntityRecord, type EntityType } from '@replatform/canonical/entities';
import type { Checkpoint, Page } from '../kit/contract.ts';
import { ConnectorError } from '../kit/errors.ts';
import type { QueryValue } from './client.ts';
import { categoryToCanonical, productToCanonical } from './map-catalog.ts';
import { customerToCanonical } from './map-customer.ts';
import { orderToCanonical } from './map-order.ts';
import {
  collectionSchema,
  customerSchema,
  orderCouponSchema,
  orderProductSchema,
  orderSchema,
  orderShippingAddressSchema,
  productSchema,
  treeCategorySchema,
} from './payloads.ts';
import { parseAnswer, type BcSession } from './session.ts';
import { mapLimit } from './write-catalog.ts';

/**
 * Reading pages of canonical records. The checkpoint cursor is the next page number; each raw
 * record is parsed and mapped on its own, so one odd record is reported as rejected while the rest
 * of the page goes on.
 */

/** Products come with variants, images and custom fields: 100 keeps an answer a few MB at most. */
export const pageSizes: Record<EntityType, number> = {
  categories: 250,
  products: 100,
  customers: 250,
  orders: 50,
};

type Rejected = { sourceId: string; reason: string };

function startPage(checkpoint: Checkpoint | null): number {
  if (!checkpoint) return 1;
  const page = Number(checkpoint.cursor);
  if (checkpoint.version !== 1 || !Number.isInteger(page) || page < 1) {
    throw new ConnectorError(
      'system',
      'bad_checkpoint',
      `Unknown BigCommerce checkpoint '${checkpoint.cursor}'`,
    );
  }
  return page;
}

const next = (page: number): Checkpoint => ({ version: 1, cursor: String(page + 1) });

/** Parses with the platform schema, maps, and checks the canonical record. */
function convert<E extends EntityType, T>(
  entity: E,
  raw: unknown,
  schema: z.ZodType<T>,
  map: (parsed: T) => EntityRecord[E],
): { record?: EntityRecord[E]; rejected?: Rejected } {
  const sourceId = String(
    (raw as { id?: unknown; category_id?: unknown } | null)?.id ??
      (raw as { category_id?: unknown } | null)?.category_id ??
      '?',
  );
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    return {
      rejected: {
        sourceId,
        reason: `unexpected BigCommerce data: ${parsed.error.issues[0]?.message ?? ''}`,
      },
    };
  }
  try {
    const record = map(parsed.data);
    const checked = entitySchemas[entity].safeParse(record);
    if (!checked.success) {
      return {
        rejected: {
          sourceId,
          reason: `cannot be represented: ${checked.error.issues[0]?.path.join('.')} ${checked.error.issues[0]?.message}`,
        },
      };
    }
    return { record: checked.data };
  } catch (error) {
    return {
      rejected: { sourceId, reason: error instanceof Error ? error.message : String(error) },
    };
  }
}

const looseCollection = collectionSchema(z.unknown());

async function* v3Pages<E extends EntityType, T>(
  session: BcSession,
  entity: E,
  path: string,
  query: Record<string, QueryValue>,
  checkpoint: Checkpoint | null,
  schema: z.ZodType<T>,
  map: (parsed: T) => EntityRecord[E],
): AsyncIterable<Page<E>> {
  for (let page = startPage(checkpoint); ; page++) {
    const answer = await session.client.ok('GET', path, {
      query: { ...query, page, limit: session.pageSizes[entity] },
    });
    const list = parseAnswer(looseCollection, answer.body, `GET ${path}`);
    const records: EntityRecord[E][] = [];
    const rejected: Rejected[] = [];
    for (const raw of list.data) {
      const result = convert(entity, raw, schema, map);
      if (result.record) records.push(result.record);
      if (result.rejected) rejected.push(result.rejected);
    }
    const totalPages = list.meta?.pagination?.total_pages ?? page;
    const more = page < totalPages && list.data.length > 0;
    yield { records, next: more ? next(page) : null, ...(rejected.length ? { rejected } : {}) };
    if (!more) return;
  }
}

export async function* readCategories(
  session: BcSession,
  checkpoint: Checkpoint | null,
): AsyncIterable<Page<'categories'>> {
  const treeId = await session.treeId();
  yield* v3Pages(
    session,
    'categories',
    '/v3/catalog/trees/categories',
    { 'tree_id:in': [treeId] },
    checkpoint,
    treeCategorySchema,
    categoryToCanonical,
  );
}

export async function* readProducts(
  session: BcSession,
  checkpoint: Checkpoint | null,
): AsyncIterable<Page<'products'>> {
  const [{ units }, brands] = await Promise.all([session.store(), session.brands()]);
  const ctx = { units, brandName: (id: number) => brands.get(id)?.name ?? '' };
  // Options are rebuilt from the variants' option values: `include=options` would cap pages at 10.
  yield* v3Pages(
    session,
    'products',
    '/v3/catalog/products',
    { include: ['variants', 'images', 'custom_fields'] },
    checkpoint,
    productSchema,
    (p) => productToCanonical(p, ctx),
  );
}

export async function* readCustomers(
  session: BcSession,
  checkpoint: Checkpoint | null,
): AsyncIterable<Page<'customers'>> {
  yield* v3Pages(
    session,
    'customers',
    '/v3/customers',
    { include: ['addresses'] },
    checkpoint,
    customerSchema,
    customerToCanonical,
  );
}

/** Every page of a v2 sub-list (v2 lists have no meta: a short page is the last one). */
async function v2All<T>(session: BcSession, path: string, schema: z.ZodType<T>): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; ; page++) {
    const answer = await session.client.ok('GET', path, { query: { page, limit: 250 } });
    // v2 answers 204 with no body for an empty list.
    const list =
      answer.body === undefined ? [] : parseAnswer(z.array(schema), answer.body, `GET ${path}`);
    items.push(...list);
    if (list.length < 250) return items;
  }
}

export async function* readOrders(
  session: BcSession,
  checkpoint: Checkpoint | null,
): AsyncIterable<Page<'orders'>> {
  const limit = session.pageSizes.orders;
  for (let page = startPage(checkpoint); ; page++) {
    const answer = await session.client.ok('GET', '/v2/orders', { query: { page, limit } });
    const list =
      answer.body === undefined
        ? []
        : parseAnswer(z.array(z.unknown()), answer.body, 'GET /v2/orders');
    const converted = await mapLimit(list, 3, async (raw) => {
      const parsed = orderSchema.safeParse(raw);
      if (!parsed.success) {
        const sourceId = String((raw as { id?: unknown } | null)?.id ?? '?');
        return {
          rejected: {
            sourceId,
            reason: `unexpected BigCommerce data: ${parsed.error.issues[0]?.message ?? ''}`,
          },
        };
      }
      const order = parsed.data;
      const base = `/v2/orders/${order.id}`;
      const [products, shippingAddresses, coupons] = await Promise.all([
        v2All(session, `${base}/products`, orderProductSchema),
        v2All(session, `${base}/shipping_addresses`, orderShippingAddressSchema),
        Number(order.coupon_discount) > 0
          ? v2All(session, `${base}/coupons`, orderCouponSchema)
          : Promise.resolve([]),
      ]);
      return convert('orders', order, z.custom<typeof order>(), (o) =>
        orderToCanonical(o, { products, shippingAddresses, coupons }),
      );
    });
    const records = converted.flatMap((c) => (c.record ? [c.record] : []));
    const rejected = converted.flatMap((c) => (c.rejected ? [c.rejected] : []));
    const more = list.length === limit;
    yield { records, next: more ? next(page) : null, ...(rejected.length ? { rejected } : {}) };
    if (!more) return;
  }
}
