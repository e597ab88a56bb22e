import type { SampleStore } from '../framework/sample-store.ts';
import { DEFAULT_ATTRIBUTE_SET_ID } from './catalog.ts';
import { isObject, magentoTime, type Json } from './input.ts';
import type { SeededIds } from './seed-sample.ts';
import type { MagentoStore } from './store.ts';

/**
 * What real Magento stores hold besides the neutral sample catalogue, added to a seeded store so
 * that a migration from it meets every field the REST API answers: product types (virtual,
 * downloadable with links and samples, grouped with associated products), scheduled special
 * prices, "new from/to" dates, tax classes, visibilities, stock settings (backorders, notify
 * quantity, unmanaged stock, sale quantity limits), product links (related, up-sell, cross-sell,
 * pointing backwards and forwards), custom options, tier prices, image roles, disabled and
 * private variants, categories with menus, display modes, sort orders and a third level,
 * customers with groups, date of birth, gender, tax/VAT number and custom attributes, and orders
 * with status histories, invoices, credit memos (full, partial, several per order, with
 * reasons), payment methods and transaction ids, custom fees, another currency and a line whose
 * product was deleted since. Every choice is fixed by position, so two seeded stores are equal.
 */

/**
 * What the installation itself has beyond a fresh Magento: attributes a module or the merchant
 * added (the REST API cannot create customer or category attributes), the domains downloadable
 * links may point at (env.php), and a product tax class. A destination meant to receive this
 * store's data needs the same (the conformance suite starts its empty store with it).
 */
export interface Installation {
  customerAttributes: [code: string, label: string, input: string][];
  categoryAttributes: [code: string, label: string, input: string][];
  downloadableDomains: string[];
}

export const sampleInstallation: Installation = {
  customerAttributes: [['loyalty_number', 'Loyalty Number', 'text']],
  categoryAttributes: [['menu_badge', 'Menu Badge', 'text']],
  downloadableDomains: ['downloads.example.com'],
};

export function applyInstallation(store: MagentoStore, installation: Installation): void {
  for (const [code, label, input] of installation.customerAttributes)
    store.customers.installAttribute(code, label, input);
  for (const [code, label, input] of installation.categoryAttributes)
    store.catalog.installCategoryAttribute(code, label, input);
  for (const domain of installation.downloadableDomains)
    store.catalog.downloadableDomains.add(domain);
}

const money = (n: number) => Math.round(n * 100) / 100;

/** A custom fee of a paid order: invoiced with it, not refunded. */
const feeDefaults = (amount: number) => ({
  custom_fee_amount_invoiced: amount,
  base_custom_fee_amount_invoiced: amount,
  custom_fee_amount_refunded: 0,
  base_custom_fee_amount_refunded: 0,
  apply_fee_on_last_invoice: false,
  apply_fee_on_last_creditmemo: false,
});
const at = (iso: string, minutes: number) =>
  magentoTime(new Date(new Date(iso).getTime() + minutes * 60_000));

export function enrichSample(store: MagentoStore, sample: SampleStore, ids: SeededIds): void {
  applyInstallation(store, sampleInstallation);
  enrichCategories(store, ids);
  enrichProducts(store, sample, ids);
  enrichCustomers(store, sample, ids);
  enrichOrders(store, sample, ids);
}

