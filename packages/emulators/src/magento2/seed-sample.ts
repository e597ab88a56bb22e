import type {
  SampleAddress,
  SampleCoupon,
  SamplePage,
  SampleProduct,
  SampleStore,
} from '../framework/sample-store.ts';
import { DEFAULT_ATTRIBUTE_SET_ID, DEFAULT_CATEGORY_ID } from './catalog.ts';
import { regionByCodeOrName } from './directory.ts';
import { formatUrlKey, magentoTime, type Json } from './input.ts';
import { routeFrontNames } from './cms-pages.ts';
import type { MagentoStore } from './store.ts';

/**
 * Fills a MagentoStore with the platform-neutral sample store, in Magento's own shapes: option
 * products become configurable parents with one simple child per variant (not visible
 * individually, carrying the option attribute values), sale prices become special_price under
 * the regular price, vendors become manufacturer options, orders keep Magento's parent/child item
 * pairs for configurable lines. Everything goes through the same code paths as API writes.
 */

export function attributeCodeFor(name: string): string {
  const code = formatUrlKey(name).replace(/-/g, '_');
  return /^[a-z]/.test(code) ? code.slice(0, 60) : `attr_${code}`.slice(0, 60);
}

const money = (n: number) => Math.round(n * 100) / 100;

function mediaFile(path: string): string {
  const name = path.split('/').pop() ?? 'image.png';
  return `/${name[0] ?? 'i'}/${name[1] ?? '_'}/${name}`;
}

/** Ids the seeded records got, by the sample's keys (variants by SKU). */
export interface SeededIds {
  categories: Map<string, number>;
  products: Map<string, number>;
  variants: Map<string, number>;
  customers: Map<string, number>;
  orders: Map<string, number>;
}

