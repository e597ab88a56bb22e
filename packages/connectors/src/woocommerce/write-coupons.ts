import type { Coupon } from '@replatform/canonical/coupon';
import type { IdMap, WriteOutcome } from '../kit/contract.ts';
import { runBatch, type BatchItemResult, type BatchOp } from './batch.ts';
import type { WooClient } from './client.ts';
import { switchCouponCode } from './emails.ts';
import { couponBody, type Json } from './from-canonical.ts';
import type { ImportState } from './import-state.ts';
import { digest, markers, metaValue, sourceIdOf } from './markers.ts';
import { readAllCoupons } from './read.ts';
import type { StoreInfo } from './store-info.ts';
import { decodeEntities } from './to-canonical.ts';
import { wcCouponSchema, type WcCoupon, type WcError } from './wc-schemas.ts';

/**
 * Coupons into WooCommerce (coupons/batch). A store has few coupons, so each write lists all of
 * the destination's coupons once (every status) and decides from that list:
 *
 * - a coupon of ours (the id map's, or one whose `_replatform_source_id` names the source coupon)
 *   is updated, or skipped when its `_replatform_hash` says it is up to date;
 * - a coupon of the same code that is not ours is the merchant's: it is linked and left alone,
 *   as a merchant's product of the same SKU is (WooCommerce refuses a second published coupon of
 *   a code, and a draft of that code would be the same code twice to the merchant);
 * - a temporary coupon an interrupted order write left behind (`_replatform_temporary_coupon`)
 *   is ours and worth nothing: it is deleted and the coupon created; a coupon of ours such a
 *   write left set aside as a draft (`_replatform_parked_coupon`) is written again.
 *
 * Codes compare lower case: WooCommerce stores them so (wc_format_coupon_code). After a lost
 * answer, the list is read again and what the batch created is found by its marker.
 */

const errorText = (e: WcError) =>
  `${decodeEntities(e.message).replace(/<[^>]*>/g, '')} (${e.code})`;
const codeKey = (code: string) => code.trim().toLowerCase();

interface Body {
  hash: string;
  body: Json;
}

export class CouponWriter {
  private readonly client: WooClient;
  private readonly storeInfo: () => Promise<StoreInfo>;
  private readonly state: ImportState;

  constructor(client: WooClient, storeInfo: () => Promise<StoreInfo>, state: ImportState) {
    this.client = client;
    this.storeInfo = storeInfo;
    this.state = state;
  }

  /**
   * Publishes again every migrated coupon an order write set aside as a draft and could not
   * publish after (the store went down meanwhile, or the run was stopped): at the end of every
   * import, so a coupon never stays switched off because of an order. Drafts are few; each is
   * read once and only those carrying our set-aside marker are changed.
   */
  async publishSetAside(): Promise<string[]> {
    const published: string[] = [];
    for (let page = 1; ; page++) {
      const { items, totalPages } = await this.client.page(
        '/coupons',
        { status: 'draft', per_page: 100, page },
        wcCouponSchema,
      );
      for (const coupon of items) {
        if (metaValue(coupon.meta_data, markers.parkedCoupon) !== 'publish') continue;
        await this.client.request('PUT', `/coupons/${coupon.id}`, {
          body: { status: 'publish', meta_data: [{ key: markers.parkedCoupon, value: '' }] },
          retryable: true,
          schema: wcCouponSchema,
        });
        published.push(coupon.code);
      }
      if (page >= totalPages || items.length === 0) break;
    }
    return published.length
      ? [
          `Coupons set aside while their orders were recorded were published again: ${published.join(', ')}.`,
        ]
      : [];
  }

