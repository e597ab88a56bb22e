import type {
  SampleCoupon,
  SampleOrder,
  SampleProduct,
  SampleReview,
  SampleStore,
} from '../framework/sample-store.ts';
import {
  createBrand,
  createCategory,
  createProduct,
  deleteProduct,
  updateCategory,
  updateOption,
  type CatalogContext,
  type ProductCreate,
  type VariantInput,
} from './catalog.ts';
import { createCoupon, type CouponCreate } from './coupons.ts';
import { createAttributes, createCustomers, type CustomerCreate } from './customers.ts';
import { toUnits, v2Date } from './http.ts';
import { createMetafield } from './metafields.ts';
import { createOrder, type OrderCreate } from './orders.ts';
import { createReview, type ReviewCreate } from './reviews.ts';
import { createPage, createPost } from './content.ts';
import type { BcOrder, BcProduct } from './state.ts';

/**
 * Fills an empty store with the platform-neutral sample store, converted to BigCommerce's shape
 * and passed through the same rules as API writes: categories in the default tree, vendors as
 * brands, products with options/variants/images/custom fields/SEO, customers with addresses and
 * consent, coupons, orders with products, shipping addresses and the coupons they used, and
 * product reviews.
 *
 * The neutral sample knows nothing of most of BigCommerce's own fields, so the seed spreads them
 * over the records by position (details below): retail and cost prices, featured and related
 * products, barcodes of each kind, pre-orders, purchase limits, Open Graph, bulk pricing,
 * videos, modifiers, swatch options with a default value, variants that inherit the product's
 * price or are not for sale, metafields of every resource, customer attributes, form fields and
 * store credit, a third category level, order fees (a charge and a credit), handling and
 * wrapping costs, refunds, staff notes, payment ids, an order in another currency and a line
 * whose product was deleted. A same-platform copy of this store then proves every field.
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

const money = (value: number) => Math.round(value * 100) / 100;

/** A check digit makes these valid GTIN-13 / UPC-A numbers. */
function withCheckDigit(digits: string): string {
  const sum = [...digits].reverse().reduce((s, d, i) => s + Number(d) * (i % 2 === 0 ? 3 : 1), 0);
  return `${digits}${(10 - (sum % 10)) % 10}`;
}

/** Product fields the neutral sample has no notion of, by the product's position (1-based). */
function productDetails(i: number, price: number): Partial<ProductCreate> {
  const d: Partial<ProductCreate> = {};
  if (i % 3 === 1) {
    d.retail_price = money(price * 1.4);
    d.cost_price = money(price * 0.45);
  }
  if (i % 7 === 3) d.map_price = money(price * 0.9);
  if (i % 4 === 2) d.is_featured = true;
  if (i % 5 === 3) d.sort_order = i * 10;
  if (i % 3 === 0) d.gtin = withCheckDigit(`400638133${String(i).padStart(3, '0')}`);
  if (i % 7 === 1) d.upc = withCheckDigit(`0360000${String(i).padStart(4, '0')}`);
  if (i % 6 === 4) d.mpn = `MPN-${i}`;
  if (i % 8 === 5) d.warranty = '<p>Two-year warranty. Garantía de dos años.</p>';
  if (i % 9 === 8) Object.assign(d, { condition: 'Used', is_condition_shown: true });
  if (i % 5 === 1) d.meta_keywords = ['everyday', 'sample'];
  if (i % 10 === 2) d.bin_picking_number = `A-${i}`;
  if (i % 4 === 3) d.tax_class_id = 2;
  if (i % 6 === 2) d.availability_description = 'Usually ships in 24 hours.';
  switch (i) {
    case 1:
      d.videos = [
        { title: 'How it is made', description: 'Workshop tour', video_id: 'z3fRu9pkuXE' },
      ];
      d.product_tax_code = 'P0000000';
      break;
    case 2:
      Object.assign(d, { type: 'digital', gift_wrapping_options_type: 'none' });
      break;
    case 3:
      Object.assign(d, {
        open_graph_type: 'book',
        open_graph_title: 'Read all about it',
        open_graph_description: 'The story of a product',
        open_graph_use_meta_description: false,
        open_graph_use_product_name: false,
        open_graph_use_image: false,
      });
      break;
    case 4:
      // At most one per order: a product sold individually.
      d.order_quantity_maximum = 1;
      break;
    case 5:
      d.is_free_shipping = true;
      break;
    case 6:
      Object.assign(d, {
        availability: 'preorder',
        preorder_release_date: '2027-03-01T00:00:00+00:00',
        preorder_message: 'Ships from %%DATE%%',
        is_preorder_only: true,
      });
      break;
    case 7:
      // Listed but not for sale, its price shown as a label.
      Object.assign(d, {
        availability: 'disabled',
        is_price_hidden: true,
        price_hidden_label: 'Call for price',
      });
      break;
    case 8:
      Object.assign(d, { fixed_cost_shipping_price: 4.5, layout_file: 'product-wide.html' });
      break;
    case 9:
      // Archived: hidden and not for sale.
      Object.assign(d, {
        is_visible: false,
        availability: 'disabled',
        order_quantity_minimum: 2,
        order_quantity_maximum: 10,
      });
      break;
    case 10:
      d.bulk_pricing_rules = [
        { quantity_min: 5, quantity_max: 9, type: 'percent', amount: '.05' },
        { quantity_min: 10, quantity_max: 0, type: 'price', amount: 2 },
      ];
      break;
  }
  return d;
}

