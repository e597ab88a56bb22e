import type { Customers } from './customers.ts';
import { MagentoError, invalidField, noSuchEntity, requiredField } from './magento-error.ts';
import {
  checkKeys,
  magentoTime,
  objectField,
  optionalArray,
  optionalBool,
  optionalInt,
  optionalNumber,
  optionalString,
  type Json,
} from './input.ts';

/**
 * Cart price rules and their coupons as Magento_SalesRule keeps them (RuleRepository,
 * CouponRepository). What a REST client meets:
 * - a rule's coupon_type travels as NO_COUPON / SPECIFIC_COUPON / AUTO and is stored as 1 / 2 / 3,
 *   which is what a search filters on;
 * - a rule saved without conditions gets the empty condition trees Magento gives a new rule;
 * - PUT /V1/salesRules/{id} merges the body into the stored rule (ToModel::toModel loads it first);
 * - CouponRepository::save refuses a coupon of a rule without coupons, a manual coupon of a rule
 *   that only takes generated ones and the other way round, and copies the rule's uses per coupon,
 *   uses per customer and end date onto the coupon whatever it was sent;
 * - codes are unique in the store whatever their case (the salesrule_coupon code index under a
 *   case-insensitive collation), and a rule has at most one primary coupon.
 */

export interface ConditionRecord {
  condition_type: string;
  conditions?: ConditionRecord[];
  aggregator_type?: string;
  operator: string | null;
  attribute_name?: string;
  value: string;
}

export interface RuleRecord {
  rule_id: number;
  name: string;
  description: string;
  store_labels: { store_id: number; store_label: string }[];
  website_ids: number[];
  customer_group_ids: number[];
  from_date: string | null;
  to_date: string | null;
  uses_per_customer: number;
  is_active: boolean;
  condition: ConditionRecord;
  action_condition: ConditionRecord;
  stop_rules_processing: boolean;
  is_advanced: boolean;
  sort_order: number;
  simple_action: string;
  discount_amount: number;
  discount_qty: number;
  discount_step: number;
  apply_to_shipping: boolean;
  times_used: number;
  is_rss: boolean;
  /** 1 NO_COUPON, 2 SPECIFIC_COUPON, 3 AUTO. */
  coupon_type: 1 | 2 | 3;
  use_auto_generation: boolean;
  uses_per_coupon: number;
  simple_free_shipping: string;
}

export interface CouponRecord {
  coupon_id: number;
  rule_id: number;
  code: string;
  usage_limit: number;
  usage_per_customer: number;
  times_used: number;
  expiration_date: string | null;
  is_primary: boolean;
  created_at: string;
  /** 0 manual, 1 generated. */
  type: number;
}

const ruleClass = 'Magento\\SalesRule\\Api\\Data\\RuleInterface';
const couponClass = 'Magento\\SalesRule\\Api\\Data\\CouponInterface';
const conditionClass = 'Magento\\SalesRule\\Api\\Data\\ConditionInterface';
const labelClass = 'Magento\\SalesRule\\Api\\Data\\RuleLabelInterface';

const ruleKeys = [
  'rule_id',
  'name',
  'store_labels',
  'description',
  'website_ids',
  'customer_group_ids',
  'from_date',
  'to_date',
  'uses_per_customer',
  'is_active',
  'condition',
  'action_condition',
  'stop_rules_processing',
  'is_advanced',
  'product_ids',
  'sort_order',
  'simple_action',
  'discount_amount',
  'discount_qty',
  'discount_step',
  'apply_to_shipping',
  'times_used',
  'is_rss',
  'coupon_type',
  'use_auto_generation',
  'uses_per_coupon',
  'simple_free_shipping',
  'extension_attributes',
];

const couponKeys = [
  'coupon_id',
  'rule_id',
  'code',
  'usage_limit',
  'usage_per_customer',
  'times_used',
  'expiration_date',
  'is_primary',
  'created_at',
  'type',
  'extension_attributes',
];

const conditionKeys = [
  'condition_type',
  'conditions',
  'aggregator_type',
  'operator',
  'attribute_name',
  'value',
  'extension_attributes',
];

