import type { SampleAddress, SampleStore } from '../framework/sample-store.ts';
import type { Order, WcAddress, WooStore } from './shop.ts';
import type { Json, Taxonomy } from './store.ts';
import { escHtml } from './wp-text.ts';

/**
 * Fills a store with the platform-neutral sample store, in WooCommerce's shape: a store that has
 * been trading for a while, so orders carry the taxes, coupons, payment dates and reduced stock
 * of a real checkout, which the REST API itself would not let a client write.
 */

const weightFromKg: Record<string, number> = { kg: 1, g: 1000, lbs: 2.20462262, oz: 35.2739619 };
const lengthFromCm: Record<string, number> = {
  cm: 1,
  m: 0.01,
  mm: 10,
  in: 0.393700787,
  yd: 0.010936133,
};
const trim = (n: number) => String(Math.round(n * 1000) / 1000);

/** Regular/sale prices from a selling price and a compare-at price, as a merchant enters them. */
export function wcPrices(
  price: string,
  compareAt: string | null,
): { regular_price: string; sale_price: string } {
  return compareAt !== null && Number(compareAt) > Number(price)
    ? { regular_price: compareAt, sale_price: price }
    : { regular_price: price, sale_price: '' };
}

export function findOrCreateTerm(store: WooStore, taxonomy: Taxonomy, name: string): number {
  const escaped = escHtml(name);
  const found = store.termsOf(taxonomy).find((t) => t.name === escaped && t.parent === 0);
  return found ? found.id : store.insertTerm(taxonomy, { name }).id;
}

function wcAddress(a: SampleAddress): WcAddress {
  return {
    first_name: a.firstName,
    last_name: a.lastName,
    company: a.company,
    address_1: a.address1,
    address_2: a.address2,
    city: a.city,
    state: a.province,
    postcode: a.postalCode,
    country: a.countryCode,
    phone: a.phone,
  };
}

