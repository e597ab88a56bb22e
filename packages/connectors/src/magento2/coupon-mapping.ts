import { couponDefaults } from '@replatform/canonical/defaults';
import type { Coupon } from '@replatform/canonical/coupon';
import type { Metafield } from '@replatform/canonical/metafield';
import { fromMinor, toMinor, type Money } from '@replatform/canonical/money';
import { isMagento, magentoMetafield, metafieldValue } from './metafields.ts';
import { isJson, listOf, type Json } from './native.ts';

/**
 * A canonical coupon is a Magento cart price rule with coupon_type SPECIFIC_COUPON and its primary
 * coupon. The native form of a coupon is the rule as GET /V1/salesRules/search answers it, with
 * its primary coupon (GET /V1/coupons/search) under `coupon`.
 *
 * - simple_action: by_percent is 'percent', by_fixed (each item) 'fixed_product', cart_fixed
 *   'fixed_cart'; buy_x_get_y has no canonical kind and the rule is refused;
 * - simple_free_shipping '2' ("For shipment with matching items", free shipping for the whole
 *   order as WooCommerce means it) is written for freeShipping; '1' (matching items only) reads as
 *   free shipping too;
 * - spend limits are `condition` entries on the Address condition's base_subtotal (>= and <=);
 * - product and category limits are `action_condition` entries on the Product condition's sku
 *   and category_ids: included ones with '()' (both kinds in one 'any' group, since an item
 *   qualifies by either), excluded ones with '!()';
 * - from_date and to_date are days in the store's time zone: a coupon starts at the start of its
 *   first day and stops at the end of its last.
 */

export const combineCondition = 'Magento\\SalesRule\\Model\\Rule\\Condition\\Combine';
export const addressCondition = 'Magento\\SalesRule\\Model\\Rule\\Condition\\Address';
export const productCombineCondition =
  'Magento\\SalesRule\\Model\\Rule\\Condition\\Product\\Combine';
export const productCondition = 'Magento\\SalesRule\\Model\\Rule\\Condition\\Product';

const kinds: Record<string, Coupon['discountType']> = {
  by_percent: 'percent',
  by_fixed: 'fixed_product',
  cart_fixed: 'fixed_cart',
};
export const simpleActions: Record<Coupon['discountType'], string> = {
  percent: 'by_percent',
  fixed_product: 'by_fixed',
  fixed_cart: 'cart_fixed',
};

/**
 * Rule settings without a field in the model, kept as magento.* metafields when they differ from
 * what a rule this connector writes gets anyway (the name defaults to the code).
 */
export const ownRuleFields: Record<string, (rule: Json) => boolean> = {
  name: (rule) => isJson(rule.coupon) && rule.name === rule.coupon.code,
  sort_order: (rule) => Number(rule.sort_order ?? 0) === 0,
  apply_to_shipping: (rule) => !rule.apply_to_shipping,
  discount_step: (rule) => Number(rule.discount_step ?? 0) === 0,
  is_rss: (rule) => rule.is_rss !== false,
  store_labels: (rule) => listOf(rule.store_labels).length === 0,
};

// ------------------------------------------------------------------ dates

function offsetMinutes(timeZone: string, at: number): number {
  const name =
    new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
      .formatToParts(new Date(at))
      .find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
  if (!match) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  return match[1] === '-' ? -minutes : minutes;
}

/** A usable IANA zone: the store's, or UTC when the store names none Intl knows. */
export function zoneOf(timezone: unknown): string {
  if (typeof timezone !== 'string' || !timezone) return 'UTC';
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezone });
    return timezone;
  } catch {
    return 'UTC';
  }
}

/** The start ('00:00:00') or end ('23:59:59') of a store day as ISO-8601 with the zone's offset. */
export function dayBoundary(day: string, timeZone: string, end: boolean): string {
  const time = end ? '23:59:59' : '00:00:00';
  const asUtc = Date.parse(`${day}T${time}Z`);
  const first = offsetMinutes(timeZone, asUtc);
  const offset = offsetMinutes(timeZone, asUtc - first * 60_000);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  return `${day}T${time}${sign}${hh}:${mm}`;
}

