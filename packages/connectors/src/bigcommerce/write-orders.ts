import { z } from 'zod';
import type { Order } from '@replatform/canonical/order';
import type { IdMap, WriteOutcome } from '../kit/contract.ts';
import { createOnce, errorText, type BcAnswer } from './client.ts';
import { orderKey, orderToBc, type LineTarget } from './map-order.ts';
import { orderCountSchema } from './payloads.ts';
import { mapLimit } from '../kit/concurrency.ts';
import { allPages, parseAnswer, type BcSession } from './session.ts';
import { skipped } from './write-catalog.ts';

/**
 * Historical orders through POST /v2/orders, one per request. The order's own id in another
 * system, or else a marker with its source id, travels in `external_order_id` (orderKey), which
 * GET /v2/orders can filter on, so an order is found again before it is created twice. Below `indexLimit` orders at the destination the markers are read in a few
 * list pages; in a bigger store each order is looked up on its own.
 */

const indexLimit = 5000;
const orderRef = z.object({ id: z.number().int(), external_order_id: z.string().nullish() });
const variantRef = z.object({
  id: z.number().int(),
  product_id: z.number().int(),
  sku: z.string().nullish(),
});

export class OrderMarkers {
  readonly #session: BcSession;
  #index: Promise<Map<string, number> | undefined> | undefined;

  constructor(session: BcSession) {
    this.#session = session;
  }

  #load(): Promise<Map<string, number> | undefined> {
    this.#index ??= (async () => {
      const { client } = this.#session;
      const count = parseAnswer(
        orderCountSchema,
        (await client.ok('GET', '/v2/orders/count')).body,
        'GET /v2/orders/count',
      );
      if (count.count > indexLimit) return undefined;
      const index = new Map<string, number>();
      for (let page = 1; ; page++) {
        const answer = await client.ok('GET', '/v2/orders', { query: { page, limit: 250 } });
        const list =
          answer.body === undefined
            ? []
            : parseAnswer(z.array(orderRef), answer.body, 'GET /v2/orders');
        for (const o of list) if (o.external_order_id) index.set(o.external_order_id, o.id);
        if (list.length < 250) return index;
      }
    })().catch((error: unknown) => {
      this.#index = undefined;
      throw error;
    });
    return this.#index;
  }

  /** The order whose external_order_id is `key` (see orderKey). */
  async find(key: string): Promise<number | undefined> {
    const index = await this.#load();
    if (index) return index.get(key);
    return this.lookup(key);
  }

  /** orders.v2.oas2.yml getOrders: `external_order_id` filter. */
  async lookup(key: string): Promise<number | undefined> {
    const answer = await this.#session.client.ok('GET', '/v2/orders', {
      query: { external_order_id: key, limit: 5 },
    });
    if (answer.body === undefined) return undefined;
    return parseAnswer(z.array(orderRef), answer.body, 'GET /v2/orders')[0]?.id;
  }

  async remember(key: string, id: number): Promise<void> {
    (await this.#load())?.set(key, id);
  }
}

/** Destination variants of the products the batch's lines point at (one request per 250). */
async function variantsOf(
  session: BcSession,
  productIds: number[],
): Promise<z.infer<typeof variantRef>[]> {
  const variants: z.infer<typeof variantRef>[] = [];
  for (let i = 0; i < productIds.length; i += 50) {
    const ids = productIds.slice(i, i + 50);
    variants.push(
      ...(await allPages(
        session.client,
        '/v3/catalog/variants',
        { 'product_id:in': ids },
        variantRef,
      )),
    );
  }
  return variants;
}

export async function writeOrders(
  session: BcSession,
  markers: OrderMarkers,
  records: Order[],
  idMap: IdMap,
): Promise<WriteOutcome[]> {
  const { client } = session;
  const productIds = [
    ...new Set(
      records.flatMap((o) =>
        o.lines.flatMap((l) => {
          const dest = l.productId ? idMap.get('products', l.productId) : undefined;
          return dest ? [Number(dest)] : [];
        }),
      ),
    ),
  ];
  const variants = await variantsOf(session, productIds);

  const lineTarget = (line: Order['lines'][number]): LineTarget | undefined => {
    const dest = line.productId ? idMap.get('products', line.productId) : undefined;
    if (!dest) return undefined;
    const productId = Number(dest);
    const own = variants.filter((v) => v.product_id === productId);
    const bySku = line.sku
      ? own.find((v) => (v.sku ?? '').toLowerCase() === line.sku.toLowerCase())
      : undefined;
    const variant = bySku ?? (own.length === 1 ? own[0] : undefined);
    // A product with several variants needs the right one; without it the line stays a custom item.
    if (!variant) return undefined;
    return { productId, variantId: variant.id };
  };

  return mapLimit(records, 3, async (order): Promise<WriteOutcome> => {
    const mapped = idMap.get('orders', order.id);
    if (mapped) return skipped(order.id, Number(mapped), 'already migrated');
    const key = orderKey(order);
    const found = await markers.find(key);
    if (found !== undefined) return skipped(order.id, found, 'already migrated');
    const customer = order.customerId ? idMap.get('customers', order.customerId) : undefined;
    const { body, warnings } = orderToBc(order, {
      customerId: customer ? Number(customer) : 0,
      lines: order.lines.map(lineTarget),
    });
    if (order.customerId && !customer)
      warnings.push('the customer is not at the destination; imported as a guest order');
    const sent = await createOnce<{ answer?: BcAnswer; recoveredId?: number }>(
      client,
      async () => ({
        answer: await session.writeSlots.orders.run(() =>
          client.request('POST', '/v2/orders', { body, idempotent: false }),
        ),
      }),
      async () => {
        const id = await markers.lookup(key);
        return id === undefined ? undefined : { recoveredId: id };
      },
    );
    let id = sent.recoveredId;
    if (id === undefined) {
      const answer = sent.answer as BcAnswer;
      if (answer.status !== 200 && answer.status !== 201) {
        return {
          sourceId: order.id,
          outcome: 'failed',
          reason: `BigCommerce refused the order (${answer.status}): ${errorText(answer.body)}`,
          ...(warnings.length ? { warnings } : {}),
        };
      }
      id = parseAnswer(z.object({ id: z.number().int() }), answer.body, 'POST /v2/orders').id;
    }
    await markers.remember(key, id);
    return {
      sourceId: order.id,
      outcome: 'created',
      destinationId: String(id),
      ...(warnings.length ? { warnings } : {}),
    };
  });
}