/** Variant fields by the product's position and the variant's (0-based). */
function variantDetails(i: number, k: number): Partial<VariantInput> {
  const d: Partial<VariantInput> = {};
  if (k === 1 && i % 2 === 0) d.retail_price = 99.95;
  if (k === 2) Object.assign(d, { mpn: `V-MPN-${i}-${k}`, bin_picking_number: `B-${i}-${k}` });
  if (k === 1) d.inventory_warning_level = 3;
  if (k === 0 && i % 3 === 0)
    d.gtin = withCheckDigit(`50000000${String(i * 10 + k).padStart(4, '0')}`);
  if (k === 3) Object.assign(d, { width: 12, height: 4, depth: 30 });
  if (k === 2 && i % 2 === 1) {
    d.purchasing_disabled = true;
    d.purchasing_disabled_message = 'Back in spring';
  }
  if (k === 4)
    Object.assign(d, {
      is_free_shipping: true,
      cost_price: 3.2,
      map_price: 9.5,
      fixed_cost_shipping_price: 1.5,
    });
  if (k === 0) d.image_url = `${sampleOrigin}/media/catalog/variant-${i}-${k}.png`;
  return d;
}

export function seedFromSample(ctx: CatalogContext, sample: SampleStore): void {
  const { state } = ctx;
  const now = ctx.now();
  const kgFactor: Record<string, number> = { KGS: 1, Grams: 1000, LBS: 2.20462, Ounces: 35.274 };
  const toWeight = (kg: number) =>
    Math.round(kg * (kgFactor[state.settings.weightUnits] ?? 1) * 1000) / 1000;
  const toLength = (cm: number) =>
    state.settings.dimensionUnits === 'Inches' ? Math.round((cm / 2.54) * 100) / 100 : cm;

  // ------------------------------------------------------------------ categories
  const categoryIds = new Map<string, number>();
  sample.categories.forEach((category, index) => {
    const parentId = category.parentKey ? categoryIds.get(category.parentKey) : 0;
    if (parentId === undefined)
      throw new Error(`sample category ${category.key} before its parent`);
    const created = createCategory(ctx, {
      name: category.name,
      parent_id: parentId,
      tree_id: 1,
      description: category.description,
      sort_order: category.position,
      is_visible: index !== 2,
      page_title: index % 2 === 0 ? `${category.name} | Sample Store` : '',
      meta_description: index % 3 === 0 ? `All our ${category.name.toLowerCase()}.` : '',
      meta_keywords: index === 1 ? ['apparel', 'clothes'] : undefined,
      search_keywords: index === 1 ? 'shirts,tees' : undefined,
      default_product_sort: index === 3 ? 'newest' : undefined,
      layout_file: index === 4 ? 'category-grid.html' : undefined,
      url: { path: `/${category.slug}/`, is_customized: index !== 5 },
    });
    categoryIds.set(category.key, created.category_id);
    if (index === 0) {
      updateCategory(ctx, {
        category_id: created.category_id,
        image_url: `${sampleOrigin}/media/categories/${category.slug}.png`,
      });
      createMetafield(
        state,
        'category',
        created.category_id,
        {
          namespace: 'merchandising',
          key: 'banner',
          value: 'Winter sale',
          permission_set: 'write',
          description: 'Banner shown above the category',
        },
        now,
      );
    }
  });
  // A third level with a name in other scripts.
  const firstLeaf = sample.categories.find((c) => c.parentKey !== null);
  const leafId = firstLeaf ? categoryIds.get(firstLeaf.key) : undefined;
  if (leafId !== undefined) {
    createCategory(ctx, {
      name: 'Édition limitée 限定版 ✨',
      parent_id: leafId,
      tree_id: 1,
      description: '<p>Nur solange der Vorrat reicht — 数量限定。</p>',
      sort_order: 0,
      is_visible: true,
      url: { path: '/limited-edition/', is_customized: true },
    });
  }

  // ------------------------------------------------------------------ products
  // Brands as BigCommerce holds them: no description or position (a brand has neither), the logo
  // re-hosted, the page under /brands/. A vendor without a brand record is made by its products.
  const brandIds = new Map<string, number>();
  for (const b of [...sample.brands].sort((x, y) => x.position - y.position)) {
    const brand = createBrand(ctx, {
      name: b.name,
      ...(b.seoTitle ? { page_title: b.seoTitle } : {}),
      ...(b.seoDescription ? { meta_description: b.seoDescription } : {}),
      ...(b.logoPath ? { image_url: `${sampleOrigin}${b.logoPath}` } : {}),
      ...(b.seoTitle ? { meta_keywords: [b.name.toLowerCase()], search_keywords: b.slug } : {}),
      custom_url: { url: `/brands/${b.slug}/`, is_customized: true },
    });
    brandIds.set(b.name, brand.id);
  }
  const firstBrand = sample.brands[0] && brandIds.get(sample.brands[0].name);
  if (firstBrand !== undefined) {
    createMetafield(
      state,
      'brand',
      firstBrand,
      { namespace: 'brand_story', key: 'founded', value: '1987', permission_set: 'write' },
      ctx.now(),
    );
  }
  for (const vendor of new Set(sample.products.map((p) => p.vendor))) {
    if (vendor && !brandIds.has(vendor))
      brandIds.set(vendor, createBrand(ctx, { name: vendor }).id);
  }

  const variantIds = new Map<string, { productId: number; variantId: number }>();
  const created: BcProduct[] = [];
  let optionProducts = 0;
  sample.products.forEach((p: SampleProduct, index) => {
    const i = index + 1;
    const first = p.variants[0];
    if (!first) throw new Error(`sample product ${p.key} without variants`);
    const hasOptions = p.options.length > 0;
    const prices = (v: (typeof p.variants)[number]) =>
      v.compareAtPrice
        ? { price: Number(v.compareAtPrice), sale_price: Number(v.price) }
        : { price: Number(v.price), sale_price: 0 };
    const base = prices(first);
    const details = productDetails(i, base.price);
    const name = i === 2 ? `${p.name} — 日本製 🎁` : p.name;
    const customFields = Object.entries(p.attributes).map(([fieldName, value]) => ({
      name: fieldName,
      value,
    }));
    // A multi-valued field: BigCommerce repeats the name.
    if (i % 4 === 0) customFields.push({ name: 'material', value: 'recycled packaging' });
    if (i === 5) customFields.push({ name: 'Pflege', value: 'Handwäsche 30 °C' });
    const product = createProduct(ctx, {
      name,
      type: 'physical',
      sku: p.sku,
      description: p.descriptionHtml,
      weight: toWeight(first.weightKg),
      width: toLength(p.dimensionsCm.width),
      depth: toLength(p.dimensionsCm.length),
      height: toLength(p.dimensionsCm.height),
      ...base,
      categories: p.categoryKeys.map((k) => categoryIds.get(k) ?? 0).filter((id) => id > 0),
      brand_id: brandIds.get(p.vendor) ?? 0,
      inventory_tracking: hasOptions ? 'variant' : 'product',
      inventory_level: hasOptions ? 0 : first.stock,
      inventory_warning_level: !hasOptions && i % 3 === 2 ? 5 : undefined,
      is_visible: p.status === 'active',
      availability: 'available',
      search_keywords: p.tags.join(','),
      page_title: p.seoTitle,
      meta_description: p.seoDescription,
      custom_url: { url: `/${p.slug}/`, is_customized: i !== 11 },
      custom_fields: customFields,
      images: p.images.map((image, k) => ({
        image_url: `${sampleOrigin}${image.path}`,
        description: i === 3 && k === 0 ? `${image.alt} — vue de face, 正面` : image.alt,
        sort_order: k,
        is_thumbnail: k === 0,
      })),
      ...details,
      // Variants inherit what equals the product's (null), as the control panel leaves them.
      variants: hasOptions
        ? p.variants.map((v, k) => {
            const own = prices(v);
            return {
              sku: v.sku,
              price: own.price === base.price ? null : own.price,
              sale_price: own.sale_price === base.sale_price ? null : own.sale_price,
              weight: k % 3 === 1 ? null : toWeight(v.weightKg),
              inventory_level: v.stock,
              option_values: p.options.map((o) => ({
                option_display_name: o.name,
                label: v.optionValues[o.name] ?? '',
              })),
              ...variantDetails(i, k),
            };
          })
        : undefined,
    });
    product.date_created = Date.parse(p.createdAt);
    created.push(product);
    for (const v of product.variants) {
      variantIds.set(v.option_value_ids.length ? v.sku : product.sku, {
        productId: product.id,
        variantId: v.id,
      });
    }
    if (i % 4 === 1) {
      createMetafield(
        state,
        'product',
        product.id,
        { namespace: 'specs', key: 'origin', value: 'Portugal', permission_set: 'write' },
        now,
      );
    }
    if (i === 2) {
      createMetafield(
        state,
        'product',
        product.id,
        {
          namespace: 'storefront',
          key: 'badge',
          value: '{"text":"New","color":"#c00"}',
          permission_set: 'read_and_sf_access',
          description: 'Badge shown on product cards',
        },
        now,
      );
    }
    if (hasOptions) {
      optionProducts += 1;
      const variant = product.variants[0];
      if (variant && optionProducts <= 2) {
        createMetafield(
          state,
          'variant',
          variant.id,
          {
            namespace: 'fulfilment',
            key: 'warehouse',
            value: 'Lisbon',
            permission_set: optionProducts === 1 ? 'write' : 'read',
            description: optionProducts === 1 ? 'Where it ships from' : '',
          },
          now,
        );
      }
      const [firstOption, secondOption] = product.options;
      if (optionProducts === 1 && firstOption) {
        // A swatch with colours and a preselected value.
        updateOption(ctx, product, firstOption, {
          product_id: product.id,
          display_name: firstOption.display_name,
          type: 'swatch',
          option_values: firstOption.option_values.map((value, k) => ({
            id: value.id,
            label: value.label,
            sort_order: value.sort_order,
            is_default: k === 1,
            value_data: {
              colors: [
                `#${String(k * 3)
                  .repeat(6)
                  .slice(0, 6)}`,
              ],
            },
          })),
        });
      }
      if (optionProducts === 2 && firstOption) {
        // Values shown in another order than the variants were created in, as a dropdown.
        updateOption(ctx, product, firstOption, {
          product_id: product.id,
          display_name: firstOption.display_name,
          type: 'dropdown',
          option_values: [...firstOption.option_values].reverse().map((value, k) => ({
            id: value.id,
            label: value.label,
            sort_order: k,
            is_default: false,
          })),
        });
      }
      if (optionProducts === 3 && secondOption) {
        updateOption(ctx, product, secondOption, {
          product_id: product.id,
          display_name: secondOption.display_name,
          type: 'radio_buttons',
          option_values: secondOption.option_values.map((value) => ({
            id: value.id,
            label: value.label,
            sort_order: value.sort_order,
            is_default: value.sort_order === 0,
          })),
        });
      }
    }
    if (i === 3) {
      // A modifier: a choice that makes no variant (an engraving text).
      product.modifiers.push({
        id: state.nextId('option', 100),
        product_id: product.id,
        name: `Engraving${product.id}`,
        display_name: 'Engraving',
        type: 'text',
        required: false,
        sort_order: 0,
        config: { text_characters_limited: true, text_min_length: 0, text_max_length: 20 },
        option_values: [],
      });
    }
  });
  // Related products point at earlier ones; the rest keep BigCommerce's automatic choice (-1).
  created.forEach((product, index) => {
    const i = index + 1;
    if (i % 5 === 0 && index >= 2) {
      product.related_products = [created[index - 1]?.id ?? 0, created[index - 2]?.id ?? 0];
    }
    if (i === 7) product.related_products = [];
  });

  // ------------------------------------------------------------------ customers
  const [tier, shoeSize, birthday] = createAttributes(
    state,
    [
      { name: 'Loyalty tier', type: 'string' },
      { name: 'Shoe size', type: 'number' },
      { name: 'Birthday', type: 'date' },
    ],
    now,
  );
  const customerDetails = (j: number): Partial<CustomerCreate> => {
    const d: Partial<CustomerCreate> = {};
    if (j % 3 === 1) d.company = `${['Acme', 'Globex', 'Initech'][j % 3] ?? 'Acme'} Ltd`;
    if (j % 4 === 2 && tier && shoeSize)
      d.attributes = [
        { attribute_id: tier.id, attribute_value: j % 8 === 2 ? 'Gold' : 'Silver' },
        { attribute_id: shoeSize.id, attribute_value: String(36 + j) },
      ];
    if (j === 1 && birthday)
      d.attributes = [{ attribute_id: birthday.id, attribute_value: '1990-05-17' }];
    if (j % 5 === 3) d.store_credit_amounts = [{ amount: 25 }];
    if (j === 4) d.tax_exempt_category = 'E';
    if (j % 6 === 5)
      d.form_fields = [
        { name: 'How did you hear about us?', value: 'A friend' },
        { name: 'Interests', value: ['running', 'hiking'] },
      ];
    if (j === 2) d.customer_group_id = 1;
    return d;
  };
  const customerIds = new Map<string, number>();
  for (let i = 0; i < sample.customers.length; i += 10) {
    const chunk = sample.customers.slice(i, i + 10);
    const customers = createCustomers(
      state,
      chunk.map((c, k) => {
        const j = i + k + 1;
        return {
          email: c.email,
          first_name: j === 3 ? 'Søren 健' : c.firstName,
          last_name: c.lastName,
          phone: c.phone,
          notes: c.note,
          accepts_product_review_abandoned_cart_emails: c.acceptsMarketing,
          addresses: c.addresses.map((a, n) => ({
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
            address_type: a.company ? ('commercial' as const) : ('residential' as const),
            form_fields:
              j === 6 && n === 0 ? [{ name: 'Delivery instructions', value: 'Side door' }] : [],
          })),
          ...customerDetails(j),
        };
      }),
      now,
    );
    customers.forEach((customer, k) => {
      const source = chunk[k];
      if (!source) return;
      const j = i + k + 1;
      customer.date_created = Date.parse(source.createdAt);
      customer.date_modified = customer.date_created;
      if (j % 3 === 2) customer.registration_ip_address = `203.0.113.${j}`;
      customer.consent = {
        allow: source.acceptsMarketing
          ? ['essential', 'functional', 'analytics', 'targeting']
          : ['essential', 'functional'],
        deny: source.acceptsMarketing ? [] : ['analytics', 'targeting'],
        updated_at: customer.date_created,
      };
      if (j % 4 === 3) {
        createMetafield(
          state,
          'customer',
          customer.id,
          {
            namespace: 'crm',
            key: 'segment',
            value: 'returning',
            permission_set: 'write',
            description: j === 3 ? 'Segment from the CRM' : '',
          },
          now,
        );
      }
      customerIds.set(source.key, customer.id);
    });
  }

  // ------------------------------------------------------------------ coupons
  const productIds = new Map(sample.products.map((p, index) => [p.key, created[index]?.id ?? 0]));
  const couponIds = new Map<string, number>();
  sample.coupons.forEach((c, index) => {
    const coupon = createCoupon(ctx, couponInput(c, index, { categoryIds, productIds }));
    coupon.num_uses = c.usageCount;
    coupon.date_created = Date.parse(c.createdAt);
    couponIds.set(c.code.toLowerCase(), coupon.id);
  });

  // ------------------------------------------------------------------ orders
  // A product that is sold once and then deleted: its order line stays, without a product.
  const gone = createProduct(ctx, {
    name: 'Discontinued Sample Lamp',
    type: 'physical',
    sku: 'RP-GONE-1',
    weight: 1.2,
    price: 39,
  });

  sample.orders.forEach((o, index) => {
    const n = index + 1;
    if (o.lines.length === 0) return;
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
    const lines: NonNullable<OrderCreate['products']> = o.lines.map((line) => {
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
    if (n === 2) lines.push({ product_id: gone.id, quantity: 1, name: gone.name });
    const shipping = toUnits(o.shipping.price);
    const shippingAddresses: NonNullable<OrderCreate['shipping_addresses']> = [
      { ...address(o.shippingAddress), shipping_method: o.shipping.title },
    ];
    const paid = o.status === 'completed' || o.status === 'processing' || o.status === 'refunded';
    const order = createOrder(ctx, {
      billing_address: address(o.billing),
      shipping_addresses: shippingAddresses,
      products: lines,
      customer_id: o.customerKey ? (customerIds.get(o.customerKey) ?? 0) : 0,
      status_id: statusIds[o.status],
      date_created: new Date(o.createdAt).toUTCString(),
      shipping_cost_ex_tax: shipping,
      shipping_cost_inc_tax: shipping,
      items_shipped: o.status === 'completed' ? o.lines.reduce((s, l) => s + l.quantity, 0) : 0,
      customer_message: o.note,
      payment_method: n % 4 === 3 ? 'Bank Deposit' : 'Credit Card',
      ...(paid ? { payment_provider_id: `ch_${String(n).padStart(6, '0')}` } : {}),
      default_currency_code: n === 5 ? 'EUR' : o.currency,
      ...(n % 3 === 1 ? { ip_address: `198.51.100.${n}` } : {}),
      ...(n === 3
        ? { ip_address_v6: '2001:db8::7', geoip_country: 'Germany', geoip_country_iso2: 'DE' }
        : {}),
      ...(n === 4 ? { customer_locale: 'fr-FR', order_is_digital: true } : {}),
      order_source: n === 6 ? 'manual' : 'www',
      ...(n % 3 === 2
        ? {
            staff_notes: `Checked stock by phone (order ${n}).\nCustomer asked for a gift receipt.`,
          }
        : {}),
      ...(n === 1
        ? {
            fees: [
              {
                type: 'custom_fee',
                display_name_customer: 'Gift wrap',
                cost_ex_tax: toUnits(4),
                cost_inc_tax: toUnits(4.32),
                tax_class_id: 2,
              },
            ],
          }
        : {}),
      ...(n === 3
        ? {
            fees: [
              {
                type: 'custom_fee',
                display_name_customer: 'Loyalty credit',
                cost_ex_tax: toUnits(-2.5),
                cost_inc_tax: toUnits(-2.5),
              },
            ],
          }
        : {}),
      ...(n === 4
        ? { handling_cost_ex_tax: toUnits(3), handling_cost_inc_tax: toUnits(3.24) }
        : {}),
      ...(n === 6 ? { wrapping_cost_ex_tax: toUnits(2), wrapping_cost_inc_tax: toUnits(2) } : {}),
      ...(n === 5 ? { discount_amount: toUnits(1.5) } : {}),
      ...(n === 7
        ? {
            external_source: 'POS (Square)',
            external_order_id: 'SQ-7731',
            external_merchant_id: 'MERCH-1',
          }
        : {}),
    });
    order.payment_status = paymentStatuses[o.status];
    order.date_modified = order.date_created;
    if (o.discount) {
      order.coupons.push({
        id: state.nextId('order_coupon', 1),
        coupon_id: couponIds.get(o.discount.code.toLowerCase()) ?? 0,
        code: o.discount.code,
        // BigCommerce takes a coupon off the items at most: a basket never goes below zero.
        amount: Math.min(toUnits(o.discount.amount), order.subtotal_ex_tax),
        type: 2,
      });
    }
    totals(order);
    if (o.status === 'refunded') order.refunded_amount = order.total_inc_tax;
    if (n === 1 && o.status !== 'refunded') {
      // Partly refunded: one unit of the first line given back.
      const line = order.products[0];
      if (line) {
        line.quantity_refunded = 1;
        order.refunded_amount = line.price_inc_tax;
        order.status_id = 14;
        order.payment_status = 'partially refunded';
      }
    }
  });
  deleteProduct(ctx, gone);

  // ------------------------------------------------------------------ reviews
  for (const r of sample.reviews) {
    const product = state.product(productIds.get(r.productKey) ?? 0);
    if (!product) continue;
    createReview(ctx, product, reviewInput(r), Date.parse(r.createdAt));
  }
  seedContent(ctx, sample);
}

/**
 * Web pages and blog posts as BigCommerce holds them. Pages have no author, dates, excerpt or
 * featured image; a draft is a hidden page; the contact page is BigCommerce's contact form. Posts
 * have no categories, SEO title or alternative text; a draft is unpublished and keeps a date (every
 * post has one); a featured image is a file in the store's /product_images/ folder.
 */
function seedContent(ctx: CatalogContext, sample: SampleStore): void {
  const pageIds = new Map<string, number>();
  for (const p of sample.pages) {
    const parent = p.parentKey === null ? 0 : pageIds.get(p.parentKey);
    if (parent === undefined) throw new Error(`sample page ${p.key} before its parent`);
    const contact = p.key === 'page-contact';
    const page = createPage(ctx, {
      name: p.title,
      type: contact ? 'contact_form' : 'page',
      body: p.body,
      url: `/${p.slug}/`,
      parent_id: parent,
      sort_order: p.position,
      is_visible: p.status === 'published',
      meta_title: p.seoTitle,
      meta_description: p.seoDescription,
      ...(contact ? { email: 'hello@example.com', contact_fields: 'fullname,phone' } : {}),
    });
    pageIds.set(p.key, page.id);
  }
  for (const p of sample.posts) {
    const date = p.publishedAt ?? p.createdAt;
    createPost(ctx, {
      title: p.title,
      body: p.body,
      url: `/blog/${p.slug}/`,
      tags: p.tags,
      is_published: p.status === 'published',
      published_date: new Date(date).toUTCString().replace('GMT', '+0000'),
      author: p.authorName,
      meta_description: p.seoDescription,
      meta_keywords: p.tags.join(','),
      thumbnail_path: p.imagePath
        ? `/product_images/uploaded_images/${p.imagePath.split('/').at(-1) ?? ''}`
        : '',
    });
  }
}

/**
 * A sample review as BigCommerce holds it: its text as plain text (the storefront shows a
 * review's text with its markup stripped), rejected and spam reviews disapproved (BigCommerce has
 * no spam state), and no buyer flag (BigCommerce has none). BigCommerce requires a title, so a
 * review the sample gives no headline has the first sentence of its text, as a merchant entering
 * it would have had to give one.
 */
function reviewInput(r: SampleReview): ReviewCreate {
  const text = plainText(r.body);
  return {
    title: r.title || headline(text),
    text,
    status: r.status === 'approved' || r.status === 'pending' ? r.status : 'disapproved',
    rating: r.rating ?? 0,
    ...(r.reviewerEmail ? { email: r.reviewerEmail } : {}),
    name: r.reviewerName,
    date_reviewed: Date.parse(r.createdAt),
  };
}

const entities: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  '#39': "'",
  nbsp: ' ',
};

/** The sample's HTML as plain text: paragraphs apart by a blank line, tags and entities gone. */
function plainText(html: string): string {
  return html
    .replace(/\s+/g, ' ')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/p>\s*<p[^>]*>/gi, '\n\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_m, name: string) => entities[name] ?? '')
    .split('\n')
    .map((line) => line.trim())
    .join('\n')
    .trim();
}

/** The first sentence of a text (at most 80 characters, cut at a word). */
function headline(text: string): string {
  const first = text.split('\n')[0] ?? '';
  const sentence = /^.+?[.!?](?=\s|$)/u.exec(first)?.[0] ?? first;
  if (sentence.length <= 80) return sentence;
  const cut = sentence.slice(0, 80);
  return cut.slice(0, cut.lastIndexOf(' ') > 0 ? cut.lastIndexOf(' ') : 80);
}

/**
 * A sample coupon as BigCommerce holds it. What BigCommerce has no field for (start date, maximum
 * spend, exclusions, allowed e-mails, individual use, sale items, item limit) is left out, as a
 * merchant could not have set it; the description is the coupon's name (names are unique, as the
 * sample's descriptions are). BigCommerce's own country and shipping-method limits, which the
 * neutral sample knows nothing of, go on the second and fourth coupons.
 */
function couponInput(
  c: SampleCoupon,
  index: number,
  ids: { categoryIds: Map<string, number>; productIds: Map<string, number> },
): CouponCreate {
  const amount = toUnits(c.amount);
  const type =
    c.discountType === 'percent'
      ? 'percentage_discount'
      : c.discountType === 'fixed_product'
        ? 'per_item_discount'
        : amount === 0 && c.freeShipping
          ? 'free_shipping'
          : 'per_total_discount';
  const lookUp = (keys: string[], map: Map<string, number>) =>
    keys.map((k) => map.get(k) ?? 0).filter((id) => id > 0);
  const applies =
    c.productKeys.length > 0
      ? { entity: 'products' as const, ids: lookUp(c.productKeys, ids.productIds) }
      : c.categoryKeys.length > 0
        ? { entity: 'categories' as const, ids: lookUp(c.categoryKeys, ids.categoryIds) }
        : { entity: 'categories' as const, ids: [0] };
  return {
    name: c.description || c.code,
    code: c.code,
    type,
    amount,
    min_purchase: c.minimumSpend === null ? 0 : toUnits(c.minimumSpend),
    expires: c.expiresAt === null ? '' : v2Date(Date.parse(c.expiresAt)),
    enabled: c.enabled,
    applies_to: applies,
    max_uses: c.usageLimit ?? 0,
    max_uses_per_customer: c.usageLimitPerCustomer ?? 0,
    ...(index === 1 ? { restricted_to: { countries: 'US' } } : {}),
    ...(index === 3 ? { shipping_methods: ['shipping_flatrate'] } : {}),
  };
}

/** What the customer paid: items and charges, less coupons and the manual discount. */
function totals(order: BcOrder): void {
  const coupons = order.coupons.reduce((s, c) => s + c.amount, 0);
  const feesEx = order.fees.reduce((s, f) => s + f.cost_ex_tax, 0);
  const feesInc = order.fees.reduce((s, f) => s + f.cost_inc_tax, 0);
  order.total_ex_tax =
    order.subtotal_ex_tax +
    order.shipping_cost_ex_tax +
    order.handling_cost_ex_tax +
    order.wrapping_cost_ex_tax +
    feesEx -
    coupons -
    order.discount_amount;
  order.total_inc_tax =
    order.subtotal_inc_tax +
    order.shipping_cost_inc_tax +
    order.handling_cost_inc_tax +
    order.wrapping_cost_inc_tax +
    feesInc -
    coupons -
    order.discount_amount;
}
