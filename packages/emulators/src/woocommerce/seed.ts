import type { SampleAddress, SampleProduct, SampleStore } from '../framework/sample-store.ts';
import {
  statusNames,
  type LineItem,
  type Order,
  type Refund,
  type WcAddress,
  type WooStore,
} from './shop.ts';
import type { Json, Taxonomy } from './store.ts';
import { escHtml } from './wp-text.ts';
import { seedContent } from './seed-content.ts';

/**
 * Fills a store with the platform-neutral sample store, in WooCommerce's shape, and then with what
 * a shop that has been trading for a while holds besides, so that every field of WooCommerce's
 * API carries something a migration must move: store-wide attributes (Size, Color) with their
 * terms, descriptive attributes with several values, default variation attributes, featured and
 * hidden products, sales with schedules (one starting later), backorders, low-stock amounts,
 * shipping classes, up-sells and cross-sells, a grouped and an external product, downloadable
 * files, private variations with images of their own, images shared by several products, a tag
 * with a non-Latin name, custom meta on every kind of record; orders with payment methods and
 * transaction ids, coupon lines, fees and credits, several refunds with their lines and reasons,
 * notes by the store, the merchant and for the customer, a line whose product was deleted, and
 * one order in another currency. Orders record what a real checkout recorded (payment and
 * completion dates, reduced stock); the store does not charge tax, so they carry none.
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
const cents = (n: number) => Math.round(n * 100) / 100;
const day = 86_400_000;

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

/**
 * What the store's own lists hold besides names, which a migration must carry too: settings of
 * the store-wide attributes, each term's description and sort position (kept in the order the
 * names give, so the products' values read the same), a term no product uses, a tag's own slug
 * and description.
 */
function seedTermDetails(store: WooStore): void {
  const size = store.attributeByTaxonomy('pa_size');
  const color = store.attributeByTaxonomy('pa_color');
  if (color) store.updateAttribute(color, { has_archives: true, order_by: 'name' });
  if (size) {
    const terms = store.orderedTerms(store.termsOf('pa_size').map((t) => t.id));
    for (const [i, t] of terms.entries()) {
      t.menuOrder = (i + 1) * 10;
      t.description = `Size ${t.name} – see the <a href="https://example.org/sizes">size guide</a>`;
    }
    store.insertTerm('pa_size', {
      name: 'XXXL ✨',
      description: 'No product comes this large yet.',
      menu_order: (terms.length + 1) * 10,
    });
  }
  const cafe = store.termsOf('product_tag').find((t) => t.name.startsWith('Café'));
  if (cafe)
    store.updateTerm(cafe, { slug: 'cafe-edition', description: 'Coffee-house specials ☕' });
}

/** Options that are store-wide attributes in this store; the others are each product's own. */
const sharedOptions: Record<string, string> = { Size: 'size', Color: 'color' };

