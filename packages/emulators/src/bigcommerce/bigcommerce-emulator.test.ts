import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSampleStore } from '../framework/sample-store.ts';
import {
  startBigCommerceEmulator,
  type RunningBigCommerceEmulator,
} from './bigcommerce-emulator.ts';
import { BigCommerceSpec } from './openapi-validator.ts';

const spec = new BigCommerceSpec();
const sample = { seed: 7, products: 24, customers: 14, orders: 9 };

interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
}

function client(emulator: RunningBigCommerceEmulator, token = emulator.accessToken) {
  return async (
    method: string,
    path: string,
    body?: unknown,
    options: { validate?: boolean } = {},
  ): Promise<Answer> => {
    const url = `${emulator.url}/stores/${emulator.storeHash}${path}`;
    const headers = {
      'X-Auth-Token': token,
      Accept: 'application/json',
      'Content-Type': 'application/json',
    };
    const text = body === undefined ? undefined : JSON.stringify(body);
    const response = await fetch(url, { method, headers, body: text });
    const raw = await response.text();
    const parsed: unknown = raw ? JSON.parse(raw) : undefined;
    if (options.validate !== false && response.status < 300) {
      expect(spec.validateRequest({ method, url, headers, body: text })).toEqual([]);
      expect(spec.validateResponse(method, url, { status: response.status, body: parsed })).toEqual(
        [],
      );
    }
    return { status: response.status, headers: response.headers, body: parsed };
  };
}

const data = (answer: Answer) => (answer.body as { data: Record<string, unknown>[] }).data;

