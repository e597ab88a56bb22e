import type { SampleOrder, SampleStore } from '../framework/sample-store.ts';
import { createBrand, createCategory, createProduct, type CatalogContext } from './catalog.ts';
import { createCustomers } from './customers.ts';
import { toUnits } from './http.ts';
import { createOrder } from './orders.ts';

/**
 * Fills an empty store with the platform-neutral sample store, converted to BigCommerce's shape
 * and passed through the same rules as API writes: categories in the default tree, vendors as
 * brands, products with options/variants/images/custom fields/SEO, customers with addresses and
 * consent, orders with products, shipping addresses and coupons.
 */

/** Sample statuses -> BigCommerce order status ids (orders.v2 orderStatusCollection_Resp). */
const statusIds: Record<SampleOrder['status'], number> = {
  pending: 7,
  processing: 11,
  'on-hold': 12,
  completed: 10,
  cancelled: 5,
  refunded: 4,
};

const paymentStatuses: Record<SampleOrder['status'], string> = {
  pending: 'pending',
  processing: 'captured',
  'on-hold': 'pending',
  completed: 'captured',
  cancelled: 'void',
  refunded: 'refunded',
};

const sampleOrigin = 'http://sample-store.invalid';

export function seedFromSample(ctx: CatalogContext, sample: SampleStore): void {
  const { state } = ctx;
  const kgFactor: Record<string, number> = { KGS: 1, Grams: 1000, LBS: 2.20462, Ounces: 35.274 };
  const toWeight = (kg: number) =>
    Math.round(kg * (kgFactor[state.settings.weightUnits] ?? 1) * 1000) / 1000;
  const toLength = (cm: number) =>
    state.settings.dimensionUnits === 'Inches' ? Math.round((cm / 2.54) * 100) / 100 : cm;

  const categoryIds = new Map<string, number>();
  for (const category of sample.categories) {
    const parentId = category.parentKey ? categoryIds.get(category.parentKey) : 0;
    if (parentId === undefined)
      throw new Error(`sample category ${category.key} before its parent`);
    const created = createCategory(ctx, {
      name: category.name,
      parent_id: parentId,
      tree_id: 1,
      description: category.description,
      sort_order: category.position,
      is_visible: true,
    });
    categoryIds.set(category.key, created.category_id);
  }

  const brandIds = new Map<string, number>();
  for (const vendor of new Set(sample.products.map((p) => p.vendor))) {
    brandIds.set(vendor, createBrand(ctx, { name: vendor }).id);
  }

  const variantIds = new Map<string, { productId: number; variantId: number }>();
  for (const p of sample.products) {
    const first = p.variants[0];
    if (!first) throw new Error(`sample product ${p.key} without variants`);
    const hasOptions = p.options.length > 0;
    const prices = (v: (typeof p.variants)[number]) =>
      v.compareAtPrice
        ? { price: Number(v.compareAtPrice), sale_price: Number(v.price) }
        : { price: Number(v.price), sale_price: 0 };
    const product = createProduct(ctx, {
      name: p.name,
      type: 'physical',
      sku: p.sku,
      description: p.descriptionHtml,
      weight: toWeight(first.weightKg),
      width: toLength(p.dimensionsCm.width),
      depth: toLength(p.dimensionsCm.length),
      height: toLength(p.dimensionsCm.height),
      ...prices(first),
      categories: p.categoryKeys.map((k) => categoryIds.get(k) ?? 0).filter((id) => id > 0),
      brand_id: brandIds.get(p.vendor) ?? 0,
      inventory_tracking: hasOptions ? 'variant' : 'product',
      inventory_level: hasOptions ? 0 : first.stock,
      is_visible: p.status === 'active',
      availability: 'available',
      search_keywords: p.tags.join(','),
      page_title: p.seoTitle,
      meta_description: p.seoDescription,
      custom_url: { url: `/${p.slug}/`, is_customized: true },
      custom_fields: Object.entries(p.attributes).map(([name, value]) => ({ name, value })),
      images: p.images.map((image, k) => ({
        image_url: `${sampleOrigin}${image.path}`,
        description: image.alt,
        sort_order: k,
        is_thumbnail: k === 0,
      })),
      variants: hasOptions
        ? p.variants.map((v) => ({
            sku: v.sku,
            ...prices(v),
            weight: toWeight(v.weightKg),
            inventory_level: v.stock,
            option_values: p.options.map((o) => ({
              option_display_name: o.name,
              label: v.optionValues[o.name] ?? '',
            })),
          }))
        : undefined,
    });
    product.date_created = Date.parse(p.createdAt);
    for (const v of product.variants) {
      variantIds.set(v.option_value_ids.length ? v.sku : product.sku, {
        productId: product.id,
        variantId: v.id,
      });
    }
  }

  const customerIds = new Map<string, number>();
  for (let i = 0; i < sample.customers.length; i += 10) {
    const chunk = sample.customers.slice(i, i + 10);
    const created = createCustomers(
      state,
      chunk.map((c) => ({
        email: c.email,
        first_name: c.firstName,
        last_name: c.lastName,
        phone: c.phone,
        notes: c.note,
        accepts_product_review_abandoned_cart_emails: c.acceptsMarketing,
        addresses: c.addresses.map((a) => ({
          first_name: a.firstName,
          last_name: a.lastName,
          company: a.company,
          address1: a.address1,
          address2: a.address2,
          city: a.city,
          state_or_province: a.province,
          postal_code: a.postalCode,
          country_code: a.countryCode,
          phone: a.phone,
          address_type: a.company ? 'commercial' : 'residential',
        })),
      })),
      ctx.now(),
    );
    created.forEach((customer, k) => {
      const source = chunk[k];
      if (!source) return;
      customer.date_created = Date.parse(source.createdAt);
      customer.date_modified = customer.date_created;
      customer.consent = {
        allow: source.acceptsMarketing
          ? ['essential', 'functional', 'analytics', 'targeting']
          : ['essential', 'functional'],
        deny: source.acceptsMarketing ? [] : ['analytics', 'targeting'],
        updated_at: customer.date_created,
      };
      customerIds.set(source.key, customer.id);
    });
  }

  for (const o of sample.orders) {
    if (o.lines.length === 0) continue;
    const address = (a: SampleOrder['billing']) => ({
      first_name: a.firstName,
      last_name: a.lastName,
      company: a.company,
      street_1: a.address1,
      street_2: a.address2,
      city: a.city,
      state: a.province,
      zip: a.postalCode,
      country_iso2: a.countryCode,
      phone: a.phone,
      email: o.email,
    });
    // Per-unit tax in ten-thousandths: the line tax (quantity x unit tax) rounds back to the
    // sample's whole cents.
    const lines = o.lines.map((line) => {
      const ids = variantIds.get(line.variantSku);
      const unit = toUnits(line.unitPrice);
      return {
        ...(ids ? { product_id: ids.productId, variant_id: ids.variantId } : { sku: line.sku }),
        name: line.name,
        quantity: line.quantity,
        price_ex_tax: unit,
        price_inc_tax: unit + Math.round(toUnits(line.tax) / line.quantity),
      };
    });
    const shipping = toUnits(o.shipping.price);
    const order = createOrder(ctx, {
      billing_address: address(o.billing),
      shipping_addresses: [{ ...address(o.shippingAddress), shipping_method: o.shipping.title }],
      products: lines,
      customer_id: o.customerKey ? (customerIds.get(o.customerKey) ?? 0) : 0,
      status_id: statusIds[o.status],
      date_created: new Date(o.createdAt).toUTCString(),
      shipping_cost_ex_tax: shipping,
      shipping_cost_inc_tax: shipping,
      items_shipped: o.status === 'completed' ? o.lines.reduce((s, l) => s + l.quantity, 0) : 0,
      customer_message: o.note,
      payment_method: 'Credit Card',
      default_currency_code: o.currency,
    });
    order.payment_status = paymentStatuses[o.status];
    order.date_modified = order.date_created;
    if (o.discount) {
      order.coupons.push({
        id: state.nextId('order_coupon', 1),
        coupon_id: state.nextId('coupon', 1),
        code: o.discount.code,
        // BigCommerce takes a coupon off the items at most: a basket never goes below zero.
        amount: Math.min(toUnits(o.discount.amount), order.subtotal_ex_tax),
        type: 2,
      });
    }
    const coupons = order.coupons.reduce((s, c) => s + c.amount, 0);
    order.total_ex_tax = order.subtotal_ex_tax + order.shipping_cost_ex_tax - coupons;
    order.total_inc_tax = order.subtotal_inc_tax + order.shipping_cost_inc_tax - coupons;
  }
}