export async function seedFromSample(store: WooStore, sample: SampleStore): Promise<void> {
  store.settings.currency = sample.currency;
  const weightFactor = weightFromKg[store.settings.weightUnit] ?? 1;
  const lengthFactor = lengthFromCm[store.settings.dimensionUnit] ?? 1;

  const categoryIds = new Map<string, number>();
  for (const [index, c] of sample.categories.entries()) {
    const image =
      index === 0
        ? store.addAttachment(
            `/media/catalog/category-${c.slug}.png`,
            `${c.name} banner`,
            Date.UTC(2021, 0, 4),
            `${c.name} – cover`,
          )
        : undefined;
    const term = store.insertTerm(
      'product_cat',
      {
        name: c.name,
        slug: c.slug,
        parent: c.parentKey ? categoryIds.get(c.parentKey) : 0,
        description: c.description,
        display: index === 1 ? 'subcategories' : index === 2 ? 'both' : 'default',
      },
      image?.id ?? 0,
    );
    term.menuOrder = c.position;
    categoryIds.set(c.key, term.id);
  }

  // Brands (a flat list in the sample), each with its logo where it has one; the products then
  // find theirs by name.
  for (const b of sample.brands) {
    const logo = b.logoPath
      ? store.addAttachment(b.logoPath, `${b.name} logo`, Date.UTC(2021, 0, 5))
      : undefined;
    const term = store.insertTerm(
      'product_brand',
      { name: b.name, slug: b.slug, description: b.description },
      logo?.id ?? 0,
    );
    term.menuOrder = b.position;
  }

  const attributeIds = new Map<string, number>();
  for (const [name, slug] of Object.entries(sharedOptions))
    attributeIds.set(name, store.createAttribute({ name, slug }).id);
  const bulky = store.insertTerm('product_shipping_class', { name: 'Bulky items', slug: 'bulky' });
  const fragile = store.insertTerm('product_shipping_class', { name: 'Fragile', slug: 'fragile' });

  // Products no order names can become a grouped and an external product.
  const ordered = new Set(sample.orders.flatMap((o) => o.lines.map((l) => l.productKey)));
  const spare = sample.products.filter((p) => !ordered.has(p.key) && p.options.length === 0);
  const groupedKey = spare[0]?.key;
  const externalKey = spare[1]?.key;
  const downloadKey = spare[2]?.key;

  const products = new Map<string, { id: number; variations: Map<string, number> }>();
  let firstImage = 0;
  for (const [index, p] of sample.products.entries()) {
    const created = Date.parse(p.createdAt);
    const images = p.images.map((img, i) => ({
      id: store.addAttachment(img.path, img.alt, created, `${p.slug}-${i + 1}.png`).id,
    }));
    firstImage ||= images[0]?.id ?? 0;
    // Some products show the first product's image too: one file, several products.
    if (index % 10 === 5 && firstImage) images.push({ id: firstImage });
    const variable = p.options.length > 0;
    const type =
      p.key === groupedKey
        ? 'grouped'
        : p.key === externalKey
          ? 'external'
          : variable
            ? 'variable'
            : 'simple';
    const first = p.variants[0];
    const optionAttributes = p.options.map((o, i) => {
      const id = attributeIds.get(o.name);
      return {
        ...(id ? { id } : { name: o.name }),
        position: i,
        visible: true,
        variation: true,
        options: o.values,
      };
    });
    const descriptive = Object.entries(p.attributes).map(([name, value], i) => ({
      name,
      position: p.options.length + i,
      visible: index % 4 !== 3,
      variation: false,
      // A descriptive attribute with several values keeps them apart.
      options: index % 5 === 0 ? [value, 'Recycled fibres'] : [value],
    }));
    const tags = [...p.tags, ...(index % 11 === 1 || index % 11 === 2 ? ['Café ☕ édition'] : [])];
    const base: Json = {
      name: p.name,
      slug: p.slug,
      type,
      status:
        p.status === 'active'
          ? index % 29 === 7
            ? 'private'
            : 'publish'
          : index % 2
            ? 'pending'
            : 'draft',
      featured: index % 7 === 0,
      catalog_visibility: ['visible', 'hidden', 'catalog', 'search'][
        index % 13 < 4 ? index % 13 : 0
      ],
      description: p.descriptionHtml,
      short_description: p.shortDescriptionHtml,
      sku: p.sku,
      date_created_gmt: p.createdAt,
      categories: p.categoryKeys.map((k) => ({ id: categoryIds.get(k) })),
      tags: tags.map((t) => ({ id: findOrCreateTerm(store, 'product_tag', t) })),
      brands: p.vendor ? [{ id: findOrCreateTerm(store, 'product_brand', p.vendor) }] : [],
      images,
      weight: trim((first?.weightKg ?? 0.5) * weightFactor),
      dimensions: {
        length: trim(p.dimensionsCm.length * lengthFactor),
        width: trim(p.dimensionsCm.width * lengthFactor),
        height: trim(p.dimensionsCm.height * lengthFactor),
      },
      attributes: [...optionAttributes, ...descriptive],
      tax_status: index % 17 === 3 ? 'shipping' : 'taxable',
      tax_class: index % 19 === 4 ? 'reduced-rate' : '',
      shipping_class: index % 9 === 2 ? bulky.slug : '',
      sold_individually: index % 23 === 5,
      reviews_allowed: index % 6 !== 4,
      purchase_note: index % 8 === 1 ? '<p>Thank you &amp; enjoy it!</p>' : '',
      menu_order: index % 4 === 2 ? index : 0,
      meta_data: [
        { key: 'care_instructions', value: `Wash cold, product ${index + 1}` },
        ...(index % 3 === 0
          ? [{ key: 'display_options', value: { badge: 'new', rank: index } }]
          : []),
      ],
    };
    if (type === 'simple' || type === 'external') {
      Object.assign(base, simpleFields(first, index, weightFactor));
      if (type === 'external')
        Object.assign(base, {
          external_url: `https://partner.example.com/products/${p.slug}`,
          button_text: 'Buy at our partner',
          manage_stock: false,
          shipping_class: '',
        });
      if (p.key === downloadKey)
        Object.assign(base, {
          virtual: true,
          downloadable: true,
          downloads: [
            { name: 'Pattern (PDF)', file: `https://files.example.com/${p.slug}/pattern.pdf` },
            { name: 'Care guide', file: `https://files.example.com/${p.slug}/care.pdf` },
          ],
          download_limit: 5,
          download_expiry: 30,
          shipping_class: '',
        });
    }
    if (type === 'variable' && first)
      base.default_attributes = Object.entries(first.optionValues).map(([name, option]) => {
        const id = attributeIds.get(name);
        return { ...(id ? { id } : { name }), option };
      });
    const product = await store.saveProduct(base);
    const variations = new Map<string, number>();
    if (type === 'variable') {
      for (const [v, variant] of p.variants.entries()) {
        const variation = await store.saveVariation(product, {
          sku: variant.sku,
          ...wcPrices(variant.price, variant.compareAtPrice),
          ...(v === 1 && !variant.compareAtPrice
            ? {
                sale_price: String(cents(Number(variant.price) * 0.8)),
                date_on_sale_from_gmt: '2031-06-01T00:00:00',
                date_on_sale_to_gmt: '2031-06-30T00:00:00',
              }
            : {}),
          status: v === 2 ? 'private' : 'publish',
          tax_class: v === 0 ? '' : 'parent',
          manage_stock: true,
          stock_quantity: v === 3 ? -1 : variant.stock,
          backorders: v === 3 ? 'notify' : 'no',
          low_stock_amount: v === 1 ? 4 : null,
          // The first variation weighs what the product does: it has no weight of its own.
          weight: v === 0 ? '' : trim(variant.weightKg * weightFactor),
          shipping_class: v === 4 ? fragile.slug : '',
          description: v === 0 ? `<p>${p.name}, the first of its kind.</p>` : '',
          menu_order: v,
          image:
            v === 0 && images[0]
              ? { id: images[0].id }
              : v === 1
                ? { id: variantImage(store, p, created) }
                : {},
          attributes: Object.entries(variant.optionValues).map(([name, option]) => {
            const id = attributeIds.get(name);
            return { ...(id ? { id } : { name }), option };
          }),
          meta_data: [{ key: 'supplier_code', value: `SUP-${variant.sku}` }],
        });
        variation.created = variation.modified = created;
        variations.set(variant.sku, variation.id);
      }
    }
    product.modified = created;
    products.set(p.key, { id: product.id, variations });
  }
  linkProducts(store, sample.products, products, groupedKey);

  const customers = seedCustomers(store, sample);
  const coupons = seedCoupons(store, sample, products, categoryIds);
  seedOrders(store, sample, products, customers, coupons);
  seedReviews(store, sample, products);
  seedContent(store, sample);
  seedTermDetails(store);
  // Seeding is history: nothing of it was e-mailed now.
  store.outbox.length = 0;
}

