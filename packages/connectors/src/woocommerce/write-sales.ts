import type { Customer } from '@replatform/canonical/customer';
import type { Order } from '@replatform/canonical/order';
import type { IdMap, WriteOutcome } from '../kit/contract.ts';
import { runBatch, type BatchItemResult, type BatchOp } from './batch.ts';
import type { WooClient } from './client.ts';
import { customerBody, orderBody, type Json, type LineRefs } from './from-canonical.ts';
import { createdVia, digest, markers, metaValue, sourceIdOf } from './markers.ts';
import { pageSize, readVariations } from './read.ts';
import { decodeEntities } from './to-canonical.ts';
import {
  wcCustomerSchema,
  wcOrderSchema,
  type WcError,
  type WcMeta,
  type WcVariation,
} from './wc-schemas.ts';

/**
 * Customers and orders into WooCommerce.
 *
 * Customers: WordPress refuses a second account with the same e-mail, so a customer is simply
 * created; `registration-error-email-exists` sends the connector to `GET /customers?email=`,
 * and the account found is ours (its `_replatform_source_id` names the source customer: update
 * or skip) or the merchant's (linked, left alone).
 *
 * Orders have no natural key, and wc/v3 cannot filter orders by meta. The connector creates its
 * orders with `created_via: 'replatform'` (writable in wc/v3 since WooCommerce 9) and the source
 * id in meta; the orders list filters on `created_via`, and `include_meta` trims each answer to
 * the markers, so the orders of earlier runs are listed once per connection (100 per request)
 * and kept in an index that each create updates. After a failed request the index is topped up
 * from the newest orders down, which finds what the failed request created. ('rest-api' is
 * listed too: a store that ignores `created_via` on create records that instead.)
 */

const errorText = (e: WcError) =>
  `${decodeEntities(e.message).replace(/<[^>]*>/g, '')} (${e.code})`;

interface Known {
  id: number;
  hash: string;
}

export class SalesWriter {
  private readonly client: WooClient;
  private orderIndex: Map<string, Known> | undefined;
  private newestOrderId = 0;
  private readonly variations = new Map<number, Promise<WcVariation[]>>();

  constructor(client: WooClient) {
    this.client = client;
  }

  // -------------------------------------------------------------------------------------------
  // Customers