function enrichCategories(store: MagentoStore, ids: SeededIds): void {
  const { catalog } = store;
  const category = (key: string) => {
    const id = ids.categories.get(key);
    return id === undefined ? undefined : catalog.categories.get(id);
  };
  const update = (key: string, fields: Json, custom: Record<string, string>) => {
    const found = category(key);
    if (!found) return;
    catalog.saveCategory(
      {
        category: {
          ...fields,
          custom_attributes: Object.entries(custom).map(([attribute_code, value]) => ({
            attribute_code,
            value,
          })),
        },
      },
      found.id,
    );
  };
  update(
    'cat-apparel',
    { available_sort_by: ['name', 'price'] },
    {
      meta_title: 'Apparel for every day',
      meta_keywords: 'apparel, clothing',
      meta_description: 'Tees, hoodies and jackets.',
      default_sort_by: 'price',
      menu_badge: 'New',
      image: 'apparel.jpg',
    },
  );
  update('cat-gear', { include_in_menu: false }, { display_mode: 'PRODUCTS_AND_PAGE' });
  update('cat-home', {}, { display_mode: 'PAGE', landing_page: '3', page_layout: '2columns-left' });
  update('cat-gear-watches', { is_active: false }, { is_anchor: '0' });
  // A third level under T-Shirts, with a name that is not plain ASCII.
  const tees = category('cat-apparel-t-shirts');
  if (tees) {
    const limited = catalog.saveCategory({
      category: {
        name: 'Limited Editions 🎁',
        parent_id: tees.id,
        is_active: true,
        include_in_menu: true,
        custom_attributes: [
          { attribute_code: 'url_key', value: 'limited-editions' },
          { attribute_code: 'description', value: '<p>Small runs, <em>never</em> restocked.</p>' },
          { attribute_code: 'filter_price_range', value: '25' },
        ],
      },
    });
    ids.categories.set('cat-limited', limited.id);
  }
}

/** Sample products that no order line names: safe to turn into other product kinds. */
function unordered(sample: SampleStore): Set<string> {
  const ordered = new Set(sample.orders.flatMap((o) => o.lines.map((l) => l.productKey)));
  return new Set(
    sample.products.filter((p) => !p.options.length && !ordered.has(p.key)).map((p) => p.key),
  );
}