/**
 * The sample's reviews as WooCommerce holds them: comments of type 'review' on their products, as
 * the REST API writes them (their HTML kept; WooCommerce has no headline, so a sample review's
 * title is left out). Pending is held for moderation, rejected is in the bin, spam is spam, and
 * the verified buyer is marked as WooCommerce marked them when they wrote it.
 */
function seedReviews(
  store: WooStore,
  sample: SampleStore,
  products: Map<string, { id: number }>,
): void {
  const approval = { approved: '1', pending: '0', rejected: 'trash', spam: 'spam' } as const;
  for (const r of sample.reviews) {
    const productId = products.get(r.productKey)?.id;
    if (productId === undefined) continue;
    const review = store.reviews.create(
      {
        product_id: productId,
        reviewer: r.reviewerName,
        reviewer_email: r.reviewerEmail,
        review: r.body,
        rating: r.rating ?? 0,
        date_created_gmt: r.createdAt,
        status: 'approved',
      },
      '',
    );
    review.approved = approval[r.status];
    review.verified = r.verified;
  }
}

/** Price, sale and stock of a simple product, with the variety a real catalogue has. */
function simpleFields(
  first: SampleProduct['variants'][number] | undefined,
  index: number,
  weightFactor: number,
): Json {
  if (!first) return {};
  const fields: Json = {
    ...wcPrices(first.price, first.compareAtPrice),
    manage_stock: index % 5 !== 4,
    stock_quantity: first.stock,
    weight: trim(first.weightKg * weightFactor),
    global_unique_id: index % 4 === 1 ? `4006381${String(333900 + index).padStart(6, '0')}` : '',
  };
  if (index % 6 === 1 && !first.compareAtPrice)
    // A sale that starts later keeps its sale price until then.
    Object.assign(fields, {
      sale_price: String(cents(Number(first.price) * 0.9)),
      date_on_sale_from_gmt: '2030-11-20T00:00:00',
      date_on_sale_to_gmt: '2030-12-01T23:59:59',
    });
  if (index % 6 === 2 && first.compareAtPrice)
    Object.assign(fields, {
      date_on_sale_from_gmt: '2024-01-01T00:00:00',
      date_on_sale_to_gmt: '2032-01-01T00:00:00',
    });
  if (index % 8 === 3)
    Object.assign(fields, { manage_stock: true, stock_quantity: -2, backorders: 'notify' });
  if (index % 8 === 7) Object.assign(fields, { backorders: 'yes' });
  if (index % 5 === 2) Object.assign(fields, { manage_stock: true, low_stock_amount: 3 });
  if (index % 5 === 4)
    Object.assign(fields, { stock_status: index % 10 === 4 ? 'outofstock' : 'onbackorder' });
  return fields;
}