  async writeCustomers(records: Customer[], idMap: IdMap): Promise<WriteOutcome[]> {
    const outcomes: WriteOutcome[] = new Array(records.length);
    const bodies = records.map((c) => {
      const written = customerBody(c);
      const hash = digest(written.body);
      return {
        warnings: written.warnings,
        hash,
        body: {
          ...written.body,
          meta_data: [
            { key: markers.sourceId, value: c.id },
            { key: markers.hash, value: hash },
          ],
        } as Json,
      };
    });
    const mapped = records.flatMap((c, i) => (idMap.get('customers', c.id) ? [i] : []));
    const existing = new Map<number, { id: number; meta: WcMeta[] }>();
    for (let start = 0; start < mapped.length; start += pageSize) {
      const chunk = mapped.slice(start, start + pageSize);
      const ids = chunk.map((i) => Number(idMap.get('customers', (records[i] as Customer).id)));
      const { items } = await this.client.page(
        '/customers',
        { include: ids.join(','), per_page: ids.length, role: 'all' },
        wcCustomerSchema,
      );
      for (const i of chunk) {
        const found = items.find(
          (c) => c.id === Number(idMap.get('customers', (records[i] as Customer).id)),
        );
        if (found) existing.set(i, { id: found.id, meta: found.meta_data });
      }
    }
    const create: BatchOp[] = [];
    const update: BatchOp[] = [];
    const decide = (i: number, found: { id: number; meta: WcMeta[] }, ours: boolean) => {
      const c = records[i] as Customer;
      const { hash, body } = bodies[i] as { hash: string; body: Json };
      if (!ours) {
        outcomes[i] = {
          sourceId: c.id,
          outcome: 'skipped',
          destinationId: String(found.id),
          reason: `An account with the e-mail ${c.email} already exists at the destination; it was linked, not changed.`,
        };
      } else if (metaValue(found.meta, markers.hash) === hash) {
        outcomes[i] = {
          sourceId: c.id,
          outcome: 'skipped',
          destinationId: String(found.id),
          reason: 'Already up to date.',
        };
      } else {
        // The e-mail is the account's identity at WordPress: it is not changed by an update.
        const { email: _email, ...rest } = body;
        update.push({ key: i, body: { id: found.id, ...rest } });
      }
    };
    records.forEach((_, i) => {
      const found = existing.get(i);
      if (found) decide(i, found, true);
      else create.push({ key: i, body: (bodies[i] as { body: Json }).body });
    });

    const byEmail = async (c: Customer) => {
      const { items } = await this.client.page(
        '/customers',
        { email: c.email, role: 'all', per_page: 1 },
        wcCustomerSchema,
      );
      return items[0];
    };
    // A create repeated after a failure that reached the store is found by e-mail and marker.
    const recover = async (ops: BatchOp[]) => {
      const found = new Map<number, unknown>();
      for (const op of ops) {
        const c = records[op.key] as Customer;
        const customer = await byEmail(c);
        if (customer && sourceIdOf(customer.meta_data) === c.id) found.set(op.key, customer);
      }
      return found;
    };
    const first = await runBatch(this.client, '/customers/batch', { create, update: [] }, recover);
    const taken: number[] = [];
    for (const [key, result] of first) {
      const c = records[key] as Customer;
      if (result.ok) {
        const customer = wcCustomerSchema.safeParse(result.item);
        outcomes[key] = customer.success
          ? { sourceId: c.id, outcome: 'created', destinationId: String(customer.data.id) }
          : {
              sourceId: c.id,
              outcome: 'failed',
              reason: 'The store answered with something that is not a customer.',
            };
      } else if (result.error.code === 'registration-error-email-exists') taken.push(key);
      else outcomes[key] = { sourceId: c.id, outcome: 'failed', reason: errorText(result.error) };
    }
    for (const key of taken) {
      const c = records[key] as Customer;
      const found = await byEmail(c);
      if (!found) {
        outcomes[key] = {
          sourceId: c.id,
          outcome: 'failed',
          reason: `The e-mail ${c.email} is already used at the destination.`,
        };
        continue;
      }
      decide(key, { id: found.id, meta: found.meta_data }, sourceIdOf(found.meta_data) === c.id);
    }
    const second = await runBatch(
      this.client,
      '/customers/batch',
      { create: [], update },
      async () => new Map(),
    );
    for (const [key, result] of second) {
      const c = records[key] as Customer;
      outcomes[key] = result.ok
        ? {
            sourceId: c.id,
            outcome: 'updated',
            destinationId: String((result.item as { id: number }).id),
          }
        : { sourceId: c.id, outcome: 'failed', reason: errorText(result.error) };
    }
    records.forEach((c, i) => {
      const current = outcomes[i] ?? {
        sourceId: c.id,
        outcome: 'failed',
        reason: 'The store did not answer for this customer.',
      };
      const warnings = (bodies[i] as { warnings: string[] }).warnings;
      outcomes[i] =
        warnings.length && current.outcome !== 'failed' ? { ...current, warnings } : current;
    });
    return outcomes;
  }

  // -------------------------------------------------------------------------------------------
  // Orders

  private async loadOrderIndex(): Promise<Map<string, Known>> {
    if (this.orderIndex) return this.orderIndex;
    const index = new Map<string, Known>();
    for (let page = 1; ; page++) {
      const result = await this.client.page(
        '/orders',
        {
          page,
          per_page: pageSize,
          orderby: 'id',
          order: 'asc',
          created_via: `${createdVia},rest-api`,
          include_meta: `${markers.sourceId},${markers.hash}`,
        },
        wcOrderSchema,
      );
      for (const o of result.items) this.remember(index, o.id, o.meta_data);
      if (page >= result.totalPages || result.items.length === 0) break;
    }
    this.orderIndex = index;
    return index;
  }

  private remember(index: Map<string, Known>, id: number, meta: WcMeta[]) {
    const source = sourceIdOf(meta);
    if (source !== undefined)
      index.set(source, { id, hash: String(metaValue(meta, markers.hash) ?? '') });
    this.newestOrderId = Math.max(this.newestOrderId, id);
  }

  /** Adds the orders created since the index was read, newest first, until a known one. */
  private async refreshOrderIndex(): Promise<Map<string, Known>> {
    const index = await this.loadOrderIndex();
    const since = this.newestOrderId;
    for (let page = 1; ; page++) {
      const result = await this.client.page(
        '/orders',
        {
          page,
          per_page: pageSize,
          orderby: 'id',
          order: 'desc',
          created_via: `${createdVia},rest-api`,
          include_meta: `${markers.sourceId},${markers.hash}`,
        },
        wcOrderSchema,
      );
      for (const o of result.items) if (o.id > since) this.remember(index, o.id, o.meta_data);
      if (
        result.items.some((o) => o.id <= since) ||
        page >= result.totalPages ||
        result.items.length === 0
      )
        break;
    }
    return index;
  }

