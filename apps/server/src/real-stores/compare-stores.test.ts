import { describe, expect, it } from 'vitest';
import type {
  NativeRecord,
  NativeSnapshot,
} from '@replatform/connectors/woocommerce/real-store/native';
import { changedFields, compareStores, type IdMaps } from './compare-stores.ts';
import { judge, parseCsv, reportNames } from './report-check.ts';

const SRC = 'https://127.0.0.1:8001';
const DST = 'https://127.0.0.1:8002';

/** A small source store as WooCommerce answers it, written with ids offset by `shift`. */
function store(origin: string, shift: number): NativeSnapshot {
  const id = (n: number) => n + shift;
  const product: NativeRecord = {
    id: id(10),
    name: 'Tee 🌸',
    slug: 'tee',
    permalink: `${origin}/?post_type=product&p=${id(10)}`,
    type: 'variable',
    featured: true,
    price: '15',
    sku: 'TEE',
    date_modified: shift ? '2026-01-02T00:00:00' : '2025-01-01T00:00:00',
    categories: [{ id: id(1), name: 'Shirts', slug: 'shirts' }],
    tags: [{ id: id(3), name: '日本製', slug: '%e6%97%a5' }],
    images: [
      {
        id: id(50),
        src: `${origin}/wp-content/uploads/${shift ? '2026/02' : '2025/01'}/tee.png`,
        name: 'Tee',
        alt: 'front',
      },
    ],
    upsell_ids: [id(11)],
    meta_data: [{ id: id(70), key: 'origin', value: 'Kyoto' }],
    variations: [
      {
        id: id(20),
        sku: 'TEE-S',
        regular_price: '10',
        attributes: [{ id: id(5), name: 'Size', option: 'S' }],
      },
      {
        id: id(21),
        sku: 'TEE-M',
        regular_price: '11',
        attributes: [{ id: id(5), name: 'Size', option: 'M' }],
      },
    ],
  };
  const mug: NativeRecord = { id: id(11), name: 'Mug', sku: 'MUG', variations: [], upsell_ids: [] };
  const order: NativeRecord = {
    id: id(100),
    number: String(id(100)),
    status: 'completed',
    customer_id: id(30),
    line_items: [
      {
        id: id(200),
        product_id: id(10),
        variation_id: id(21),
        quantity: 1,
        total: '11.00',
        meta_data: [],
      },
    ],
    refunds: [
      {
        id: id(300),
        amount: '11.00',
        reason: 'too small',
        line_items: [
          {
            id: id(400),
            meta_data: [{ id: id(71), key: '_refunded_item_id', value: String(id(200)) }],
          },
        ],
      },
    ],
    notes: [{ id: id(500), note: 'Packed 📦', customer_note: true, author: 'admin' }],
    meta_data: [],
  };
  return {
    categories: [
      { id: id(1), name: 'Shirts', slug: 'shirts', parent: 0 },
      { id: id(2), name: 'Uncategorized', slug: 'uncategorized', parent: 0 },
    ],
    brands: [{ id: id(7), name: 'Töpferei', slug: 'topferei', parent: 0, description: '' }],
    tags: [{ id: id(3), name: '日本製', slug: '%e6%97%a5', count: 1 }],
    attributes: [
      { id: id(5), name: 'Size', slug: 'pa_size', terms: [{ id: id(6), name: 'S', slug: 's' }] },
    ],
    products: [product, mug],
    coupons: [
      {
        id: id(40),
        code: 'tee10',
        amount: '10.00',
        discount_type: 'percent',
        date_created: '2024-01-01T00:00:00',
        usage_count: 3,
        product_ids: [id(10)],
        excluded_product_categories: [],
        email_restrictions: ['*@example.com'],
        meta_data: [{ id: id(41), key: 'campaign', value: 'spring' }],
      },
    ],
    customers: [
      {
        id: id(30),
        email: 'a@example.com',
        date_created: shift ? '2026-01-01T00:00:00' : '2024-01-01T00:00:00',
      },
    ],
    orders: [order],
    reviews: [
      {
        id: id(60),
        product_id: id(10),
        product_permalink: `${origin}/product/tee/`,
        reviewer: 'Zoë',
        review: '<p>Fits well</p>',
        rating: 5,
        status: 'approved',
      },
    ],
    media: [
      {
        id: id(50),
        source_url: `${origin}/wp-content/uploads/2025/01/tee.png`,
        title: { rendered: 'Tee' },
        alt_text: 'front',
        post: id(10),
      },
    ],
    pages: [
      {
        id: id(70),
        slug: 'about',
        status: 'publish',
        link: `${origin}/about/`,
        guid: { raw: `${origin}/?page_id=${id(70)}` },
        title: { raw: 'About' },
        content: { raw: '<!-- wp:paragraph --><p>Hi</p><!-- /wp:paragraph -->' },
        parent: 0,
        menu_order: 0,
        featured_media: id(50),
        class_list: [`post-${id(70)}`, 'page'],
      },
      {
        id: id(71),
        slug: 'team',
        status: 'draft',
        link: `${origin}/?page_id=${id(71)}`,
        title: { raw: 'Team' },
        parent: id(70),
        menu_order: 1,
        featured_media: 0,
      },
    ],
    posts: [
      {
        id: id(80),
        slug: 'news',
        status: 'publish',
        title: { raw: 'News' },
        categories: [id(90), id(91)],
        tags: [id(95)],
        featured_media: 0,
      },
    ],
    postCategories: [
      { id: id(90), name: 'Guides', slug: 'guides', parent: 0 },
      { id: id(91), name: 'Linen', slug: 'linen', parent: id(90) },
    ],
    postTags: [{ id: id(95), name: 'care', slug: 'care' }],
  };
}

