import { sortMetafields, type Metafield } from '@replatform/canonical/metafield';
import type { DestinationFields } from '../kit/fields.ts';
import { defaultAddressIndex, shopifyMetafields } from './from-canonical.ts';
import { OWN_NAMESPACE } from './own-fields.ts';

/**
 * The form a Shopify destination keeps converted fields in (DestinationFields.comparable): what
 * writing a value and reading it back gives, so a verification compares what Shopify kept.
 */

/** An option name or value as a slug: WooCommerce names a chosen option 'pa_color: navy-blue'. */
const choiceSlug = (text: unknown) =>
  String(text ?? '')
    .toLowerCase()
    .replace(/^pa_/, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/**
 * A line's meta as a Shopify destination shows it: the variant's chosen options (Color: Navy Blue)
 * come first, from the variant, and the source's properties follow. When the source named the same
 * choice in another form (a slug: pa_color: navy-blue), the line holds it twice; the source's form,
 * written last, stands for both. Entries that are exactly alike are all kept.
 */
function oneFormPerChoice(meta: Loose[]): Loose[] {
  const slug = (m: Loose) => `${choiceSlug(m.key)}=${choiceSlug(m.value)}`;
  const raw = (m: Loose) => `${String(m.key)}=${String(m.value)}`;
  return meta.filter(
    (m, i) => !meta.some((other, j) => j > i && slug(other) === slug(m) && raw(other) !== raw(m)),
  );
}

/** Shopify's own fields that Shopify fills in itself when a record is written without them. */
const ownDefaults: Record<'categories' | 'customers' | 'orders', (m: Metafield) => boolean> = {
  // A collection created without a sort order is sorted by hand.
  categories: (m) => m.key === 'sort_order' && m.value === 'MANUAL',
  // Shopify records the level and the time of a consent when it is given without them, and
  // gives an account the shop's language ('en') when none is given.
  customers: (m) =>
    (m.key === 'locale' && m.value === 'en') ||
    (m.key === 'email_marketing_opt_in_level' && m.value === 'SINGLE_OPT_IN') ||
    m.key === 'email_marketing_updated_at',
  // An order cancelled without a reason is cancelled for 'other' reasons.
  orders: (m) => m.key === 'cancel_reason' && m.value === 'OTHER',
};

/**
 * Custom fields as Shopify keeps them: another platform's under a Shopify namespace with a
 * Shopify type (as the write stores them and the read answers them). A field the write leaves out
 * (an empty value, a name taken twice) stays as it was, so it still counts as a difference.
 */
function asShopifyKeeps(
  entity: keyof typeof ownDefaults | 'products' | 'coupons' | 'pages' | 'posts',
) {
  return (value: unknown): unknown => {
    if (!Array.isArray(value)) return value;
    const out: Metafield[] = [];
    for (const m of value as Metafield[]) {
      if (m.namespace === OWN_NAMESPACE) {
        if (entity in ownDefaults && ownDefaults[entity as keyof typeof ownDefaults](m)) continue;
        out.push(m);
        continue;
      }
      const [written] = shopifyMetafields([m], [], { idOf: (_kind, id) => id });
      out.push(
        written
          ? {
              namespace: `${OWN_NAMESPACE}.${written.namespace ?? ''}`,
              key: written.key ?? '',
              value: written.value ?? '',
              type: written.type ?? '',
            }
          : m,
      );
    }
    return sortMetafields(out);
  };
}

type Loose = Record<string, unknown>;

interface Amount {
  amount: number;
  currency: string;
}
const amountOf = (m: unknown): number =>
  typeof (m as Amount | null)?.amount === 'number' ? (m as Amount).amount : 0;
const listOf = (value: unknown): Loose[] => (Array.isArray(value) ? (value as Loose[]) : []);

/**
 * The one discount a Shopify order keeps (orderCreateInput): the order's discounts, or its lines'
 * discounts when they come to more, plus its credits (negative fees), under all their codes.
 */
function orderDiscount(order: Readonly<Loose>): { code: string; amount: number } {
  const discounts = listOf(order.discounts);
  const credits = listOf(order.fees).filter((f) => amountOf(f.amount) < 0);
  const lineDiscounts = listOf(order.lines).reduce(
    (n, l) => n + amountOf(l.unitPrice) * Number(l.quantity ?? 0) - amountOf(l.total),
    0,
  );
  const amount =
    Math.max(
      discounts.reduce((n, d) => n + amountOf(d.amount), 0),
      lineDiscounts,
    ) - credits.reduce((n, f) => n + amountOf(f.amount), 0);
  const codes = [...discounts.map((d) => d.code), ...credits.map((f) => f.name)].filter(
    (c): c is string => typeof c === 'string' && c !== '',
  );
  return { code: codes.join(' + ') || 'DISCOUNT', amount };
}

/** The currency of an order's comparable form. */
const currencyOf = (order: Readonly<Loose>): string =>
  typeof order.currency === 'string'
    ? order.currency
    : String((order.grandTotal as Amount | undefined)?.currency ?? '');

/** Whether a date has passed when a verification compares (an ISO-8601 text, else not). */
const past = (value: unknown) => typeof value === 'string' && Date.parse(value) <= Date.now();

export const shopifyComparable: Record<
  'categories' | 'products' | 'coupons' | 'customers' | 'orders',
  NonNullable<DestinationFields['comparable']>
> = {
  categories: { metafields: asShopifyKeeps('categories') },
  products: {
    metafields: asShopifyKeeps('products'),
    'variants.metafields': asShopifyKeeps('products'),
    // Before 'weight': a variant without a weight of its own gets the product's.
    'variants.weight': (weight, product) => weight ?? product.weight ?? null,
    // The product's weight is kept only through its variants: it is kept when a variant weighs
    // it (one without a weight of its own gets it); otherwise it still differs.
    weight: (weight, product) => {
      const variants = Array.isArray(product.variants) ? (product.variants as Loose[]) : [];
      return variants.some((v) => JSON.stringify(v.weight) === JSON.stringify(weight))
        ? null
        : weight;
    },
    status: (status) => (status === 'pending' || status === 'private' ? 'draft' : status),
    taxStatus: (status) => (status === 'shipping' ? 'none' : status),
  },
  coupons: {
    // A start already past is no limit: Shopify stamps a start on a coupon that had none.
    startsAt: (startsAt) => (past(startsAt) ? null : startsAt),
    // Before 'expiresAt': whether the code can be used now (Shopify ends a switched-off code).
    enabled: (enabled, coupon) => enabled === true && !past(coupon.expiresAt),
    expiresAt: (expiresAt, coupon) => (coupon.enabled === false ? null : expiresAt),
    metafields: asShopifyKeeps('coupons'),
  },
  customers: {
    metafields: asShopifyKeeps('customers'),
    addresses: (addresses) => {
      if (!Array.isArray(addresses) || addresses.length === 0) return addresses;
      const list = addresses as Loose[];
      const chosen = defaultAddressIndex({
        addresses: list as { isDefaultShipping: boolean; isDefaultBilling: boolean }[],
      } as Parameters<typeof defaultAddressIndex>[0]);
      return list.map((a, i) => ({
        ...a,
        isDefaultBilling: i === chosen,
        isDefaultShipping: i === chosen,
      }));
    },
  },
  orders: {
    metafields: asShopifyKeeps('orders'),
    // In this order: each reads the discounts, fees and lines as the source has them.
    discountTotal: (total, order) =>
      total && typeof total === 'object'
        ? { ...(total as Amount), amount: Math.max(0, orderDiscount(order).amount) }
        : total,
    feeTotal: (total, order) =>
      total && typeof total === 'object'
        ? {
            ...(total as Amount),
            amount: listOf(order.fees)
              .map((f) => amountOf(f.amount))
              .filter((a) => a >= 0)
              .reduce((n, a) => n + a, 0),
          }
        : total,
    discounts: (discounts, order) => {
      if (!Array.isArray(discounts)) return discounts;
      const one = orderDiscount(order);
      return one.amount > 0
        ? [{ code: one.code, amount: { amount: one.amount, currency: currencyOf(order) } }]
        : [];
    },
    // Line discounts are kept in the order's discount: a line is compared by its full price.
    lines: (lines) =>
      Array.isArray(lines)
        ? (lines as Loose[]).map((l) =>
            l.total && typeof l.total === 'object'
              ? {
                  ...l,
                  total: {
                    ...(l.total as Amount),
                    amount: amountOf(l.unitPrice) * Number(l.quantity ?? 0),
                  },
                }
              : l,
          )
        : lines,
    'lines.meta': (meta) => (Array.isArray(meta) ? oneFormPerChoice(meta as Loose[]) : meta),
    // A credit (negative fee) is kept in the order's discount.
    fees: (fees) =>
      Array.isArray(fees) ? (fees as Loose[]).filter((f) => amountOf(f.amount) >= 0) : fees,
  },
};

/** A status as Shopify keeps it: shown, scheduled (with a date) or hidden. */
const contentStatus = (status: unknown, record: Readonly<Loose>) => {
  if (status === 'pending' || status === 'private') return 'draft';
  if (status === 'scheduled' && !record.publishedAt) return 'draft';
  return status;
};

/** Shopify keeps a publish date for shown and scheduled pages and articles only. */
const contentPublishedAt = (publishedAt: unknown, record: Readonly<Loose>) =>
  record.status === 'published' || record.status === 'scheduled' ? publishedAt : null;

/** Tags as Shopify keeps them: once each, in alphabetical order whatever the case. */
const shopifyTagOrder = (tags: unknown) =>
  Array.isArray(tags)
    ? [...new Set(tags as string[])].sort((a, b) => {
        const x = a.toLowerCase();
        const y = b.toLowerCase();
        if (x !== y) return x < y ? -1 : 1;
        return a < b ? -1 : a > b ? 1 : 0;
      })
    : tags;

export const contentComparable: Record<
  'pages' | 'posts',
  NonNullable<DestinationFields['comparable']>
> = {
  pages: {
    // Before 'status': the date as the source has it decides whether the status is kept.
    publishedAt: contentPublishedAt,
    status: contentStatus,
    metafields: asShopifyKeeps('pages'),
  },
  posts: {
    publishedAt: contentPublishedAt,
    status: contentStatus,
    metafields: asShopifyKeeps('posts'),
    tags: shopifyTagOrder,
    blog: (blog) => (blog === '' ? 'News' : blog),
  },
};
