import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_CATEGORY_ID, type ProductRecord } from './catalog.ts';
import { regionByCodeOrName } from './directory.ts';
import { formatUrlKey, magentoTime, type Json } from './input.ts';
import type { MagentoStore } from './store.ts';
import { parse } from 'csv-parse/sync';

/**
 * Seeds a MagentoStore from Magento's own Luma sample data (magento/magento2-sample-data
 * fixtures, copied as CSV into shared/platform-specs/samples/magento2): the Men/Women/Gear/
 * Promotions/Collections category tree, the EAV attributes and attribute sets, 147 configurable
 * products with their 1,847 simple children (size/colour), the Gear simple products, the sample
 * customer Veronica Costello and her two orders (the second refunded). Images are not part of
 * the sample data; each gallery entry is served as a generated PNG under its Luma file name.
 */

const visibilityOf: Record<string, number> = {
  'Not Visible Individually': 1,
  Catalog: 2,
  Search: 3,
  'Catalog, Search': 4,
};

export function seedFromLuma(store: MagentoStore, directory: string): void {
  const read = (name: string) =>
    parse<Record<string, string>>(readFileSync(join(directory, name), 'utf8'), {
      columns: true,
      bom: true,
      skip_empty_lines: true,
    });
  const { catalog } = store;

  // Categories: paths are names from the top ('Men/Tops'); files repeat shared roots.
  const categoryByPath = new Map<string, number>([['Default Category', DEFAULT_CATEGORY_ID]]);
  for (const file of [
    'CatalogSampleData__categories.csv',
    'ConfigurableSampleData__categories.csv',
  ]) {
    for (const row of read(file)) {
      const parentPath = row.path ? `Default Category/${row.path}` : 'Default Category';
      const fullPath = `${parentPath}/${row.name}`;
      if (categoryByPath.has(fullPath)) continue;
      const saved = catalog.saveCategory({
        category: {
          name: row.name,
          parent_id: categoryByPath.get(parentPath) ?? DEFAULT_CATEGORY_ID,
          is_active: row.active === '1',
          include_in_menu: row.include_in_menu === '1',
          ...(row.position ? { position: Number(row.position) } : {}),
          custom_attributes: [{ attribute_code: 'url_key', value: row.url_key }],
        },
      });
      categoryByPath.set(fullPath, saved.id);
    }
  }

  // Attributes and the attribute sets they belong to.
  const inputs = new Map<string, string>();
  for (const file of [
    'CatalogSampleData__attributes.csv',
    'ConfigurableSampleData__attributes.csv',
  ]) {
    for (const row of read(file)) {
      const code = row.attribute_code ?? '';
      const label = (row.frontend_label ?? code).split('\n')[0] ?? code;
      const input = row.frontend_input ?? 'text';
      for (const setName of (row.attribute_set ?? '').split('\n').filter(Boolean)) {
        catalog.seedAttributeSet(setName);
      }
      catalog.seedAttribute(code, label, input, row.is_global === '1' ? 'global' : 'store');
      inputs.set(code, input);
      if (input === 'select' || input === 'multiselect') {
        for (const option of (row.option ?? '').split('\n').filter(Boolean))
          catalog.seedOption(code, option);
      }
    }
  }
  const setId = (name: string) => catalog.seedAttributeSet(name || 'Default').id;
  const valueOf = (code: string, raw: string): string | undefined => {
    const input = inputs.get(code);
    if (!input) return undefined;
    if (input === 'boolean') return raw === 'Yes' || raw === '1' ? '1' : '0';
    if (input === 'select') return catalog.seedOption(code, raw);
    if (input === 'multiselect') {
      return raw
        .split(/[|\n]/)
        .filter(Boolean)
        .map((label) => catalog.seedOption(code, label))
        .join(',');
    }
    return raw;
  };

  const seeded = new Map<string, ProductRecord>();
  const save = (product: Json, images: string[], labels: string[] = []): ProductRecord => {
    const { product: saved } = catalog.saveProduct({ product });
    images.forEach((file, index) => {
      catalog.seedMedia(
        saved,
        file,
        labels[index] ?? '',
        index === 0 ? ['image', 'small_image', 'thumbnail'] : [],
      );
    });
    seeded.set(saved.sku, saved);
    return saved;
  };
  const categoryLinks = (paths: string[]) =>
    paths.flatMap((path, position) => {
      const id = categoryByPath.get(path);
      return id === undefined || id === DEFAULT_CATEGORY_ID
        ? []
        : [{ category_id: String(id), position }];
    });

  // Configurable products and their children.
  const rows = read('ConfigurableSampleData__products.csv');
  const ordered = [
    ...rows.filter((r) => r.product_type === 'simple'),
    ...rows.filter((r) => r.product_type === 'configurable'),
  ];
  for (const row of ordered) {
    const custom: Json[] = [];
    const put = (code: string, value: string | undefined) => {
      if (value) custom.push({ attribute_code: code, value });
    };
    put('description', row.description);
    put('short_description', row.short_description);
    put('meta_title', row.meta_title);
    put('meta_description', row.meta_description);
    put('meta_keyword', row.meta_keywords);
    put('special_price', row.special_price);
    put('url_key', row.url_key || formatUrlKey(row.name ?? ''));
    for (const pair of (row.additional_attributes ?? '').split(',')) {
      const [code, raw] = pair.split('=');
      if (code && raw) put(code, valueOf(code, raw));
    }
    const images = [row.base_image, ...(row.additional_images ?? '').split(',')].filter(
      (f): f is string => Boolean(f),
    );
    const isParent = row.product_type === 'configurable';
    const extension: Json = {
      website_ids: [1],
      category_links: categoryLinks((row.categories ?? '').split(',')),
      stock_item: {
        qty: Number(row.qty || 0),
        is_in_stock: row.is_in_stock === '1',
        use_config_manage_stock: row.use_config_manage_stock === '1',
        manage_stock: row.manage_stock === '1',
      },
    };
    if (isParent) {
      const variations = (row.configurable_variations ?? '')
        .split('|')
        .map((v) =>
          Object.fromEntries(v.split(',').map((kv) => kv.split('=') as [string, string])),
        );
      const codes = Object.keys(variations[0] ?? {}).filter((k) => k !== 'sku');
      extension.configurable_product_options = codes.map((code, position) => {
        const attribute = catalog.getAttribute(code);
        const labels = [...new Set(variations.map((v) => v[code] ?? '').filter(Boolean))];
        return {
          attribute_id: String(attribute.attribute_id),
          label: attribute.label,
          position,
          values: labels.map((label) => ({ value_index: Number(catalog.seedOption(code, label)) })),
        };
      });
      extension.configurable_product_links = variations.flatMap((v) => {
        const child = v.sku ? seeded.get(v.sku) : undefined;
        return child ? [child.id] : [];
      });
    }
    save(
      {
        sku: row.sku,
        name: (row.name ?? '').trim(),
        attribute_set_id: setId(row.attribute_set_code ?? ''),
        price: Number(row.price || 0),
        status: row.product_online === '0' ? 2 : 1,
        visibility: visibilityOf[row.visibility ?? ''] ?? 4,
        type_id: isParent ? 'configurable' : 'simple',
        ...(row.weight ? { weight: Number(row.weight) } : {}),
        extension_attributes: extension,
        custom_attributes: custom,
      },
      images,
    );
  }

  // Gear: simple products with their image lists.
  for (const group of ['bags', 'fitness_equipment', 'watches']) {
    const images = new Map<string, string[]>();
    for (const row of read(`CatalogSampleData__SimpleProduct_images_gear_${group}.csv`)) {
      images.set(row.sku ?? '', [...(images.get(row.sku ?? '') ?? []), row.image ?? '']);
    }
    for (const row of read(`CatalogSampleData__SimpleProduct_products_gear_${group}.csv`)) {
      const custom: Json[] = [
        { attribute_code: 'description', value: row.description ?? '' },
        { attribute_code: 'url_key', value: formatUrlKey((row.name ?? '').trim()) },
      ];
      if (row.special_price)
        custom.push({ attribute_code: 'special_price', value: row.special_price });
      for (const [code, raw] of Object.entries(row)) {
        const value = raw && inputs.has(code) ? valueOf(code, raw) : undefined;
        if (value) custom.push({ attribute_code: code, value });
      }
      save(
        {
          sku: row.sku,
          name: (row.name ?? '').trim(),
          attribute_set_id: setId(row.attribute_set ?? ''),
          price: Number(row.price || 0),
          status: 1,
          visibility: 4,
          type_id: 'simple',
          extension_attributes: {
            website_ids: [1],
            category_links: categoryLinks([
              `Default Category/${(row.category ?? '').split('\n').join('/')}`,
            ]),
            stock_item: { qty: Number(row.qty || 0), is_in_stock: Number(row.qty || 0) > 0 },
          },
          custom_attributes: custom,
        },
        images.get(row.sku ?? '') ?? [],
      );
    }
  }

  // The sample customer.
  const customerIds = new Map<string, number>();
  for (const row of read('CustomerSampleData__customer_profile.csv')) {
    const region = regionByCodeOrName(row.country_id ?? '', row.region ?? '');
    const street = (JSON.parse(row.street || '[]') as string[]).filter(Boolean);
    const saved = store.customers.save({
      customer: {
        email: row.email,
        firstname: row.firstname,
        lastname: row.lastname,
        dob: row.dob,
        gender: row.gender === 'Female' ? 2 : row.gender === 'Male' ? 1 : 0,
        addresses: [
          {
            firstname: row.firstname,
            lastname: row.lastname,
            street,
            city: row.city,
            postcode: row.postcode,
            country_id: row.country_id,
            telephone: row.telephone,
            ...(region ? { region_id: region.id } : {}),
            default_billing: true,
            default_shipping: true,
          },
        ],
      },
    });
    customerIds.set(saved.email, saved.id);
  }

  // Her orders: configurable items picked by option values, flat-rate shipping at $5 per item.
  let number = 0;
  for (const row of read('SalesSampleData__orders.csv')) {
    number += 1;
    const line = JSON.parse(row.product ?? '{}') as {
      sku: string;
      qty: string;
      configurable_options?: Record<string, string>;
    };
    const parent = catalog.productBySku(line.sku);
    const wanted = Object.entries(line.configurable_options ?? {}).map(([code, label]) => [
      code,
      catalog.getAttribute(code).options.find((o) => o.label === label)?.value,
    ]);
    const child = parent.links
      .map((id) => catalog.products.get(id))
      .find((p) => p && wanted.every(([code, value]) => p.custom[code ?? ''] === value));
    if (!child) continue;
    const qty = Number(line.qty);
    const unit = Number(child.custom.special_price ?? child.price);
    const subtotal = unit * qty;
    const shipping = 5 * qty;
    const grand = subtotal + shipping;
    const refunded = row.refund === 'yes';
    const customer = store.customers.byEmail(row.customer_email ?? '');
    const address = customer?.addresses[0];
    const orderAddress = (type: string): Json => ({
      address_type: type,
      firstname: customer?.firstname,
      lastname: customer?.lastname,
      street: address?.street,
      city: address?.city,
      postcode: address?.postcode,
      country_id: address?.country_id,
      telephone: address?.telephone,
      region: address?.region.region,
      region_code: address?.region.region_code,
      region_id: address?.region_id,
      email: customer?.email,
    });
    const createdAt = magentoTime(new Date(Date.UTC(2024, 2, number, 10)));
    const base: Json = {
      sku: child.sku,
      qty_ordered: qty,
      qty_invoiced: qty,
      qty_shipped: qty,
      qty_refunded: refunded ? qty : 0,
      created_at: createdAt,
      updated_at: createdAt,
      is_virtual: 0,
    };
    const parentItem: Json = {
      ...base,
      name: parent.name,
      product_id: parent.id,
      product_type: 'configurable',
      price: unit,
      base_price: unit,
      original_price: unit,
      row_total: subtotal,
      base_row_total: subtotal,
      tax_amount: 0,
      discount_amount: 0,
    };
    store.sales.insertSeeded(
      {
        increment_id: String(number).padStart(9, '0'),
        store_id: 1,
        state: refunded ? 'closed' : 'complete',
        status: refunded ? 'closed' : 'complete',
        created_at: createdAt,
        updated_at: createdAt,
        customer_id: customer?.id,
        customer_is_guest: 0,
        customer_email: customer?.email,
        customer_firstname: customer?.firstname,
        customer_lastname: customer?.lastname,
        base_currency_code: row.currency,
        order_currency_code: row.currency,
        subtotal,
        base_subtotal: subtotal,
        tax_amount: 0,
        shipping_amount: shipping,
        base_shipping_amount: shipping,
        shipping_description: 'Flat Rate - Fixed',
        discount_amount: 0,
        grand_total: grand,
        base_grand_total: grand,
        total_paid: grand,
        total_invoiced: grand,
        total_refunded: refunded ? grand : 0,
        total_due: 0,
        total_qty_ordered: qty,
        billing_address: orderAddress('billing'),
        payment: {
          method: row.payment,
          account_status: '',
          additional_information: ['Check / Money order'],
          cc_last4: '',
          amount_paid: grand,
        },
        extension_attributes: {
          shipping_assignments: [
            {
              shipping: {
                address: orderAddress('shipping'),
                method: row.shipping_method,
                total: { shipping_amount: shipping, base_shipping_amount: shipping },
              },
            },
          ],
        },
      },
      [
        parentItem,
        {
          ...base,
          name: child.name,
          product_id: child.id,
          product_type: 'simple',
          price: 0,
          row_total: 0,
          parent_item: parentItem,
        },
      ],
    );
  }
}