/** An image a variation shows that no product's gallery does. */
function variantImage(store: WooStore, p: SampleProduct, created: number): number {
  return store.addAttachment(
    `/media/catalog/${p.slug}-swatch.png`,
    `${p.name} swatch`,
    created,
    `${p.slug} swatch`,
  ).id;
}

/** Up-sells, cross-sells and the grouped product's members, once every product exists. */
function linkProducts(
  store: WooStore,
  sample: SampleProduct[],
  products: Map<string, { id: number }>,
  groupedKey: string | undefined,
) {
  const ids = sample.map((p) => products.get(p.key)?.id ?? 0);
  sample.forEach((p, index) => {
    const product = store.products.get(ids[index] ?? 0);
    if (!product) return;
    if (index % 9 === 4) {
      product.upsellIds = [ids[(index + 1) % ids.length] ?? 0].filter(Boolean);
      product.crossSellIds = [ids[(index + 2) % ids.length], ids[(index + 3) % ids.length]].filter(
        (id): id is number => !!id && id !== product.id,
      );
    }
    if (p.key === groupedKey) {
      const members = sample
        .map((x, i) => ({ x, id: ids[i] ?? 0 }))
        .filter(({ x, id }) => x.key !== groupedKey && x.options.length === 0 && id)
        .slice(0, 3)
        .map(({ id }) => id);
      product.groupedIds = members;
    }
  });
}

/**
 * The sample's coupons, by code (as the orders name them). WooCommerce has no start date, so a
 * sample coupon's start is left out; the first coupon carries a custom field of the merchant's.
 */
function seedCoupons(
  store: WooStore,
  sample: SampleStore,
  products: Map<string, { id: number }>,
  categoryIds: Map<string, number>,
): Map<string, number> {
  const byCode = new Map<string, number>();
  const productIds = (keys: string[]) => keys.flatMap((k) => products.get(k)?.id ?? []);
  const termIds = (keys: string[]) => keys.flatMap((k) => categoryIds.get(k) ?? []);
  for (const [index, c] of sample.coupons.entries()) {
    const coupon = store.createCoupon({
      code: c.code,
      description: c.description,
      discount_type: c.discountType,
      amount: c.amount,
      free_shipping: c.freeShipping,
      status: c.enabled ? 'publish' : 'draft',
      date_expires: c.expiresAt,
      minimum_amount: c.minimumSpend ?? '',
      maximum_amount: c.maximumSpend ?? '',
      usage_limit: c.usageLimit ?? 0,
      usage_limit_per_user: c.usageLimitPerCustomer ?? 0,
      limit_usage_to_x_items: c.itemLimit ?? 0,
      individual_use: c.individualUse,
      exclude_sale_items: c.excludeSaleItems,
      product_ids: productIds(c.productKeys),
      excluded_product_ids: productIds(c.excludedProductKeys),
      product_categories: termIds(c.categoryKeys),
      excluded_product_categories: termIds(c.excludedCategoryKeys),
      email_restrictions: c.allowedEmails,
      meta_data: index === 0 ? [{ key: 'campaign', value: 'newsletter' }] : [],
    });
    coupon.created = Date.parse(c.createdAt);
    coupon.modified = coupon.created;
    coupon.usageCount = c.usageCount;
    byCode.set(c.code, coupon.id);
  }
  return byCode;
}