describe('BigCommerce emulator', () => {
  let store: RunningBigCommerceEmulator;
  let call: ReturnType<typeof client>;

  beforeAll(async () => {
    store = await startBigCommerceEmulator({ seed: sample, plan: 'unlimited' });
    call = client(store);
  });
  afterAll(async () => {
    await store.close();
  });

  it('seeds the sample store in BigCommerce shape', async () => {
    const generated = generateSampleStore(sample);
    expect(store.countStored('products')).toBe(24);
    expect(store.countStored('customers')).toBe(14);
    expect(store.countStored('orders')).toBe(9);
    // The sample's two levels and a third one of the seed's own.
    expect(store.countStored('categories')).toBe(generated.categories.length + 1);
    const products = data(
      await call('GET', '/v3/catalog/products?limit=250&include=variants,images,custom_fields'),
    );
    const variable = products.find((p) => (p.variants as unknown[]).length > 1);
    expect(variable).toBeDefined();
    expect(products.every((p) => (p.images as unknown[]).length > 0)).toBe(true);
    expect(products[0]?.custom_url).toMatchObject({ is_customized: true });
    expect(products[0]?.custom_fields).toEqual([
      { id: expect.any(Number), name: 'material', value: expect.any(String) },
    ]);
  });

  it('answers the main GETs as the spec describes them', async () => {
    const product = data(
      await call(
        'GET',
        '/v3/catalog/products?include=variants,images,custom_fields,options&limit=10',
      ),
    )[0];
    const id = Number(product?.id);
    const customers = data(
      await call('GET', '/v3/customers?include=addresses,storecredit&limit=5'),
    );
    const customerId = Number(customers[0]?.id);
    const orders = (await call('GET', '/v2/orders?limit=5&page=1')).body as { id: number }[];
    const orderId = orders[0]?.id;
    for (const path of [
      '/v2/store',
      '/v2/time',
      '/v2/order_statuses',
      '/v2/orders/count',
      `/v2/orders/${orderId}`,
      `/v2/orders/${orderId}/products`,
      `/v2/orders/${orderId}/shipping_addresses`,
      `/v2/orders/${orderId}/coupons`,
      '/v3/catalog/trees',
      '/v3/catalog/trees/categories?tree_id:in=1&limit=250',
      '/v3/catalog/categories?limit=5',
      '/v3/catalog/brands?limit=250',
      `/v3/catalog/products/${id}?include=variants,images,custom_fields,primary_image`,
      `/v3/catalog/products/${id}/variants`,
      `/v3/catalog/products/${id}/options`,
      `/v3/catalog/products/${id}/images`,
      `/v3/catalog/products/${id}/custom-fields`,
      `/v3/catalog/variants?product_id:in=${id}`,
      '/v3/customers/addresses?customer_id:in=1,2',
      `/v3/customers/${customerId}/consent`,
      '/v3/customers/metafields?namespace=replatform',
      '/v3/catalog/products/metafields?key=replatform_source_id',
    ]) {
      const answer = await call('GET', path);
      expect(answer.status, path).toBe(200);
    }
  });

  it("seeds BigCommerce's own fields and answers them as the spec describes them", async () => {
    const products = data(
      await call(
        'GET',
        '/v3/catalog/products?include=variants,images,custom_fields,options,modifiers,bulk_pricing_rules,videos&limit=10',
      ),
    );
    const field = (key: string) => products.map((p) => p[key]);
    expect(field('is_featured')).toContain(true);
    expect(field('availability')).toEqual(expect.arrayContaining(['preorder', 'disabled']));
    expect(field('related_products')).toContainEqual([]);
    expect(products.some((p) => (p.modifiers as unknown[]).length > 0)).toBe(true);
    expect(products.some((p) => (p.bulk_pricing_rules as unknown[]).length > 0)).toBe(true);
    expect(products.some((p) => (p.videos as unknown[]).length > 0)).toBe(true);
    const options = products.flatMap((p) => p.options as Record<string, unknown>[]);
    expect(options.map((o) => o.type)).toContain('swatch');
    const variants = products.flatMap((p) => p.variants as Record<string, unknown>[]);
    // Variants inherit the product's price (null) unless they have their own.
    expect(variants.map((v) => v.price)).toContain(null);
    expect(variants.map((v) => v.purchasing_disabled)).toContain(true);
    const metafields = data(await call('GET', '/v3/catalog/variants/metafields?limit=250'));
    expect(metafields[0]).toMatchObject({ resource_type: 'variant', key: 'warehouse' });

    const customers = data(
      await call('GET', '/v3/customers?include=addresses,attributes,formfields,storecredit'),
    );
    expect(customers.some((c) => (c.attributes as unknown[]).length > 0)).toBe(true);
    expect(customers.some((c) => (c.form_fields as unknown[]).length > 0)).toBe(true);
    const attributes = data(await call('GET', '/v3/customers/attributes'));
    expect(attributes.map((a) => a.name)).toEqual(['Loyalty tier', 'Shoe size', 'Birthday']);

    const orders = (await call('GET', '/v2/orders?include=fees&limit=50')).body as Record<
      string,
      unknown
    >[];
    const fees = orders.flatMap((o) => o.fees as Record<string, string>[]);
    expect(fees.map((f) => f.cost_ex_tax)).toEqual(['4.0000', '-2.5000']);
    expect(orders.map((o) => o.default_currency_code)).toContain('EUR');
    expect(orders.some((o) => Number(o.refunded_amount) > 0)).toBe(true);
    // The line of a product deleted since keeps its product id; the product is gone.
    const second = orders[1];
    const lines = (await call('GET', `/v2/orders/${String(second?.id)}/products`)).body as Record<
      string,
      unknown
    >[];
    const gone = lines.at(-1);
    expect(gone?.name).toBe('Discontinued Sample Lamp');
    const lookup = await call(
      'GET',
      `/v3/catalog/products/${String(gone?.product_id)}`,
      undefined,
      {
        validate: false,
      },
    );
    expect(lookup.status).toBe(404);
  });

  it('updates an option: its type, the order of its values and the default one', async () => {
    const product = data(
      await call('GET', '/v3/catalog/products?include=options&limit=10&type=physical'),
    ).find((p) => (p.options as unknown[]).length > 0);
    const option = (product?.options as Record<string, unknown>[])[0] as {
      id: number;
      display_name: string;
      option_values: { id: number; label: string }[];
    };
    const path = `/v3/catalog/products/${String(product?.id)}/options/${option.id}`;
    const values = [...option.option_values].reverse();
    const answer = await call('PUT', path, {
      product_id: product?.id,
      display_name: option.display_name,
      type: 'dropdown',
      option_values: values.map((v, k) => ({
        id: v.id,
        label: v.label,
        sort_order: k,
        is_default: k === 0,
      })),
    });
    expect(answer.status).toBe(200);
    const updated = (answer.body as { data: Record<string, unknown> }).data;
    expect(updated.type).toBe('dropdown');
    expect(updated.option_values).toEqual(
      values.map((v, k) =>
        expect.objectContaining({ id: v.id, sort_order: k, is_default: k === 0 }),
      ),
    );
    // A value a variant uses cannot be dropped.
    const dropped = await call(
      'PUT',
      path,
      {
        product_id: product?.id,
        display_name: option.display_name,
        type: 'dropdown',
        option_values: [{ label: 'New', sort_order: 0 }],
      },
      { validate: false },
    );
    expect(dropped.status).toBe(422);
  });

  it('keeps customer attributes typed, form fields and store credit', async () => {
    const created = await call('POST', '/v3/customers/attributes', [
      { name: 'Favourite colour', type: 'string' },
      { name: 'Visits', type: 'number' },
    ]);
    const [colour, visits] = data(created) as { id: number }[];
    const customer = await call('POST', '/v3/customers', [
      {
        email: 'attributes@example.com',
        first_name: 'Ana',
        last_name: 'Sousa',
        attributes: [
          { attribute_id: colour?.id, attribute_value: 'green' },
          { attribute_id: visits?.id, attribute_value: '12' },
        ],
        form_fields: [{ name: 'Newsletter topics', value: ['shoes', 'bags'] }],
        store_credit_amounts: [{ amount: 10.5 }],
      },
    ]);
    expect(customer.status).toBe(200);
    const id = data(customer)[0]?.id;
    const read = data(
      await call(
        'GET',
        `/v3/customers?id:in=${String(id)}&include=attributes,formfields,storecredit`,
      ),
    )[0];
    expect(read).toMatchObject({
      attribute_count: 2,
      attributes: [
        expect.objectContaining({ attribute_id: colour?.id, attribute_value: 'green' }),
        expect.objectContaining({ attribute_id: visits?.id, attribute_value: '12' }),
      ],
      form_fields: [{ name: 'Newsletter topics', value: ['shoes', 'bags'], customer_id: id }],
      store_credit_amounts: [{ amount: 10.5 }],
    });
    const notANumber = await call(
      'POST',
      '/v3/customers',
      [
        {
          email: 'nan@example.com',
          first_name: 'N',
          last_name: 'N',
          attributes: [{ attribute_id: visits?.id, attribute_value: 'many' }],
        },
      ],
      { validate: false },
    );
    expect(notANumber.status).toBe(422);
    const twice = await call(
      'POST',
      '/v3/customers/attributes',
      [{ name: 'visits', type: 'number' }],
      { validate: false },
    );
    expect(twice.status).toBe(422);
  });

  it('reports pagination in meta.pagination', async () => {
    const first = await call('GET', '/v3/catalog/products?limit=10&page=1');
    const meta = (first.body as { meta: { pagination: Record<string, unknown> } }).meta.pagination;
    expect(meta).toMatchObject({
      total: 24,
      count: 10,
      per_page: 10,
      current_page: 1,
      total_pages: 3,
    });
    const last = await call('GET', '/v3/catalog/products?limit=10&page=3');
    expect(data(last)).toHaveLength(4);
    // With options included, a page holds at most 10 products (IncludeParamGetProducts).
    const withOptions = await call('GET', '/v3/catalog/products?limit=250&include=options');
    expect(data(withOptions)).toHaveLength(10);
  });

  it('refuses a wrong token and an unknown store', async () => {
    const wrong = await client(store, 'nope')('GET', '/v3/catalog/products', undefined, {
      validate: false,
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ status: 401, title: expect.any(String) });
    const v2 = await client(store, 'nope')('GET', '/v2/store', undefined, { validate: false });
    expect(v2.status).toBe(401);
    expect(v2.body).toEqual([{ status: 401, message: expect.any(String) }]);
    const response = await fetch(`${store.url}/stores/other/v3/catalog/products`, {
      headers: { 'X-Auth-Token': store.accessToken },
    });
    expect(response.status).toBe(404);
  });

  it('checks the OAuth scopes of API accounts before any route, answering 403', async () => {
    const scoped = await startBigCommerceEmulator({
      seed: { seed: 2, products: 2, customers: 1, orders: 1 },
      plan: 'unlimited',
      apiAccounts: [
        {
          accessToken: 'read-only',
          scopes: [
            'store_v2_products_read_only',
            'store_v2_customers',
            'store_v2_information_read_only',
          ],
        },
      ],
    });
    try {
      const call = client(scoped, 'read-only');
      expect((await call('GET', '/v2/store')).status).toBe(200);
      expect((await call('GET', '/v3/catalog/products')).status).toBe(200);
      const v3 = await call('PUT', '/v3/catalog/products', [], { validate: false });
      expect(v3.status).toBe(403);
      expect(v3.body).toEqual({
        status: 403,
        title: "You don't have a required scope to access the endpoint",
        type: expect.any(String),
        errors: {},
      });
      // No Orders scope at all: neither reading nor writing, and the route is never reached.
      const v2 = await call('GET', '/v2/orders', undefined, { validate: false });
      expect(v2.status).toBe(403);
      expect(v2.body).toEqual([
        { status: 403, message: "You don't have a required scope to access the endpoint" },
      ]);
      expect((await call('PUT', '/v2/orders/0', {}, { validate: false })).status).toBe(403);
      // Customers at modify: an empty batch update passes and changes nothing.
      expect(await call('PUT', '/v3/customers', [])).toMatchObject({
        status: 200,
        body: { data: [] },
      });
      // The emulator's own token has every scope; order 0 does not exist.
      const full = client(scoped);
      expect((await full('PUT', '/v3/catalog/products', [])).status).toBe(200);
      expect((await full('PUT', '/v2/orders/0', {}, { validate: false })).status).toBe(404);
    } finally {
      await scoped.close();
    }
  });

  it('creates one product per call with nested variants, images and custom fields', async () => {
    const body = {
      name: 'Emulator Test Jacket',
      type: 'physical',
      sku: 'EMU-JACKET',
      weight: 1.2,
      price: 120,
      sale_price: 99,
      categories: [],
      custom_url: { url: '/emulator-test-jacket/', is_customized: true },
      images: [
        {
          image_url: 'https://example.com/img/jacket.png',
          description: 'Front',
          is_thumbnail: true,
          sort_order: 0,
        },
      ],
      custom_fields: [{ name: 'material', value: 'wool' }],
      variants: [
        {
          sku: 'EMU-JACKET-S-RED',
          price: 120,
          option_values: [
            { option_display_name: 'Size', label: 'S' },
            { option_display_name: 'Color', label: 'Red' },
          ],
        },
        {
          sku: 'EMU-JACKET-M-RED',
          price: 125,
          option_values: [
            { option_display_name: 'Size', label: 'M' },
            { option_display_name: 'Color', label: 'Red' },
          ],
        },
      ],
    };
    const created = await call('POST', '/v3/catalog/products', body);
    expect(created.status).toBe(200);
    const product = (created.body as { data: Record<string, unknown> }).data;
    expect(product.variants).toHaveLength(2);
    const image = (product.images as Record<string, string>[])[0];
    expect(image?.url_zoom).toContain(
      `${store.url}/media/s-${store.storeHash}/products/${String(product.id)}/images/`,
    );
    const png = await fetch(image?.url_zoom ?? '');
    expect(png.headers.get('content-type')).toBe('image/png');
    const options = data(await call('GET', `/v3/catalog/products/${String(product.id)}/options`));
    expect(options.map((o) => o.display_name)).toEqual(['Size', 'Color']);

    const duplicate = await call(
      'POST',
      '/v3/catalog/products',
      { ...body, sku: 'OTHER', variants: [] },
      { validate: false },
    );
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toMatchObject({ status: 409, title: 'The product name is a duplicate' });
    const batch = await call('POST', '/v3/catalog/products', [body], { validate: false });
    expect(batch.status).toBe(422);
    const invalid = await call(
      'POST',
      '/v3/catalog/products',
      { name: 'No price', type: 'physical', weight: 1 },
      { validate: false },
    );
    expect(invalid.status).toBe(422);
    expect((invalid.body as { errors: Record<string, string> }).errors).toHaveProperty('price');
  });

  it('creates categories in the tree, parents first, up to depth 8', async () => {
    let parent = 0;
    for (let depth = 1; depth <= 8; depth++) {
      const answer = await call('POST', '/v3/catalog/trees/categories', [
        { name: `Level ${depth}`, parent_id: parent, tree_id: 1 },
      ]);
      expect(answer.status).toBe(201);
      parent = Number(data(answer)[0]?.category_id);
    }
    const tooDeep = await call(
      'POST',
      '/v3/catalog/trees/categories',
      [{ name: 'Level 9', parent_id: parent, tree_id: 1 }],
      { validate: false },
    );
    expect(tooDeep.status).toBe(422);
    const mixed = await call(
      'POST',
      '/v3/catalog/trees/categories',
      [
        { name: 'Fresh', parent_id: 0, tree_id: 1 },
        { name: 'Level 1', parent_id: 0, tree_id: 1 },
      ],
      { validate: false },
    );
    expect(mixed.status).toBe(207);
    expect(data(mixed)).toHaveLength(1);
  });

  it('keeps metafields unique per resource, namespace and key', async () => {
    const body = [
      {
        resource_id: 1,
        namespace: 'replatform',
        key: 'replatform_source_id',
        value: 'c-1',
        permission_set: 'app_only',
      },
    ];
    const first = await call('POST', '/v3/customers/metafields', body);
    expect(first.status).toBe(200);
    const again = await call('POST', '/v3/customers/metafields', body, { validate: false });
    expect(again.status).toBe(422);
    const list = data(
      await call('GET', '/v3/customers/metafields?key=replatform_source_id&namespace=replatform'),
    );
    expect(list).toEqual([
      expect.objectContaining({ resource_id: 1, value: 'c-1', resource_type: 'customer' }),
    ]);
  });

  it('imports a historical order through v2 and finds it by external_order_id', async () => {
    const product = data(await call('GET', '/v3/catalog/products?limit=1&include=variants'))[0];
    const variant = (product?.variants as Record<string, unknown>[])[0];
    const created = await call('POST', '/v2/orders', {
      billing_address: {
        first_name: 'Ada',
        last_name: 'Lovelace',
        street_1: '1 Main St',
        city: 'Austin',
        state: 'TX',
        zip: '78701',
        country_iso2: 'US',
        email: 'ada@example.com',
      },
      shipping_addresses: [
        {
          first_name: 'Ada',
          last_name: 'Lovelace',
          street_1: '1 Main St',
          city: 'Austin',
          state: 'TX',
          zip: '78701',
          country_iso2: 'US',
          shipping_method: 'Flat rate',
        },
      ],
      products: [
        {
          product_id: product?.id,
          variant_id: variant?.id,
          name: 'Imported line',
          quantity: 2,
          price_ex_tax: 10,
          price_inc_tax: 10.8,
        },
      ],
      status_id: 10,
      date_created: 'Tue, 05 Mar 2019 21:40:11 +0000',
      external_source: 'M-MIG',
      external_order_id: 'replatform:o-1',
      shipping_cost_ex_tax: '5.00',
      shipping_cost_inc_tax: '5.00',
      items_shipped: 2,
      fees: [
        {
          type: 'custom_fee',
          display_name_customer: 'Gift wrap',
          cost_ex_tax: 4,
          cost_inc_tax: 4.32,
        },
      ],
      payment_method: 'Credit Card',
      payment_provider_id: 'ch_3Nq',
      refunded_amount: '5.00',
      ip_address_v6: '2001:db8::1',
    });
    expect(created.status).toBe(200);
    const order = created.body as Record<string, unknown>;
    expect(order).toMatchObject({
      status: 'Completed',
      external_source: 'M-MIG',
      subtotal_ex_tax: '20.0000',
      total_inc_tax: '30.9200',
      total_tax: '1.9200',
      date_created: 'Tue, 05 Mar 2019 21:40:11 +0000',
      payment_provider_id: 'ch_3Nq',
      refunded_amount: '5.0000',
      ip_address_v6: '2001:db8::1',
    });
    const withFees = (await call('GET', `/v2/orders/${String(order.id)}?include=fees`))
      .body as Record<string, unknown>;
    expect(withFees.fees).toEqual([
      expect.objectContaining({
        display_name_customer: 'Gift wrap',
        cost_ex_tax: '4.0000',
        cost_tax: '0.3200',
      }),
    ]);
    const found = (await call('GET', '/v2/orders?external_order_id=replatform:o-1')).body as {
      id: number;
    }[];
    expect(found.map((o) => o.id)).toEqual([order.id]);
    const lines = (await call('GET', `/v2/orders/${String(order.id)}/products`)).body as Record<
      string,
      unknown
    >[];
    expect(lines[0]).toMatchObject({
      name: 'Imported line',
      total_ex_tax: '20.0000',
      total_tax: '1.6000',
    });
    const count = (await call('GET', '/v2/orders/count')).body as { count: number };
    expect(count.count).toBe(10);
    const noBilling = await call(
      'POST',
      '/v2/orders',
      { products: [{ name: 'x', quantity: 1, price_ex_tax: 1, price_inc_tax: 1 }] },
      { validate: false },
    );
    expect(noBilling.status).toBe(422);
    expect(Array.isArray(noBilling.body)).toBe(true);
  });
});