function enrichProducts(store: MagentoStore, sample: SampleStore, ids: SeededIds): void {
  const { catalog, tax } = store;
  const reduced = tax.create({ taxClass: { class_name: 'Reduced Rate', class_type: 'PRODUCT' } });
  const byKey = (key: string | undefined) => {
    const id = key === undefined ? undefined : ids.products.get(key);
    return id === undefined ? undefined : catalog.products.get(id);
  };
  const simple = sample.products.filter((p) => !p.options.length).map((p) => p.key);
  const variable = sample.products.filter((p) => p.options.length).map((p) => p.key);
  const free = [...unordered(sample)];
  const save = (key: string | undefined, product: Json) => {
    const found = byKey(key);
    if (found) catalog.saveProduct({ product: { sku: found.sku, ...product } });
  };
  const custom = (values: Record<string, string>) =>
    Object.entries(values).map(([attribute_code, value]) => ({ attribute_code, value }));

  // Sale prices with schedules: one running, one in the future, one that ended.
  save(simple[0], {
    custom_attributes: custom({
      special_price: '9.99',
      special_from_date: '2026-01-01 00:00:00',
      special_to_date: '2026-12-31 23:59:59',
      news_from_date: '2026-01-01 00:00:00',
      news_to_date: '2026-03-31 00:00:00',
      meta_keyword: 'bestseller, gift',
      country_of_manufacture: 'DE',
      gift_message_available: '1',
    }),
  });
  save(simple[1], {
    visibility: 2,
    custom_attributes: custom({
      special_price: '5.00',
      special_from_date: '2027-06-01 00:00:00',
      tax_class_id: reduced,
      msrp: '49.00',
      cost: '12.50',
    }),
  });
  save(simple[2], {
    visibility: 3,
    custom_attributes: custom({
      special_price: '3.50',
      special_to_date: '2025-01-31 23:59:59',
      tax_class_id: '0',
      options_container: 'container1',
      page_layout: '1column',
    }),
  });
  save(simple[3], { visibility: 1 });
  // Stock settings: backorders (allowed; allowed and the customer told), a low-stock warning
  // level, unmanaged stock, sale quantity limits, out of stock by hand.
  save(simple[4], {
    extension_attributes: {
      stock_item: { qty: 0, is_in_stock: true, use_config_backorders: false, backorders: 1 },
    },
  });
  save(simple[5], {
    extension_attributes: {
      stock_item: {
        qty: -2,
        is_in_stock: true,
        use_config_backorders: false,
        backorders: 2,
        use_config_notify_stock_qty: false,
        notify_stock_qty: 3,
      },
    },
  });
  save(simple[6], {
    extension_attributes: {
      stock_item: {
        qty: 0,
        is_in_stock: true,
        use_config_manage_stock: false,
        manage_stock: false,
      },
    },
  });
  save(simple[7], {
    extension_attributes: {
      stock_item: {
        qty: 40,
        is_in_stock: true,
        use_config_min_sale_qty: 0,
        min_sale_qty: 2,
        use_config_max_sale_qty: false,
        max_sale_qty: 12,
        use_config_enable_qty_inc: false,
        enable_qty_increments: true,
        use_config_qty_increments: false,
        qty_increments: 2,
      },
    },
  });
  save(simple[8], {
    extension_attributes: {
      stock_item: { qty: 5, is_in_stock: false, use_config_max_sale_qty: false, max_sale_qty: 1 },
    },
  });
  // Custom options and tier prices, which a migration cannot carry (reported per product).
  save(simple[9], {
    options: [
      {
        product_sku: '',
        title: 'Engraving',
        type: 'field',
        sort_order: 1,
        is_require: false,
        price: 5,
        price_type: 'fixed',
        max_characters: 20,
      },
    ],
    tier_prices: [{ customer_group_id: 2, qty: 10, value: 8.5 }],
  });

  // A virtual product (a service) and a downloadable one with links and a sample. Each save
  // makes a new record, so a record is looked up again after it.
  save(free[0], { type_id: 'virtual' });
  const virtual = byKey(free[0]);
  if (virtual) virtual.weight = null;
  if (byKey(free[1])) {
    save(free[1], {
      type_id: 'downloadable',
      extension_attributes: {
        downloadable_product_links: [
          {
            title: 'Handbook (PDF)',
            sort_order: 1,
            is_shareable: 2,
            price: 0,
            number_of_downloads: 3,
            link_type: 'url',
            link_url: 'https://downloads.example.com/handbook.pdf',
            sample_type: 'url',
            sample_url: 'https://downloads.example.com/handbook-preview.pdf',
          },
          {
            title: 'Handbook (EPUB)',
            sort_order: 2,
            is_shareable: 2,
            price: 0,
            number_of_downloads: 3,
            link_type: 'url',
            link_url: 'https://downloads.example.com/handbook.epub',
            sample_type: 'url',
          },
        ],
        downloadable_product_samples: [
          {
            title: 'First chapter',
            sort_order: 1,
            sample_type: 'url',
            sample_url: 'https://downloads.example.com/chapter-1.pdf',
          },
        ],
      },
      custom_attributes: custom({
        links_title: 'Downloads',
        links_purchased_separately: '0',
        samples_title: 'Samples',
      }),
    });
    const downloadable = byKey(free[1]);
    if (downloadable) downloadable.weight = null;
  }
  // A grouped product of three simple ones (saved last, so its members come first).
  const members = [free[3], free[4], free[5]].flatMap((k) => {
    const p = byKey(k);
    return p ? [p] : [];
  });
  const groupedSku = byKey(free[2])?.sku;
  if (groupedSku && members.length) {
    catalog.saveProduct({
      product: {
        sku: groupedSku,
        type_id: 'grouped',
        extension_attributes: { stock_item: { qty: 0, is_in_stock: true } },
        product_links: members.map((m, position) => ({
          sku: groupedSku,
          link_type: 'associated',
          linked_product_sku: m.sku,
          linked_product_type: m.type_id,
          position: position + 1,
          extension_attributes: { qty: position === 0 ? 2 : 0 },
        })),
      },
    });
    const grouped = byKey(free[2]);
    if (grouped) {
      grouped.weight = null;
      grouped.price = 0;
      const { tax_class_id: _tax, ...rest } = grouped.custom;
      grouped.custom = rest;
    }
  }

  // Related products, up-sells and cross-sells, pointing at products read before and after.
  const all = sample.products.map((p) => byKey(p.key)).filter((p) => p !== undefined);
  const linkable = all.filter((p) => p.type_id !== 'grouped');
  for (const [i, product] of linkable.entries()) {
    if (i % 4 !== 1) continue;
    const pick = (offset: number) => linkable[(i + offset) % linkable.length];
    const links = [
      ['related', pick(7)],
      ['related', pick(linkable.length - 1)],
      ['upsell', pick(3)],
      ['crosssell', pick(11)],
    ] as const;
    catalog.saveProduct({
      product: {
        sku: product.sku,
        // Positions count within each link type, as the admin's grids number them.
        product_links: links
          .filter(([, target]) => target && target.id !== product.id)
          .map(([type, target], i, kept) => ({
            sku: product.sku,
            link_type: type,
            linked_product_sku: target?.sku,
            linked_product_type: target?.type_id,
            position: kept.slice(0, i).filter(([t]) => t === type).length + 1,
          })),
      },
    });
  }

  // A merchant's select attribute with several values.
  const fabric = catalog.seedAttribute('fabric_care', 'Fabric Care', 'multiselect', 'global', true);
  const careOptions = ['Machine wash', 'Tumble dry', 'Iron low'].map((label) =>
    catalog.seedOption(fabric.attribute_code, label),
  );
  for (const key of variable.slice(0, 2))
    save(key, { custom_attributes: custom({ fabric_care: careOptions.slice(0, 2).join(',') }) });

  // Configurable products: a parent weight, a third category level, a disabled variant, a
  // variant with its own image, tax class and sale schedule.
  const childOf = (key: string | undefined, n: number) => {
    const id = byKey(key)?.links[n];
    return id === undefined ? undefined : catalog.products.get(id);
  };
  const first = byKey(variable[0]);
  const limited = ids.categories.get('cat-limited');
  if (first) {
    first.weight = 0.5;
    if (limited !== undefined)
      first.category_links.push({ category_id: String(limited), position: 0 });
  }
  const disabled = childOf(variable[0], 0);
  if (disabled) disabled.status = 2;
  const onSale = childOf(variable[0], 1);
  if (onSale) {
    catalog.saveProduct({
      product: {
        sku: onSale.sku,
        custom_attributes: custom({
          special_price: String(money(onSale.price * 0.8)),
          special_from_date: '2026-05-01 00:00:00',
          special_to_date: '2026-05-31 23:59:59',
          tax_class_id: reduced,
        }),
      },
    });
    const saved = childOf(variable[0], 1);
    if (saved)
      catalog.seedMedia(saved, `/v/a/variant-${saved.sku.toLowerCase()}.png`, '', [
        'image',
        'small_image',
        'thumbnail',
      ]);
  }
  // A variant that backorders and one whose stock is not managed.
  const backordered = childOf(variable[1], 0);
  if (backordered)
    catalog.saveProduct({
      product: {
        sku: backordered.sku,
        extension_attributes: {
          stock_item: { qty: 0, is_in_stock: true, use_config_backorders: false, backorders: 2 },
        },
      },
    });
  const unmanaged = childOf(variable[1], 1);
  if (unmanaged)
    catalog.saveProduct({
      product: {
        sku: unmanaged.sku,
        extension_attributes: {
          stock_item: {
            qty: 0,
            is_in_stock: true,
            use_config_manage_stock: false,
            manage_stock: false,
          },
        },
      },
    });
  // Products the merchant sorted by hand: the same position in each of their categories.
  for (const key of [simple[10], variable[2]]) {
    const product = byKey(key);
    if (product) for (const link of product.category_links) link.position = 5;
  }
}

