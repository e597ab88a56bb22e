import { z } from 'zod';
import { fromMinor } from '@replatform/canonical/money';
import type { Order } from '@replatform/canonical/order';
import type { IdMap, WriteOutcome } from '../kit/contract.ts';
import { ConnectorError } from '../kit/errors.ts';
import { runBatch, type BatchItemResult, type BatchOp } from './batch.ts';
import type { WooClient } from './client.ts';
import {
  discountInLines,
  orderBody,
  orderDatesMeta,
  type Json,
  type LineRefs,
} from './from-canonical.ts';
import type { ImportState } from './import-state.ts';
import { digest, markers, metaValue, sourceIdOf } from './markers.ts';
import { metafieldsToMeta } from './metafields.ts';
import { pageSize, readNotes, readRefunds, readVariations } from './read.ts';
import { Serial } from './terms.ts';
import { bareAmpersands, decodeEntities } from './to-canonical.ts';
import {
  wcOrderSchema,
  type WcError,
  type WcMeta,
  type WcOrder,
  type WcOrderNote,
  type WcVariation,
} from './wc-schemas.ts';

/**
 * Orders into WooCommerce, as the historical records they are (nothing is charged, restocked or
 * e-mailed; prepareImport switches the e-mails off).
 *
 * An order is created with its lines (a line whose product is not at the destination becomes a
 * line without product, keeping name, quantity and amounts), shipping lines, fees and credits,
 * payment method and transaction id, and `_order_stock_reduced` where the store would take stock
 * (so it does not take it again). Then, in this order:
 * - its refunds, through the refunds endpoint (api_refund and api_restock off: no money moves, no
 *   stock comes back), each with its amount, reason and lines; the refunds of a fully refunded
 *   order make it refunded themselves, so WooCommerce adds no refund of its own;
 * - its notes: WooCommerce writes notes of its own while an order is created and moved (status
 *   changes); those are removed and the source's notes added, oldest first;
 * - its payment and completion dates and whether its prices include tax, through meta data
 *   (`_date_paid`, `_date_completed`, `_prices_include_tax` are WooCommerce's internal keys, which
 *   it routes to the order's setters), last, since a move to completed stamps the completion date;
 *   and the hash marker, so an order is up to date only once all of it is there.
 *
 * Coupon lines: WooCommerce applies a coupon to an order only if one with that code exists, and
 * then works the discount out itself. For each code it lacks, a coupon of the same code worth the
 * historical discount is made for the time of the write (limited to the order's billing e-mail)
 * and deleted right after; the lines then get their historical totals back.
 *
 * Orders have no natural key, and wc/v3 cannot filter orders by meta: the orders of earlier runs
 * are listed once per connection (ids and markers only) into an index that each create updates;
 * after a failed request the index is topped up from the newest orders down.
 */

const errorText = (e: WcError) =>
  `${decodeEntities(e.message).replace(/<[^>]*>/g, '')} (${e.code})`;

interface Known {
  id: number;
  hash: string;
}

const indexEntrySchema = z.looseObject({
  id: z.number().int(),
  meta_data: z.array(z.looseObject({ key: z.string(), value: z.unknown() })).catch([]) as z.ZodType<
    WcMeta[]
  >,
});
/** What WooCommerce calls its order statuses in the notes it writes (wc_get_order_statuses). */
const statusNames: Record<string, string> = {
  pending: 'Pending payment',
  processing: 'Processing',
  'on-hold': 'On hold',
  completed: 'Completed',
  cancelled: 'Cancelled',
  refunded: 'Refunded',
  failed: 'Failed',
};
/** The statuses whose reaching makes WooCommerce reduce stock (wc_maybe_reduce_stock_levels). */
const takesStock = ['processing', 'completed', 'on-hold', 'refunded'];
const couponSchema = z.looseObject({
  id: z.number().int(),
  code: z.string(),
  meta_data: z.array(z.looseObject({ key: z.string(), value: z.unknown() })).catch([]),
});
const noteSchema = z.looseObject({ id: z.number().int() });

