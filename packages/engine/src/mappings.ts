import type { Coupon } from '@replatform/canonical/coupon';
import type { EntityRecord, EntityType } from '@replatform/canonical/entities';
import type { Customer } from '@replatform/canonical/customer';
import { currencyExponent, type Money } from '@replatform/canonical/money';
import type { Order } from '@replatform/canonical/order';
import type { Product } from '@replatform/canonical/product';
import type {
  Capabilities,
  Checkpoint,
  Connection,
  Page,
} from '@replatform/connectors/kit/contract';
import { hasValue } from '@replatform/connectors/kit/fields';
import {
  defaultMigrationOptions,
  migrationOptionNames,
  migrationOptionTexts,
  mappingSummary,
  orderStatusChanges,
  type FieldMappings,
  type MigrationOptions,
} from '@replatform/contracts/migration';
import { valueChanges, type ValueMap } from '@replatform/contracts/value-mappings';

/** What the engine makes of a source record before anything else sees it, with why. */
interface Transformed<E extends EntityType> {
  record: EntityRecord[E];
  /** A field changed on purpose, named in the record's report row. */
  loss?: { field: string; reason: string };
}

type Transform = <E extends EntityType>(entity: E, record: EntityRecord[E]) => Transformed<E>;

/** Units of `to` for an amount in `from` at `rate`, rounded half away from zero. */
function converted(money: Money, to: string, rate: number): Money {
  const value =
    (money.amount / 10 ** currencyExponent(money.currency)) * rate * 10 ** currencyExponent(to);
  return { amount: Math.sign(value) * Math.round(Math.abs(value) + 1e-9), currency: to };
}

const isMoney = (value: object): value is Money =>
  Object.keys(value).length === 2 &&
  typeof (value as Money).amount === 'number' &&
  typeof (value as Money).currency === 'string';

/**
 * The record with every amount in `from` converted to `to` (prices, sale prices, order lines,
 * totals, refunds, coupon amounts) and every `currency` naming `from` renamed, at any depth.
 */
function inCurrency<T>(value: T, from: string, to: string, rate: number): T {
  if (Array.isArray(value)) return value.map((v: unknown) => inCurrency(v, from, to, rate)) as T;
  if (value === null || typeof value !== 'object') return value;
  if (isMoney(value)) return (value.currency === from ? converted(value, to, rate) : value) as T;
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => [
      key,
      key === 'currency' && v === from ? to : inCurrency(v, from, to, rate),
    ]),
  ) as T;
}

const total = (amounts: readonly Money[]) => amounts.reduce((sum, m) => sum + m.amount, 0);
/** What the lines cost before any discount. */
const gross = (o: Order) => o.lines.reduce((sum, l) => sum + l.unitPrice.amount * l.quantity, 0);

/** The ways an order's figure can be made of its parts, tried in order. */
const orderFigures: [keyof Order, ((o: Order) => number)[]][] = [
  ['subtotal', [(o) => total(o.lines.map((l) => l.total)), (o) => gross(o)]],
  ['shippingTotal', [(o) => total(o.shippingLines.map((s) => s.price))]],
  [
    'discountTotal',
    [
      (o) => total(o.discounts.map((d) => d.amount)),
      (o) => gross(o) - total(o.lines.map((l) => l.total)),
    ],
  ],
  ['feeTotal', [(o) => total(o.fees.map((f) => f.amount))]],
  [
    'taxTotal',
    [
      (o) =>
        total([
          ...o.lines.map((l) => l.tax),
          ...o.shippingLines.map((s) => s.tax),
          ...o.fees.map((f) => f.tax),
        ]),
    ],
  ],
  ['refundTotal', [(o) => total(o.refunds.map((r) => r.amount))]],
  [
    'grandTotal',
    [
      (o) =>
        o.subtotal.amount -
        o.discountTotal.amount +
        o.shippingTotal.amount +
        o.feeTotal.amount +
        o.taxTotal.amount,
    ],
  ],
];

/**
 * An order converted amount by amount, with its figures made again of its converted parts where
 * the source's were made of its parts (each amount rounded on its own could leave a total a cent
 * away from the sum the destination works out): a line's total from its unit price, then the
 * subtotal, discounts, shipping, fees, tax, refunds and grand total, each by the first way of
 * making it the source's figure agrees with.
 */