function seedCustomers(store: WooStore, sample: SampleStore): Map<string, number> {
  const customers = new Map<string, number>();
  for (const [index, c] of sample.customers.entries()) {
    const billing = c.addresses.find((a) => a.defaultBilling) ?? c.addresses[0];
    const shipping = c.addresses.find((a) => a.defaultShipping) ?? billing;
    const customer = store.createCustomer(
      {
        email: c.email,
        ...(index % 3 === 0
          ? {
              username: `${c.firstName}.${c.lastName}${index}`
                .toLowerCase()
                .replace(/[^a-z0-9.]/g, ''),
            }
          : {}),
        first_name: c.firstName,
        last_name: c.lastName,
        // One account has no billing e-mail, one no shipping address at all.
        billing: billing
          ? { ...wcAddress(billing), ...(index === 1 ? {} : { email: c.email }), phone: c.phone }
          : { email: c.email },
        shipping:
          index === 2 || !shipping
            ? {}
            : { ...wcAddress(shipping), phone: index % 4 === 3 ? '+1 555 0199' : '' },
        meta_data: [
          { key: 'loyalty_tier', value: ['bronze', 'silver', 'gold'][index % 3] },
          ...(index % 5 === 0 ? [{ key: 'preferences', value: { newsletter: 'weekly' } }] : []),
        ],
        // The sample's accounts chose their passwords themselves.
        password: 'x',
      },
      Date.parse(c.createdAt),
    );
    customer.modified = customer.created;
    customers.set(c.key, customer.id);
  }
  return customers;
}

const payments = [
  ['bacs', 'Direct bank transfer', ''],
  ['cheque', 'Check payments', ''],
  ['cod', 'Cash on delivery', ''],
  ['stripe', 'Credit Card (Stripe)', 'ch_3Q'],
] as const;

function seedOrders(
  store: WooStore,
  sample: SampleStore,
  products: Map<string, { id: number; variations: Map<string, number> }>,
  customers: Map<string, number>,
  coupons: Map<string, number>,
) {
  for (const [index, o] of sample.orders.entries()) {
    const created = Date.parse(o.createdAt);
    const order: Order = store.blankOrder();
    order.id = store.postId();
    order.orderKey = `wc_order_${order.id.toString(36).padStart(13, 'x')}`;
    order.status = o.status;
    order.currency = index === 3 ? 'EUR' : o.currency;
    order.createdVia = index % 7 === 6 ? 'admin' : 'checkout';
    order.customerId = o.customerKey ? (customers.get(o.customerKey) ?? 0) : 0;
    order.customerNote = o.note;
    order.billing = { ...wcAddress(o.billing), email: o.email };
    order.shipping = wcAddress(o.shippingAddress);
    const [method, title, transaction] = payments[index % payments.length] ?? payments[0];
    order.paymentMethod = method;
    order.paymentMethodTitle = title;
    order.transactionId = transaction ? `${transaction}${String(index).padStart(6, '0')}` : '';
    if (order.createdVia === 'checkout') {
      order.customerIpAddress = `203.0.113.${(index % 200) + 1}`;
      order.customerUserAgent = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/131.0';
    }
    order.pricesIncludeTax = index % 11 === 5;
    order.created = order.modified = created;
    const paid = ['processing', 'completed', 'refunded'].includes(o.status);
    order.datePaid = paid ? created + 5 * 60_000 : null;
    order.dateCompleted =
      o.status === 'completed' || (o.status === 'refunded' && index % 2 === 0)
        ? created + 2 * day
        : null;
    order.stockReduced = ['processing', 'completed', 'on-hold', 'refunded'].includes(o.status);
    order.meta = [
      store.newMeta('_wc_order_attribution_source_type', 'typein'),
      ...(index % 4 === 1 ? [store.newMeta('gift_message', 'Happy birthday! 🎂')] : []),
    ];
    for (const [l, line] of o.lines.entries()) {
      const product = products.get(line.productKey);
      const variationId = product?.variations.get(line.variantSku) ?? 0;
      const subtotal = cents(Number(line.unitPrice) * line.quantity);
      // One line's product was deleted since: the line keeps its name and amounts, no product.
      const deleted = index === 2 && l === 0;
      const item: LineItem = {
        id: store.itemId(),
        name: line.name,
        productId: deleted ? 0 : (product?.id ?? 0),
        variationId: deleted ? 0 : variationId,
        quantity: line.quantity,
        taxClass: '',
        subtotal,
        subtotalTax: 0,
        total: subtotal,
        totalTax: 0,
        taxes: [],
        meta: [],
      };
      const variation = variationId && !deleted ? store.variations.get(variationId) : undefined;
      for (const [slug, value] of Object.entries(variation?.attributes ?? {}))
        item.meta.push(store.newMeta(slug, value));
      if (index % 6 === 0 && l === 0) item.meta.push(store.newMeta('Engraving', 'J.S. 2024'));
      if (order.stockReduced && !deleted)
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
      order.lineItems.forEach((item, i) => {
        const share =
          i === order.lineItems.length - 1
            ? left
            : Math.round((discount * 100 * item.subtotal) / subtotal);
        item.total = Math.round(item.subtotal * 100 - share) / 100;
        left -= share;
      });
      order.couponLines.push({
        id: store.itemId(),
        couponId: coupons.get(o.discount.code) ?? 0,
        code: o.discount.code.toLowerCase(),
        discount,
        discountTax: 0,
        discountType: 'fixed_cart',
        nominalAmount: Number(o.discount.amount),
        freeShipping: false,
        meta: [],
      });
    }
    if (index % 5 === 1)
      order.feeLines.push({
        id: store.itemId(),
        name: 'Gift wrap',
        taxClass: '',
        taxStatus: 'none',
        total: 4,
        totalTax: 0,
        meta: [],
      });
    if (index % 5 === 3)
      order.feeLines.push({
        id: store.itemId(),
        name: 'Loyalty credit',
        taxClass: '',
        taxStatus: 'none',
        total: -3,
        totalTax: 0,
        meta: [],
      });
    store.sumTotals(order);
    if (order.total < 0) order.feeLines.pop();
    store.sumTotals(order);
    store.orders.set(order.id, order);
    seedHistory(store, order, index, created);
    if (paid && order.customerId) {
      const customer = store.customers.get(order.customerId);
      if (customer) customer.isPayingCustomer = true;
    }
  }
}