function enrichCustomers(store: MagentoStore, sample: SampleStore, ids: SeededIds): void {
  const { customers } = store;
  const vip = customers.createGroup({ group: { code: 'VIP', tax_class_id: 3 } });
  sample.customers.forEach((c, i) => {
    const id = ids.customers.get(c.key);
    const record = id === undefined ? undefined : customers.customers.get(id);
    if (!record) return;
    if (i % 3 === 0) {
      record.dob = `19${70 + i}-0${(i % 9) + 1}-1${i % 9}`;
      record.gender = (i % 2) + 1;
    }
    if (i % 4 === 1) record.taxvat = `DE${String(100000000 + i * 7919)}`;
    if (i === 2) {
      record.prefix = 'Dr.';
      record.middlename = 'Anne';
      record.suffix = 'PhD';
    }
    if (i % 5 === 3) record.custom.loyalty_number = `LN-${1000 + i}`;
    if (i === 4) record.group_id = 2;
    if (i === 5) {
      record.group_id = vip.id;
      record.disable_auto_group_change = 1;
    }
    const address = record.addresses[0];
    if (address && i === 6)
      address.street = [...address.street.slice(0, 1), 'Building B', 'Floor 3'];
    if (address && i === 7) {
      address.vat_id = 'GB123456789';
      address.fax = '+44 20 7946 0000';
    }
  });
}