const couponTypes = { NO_COUPON: 1, SPECIFIC_COUPON: 2, AUTO: 3 } as const;
const couponTypeNames = ['', 'NO_COUPON', 'SPECIFIC_COUPON', 'AUTO'] as const;
const simpleActions = new Set(['by_percent', 'by_fixed', 'cart_fixed', 'buy_x_get_y']);
const freeShippingValues = new Set(['0', '1', '2']);
/** The condition models a rule's trees may use (Magento_SalesRule's own). */
const conditionTypes = new Set([
  'Magento\\SalesRule\\Model\\Rule\\Condition\\Combine',
  'Magento\\SalesRule\\Model\\Rule\\Condition\\Address',
  'Magento\\SalesRule\\Model\\Rule\\Condition\\Product',
  'Magento\\SalesRule\\Model\\Rule\\Condition\\Product\\Combine',
  'Magento\\SalesRule\\Model\\Rule\\Condition\\Product\\Found',
  'Magento\\SalesRule\\Model\\Rule\\Condition\\Product\\Subselect',
]);
const operators = new Set(['==', '!=', '>=', '>', '<=', '<', '{}', '!{}', '()', '!()', '']);

const emptyTree = (type: string): ConditionRecord => ({
  condition_type: type,
  conditions: [],
  aggregator_type: 'all',
  operator: null,
  value: '1',
});
const emptyConditions = () => emptyTree('Magento\\SalesRule\\Model\\Rule\\Condition\\Combine');
const emptyActions = () =>
  emptyTree('Magento\\SalesRule\\Model\\Rule\\Condition\\Product\\Combine');

function dateOnly(value: unknown, field: string): string | null {
  const text = optionalString(value)?.trim();
  if (!text) return null;
  const match = /^(\d{4}-\d{2}-\d{2})(?:[ T]\d{2}:\d{2}(?::\d{2})?)?$/.exec(text);
  if (!match?.[1] || Number.isNaN(new Date(`${match[1]}T00:00:00Z`).getTime()))
    throw invalidField(field, text);
  return match[1];
}

function condition(value: unknown): ConditionRecord {
  const input = objectField(value, conditionClass);
  checkKeys(input, conditionKeys, conditionClass);
  const type = optionalString(input.condition_type);
  if (!type) throw requiredField('condition_type');
  if (!conditionTypes.has(type))
    throw new MagentoError(400, 'Condition type "%1" is not supported.', [type]);
  const operator = optionalString(input.operator) ?? null;
  if (operator !== null && !operators.has(operator)) throw invalidField('operator', operator);
  const children = optionalArray(input.conditions, conditionClass);
  const aggregator = optionalString(input.aggregator_type);
  if (aggregator !== undefined && aggregator !== 'all' && aggregator !== 'any')
    throw invalidField('aggregator_type', aggregator);
  const attribute = optionalString(input.attribute_name);
  const combine = type.endsWith('Combine') || type.endsWith('Found') || type.endsWith('Subselect');
  if (!combine && !attribute) throw requiredField('attribute_name');
  return {
    condition_type: type,
    ...(combine ? { conditions: (children ?? []).map(condition) } : {}),
    ...(combine ? { aggregator_type: aggregator ?? 'all' } : {}),
    operator,
    ...(attribute ? { attribute_name: attribute } : {}),
    value: optionalString(input.value) ?? '',
  };
}

export class SalesRules {
  readonly rules = new Map<number, RuleRecord>();
  readonly coupons = new Map<number, CouponRecord>();
  readonly #customers: Customers;
  #nextRuleId = 1;
  #nextCouponId = 1;

  constructor(customers: Customers) {
    this.#customers = customers;
  }

  getRule(id: number): RuleRecord {
    const rule = this.rules.get(id);
    if (!rule) throw noSuchEntity('rule_id', id);
    return rule;
  }

  getCoupon(id: number): CouponRecord {
    const coupon = this.coupons.get(id);
    if (!coupon) throw noSuchEntity('coupon_id', id);
    return coupon;
  }

  /**
   * DELETE /V1/salesRules/{ruleId}: true. The rule's coupons go with it (salesrule_coupon's key
   * to the rule cascades). A rule that is not there: 404 "No such entity." (RuleRepository
   * throws NoSuchEntityException without a message of its own).
   */
  deleteRule(id: number): boolean {
    if (!this.rules.has(id)) throw new MagentoError(404, 'No such entity.');
    this.rules.delete(id);
    for (const [couponId, coupon] of this.coupons) {
      if (coupon.rule_id === id) this.coupons.delete(couponId);
    }
    return true;
  }