  /** The destination variation of a line; `variable` false when the product has none at all. */
  private async variationId(
    productId: number,
    variantSourceId: string | null,
    sku: string,
  ): Promise<{ id: number; variable: boolean }> {
    if (variantSourceId === null) return { id: 0, variable: false };
    let list = this.variations.get(productId);
    if (!list) {
      list = readVariations(this.client, productId);
      this.variations.set(productId, list);
    }
    const variations = await list;
    const id =
      variations.find((v) => sourceIdOf(v.meta_data) === variantSourceId)?.id ??
      variations.find((v) => sku !== '' && v.sku === sku)?.id ??
      0;
    return { id, variable: variations.length > 0 };
  }

  async writeOrders(records: Order[], idMap: IdMap): Promise<WriteOutcome[]> {
    const outcomes: WriteOutcome[] = new Array(records.length);
    const warnings = records.map(() => [] as string[]);
    /** Orders written without a link that a later run, after the linked record, can add. */
    const incomplete = new Set<number>();
    const index = records.length ? await this.indexFor(records, idMap) : new Map<string, Known>();

    const create: BatchOp[] = [];
    const update: BatchOp[] = [];
    const hashes = new Map<number, string>();
    /** Orders created in one status that must then move to another (see orderStatusToWc). */
    const followUps = new Map<number, string>();
    for (const [i, o] of records.entries()) {
      const mappedCustomer = o.customerId ? idMap.get('customers', o.customerId) : undefined;
      if (o.customerId && !mappedCustomer) {
        warnings[i]?.push(
          `Customer ${o.customerId} was not migrated; the order is imported as a guest order.`,
        );
        incomplete.add(i);
      }
      const lines: LineRefs[] = [];
      for (const line of o.lines) {
        const product = line.productId ? idMap.get('products', line.productId) : undefined;
        if (line.productId && !product)
          warnings[i]?.push(
            `Product ${line.productId} was not migrated; the line '${line.name}' is kept without a link.`,
          );
        const productId = product ? Number(product) : 0;
        const variation = productId
          ? await this.variationId(productId, line.variantId, line.sku)
          : { id: 0, variable: false };
        // A simple product is its own only variant: a source's default variant links to it.
        if (productId && variation.variable && !variation.id && line.variantId !== line.productId)
          warnings[i]?.push(
            `The variant of '${line.name}' was not found; the line is linked to the product only.`,
          );
        lines.push({ productId, variationId: variation.id });
      }
      const written = orderBody(o, mappedCustomer ? Number(mappedCustomer) : 0, lines);
      warnings[i]?.push(...written.warnings);
      const finalStatus = written.finalStatus ?? String(written.body.status);
      const { set_paid: _setPaid, ...hashed } = written.body;
      // The hash describes the order as it must end up, in its final status.
      const hash = digest({ ...hashed, status: finalStatus });
      if (written.finalStatus) followUps.set(i, written.finalStatus);
      const meta = [
        { key: markers.sourceId, value: o.id },
        // An order still to be moved to its final status is not up to date until it is.
        { key: markers.hash, value: written.finalStatus ? '' : hash },
        { key: markers.sourceNumber, value: o.number },
        { key: markers.sourceCreatedAt, value: o.createdAt },
        // Historical orders must not take stock again: WC_Order::set_order_stock_reduced().
        { key: '_order_stock_reduced', value: 'yes' },
      ];
      hashes.set(i, hash);
      const known = index.get(o.id);
      if (!known) {
        create.push({ key: i, body: { ...written.body, meta_data: meta } });
        continue;
      }
      if (known.hash === hash) {
        outcomes[i] = {
          sourceId: o.id,
          outcome: 'skipped',
          destinationId: String(known.id),
          reason: 'Already up to date.',
        };
        continue;
      }
      // Items sent again would be added as new items: an update keeps the order's lines.
      update.push({
        key: i,
        body: {
          id: known.id,
          status: finalStatus,
          customer_id: written.body.customer_id,
          customer_note: written.body.customer_note,
          ...(written.body.billing ? { billing: written.body.billing } : {}),
          ...(written.body.shipping ? { shipping: written.body.shipping } : {}),
          meta_data: meta
            .filter((m) => m.key !== '_order_stock_reduced')
            .map((m) => (m.key === markers.hash ? { ...m, value: hash } : m)),
        },
      });
    }
    const recover = async (ops: BatchOp[]) => {
      const fresh = await this.refreshOrderIndex();
      const found = new Map<number, unknown>();
      for (const op of ops) {
        const known = fresh.get((records[op.key] as Order).id);
        if (known) found.set(op.key, { id: known.id });
      }
      return found;
    };
    const results = await runBatch(this.client, '/orders/batch', { create, update }, recover);
    const moved = await this.moveOn(results, followUps, hashes, warnings, incomplete);
    for (const [key, result] of results) {
      const o = records[key] as Order;
      if (!result.ok) {
        outcomes[key] = { sourceId: o.id, outcome: 'failed', reason: errorText(result.error) };
        continue;
      }
      const id = (result.item as { id?: unknown }).id;
      if (typeof id !== 'number') {
        outcomes[key] = {
          sourceId: o.id,
          outcome: 'failed',
          reason: 'The store answered with something that is not an order.',
        };
        continue;
      }
      const meta = wcOrderSchema.safeParse(result.item);
      if (this.orderIndex && meta.success) this.remember(this.orderIndex, id, meta.data.meta_data);
      else this.orderIndex?.set(o.id, { id, hash: '' });
      if (moved.has(key)) this.orderIndex?.set(o.id, { id, hash: hashes.get(key) ?? '' });
      outcomes[key] = {
        sourceId: o.id,
        outcome: result.op === 'create' ? 'created' : 'updated',
        destinationId: String(id),
        ...(incomplete.has(key) ? { incomplete: true } : {}),
      };
    }
    return records.map((o, i) => {
      const current = outcomes[i] ?? {
        sourceId: o.id,
        outcome: 'failed' as const,
        reason: 'The store did not answer for this order.',
      };
      const list = warnings[i] ?? [];
      return list.length && current.outcome !== 'failed' && current.outcome !== 'skipped'
        ? { ...current, warnings: list }
        : current;
    });
  }