interface Plan {
  index: number;
  order: Order;
  body: Json;
  finalStatus: string;
  hash: string;
  known: Known | undefined;
  warnings: string[];
  incomplete: boolean;
  /** Destination id once written. */
  id?: number;
  /** Destination line item ids, in the order of the source's lines. */
  lineIds?: number[];
  /** Discounts written as coupon lines (their lines get their totals back afterwards). */
  couponed?: boolean;
  /** Notes the order had before this write touched it (an update). */
  notesBefore?: Set<number>;
  /** Refunds the destination order already had (an update). */
  refundsBefore?: number;
  /** A refund could not be written: the status is left as it is until the next run. */
  refundsFailed?: boolean;
  /** The status the create or update set. */
  sentStatus?: string;
  /**
   * A new order whose notes are added in the source's order without reading them back (see
   * notesInTurn): `at` is the source note the store writes itself when the order reaches its
   * final status, -1 for an order that stays pending (the store writes none).
   */
  inTurn?: { at: number };
  failed?: string;
}

export class OrderWriter {
  private readonly client: WooClient;
  private orderIndex: Map<string, Known> | undefined;
  private indexLoad: Promise<Map<string, Known>> | undefined;
  private newestOrderId = 0;
  private readonly variations = new Map<number, Promise<WcVariation[]>>();
  private readonly coupons = new Serial();

  private readonly state: ImportState;

  constructor(client: WooClient, state: ImportState) {
    this.client = client;
    this.state = state;
  }

  // -------------------------------------------------------------------------------------------
  // Finding what earlier runs wrote

  /** Lists the orders into the index: all of them, or (topUp) the newest down to a known one. */
  private async listIndex(topUp: boolean): Promise<void> {
    const since = this.newestOrderId;
    for (let page = 1; ; page++) {
      const result = await this.client.page(
        '/orders',
        {
          page,
          per_page: pageSize,
          orderby: 'id',
          order: topUp ? 'desc' : 'asc',
          include_meta: `${markers.sourceId},${markers.hash}`,
          _fields: 'id,meta_data',
        },
        indexEntrySchema,
      );
      for (const o of result.items) if (!topUp || o.id > since) this.remember(o.id, o.meta_data);
      if (
        (topUp && result.items.some((o) => o.id <= since)) ||
        page >= result.totalPages ||
        result.items.length === 0
      )
        return;
    }
  }

  /**
   * The index, listed once per connection. Batches written side by side share one listing: a
   * batch must not take the index while another is still filling it, or it would create again an
   * order the listing had not reached yet.
   */
  private loadIndex(): Promise<Map<string, Known>> {
    this.indexLoad ??= (async () => {
      this.orderIndex = new Map();
      await this.listIndex(false);
      return this.orderIndex;
    })().catch((error: unknown) => {
      this.indexLoad = undefined;
      this.orderIndex = undefined;
      throw error;
    });
    return this.indexLoad;
  }

  private remember(id: number, meta: WcMeta[]) {
    const source = sourceIdOf(meta);
    if (source !== undefined)
      this.orderIndex?.set(source, { id, hash: String(metaValue(meta, markers.hash) ?? '') });
    this.newestOrderId = Math.max(this.newestOrderId, id);
  }