  /** DELETE /V1/coupons/{couponId}: true; the rule stays. Absent: 404 "No such entity.". */
  deleteCoupon(id: number): boolean {
    if (!this.coupons.has(id)) throw new MagentoError(404, 'No such entity.');
    this.coupons.delete(id);
    return true;
  }

  /** The coupon with a code, whatever its case. */
  byCode(code: string): CouponRecord | undefined {
    const wanted = code.toLowerCase();
    return [...this.coupons.values()].find((c) => c.code.toLowerCase() === wanted);
  }

  primaryOf(ruleId: number): CouponRecord | undefined {
    return [...this.coupons.values()].find((c) => c.rule_id === ruleId && c.is_primary);
  }

  /**
   * RuleRepositoryInterface::save: POST /V1/salesRules (new) and PUT /V1/salesRules/{ruleId},
   * where the path id wins and the body is merged into the stored rule.
   */
  saveRule(body: Json, pathId?: number): RuleRecord {
    if (body.rule === undefined) throw requiredField('rule');
    const input = objectField(body.rule, ruleClass);
    checkKeys(input, ruleKeys, ruleClass);
    const id = pathId ?? optionalInt(input.rule_id);
    const existing = id === undefined || id === 0 ? undefined : this.getRule(id);
    const has = (key: string) => input[key] !== undefined && input[key] !== null;
    const ints = (key: string, valid: (n: number) => boolean): number[] | undefined => {
      const list = optionalArray(input[key], 'int');
      if (list === undefined) return undefined;
      return list.map((v) => {
        const n = optionalInt(v);
        if (n === undefined || !valid(n)) throw invalidField(key, String(v));
        return n;
      });
    };
    const websiteIds = ints('website_ids', (n) => n === 1) ?? existing?.website_ids;
    if (!websiteIds?.length) throw requiredField('website_ids');
    const groupIds =
      ints('customer_group_ids', (n) => this.#customers.groups.has(n)) ??
      existing?.customer_group_ids;
    if (!groupIds?.length) throw requiredField('customer_group_ids');
    const typeName = optionalString(input.coupon_type);
    let couponType = existing?.coupon_type ?? couponTypes.NO_COUPON;
    if (typeName !== undefined) {
      const mapped = couponTypes[typeName as keyof typeof couponTypes];
      if (mapped === undefined) throw invalidField('coupon_type', typeName);
      couponType = mapped;
    }
    const action = optionalString(input.simple_action) ?? existing?.simple_action ?? 'by_percent';
    if (!simpleActions.has(action)) throw invalidField('simple_action', action);
    const freeShipping =
      optionalString(input.simple_free_shipping) ?? existing?.simple_free_shipping ?? '0';
    if (!freeShippingValues.has(freeShipping))
      throw invalidField('simple_free_shipping', freeShipping);
    const amount = optionalNumber(input.discount_amount) ?? existing?.discount_amount ?? 0;
    if (amount < 0) throw invalidField('discount_amount', amount);
    const fromDate = has('from_date')
      ? dateOnly(input.from_date, 'from_date')
      : (existing?.from_date ?? null);
    const toDate = has('to_date')
      ? dateOnly(input.to_date, 'to_date')
      : (existing?.to_date ?? null);
    if (fromDate && toDate && fromDate > toDate)
      throw new MagentoError(400, 'End Date must follow Start Date.');
    const labels = optionalArray(input.store_labels, labelClass)?.map((l) => {
      const label = objectField(l, labelClass);
      checkKeys(label, ['store_id', 'store_label', 'extension_attributes'], labelClass);
      return {
        store_id: optionalInt(label.store_id) ?? 0,
        store_label: optionalString(label.store_label) ?? '',
      };
    });
    const nonNegative = (key: string, fallback: number): number => {
      const n = optionalInt(input[key]);
      if (n !== undefined && n < 0) throw invalidField(key, n);
      return n ?? fallback;
    };
    const rule: RuleRecord = {
      rule_id: existing?.rule_id ?? this.#nextRuleId++,
      name: optionalString(input.name) ?? existing?.name ?? '',
      description: optionalString(input.description) ?? existing?.description ?? '',
      store_labels: labels ?? existing?.store_labels ?? [],
      website_ids: [...new Set(websiteIds)],
      customer_group_ids: [...new Set(groupIds)],
      from_date: fromDate,
      to_date: toDate,
      uses_per_customer: nonNegative('uses_per_customer', existing?.uses_per_customer ?? 0),
      is_active: optionalBool(input.is_active) ?? existing?.is_active ?? false,
      condition: has('condition')
        ? condition(input.condition)
        : (existing?.condition ?? emptyConditions()),
      action_condition: has('action_condition')
        ? condition(input.action_condition)
        : (existing?.action_condition ?? emptyActions()),
      stop_rules_processing:
        optionalBool(input.stop_rules_processing) ?? existing?.stop_rules_processing ?? false,
      is_advanced: true,
      sort_order: nonNegative('sort_order', existing?.sort_order ?? 0),
      simple_action: action,
      discount_amount: amount,
      discount_qty: optionalNumber(input.discount_qty) ?? existing?.discount_qty ?? 0,
      discount_step: nonNegative('discount_step', existing?.discount_step ?? 0),
      apply_to_shipping:
        optionalBool(input.apply_to_shipping) ?? existing?.apply_to_shipping ?? false,
      times_used: nonNegative('times_used', existing?.times_used ?? 0),
      is_rss: optionalBool(input.is_rss) ?? existing?.is_rss ?? true,
      coupon_type: couponType,
      use_auto_generation:
        couponType === couponTypes.AUTO ||
        (optionalBool(input.use_auto_generation) ?? existing?.use_auto_generation ?? false),
      uses_per_coupon: nonNegative('uses_per_coupon', existing?.uses_per_coupon ?? 0),
      simple_free_shipping: freeShipping,
    };
    if (!rule.name.trim()) throw requiredField('name');
    this.rules.set(rule.rule_id, rule);
    // A rule that no longer takes a coupon loses its coupons (Rule::afterSave).
    if (rule.coupon_type === couponTypes.NO_COUPON)
      for (const c of [...this.coupons.values()])
        if (c.rule_id === rule.rule_id) this.coupons.delete(c.coupon_id);
    for (const c of this.coupons.values()) if (c.rule_id === rule.rule_id) this.#copyRule(c, rule);
    return rule;
  }

  /** CouponRepositoryInterface::save: POST /V1/coupons (new) and PUT /V1/coupons/{couponId}. */
  saveCoupon(body: Json, pathId?: number): CouponRecord {
    if (body.coupon === undefined) throw requiredField('coupon');
    const input = objectField(body.coupon, couponClass);
    checkKeys(input, couponKeys, couponClass);
    const id = pathId ?? optionalInt(input.coupon_id);
    const existing = id === undefined || id === 0 ? undefined : this.getCoupon(id);
    const ruleId = optionalInt(input.rule_id) ?? existing?.rule_id;
    const type = optionalInt(input.type) ?? existing?.type ?? 0;
    const refuse = (reason: string) =>
      new MagentoError(400, 'Error occurred when saving coupon: %1', [reason]);
    const rule = ruleId === undefined ? undefined : this.rules.get(ruleId);
    if (!rule) throw refuse(`No such entity with rule_id = ${ruleId ?? ''}`);
    if (rule.coupon_type === couponTypes.NO_COUPON)
      throw refuse('Specified rule does not allow coupons');
    if (rule.use_auto_generation && type !== 1)
      throw refuse('Specified rule only allows auto generated coupons');
    if (!rule.use_auto_generation && type !== 0)
      throw refuse('Specified rule does not allow auto generated coupons');
    const code = (optionalString(input.code) ?? existing?.code ?? '').trim();
    if (!code) throw requiredField('code');
    const clash = this.byCode(code);
    if (clash && clash.coupon_id !== existing?.coupon_id)
      throw new MagentoError(400, 'Coupon with the same code already exists.');
    const primary = optionalBool(input.is_primary) ?? existing?.is_primary ?? false;
    const other = this.primaryOf(rule.rule_id);
    if (primary && other && other.coupon_id !== existing?.coupon_id)
      throw new MagentoError(400, 'Unique constraint violation found');
    const timesUsed = optionalInt(input.times_used) ?? existing?.times_used ?? 0;
    if (timesUsed < 0) throw invalidField('times_used', timesUsed);
    const createdAt = optionalString(input.created_at);
    const coupon: CouponRecord = {
      coupon_id: existing?.coupon_id ?? this.#nextCouponId++,
      rule_id: rule.rule_id,
      code,
      usage_limit: 0,
      usage_per_customer: 0,
      times_used: timesUsed,
      expiration_date: null,
      is_primary: primary,
      created_at: createdAt ? magentoTime(createdAt) : (existing?.created_at ?? magentoTime()),
      type,
    };
    this.#copyRule(coupon, rule);
    this.coupons.set(coupon.coupon_id, coupon);
    return coupon;
  }

  /** What CouponRepository::save takes from the rule, whatever the coupon was sent with. */
  #copyRule(coupon: CouponRecord, rule: RuleRecord): void {
    coupon.usage_limit = rule.uses_per_coupon;
    coupon.usage_per_customer = rule.uses_per_customer;
    coupon.expiration_date = rule.to_date;
  }