/** The id map of a migration that created every record `shift` ids further on. */
function maps(shift: number): IdMaps {
  const pairs = (ids: number[]) => new Map(ids.map((n) => [String(n + shift), String(n)]));
  return {
    categories: pairs([1]),
    brands: pairs([7]),
    products: pairs([10, 11]),
    coupons: pairs([40]),
    customers: pairs([30]),
    orders: pairs([100]),
    reviews: pairs([60]),
    pages: pairs([70, 71]),
    posts: pairs([80]),
  };
}

const compare = (destination: NativeSnapshot, shift = 1000) =>
  compareStores(
    { origin: SRC, snapshot: store(SRC, 0) },
    { origin: DST, snapshot: destination },
    maps(shift),
  );

const fields = (destination: NativeSnapshot) =>
  compare(destination).differences.map((d) => `${d.entity} ${d.record} ${d.field}`);

describe('comparing two WooCommerce stores field by field', () => {
  it('finds nothing between a store and its faithful copy under other ids, addresses and upload dates', () => {
    const result = compare(store(DST, 1000));
    // Only what WooCommerce assigns itself: the registration date and the order number.
    expect(result.differences.map((d) => [d.entity, d.field, Boolean(d.refused)])).toEqual([
      ['customers', 'date_created', true],
      ['orders', 'number', true],
    ]);
    const { compared, equal } = result.figures.products;
    expect(compared).toBeGreaterThan(20);
    expect(equal).toBe(compared);
  });

  it('compares pages and posts through the id map (parent, draft link), their featured image by file, and their categories and tags by slug', () => {
    const copy = store(DST, 1000);
    const [about, team] = copy.pages as Record<string, unknown>[];
    const [news] = copy.posts as Record<string, unknown>[];
    team!.parent = 0;
    team!.link = `${DST}/?page_id=1070`;
    about!.featured_media = 0;
    news!.categories = [1090];
    expect(fields(copy)).toEqual([
      'customers 30 date_created',
      'orders 100 number',
      'pages 70 featured_media',
      // The draft's preview link names another page.
      'pages 71 link',
      'pages 71 parent',
      'posts 80 categories',
    ]);
    // A category whose parent was lost is a difference of the category itself.
    const flat = store(DST, 1000);
    (flat.postCategories[1] as Record<string, unknown>).parent = 0;
    expect(fields(flat)).toContain('postCategories linen parent');
  });

  it('names a field the copy lost, with both values', () => {
    const copy = store(DST, 1000);
    delete (copy.products[0] as Record<string, unknown>).featured;
    const [lost] = compare(copy).differences.filter((d) => d.entity === 'products');
    expect(lost).toMatchObject({
      record: '10',
      field: 'featured',
      source: true,
      destination: undefined,
    });
    expect(lost?.refused).toBeUndefined();
  });

  it('follows ids through the id map, so a link to the wrong record is a difference', () => {
    const copy = store(DST, 1000);
    (copy.products[0] as Record<string, unknown>).upsell_ids = [1010];
    (copy.coupons[0] as Record<string, unknown>).product_ids = [1011];
    (copy.orders[0]?.line_items as Record<string, unknown>[])[0]!.variation_id = 1020;
    expect(fields(copy)).toEqual(
      expect.arrayContaining([
        'products 10 upsell_ids',
        'coupons 40 product_ids',
        'orders 100 line_items[0].variation_id',
      ]),
    );
  });

  it('matches variations by SKU and reports a missing one', () => {
    const copy = store(DST, 1000);
    const product = copy.products[0] as Record<string, unknown>;
    product.variations = [...(product.variations as unknown[])].reverse().slice(0, 1);
    expect(fields(copy)).toContain('products 10 variations[TEE-S]');
  });

  it('compares amounts as numbers and everything else as written', () => {
    const copy = store(DST, 1000);
    (copy.products[0] as Record<string, unknown>).price = '15.00';
    expect(fields(copy)).not.toContain('products 10 price');
    (copy.products[0] as Record<string, unknown>).sku = 'tee';
    expect(fields(copy)).toContain('products 10 sku');
  });

  it('sees an image stored twice (a renamed file) and a duplicated record', () => {
    const copy = store(DST, 1000);
    ((copy.products[0] as Record<string, unknown>).images as Record<string, unknown>[])[0]!.src =
      `${DST}/wp-content/uploads/2026/02/tee-1.png`;
    copy.customers.push({ id: 1031, email: 'a@example.com' });
    expect(fields(copy)).toEqual(
      expect.arrayContaining(['products 10 images[0].src', 'customers destination 1031 (record)']),
    );
  });

  it('points refunded lines at order lines by position', () => {
    const copy = store(DST, 1000);
    const refund = (copy.orders[0]?.refunds as Record<string, unknown>[])[0]!;
    const line = (refund.line_items as Record<string, unknown>[])[0]!;
    (line.meta_data as Record<string, unknown>[])[0]!.value = '999';
    expect(fields(copy)).toContain(
      'orders 100 refunds[0].line_items[0].meta_data[_refunded_item_id].value',
    );
  });

  it('expects what WooCommerce assigns only where the report names it, and leaves the migration’s markers alone', () => {
    const copy = store(DST, 1000);
    const order = copy.orders[0] as Record<string, unknown>;
    order.number = '1100';
    order.notes = [
      ...(order.notes as unknown[]),
      {
        id: 1501,
        note: 'Order status changed from Pending payment to Completed.',
        customer_note: false,
        author: 'WooCommerce',
      },
    ];
    order.meta_data = [{ id: 1, key: '_replatform_source_id', value: '100' }];
    const comparison = compare(copy);
    expect(comparison.differences.filter((d) => !d.refused)).toEqual([]);
    const csv = [
      'type,source_id,destination_id,outcome,reason,not_carried',
      'import,,,note,"Switched off the WooCommerce e-mail ""Customer note"".",',
      'customer,30,1030,migrated,,createdAt: WooCommerce stamps the registration date',
      'order,100,1100,migrated,,number: numbered by WooCommerce | notes: WooCommerce adds its own',
      '',
    ].join('\r\n');
    const verdict = judge(comparison, reportNames(csv));
    expect(verdict.unexpected).toEqual([]);
    expect(verdict.unreported).toEqual([]);
    expect(verdict.reported.map((d) => d.field)).toEqual(
      expect.arrayContaining(['date_created', 'number', expect.stringMatching(/^notes\[/)]),
    );
    // The same report without the order's line leaves both of the order's differences unnamed.
    const silent = judge(comparison, reportNames(csv.replace(/order,100.*\r\n/, '')));
    expect(silent.unreported.map((d) => d.field)).toEqual([
      'number',
      expect.stringMatching(/^notes\[/),
    ]);
  });

  it('expects a coupon’s creation date and use count to differ, named in the report, and compares the rest', () => {
    const copy = store(DST, 1000);
    const coupon = copy.coupons[0] as Record<string, unknown>;
    coupon.date_created = '2026-01-01T00:00:00';
    coupon.usage_count = 0;
    coupon.meta_data = [
      ...(coupon.meta_data as unknown[]),
      { id: 1, key: '_replatform_source_id', value: '40' },
    ];
    const comparison = compare(copy);
    const ofCoupons = comparison.differences.filter((d) => d.entity === 'coupons');
    expect(ofCoupons.map((d) => [d.field, Boolean(d.refused)])).toEqual([
      ['date_created', true],
      ['usage_count', true],
    ]);
    const csv = [
      'type,source_id,destination_id,outcome,reason,not_carried',
      'coupon,40,1040,migrated,,createdAt: dated by WooCommerce | usageCount: counted by WooCommerce',
      '',
    ].join('\r\n');
    const verdict = judge({ ...comparison, differences: ofCoupons }, reportNames(csv));
    expect(verdict.unreported).toEqual([]);
    expect(verdict.unexpected).toEqual([]);
    coupon.email_restrictions = [];
    expect(fields(copy)).toContainEqual(expect.stringMatching(/^coupons 40 email_restrictions/));
    // Who used it is WooCommerce's own record, as a whole list.
    const source = store(SRC, 0);
    (source.coupons[0] as Record<string, unknown>).used_by = ['30', 'guest@example.com'];
    (copy.coupons[0] as Record<string, unknown>).used_by = [];
    const users = compareStores(
      { origin: SRC, snapshot: source },
      { origin: DST, snapshot: copy },
      maps(1000),
    ).differences.filter((d) => d.field.startsWith('used_by'));
    expect(users.map((d) => [d.field, d.refused?.reportAs])).toEqual([
      ['used_by.length', ['used_by']],
    ]);
  });

  it('leaves the customer markers alone, which WooCommerce only keeps without a leading underscore', () => {
    const copy = store(DST, 1000);
    const customer = copy.customers[0] as Record<string, unknown>;
    customer.date_created = '2024-01-01T00:00:00';
    customer.meta_data = [
      { id: 1, key: 'replatform_source_id', value: '30' },
      { id: 2, key: 'replatform_hash', value: 'abc' },
    ];
    const source = store(SRC, 0);
    (source.customers[0] as Record<string, unknown>).meta_data = [];
    const differences = (snapshot: NativeSnapshot) =>
      compareStores({ origin: SRC, snapshot: source }, { origin: DST, snapshot }, maps(1000))
        .differences.filter((d) => d.entity !== 'orders')
        .map((d) => `${d.entity} ${d.record} ${d.field}`);
    expect(differences(copy)).toEqual([]);
    // The same keys on a product are the merchant's own meta, not ours.
    const product = copy.products[0] as Record<string, unknown>;
    product.meta_data = [
      ...(product.meta_data as unknown[]),
      { id: 3, key: 'replatform_source_id', value: '10' },
    ];
    expect(differences(copy)).toEqual(['products 10 meta_data[replatform_source_id]']);
  });

  it('expects a coupon line’s kind, amount and coupon_info, and the files’ ids, to be named in the report', () => {
    const source = store(SRC, 0);
    const copy = store(DST, 1000);
    // Only the fields under test differ.
    (copy.orders[0] as Record<string, unknown>).number = '100';
    (copy.customers[0] as Record<string, unknown>).date_created = '2024-01-01T00:00:00';
    const couponLine = (id: number, info: string, type: string, nominal: number) => ({
      id,
      code: 'welcome10',
      discount: '0.6',
      discount_type: type,
      nominal_amount: nominal,
      free_shipping: false,
      meta_data: [{ id: id + 1, key: 'coupon_info', value: info, display_value: info }],
    });
    (source.orders[0] as Record<string, unknown>).coupon_lines = [
      couponLine(600, '[58,"welcome10","percent",10]', 'percent', 10),
    ];
    (copy.orders[0] as Record<string, unknown>).coupon_lines = [
      couponLine(1600, '[84,"welcome10",null,0.6]', 'fixed_cart', 0.6),
    ];
    const file = (id: string) => ({ id, name: 'Guide', file: 'https://files.example.com/g.pdf' });
    (source.products[1] as Record<string, unknown>).downloads = [file('a1')];
    (copy.products[1] as Record<string, unknown>).downloads = [file('b2')];
    const variation = (snapshot: NativeSnapshot) =>
      (snapshot.products[0]?.variations as Record<string, unknown>[])[0]!;
    variation(source).downloads = [file('c3')];
    variation(copy).downloads = [file('d4')];
    variation(source).date_created = '2026-11-26T13:05:51';
    variation(copy).date_created = '2026-11-26T15:00:00';
    const comparison = compareStores(
      { origin: SRC, snapshot: source },
      { origin: DST, snapshot: copy },
      maps(1000),
    );
    expect(comparison.differences.filter((d) => !d.refused)).toEqual([]);
    const csv = [
      'type,source_id,destination_id,outcome,reason,not_carried',
      'product,10,1010,migrated,,variation_records[].date_created: dated by WooCommerce | variation_records[].downloads[].id: no place',
      'product,11,1011,migrated,,downloads[].id: no place',
      'order,100,1100,migrated,,coupon_lines[].discount_type: the coupon | coupon_lines[].nominal_amount: the coupon | coupon_lines[].meta_data: the coupon',
      '',
    ].join('\r\n');
    const verdict = judge(comparison, reportNames(csv));
    expect(verdict.unreported).toEqual([]);
    expect(verdict.reported.map((d) => `${d.record} ${d.field}`).sort()).toEqual([
      '10 variations[TEE-S].date_created',
      '10 variations[TEE-S].downloads[0].id',
      '100 coupon_lines[0].discount_type',
      '100 coupon_lines[0].meta_data[coupon_info].display_value',
      '100 coupon_lines[0].meta_data[coupon_info].value',
      '100 coupon_lines[0].nominal_amount',
      '11 downloads[0].id',
    ]);
    const silent = judge(comparison, reportNames(csv.replace(/order,100.*\r\n/, '')));
    expect(silent.unreported.map((d) => d.rulePath)).toContain('coupon_lines[].meta_data[].value');
  });

  it('never takes a value the source did not have for one WooCommerce assigns', () => {
    const copy = store(DST, 1000);
    (copy.orders[0] as Record<string, unknown>).date_paid = '2026-01-01T00:00:00';
    const source = store(SRC, 0);
    (source.orders[0] as Record<string, unknown>).date_paid = null;
    const [invented] = compareStores(
      { origin: SRC, snapshot: source },
      { origin: DST, snapshot: copy },
      maps(1000),
    ).differences.filter((d) => d.field === 'date_paid');
    expect(invented).toMatchObject({ source: null, destination: '2026-01-01T00:00:00' });
    expect(invented?.refused).toBeUndefined();
  });

  it('lists what changed between two reads of one store', () => {
    const before = store(DST, 1000);
    const after = store(DST, 1000);
    (after.orders[0] as Record<string, unknown>).status = 'refunded';
    expect(changedFields(before, before)).toEqual([]);
    expect(changedFields(before, after)).toEqual(['orders 1100.status: "completed" -> "refunded"']);
    // Related products are WooCommerce's random pick of each read, not a change.
    (before.products[0] as Record<string, unknown>).related_ids = [11, 12];
    (after.products[0] as Record<string, unknown>).related_ids = [12, 11];
    (after.products[0] as Record<string, unknown>).upsell_ids = [1012];
    expect(changedFields(before, after)).toEqual([
      'products 1010.upsell_ids[0]: 1011 -> 1012',
      'orders 1100.status: "completed" -> "refunded"',
    ]);
  });
});

describe('a product attribute’s options', () => {
  const withAttributes = (s: ReturnType<typeof store>, global: string[], own: string[]) => {
    (s.products[0] as Record<string, unknown>).attributes = [
      { id: (s.attributes[0] as { id: number }).id, name: 'Size', options: global },
      { id: 0, name: 'Fit', options: own },
    ];
    return s;
  };

  it('compares a store-wide attribute’s options as a set and a product’s own in their order', () => {
    const source = withAttributes(store(SRC, 0), ['Хлопок', 'Лён'], ['Slim', 'Wide']);
    const same = withAttributes(store(DST, 1000), ['Лён', 'Хлопок'], ['Slim', 'Wide']);
    const fields = (destination: ReturnType<typeof store>) =>
      compareStores(
        { origin: SRC, snapshot: source },
        { origin: DST, snapshot: destination },
        maps(1000),
      ).differences.map((d) => d.field);
    expect(fields(same).filter((f) => f.startsWith('attributes'))).toEqual([]);
    const reordered = withAttributes(store(DST, 1000), ['Хлопок', 'Лён'], ['Wide', 'Slim']);
    expect(fields(reordered)).toContain('attributes[1].options[0]');
    const lost = withAttributes(store(DST, 1000), ['Хлопок'], ['Slim', 'Wide']);
    expect(fields(lost)).toContain('attributes[0].options.length');
  });

  it('does not count WooCommerce answering tied terms in another order as a change', () => {
    const before = withAttributes(store(DST, 1000), ['Хлопок', 'Лён'], ['Slim', 'Wide']);
    const after = withAttributes(store(DST, 1000), ['Лён', 'Хлопок'], ['Slim', 'Wide']);
    expect(changedFields(before, after)).toEqual([]);
    const own = withAttributes(store(DST, 1000), ['Хлопок', 'Лён'], ['Wide', 'Slim']);
    expect(changedFields(before, own)).toEqual([
      'products 1010.attributes[1].options[0]: "Slim" -> "Wide"',
      'products 1010.attributes[1].options[1]: "Wide" -> "Slim"',
    ]);
  });
});

describe('reading the report CSV', () => {
  it('parses quoted cells with commas, quotes and line breaks', () => {
    expect(parseCsv('a,"b, ""c""","d\r\ne"\r\nf,,g\r\n')).toEqual([
      ['a', 'b, "c"', 'd\r\ne'],
      ['f', '', 'g'],
    ]);
  });
});