  async write(records: Coupon[], idMap: IdMap): Promise<WriteOutcome[]> {
    const info = await this.storeInfo();
    const now = Date.now();
    const outcomes: (WriteOutcome | undefined)[] = new Array(records.length);
    const warnings = records.map(() => [] as string[]);
    const bodies = new Map<number, Body>();
    records.forEach((c, i) => {
      const written = couponBody(c, {
        currency: info.currency,
        product: (id) => idMap.get('products', id),
        category: (id) => idMap.get('categories', id),
        now,
      });
      if (!written.ok) {
        outcomes[i] = { sourceId: c.id, outcome: 'failed', reason: written.reason };
        return;
      }
      warnings[i]?.push(...written.warnings);
      const hash = digest(written.body);
      bodies.set(i, {
        hash,
        body: {
          ...written.body,
          meta_data: [
            ...(written.body.meta_data as Json[]),
            { key: markers.sourceId, value: c.id },
            { key: markers.hash, value: hash },
          ],
        },
      });
    });
    if (bodies.size === 0) return this.finish(records, outcomes, warnings);

    const existing = await readAllCoupons(this.client);
    const create: BatchOp[] = [];
    const update: BatchOp[] = [];
    const leftovers: number[] = [];
    const decide = (i: number, found: WcCoupon, ours: boolean) => {
      const c = records[i] as Coupon;
      const { hash, body } = bodies.get(i) as Body;
      if (!ours) {
        // Nothing of the source's coupon was written.
        warnings[i] = [];
        outcomes[i] = {
          sourceId: c.id,
          outcome: 'skipped',
          destinationId: String(found.id),
          reason: `A coupon with the code '${found.code}' already exists at the destination; it was linked, not changed.`,
          linked: true,
        };
        return;
      }
      // Set aside as a draft by an order write that stopped before publishing it again.
      const parked = Boolean(metaValue(found.meta_data, markers.parkedCoupon));
      if (metaValue(found.meta_data, markers.hash) === hash && !parked) {
        // Created, not skipped, when this connection sent its create and lost the answer.
        outcomes[i] = this.state.unanswered.coupons.has(c.id)
          ? { sourceId: c.id, outcome: 'created', destinationId: String(found.id) }
          : {
              sourceId: c.id,
              outcome: 'skipped',
              destinationId: String(found.id),
              reason: 'Already up to date.',
            };
        return;
      }
      update.push({
        key: i,
        body: {
          id: found.id,
          ...body,
          ...(parked
            ? {
                meta_data: [
                  ...(body.meta_data as Json[]),
                  { key: markers.parkedCoupon, value: '' },
                ],
              }
            : {}),
        },
      });
    };
    const byId = new Map(existing.map((c) => [c.id, c]));
    const bySource = new Map<string, WcCoupon>();
    for (const c of existing) {
      const source = sourceIdOf(c.meta_data);
      if (source !== undefined && !bySource.has(source)) bySource.set(source, c);
    }
    const byCode = (code: string) => existing.filter((c) => codeKey(c.code) === codeKey(code));
    for (const [i] of bodies) {
      const c = records[i] as Coupon;
      const mapped = idMap.get('coupons', c.id);
      const ours =
        (mapped !== undefined ? byId.get(Number(mapped)) : undefined) ?? bySource.get(c.id);
      if (ours) {
        decide(i, ours, true);
        continue;
      }
      const same = byCode(c.code);
      const merchants = same.filter(
        (s) =>
          metaValue(s.meta_data, markers.temporaryCoupon) === undefined &&
          codeKey(s.code) !== switchCouponCode,
      );
      if (merchants[0]) {
        decide(i, merchants[0], false);
        continue;
      }
      if (codeKey(c.code) === switchCouponCode) {
        outcomes[i] = {
          sourceId: c.id,
          outcome: 'failed',
          reason: `The code '${c.code}' is the one the importer keeps its own record under at the destination; rename the coupon at the source.`,
        };
        continue;
      }
      leftovers.push(...same.map((s) => s.id));
      create.push({ key: i, body: (bodies.get(i) as Body).body });
    }
    // Made for an order whose write was interrupted: its amount and e-mail are that order's.
    for (const id of leftovers)
      await this.client.request('DELETE', `/coupons/${id}`, {
        query: { force: true },
        retryable: true,
        schema: wcCouponSchema,
      });

    const recover = async (ops: BatchOp[]) => {
      const wanted = new Map(ops.map((op) => [(records[op.key] as Coupon).id, op.key]));
      const found = new Map<number, unknown>();
      for (const coupon of await readAllCoupons(this.client)) {
        const key = wanted.get(sourceIdOf(coupon.meta_data) ?? '');
        if (key !== undefined) found.set(key, coupon);
      }
      for (const [id, key] of wanted) if (!found.has(key)) this.state.unanswered.coupons.add(id);
      return found;
    };
    const results = await runBatch(this.client, '/coupons/batch', { create, update }, recover);
    const taken: number[] = [];
    for (const [key, result] of results) {
      const c = records[key] as Coupon;
      if (!result.ok && result.op === 'create' && result.error.code.endsWith('code_already_exists'))
        taken.push(key);
      else outcomes[key] = this.outcomeOf(c, result);
    }
    if (taken.length) {
      // Made by someone else since the list was read (or by a lost answer of this run).
      const current = await readAllCoupons(this.client);
      for (const key of taken) {
        const c = records[key] as Coupon;
        const found = current.find(
          (s) =>
            sourceIdOf(s.meta_data) === c.id ||
            (codeKey(s.code) === codeKey(c.code) && s.status === 'publish'),
        );
        if (!found) {
          outcomes[key] = {
            sourceId: c.id,
            outcome: 'failed',
            reason: `The code '${c.code}' is already used at the destination.`,
          };
          continue;
        }
        decide(key, found, sourceIdOf(found.meta_data) === c.id);
      }
      const again = update.filter((op) => taken.includes(op.key));
      if (again.length) {
        const second = await runBatch(
          this.client,
          '/coupons/batch',
          { create: [], update: again },
          async () => new Map(),
        );
        for (const [key, result] of second)
          outcomes[key] = this.outcomeOf(records[key] as Coupon, result);
      }
    }
    return this.finish(records, outcomes, warnings);
  }

  private outcomeOf(c: Coupon, result: BatchItemResult): WriteOutcome {
    if (!result.ok) return { sourceId: c.id, outcome: 'failed', reason: errorText(result.error) };
    const coupon = wcCouponSchema.safeParse(result.item);
    if (!coupon.success)
      return {
        sourceId: c.id,
        outcome: 'failed',
        reason: 'The store answered with something that is not a coupon.',
      };
    const id = String(coupon.data.id);
    if (result.op === 'update') return { sourceId: c.id, outcome: 'updated', destinationId: id };
    return { sourceId: c.id, outcome: 'created', destinationId: id };
  }

  private finish(
    records: Coupon[],
    outcomes: (WriteOutcome | undefined)[],
    warnings: string[][],
  ): WriteOutcome[] {
    return records.map((c, i) => {
      const current = outcomes[i] ?? {
        sourceId: c.id,
        outcome: 'failed',
        reason: 'The store did not answer for this coupon.',
      };
      const list = warnings[i] ?? [];
      return list.length && current.outcome !== 'failed' ? { ...current, warnings: list } : current;
    });
  }
}