  ruleJson(r: RuleRecord): Json {
    return {
      rule_id: r.rule_id,
      name: r.name,
      store_labels: r.store_labels.map((l) => ({ ...l })),
      description: r.description,
      website_ids: [...r.website_ids],
      customer_group_ids: [...r.customer_group_ids],
      ...(r.from_date ? { from_date: r.from_date } : {}),
      ...(r.to_date ? { to_date: r.to_date } : {}),
      uses_per_customer: r.uses_per_customer,
      is_active: r.is_active,
      condition: conditionJson(r.condition),
      action_condition: conditionJson(r.action_condition),
      stop_rules_processing: r.stop_rules_processing,
      is_advanced: r.is_advanced,
      sort_order: r.sort_order,
      simple_action: r.simple_action,
      discount_amount: r.discount_amount,
      discount_qty: r.discount_qty,
      discount_step: r.discount_step,
      apply_to_shipping: r.apply_to_shipping,
      times_used: r.times_used,
      is_rss: r.is_rss,
      coupon_type: couponTypeNames[r.coupon_type],
      use_auto_generation: r.use_auto_generation,
      uses_per_coupon: r.uses_per_coupon,
      simple_free_shipping: r.simple_free_shipping,
    };
  }

  couponJson(c: CouponRecord): Json {
    return {
      coupon_id: c.coupon_id,
      rule_id: c.rule_id,
      code: c.code,
      usage_limit: c.usage_limit,
      usage_per_customer: c.usage_per_customer,
      times_used: c.times_used,
      ...(c.expiration_date ? { expiration_date: c.expiration_date } : {}),
      is_primary: c.is_primary,
      created_at: c.created_at,
      type: c.type,
    };
  }