/** The store day (YYYY-MM-DD) an instant falls on. */
export function storeDay(iso: string, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(new Date(iso));
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

const dayOf = (value: unknown): string | null => {
  const match = typeof value === 'string' ? /^(\d{4}-\d{2}-\d{2})/.exec(value) : null;
  return match?.[1] ?? null;
};

// ------------------------------------------------------------------ conditions

const split = (value: unknown): string[] =>
  String(value ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');

/** A combine condition whose children must all hold (or that has one child): a plain list. */
const isPlainGroup = (c: Json): boolean =>
  String(c.value ?? '1') === '1' &&
  (String(c.aggregator_type ?? 'all') === 'all' || listOf(c.conditions).length <= 1);

/** What the model holds of a rule's conditions, and a description of each condition it cannot. */
export interface RuleConditions {
  minimumSpend: string | null;
  maximumSpend: string | null;
  skus: string[];
  excludedSkus: string[];
  categoryIds: string[];
  excludedCategoryIds: string[];
  lost: string[];
}

const describe = (c: Json): string =>
  [c.attribute_name ?? c.condition_type, c.operator, c.value]
    .filter((v) => v !== null && v !== undefined && v !== '')
    .map(String)
    .join(' ');

export function ruleConditions(rule: Json): RuleConditions {
  const out: RuleConditions = {
    minimumSpend: null,
    maximumSpend: null,
    skus: [],
    excludedSkus: [],
    categoryIds: [],
    excludedCategoryIds: [],
    lost: [],
  };
  const cart = isJson(rule.condition) ? rule.condition : undefined;
  if (cart && listOf(cart.conditions).length) {
    if (!isPlainGroup(cart)) out.lost.push(`cart conditions combined as '${describe(cart)}'`);
    else
      for (const c of listOf(cart.conditions)) {
        const subtotal =
          c.condition_type === addressCondition && c.attribute_name === 'base_subtotal';
        if (subtotal && c.operator === '>=' && out.minimumSpend === null)
          out.minimumSpend = String(c.value);
        else if (subtotal && c.operator === '<=' && out.maximumSpend === null)
          out.maximumSpend = String(c.value);
        else out.lost.push(`cart condition '${describe(c)}'`);
      }
  }
  const items = isJson(rule.action_condition) ? rule.action_condition : undefined;
  if (items && listOf(items.conditions).length) {
    if (!isPlainGroup(items)) out.lost.push(`item conditions combined as '${describe(items)}'`);
    else {
      let includeKinds = 0;
      for (const c of listOf(items.conditions)) {
        const include = itemLimit(c, true);
        const exclude = itemLimit(c, false);
        const anyGroup =
          c.condition_type === productCombineCondition &&
          String(c.value ?? '1') === '1' &&
          listOf(c.conditions).length > 0 &&
          listOf(c.conditions).every((inner) => itemLimit(inner, true));
        if (include) {
          includeKinds += 1;
          (include.sku ? out.skus : out.categoryIds).push(...include.values);
        } else if (exclude) {
          (exclude.sku ? out.excludedSkus : out.excludedCategoryIds).push(...exclude.values);
        } else if (anyGroup && (c.aggregator_type === 'any' || listOf(c.conditions).length === 1)) {
          includeKinds += 1;
          for (const inner of listOf(c.conditions)) {
            const limit = itemLimit(inner, true);
            if (limit) (limit.sku ? out.skus : out.categoryIds).push(...limit.values);
          }
        } else out.lost.push(`item condition '${describe(c)}'`);
      }
      // Limits that must all hold narrow the items further than the model's "any of them".
      if (includeKinds > 1)
        out.lost.push(
          'item limits that must all hold at once (the model allows an item matching any of them)',
        );
    }
  }
  return out;
}

function itemLimit(c: Json, include: boolean): { sku: boolean; values: string[] } | undefined {
  if (c.condition_type !== productCondition) return undefined;
  const attribute = String(c.attribute_name ?? '');
  if (attribute !== 'sku' && attribute !== 'category_ids') return undefined;
  const operators = include ? ['()', '=='] : ['!()', '!='];
  if (!operators.includes(String(c.operator ?? ''))) return undefined;
  // Native records list a category condition's ids (read.ts); the API gives them as text.
  const values = Array.isArray(c.category_ids) ? c.category_ids.map(String) : split(c.value);
  return values.length ? { sku: attribute === 'sku', values } : undefined;
}

// ------------------------------------------------------------------ read

export interface CouponReadContext {
  currency: string;
  timeZone: string;
  /** Product ids of the store by lower-case SKU. */
  idsBySku: ReadonlyMap<string, string>;
}

/** A native coupon (rule with `coupon`) in the model, or why it cannot be one. */
export function couponToCanonical(
  rule: Json,
  ctx: CouponReadContext,
): { record: Coupon } | { reason: string } {
  const coupon = isJson(rule.coupon) ? rule.coupon : undefined;
  if (rule.use_auto_generation === true || rule.coupon_type === 'AUTO')
    return {
      reason:
        'a pool of generated coupon codes: the model has one code per coupon, so the pool is not migrated',
    };
  if (!coupon?.code) return { reason: 'a rule for a specific coupon without a code' };
  const kind = kinds[String(rule.simple_action ?? '')];
  if (!kind)
    return {
      reason: `the rule's action '${String(rule.simple_action)}' (buy X get Y) has no equivalent in other platforms' coupons`,
    };
  const conditions = ruleConditions(rule);
  const ids = (skus: string[]): { ids: string[] } | { reason: string } => {
    const out: string[] = [];
    for (const sku of skus) {
      const id = ctx.idsBySku.get(sku.toLowerCase());
      if (!id)
        return {
          reason: `limited by SKU to product '${sku}', which the store does not have: migrating the coupon would make it apply more widely`,
        };
      out.push(id);
    }
    return { ids: [...new Set(out)] };
  };
  const products = ids(conditions.skus);
  if ('reason' in products) return products;
  const excluded = ids(conditions.excludedSkus);
  if ('reason' in excluded) return excluded;
  const amount = Number(rule.discount_amount ?? 0);
  const money = (value: string | null): Money | null =>
    value === null ? null : { amount: toMinor(value, ctx.currency), currency: ctx.currency };
  const positive = (value: unknown): number | null => {
    const n = Number(value ?? 0);
    return Number.isFinite(n) && n > 0 ? Math.floor(n) : null;
  };
  const from = dayOf(rule.from_date);
  const to = dayOf(rule.to_date);
  const metafields: Metafield[] = [];
  for (const [key, neutral] of Object.entries(ownRuleFields))
    if (rule[key] !== undefined && rule[key] !== null && !neutral(rule))
      metafields.push(magentoMetafield(key, rule[key]));
  const created = typeof coupon.created_at === 'string' ? coupon.created_at : '';
  const createdAt = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(created)
    ? `${created.replace(' ', 'T')}Z`
    : null;
  return {
    record: {
      ...couponDefaults(),
      id: String(rule.rule_id),
      code: String(coupon.code),
      description: String(rule.description ?? ''),
      discountType: kind,
      percentOff: kind === 'percent' ? amount : null,
      amountOff: kind === 'percent' ? null : money(String(amount)),
      freeShipping: ['1', '2'].includes(String(rule.simple_free_shipping ?? '0')),
      enabled: rule.is_active === true,
      startsAt: from ? dayBoundary(from, ctx.timeZone, false) : null,
      expiresAt: to ? dayBoundary(to, ctx.timeZone, true) : null,
      minimumSpend: money(conditions.minimumSpend),
      maximumSpend: money(conditions.maximumSpend),
      usageLimit: positive(rule.uses_per_coupon),
      usageLimitPerCustomer: positive(rule.uses_per_customer),
      usageCount: Math.max(0, Number(coupon.times_used ?? 0) || 0),
      itemLimit: positive(rule.discount_qty),
      individualUse: rule.stop_rules_processing === true,
      productIds: products.ids,
      excludedProductIds: excluded.ids,
      categoryIds: [...new Set(conditions.categoryIds)],
      excludedCategoryIds: [...new Set(conditions.excludedCategoryIds)],
      metafields,
      createdAt,
    },
  };
}

// ------------------------------------------------------------------ write

export interface CouponWriteContext {
  currency: string;
  timeZone: string;
  websiteIds: number[];
  customerGroupIds: number[];
  /** Destination SKU of each restricted product, by source product id. */
  skuOf: (sourceProductId: string) => string | undefined;
  /** Destination id of each restricted category, by source category id. */
  categoryOf: (sourceCategoryId: string) => string | undefined;
}

export interface RulePayload {
  rule: Json;
  warnings: string[];
}

const condition = (type: string, attribute: string, operator: string, value: string): Json => ({
  condition_type: type,
  attribute_name: attribute,
  operator,
  value,
});
const group = (type: string, aggregator: 'all' | 'any', conditions: Json[]): Json => ({
  condition_type: type,
  aggregator_type: aggregator,
  operator: '',
  value: '1',
  conditions,
});

/** The rule of a canonical coupon, or why it cannot be written to this store. */
export function rulePayload(
  record: Coupon,
  ctx: CouponWriteContext,
): RulePayload | { error: string } {
  for (const [label, money] of [
    ['amount', record.amountOff],
    ['minimum spend', record.minimumSpend],
    ['maximum spend', record.maximumSpend],
  ] as const) {
    if (money && money.currency !== ctx.currency)
      return {
        error: `its ${label} is in ${money.currency} and this store's base currency is ${ctx.currency}: Magento would read it as ${ctx.currency}`,
      };
  }
  const missing = (ids: string[], find: (id: string) => string | undefined) =>
    ids.filter((id) => find(id) === undefined);
  const products = missing([...record.productIds, ...record.excludedProductIds], ctx.skuOf);
  if (products.length)
    return {
      error: `limited to products that were not migrated (source id ${products.join(', ')}): select Products too`,
    };
  const categories = missing(
    [...record.categoryIds, ...record.excludedCategoryIds],
    ctx.categoryOf,
  );
  if (categories.length)
    return {
      error: `limited to categories that were not migrated (source id ${categories.join(', ')}): select Categories too`,
    };
  const warnings: string[] = [];
  const skus = (ids: string[]) => ids.map((id) => ctx.skuOf(id) ?? '').join(', ');
  const cats = (ids: string[]) => ids.map((id) => ctx.categoryOf(id) ?? '').join(', ');
  const includes: Json[] = [];
  if (record.productIds.length)
    includes.push(condition(productCondition, 'sku', '()', skus(record.productIds)));
  if (record.categoryIds.length)
    includes.push(condition(productCondition, 'category_ids', '()', cats(record.categoryIds)));
  const items: Json[] =
    includes.length > 1 ? [group(productCombineCondition, 'any', includes)] : includes;
  if (record.excludedProductIds.length)
    items.push(condition(productCondition, 'sku', '!()', skus(record.excludedProductIds)));
  if (record.excludedCategoryIds.length)
    items.push(
      condition(productCondition, 'category_ids', '!()', cats(record.excludedCategoryIds)),
    );
  const cart: Json[] = [];
  if (record.minimumSpend)
    cart.push(
      condition(
        addressCondition,
        'base_subtotal',
        '>=',
        fromMinor(record.minimumSpend.amount, ctx.currency),
      ),
    );
  if (record.maximumSpend)
    cart.push(
      condition(
        addressCondition,
        'base_subtotal',
        '<=',
        fromMinor(record.maximumSpend.amount, ctx.currency),
      ),
    );
  const fromDate = record.startsAt ? storeDay(record.startsAt, ctx.timeZone) : null;
  // The last day on which the code still works: a code that stops at midnight stopped the day before.
  const toDate = record.expiresAt
    ? storeDay(new Date(Date.parse(record.expiresAt) - 1000).toISOString(), ctx.timeZone)
    : null;
  if (
    fromDate &&
    record.startsAt &&
    Date.parse(dayBoundary(fromDate, ctx.timeZone, false)) !== Date.parse(record.startsAt)
  )
    warnings.push(
      `starts on ${fromDate} (store time) for the whole day: Magento keeps a start date, not a time of day (startsAt)`,
    );
  if (toDate && record.expiresAt) {
    const end = Date.parse(dayBoundary(toDate, ctx.timeZone, true));
    const at = Date.parse(record.expiresAt);
    if (at !== end && at !== end + 1000)
      warnings.push(
        `works until the end of ${toDate} (store time): Magento keeps an end date, not a time of day (expiresAt)`,
      );
  }
  if (record.allowedEmails.length)
    warnings.push(
      'allowed e-mail addresses not kept: a Magento cart price rule cannot be limited to e-mail addresses, so any customer can use the code (allowedEmails)',
    );
  if (record.excludeSaleItems)
    warnings.push(
      'items on sale are not excluded: Magento cart price rules have no such setting (excludeSaleItems)',
    );
  const own: Json = {};
  for (const field of record.metafields) {
    if (isMagento(field) && field.key in ownRuleFields) own[field.key] = metafieldValue(field);
    else
      warnings.push(
        `custom field ${field.namespace}.${field.key} not migrated: Magento cart price rules have no custom fields (metafields)`,
      );
  }
  const amount =
    record.discountType === 'percent'
      ? (record.percentOff ?? 0)
      : Number(fromMinor(record.amountOff?.amount ?? 0, ctx.currency));
  return {
    warnings,
    rule: {
      name: record.code,
      description: record.description,
      website_ids: ctx.websiteIds,
      customer_group_ids: ctx.customerGroupIds,
      ...(fromDate ? { from_date: fromDate } : {}),
      ...(toDate ? { to_date: toDate } : {}),
      uses_per_customer: record.usageLimitPerCustomer ?? 0,
      is_active: record.enabled,
      condition: group(combineCondition, 'all', cart),
      action_condition: group(productCombineCondition, 'all', items),
      stop_rules_processing: record.individualUse,
      is_advanced: true,
      sort_order: 0,
      simple_action: simpleActions[record.discountType],
      discount_amount: amount,
      discount_qty: record.itemLimit ?? 0,
      discount_step: 0,
      apply_to_shipping: false,
      times_used: record.usageCount,
      is_rss: true,
      coupon_type: 'SPECIFIC_COUPON',
      use_auto_generation: false,
      uses_per_coupon: record.usageLimit ?? 0,
      simple_free_shipping: record.freeShipping ? '2' : '0',
      ...own,
    },
  };
}