export function seedFromSample(store: MagentoStore, sample: SampleStore): SeededIds {
  const { catalog, customers, sales } = store;
  store.settings.baseCurrency = sample.currency;
  const categoryIds = new Map<string, number>();
  for (const c of sample.categories) {
    const parent = c.parentKey ? categoryIds.get(c.parentKey) : DEFAULT_CATEGORY_ID;
    const saved = catalog.saveCategory({
      category: {
        name: c.name,
        parent_id: parent ?? DEFAULT_CATEGORY_ID,
        is_active: true,
        include_in_menu: true,
        position: c.position + 1,
        custom_attributes: [
          { attribute_code: 'url_key', value: c.slug },
          { attribute_code: 'description', value: c.description },
        ],
      },
    });
    categoryIds.set(c.key, saved.id);
  }

  // Brands are the manufacturer attribute's options, in the order of the store's brand list;
  // Magento keeps no description, logo or SEO fields for an option. A store without brand
  // records still gets an option per vendor its products name (a product's manufacturer is one).
  const manufacturer = catalog.attributes.get('manufacturer');
  for (const b of [...sample.brands].sort((x, y) => x.position - y.position)) {
    const value = catalog.seedOption('manufacturer', b.name);
    const option = manufacturer?.options.find((o) => o.value === value);
    if (option) option.sort_order = b.position;
  }

  for (const p of sample.products) {
    for (const option of p.options) {
      const code = attributeCodeFor(option.name);
      catalog.seedAttribute(code, option.name, 'select');
      for (const value of option.values) catalog.seedOption(code, value);
    }
    for (const key of Object.keys(p.attributes))
      catalog.seedAttribute(attributeCodeFor(key), key, 'text');
  }

  const productIds = new Map<string, number>();
  const variantIds = new Map<string, number>();
  for (const p of sample.products) {
    const links = p.categoryKeys.flatMap((key) => {
      const id = categoryIds.get(key);
      return id === undefined ? [] : [{ category_id: String(id), position: 0 }];
    });
    const common = (extra: Json[]): Json[] => [
      ...extra,
      { attribute_code: 'manufacturer', value: catalog.seedOption('manufacturer', p.vendor) },
      ...Object.entries(p.attributes).map(([key, value]) => ({
        attribute_code: attributeCodeFor(key),
        value,
      })),
    ];
    const status = p.status === 'active' ? 1 : 2;
    const describe = [
      { attribute_code: 'description', value: p.descriptionHtml },
      { attribute_code: 'short_description', value: p.shortDescriptionHtml },
      { attribute_code: 'meta_title', value: p.seoTitle },
      { attribute_code: 'meta_description', value: p.seoDescription },
      { attribute_code: 'url_key', value: p.slug },
    ];
    if (!p.options.length) {
      const variant = p.variants[0];
      if (!variant) continue;
      const { product } = catalog.saveProduct({
        product: {
          sku: p.sku,
          name: p.name,
          attribute_set_id: DEFAULT_ATTRIBUTE_SET_ID,
          ...prices(variant.price, variant.compareAtPrice),
          status,
          visibility: 4,
          type_id: 'simple',
          weight: weightIn(variant.weightKg, store.settings.weightUnit),
          extension_attributes: {
            website_ids: [1],
            category_links: links,
            stock_item: { qty: variant.stock, is_in_stock: variant.stock > 0 },
          },
          custom_attributes: common([
            ...describe,
            ...specialPrice(variant.price, variant.compareAtPrice),
          ]),
        },
      });
      seedImages(store, product.id, p);
      productIds.set(p.key, product.id);
      variantIds.set(variant.sku, product.id);
      continue;
    }
    const childIds: number[] = [];
    for (const variant of p.variants) {
      const values = p.options.map((o) => variant.optionValues[o.name] ?? '');
      const { product: child } = catalog.saveProduct({
        product: {
          sku: variant.sku,
          name: `${p.name}-${values.join('-')}`,
          attribute_set_id: DEFAULT_ATTRIBUTE_SET_ID,
          ...prices(variant.price, variant.compareAtPrice),
          status,
          visibility: 1,
          type_id: 'simple',
          weight: weightIn(variant.weightKg, store.settings.weightUnit),
          extension_attributes: {
            website_ids: [1],
            category_links: links,
            stock_item: { qty: variant.stock, is_in_stock: variant.stock > 0 },
          },
          custom_attributes: [
            { attribute_code: 'url_key', value: `${p.slug}-${formatUrlKey(values.join('-'))}` },
            ...specialPrice(variant.price, variant.compareAtPrice),
            ...p.options.map((o) => ({
              attribute_code: attributeCodeFor(o.name),
              value: catalog.seedOption(
                attributeCodeFor(o.name),
                variant.optionValues[o.name] ?? '',
              ),
            })),
          ],
        },
      });
      childIds.push(child.id);
      variantIds.set(variant.sku, child.id);
    }
    const { product } = catalog.saveProduct({
      product: {
        sku: p.sku,
        name: p.name,
        attribute_set_id: DEFAULT_ATTRIBUTE_SET_ID,
        price: 0,
        status,
        visibility: 4,
        type_id: 'configurable',
        extension_attributes: {
          website_ids: [1],
          category_links: links,
          stock_item: { qty: 0, is_in_stock: true },
          configurable_product_options: p.options.map((o, position) => {
            const attribute = catalog.getAttribute(attributeCodeFor(o.name));
            return {
              attribute_id: String(attribute.attribute_id),
              label: o.name,
              position,
              values: o.values.map((v) => ({
                value_index: Number(catalog.seedOption(attribute.attribute_code, v)),
              })),
            };
          }),
          configurable_product_links: childIds,
        },
        custom_attributes: common(describe),
      },
    });
    seedImages(store, product.id, p);
    productIds.set(p.key, product.id);
  }

  const customerIds = new Map<string, number>();
  for (const c of sample.customers) {
    const saved = customers.save({
      customer: {
        email: c.email,
        firstname: c.firstName,
        lastname: c.lastName,
        created_at: c.createdAt,
        website_id: 1,
        store_id: 1,
        addresses: c.addresses.map((a) => ({
          ...customerAddress(a),
          default_billing: a.defaultBilling,
          default_shipping: a.defaultShipping,
        })),
      },
    });
    // Seeded subscribers were subscribed long ago: no e-mail goes out for them now.
    saved.is_subscribed = c.acceptsMarketing;
    customerIds.set(c.key, saved.id);
  }

  const productsByKey = new Map(sample.products.map((p) => [p.key, p]));
  const orderIds = new Map<string, number>();
  for (const o of sample.orders) {
    if (!o.lines.length) continue;
    const items: Json[] = [];
    let subtotal = 0;
    let tax = 0;
    const shipped = o.status === 'completed' || o.status === 'refunded';
    for (const line of o.lines) {
      const product = productsByKey.get(line.productKey);
      const unit = Number(line.unitPrice);
      const rowTotal = money(unit * line.quantity);
      const lineTax = Number(line.tax);
      subtotal += rowTotal;
      tax += lineTax;
      const parentId = productIds.get(line.productKey);
      const childId = variantIds.get(line.variantSku);
      const base: Json = {
        sku: line.sku,
        name: line.name,
        qty_ordered: line.quantity,
        qty_shipped: shipped ? line.quantity : 0,
        qty_invoiced: o.status === 'pending' || o.status === 'cancelled' ? 0 : line.quantity,
        qty_refunded: o.status === 'refunded' ? line.quantity : 0,
        qty_canceled: o.status === 'cancelled' ? line.quantity : 0,
        price: unit,
        base_price: unit,
        original_price: unit,
        row_total: rowTotal,
        base_row_total: rowTotal,
        tax_amount: lineTax,
        base_tax_amount: lineTax,
        discount_amount: 0,
        price_incl_tax: money(unit + lineTax / line.quantity),
        row_total_incl_tax: money(rowTotal + lineTax),
        is_virtual: 0,
        created_at: magentoTime(o.createdAt),
        updated_at: magentoTime(o.createdAt),
      };
      if (product?.options.length) {
        const parent: Json = {
          ...base,
          product_id: parentId,
          product_type: 'configurable',
          product_option: {
            extension_attributes: {
              configurable_item_options: product.options.map((option) => {
                const attribute = store.catalog.getAttribute(attributeCodeFor(option.name));
                const variant = product.variants.find((v) => v.sku === line.variantSku);
                return {
                  option_id: String(attribute.attribute_id),
                  option_value: Number(
                    store.catalog.seedOption(
                      attribute.attribute_code,
                      variant?.optionValues[option.name] ?? '',
                    ),
                  ),
                };
              }),
            },
          },
        };
        items.push(parent, {
          ...base,
          product_id: childId,
          product_type: 'simple',
          price: 0,
          base_price: 0,
          original_price: 0,
          row_total: 0,
          base_row_total: 0,
          tax_amount: 0,
          base_tax_amount: 0,
          price_incl_tax: 0,
          row_total_incl_tax: 0,
          parent_item: parent,
        });
      } else {
        items.push({ ...base, product_id: parentId, product_type: 'simple' });
      }
    }
    subtotal = money(subtotal);
    tax = money(tax);
    const shipping = Number(o.shipping.price);
    const discount = o.discount ? Number(o.discount.amount) : 0;
    const grand = money(subtotal - discount + shipping + tax);
    const [state, status] = stateOf(o.status);
    const paid = ['processing', 'on-hold', 'completed', 'refunded'].includes(o.status) ? grand : 0;
    const customerId = o.customerKey ? customerIds.get(o.customerKey) : undefined;
    const saved = sales.insertSeeded(
      {
        increment_id: o.number.padStart(9, '0'),
        store_id: 1,
        store_name: `Main Website\n${store.settings.storeName}\n${store.settings.storeViewName}`,
        state,
        status,
        created_at: magentoTime(o.createdAt),
        updated_at: magentoTime(o.createdAt),
        customer_email: o.email,
        customer_firstname: o.billing.firstName,
        customer_lastname: o.billing.lastName,
        customer_is_guest: customerId === undefined ? 1 : 0,
        ...(customerId === undefined ? {} : { customer_id: customerId, customer_group_id: 1 }),
        customer_note: o.note,
        base_currency_code: o.currency,
        base_to_global_rate: 1,
        base_to_order_rate: 1,
        store_to_base_rate: 0,
        store_to_order_rate: 0,
        order_currency_code: o.currency,
        store_currency_code: o.currency,
        global_currency_code: o.currency,
        subtotal,
        base_subtotal: subtotal,
        tax_amount: tax,
        base_tax_amount: tax,
        shipping_amount: shipping,
        base_shipping_amount: shipping,
        shipping_tax_amount: 0,
        shipping_incl_tax: shipping,
        shipping_description: o.shipping.title,
        discount_amount: -discount,
        base_discount_amount: -discount,
        ...(o.discount
          ? { coupon_code: o.discount.code, discount_description: o.discount.code }
          : {}),
        grand_total: grand,
        base_grand_total: grand,
        total_paid: paid,
        base_total_paid: paid,
        total_invoiced: paid,
        total_due: money(grand - paid),
        total_refunded: o.status === 'refunded' ? grand : 0,
        total_canceled: o.status === 'cancelled' ? grand : 0,
        total_qty_ordered: o.lines.reduce((n, l) => n + l.quantity, 0),
        total_item_count: o.lines.length,
        email_sent: 1,
        billing_address: orderAddress(o.billing, o.email, 'billing'),
        payment: {
          method: 'checkmo',
          account_status: '',
          additional_information: ['Check / Money order'],
          cc_last4: '',
          amount_ordered: grand,
          amount_paid: paid,
        },
        extension_attributes: {
          shipping_assignments: [
            {
              shipping: {
                address: orderAddress(o.shippingAddress, o.email, 'shipping'),
                method: o.shipping.code,
                total: {
                  shipping_amount: shipping,
                  base_shipping_amount: shipping,
                  shipping_tax_amount: 0,
                },
              },
            },
          ],
        },
      },
      items,
    );
    orderIds.set(o.key, Number(saved.entity_id));
  }
  for (const coupon of sample.coupons) seedCoupon(store, coupon, categoryIds, productsByKey);
  for (const page of sample.pages) seedPage(store, page);
  return {
    categories: categoryIds,
    products: productIds,
    variants: variantIds,
    customers: customerIds,
    orders: orderIds,
  };
}