function convertedOrder(source: Order, converted: Order): Order {
  const out: Order = {
    ...converted,
    lines: converted.lines.map((line, i) => {
      const from = source.lines[i];
      return from && from.total.amount === from.unitPrice.amount * from.quantity
        ? { ...line, total: { ...line.total, amount: line.unitPrice.amount * line.quantity } }
        : line;
    }),
  };
  // Discounts that were what the lines take off keep being so: a rounding cent goes to the largest.
  const takenOff = (o: Order) => gross(o) - total(o.lines.map((l) => l.total));
  const largest = out.discounts.reduce(
    (best, d, i) => (d.amount.amount > (out.discounts[best]?.amount.amount ?? 0) ? i : best),
    0,
  );
  const cent = takenOff(out) - total(out.discounts.map((d) => d.amount));
  if (
    out.discounts.length &&
    cent !== 0 &&
    takenOff(source) === total(source.discounts.map((d) => d.amount))
  )
    out.discounts = out.discounts.map((d, i) =>
      i === largest ? { ...d, amount: { ...d.amount, amount: d.amount.amount + cent } } : d,
    );
  for (const [field, ways] of orderFigures) {
    const way = ways.find((make) => make(source) === (source[field] as Money).amount);
    if (way) out[field] = { amount: way(out), currency: converted.currency } as never;
  }
  return out;
}

/** A value through the owner's map; a value not in it keeps its own. */
const mapped = (map: ValueMap, value: string) =>
  (Object.hasOwn(map, value) ? map[value] : value) ?? value;

/** The owner's mappings as a transform, or null when they change nothing at all. */
function mappingTransform(mappings: FieldMappings): Transform | null {
  const statuses = new Map(orderStatusChanges(mappings).map(({ from, to }) => [from, to]));
  const groups = mappings.customerGroups ?? {};
  const taxes = mappings.taxClasses ?? {};
  const currency = mappings.currency?.mode === 'convert' ? mappings.currency : undefined;
  const rate = Number(currency?.rate);
  if (
    !statuses.size &&
    !valueChanges(groups).length &&
    !valueChanges(taxes).length &&
    !(currency && rate > 0)
  )
    return null;
  const withTaxes = !!valueChanges(taxes).length;
  return (entity, original) => {
    let record = original;
    if (currency && rate > 0) {
      record = inCurrency(record, currency.from, currency.to, rate);
      if (entity === 'orders' && (original as Order).currency === currency.from)
        record = convertedOrder(original as Order, record as Order) as typeof record;
    }
    if (entity === 'orders') {
      const order = record as Order;
      const status = statuses.get(order.status);
      record = {
        ...order,
        ...(status ? { status } : {}),
        ...(withTaxes
          ? {
              lines: order.lines.map((l) => ({ ...l, taxClass: mapped(taxes, l.taxClass) })),
              fees: order.fees.map((f) => ({ ...f, taxClass: mapped(taxes, f.taxClass) })),
            }
          : {}),
      } as typeof record;
    } else if (entity === 'customers') {
      const customer = record as Customer;
      if (Object.hasOwn(groups, customer.group))
        record = { ...customer, group: mapped(groups, customer.group) } as typeof record;
    } else if (entity === 'products' && withTaxes) {
      const product = record as Product;
      record = {
        ...product,
        taxClass: mapped(taxes, product.taxClass),
        variants: product.variants.map((v) =>
          v.taxClass === null ? v : { ...v, taxClass: mapped(taxes, v.taxClass) },
        ),
      } as typeof record;
    }
    return { record };
  };
}

/** Limits of a coupon that, left out, would let it apply to more orders than at the source. */
const couponLimits: Record<string, string> = {
  startsAt: 'start date',
  expiresAt: 'expiry date',
  minimumSpend: 'minimum spend',
  maximumSpend: 'maximum spend',
  usageLimit: 'usage limit',
  usageLimitPerCustomer: 'limit per customer',
  itemLimit: 'limit on discounted items',
  individualUse: 'use on its own',
  excludeSaleItems: 'exclusion of sale items',
  productIds: 'products',
  excludedProductIds: 'excluded products',
  categoryIds: 'categories',
  excludedCategoryIds: 'excluded categories',
  allowedEmails: 'e-mail limit',
};

/**
 * A coupon whose limits the destination cannot all hold would work there for orders it does not
 * work for at the source (any customer instead of the staff, past its expiry): it arrives
 * switched off, named in its report row, for the owner to check before switching it on.
 */