  /** Known orders of this batch: through the id map when it has them all, else the index. */
  private async indexFor(records: Order[], idMap: IdMap): Promise<Map<string, Known>> {
    // A run that starts afresh takes an order the id map does not know as new; one that resumes
    // lists what earlier attempts wrote. After a failed request the index is there either way.
    if (this.indexLoad || (this.state.lookFirst && records.some((o) => !idMap.get('orders', o.id))))
      return this.loadIndex();
    const ids = records.flatMap((o) => {
      const mapped = idMap.get('orders', o.id);
      return mapped ? [Number(mapped)] : [];
    });
    if (ids.length === 0) return new Map();
    const { items } = await this.client.page(
      '/orders',
      {
        include: ids.join(','),
        per_page: Math.min(pageSize, ids.length),
        include_meta: `${markers.sourceId},${markers.hash}`,
        _fields: 'id,meta_data',
      },
      indexEntrySchema,
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

  /** The destination variation of a line; `variable` false when the product has none at all. */
  private async variationId(
    productId: number,
    variantSourceId: string | null,
    sku: string,
  ): Promise<{ id: number; variable: boolean }> {
    if (variantSourceId === null) return { id: 0, variable: false };
    // Written by this connection: its id came with the variations batch's answer.
    const written = this.state.variation(productId, variantSourceId);
    if (written !== undefined) return { id: written, variable: true };
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

  // -------------------------------------------------------------------------------------------

  async write(records: Order[], idMap: IdMap): Promise<WriteOutcome[]> {
    try {
      return await this.writeOrders(records, idMap);
    } catch (error) {
      // What a failed write sent may be at the store now, and the index may not have seen it:
      // the next write lists the store again.
      this.indexLoad = undefined;
      this.orderIndex = undefined;
      throw error;
    }
  }

  private async writeOrders(records: Order[], idMap: IdMap): Promise<WriteOutcome[]> {
    const index = records.length ? await this.indexFor(records, idMap) : new Map<string, Known>();
    const plans: Plan[] = [];
    const outcomes: WriteOutcome[] = new Array(records.length);
    for (const [i, o] of records.entries()) {
      const plan = await this.plan(i, o, idMap, index.get(o.id));
      if (plan.known && plan.known.hash === plan.hash) {
        // Created, not skipped, when this connection sent its create and lost the answer.
        outcomes[i] = !this.state.unanswered.orders.has(o.id)
          ? {
              sourceId: o.id,
              outcome: 'skipped',
              destinationId: String(plan.known.id),
              reason: 'Already up to date.',
            }
          : { sourceId: o.id, outcome: 'created', destinationId: String(plan.known.id) };
        continue;
      }
      plans.push(plan);
    }
    await this.createAll(plans.filter((p) => !p.known));
    await this.updateAll(plans.filter((p) => p.known));
    const written = plans.filter((p) => p.id !== undefined && !p.failed);
    for (const plan of written) await this.writeRefunds(plan);
    await this.settleStatuses(written.filter((p) => !p.inTurn));
    const inTurn = written.filter((p) => p.inTurn);
    // The notes before the one the store writes itself, then the move that makes it write it.
    const before = [];
    for (const plan of inTurn)
      if (await this.addNotes(plan, 0, plan.inTurn?.at ?? 0)) before.push(plan);
    const moved = await this.moveOn(before.filter((p) => (p.inTurn?.at ?? 0) > 0));
    for (const plan of written) {
      const turn = plan.inTurn;
      if (!turn) await this.syncNotes(plan);
      else if (turn.at <= 0 || moved.has(plan)) await this.addNotes(plan, turn.at + 1);
    }
    await this.finish(written);
    for (const plan of plans) {
      const o = plan.order;
      outcomes[plan.index] =
        plan.failed || plan.id === undefined
          ? {
              sourceId: o.id,
              outcome: 'failed',
              reason: plan.failed ?? 'The store did not answer for this order.',
            }
          : {
              sourceId: o.id,
              outcome: plan.known ? 'updated' : 'created',
              destinationId: String(plan.id),
              ...(plan.warnings.length ? { warnings: plan.warnings } : {}),
              ...(plan.incomplete ? { incomplete: true } : {}),
            };
    }
    return outcomes;
  }

  private async plan(i: number, o: Order, idMap: IdMap, known: Known | undefined): Promise<Plan> {
    const warnings: string[] = [];
    let incomplete = false;
    const mappedCustomer = o.customerId ? idMap.get('customers', o.customerId) : undefined;
    if (o.customerId && !mappedCustomer) {
      warnings.push(
        `Customer ${o.customerId} was not migrated; the order is imported as a guest order.`,
      );
      incomplete = true;
    }
    const lines: LineRefs[] = [];
    for (const line of o.lines) {
      const product = line.productId ? idMap.get('products', line.productId) : undefined;
      if (line.productId && !product)
        warnings.push(
          `Product ${line.productId} was not migrated; the line '${line.name}' is kept as a line without product.`,
        );
      const productId = product ? Number(product) : 0;
      const variation = productId
        ? await this.variationId(productId, line.variantId, line.sku)
        : { id: 0, variable: false };
      // A simple product is its own only variant: a source's default variant links to it. A
      // variant missing at the destination may be one a stopped run had not written yet: the
      // order is written again by the next run, which links the line once the variant is there.
      if (productId && variation.variable && !variation.id && line.variantId !== line.productId) {
        warnings.push(
          `The variant of '${line.name}' was not found; the line is linked to the product only.`,
        );
        incomplete = true;
      }
      lines.push({ productId, variationId: variation.id });
    }
    const couponed = o.discounts.some((d) => d.code !== '');
    const written = orderBody(o, mappedCustomer ? Number(mappedCustomer) : 0, lines, couponed);
    warnings.push(...written.warnings);
    const body: Json = {
      ...written.body,
      meta_data: [
        ...metafieldsToMeta(o.metafields),
        { key: markers.sourceId, value: o.id },
        { key: markers.hash, value: '' },
        { key: markers.sourceNumber, value: o.number },
        { key: markers.sourceCreatedAt, value: o.createdAt },
        // Historical orders must not take stock again: WC_Order::set_order_stock_reduced(). Only
        // where WooCommerce would take it: marked so, a cancelled or pending order would give
        // stock back for its lines' _reduced_stock (wc_maybe_increase_stock_levels).
        ...(takesStock.includes(String(written.body.status)) ||
        takesStock.includes(written.finalStatus)
          ? [{ key: '_order_stock_reduced', value: 'yes' }]
          : []),
        ...(o.customerIpAddress
          ? [{ key: '_customer_ip_address', value: o.customerIpAddress }]
          : []),
        ...(o.customerUserAgent
          ? [{ key: '_customer_user_agent', value: o.customerUserAgent }]
          : []),
      ],
    };
    const hash = digest({
      body: { ...written.body, status: written.finalStatus },
      meta: o.metafields,
      refunds: o.refunds,
      notes: o.notes.map((n) => [n.content, n.customerNote, n.author]),
      dates: [o.paidAt, o.completedAt, o.pricesIncludeTax],
      client: [o.customerIpAddress, o.customerUserAgent],
    });
    return {
      index: i,
      order: o,
      body,
      finalStatus: written.finalStatus,
      hash,
      known,
      warnings,
      incomplete,
      ...(known ? { id: known.id } : {}),
    };
  }

  private async recoverCreates(plans: Plan[], ops: BatchOp[]): Promise<Map<number, unknown>> {
    await this.loadIndex();
    await this.listIndex(true);
    const found = new Map<number, unknown>();
    for (const op of ops) {
      const id = (plans[op.key] as Plan).order.id;
      const known = this.orderIndex?.get(id);
      if (known) found.set(op.key, { id: known.id });
      else this.state.unanswered.orders.add(id);
    }
    return found;
  }

  private async createAll(plans: Plan[]) {
    const plain = plans.filter((p) => !p.body.coupon_lines);
    for (const plan of plain) this.notesInTurn(plan);
    const recover = (ops: BatchOp[]) => this.recoverCreates(plain, ops);
    const results = await runBatch(
      this.client,
      '/orders/batch',
      { create: plain.map((p, key) => ({ key, body: p.body })), update: [] },
      recover,
    );
    for (const [key, result] of results) await this.created(plain[key] as Plan, result);
    for (const plan of plans.filter((p) => p.body.coupon_lines))
      await this.coupons.run(() => this.createWithCoupons(plan));
  }

  /** Takes what creating an order answered. */
  private async created(plan: Plan, result: BatchItemResult | undefined) {
    if (!result || !result.ok) {
      plan.failed = result && !result.ok ? errorText(result.error) : 'no answer from the store';
      return;
    }
    const parsed = wcOrderSchema.safeParse(result.item);
    let order: WcOrder | undefined = parsed.success ? parsed.data : undefined;
    if (!parsed.success && plan.inTurn) {
      // Found after a lost answer: its notes are read and put right, and its status is settled
      // with the others'.
      plan.sentStatus = String(plan.body.status);
      plan.inTurn = undefined;
    }
    const id = (result.item as { id?: unknown }).id;
    if (!order && typeof id === 'number')
      // Recovered after a lost answer: read the order itself for its line ids.
      order = (await this.client.get(`/orders/${id}`, { context: 'edit' }, wcOrderSchema)).data;
    if (!order) {
      plan.failed = 'The store answered with something that is not an order.';
      return;
    }
    plan.id = order.id;
    plan.lineIds = order.line_items.map((l) => l.id);
    this.orderIndex?.set(plan.order.id, { id: order.id, hash: '' });
    this.newestOrderId = Math.max(this.newestOrderId, order.id);
  }

  /**
   * Creates an order whose discounts are coupon lines: each code the destination has no coupon
   * for gets one worth the historical discount for the time of the write. So does a code whose
   * coupon was migrated from the source (our source-id marker): applied to a historical order,
   * that coupon would be worked out anew (or refused: expired, its limits reached), so it is set
   * aside as a draft for the time of the write, which frees its code, and published again after.
   * The line keeps its code, by which WooCommerce finds the migrated coupon.
   */
  private async createWithCoupons(plan: Plan) {
    const o = plan.order;
    const temporary: number[] = [];
    const parked: { id: number; code: string }[] = [];
    const amounts = new Map<string, number>();
    for (const d of o.discounts)
      if (d.code !== '') amounts.set(d.code, (amounts.get(d.code) ?? 0) + d.amount.amount);
    try {
      for (const [code, amount] of amounts) {
        const { data: existing } = await this.client.get(
          '/coupons',
          { code, per_page: 1 },
          z.array(couponSchema),
        );
        const found = existing[0];
        if (found && metaValue(found.meta_data, markers.temporaryCoupon) !== undefined)
          // Made for an order whose write was interrupted before it could delete it: its amount
          // and e-mail are that order's, so it goes and this order gets its own.
          await this.client.request('DELETE', `/coupons/${found.id}`, {
            query: { force: true },
            retryable: true,
            schema: couponSchema,
          });
        else if (found && sourceIdOf(found.meta_data) !== undefined) {
          parked.push({ id: found.id, code });
          await this.client.request('PUT', `/coupons/${found.id}`, {
            body: { status: 'draft', meta_data: [{ key: markers.parkedCoupon, value: 'publish' }] },
            retryable: true,
            schema: couponSchema,
          });
        } else if (found) {
          plan.warnings.push(
            `The destination has a coupon '${code}' of its own; the order's coupon line was recorded with it.`,
          );
          continue;
        }
        temporary.push(
          await this.temporaryCoupon(plan, code, amount, parked.at(-1)?.code === code),
        );
      }
      const recover = (ops: BatchOp[]) => this.recoverCreates([plan], ops);
      let results = await runBatch(
        this.client,
        '/orders/batch',
        { create: [{ key: 0, body: plan.body }], update: [] },
        recover,
      );
      const first = results.get(0);
      if (first && !first.ok && /coupon/i.test(first.error.code)) {
        // The coupon could not be applied: the lines keep their discounted totals without it.
        const { coupon_lines: _coupons, ...withoutCoupons } = plan.body;
        plan.warnings.push(
          `The coupon lines could not be recorded (${errorText(first.error)}); the discount stays in the line totals.`,
        );
        results = await runBatch(
          this.client,
          '/orders/batch',
          { create: [{ key: 0, body: withoutCoupons }], update: [] },
          recover,
        );
      } else plan.couponed = true;
      await this.created(plan, results.get(0));
    } catch (error) {
      if (!(error instanceof ConnectorError) || error.errorClass === 'config') throw error;
      plan.failed = error.message;
    } finally {
      for (const id of temporary)
        await this.client
          .request('DELETE', `/coupons/${id}`, {
            query: { force: true },
            retryable: true,
            schema: couponSchema,
          })
          .catch(() => {
            plan.warnings.push(
              `A temporary coupon (id ${id}) could not be deleted; delete it under Marketing > Coupons.`,
            );
          });
      for (const { id, code } of parked)
        await this.client
          .request('PUT', `/coupons/${id}`, {
            body: { status: 'publish', meta_data: [{ key: markers.parkedCoupon, value: '' }] },
            retryable: true,
            schema: couponSchema,
          })
          .catch(() => {
            // Written again by the next run, whose end publishes the coupon (publishSetAside).
            plan.incomplete = true;
            plan.warnings.push(
              `The coupon '${code}' (id ${id}) was left as a draft; this migration publishes it again at the end of the run, or publish it under Marketing > Coupons.`,
            );
          });
    }
  }

  /**
   * A coupon worth an order's historical discount of one code, for the time of its write;
   * `migrated`: the destination has the code's coupon, migrated and set aside meanwhile.
   */
  private async temporaryCoupon(
    plan: Plan,
    code: string,
    amount: number,
    migrated: boolean,
  ): Promise<number> {
    const o = plan.order;
    const email = o.billingAddress?.email || o.email;
    const data = await this.createOnce(
      async () =>
        (
          await this.client.request('POST', '/coupons', {
            body: {
              code,
              discount_type: 'fixed_cart',
              amount: fromMinor(amount, o.currency),
              description: `Recreates a historical coupon line of an imported order; deleted right after. Import of order ${o.number}.`,
              ...(email ? { email_restrictions: [email] } : {}),
              meta_data: [{ key: markers.temporaryCoupon, value: o.id }],
            },
            retryable: false,
            schema: couponSchema,
          })
        ).data,
      async () =>
        (await this.client.get('/coupons', { code, per_page: 1 }, z.array(couponSchema))).data[0],
    );
    // The line's coupon_info names this coupon: WooCommerce takes the line's kind, own amount
    // and coupon id from the coupon it applies.
    plan.warnings.push(
      migrated
        ? `The order's coupon line '${code}' was recorded with a temporary fixed-amount coupon (id ${data.id}) of ${fromMinor(amount, o.currency)}, deleted right after, so it keeps its historical discount; the line's code leads to the migrated coupon '${code}'.`
        : `The destination has no coupon '${code}': the order's coupon line was recorded with a temporary fixed-amount coupon (id ${data.id}) of ${fromMinor(amount, o.currency)}, deleted right after, so the line names that coupon and not the source's kind and amount.`,
    );
    return data.id;
  }

  /**
   * Sends a create that may not be repeated blindly: after a failure that may have reached the
   * store, `done` looks whether it did, and the create is sent again only if it did not.
   */
  private async createOnce<T>(send: () => Promise<T>, done: () => Promise<T | undefined>) {
    for (let attempt = 0; ; attempt++) {
      try {
        return await send();
      } catch (error) {
        if (!(error instanceof ConnectorError) || error.errorClass !== 'transient' || attempt >= 5)
          throw error;
        await this.client.pause(attempt, error.retryAfterMs);
        const found = await done();
        if (found !== undefined) return found;
      }
    }
  }

  /** Existing orders: their fields, not their items (items sent again would be added). */
  private async updateAll(plans: Plan[]) {
    if (!plans.length) return;
    const refunds = await readRefunds(
      this.client,
      plans.map((plan) => plan.id as number),
    );
    for (const plan of plans) {
      plan.notesBefore = new Set(
        (await readNotes(this.client, plan.id as number)).map((n) => n.id),
      );
      plan.refundsBefore = refunds.get(plan.id as number)?.length ?? 0;
    }
    const b = (plan: Plan) => plan.body;
    // A refunded order whose refunds are not all there yet waits for them in its earlier status:
    // marked refunded first, WooCommerce would record a refund of its own for the rest.
    const status = (plan: Plan) =>
      plan.finalStatus === 'refunded' && (plan.refundsBefore ?? 0) < plan.order.refunds.length
        ? String(b(plan).status)
        : plan.finalStatus;
    for (const plan of plans) plan.sentStatus = status(plan);
    const results = await runBatch(
      this.client,
      '/orders/batch',
      {
        create: [],
        update: plans.map((plan, key) => ({
          key,
          body: {
            id: plan.id,
            status: plan.sentStatus,
            customer_id: b(plan).customer_id,
            customer_note: b(plan).customer_note,
            payment_method: b(plan).payment_method,
            payment_method_title: b(plan).payment_method_title,
            transaction_id: b(plan).transaction_id,
            ...(b(plan).billing ? { billing: b(plan).billing } : {}),
            ...(b(plan).shipping ? { shipping: b(plan).shipping } : {}),
            meta_data: (b(plan).meta_data as Json[]).filter(
              (m) => m.key !== '_order_stock_reduced',
            ),
          },
        })),
      },
      async () => new Map(),
    );
    for (const [key, result] of results) {
      const plan = plans[key] as Plan;
      if (!result.ok) {
        plan.failed = errorText(result.error);
        continue;
      }
      const order = wcOrderSchema.safeParse(result.item);
      if (order.success) {
        plan.lineIds = order.data.line_items.map((l) => l.id);
        // Created with coupon lines by a write that stopped before giving the lines their
        // historical totals back: finish() does it now.
        if (order.data.coupon_lines.length > 0 && plan.body.coupon_lines) plan.couponed = true;
      }
    }
  }

  /** The source's refunds the destination order lacks, oldest first. */
  private async writeRefunds(plan: Plan) {
    const o = plan.order;
    if (!o.refunds.length) return;
    const id = plan.id as number;
    for (const refund of o.refunds.slice(plan.refundsBefore ?? 0)) {
      const lineItems = refund.lines.flatMap((l) => {
        const at = o.lines.findIndex((x) => x.id === l.lineId);
        const lineId = plan.lineIds?.[at];
        if (lineId === undefined) return [];
        return [
          {
            id: lineId,
            quantity: l.quantity,
            refund_total: fromMinor(l.amount.amount, o.currency),
          },
        ];
      });
      // The destination holds as many refunds as come before this one in the source's list.
      const before = o.refunds.indexOf(refund);
      try {
        await this.createOnce(
          async () =>
            (
              await this.client.request('POST', `/orders/${id}/refunds`, {
                body: {
                  amount: fromMinor(refund.amount.amount, o.currency),
                  reason: refund.reason,
                  // Never through the payment gateway, never back into stock: this is history.
                  api_refund: false,
                  api_restock: false,
                  // A real store reads line_items although the index does not list it (the V3
                  // refunds controller passes $request['line_items'] to wc_create_refund).
                  ...(lineItems.length ? { line_items: lineItems } : {}),
                },
                retryable: false,
                schema: z.looseObject({ id: z.number() }),
              })
            ).data,
          async () => {
            const now = (await readRefunds(this.client, [id])).get(id) ?? [];
            return now.length > before ? { id: now[now.length - 1]?.id ?? 0 } : undefined;
          },
        );
      } catch (error) {
        if (!(error instanceof ConnectorError) || error.errorClass === 'config') throw error;
        plan.warnings.push(
          `The refund of ${fromMinor(refund.amount.amount, o.currency)} could not be recorded yet (${error.message}); the next run adds it.`,
        );
        plan.incomplete = true;
        plan.refundsFailed = true;
        return;
      }
    }
  }

  /**
   * Refunds of the whole total move an order to refunded; one that ended elsewhere at the source
   * is moved back, and one marked refunded without refunds for all of it is marked so now.
   */
  private async settleStatuses(plans: Plan[]) {
    const moves = plans.filter((plan) => {
      const o = plan.order;
      if (plan.refundsFailed) return false;
      const refunded = o.refunds.reduce((s, r) => s + r.amount.amount, 0);
      const fully = o.refunds.length > 0 && refunded >= o.grandTotal.amount;
      return (
        (fully && plan.finalStatus !== 'refunded') ||
        (!fully && plan.finalStatus !== (plan.sentStatus ?? plan.body.status))
      );
    });
    await this.moveOn(moves);
  }

  /**
   * Moves orders on to their final status, a batch at a time; one the store did not move is
   * reported, and the next run moves it.
   */
  private async moveOn(plans: Plan[]): Promise<Set<Plan>> {
    const moved = new Set<Plan>();
    if (!plans.length) return moved;
    const results = await runBatch(
      this.client,
      '/orders/batch',
      {
        create: [],
        update: plans.map((plan, key) => ({
          key,
          body: { id: plan.id, status: plan.finalStatus },
        })),
      },
      async () => new Map(),
    );
    plans.forEach((plan, key) => {
      if (results.get(key)?.ok) moved.add(plan);
      else {
        plan.warnings.push(
          `The order could not be moved on to its status '${plan.finalStatus}' yet; the next run does it.`,
        );
        plan.incomplete = true;
      }
    });
    return moved;
  }

  /**
   * A new order without refunds or coupon lines gets its notes in the source's order without
   * reading them back. WooCommerce writes one note of its own while the order is created: "Order
   * status changed from Pending payment to X." when it reaches status X (none when it stays
   * pending). Where the source has that very note (a WooCommerce source's orders do), the store's
   * stands for it: the order is created pending, the source's notes before it are added, the
   * order is moved on to X (the store writes it, in turn), then the rest. Otherwise the store's
   * note is read and removed (syncNotes).
   */
  private notesInTurn(plan: Plan) {
    const status = String(plan.body.status);
    if (plan.known || plan.order.refunds.length > 0 || status !== plan.finalStatus) return;
    if (status === 'pending') {
      plan.inTurn = { at: -1 };
      return;
    }
    const name = statusNames[status];
    if (!name) return;
    const own = `Order status changed from ${statusNames.pending} to ${name}.`;
    const at = plan.order.notes.findIndex(
      (n) => !n.customerNote && n.author === '' && n.content === own,
    );
    if (at < 0) return;
    plan.inTurn = { at };
    if (at > 0) plan.body = { ...plan.body, status: 'pending' };
  }

  /** Adds a note once (a failure that may have reached the store is looked into by the caller). */
  private async postNote(orderId: number, note: Order['notes'][number]) {
    const { data } = await this.client.request('POST', `/orders/${orderId}/notes`, {
      body: {
        note: note.content,
        customer_note: note.customerNote,
        added_by_user: note.author !== '',
      },
      retryable: false,
      schema: noteSchema,
    });
    return data;
  }

  /**
   * Adds the source's notes `from`…`to` to a new order (see notesInTurn); false when one could
   * not be written (the next run reads the notes and completes them).
   */
  private async addNotes(plan: Plan, from: number, to = plan.order.notes.length) {
    const id = plan.id as number;
    try {
      for (let i = from; i < to; i++) {
        const note = plan.order.notes[i] as Order['notes'][number];
        const same = (content: string, customerNote: boolean) =>
          content === note.content && customerNote === note.customerNote;
        // The order holds the source's notes before this one (the store's own among them): one
        // more of the same text, and this one arrived.
        const before = plan.order.notes
          .slice(0, i)
          .filter((n) => same(n.content, n.customerNote)).length;
        await this.createOnce(
          () => this.postNote(id, note),
          async () => {
            const held = (await readNotes(this.client, id)).filter((n) =>
              same(bareAmpersands(n.note), n.customer_note),
            );
            return held.length > before ? held.sort((a, b) => b.id - a.id)[0] : undefined;
          },
        );
      }
      return true;
    } catch (error) {
      if (!(error instanceof ConnectorError) || error.errorClass === 'config') throw error;
      plan.warnings.push(
        `The order notes could not all be written yet (${error.message}); the next run completes them.`,
      );
      plan.incomplete = true;
      return false;
    }
  }

  /**
   * The order's notes become the source's: notes the store wrote while this write created or
   * moved the order are removed, and the source's notes it lacks are added, oldest first, so the
   * store lists them in the source's order.
   */
  private async syncNotes(plan: Plan) {
    const id = plan.id as number;
    try {
      const current = await readNotes(this.client, id);
      const wanted = plan.order.notes.map((n) => ({ ...n, matched: false }));
      const keep = new Set<number>();
      // A note is kept only in the source's order: WooCommerce dates notes itself, so the order
      // of a store's notes is the order they were added in. A note the store wrote that matches a
      // source note out of turn (its own "status changed" before a source note that came first)
      // is removed and the source's added again in its place.
      let next = 0;
      for (const note of [...current].sort((a, b) => a.id - b.id)) {
        const want = wanted[next];
        if (
          want &&
          want.customerNote === note.customer_note &&
          want.content === bareAmpersands(note.note)
        ) {
          want.matched = true;
          keep.add(note.id);
          next += 1;
        }
      }
      // A note a person added at the destination is left alone; one the store wrote itself
      // (signed "WooCommerce") while a stopped run created or moved the order goes too.
      const storeNote = (note: WcOrderNote) =>
        note.author === 'WooCommerce' || note.author === 'system';
      for (const note of current) {
        if (keep.has(note.id) || (plan.notesBefore?.has(note.id) && !storeNote(note))) continue;
        await this.client.request('DELETE', `/orders/${id}/notes/${note.id}`, {
          query: { force: true },
          retryable: true,
          schema: noteSchema,
        });
      }
      for (const note of wanted.filter((w) => !w.matched))
        await this.createOnce(
          () => this.postNote(id, note),
          async () =>
            (await readNotes(this.client, id)).find(
              (n) =>
                !keep.has(n.id) &&
                n.customer_note === note.customerNote &&
                bareAmpersands(n.note) === note.content,
            ),
        );
    } catch (error) {
      if (!(error instanceof ConnectorError) || error.errorClass === 'config') throw error;
      plan.warnings.push(
        `The order notes could not all be written yet (${error.message}); the next run completes them.`,
      );
      plan.incomplete = true;
    }
  }

  /**
   * Last: the dates WooCommerce stamped while the order was written set to the source's, the
   * lines of an order with coupon lines given their historical totals back, and the hash marker
   * (left blank when something is still missing, so the next run writes the order again).
   */
  private async finish(plans: Plan[]) {
    if (!plans.length) return;
    const results = await runBatch(
      this.client,
      '/orders/batch',
      {
        create: [],
        update: plans.map((plan, key) => ({
          key,
          body: {
            id: plan.id,
            ...(plan.couponed && plan.lineIds && discountInLines(plan.order)
              ? {
                  line_items: plan.order.lines.flatMap((l, i) =>
                    plan.lineIds?.[i] !== undefined
                      ? [
                          {
                            id: plan.lineIds[i],
                            total: fromMinor(l.total.amount, plan.order.currency),
                          },
                        ]
                      : [],
                  ),
                }
              : {}),
            meta_data: [
              ...orderDatesMeta(plan.order),
              { key: markers.hash, value: plan.incomplete ? '' : plan.hash },
            ],
          },
        })),
      },
      async () => new Map(),
    );
    plans.forEach((plan, key) => {
      const result = results.get(key);
      if (result?.ok) {
        this.orderIndex?.set(plan.order.id, {
          id: plan.id as number,
          hash: plan.incomplete ? '' : plan.hash,
        });
        return;
      }
      plan.warnings.push(
        `The order's payment and completion dates could not be set yet (${result && !result.ok ? errorText(result.error) : 'no answer'}); the next run sets them.`,
      );
      plan.incomplete = true;
    });
  }
}