const productCondition = 'Magento\\SalesRule\\Model\\Rule\\Condition\\Product';

/**
 * A sample coupon as a merchant sets it up in Marketing > Cart Price Rules: a rule with a specific
 * coupon for every customer group of the main website, spend limits as subtotal conditions, and
 * product and category limits as conditions on the items the discount applies to. Allowed
 * e-mails and sale-item exclusion have no field in Magento and are left out.
 */
function seedCoupon(
  store: MagentoStore,
  coupon: SampleCoupon,
  categoryIds: ReadonlyMap<string, number>,
  productsByKey: ReadonlyMap<string, SampleProduct>,
): void {
  const subtotal = (operator: string, value: string | null): Json[] =>
    value === null
      ? []
      : [
          {
            condition_type: 'Magento\\SalesRule\\Model\\Rule\\Condition\\Address',
            attribute_name: 'base_subtotal',
            operator,
            value,
          },
        ];
  const items = (attribute: string, operator: string, values: string[]): Json[] =>
    values.length
      ? [
          {
            condition_type: productCondition,
            attribute_name: attribute,
            operator,
            value: values.join(', '),
          },
        ]
      : [];
  const skus = (keys: string[]) => keys.flatMap((k) => productsByKey.get(k)?.sku ?? []);
  const categories = (keys: string[]) => keys.flatMap((k) => String(categoryIds.get(k) ?? []));
  const actions = [
    ...items('sku', '()', skus(coupon.productKeys)),
    ...items('category_ids', '()', categories(coupon.categoryKeys)),
    ...items('sku', '!()', skus(coupon.excludedProductKeys)),
    ...items('category_ids', '!()', categories(coupon.excludedCategoryKeys)),
  ];
  const { rule_id } = store.salesRules.saveRule({
    rule: {
      name: coupon.description || coupon.code,
      description: coupon.description,
      website_ids: [1],
      customer_group_ids: [...store.customers.groups.keys()],
      ...(coupon.startsAt ? { from_date: coupon.startsAt.slice(0, 10) } : {}),
      ...(coupon.expiresAt ? { to_date: coupon.expiresAt.slice(0, 10) } : {}),
      uses_per_customer: coupon.usageLimitPerCustomer ?? 0,
      uses_per_coupon: coupon.usageLimit ?? 0,
      is_active: coupon.enabled,
      condition: {
        condition_type: 'Magento\\SalesRule\\Model\\Rule\\Condition\\Combine',
        aggregator_type: 'all',
        operator: null,
        value: '1',
        conditions: [
          ...subtotal('>=', coupon.minimumSpend),
          ...subtotal('<=', coupon.maximumSpend),
        ],
      },
      action_condition: {
        condition_type: 'Magento\\SalesRule\\Model\\Rule\\Condition\\Product\\Combine',
        aggregator_type: 'all',
        operator: null,
        value: '1',
        conditions: actions,
      },
      stop_rules_processing: coupon.individualUse,
      simple_action: { percent: 'by_percent', fixed_cart: 'cart_fixed', fixed_product: 'by_fixed' }[
        coupon.discountType
      ],
      discount_amount: Number(coupon.amount),
      discount_qty: coupon.itemLimit ?? 0,
      simple_free_shipping: coupon.freeShipping ? '2' : '0',
      coupon_type: 'SPECIFIC_COUPON',
      times_used: coupon.usageCount,
    },
  });
  store.salesRules.saveCoupon({
    coupon: {
      rule_id,
      code: coupon.code,
      times_used: coupon.usageCount,
      is_primary: true,
      type: 0,
      created_at: coupon.createdAt,
    },
  });
}

