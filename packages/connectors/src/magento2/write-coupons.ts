import type { Coupon } from '@replatform/canonical/coupon';
import { z } from 'zod';
import type { IdMap, WriteOutcome } from '../kit/contract.ts';
import {
  rulePayload,
  zoneOf,
  type CouponWriteContext,
  type RulePayload,
} from './coupon-mapping.ts';
import { searchResults } from './magento-schemas.ts';
import { listIn } from './native.ts';
import { storeWebsiteIds } from './read.ts';
import { criteria, type MagentoSession } from './session.ts';
import { createOnce, isStoreWide, leftUnchanged, reasonOf } from './write-support.ts';

/**
 * Coupons are written as a cart price rule (POST /V1/salesRules, coupon_type SPECIFIC_COUPON, for
 * every website and customer group of the store) and its primary coupon (POST /V1/coupons).
 *
 * Marker: rules have no custom attributes, so the code finds a coupon again (codes are unique in
 * a Magento store, whatever their case). A coupon with the code whose rule the id map says this
 * migration wrote is updated; one the id map does not know is the merchant's (or was linked as
 * such before): it is linked and left unchanged, never overwritten.
 *
 * A rule is saved before its coupon, so a run that stopped in between leaves a rule without a
 * coupon: a rule for a specific coupon with the name this connector gives, and no coupon, is
 * taken up again instead of being created twice. Updating a rule through PUT /V1/salesRules/{id}
 * can leave it without its coupon code (magento/magento2#35298), so the coupon is looked up and
 * written again after each rule update.
 */

const ruleAnswer = z.looseObject({
  rule_id: z.number().int(),
  use_auto_generation: z.boolean().optional(),
});
const couponAnswer = z.looseObject({
  coupon_id: z.number().int(),
  rule_id: z.number().int(),
  code: z.string(),
});
type CouponAnswer = z.infer<typeof couponAnswer>;
const couponList = searchResults(couponAnswer);
const ruleList = searchResults(ruleAnswer);

/** Coupons of the store by lower-case code. */
async function couponsByCode(
  session: MagentoSession,
  codes: readonly string[],
): Promise<Map<string, CouponAnswer>> {
  const found = new Map<string, CouponAnswer>();
  // GET /V1/coupons/search (admin-schema-2.4.9.yaml GetV1CouponsSearch), one code at a time:
  // a code may itself contain the comma an 'in' filter splits on.
  for (const code of new Set(codes)) {
    const result = await session.client.get(
      '/V1/coupons/search',
      couponList,
      criteria({ filters: [[['code', code]]], pageSize: 5, currentPage: 1 }),
    );
    for (const c of result.items)
      if (c.code.toLowerCase() === code.toLowerCase()) found.set(code.toLowerCase(), c);
  }
  return found;
}

/** A rule for a specific coupon with this name that has no coupon: a create cut short. */
async function ruleWithoutCoupon(
  session: MagentoSession,
  name: string,
): Promise<number | undefined> {
  // GET /V1/salesRules/search (admin-schema-2.4.9.yaml GetV1SalesRulesSearch)
  const rules = await session.client.get(
    '/V1/salesRules/search',
    ruleList,
    criteria({
      filters: [[['name', name]], [['coupon_type', 2]]],
      sort: [['rule_id', 'DESC']],
      pageSize: 20,
      currentPage: 1,
    }),
  );
  // A rule that generates its codes has none until the merchant generates them: not a cut-short create.
  const typed = rules.items.filter((r) => r.use_auto_generation !== true);
  if (!typed.length) return undefined;
  const coupons = await listIn(
    session,
    '/V1/coupons/search',
    'rule_id',
    typed.map((r) => r.rule_id),
  );
  const taken = new Set(coupons.map((c) => Number(c.rule_id)));
  return typed.find((r) => !taken.has(r.rule_id))?.rule_id;
}

async function writeContext(
  session: MagentoSession,
  records: readonly Coupon[],
  idMap: IdMap,
): Promise<CouponWriteContext> {
  const [config, currency, websiteIds, groups] = await Promise.all([
    session.storeConfig(),
    session.currency(),
    storeWebsiteIds(session),
    session.customerGroups(),
  ]);
  const productIds = records.flatMap((r) => [...r.productIds, ...r.excludedProductIds]);
  const destinationIds = productIds.flatMap((id) => idMap.get('products', id) ?? []);
  // Magento's item conditions name products by SKU: the SKU the destination's product has now.
  const skus = new Map<string, string>();
  for (const p of await listIn(session, '/V1/products', 'entity_id', destinationIds))
    skus.set(String(p.id), String(p.sku));
  return {
    currency,
    timeZone: zoneOf(config.timezone),
    websiteIds,
    customerGroupIds: groups.map((g) => g.id),
    skuOf: (id) => {
      const destination = idMap.get('products', id);
      return destination === undefined ? undefined : skus.get(destination);
    },
    categoryOf: (id) => idMap.get('categories', id),
  };
}