export async function seedFromSample(store: WooStore, sample: SampleStore): Promise<void> {
  store.settings.currency = sample.currency;
  const weightFactor = weightFromKg[store.settings.weightUnit] ?? 1;
  const lengthFactor = lengthFromCm[store.settings.dimensionUnit] ?? 1;

  const categoryIds = new Map<string, number>();
  for (const c of sample.categories) {
    const term = store.insertTerm('product_cat', {
      name: c.name,
      slug: c.slug,
      parent: c.parentKey ? categoryIds.get(c.parentKey) : 0,
      description: c.description,
    });
    term.menuOrder = c.position;
    categoryIds.set(c.key, term.id);
  }

  const products = new Map<string, { id: number; variations: Map<string, number> }>();
  for (const p of sample.products) {
    const created = Date.parse(p.createdAt);
    const images = p.images.map((img, i) => ({
      id: store.addAttachment(img.path, img.alt, created, `${p.slug}-${i + 1}`).id,
    }));
    const variable = p.options.length > 0;
    const first = p.variants[0];
    const base: Json = {
      name: p.name,
      slug: p.slug,
      type: variable ? 'variable' : 'simple',
      status: p.status === 'active' ? 'publish' : 'draft',
      description: p.descriptionHtml,
      short_description: p.shortDescriptionHtml,
      sku: p.sku,
      date_created_gmt: p.createdAt,
      categories: p.categoryKeys.map((k) => ({ id: categoryIds.get(k) })),
      tags: p.tags.map((t) => ({ id: findOrCreateTerm(store, 'product_tag', t) })),
      brands: p.vendor ? [{ id: findOrCreateTerm(store, 'product_brand', p.vendor) }] : [],
      images,
      dimensions: {
        length: trim(p.dimensionsCm.length * lengthFactor),
        width: trim(p.dimensionsCm.width * lengthFactor),
        height: trim(p.dimensionsCm.height * lengthFactor),
      },
      attributes: [
        ...p.options.map((o, i) => ({
          name: o.name,
          position: i,
          visible: true,
          variation: true,
          options: o.values,
        })),
        ...Object.entries(p.attributes).map(([name, value], i) => ({
          name,
          position: p.options.length + i,
          visible: true,
          variation: false,
          options: [value],
        })),
      ],
    };
    if (!variable && first) {
      Object.assign(base, wcPrices(first.price, first.compareAtPrice), {
        manage_stock: true,
        stock_quantity: first.stock,
        weight: trim(first.weightKg * weightFactor),
      });
    }
    const product = await store.saveProduct(base);
    const variations = new Map<string, number>();
    if (variable) {
      for (const [index, v] of p.variants.entries()) {
        const variation = await store.saveVariation(product, {
          sku: v.sku,
          ...wcPrices(v.price, v.compareAtPrice),
          manage_stock: true,
          stock_quantity: v.stock,
          weight: trim(v.weightKg * weightFactor),
          menu_order: index,
          attributes: Object.entries(v.optionValues).map(([name, option]) => ({ name, option })),
        });
        variation.created = variation.modified = created;
        variations.set(v.sku, variation.id);
      }
    }
    product.modified = created;
    products.set(p.key, { id: product.id, variations });
  }

  const customers = new Map<string, number>();
  for (const c of sample.customers) {
    const billing = c.addresses.find((a) => a.defaultBilling) ?? c.addresses[0];
    const shipping = c.addresses.find((a) => a.defaultShipping) ?? billing;
    const customer = store.createCustomer(
      {
        email: c.email,
        first_name: c.firstName,
        last_name: c.lastName,
        billing: billing
          ? { ...wcAddress(billing), email: c.email, phone: c.phone }
          : { email: c.email },
        shipping: shipping ? wcAddress(shipping) : {},
      },
      Date.parse(c.createdAt),
    );
    customer.modified = customer.created;
    customers.set(c.key, customer.id);
  }

  const coupons = new Map<string, number>();
  for (const o of sample.orders) {
    if (o.discount && !coupons.has(o.discount.code))
      coupons.set(
        o.discount.code,
        store.createCoupon({
          code: o.discount.code,
          amount: o.discount.amount,
          discount_type: 'fixed_cart',
        }).id,
      );
  }

  for (const o of sample.orders) {
    const created = Date.parse(o.createdAt);
    const order: Order = store.blankOrder();
    order.id = store.postId();
    order.orderKey = `wc_order_${order.id.toString(36).padStart(13, 'x')}`;
    order.status = o.status;
    order.currency = o.currency;
    order.createdVia = 'checkout';
    order.customerId = o.customerKey ? (customers.get(o.customerKey) ?? 0) : 0;
    order.customerNote = o.note;
    order.billing = { ...wcAddress(o.billing), email: o.email };
    order.shipping = wcAddress(o.shippingAddress);
    order.paymentMethod = 'bacs';
    order.paymentMethodTitle = 'Direct bank transfer';
    order.created = order.modified = created;
    const paid = ['processing', 'completed', 'refunded'].includes(o.status);
    order.datePaid = paid ? created + 5 * 60_000 : null;
    order.dateCompleted = o.status === 'completed' ? created + 2 * 86_400_000 : null;
    order.stockReduced = ['processing', 'completed', 'on-hold', 'refunded'].includes(o.status);
    for (const line of o.lines) {
      const product = products.get(line.productKey);
      const variationId = product?.variations.get(line.variantSku) ?? 0;
      const subtotal = Math.round(Number(line.unitPrice) * line.quantity * 100) / 100;
      const tax = Number(line.tax);
      const item = {
        id: store.itemId(),
        name: line.name,
        productId: product?.id ?? 0,
        variationId,
        quantity: line.quantity,
        taxClass: '',
        subtotal,
        subtotalTax: tax,
        total: subtotal,
        totalTax: tax,
        taxes: [{ id: 1, total: line.tax, subtotal: line.tax }],
        meta: [] as ReturnType<WooStore['newMeta']>[],
      };
      const variation = variationId ? store.variations.get(variationId) : undefined;
      for (const [slug, value] of Object.entries(variation?.attributes ?? {}))
        item.meta.push(store.newMeta(slug, value));
      if (order.stockReduced)
        item.meta.push(store.newMeta('_reduced_stock', String(line.quantity)));
      order.lineItems.push(item);
    }
    order.shippingLines.push({
      id: store.itemId(),
      methodTitle: o.shipping.title,
      methodId: o.shipping.code,
      instanceId: o.shipping.code === 'flat_rate' ? '1' : '2',
      total: Number(o.shipping.price),
      totalTax: 0,
      taxes: [],
      meta: [],
    });
    if (o.discount) {
      // A fixed-cart coupon spread over the lines in proportion, never more than the items cost.
      const subtotal = order.lineItems.reduce((s, i) => s + i.subtotal, 0);
      const discount = Math.min(Number(o.discount.amount), subtotal);
      let left = Math.round(discount * 100);
      order.lineItems.forEach((item, index) => {
        const share =
          index === order.lineItems.length - 1
            ? left
            : Math.round((discount * 100 * item.subtotal) / subtotal);
        item.total = Math.round(item.subtotal * 100 - share) / 100;
        left -= share;
      });
      order.couponLines.push({
        id: store.itemId(),
        code: o.discount.code.toLowerCase(),
        discount,
        discountTax: 0,
        discountType: 'fixed_cart',
        nominalAmount: Number(o.discount.amount),
        freeShipping: false,
        meta: [],
      });
    }
    const taxTotal = order.lineItems.reduce((s, i) => s + i.totalTax, 0);
    order.taxLines.push({
      id: store.itemId(),
      rateCode: `${order.billing.country || 'US'}-TAX-1`,
      rateId: 1,
      label: 'Tax',
      compound: false,
      taxTotal: Math.round(taxTotal * 100) / 100,
      shippingTaxTotal: 0,
    });
    store.sumTotals(order);
    if (o.status === 'refunded')
      order.refunds.push({ id: store.postId(), reason: 'Refunded', total: order.total });
    if (paid && order.customerId) {
      const customer = store.customers.get(order.customerId);
      if (customer) customer.isPayingCustomer = true;
    }
    store.orders.set(order.id, order);
  }
  // Seeding is history: nothing of it was e-mailed now.
  store.outbox.length = 0;
}