  ruleField = (r: RuleRecord, field: string): string | number | boolean | null | number[] => {
    switch (field) {
      case 'rule_id':
      case 'name':
      case 'description':
      case 'from_date':
      case 'to_date':
      case 'uses_per_customer':
      case 'is_active':
      case 'stop_rules_processing':
      case 'sort_order':
      case 'simple_action':
      case 'discount_amount':
      case 'times_used':
      case 'coupon_type':
      case 'use_auto_generation':
      case 'uses_per_coupon':
        return r[field];
      case 'website_ids':
      case 'customer_group_ids':
        return r[field];
      default:
        throw new MagentoError(400, 'Invalid attribute name: %1', [field]);
    }
  };

  couponField = (c: CouponRecord, field: string): string | number | boolean | null => {
    switch (field) {
      case 'coupon_id':
      case 'rule_id':
      case 'code':
      case 'usage_limit':
      case 'usage_per_customer':
      case 'times_used':
      case 'expiration_date':
      case 'is_primary':
      case 'created_at':
      case 'type':
        return c[field];
      default:
        throw new MagentoError(400, 'Invalid attribute name: %1', [field]);
    }
  };
}

function conditionJson(c: ConditionRecord): Json {
  const json: Json = { condition_type: c.condition_type };
  if (c.conditions) json.conditions = c.conditions.map(conditionJson);
  if (c.aggregator_type) json.aggregator_type = c.aggregator_type;
  // Swagger cannot say nullable and marks operator required: a combine's null goes out as ''.
  json.operator = c.operator ?? '';
  if (c.attribute_name) json.attribute_name = c.attribute_name;
  json.value = c.value;
  return json;
}