  /**
   * Moves orders just created in a passing status (paid, completed) on to their final one, and
   * only then marks them up to date. One that cannot be moved now stays unmarked, so the next run
   * updates it.
   */
  private async moveOn(
    results: Map<number, BatchItemResult>,
    followUps: Map<number, string>,
    hashes: Map<number, string>,
    warnings: string[][],
    incomplete: Set<number>,
  ): Promise<Set<number>> {
    const done = new Set<number>();
    const moves: BatchOp[] = [];
    for (const [key, status] of followUps) {
      const result = results.get(key);
      const id = result?.ok && result.op === 'create' ? (result.item as { id?: unknown }).id : 0;
      if (typeof id !== 'number' || !id) continue;
      moves.push({
        key,
        body: { id, status, meta_data: [{ key: markers.hash, value: hashes.get(key) ?? '' }] },
      });
    }
    if (!moves.length) return done;
    const moved = await runBatch(
      this.client,
      '/orders/batch',
      { create: [], update: moves },
      async () => new Map(),
    ).catch(() => new Map<number, BatchItemResult>());
    for (const { key, body } of moves) {
      if (moved.get(key)?.ok) {
        done.add(key);
        continue;
      }
      warnings[key]?.push(
        `The order could not be moved on to its status '${String(body.status)}' yet; the next run does it.`,
      );
      incomplete.add(key);
    }
    return done;
  }

  /** Known orders of this batch: through the id map when it has them all, else the index. */
  private async indexFor(records: Order[], idMap: IdMap): Promise<Map<string, Known>> {
    if (this.orderIndex || records.some((o) => !idMap.get('orders', o.id)))
      return this.loadOrderIndex();
    const ids = records.map((o) => Number(idMap.get('orders', o.id)));
    const { items } = await this.client.page(
      '/orders',
      {
        include: ids.join(','),
        per_page: Math.min(pageSize, ids.length),
        include_meta: `${markers.sourceId},${markers.hash}`,
      },
      wcOrderSchema,
    );
    const map = new Map<string, Known>();
    for (const o of records) {
      const found = items.find((x) => x.id === Number(idMap.get('orders', o.id)));
      if (found)
        map.set(o.id, {
          id: found.id,
          hash: String(metaValue(found.meta_data, markers.hash) ?? ''),
        });
    }
    return map;
  }
}