function couponSafeguard(destination: Pick<Capabilities, 'destinationFields'>): Transform | null {
  const unsupported = destination.destinationFields.coupons?.unsupported ?? {};
  const fields = Object.keys(couponLimits).filter((field) => field in unsupported);
  if (!fields.length) return null;
  return (entity, record) => {
    if (entity !== 'coupons') return { record };
    const coupon = record as Coupon;
    if (!coupon.enabled) return { record };
    const lost = fields.filter(
      (field) =>
        hasValue('coupons', coupon, field) &&
        // A start date already passed limits nothing any more.
        !(field === 'startsAt' && coupon.startsAt && Date.parse(coupon.startsAt) <= Date.now()),
    );
    if (!lost.length) return { record };
    const names = lost.map((field) => couponLimits[field]).join(', ');
    return {
      record: { ...coupon, enabled: false } as typeof record,
      loss: {
        field: 'enabled',
        reason: `Arrives switched off: the destination cannot hold its ${names}, so there it would apply to more orders than in your store. Check it before you switch it on.`,
      },
    };
  };
}

async function* transformedPages<E extends EntityType>(
  pages: AsyncIterable<Page<E>>,
  entity: E,
  transform: Transform,
): AsyncIterable<Page<E>> {
  for await (const page of pages) {
    const losses = [...(page.losses ?? [])];
    const records = page.records.map((original) => {
      const { record, loss } = transform(entity, original);
      if (loss) losses.push({ sourceId: original.id, ...loss });
      return record;
    });
    yield { ...page, records, ...(losses.length ? { losses } : {}) };
  }
}

/**
 * The source as the record should arrive: every record read (by page or by id) with the owner's
 * mappings applied and coupons the destination cannot hold whole switched off, so the run writes,
 * hashes and verifies the same values. A change of either changes the records' content, and the
 * next run writes them again.
 */
export function transformedSource(
  connection: Connection,
  mappings: FieldMappings,
  destination: Pick<Capabilities, 'destinationFields'>,
): Connection {
  const transforms = [mappingTransform(mappings), couponSafeguard(destination)].filter(
    (t): t is Transform => t !== null,
  );
  if (!transforms.length) return connection;
  const transform: Transform = (entity, record) => {
    let current: Transformed<typeof entity> = { record };
    for (const next of transforms) {
      const result = next(entity, current.record);
      current = {
        record: result.record,
        ...((result.loss ?? current.loss) ? { loss: result.loss ?? current.loss } : {}),
      };
    }
    return current;
  };
  const wrapped: Connection = {
    check: (options) => connection.check(options),
    count: (entity) => connection.count(entity),
    read: <E extends EntityType>(entity: E, checkpoint: Checkpoint | null) =>
      transformedPages(connection.read(entity, checkpoint), entity, transform),
    write: (entity, records, idMap) => connection.write(entity, records, idMap),
  };
  const { rateUsage, transportStats, close } = connection;
  if (connection.readByIds)
    wrapped.readByIds = async <E extends EntityType>(entity: E, ids: readonly string[]) => {
      const records = (await connection.readByIds?.(entity, ids)) ?? [];
      return records.map((record) => transform(entity, record).record);
    };
  if (rateUsage) wrapped.rateUsage = () => rateUsage.call(connection);
  if (transportStats) wrapped.transportStats = () => transportStats.call(connection);
  if (close) wrapped.close = () => close.call(connection);
  return wrapped;
}

/**
 * The owner's additional options, in one line of the report, when any differs from its default
 * (the detail page lists them all either way).
 */
export function optionNotes(options: Required<MigrationOptions>): string[] {
  if (migrationOptionNames.every((option) => options[option] === defaultMigrationOptions[option]))
    return [];
  const parts = migrationOptionNames.map(
    (option) => `${migrationOptionTexts[option].label}: ${options[option] ? 'yes' : 'no'}`,
  );
  return [`Options you chose: ${parts.join('; ')}.`];
}

/** The owner's mappings in words, one line each, for the run's report. */
export function mappingNotes(mappings: FieldMappings): string[] {
  return mappingSummary(mappings).map(({ label, text }) =>
    mappings.currency && label === 'Currency' ? text : `${label} as you chose: ${text}.`,
  );
}
