/**
 * The merchant's data that WooCommerce 11.0.1 will not take through its REST API and replaces
 * with its own when a record is written (read-only in the wc/v3 index, confirmed on a real store):
 * the only fields in which a WooCommerce store copied into another may differ. A migration names
 * each of them in its report, per record, under one of `reportAs` (canonical fields) or under the
 * native path itself.
 */
export interface AssignedField {
  reason: string;
  reportAs: readonly string[];
}

type Entity = 'categories' | 'products' | 'coupons' | 'customers' | 'orders';

const stamped = (what: string, reportAs: readonly string[]): AssignedField => ({
  reason: `${what} is read-only: WooCommerce stamps the time it is written`,
  reportAs,
});

/** Each date together with its `_gmt` twin, which WooCommerce answers alongside. */
function withGmt(fields: Record<string, AssignedField>): Record<string, AssignedField> {
  return Object.fromEntries(
    Object.entries(fields).flatMap(([path, field]) =>
      /date_[a-z]+$/.test(path)
        ? [
            [path, field],
            [`${path}_gmt`, field],
          ]
        : [[path, field]],
    ),
  );
}

export const refusedByWooCommerce: Record<Entity, Readonly<Record<string, AssignedField>>> = {
  // A category's menu_order is marked read-only in the 11.0.1 index, yet the store takes it
  // (observed-behaviour.ts): compared like any other field.
  categories: {},
  products: withGmt({
    'variations[].date_created': stamped('a variation’s creation date', [
      'variation_records[].date_created',
    ]),
    // The files' ids: WooCommerce keeps one it is sent, but the data model carries none, so the
    // destination makes up its own (wp_generate_uuid4).
    'downloads[].id': {
      reason: 'WooCommerce gives a downloadable file written without an id an id of its own',
      reportAs: ['downloads[].id'],
    },
    'variations[].downloads[].id': {
      reason: 'WooCommerce gives a downloadable file written without an id an id of its own',
      reportAs: ['variation_records[].downloads[].id'],
    },
  }),
  coupons: withGmt({
    date_created: stamped('a coupon’s creation date', ['createdAt']),
    usage_count: {
      reason: 'read-only: WooCommerce counts a coupon’s uses itself, from the orders that use it',
      reportAs: ['usageCount'],
    },
    used_by: {
      reason: 'read-only: WooCommerce records who used a coupon as orders use it',
      reportAs: ['used_by'],
    },
  }),
  customers: withGmt({
    date_created: stamped('a customer’s registration date', ['createdAt']),
  }),
  orders: withGmt({
    number: {
      reason: 'WooCommerce numbers orders itself; the order number is read-only',
      reportAs: ['number'],
    },
    date_created: stamped('an order’s creation date', ['createdAt']),
    date_paid: {
      reason: 'the payment date is read-only: WooCommerce stamps it when the order is paid',
      reportAs: ['paidAt'],
    },
    date_completed: {
      reason: 'the completion date is read-only: WooCommerce stamps it when the order is completed',
      reportAs: ['completedAt'],
    },
    customer_ip_address: {
      reason: 'read-only: WooCommerce records the address of whoever places the order',
      reportAs: ['customerIpAddress'],
    },
    customer_user_agent: {
      reason: 'read-only: WooCommerce records the browser of whoever places the order',
      reportAs: ['customerUserAgent'],
    },
    prices_include_tax: {
      reason: 'read-only: WooCommerce takes it from the store’s tax settings',
      reportAs: ['pricesIncludeTax'],
    },
    // wc/v3 takes only a coupon line's code (calculate_coupons): the rest comes from the coupon
    // it applies, a temporary one worth the line's historical discount (a migrated coupon of
    // the code is set aside meanwhile) or the destination's own.
    'coupon_lines[].discount_type': {
      reason: 'read-only: WooCommerce takes it from the coupon it applies at the destination',
      reportAs: ['coupon_lines[].discount_type'],
    },
    'coupon_lines[].nominal_amount': {
      reason: 'read-only: WooCommerce takes it from the coupon it applies at the destination',
      reportAs: ['coupon_lines[].nominal_amount'],
    },
    'coupon_lines[].free_shipping': {
      reason: 'read-only: WooCommerce takes it from the coupon it applies at the destination',
      reportAs: ['coupon_lines[].free_shipping'],
    },
    'coupon_lines[].meta_data[]': {
      reason:
        'WooCommerce writes its own copy of the coupon it applies at the destination (coupon_info: that coupon’s id, kind and amount) and takes no meta data on a coupon line',
      reportAs: ['coupon_lines[].meta_data'],
    },
    'refunds[].date_created': stamped('a refund’s date', ['refunds.createdAt']),
    'notes[].date_created': stamped('a note’s date', ['notes.createdAt']),
  }),
};

/** The same, as the conformance suite's native round trip takes it (path -> reason). */
export const assignedOnWrite: Partial<Record<Entity, Readonly<Record<string, string>>>> =
  Object.fromEntries(
    Object.entries(refusedByWooCommerce).map(([entity, fields]) => [
      entity,
      Object.fromEntries(Object.entries(fields).map(([path, field]) => [path, field.reason])),
    ]),
  );