interface OrderParts {
  items: Json[];
  lines: Json[];
}

/** The order's top-level items (configurable parents and simple items), in order. */
function partsOf(order: Json): OrderParts {
  const items = (Array.isArray(order.items) ? order.items : []).filter(isObject);
  return { items, lines: items.filter((i) => i.parent_item_id === undefined) };
}

function enrichOrders(store: MagentoStore, sample: SampleStore, ids: SeededIds): void {
  const { sales, catalog } = store;
  const payments: [string, Json, Json][] = [
    ['checkmo', { method_title: 'Check / Money order' }, {}],
    ['banktransfer', { method_title: 'Bank Transfer Payment' }, { last_trans_id: 'BT-20260114' }],
    ['purchaseorder', { method_title: 'Purchase Order' }, { po_number: 'PO-7731' }],
    ['cashondelivery', { method_title: 'Cash On Delivery' }, {}],
  ];
  // A product sold once and deleted since: its line stays on the order.
  const gone = catalog.saveProduct({
    product: {
      sku: 'RP-RETIRED-MUG',
      name: 'Retired Enamel Mug',
      attribute_set_id: DEFAULT_ATTRIBUTE_SET_ID,
      price: 14,
      type_id: 'simple',
      extension_attributes: { stock_item: { qty: 3, is_in_stock: true } },
      custom_attributes: [{ attribute_code: 'url_key', value: 'retired-enamel-mug' }],
    },
  }).product;

  sample.orders.forEach((o, i) => {
    const id = ids.orders.get(o.key);
    const order = id === undefined ? undefined : sales.orders.get(id);
    if (!order) return;
    const [method, info, extra] = payments[i % payments.length] ??
      payments[0] ?? ['checkmo', {}, {}];
    const payment = isObject(order.payment) ? order.payment : {};
    order.payment = { ...payment, method, additional_information: info, ...extra };
    if (i % 3 === 0) order.remote_ip = `203.0.113.${10 + i}`;
    if (i === 3) order.discount_description = 'Welcome offer';

    const histories: Json[] = [
      {
        comment: 'Checked the address with the customer by phone.',
        is_customer_notified: 0,
        is_visible_on_front: 0,
        status: order.status,
        created_at: at(o.createdAt, 60),
      },
    ];
    if (o.status === 'completed')
      histories.push({
        comment: 'Your parcel is on its way.',
        is_customer_notified: 1,
        is_visible_on_front: 1,
        status: 'complete',
        created_at: at(o.createdAt, 2 * 24 * 60),
      });
    if (i % 4 === 2)
      histories.push({
        comment: 'Delivery after 5pm, as you asked.',
        is_customer_notified: 1,
        is_visible_on_front: 1,
        status: order.status,
        created_at: at(o.createdAt, 30),
      });
    sales.orders.set(id ?? 0, {
      ...order,
      status_histories: histories.map((h, n) => ({
        ...h,
        entity_id: 10_000 + (id ?? 0) * 10 + n,
        parent_id: id,
        entity_name: 'order',
      })),
    });
  });

  const byNumber = (n: string) => {
    const key = sample.orders.find((o) => o.number === n)?.key;
    const id = key === undefined ? undefined : ids.orders.get(key);
    return id === undefined ? undefined : sales.orders.get(id);
  };
  const bump = (order: Json, fields: string[], by: number) => {
    for (const f of fields) order[f] = money(Number(order[f] ?? 0) + by);
  };
  const totalsFields = ['grand_total', 'base_grand_total'];
  const paidFields = ['total_paid', 'base_total_paid', 'total_invoiced'];

  // Fees: gift wrap and a loyalty credit.
  const feeOrder = byNumber('1005');
  if (feeOrder) {
    feeOrder.extension_attributes = {
      ...(isObject(feeOrder.extension_attributes) ? feeOrder.extension_attributes : {}),
      custom_fees: [
        {
          id: '1',
          order_id: String(feeOrder.entity_id),
          custom_fee_code: 'gift_wrap',
          custom_fee_label: 'Gift wrap',
          custom_fee_amount: 4,
          base_custom_fee_amount: 4,
          ...feeDefaults(4),
        },
        {
          id: '2',
          order_id: String(feeOrder.entity_id),
          custom_fee_code: 'loyalty_credit',
          custom_fee_label: 'Loyalty credit',
          custom_fee_amount: -2.5,
          base_custom_fee_amount: -2.5,
          ...feeDefaults(-2.5),
        },
      ],
    };
    bump(feeOrder, [...totalsFields, ...paidFields], 1.5);
  }

  // A line whose product was deleted since.
  const retiredOrder = byNumber('1013');
  if (retiredOrder) {
    const items = partsOf(retiredOrder).items;
    items.push({
      item_id: 90_000,
      order_id: retiredOrder.entity_id,
      sku: gone.sku,
      name: gone.name,
      product_id: gone.id,
      product_type: 'simple',
      qty_ordered: 1,
      qty_shipped: 1,
      qty_invoiced: 1,
      price: 14,
      base_price: 14,
      original_price: 14,
      row_total: 14,
      base_row_total: 14,
      tax_amount: 1.12,
      base_tax_amount: 1.12,
      discount_amount: 0,
      price_incl_tax: 15.12,
      row_total_incl_tax: 15.12,
      is_virtual: 0,
      created_at: retiredOrder.created_at,
      updated_at: retiredOrder.created_at,
    });
    retiredOrder.items = items;
    bump(retiredOrder, ['subtotal', 'base_subtotal'], 14);
    bump(retiredOrder, ['tax_amount', 'base_tax_amount'], 1.12);
    bump(retiredOrder, [...totalsFields, ...paidFields], 15.12);
    retiredOrder.total_item_count = Number(retiredOrder.total_item_count ?? 0) + 1;
  }
  // Deleted whether or not a seeded order is large enough to name it: a smaller sample must not
  // hold one product more than it asked for.
  catalog.deleteProduct(gone.sku);

  // An order in another currency than the store's.
  const euro = byNumber('1011');
  if (euro) {
    const rate = 0.92;
    euro.order_currency_code = 'EUR';
    euro.store_currency_code = store.settings.baseCurrency;
    euro.base_to_order_rate = rate;
    euro.store_to_order_rate = rate;
    for (const [field, value] of Object.entries(euro)) {
      if (field.startsWith('base_') && typeof value === 'number' && field !== 'base_to_order_rate')
        euro[field] = money(Number(euro[field.slice(5)] ?? value) / rate);
    }
  }

  // Invoices of the orders that were paid, dated when they were paid.
  for (const o of sample.orders) {
    const order = byNumber(o.number);
    if (!order || Number(order.total_paid ?? 0) <= 0) continue;
    store.invoices.insertSeeded({
      order_id: order.entity_id,
      created_at: at(o.createdAt, 10),
      total_qty: partsOf(order).lines.reduce((n, l) => n + Number(l.qty_ordered ?? 0), 0),
      grand_total: order.grand_total,
      base_grand_total: order.base_grand_total,
      subtotal: order.subtotal,
      tax_amount: order.tax_amount,
      shipping_amount: order.shipping_amount,
      discount_amount: order.discount_amount,
      transaction_id: isObject(order.payment) ? order.payment.last_trans_id : undefined,
      items: partsOf(order).lines.map((line) => ({
        order_item_id: line.item_id,
        sku: line.sku,
        qty: line.qty_ordered,
        price: line.price,
        row_total: line.row_total,
        tax_amount: line.tax_amount,
      })),
    });
  }

  // Refunds: the refunded orders in two credit memos or one, and a partial one on a completed
  // order (part of a line, then an amount on its own).
  const memo = (
    order: Json,
    createdAt: string,
    lines: { line: Json; qty: number }[],
    extra: { shipping?: number; adjustment?: number },
    reason: string,
  ) => {
    const rows = lines.map(({ line, qty }) => {
      const ordered = Number(line.qty_ordered ?? 1);
      return {
        order_item_id: line.item_id,
        sku: line.sku,
        qty,
        price: line.price,
        base_price: line.price,
        base_cost: 0,
        row_total: money((Number(line.row_total ?? 0) * qty) / ordered),
        tax_amount: money((Number(line.tax_amount ?? 0) * qty) / ordered),
      };
    });
    const subtotal = money(rows.reduce((n, r) => n + r.row_total, 0));
    const tax = money(rows.reduce((n, r) => n + r.tax_amount, 0));
    const grand = money(subtotal + tax + (extra.shipping ?? 0) + (extra.adjustment ?? 0));
    store.creditmemos.insertSeeded({
      order_id: order.entity_id,
      created_at: createdAt,
      subtotal,
      base_subtotal: subtotal,
      tax_amount: tax,
      base_tax_amount: tax,
      shipping_amount: extra.shipping ?? 0,
      base_shipping_amount: extra.shipping ?? 0,
      adjustment_positive: extra.adjustment ?? 0,
      base_adjustment_positive: extra.adjustment ?? 0,
      grand_total: grand,
      base_grand_total: grand,
      items: rows,
      comments: reason
        ? [{ comment: reason, is_customer_notified: 0, is_visible_on_front: 0, parent_id: 0 }]
        : [],
    });
    return grand;
  };
  for (const number of ['1007', '1015']) {
    const order = byNumber(number);
    if (!order) continue;
    const { lines } = partsOf(order);
    const created = String(order.created_at);
    const [head, ...rest] = lines;
    if (!head) continue;
    const shipping = Number(order.shipping_amount ?? 0);
    if (rest.length) {
      memo(
        order,
        at(created, 3 * 24 * 60),
        [{ line: head, qty: Number(head.qty_ordered) }],
        {},
        'Damaged in transit',
      );
      memo(
        order,
        at(created, 5 * 24 * 60),
        rest.map((line) => ({ line, qty: Number(line.qty_ordered) })),
        { shipping },
        'Returned unopened',
      );
    } else {
      memo(
        order,
        at(created, 4 * 24 * 60),
        [{ line: head, qty: Number(head.qty_ordered) }],
        { shipping },
        '',
      );
    }
    order.total_refunded = order.grand_total;
    order.base_total_refunded = order.base_grand_total;
  }
  const partial = byNumber('1012');
  if (partial) {
    const [line] = partsOf(partial).lines;
    const created = String(partial.created_at);
    let refunded = 0;
    if (line)
      refunded += memo(
        partial,
        at(created, 6 * 24 * 60),
        [{ line, qty: 1 }],
        {},
        'Customer changed mind',
      );
    refunded += memo(partial, at(created, 8 * 24 * 60), [], { adjustment: 5 }, 'Goodwill refund');
    partial.total_refunded = money(refunded);
    partial.base_total_refunded = money(refunded);
  }
}