const withWarnings = (outcome: WriteOutcome, warnings: string[]): WriteOutcome =>
  warnings.length ? { ...outcome, warnings } : outcome;

export async function writeCoupons(
  session: MagentoSession,
  records: Coupon[],
  idMap: IdMap,
): Promise<WriteOutcome[]> {
  const ctx = await writeContext(session, records, idMap);
  const outcomes = new Map<string, WriteOutcome>();
  const payloads = new Map<string, RulePayload>();
  for (const record of records) {
    const payload = rulePayload(record, ctx);
    if ('error' in payload)
      outcomes.set(record.id, { sourceId: record.id, outcome: 'failed', reason: payload.error });
    else payloads.set(record.id, payload);
  }
  const pending = records.filter((r) => payloads.has(r.id));
  const existing = await couponsByCode(
    session,
    pending.map((r) => r.code),
  );
  const seen = new Set<string>();
  for (const record of pending) {
    const code = record.code.toLowerCase();
    const payload = payloads.get(record.id);
    if (!payload) continue;
    if (seen.has(code)) {
      outcomes.set(record.id, {
        sourceId: record.id,
        outcome: 'failed',
        reason: `another coupon in this batch has the code ${record.code} (Magento codes are unique whatever their case)`,
      });
      continue;
    }
    seen.add(code);
    try {
      outcomes.set(
        record.id,
        await writeOne(
          session,
          record,
          payload,
          existing.get(code),
          idMap.get('coupons', record.id),
        ),
      );
    } catch (error) {
      if (isStoreWide(error)) throw error;
      outcomes.set(record.id, { sourceId: record.id, outcome: 'failed', reason: reasonOf(error) });
    }
  }
  return records.map(
    (r) => outcomes.get(r.id) ?? { sourceId: r.id, outcome: 'failed', reason: 'not processed' },
  );
}

async function writeOne(
  session: MagentoSession,
  record: Coupon,
  payload: RulePayload,
  found: CouponAnswer | undefined,
  mapped: string | undefined,
): Promise<WriteOutcome> {
  if (found && mapped !== String(found.rule_id))
    return {
      sourceId: record.id,
      outcome: 'skipped',
      destinationId: String(found.rule_id),
      reason: leftUnchanged,
      linked: true,
    };
  if (found) {
    // PUT /V1/salesRules/{ruleId} (admin-schema-2.4.9.yaml PutV1SalesRulesRuleId)
    await session.client.request('PUT', `/V1/salesRules/${found.rule_id}`, ruleAnswer, {
      body: { rule: { ...payload.rule, rule_id: found.rule_id } },
    });
    await saveCoupon(session, record, found.rule_id);
    return withWarnings(
      { sourceId: record.id, outcome: 'updated', destinationId: String(found.rule_id) },
      payload.warnings,
    );
  }
  const name = String(payload.rule.name);
  let ruleId = await ruleWithoutCoupon(session, name);
  if (ruleId !== undefined) {
    // A rule left without its coupon by an earlier run is brought up to date and completed.
    await session.client.request('PUT', `/V1/salesRules/${ruleId}`, ruleAnswer, {
      body: { rule: { ...payload.rule, rule_id: ruleId } },
    });
  } else {
    const created = await createOnce(
      // POST /V1/salesRules (admin-schema-2.4.9.yaml PostV1SalesRules)
      () =>
        session.client.request('POST', '/V1/salesRules', ruleAnswer, {
          body: { rule: payload.rule },
        }),
      async () => {
        const id = await ruleWithoutCoupon(session, name);
        return id === undefined ? undefined : { rule_id: id };
      },
    );
    ruleId = created.rule_id;
  }
  await saveCoupon(session, record, ruleId);
  return withWarnings(
    { sourceId: record.id, outcome: 'created', destinationId: String(ruleId) },
    payload.warnings,
  );
}

/** Writes the rule's primary coupon: updated when the code is there, created when it is not. */
async function saveCoupon(session: MagentoSession, record: Coupon, ruleId: number): Promise<void> {
  const coupon = {
    rule_id: ruleId,
    code: record.code,
    times_used: record.usageCount,
    is_primary: true,
    type: 0,
    ...(record.createdAt
      ? { created_at: new Date(record.createdAt).toISOString().slice(0, 19).replace('T', ' ') }
      : {}),
  };
  const lookup = async () => {
    const current = (await couponsByCode(session, [record.code])).get(record.code.toLowerCase());
    return current && current.rule_id === ruleId ? current : undefined;
  };
  const current = await lookup();
  if (current) {
    // PUT /V1/coupons/{couponId} (admin-schema-2.4.9.yaml PutV1CouponsCouponId)
    await session.client.request('PUT', `/V1/coupons/${current.coupon_id}`, couponAnswer, {
      body: { coupon: { ...coupon, coupon_id: current.coupon_id } },
    });
    return;
  }
  // POST /V1/coupons (admin-schema-2.4.9.yaml PostV1Coupons)
  await createOnce(
    () => session.client.request('POST', '/V1/coupons', couponAnswer, { body: { coupon } }),
    lookup,
  );
}