function prices(price: string, compareAtPrice: string | null): Json {
  return { price: Number(compareAtPrice ?? price) };
}

function specialPrice(price: string, compareAtPrice: string | null): Json[] {
  return compareAtPrice === null ? [] : [{ attribute_code: 'special_price', value: price }];
}

function weightIn(kg: number, unit: 'kgs' | 'lbs'): number {
  return unit === 'kgs' ? kg : Math.round((kg / 0.45359237) * 10000) / 10000;
}

function seedImages(store: MagentoStore, productId: number, p: SampleProduct): void {
  const product = store.catalog.products.get(productId);
  if (!product) return;
  p.images.forEach((image, index) => {
    store.catalog.seedMedia(
      product,
      mediaFile(image.path),
      image.alt,
      index === 0 ? ['image', 'small_image', 'thumbnail'] : [],
    );
  });
}

export function customerAddress(a: SampleAddress): Json {
  const region = regionByCodeOrName(a.countryCode, a.province);
  return {
    firstname: a.firstName,
    lastname: a.lastName,
    company: a.company,
    street: a.address2 ? [a.address1, a.address2] : [a.address1],
    city: a.city,
    postcode: a.postalCode,
    country_id: a.countryCode,
    telephone: a.phone,
    ...(region
      ? {
          region_id: region.id,
          region: { region_id: region.id, region_code: region.code, region: region.name },
        }
      : { region: { region_id: 0, region_code: a.province, region: a.province } }),
  };
}