describe('BigCommerce emulator limits', () => {
  it('counts requests against the store quota and answers 429 with the reset time', async () => {
    const store = await startBigCommerceEmulator({
      seed: 'empty',
      quota: { quota: 5, windowMs: 1500 },
    });
    try {
      const call = client(store);
      const lefts: string[] = [];
      // Timing-sensitive: no spec validation in between (the other tests validate these answers).
      for (let i = 0; i < 5; i++) {
        const answer = await call('GET', '/v2/store', undefined, { validate: false });
        expect(answer.headers.get('x-rate-limit-requests-quota')).toBe('5');
        expect(answer.headers.get('x-rate-limit-time-window-ms')).toBe('1500');
        expect(Number(answer.headers.get('x-rate-limit-time-reset-ms'))).toBeLessThanOrEqual(1500);
        lefts.push(answer.headers.get('x-rate-limit-requests-left') ?? '');
      }
      expect(lefts).toEqual(['4', '3', '2', '1', '0']);
      const refused = await call('GET', '/v2/store', undefined, { validate: false });
      expect(refused.status).toBe(429);
      const reset = Number(refused.headers.get('x-rate-limit-time-reset-ms'));
      expect(reset).toBeGreaterThan(0);
      await new Promise((r) => setTimeout(r, reset + 20));
      expect((await call('GET', '/v2/store', undefined, { validate: false })).status).toBe(200);
      expect(store.quotaStats().limited).toBe(1);
      expect(store.quotaStats().windows.map((w) => w.used)).toEqual([5, 1]);
      expect(store.quotaUtilisation()).toBe(1);
    } finally {
      await store.close();
    }
  });

  it('announces the Standard (150) and Pro (450) quotas of 30 s windows in its headers', async () => {
    for (const [plan, quota] of [
      ['standard', 150],
      ['pro', 450],
    ] as const) {
      const store = await startBigCommerceEmulator({ seed: 'empty', plan });
      try {
        const call = client(store);
        const first = await call('GET', '/v2/store', undefined, { validate: false });
        expect(first.headers.get('x-rate-limit-requests-quota'), plan).toBe(String(quota));
        expect(first.headers.get('x-rate-limit-time-window-ms'), plan).toBe('30000');
        expect(first.headers.get('x-rate-limit-requests-left'), plan).toBe(String(quota - 1));
        const reset = Number(first.headers.get('x-rate-limit-time-reset-ms'));
        expect(reset).toBeGreaterThan(29_000);
        expect(reset).toBeLessThanOrEqual(30_000);
        const second = await call('GET', '/v3/catalog/trees', undefined, { validate: false });
        expect(second.headers.get('x-rate-limit-requests-left'), plan).toBe(String(quota - 2));
        expect(store.quotaStats()).toMatchObject({ quota, windowMs: 30_000, limited: 0 });
      } finally {
        await store.close();
      }
    }
  });

  it('takes at most 10 customers per call and 3 concurrent customer writes', async () => {
    const store = await startBigCommerceEmulator({
      seed: 'empty',
      plan: 'pro',
      customerWriteMs: 80,
    });
    try {
      const call = client(store);
      const customer = (i: number) => ({
        email: `c${i}@example.com`,
        first_name: 'C',
        last_name: String(i),
      });
      const tooMany = await call(
        'POST',
        '/v3/customers',
        Array.from({ length: 11 }, (_v, i) => customer(i)),
        { validate: false },
      );
      expect(tooMany.status).toBe(413);
      const four = await Promise.all(
        [0, 1, 2, 3].map((k) =>
          call('POST', '/v3/customers', [customer(100 + k)], { validate: false }),
        ),
      );
      expect(four.map((a) => a.status).sort()).toEqual([200, 200, 200, 429]);
      expect(store.customerConcurrency).toEqual({ max: 3, limited: 1 });
      const ten = await call(
        'POST',
        '/v3/customers',
        Array.from({ length: 10 }, (_v, i) => customer(i)),
      );
      expect(data(ten)).toHaveLength(10);
      const duplicate = await call('POST', '/v3/customers', [customer(0), customer(50)], {
        validate: false,
      });
      expect(duplicate.status).toBe(422);
      expect(duplicate.body).toMatchObject({
        errors: { '[0].email': expect.stringContaining('already in use') },
      });
      expect(store.countStored('customers')).toBe(13);
      const found = data(
        await call('GET', '/v3/customers?email:in=c1@example.com,c2@example.com&include=addresses'),
      );
      expect(found.map((c) => c.email).sort()).toEqual(['c1@example.com', 'c2@example.com']);
    } finally {
      await store.close();
    }
  });
});