/** The refunds and notes an order gathered: the store's own, the merchant's, the customer's. */
function seedHistory(store: WooStore, order: Order, index: number, created: number) {
  const note = (at: number, content: string, customerNote = false, author = 'WooCommerce') =>
    order.notes.push({ id: store.noteId(), author, created: at, content, customerNote });
  note(
    created + 60_000,
    `Order status changed from Pending payment to ${statusName(order.status)}.`,
  );
  if (index % 3 === 0)
    note(created + 2 * 60_000, 'Called the customer to confirm the size.', false, 'admin');
  if (index % 4 === 2)
    note(created + day, 'Your parcel is on its way &amp; should arrive tomorrow.', true);
  const refund = (
    at: number,
    amount: number,
    reason: string,
    lines: [LineItem, number][],
  ): Refund => {
    const r: Refund = {
      id: store.postId(),
      parentId: order.id,
      created: at,
      amount: cents(amount),
      reason,
      refundedBy: 1,
      refundedPayment: false,
      meta: [],
      lineItems: lines.map(([item, qty]) => ({
        ...structuredClone(item),
        id: store.itemId(),
        quantity: -qty,
        subtotal: -cents((item.total / item.quantity) * qty),
        total: -cents((item.total / item.quantity) * qty),
        meta: [store.newMeta('_refunded_item_id', String(item.id))],
      })),
    };
    store.refunds.set(r.id, r);
    return r;
  };
  const first = order.lineItems[0];
  if (order.status === 'refunded' && first) {
    // Refunded in two steps: the first line, then the rest.
    const lineAmount = first.total;
    const a = refund(created + 3 * day, lineAmount, 'Item arrived damaged', [
      [first, first.quantity],
    ]);
    a.meta.push(store.newMeta('_refund_type', 'partial'));
    const b = refund(created + 4 * day, order.total - lineAmount, '', []);
    b.meta.push(store.newMeta('_refund_type', 'full'));
  } else if (order.status === 'completed' && index % 3 === 1 && first && first.total > 2) {
    const r = refund(
      created + 5 * day,
      cents(first.total / first.quantity),
      'Customer kept one less',
      [[first, 1]],
    );
    r.meta.push(store.newMeta('_refund_type', 'partial'));
    if (index % 2 === 0) {
      const s = refund(created + 6 * day, 1.5, 'Shipping overcharged', []);
      s.meta.push(store.newMeta('_refund_type', 'partial'));
    }
  }
}

const statusName = (status: string) => statusNames[status] ?? status;