function orderAddress(a: SampleAddress, email: string, type: 'billing' | 'shipping'): Json {
  const region = regionByCodeOrName(a.countryCode, a.province);
  return {
    address_type: type,
    firstname: a.firstName,
    lastname: a.lastName,
    company: a.company,
    street: a.address2 ? [a.address1, a.address2] : [a.address1],
    city: a.city,
    postcode: a.postalCode,
    country_id: a.countryCode,
    telephone: a.phone,
    email,
    ...(region
      ? { region: region.name, region_code: region.code, region_id: region.id }
      : a.province
        ? { region: a.province, region_code: a.province }
        : {}),
  };
}

function stateOf(status: string): [string, string] {
  switch (status) {
    case 'processing':
      return ['processing', 'processing'];
    case 'on-hold':
      return ['holded', 'holded'];
    case 'completed':
      return ['complete', 'complete'];
    case 'cancelled':
      return ['canceled', 'canceled'];
    case 'refunded':
      return ['closed', 'closed'];
    default:
      return ['new', 'pending'];
  }
}

/**
 * A sample page as a CMS page of all store views, in Magento's shape: no parent (a child page
 * is a top page of its own identifier), no author, excerpt or featured image; the SEO title and
 * description as meta title and description; a draft inactive. An identifier Magento keeps for a
 * storefront route (the sample's 'contact') cannot name a page, so the page is the '-us' form a
 * merchant would give it.
 */
function seedPage(store: MagentoStore, page: SamplePage): void {
  const saved = store.cmsPages.save(
    {
      page: {
        identifier: routeFrontNames.has(page.slug) ? `${page.slug}-us` : page.slug,
        title: page.title,
        content: page.body,
        ...(page.seoTitle ? { meta_title: page.seoTitle } : {}),
        ...(page.seoDescription ? { meta_description: page.seoDescription } : {}),
        page_layout: '1column',
        sort_order: String(page.position),
        active: page.status === 'published',
      },
    },
    [0],
  );
  saved.creation_time = magentoTime(page.createdAt);
  saved.update_time = magentoTime(page.updatedAt);
}
