import { createHash, createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { samplePng } from '../framework/sample-store.ts';
import { signedMessage, signParams } from './oauth.ts';
import { ADMIN_SCHEMA_SHA256, adminSchemaSdl } from './schema.ts';
import { matchesSearch, parseSearchQuery } from './search-query.ts';
import {
  GRAPHQL_PATH,
  INVALID_TOKEN_BODY,
  startShopifyEmulator,
  type ShopifyEmulator,
  type ShopifyEmulatorOptions,
} from './shopify-emulator.ts';

interface GraphqlAnswer {
  data?: Record<string, any> | null; // eslint-disable-line @typescript-eslint/no-explicit-any -- answers are navigated freely in assertions
  errors?: { message: string; path?: string[]; extensions?: Record<string, unknown> }[];
  extensions?: {
    cost: {
      requestedQueryCost: number;
      actualQueryCost: number | null;
      throttleStatus: { maximumAvailable: number; currentlyAvailable: number; restoreRate: number };
    };
  };
}

const emulators: ShopifyEmulator[] = [];
afterAll(async () => {
  await Promise.all(emulators.map((e) => e.close()));
});

async function start(options: ShopifyEmulatorOptions = {}): Promise<ShopifyEmulator> {
  const emulator = await startShopifyEmulator({ plan: 'plus', bulkDelayMs: 0, ...options });
  emulators.push(emulator);
  return emulator;
}

function fakeClock(start = Date.parse('2026-10-15T12:00:00Z')) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

async function gql(
  emulator: ShopifyEmulator,
  query: string,
  variables: Record<string, unknown> = {},
  options: { token?: string; shop?: string } = {},
): Promise<GraphqlAnswer> {
  const response = await fetch(`${emulator.url}${GRAPHQL_PATH}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-shopify-access-token': options.token ?? emulator.accessToken,
      ...(options.shop ? { 'x-forwarded-host': options.shop } : {}),
    },
    body: JSON.stringify({ query, variables }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as GraphqlAnswer;
}

const small = { seed: 3, products: 12, customers: 6, orders: 6 };

describe('schema', () => {
  it('is the official 2026-10 SDL, unchanged', () => {
    const digest = createHash('sha256').update(adminSchemaSdl()).digest('hex');
    expect(digest).toBe(ADMIN_SCHEMA_SHA256);
  });
});

describe('authentication and shops', () => {
  let emulator: ShopifyEmulator;
  beforeAll(async () => {
    emulator = await start({
      shops: ['alpha.myshopify.com', 'beta.myshopify.com'],
      shopSeeds: { 'alpha.myshopify.com': small, 'beta.myshopify.com': 'empty' },
    });
  });

  it('answers 401 with Shopify’s body without a valid access token', async () => {
    for (const headers of [{}, { 'x-shopify-access-token': 'shpat_nope' }] as Record<
      string,
      string
    >[]) {
      const response = await fetch(`${emulator.url}${GRAPHQL_PATH}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ query: '{ shop { name } }' }),
      });
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual(INVALID_TOKEN_BODY);
    }
  });

  it('keeps each shop domain a separate store and refuses unknown shops', async () => {
    const alpha = await gql(
      emulator,
      '{ shop { myshopifyDomain } productsCount { count } }',
      {},
      { shop: 'alpha.myshopify.com' },
    );
    const beta = await gql(
      emulator,
      '{ shop { myshopifyDomain } productsCount { count } }',
      {},
      { shop: 'beta.myshopify.com' },
    );
    expect(alpha.data).toEqual({
      shop: { myshopifyDomain: 'alpha.myshopify.com' },
      productsCount: { count: 12 },
    });
    expect(beta.data).toEqual({
      shop: { myshopifyDomain: 'beta.myshopify.com' },
      productsCount: { count: 0 },
    });
    const unknown = await fetch(`${emulator.url}${GRAPHQL_PATH}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-shopify-access-token': emulator.accessToken,
        'x-forwarded-host': 'other.myshopify.com',
      },
      body: '{"query":"{ shop { name } }"}',
    });
    expect(unknown.status).toBe(404);
    const other = await fetch(`${emulator.url}/admin/api/2024-01/graphql.json`, { method: 'POST' });
    expect(other.status).toBe(404);
  });

  it('keeps the scopes of custom-app tokens, reports them and enforces them on mutations', async () => {
    const custom = await start({
      seed: 'empty',
      tokens: { shpat_reader: ['read_products', 'read_customers'] },
    });
    const reader = { token: 'shpat_reader' };
    const scopes = await gql(
      custom,
      '{ currentAppInstallation { id accessScopes { handle } } }',
      {},
      reader,
    );
    expect(scopes.errors).toBeUndefined();
    expect(scopes.data?.currentAppInstallation.accessScopes).toEqual([
      { handle: 'read_products' },
      { handle: 'read_customers' },
    ]);
    expect((await gql(custom, '{ productsCount { count } }', {}, reader)).data).toEqual({
      productsCount: { count: 0 },
    });
    const refused = await gql(
      custom,
      'mutation { customerCreate(input: { email: "a@example.com" }) { userErrors { message } } }',
      {},
      reader,
    );
    expect(refused.errors?.[0]?.extensions?.code).toBe('ACCESS_DENIED');
    expect(refused.errors?.[0]?.message).toContain('`write_customers` access scope');
    expect(custom.countStored('customers')).toBe(0);
    const full = await gql(custom, '{ currentAppInstallation { accessScopes { handle } } }');
    expect(
      (full.data?.currentAppInstallation.accessScopes as { handle: string }[]).map((s) => s.handle),
    ).toEqual(expect.arrayContaining(['write_products', 'write_customers', 'write_orders']));
  });

  it('serves seeded product images under /media', async () => {
    const answer = await gql(
      emulator,
      '{ products(first: 1) { nodes { media(first: 1) { nodes { ... on MediaImage { image { url } } } } } } }',
    );
    const url = answer.data?.products.nodes[0].media.nodes[0].image.url as string;
    expect(url).toMatch(new RegExp(`^${emulator.url}/media/`));
    const image = await fetch(url);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(
      Buffer.from(await image.arrayBuffer())
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
    expect((await fetch(`${emulator.url}/media/not-there.png`)).status).toBe(404);
  });
});

describe('query cost and throttling', () => {
  it('computes Shopify’s requested cost and puts extensions.cost on every answer', async () => {
    const emulator = await start({ seed: small });
    const cases: [string, number][] = [
      ['{ shop { name } }', 1],
      ['{ products(first: 10) { nodes { id title } } }', 12],
      [
        '{ products(first: 10) { edges { node { id variants(first: 5) { nodes { id sku } } } } pageInfo { hasNextPage } } }',
        2 + 10 * (1 + 2 + 5),
      ],
      [
        '{ products(first: 3) { nodes { media(first: 2) { nodes { ... on MediaImage { image { url } } } } } } }',
        2 + 3 * (1 + 2 + 2 * 2),
      ],
      ['{ orders(first: 2) { nodes { totalPriceSet { shopMoney { amount } } } } }', 2 + 2 * 3],
      [
        'mutation { urlRedirectCreate(urlRedirect: { path: "/a", target: "/b" }) { urlRedirect { id } } }',
        10,
      ],
    ];
    for (const [query, cost] of cases) {
      const answer = await gql(emulator, query);
      expect(answer.errors, query).toBeUndefined();
      expect(answer.extensions?.cost.requestedQueryCost, query).toBe(cost);
      expect(answer.extensions?.cost.actualQueryCost, query).toBeLessThanOrEqual(cost);
      expect(answer.extensions?.cost.throttleStatus).toMatchObject({
        maximumAvailable: 20_000,
        restoreRate: 1000,
      });
    }
    const invalid = await gql(emulator, '{ shop { nope } }');
    expect(invalid.errors?.[0]?.message).toMatch(/Cannot query field "nope"/);
    expect(invalid.extensions?.cost.throttleStatus.restoreRate).toBe(1000);
  });

  it('prices productSet and metafieldsSet dynamically', async () => {
    const emulator = await start({ seed: small });
    const product = await gql(
      emulator,
      '{ products(first: 1) { nodes { id } } orders(first: 1) { nodes { id } } }',
    );
    const productId = product.data?.products.nodes[0].id;
    const orderId = product.data?.orders.nodes[0].id;
    const set = await gql(
      emulator,
      `mutation($input: ProductSetInput!) { productSet(input: $input) { product { id } userErrors { message } } }`,
      {
        input: {
          title: 'Costly',
          productOptions: [{ name: 'Size', values: [{ name: 'S' }, { name: 'M' }, { name: 'L' }] }],
          variants: ['S', 'M', 'L'].map((name) => ({
            optionValues: [{ optionName: 'Size', name }],
            price: '1.00',
          })),
          files: [
            { originalSource: `${emulator.url}/media/x.png`, contentType: 'IMAGE' },
            { originalSource: `${emulator.url}/media/y.png`, contentType: 'IMAGE' },
          ],
          metafields: [
            { namespace: 'custom', key: 'material', type: 'single_line_text_field', value: 'oak' },
          ],
        },
      },
    );
    // 10 + 3 x 0.2 + 2 x 1.9 + 1 x 0.4 = 14.8
    expect(set.extensions?.cost.requestedQueryCost).toBe(15);
    const metafields = await gql(
      emulator,
      `mutation($m: [MetafieldsSetInput!]!) { metafieldsSet(metafields: $m) { metafields { key } userErrors { message } } }`,
      {
        m: [
          {
            ownerId: productId,
            namespace: 'custom',
            key: 'aa',
            type: 'single_line_text_field',
            value: 'x',
          },
          {
            ownerId: productId,
            namespace: 'custom',
            key: 'bb',
            type: 'single_line_text_field',
            value: 'y',
          },
          {
            ownerId: orderId,
            namespace: 'custom',
            key: 'cc',
            type: 'single_line_text_field',
            value: 'z',
          },
        ],
      },
    );
    // 10 + product 4 + order 10
    expect(metafields.extensions?.cost.requestedQueryCost).toBe(24);
    expect(metafields.data?.metafieldsSet.userErrors).toEqual([]);
  });

  it('refuses a query above 1,000 points with MAX_COST_EXCEEDED and charges nothing', async () => {
    const emulator = await start({ seed: small });
    const answer = await gql(
      emulator,
      '{ products(first: 250) { nodes { variants(first: 250) { nodes { id } } } } }',
    );
    expect(answer.data).toBeUndefined();
    expect(answer.errors?.[0]?.extensions).toMatchObject({
      code: 'MAX_COST_EXCEEDED',
      cost: 2 + 250 * 253,
      maxCost: 1000,
    });
    expect(answer.errors?.[0]?.message).toMatch(
      /^Query cost is 63252, which exceeds the single query max cost limit \(1000\)/,
    );
    expect(answer.extensions?.cost.throttleStatus.currentlyAvailable).toBe(20_000);
    expect(emulator.shop().stats.maxCostExceeded).toBe(1);
  });

  it('throttles a burst that exceeds the bucket, then refills at the restore rate', async () => {
    const clock = fakeClock();
    const emulator = await start({
      seed: small,
      plan: 'standard',
      bucketSize: 1000,
      clock: clock.now,
    });
    const heavy = '{ products(first: 9) { nodes { id variants(first: 100) { nodes { id } } } } }';
    const answers = await Promise.all([
      gql(emulator, heavy),
      gql(emulator, heavy),
      gql(emulator, heavy),
    ]);
    const throttled = answers.filter((a) => a.errors?.[0]?.extensions?.code === 'THROTTLED');
    expect(throttled.length).toBeGreaterThanOrEqual(1);
    for (const answer of throttled) {
      expect(answer.data).toBeUndefined();
      expect(answer.errors?.[0]?.message).toBe('Throttled');
      expect(answer.extensions?.cost.requestedQueryCost).toBe(2 + 9 * 103);
      expect(answer.extensions?.cost.actualQueryCost).toBeNull();
      expect(answer.extensions?.cost.throttleStatus.maximumAvailable).toBe(1000);
      expect(answer.extensions?.cost.throttleStatus.restoreRate).toBe(100);
      expect(answer.extensions?.cost.throttleStatus.currentlyAvailable).toBeLessThan(929);
    }
    expect(emulator.shop().stats.throttled).toBe(throttled.length);
    clock.advance(10_000);
    const later = await gql(emulator, heavy);
    expect(later.errors).toBeUndefined();
    expect(later.extensions?.cost.throttleStatus.currentlyAvailable).toBe(
      1000 - (later.extensions?.cost.actualQueryCost ?? 0),
    );
  });
});

describe('reading', () => {
  let emulator: ShopifyEmulator;
  beforeAll(async () => {
    emulator = await start({ seed: { ...small, products: 23 } });
  });

  it('requires a page size of at most 250 and paginates every object exactly once', async () => {
    const missing = await gql(emulator, '{ products { nodes { id } } }');
    expect(missing.errors?.[0]?.message).toBe('you must provide one of first or last');
    const tooBig = await gql(emulator, '{ customers(first: 251) { nodes { id } } }');
    expect(tooBig.errors?.[0]?.message).toMatch(/between 0 and 250/);
    const ids: string[] = [];
    let after: string | null = null;
    for (;;) {
      const answer = await gql(
        emulator,
        'query($after: String) { products(first: 5, after: $after) { pageInfo { hasNextPage endCursor } nodes { id } } }',
        { after },
      );
      const page = answer.data?.products;
      ids.push(...page.nodes.map((n: { id: string }) => n.id));
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    expect(ids).toHaveLength(23);
    expect(new Set(ids).size).toBe(23);
    const last = await gql(emulator, '{ products(last: 2) { nodes { id } } }');
    expect(last.data?.products.nodes.map((n: { id: string }) => n.id)).toEqual(ids.slice(-2));
  });

  it('filters with Shopify search syntax and counts with a limit', async () => {
    const all = (
      await gql(
        emulator,
        '{ products(first: 50) { nodes { id handle variants(first: 1) { nodes { sku } } } } }',
      )
    ).data?.products.nodes;
    const target = all[3];
    const byHandle = await gql(
      emulator,
      'query($q: String) { products(first: 5, query: $q) { nodes { id } } }',
      { q: `handle:${target.handle}` },
    );
    expect(byHandle.data?.products.nodes).toEqual([{ id: target.id }]);
    const bySku = await gql(
      emulator,
      'query($q: String) { products(first: 5, query: $q) { nodes { id } } }',
      { q: `sku:"${target.variants.nodes[0].sku}"` },
    );
    expect(bySku.data?.products.nodes).toEqual([{ id: target.id }]);
    const number = Number(String(target.id).split('/').pop());
    const after = await gql(
      emulator,
      'query($q: String) { productsCount(query: $q, limit: null) { count precision } }',
      { q: `id:>${number}` },
    );
    expect(after.data?.productsCount).toEqual({ count: all.length - 4, precision: 'EXACT' });
    const capped = await gql(emulator, '{ productsCount(limit: 5) { count precision } }');
    expect(capped.data?.productsCount).toEqual({ count: 5, precision: 'AT_LEAST' });
  });

  it('reaches at most 25,000 objects by pagination', async () => {
    const big = await start({ seed: 'empty', bucketSize: 10_000_000 });
    const shop = big.shop();
    for (let i = 0; i < 25_010; i++) {
      const id = shop.nextId();
      shop.collections.set(id, {
        id,
        handle: `c-${i}`,
        title: `C ${i}`,
        descriptionHtml: '',
        image: null,
        seoTitle: null,
        seoDescription: null,
        productIds: [],
        metafields: [],
        sortOrder: 'MANUAL',
        templateSuffix: null,
        createdAt: shop.timestamp(),
        updatedAt: shop.timestamp(),
      });
    }
    const query =
      'query($after: String) { collections(first: 250, after: $after) { pageInfo { hasNextPage endCursor } nodes { id } } }';
    let after: string | null = null;
    let seen = 0;
    for (let page = 0; page < 100; page++) {
      const answer = await gql(big, query, { after });
      seen += answer.data?.collections.nodes.length;
      after = answer.data?.collections.pageInfo.endCursor;
    }
    expect(seen).toBe(25_000);
    const beyond = await gql(big, query, { after });
    expect(beyond.errors?.[0]?.message).toMatch(/limited to the first 25000 objects/);
    expect(
      (await gql(big, '{ collectionsCount(limit: null) { count } }')).data?.collectionsCount.count,
    ).toBe(25_010);
  });

  it('parses search queries with quotes, negation and OR', () => {
    const values = (field: string) =>
      ({ tag: ['sale', 'new arrival'], title: ['Red "Big" Shirt'] })[field as 'tag'];
    expect(matchesSearch(parseSearchQuery('tag:"new arrival"'), values, [])).toBe(true);
    expect(matchesSearch(parseSearchQuery('-tag:sale'), values, [])).toBe(false);
    expect(matchesSearch(parseSearchQuery('tag:gift OR tag:sale'), values, [])).toBe(true);
    expect(matchesSearch(parseSearchQuery('title:"Red \\"Big\\" Shirt"'), values, [])).toBe(true);
    expect(matchesSearch(parseSearchQuery('shirt'), values, ['Red Big Shirt'])).toBe(true);
  });
});

describe('mutations and userErrors', () => {
  let emulator: ShopifyEmulator;
  beforeAll(async () => {
    emulator = await start({ seed: 'empty' });
  });
  const productSet = `mutation($input: ProductSetInput!, $identifier: ProductSetIdentifiers) {
    productSet(input: $input, identifier: $identifier) { product { id handle variants(first: 5) { nodes { id sku inventoryQuantity } } media(first: 5) { nodes { status mediaErrors { code } ... on MediaImage { image { url } } } } } userErrors { field message code } }
  }`;
  const simple = (extra: Record<string, unknown> = {}) => ({
    title: 'Plain Mug',
    productOptions: [{ name: 'Title', values: [{ name: 'Default Title' }] }],
    variants: [
      {
        optionValues: [{ optionName: 'Title', name: 'Default Title' }],
        price: '9.50',
        sku: 'MUG-1',
      },
    ],
    ...extra,
  });

  it('creates a product with downloaded media and answers userErrors for invalid input without changing anything', async () => {
    const created = await gql(emulator, productSet, {
      input: simple({
        handle: 'plain-mug',
        files: [
          { originalSource: `${emulator.url}/cdn/shop/files/none.png`, contentType: 'IMAGE' },
        ],
      }),
    });
    expect(created.data?.productSet.userErrors).toEqual([]);
    expect(created.data?.productSet.product.media.nodes[0]).toMatchObject({
      status: 'FAILED',
      mediaErrors: [{ code: 'IMAGE_DOWNLOAD_FAILURE' }],
    });

    const cases: [Record<string, unknown>, string][] = [
      [simple({ title: '' }), 'MISSING_FIELD_REQUIRED'],
      [simple({ handle: 'plain-mug' }), 'HANDLE_NOT_UNIQUE'],
      [
        {
          title: 'Too many options',
          productOptions: ['A', 'B', 'C', 'D'].map((name) => ({ name, values: [{ name: 'x' }] })),
          variants: [
            { optionValues: ['A', 'B', 'C', 'D'].map((optionName) => ({ optionName, name: 'x' })) },
          ],
        },
        'OPTIONS_OVER_LIMIT',
      ],
      [
        {
          title: 'Too many variants',
          productOptions: [
            { name: 'N', values: Array.from({ length: 2049 }, (_v, i) => ({ name: `v${i}` })) },
          ],
          variants: Array.from({ length: 2049 }, (_v, i) => ({
            optionValues: [{ optionName: 'N', name: `v${i}` }],
            price: '1.00',
          })),
        },
        'VARIANTS_OVER_LIMIT',
      ],
      [
        simple({ variants: [{ optionValues: [{ optionName: 'Title', name: 'Nope' }] }] }),
        'OPTION_VALUE_DOES_NOT_EXIST',
      ],
      [
        simple({
          metafields: [
            { namespace: 'custom', key: 'x', type: 'single_line_text_field', value: 'a' },
          ],
        }),
        'INVALID_METAFIELD',
      ],
    ];
    for (const [input, code] of cases) {
      const answer = await gql(emulator, productSet, { input });
      expect(answer.data?.productSet.product, code).toBeNull();
      expect(
        answer.data?.productSet.userErrors.map((e: { code: string }) => e.code),
        code,
      ).toContain(code);
    }
    expect(emulator.countStored('products')).toBe(1);
  });

  it('upserts by a unique custom id and refuses a duplicate marker value', async () => {
    const definition = await gql(
      emulator,
      `mutation { metafieldDefinitionCreate(definition: { name: "Source", namespace: "replatform", key: "source_id", type: "single_line_text_field", ownerType: PRODUCT, capabilities: { uniqueValues: { enabled: true } } }) { createdDefinition { id } userErrors { code } } }`,
    );
    expect(definition.data?.metafieldDefinitionCreate.userErrors).toEqual([]);
    const marker = {
      namespace: 'replatform',
      key: 'source_id',
      type: 'single_line_text_field',
      value: 'src-1',
    };
    const identifier = { customId: { namespace: 'replatform', key: 'source_id', value: 'src-1' } };
    const first = await gql(emulator, productSet, {
      identifier,
      input: simple({ title: 'Upserted', metafields: [marker] }),
    });
    const second = await gql(emulator, productSet, {
      identifier,
      input: simple({ title: 'Upserted again', metafields: [marker] }),
    });
    expect(second.data?.productSet.product.id).toBe(first.data?.productSet.product.id);
    const clash = await gql(emulator, productSet, {
      input: simple({ title: 'Clash', metafields: [marker] }),
    });
    expect(clash.data?.productSet.userErrors[0]).toMatchObject({
      code: 'CAPABILITY_VIOLATION',
      field: ['input', 'metafields', '0', 'value'],
    });
    const found = await gql(
      emulator,
      `query($i: ProductIdentifierInput!) { productByIdentifier(identifier: $i) { title } }`,
      { i: identifier },
    );
    expect(found.data?.productByIdentifier).toEqual({ title: 'Upserted again' });
    const noDefinition = await gql(
      emulator,
      `query { customerByIdentifier(identifier: { customId: { namespace: "replatform", key: "source_id", value: "x" } }) { id } }`,
    );
    expect(noDefinition.errors?.[0]?.message).toMatch(/unique values capability/);
  });

  it('validates collections, membership, customers, metafieldsSet and redirects', async () => {
    const products = (
      await gql(emulator, '{ products(first: 2) { nodes { id } } }')
    ).data?.products.nodes.map((n: { id: string }) => n.id);
    const collection = await gql(
      emulator,
      'mutation { collectionCreate(collection: { title: "Mugs", handle: "mugs" }) { collection { id handle } userErrors { field message } } }',
    );
    const collectionId = collection.data?.collectionCreate.collection.id;
    expect(
      (
        await gql(
          emulator,
          'mutation { collectionCreate(collection: { title: "" }) { collection { id } userErrors { field message } } }',
        )
      ).data?.collectionCreate.userErrors,
    ).toEqual([{ field: ['title'], message: "Title can't be blank" }]);
    const add =
      'mutation($id: ID!, $p: [ID!]!) { collectionAddProducts(id: $id, productIds: $p) { collection { productsCount { count } } userErrors { message } } }';
    expect(
      (await gql(emulator, add, { id: collectionId, p: products })).data?.collectionAddProducts
        .collection.productsCount.count,
    ).toBe(2);
    expect(
      (await gql(emulator, add, { id: collectionId, p: products.slice(0, 1) })).data
        ?.collectionAddProducts.userErrors[0].message,
    ).toMatch(/already in the collection/);

    const customer =
      'mutation($input: CustomerInput!) { customerCreate(input: $input) { customer { id defaultAddress { city } defaultEmailAddress { marketingState } } userErrors { field message } } }';
    const created = await gql(emulator, customer, {
      input: {
        email: 'a@example.com',
        emailMarketingConsent: { marketingState: 'SUBSCRIBED' },
        addresses: [{ city: 'Oslo', countryCode: 'NO' }, { city: 'Bergen' }],
      },
    });
    expect(created.data?.customerCreate.customer).toMatchObject({
      defaultAddress: { city: 'Oslo' },
      defaultEmailAddress: { marketingState: 'SUBSCRIBED' },
    });
    expect(
      (await gql(emulator, customer, { input: { email: 'A@example.com' } })).data?.customerCreate
        .userErrors,
    ).toEqual([{ field: ['email'], message: 'Email has already been taken' }]);
    expect(
      (await gql(emulator, customer, { input: { email: 'not-an-email' } })).data?.customerCreate
        .userErrors[0].message,
    ).toBe('Email is invalid');
    expect(
      (
        await gql(emulator, customer, {
          input: {
            phone: '+1 (555) 010-9999',
            emailMarketingConsent: { marketingState: 'SUBSCRIBED' },
          },
        })
      ).data?.customerCreate.userErrors[0].field,
    ).toEqual(['emailMarketingConsent']);

    const set =
      'mutation($m: [MetafieldsSetInput!]!) { metafieldsSet(metafields: $m) { metafields { value } userErrors { code field } } }';
    const many = Array.from({ length: 26 }, (_v, i) => ({
      ownerId: products[0],
      namespace: 'custom',
      key: `k${i}x`,
      type: 'single_line_text_field',
      value: 'v',
    }));
    expect((await gql(emulator, set, { m: many })).data?.metafieldsSet.userErrors[0]).toEqual({
      code: 'LESS_THAN_OR_EQUAL_TO',
      field: ['metafields'],
    });
    expect(
      (
        await gql(emulator, set, {
          m: [{ ownerId: products[0], namespace: 'custom', key: 'untyped', value: 'v' }],
        })
      ).data?.metafieldsSet.userErrors[0].code,
    ).toBe('BLANK');
    expect(
      (await gql(emulator, set, { m: many.slice(0, 25) })).data?.metafieldsSet.metafields,
    ).toHaveLength(25);

    const redirect =
      'mutation { urlRedirectCreate(urlRedirect: { path: "/old", target: "/products/x" }) { urlRedirect { path target } userErrors { message } } }';
    expect((await gql(emulator, redirect)).data?.urlRedirectCreate.urlRedirect).toEqual({
      path: '/old',
      target: '/products/x',
    });
    expect((await gql(emulator, redirect)).data?.urlRedirectCreate.userErrors[0].message).toBe(
      'Path has already been taken',
    );
  });

  it('creates orders with totals, without notifying or moving stock unless asked', async () => {
    const product = await gql(emulator, productSet, {
      input: simple({
        title: 'Stocked',
        handle: 'stocked',
        variants: [
          {
            optionValues: [{ optionName: 'Title', name: 'Default Title' }],
            price: '10.00',
            sku: 'ST-1',
            inventoryItem: { tracked: true },
            inventoryQuantities: [
              { locationId: 'gid://shopify/Location/1', name: 'available', quantity: 3 },
            ],
          },
        ],
      }),
    });
    const variant = product.data?.productSet.product.variants.nodes[0];
    expect(variant.inventoryQuantity).toBe(3);
    const create = `mutation($order: OrderCreateOrderInput!, $options: OrderCreateOptionsInput) {
      orderCreate(order: $order, options: $options) { order { name displayFinancialStatus subtotalPriceSet { shopMoney { amount } } totalDiscountsSet { shopMoney { amount } } totalTaxSet { shopMoney { amount } } totalPriceSet { shopMoney { amount } } lineItems(first: 5) { nodes { name discountAllocations { allocatedAmountSet { shopMoney { amount } } } } } } userErrors { field message code } }
    }`;
    const money = (amount: string) => ({ shopMoney: { amount, currencyCode: 'USD' } });
    const order = {
      name: '#5001',
      financialStatus: 'PAID',
      lineItems: [
        {
          variantId: variant.id,
          quantity: 2,
          priceSet: money('10.00'),
          taxLines: [{ title: 'VAT', rate: '0.2', priceSet: money('4.00') }],
        },
      ],
      shippingLines: [{ title: 'Post', priceSet: money('5.00') }],
      discountCode: { itemFixedDiscountCode: { code: 'TEN', amountSet: money('3.00') } },
    };
    const bypass = await gql(emulator, create, {
      order,
      options: { sendReceipt: false, inventoryBehaviour: 'BYPASS' },
    });
    expect(bypass.data?.orderCreate.order).toMatchObject({
      name: '#5001',
      displayFinancialStatus: 'PAID',
      subtotalPriceSet: { shopMoney: { amount: '17.0' } },
      totalDiscountsSet: { shopMoney: { amount: '3.0' } },
      totalTaxSet: { shopMoney: { amount: '4.0' } },
      totalPriceSet: { shopMoney: { amount: '26.0' } },
      lineItems: {
        nodes: [
          {
            name: 'Stocked',
            discountAllocations: [{ allocatedAmountSet: { shopMoney: { amount: '3.0' } } }],
          },
        ],
      },
    });
    expect(emulator.shop().stats).toMatchObject({ notificationsSent: 0, inventoryAdjustments: 0 });
    await gql(emulator, create, {
      order: { ...order, name: '#5002' },
      options: { sendReceipt: true, inventoryBehaviour: 'DECREMENT_OBEYING_POLICY' },
    });
    expect(emulator.shop().stats).toMatchObject({ notificationsSent: 1, inventoryAdjustments: 1 });
    const refused = await gql(emulator, create, {
      order: { ...order, name: '#5003' },
      options: { inventoryBehaviour: 'DECREMENT_OBEYING_POLICY' },
    });
    expect(refused.data?.orderCreate.userErrors[0].code).toBe('INVENTORY_CLAIM_FAILED');
    const invalid = await gql(emulator, create, {
      order: { lineItems: [{ variantId: 'gid://shopify/ProductVariant/999999', quantity: 1 }] },
    });
    expect(invalid.data?.orderCreate.userErrors[0]).toMatchObject({
      code: 'INVALID',
      field: ['order', 'lineItems', '0', 'variantId'],
    });
    const currency = await gql(emulator, create, {
      order: {
        lineItems: [
          {
            title: 'x',
            quantity: 1,
            priceSet: { shopMoney: { amount: '1.00', currencyCode: 'EUR' } },
          },
        ],
      },
    });
    expect(currency.data?.orderCreate.userErrors[0].message).toMatch(/currency/);
  });

  it('cancels orders and holds fulfillment orders', async () => {
    const created = await gql(
      emulator,
      'mutation { orderCreate(order: { lineItems: [{ title: "x", quantity: 1, priceSet: { shopMoney: { amount: "1.00", currencyCode: USD } } }], financialStatus: AUTHORIZED }) { order { id fulfillmentOrders(first: 1) { nodes { id status } } } } }',
    );
    const order = created.data?.orderCreate.order;
    const hold = await gql(
      emulator,
      'mutation($id: ID!) { fulfillmentOrderHold(id: $id, fulfillmentHold: { reason: OTHER }) { fulfillmentOrder { status } userErrors { message } } }',
      { id: order.fulfillmentOrders.nodes[0].id },
    );
    expect(hold.data?.fulfillmentOrderHold.fulfillmentOrder.status).toBe('ON_HOLD');
    const cancel =
      'mutation($id: ID!) { orderCancel(orderId: $id, reason: OTHER, restock: false) { job { done } orderCancelUserErrors { code message } } }';
    expect((await gql(emulator, cancel, { id: order.id })).data?.orderCancel.job.done).toBe(true);
    expect(
      (await gql(emulator, cancel, { id: order.id })).data?.orderCancel.orderCancelUserErrors[0]
        .message,
    ).toMatch(/already been cancelled/);
    const read = await gql(
      emulator,
      'query($id: ID!) { order(id: $id) { cancelledAt displayFinancialStatus displayFulfillmentStatus } }',
      { id: order.id },
    );
    expect(read.data?.order).toMatchObject({
      cancelledAt: expect.any(String),
      displayFinancialStatus: 'VOIDED',
      displayFulfillmentStatus: 'ON_HOLD',
    });
  });

  it('limits orderCreate to 5 orders per minute on a development store', async () => {
    const clock = fakeClock();
    const dev = await start({ seed: 'empty', developmentStore: true, clock: clock.now });
    const create =
      'mutation { orderCreate(order: { lineItems: [{ title: "x", quantity: 1, priceSet: { shopMoney: { amount: "1.00", currencyCode: USD } } }] }) { order { id } userErrors { message } } }';
    for (let i = 0; i < 5; i++)
      expect((await gql(dev, create)).data?.orderCreate.order.id).toBeDefined();
    const refused = await gql(dev, create);
    expect(refused.data?.orderCreate).toBeNull();
    expect(refused.errors?.[0]).toMatchObject({
      path: ['orderCreate'],
      extensions: { code: 'TOO_MANY_REQUESTS', retryAfterSeconds: 60 },
    });
    expect(dev.shop().stats.orderCreateRefused).toBe(1);
    clock.advance(60_000);
    expect((await gql(dev, create)).data?.orderCreate.order.id).toBeDefined();
    expect(
      (await gql(dev, '{ shop { plan { partnerDevelopment } } }')).data?.shop.plan
        .partnerDevelopment,
    ).toBe(true);
  });
});

describe('bulk operations', () => {
  let emulator: ShopifyEmulator;
  const clock = fakeClock();
  beforeAll(async () => {
    emulator = await start({ seed: small, clock: clock.now, bulkDelayMs: 1000 });
  });
  const run =
    'mutation($q: String!) { bulkOperationRunQuery(query: $q) { bulkOperation { id status } userErrors { code field message } } }';
  const status =
    'query($id: ID!) { bulkOperation(id: $id) { status objectCount rootObjectCount url } }';

  it('runs a bulk query and serves a JSONL file with __parentId for nested objects', async () => {
    const started = await gql(emulator, run, {
      q: '{ products { edges { node { id title variants { edges { node { id sku } } } } } } }',
    });
    const id = started.data?.bulkOperationRunQuery.bulkOperation.id;
    expect(started.data?.bulkOperationRunQuery.bulkOperation.status).toBe('RUNNING');
    expect((await gql(emulator, status, { id })).data?.bulkOperation).toMatchObject({
      status: 'RUNNING',
      url: null,
    });
    clock.advance(1000);
    const finished = (await gql(emulator, status, { id })).data?.bulkOperation;
    expect(finished.status).toBe('COMPLETED');
    expect(finished.rootObjectCount).toBe('12');
    expect(
      (await gql(emulator, '{ currentBulkOperation { id } }')).data?.currentBulkOperation.id,
    ).toBe(id);
    const lines = (await (await fetch(finished.url)).text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, string>);
    expect(String(lines.length)).toBe(finished.objectCount);
    const products = lines.filter((l) => l.__parentId === undefined);
    expect(products).toHaveLength(12);
    expect(
      products.every((p) => p.id?.startsWith('gid://shopify/Product/') && !('variants' in p)),
    ).toBe(true);
    const variants = lines.filter((l) => l.__parentId !== undefined);
    expect(variants.length).toBeGreaterThanOrEqual(12);
    for (const v of variants) expect(products.some((p) => p.id === v.__parentId)).toBe(true);
    const forged = new URL(finished.url);
    forged.searchParams.set('token', 'forged');
    expect((await fetch(forged)).status).toBe(403);
  });

  it('answers a null url when nothing matched', async () => {
    const started = await gql(emulator, run, {
      q: '{ customers(query: "email:nobody@example.com") { edges { node { id } } } }',
    });
    clock.advance(1000);
    const done = (
      await gql(emulator, status, { id: started.data?.bulkOperationRunQuery.bulkOperation.id })
    ).data?.bulkOperation;
    expect(done).toMatchObject({ status: 'COMPLETED', objectCount: '0', url: null });
  });

  it('enforces Shopify’s bulk query restrictions', async () => {
    const invalid: [string, RegExp][] = [
      ['{ shop { name } }', /at least one connection/],
      ['{ node(id: "gid://shopify/Product/1") { id } }', /node/],
      [
        '{ products { edges { node { variants { edges { node { id } } } } } } }',
        /must select the 'id' field/,
      ],
      [
        '{ products { edges { node { id variants { edges { node { id media { edges { node { id } } } } } } } } } }',
        /nested more than 2 levels/,
      ],
      [
        '{ products { edges { node { id variants { edges { node { id } } } media { edges { node { id } } } metafields { edges { node { id } } } collections { edges { node { id } } } sellingPlanGroups { edges { node { id } } } } } } }',
        /more than 5 connections/,
      ],
      ['{ products { nope } }', /Invalid bulk query/],
    ];
    for (const [q, message] of invalid) {
      const answer = await gql(emulator, run, { q });
      expect(answer.data?.bulkOperationRunQuery.bulkOperation, q).toBeNull();
      expect(answer.data?.bulkOperationRunQuery.userErrors[0], q).toMatchObject({
        code: 'INVALID',
        field: ['query'],
      });
      expect(answer.data?.bulkOperationRunQuery.userErrors[0].message, q).toMatch(message);
    }
  });
});

describe('OAuth app install', () => {
  let emulator: ShopifyEmulator;
  beforeAll(async () => {
    emulator = await start({
      seed: small,
      shops: ['oauth-shop.myshopify.com'],
      apiKey: 'app-key',
      apiSecret: 'app-secret',
    });
  });

  const authorize = (query: Record<string, string>) =>
    fetch(`${emulator.url}/admin/oauth/authorize?${new URLSearchParams(query)}`, {
      redirect: 'manual',
      headers: { 'x-forwarded-host': 'oauth-shop.myshopify.com' },
    });
  const token = (body: Record<string, string>) =>
    fetch(`${emulator.url}/admin/oauth/access_token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-forwarded-host': 'oauth-shop.myshopify.com',
      },
      body: JSON.stringify(body),
    });

  it('redirects back with a signed code, which buys one token with the granted scopes', async () => {
    const response = await authorize({
      client_id: 'app-key',
      scope: 'read_products',
      redirect_uri: 'https://app.example/callback',
      state: 'nonce-123',
    });
    expect(response.status).toBe(302);
    const callback = new URL(response.headers.get('location') ?? '');
    expect(callback.origin + callback.pathname).toBe('https://app.example/callback');
    const params = Object.fromEntries(callback.searchParams);
    expect(Object.keys(params).sort()).toEqual([
      'code',
      'hmac',
      'host',
      'shop',
      'state',
      'timestamp',
    ]);
    expect(params).toMatchObject({ shop: 'oauth-shop.myshopify.com', state: 'nonce-123' });
    const message = new URLSearchParams(
      Object.entries(params)
        .filter(([k]) => k !== 'hmac')
        .sort(([a], [b]) => (a < b ? -1 : 1)),
    ).toString();
    expect(params.hmac).toBe(createHmac('sha256', 'app-secret').update(message).digest('hex'));

    expect(
      (await token({ client_id: 'app-key', client_secret: 'wrong', code: params.code ?? '' }))
        .status,
    ).toBe(401);
    const ok = await token({
      client_id: 'app-key',
      client_secret: 'app-secret',
      code: params.code ?? '',
    });
    expect(ok.status).toBe(200);
    const body = (await ok.json()) as { access_token: string; scope: string };
    expect(body.scope).toBe('read_products');
    const reuse = await token({
      client_id: 'app-key',
      client_secret: 'app-secret',
      code: params.code ?? '',
    });
    expect(reuse.status).toBe(400);
    expect(await reuse.json()).toEqual({
      error: 'invalid_request',
      error_description: 'The authorization code was not found or was already used',
    });

    const products = await gql(
      emulator,
      '{ productsCount { count } }',
      {},
      { token: body.access_token, shop: 'oauth-shop.myshopify.com' },
    );
    expect(products.data?.productsCount.count).toBe(12);
    const customers = await gql(
      emulator,
      '{ customers(first: 1) { nodes { id } } }',
      {},
      { token: body.access_token, shop: 'oauth-shop.myshopify.com' },
    );
    expect(customers.errors?.[0]?.extensions?.code).toBe('ACCESS_DENIED');
    const write = await gql(
      emulator,
      'mutation { urlRedirectCreate(urlRedirect: { path: "/x", target: "/y" }) { userErrors { message } } }',
      {},
      { token: body.access_token, shop: 'oauth-shop.myshopify.com' },
    );
    expect(write.errors?.[0]?.extensions?.code).toBe('ACCESS_DENIED');
    const installation = await gql(
      emulator,
      '{ currentAppInstallation { accessScopes { handle description } } }',
      {},
      { token: body.access_token, shop: 'oauth-shop.myshopify.com' },
    );
    expect(installation.data?.currentAppInstallation.accessScopes).toEqual([
      { handle: 'read_products', description: 'Read products, variants, and collections' },
    ]);
  });

  it('signs the callback as Shopify documents it: sorted and form-encoded', async () => {
    // shopify.dev "Verify a request": secret "hush" gives this hmac for this query.
    expect(
      signParams(
        [
          ['timestamp', '1337178173'],
          ['state', '0.6784241404160823'],
          ['shop', 'some-shop.myshopify.com'],
          ['code', '0907a61c0c8d55e99db179b68161bc00'],
        ],
        'hush',
      ),
    ).toBe('700e2dadb827fcc8609e9d5ce208b2e9cdaab9df07390d2cbca10d7c328fc4bf');
    expect(signedMessage([['state', "a b!'()~"]])).toBe('state=a+b%21%27%28%29%7E');
    const response = await authorize({
      client_id: 'app-key',
      scope: 'read_products',
      redirect_uri: 'https://app.example/callback',
      state: "it's (a) state!",
    });
    const callback = new URL(response.headers.get('location') ?? '');
    const pairs = [...callback.searchParams].filter(([k]) => k !== 'hmac');
    expect(callback.searchParams.get('state')).toBe("it's (a) state!");
    expect(callback.searchParams.get('hmac')).toBe(signParams(pairs, 'app-secret'));
  });

  it('refuses an unknown client id or a missing redirect_uri', async () => {
    expect(
      (
        await authorize({
          client_id: 'other',
          scope: 'read_products',
          redirect_uri: 'https://app.example/cb',
          state: 's',
        })
      ).status,
    ).toBe(400);
    expect(
      (await authorize({ client_id: 'app-key', scope: 'read_products', state: 's' })).status,
    ).toBe(400);
  });
});

describe('large products, media processing, trial stores, tags and phones', () => {
  let images: Server;
  let imageOrigin = '';
  beforeAll(async () => {
    // Any /img/ path is a small PNG; everything else is missing.
    images = createServer((req, res) => {
      if (req.url?.startsWith('/img/')) {
        res.writeHead(200, { 'content-type': 'image/png' });
        res.end(samplePng(req.url));
      } else {
        res.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
    imageOrigin = `http://127.0.0.1:${(images.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => images.close(resolve));
  });

  const productSet = `mutation($input: ProductSetInput!, $identifier: ProductSetIdentifiers) {
    productSet(input: $input, identifier: $identifier) {
      product { id options { name optionValues { name } } variantsCount { count } media(first: 5) { nodes { id status } } }
      userErrors { field message code }
    }
  }`;
  const bulkCreate = `mutation($productId: ID!, $variants: [ProductVariantsBulkInput!]!, $media: [CreateMediaInput!]) {
    productVariantsBulkCreate(productId: $productId, variants: $variants, media: $media) {
      productVariants { id title sku media(first: 1) { nodes { id } } inventoryQuantity }
      userErrors { field message code }
    }
  }`;
  const sized = (sizes: string[], extra: Record<string, unknown> = {}) => ({
    title: 'Tee',
    productOptions: [{ name: 'Size', values: sizes.map((name) => ({ name })) }],
    variants: sizes.map((s) => ({
      optionValues: [{ optionName: 'Size', name: s }],
      price: '5.00',
    })),
    ...extra,
  });

  it('adds variants in bulk, with new option values, media and inventory, costed as Shopify does', async () => {
    const emulator = await start({ seed: 'empty' });
    const created = await gql(emulator, productSet, {
      input: sized(['S'], {
        files: [{ originalSource: `${imageOrigin}/img/a.png`, contentType: 'IMAGE' }],
      }),
    });
    const product = created.data?.productSet.product;
    const mediaId = product.media.nodes[0].id;
    const answer = await gql(emulator, bulkCreate, {
      productId: product.id,
      media: [{ originalSource: `${imageOrigin}/img/b.png`, mediaContentType: 'IMAGE' }],
      variants: [
        {
          optionValues: [{ optionName: 'Size', name: 'M' }],
          price: '6.00',
          mediaId,
          inventoryItem: { sku: 'TEE-M', tracked: true },
          inventoryQuantities: [{ locationId: 'gid://shopify/Location/1', availableQuantity: 4 }],
        },
        {
          optionValues: [{ optionName: 'Size', name: 'L' }],
          price: '7.00',
          mediaSrc: [`${imageOrigin}/img/b.png`],
        },
      ],
    });
    expect(answer.data?.productVariantsBulkCreate.userErrors).toEqual([]);
    expect(answer.data?.productVariantsBulkCreate.productVariants).toMatchObject([
      { title: 'M', sku: 'TEE-M', inventoryQuantity: 4, media: { nodes: [{ id: mediaId }] } },
      { title: 'L', media: { nodes: [{ id: expect.any(String) }] } },
    ]);
    // 10 + 2 variants x 0.2 + 2 variant media x 0.6 + 1 product media x 1.9 = 13.5 -> 14.
    expect(answer.extensions?.cost.requestedQueryCost).toBe(14);
    const read = await gql(
      emulator,
      `{ product(id: "${product.id}") { options { optionValues { name } } variantsCount { count } mediaCount { count } } }`,
    );
    expect(read.data?.product).toMatchObject({
      options: [{ optionValues: [{ name: 'S' }, { name: 'M' }, { name: 'L' }] }],
      variantsCount: { count: 3 },
      mediaCount: { count: 2 },
    });

    const refused = await gql(emulator, bulkCreate, {
      productId: product.id,
      variants: [
        { optionValues: [{ optionName: 'Size', name: 'M' }] },
        { optionValues: [{ optionName: 'Colour', name: 'Red' }] },
        {
          optionValues: [{ optionName: 'Size', name: 'XL' }],
          mediaId: 'gid://shopify/MediaImage/999999',
        },
      ],
    });
    expect(
      refused.data?.productVariantsBulkCreate.userErrors.map((e: { code: string }) => e.code),
    ).toEqual([
      'VARIANT_ALREADY_EXISTS',
      'OPTION_VALUES_FOR_NUMBER_OF_UNKNOWN_OPTIONS',
      'NEED_TO_ADD_OPTION_VALUES',
      'INVALID_INPUT',
    ]);
    expect(
      (await gql(emulator, `{ product(id: "${product.id}") { variantsCount { count } } }`)).data
        ?.product.variantsCount.count,
    ).toBe(3);

    const variantId = answer.data?.productVariantsBulkCreate.productVariants[1].id;
    const updated = await gql(
      emulator,
      `mutation($productId: ID!, $variants: [ProductVariantsBulkInput!]!) { productVariantsBulkUpdate(productId: $productId, variants: $variants) { productVariants { price media(first: 1) { nodes { id } } } userErrors { code message } } }`,
      { productId: product.id, variants: [{ id: variantId, mediaId, price: '8.00' }] },
    );
    expect(updated.data?.productVariantsBulkUpdate).toEqual({
      productVariants: [{ price: '8.00', media: { nodes: [{ id: mediaId }] } }],
      userErrors: [],
    });
  });

  it('refuses productSet arrays of more than 250 files or metafields, not of variants', async () => {
    const emulator = await start({ seed: 'empty' });
    const files = Array.from({ length: 251 }, (_v, i) => ({
      originalSource: `${imageOrigin}/img/${i}.png`,
      contentType: 'IMAGE',
    }));
    const tooMany = await gql(emulator, productSet, { input: sized(['S'], { files }) });
    expect(tooMany.errors?.[0]?.extensions?.code).toBe('MAX_INPUT_SIZE_EXCEEDED');
    const metafields = Array.from({ length: 251 }, (_v, i) => ({
      namespace: 'custom',
      key: `k${i}`,
      type: 'single_line_text_field',
      value: 'x',
    }));
    expect(
      (await gql(emulator, productSet, { input: sized(['S'], { metafields }) })).errors?.[0]
        ?.extensions?.code,
    ).toBe('MAX_INPUT_SIZE_EXCEEDED');
    const sizes = Array.from({ length: 300 }, (_v, i) => `s${i}`);
    const many = await gql(emulator, productSet, { input: sized(sizes) });
    expect(many.data?.productSet.product.variantsCount.count).toBe(300);
    expect(emulator.countStored('products')).toBe(1);
  });

  it('reports media PROCESSING until Shopify processed them, then READY or FAILED with the reason', async () => {
    const clock = fakeClock();
    const emulator = await start({ seed: 'empty', clock: clock.now, mediaProcessingMs: 5_000 });
    const created = await gql(emulator, productSet, {
      input: sized(['S'], {
        files: [
          { originalSource: `${imageOrigin}/img/ok.png`, contentType: 'IMAGE' },
          { originalSource: `${imageOrigin}/gone.png`, contentType: 'IMAGE' },
        ],
      }),
    });
    const id = created.data?.productSet.product.id;
    const state = `{ product(id: "${id}") { media(first: 5) { nodes { status mediaErrors { code } ... on MediaImage { image { url } } } } } }`;
    expect((await gql(emulator, state)).data?.product.media.nodes).toEqual([
      { status: 'PROCESSING', mediaErrors: [], image: null },
      { status: 'PROCESSING', mediaErrors: [], image: null },
    ]);
    clock.advance(5_000);
    expect((await gql(emulator, state)).data?.product.media.nodes).toEqual([
      {
        status: 'READY',
        mediaErrors: [],
        image: { url: expect.stringContaining('/cdn/shop/files/') },
      },
      { status: 'FAILED', mediaErrors: [{ code: 'IMAGE_DOWNLOAD_FAILURE' }], image: null },
    ]);
  });

  it('limits orderCreate on a trial store, whose plan says so', async () => {
    const clock = fakeClock();
    const trial = await start({
      seed: 'empty',
      trialStore: true,
      plan: 'standard',
      clock: clock.now,
    });
    expect(
      (await gql(trial, '{ shop { plan { publicDisplayName partnerDevelopment } } }')).data?.shop
        .plan,
    ).toEqual({
      publicDisplayName: 'Trial',
      partnerDevelopment: false,
    });
    const create =
      'mutation { orderCreate(order: { lineItems: [{ title: "x", quantity: 1, priceSet: { shopMoney: { amount: "1.00", currencyCode: USD } } }] }) { order { id } } }';
    for (let i = 0; i < 5; i++)
      expect((await gql(trial, create)).data?.orderCreate.order.id).toBeDefined();
    const refused = await gql(trial, create);
    expect(refused.errors?.[0]).toMatchObject({
      message: expect.stringMatching(/Exceeded order API rate limit/),
      extensions: { code: 'TOO_MANY_REQUESTS' },
    });
  });

  it('keeps tags in alphabetical order and phone numbers in E.164, read in the address country', async () => {
    const emulator = await start({ seed: 'empty' });
    const tagged = await gql(emulator, productSet, {
      input: sized(['S'], { tags: ['zeta', 'Alpha', 'beta, gamma'] }),
    });
    const id = tagged.data?.productSet.product.id;
    expect((await gql(emulator, `{ product(id: "${id}") { tags } }`)).data?.product.tags).toEqual([
      'Alpha',
      'beta',
      'gamma',
      'zeta',
    ]);
    const customer = async (phone: string, countryCode?: string) =>
      (
        await gql(
          emulator,
          'mutation($input: CustomerInput!) { customerCreate(input: $input) { customer { phone tags } userErrors { field message } } }',
          {
            input: {
              email: `${Math.random().toString(36).slice(2)}@example.com`,
              phone,
              tags: ['vip', 'early'],
              ...(countryCode ? { addresses: [{ countryCode, city: 'X' }] } : {}),
            },
          },
        )
      ).data?.customerCreate;
    expect(await customer('(512) 555-0100')).toEqual({
      customer: { phone: '+15125550100', tags: ['early', 'vip'] },
      userErrors: [],
    });
    expect((await customer('020 7946 0958', 'GB')).customer.phone).toBe('+442079460958');
    expect((await customer('0044 20 7946 0959')).customer.phone).toBe('+442079460959');
    expect(await customer('12')).toEqual({
      customer: null,
      userErrors: [{ field: ['phone'], message: 'Phone is invalid' }],
    });
    expect((await customer('+1 512 555 0100')).userErrors).toEqual([
      { field: ['phone'], message: 'Phone has already been taken' },
    ]);
  });

  it('serves the bulk result in byte ranges', async () => {
    const clock = fakeClock();
    const emulator = await start({ seed: small, clock: clock.now, bulkDelayMs: 0 });
    const started = await gql(
      emulator,
      'mutation($q: String!) { bulkOperationRunQuery(query: $q) { bulkOperation { id } } }',
      { q: '{ products { edges { node { id title } } } }' },
    );
    const id = started.data?.bulkOperationRunQuery.bulkOperation.id;
    const url = (await gql(emulator, `{ bulkOperation(id: "${id}") { url } }`)).data?.bulkOperation
      .url;
    const whole = Buffer.from(await (await fetch(url)).arrayBuffer());
    const part = await fetch(url, { headers: { range: 'bytes=10-29' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 10-29/${whole.length}`);
    expect(Buffer.from(await part.arrayBuffer())).toEqual(whole.subarray(10, 30));
    const past = await fetch(url, { headers: { range: `bytes=${whole.length}-` } });
    expect(past.status).toBe(416);
  });

  it('updates a collection’s image', async () => {
    const emulator = await start({ seed: 'empty' });
    const created = await gql(
      emulator,
      'mutation($c: CollectionCreateInput!) { collectionCreate(collection: $c) { collection { id image { url } } } }',
      { c: { title: 'Mugs', image: { src: `${imageOrigin}/missing.png` } } },
    );
    const collection = created.data?.collectionCreate.collection;
    expect(collection.image).toBeNull();
    const updated = await gql(
      emulator,
      'mutation($c: CollectionUpdateInput!) { collectionUpdate(collection: $c) { collection { image { url } } userErrors { message } } }',
      { c: { id: collection.id, image: { src: `${imageOrigin}/img/mugs.png` } } },
    );
    expect(updated.data?.collectionUpdate).toEqual({
      collection: { image: { url: expect.stringContaining('/cdn/shop/files/') } },
      userErrors: [],
    });
  });
});

describe('payments, refunds and the fields of an imported order', () => {
  let emulator: ShopifyEmulator;
  beforeAll(async () => {
    emulator = await start({ seed: 'empty' });
  });
  const money = (amount: string) => ({ shopMoney: { amount, currencyCode: 'USD' } });
  const create = `mutation($order: OrderCreateOrderInput!) {
    orderCreate(order: $order) { order { id displayFinancialStatus lineItems(first: 5) { nodes { id customAttributes { key value } } } transactions { id kind status gateway formattedGateway paymentId processedAt amountSet { shopMoney { amount } } } } userErrors { field message } }
  }`;
  const refund = `mutation($input: RefundInput!, $key: String!) {
    refundCreate(input: $input) @idempotent(key: $key) { refund { id note processedAt totalRefundedSet { shopMoney { amount } } refundLineItems(first: 5) { nodes { quantity subtotalSet { shopMoney { amount } } totalTaxSet { shopMoney { amount } } } } } userErrors { field message } }
  }`;
  const order = {
    name: '#7001',
    processedAt: '2025-03-01T10:00:00.000Z',
    poNumber: 'PO-9',
    customAttributes: [{ key: 'gift_message', value: 'Enjoy' }],
    lineItems: [
      {
        title: 'Mug',
        quantity: 2,
        priceSet: money('10.00'),
        taxLines: [{ title: 'VAT', rate: '0.2', priceSet: money('4.00') }],
        properties: [{ name: 'Engraving', value: 'Ana' }],
      },
    ],
    transactions: [
      {
        kind: 'SALE',
        gateway: 'bogus',
        authorizationCode: 'AUTH-1',
        processedAt: '2025-03-01T11:00:00.000Z',
        amountSet: money('24.00'),
      },
    ],
  };

  it('records payments and derives the financial status from them, with Shopify’s date format', async () => {
    const created = await gql(emulator, create, { order });
    expect(created.data?.orderCreate.userErrors).toEqual([]);
    const answer = created.data?.orderCreate.order;
    expect(answer.displayFinancialStatus).toBe('PAID');
    expect(answer.lineItems.nodes[0].customAttributes).toEqual([
      { key: 'Engraving', value: 'Ana' },
    ]);
    expect(answer.transactions).toEqual([
      {
        id: expect.stringMatching(/^gid:\/\/shopify\/OrderTransaction\//),
        kind: 'SALE',
        status: 'SUCCESS',
        gateway: 'bogus',
        formattedGateway: 'Bogus',
        paymentId: 'AUTH-1',
        processedAt: '2025-03-01T11:00:00Z',
        amountSet: { shopMoney: { amount: '24.0' } },
      },
    ]);
    const read = await gql(
      emulator,
      `{ order(id: "${answer.id}") { poNumber customAttributes { key value } processedAt } }`,
    );
    expect(read.data?.order).toEqual({
      poNumber: 'PO-9',
      customAttributes: [{ key: 'gift_message', value: 'Enjoy' }],
      processedAt: '2025-03-01T10:00:00Z',
    });
    const future = await gql(emulator, create, {
      order: {
        ...order,
        name: '#7002',
        transactions: [{ ...order.transactions[0], processedAt: '2999-01-01T00:00:00Z' }],
      },
    });
    expect(future.data?.orderCreate.userErrors[0].message).toBe(
      'Processed at must not be in the future',
    );
  });

  it('refunds lines and money once per idempotency key and recalculates the status', async () => {
    const created = await gql(emulator, create, { order: { ...order, name: '#7003' } });
    const o = created.data?.orderCreate.order;
    const input = {
      orderId: o.id,
      note: 'Damaged',
      processedAt: '2025-03-03T10:00:00.000Z',
      refundLineItems: [{ lineItemId: o.lineItems.nodes[0].id, quantity: 1 }],
      transactions: [
        {
          orderId: o.id,
          parentId: o.transactions[0].id,
          gateway: 'bogus',
          kind: 'REFUND',
          amount: '12.00',
        },
      ],
    };
    const missingKey = await gql(
      emulator,
      'mutation($input: RefundInput!) { refundCreate(input: $input) { refund { id } userErrors { message } } }',
      { input },
    );
    expect(missingKey.errors?.[0]?.message).toMatch(/@idempotent directive/);
    const first = await gql(emulator, refund, { input, key: 'k-1' });
    expect(first.data?.refundCreate.userErrors).toEqual([]);
    expect(first.data?.refundCreate.refund).toMatchObject({
      note: 'Damaged',
      processedAt: '2025-03-03T10:00:00Z',
      totalRefundedSet: { shopMoney: { amount: '12.0' } },
      refundLineItems: {
        nodes: [
          {
            quantity: 1,
            subtotalSet: { shopMoney: { amount: '10.0' } },
            totalTaxSet: { shopMoney: { amount: '2.0' } },
          },
        ],
      },
    });
    const again = await gql(emulator, refund, { input, key: 'k-1' });
    expect(again.data?.refundCreate.refund.id).toBe(first.data?.refundCreate.refund.id);
    const state = `{ order(id: "${o.id}") { displayFinancialStatus totalRefundedSet { shopMoney { amount } } refunds { id } transactions { kind } } }`;
    expect((await gql(emulator, state)).data?.order).toEqual({
      displayFinancialStatus: 'PARTIALLY_REFUNDED',
      totalRefundedSet: { shopMoney: { amount: '12.0' } },
      refunds: [{ id: first.data?.refundCreate.refund.id }],
      transactions: [{ kind: 'SALE' }, { kind: 'REFUND' }],
    });
    const tooMuch = await gql(emulator, refund, {
      input: {
        ...input,
        refundLineItems: [],
        transactions: [{ ...input.transactions[0], amount: '13.00' }],
      },
      key: 'k-2',
    });
    expect(tooMuch.data?.refundCreate.userErrors[0].message).toMatch(
      /exceeds the refundable amount/,
    );
    const rest = await gql(emulator, refund, {
      input: {
        ...input,
        note: null,
        refundLineItems: [],
        transactions: [{ ...input.transactions[0], amount: '12.00' }],
      },
      key: 'k-3',
    });
    expect(rest.data?.refundCreate.userErrors).toEqual([]);
    expect((await gql(emulator, state)).data?.order.displayFinancialStatus).toBe('REFUNDED');
  });
});

describe('fields of products and customers beyond the basics', () => {
  let emulator: ShopifyEmulator;
  beforeAll(async () => {
    emulator = await start({ seed: small });
  });

  it('keeps costs, customs data, categories and gift cards, and shows one file in several products', async () => {
    const shared = [...emulator.shop().products.values()][0]?.media[0];
    if (!shared) throw new Error('no media');
    const set = await gql(
      emulator,
      `mutation($input: ProductSetInput!) { productSet(input: $input) { product { id category { id fullName } isGiftCard giftCardTemplateSuffix requiresSellingPlan media(first: 2) { nodes { id } } variants(first: 1) { nodes { inventoryItem { unitCost { amount } harmonizedSystemCode countryCodeOfOrigin provinceCodeOfOrigin } } } } userErrors { field message } } }`,
      {
        input: {
          title: 'Gift card',
          category: 'gid://shopify/TaxonomyCategory/aa-1',
          giftCard: true,
          giftCardTemplateSuffix: 'festive',
          requiresSellingPlan: true,
          files: [{ id: `gid://shopify/MediaImage/${shared.id}`, alt: 'shared' }],
          productOptions: [{ name: 'Title', values: [{ name: 'Default Title' }] }],
          variants: [
            {
              optionValues: [{ optionName: 'Title', name: 'Default Title' }],
              price: '25.00',
              inventoryItem: {
                cost: '7.5',
                harmonizedSystemCode: '4911',
                countryCodeOfOrigin: 'CA',
                provinceCodeOfOrigin: 'ON',
              },
            },
          ],
        },
      },
    );
    expect(set.data?.productSet.userErrors).toEqual([]);
    expect(set.data?.productSet.product).toMatchObject({
      category: {
        id: 'gid://shopify/TaxonomyCategory/aa-1',
        fullName: 'Apparel & Accessories > Clothing',
      },
      isGiftCard: true,
      giftCardTemplateSuffix: 'festive',
      requiresSellingPlan: true,
      media: { nodes: [{ id: `gid://shopify/MediaImage/${shared.id}` }] },
      variants: {
        nodes: [
          {
            inventoryItem: {
              unitCost: { amount: '7.5' },
              harmonizedSystemCode: '4911',
              countryCodeOfOrigin: 'CA',
              provinceCodeOfOrigin: 'ON',
            },
          },
        ],
      },
    });
    const wrong = await gql(
      emulator,
      'mutation($input: ProductSetInput!) { productSet(input: $input) { product { id } userErrors { field message } } }',
      { input: { title: 'X', category: 'gid://shopify/Product/1' } },
    );
    expect(wrong.data?.productSet.userErrors).toEqual([
      { field: ['input', 'category'], message: 'Category does not exist' },
    ]);
  });

  it('keeps SMS consent with the phone number and tax exemptions', async () => {
    const created = await gql(
      emulator,
      `mutation($input: CustomerInput!) { customerCreate(input: $input) { customer { taxExemptions defaultPhoneNumber { smsMarketingConsent { state optInLevel updatedAt } } defaultEmailAddress { marketingState marketingUpdatedAt } } userErrors { field message } } }`,
      {
        input: {
          email: 'sms@example.com',
          phone: '+14155550199',
          taxExemptions: ['CA_STATUS_CARD_EXEMPTION'],
          emailMarketingConsent: {
            marketingState: 'UNSUBSCRIBED',
            consentUpdatedAt: '2024-02-02T10:00:00.000Z',
          },
          smsMarketingConsent: {
            marketingState: 'SUBSCRIBED',
            marketingOptInLevel: 'SINGLE_OPT_IN',
            consentUpdatedAt: '2024-02-03T10:00:00Z',
          },
        },
      },
    );
    expect(created.data?.customerCreate).toEqual({
      customer: {
        taxExemptions: ['CA_STATUS_CARD_EXEMPTION'],
        defaultPhoneNumber: {
          smsMarketingConsent: {
            state: 'SUBSCRIBED',
            optInLevel: 'SINGLE_OPT_IN',
            updatedAt: '2024-02-03T10:00:00Z',
          },
        },
        defaultEmailAddress: {
          marketingState: 'UNSUBSCRIBED',
          marketingUpdatedAt: '2024-02-02T10:00:00Z',
        },
      },
      userErrors: [],
    });
    const noPhone = await gql(
      emulator,
      'mutation($input: CustomerInput!) { customerCreate(input: $input) { customer { id } userErrors { field message } } }',
      {
        input: {
          email: 'nophone@example.com',
          smsMarketingConsent: { marketingState: 'SUBSCRIBED' },
        },
      },
    );
    expect(noPhone.data?.customerCreate.userErrors).toEqual([
      {
        field: ['smsMarketingConsent'],
        message: 'A phone number is required to set the SMS consent state',
      },
    ]);
  });
});

describe('discount codes', () => {
  const NODE = /* GraphQL */ `
    id
    codeDiscount {
      __typename
      ... on DiscountCodeBasic {
        title
        startsAt
        endsAt
        status
        usageLimit
        appliesOncePerCustomer
        asyncUsageCount
        combinesWith { orderDiscounts productDiscounts shippingDiscounts }
        codes(first: 2) { nodes { code } }
        minimumRequirement {
          ... on DiscountMinimumSubtotal { greaterThanOrEqualToSubtotal { amount currencyCode } }
        }
        customerGets {
          value {
            __typename
            ... on DiscountPercentage { percentage }
            ... on DiscountAmount { amount { amount } appliesOnEachItem }
          }
          items {
            __typename
            ... on DiscountProducts { products(first: 5) { nodes { id } } }
            ... on DiscountCollections { collections(first: 5) { nodes { id } } }
          }
        }
      }
      ... on DiscountCodeFreeShipping {
        title
        status
        endsAt
        codes(first: 2) { nodes { code } }
        minimumRequirement {
          ... on DiscountMinimumSubtotal { greaterThanOrEqualToSubtotal { amount } }
        }
      }
    }
  `;
  const CREATE = /* GraphQL */ `
    mutation Create($input: DiscountCodeBasicInput!) {
      discountCodeBasicCreate(basicCodeDiscount: $input) {
        codeDiscountNode { ${NODE} }
        userErrors { field message code }
      }
    }
  `;
  let emulator: ShopifyEmulator;
  beforeAll(async () => {
    emulator = await start({
      shops: ['seeded.myshopify.com', 'empty.myshopify.com'],
      shopSeeds: { 'seeded.myshopify.com': small, 'empty.myshopify.com': 'empty' },
    });
  });
  const seeded = { shop: 'seeded.myshopify.com' };
  const empty = { shop: 'empty.myshopify.com' };

  it('seeds the sample coupons as code discounts, none in an empty shop, and counts them', async () => {
    const query = `query { codeDiscountNodes(first: 10) { nodes { ${NODE} } }
      discountNodes(first: 10, query: "method:code") { nodes { id discount { __typename } } }
      discountNodesCount(query: "method:code") { count }
      discountCodesCount { count } }`;
    const answer = await gql(emulator, query, {}, seeded);
    expect(answer.errors).toBeUndefined();
    const nodes = answer.data?.codeDiscountNodes.nodes as {
      codeDiscount: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- navigated in assertions
    }[];
    const byCode = new Map(nodes.map((n) => [n.codeDiscount.codes.nodes[0].code, n.codeDiscount]));
    expect([...byCode.keys()].sort()).toEqual(
      ['FIVEOFFEACH', 'SHIPFREE', 'SPRING15', 'STAFF-ONLY', 'VIP20', 'WELCOME10'].sort(),
    );
    expect(answer.data?.discountNodesCount.count).toBe(6);
    expect(answer.data?.discountNodes.nodes.map((n: { id: string }) => n.id)).toEqual(
      answer.data?.codeDiscountNodes.nodes.map((n: { id: string }) => n.id),
    );
    expect(answer.data?.discountCodesCount.count).toBe(6);
    const welcome = byCode.get('WELCOME10');
    expect(welcome?.customerGets.value).toEqual({
      __typename: 'DiscountPercentage',
      percentage: 0.1,
    });
    expect(welcome?.appliesOncePerCustomer).toBe(true);
    expect(welcome?.combinesWith).toEqual({
      orderDiscounts: false,
      productDiscounts: false,
      shippingDiscounts: false,
    });
    const spring = byCode.get('SPRING15');
    expect(spring?.customerGets.value).toEqual({
      __typename: 'DiscountAmount',
      amount: { amount: '15.0' },
      appliesOnEachItem: false,
    });
    expect(spring?.minimumRequirement.greaterThanOrEqualToSubtotal.amount).toBe('75.0');
    expect(spring?.usageLimit).toBe(500);
    expect(spring?.status).toBe('EXPIRED');
    expect(byCode.get('SHIPFREE')?.__typename).toBe('DiscountCodeFreeShipping');
    const five = byCode.get('FIVEOFFEACH');
    expect(five?.customerGets.value.appliesOnEachItem).toBe(true);
    expect(five?.customerGets.items.__typename).toBe('DiscountCollections');
    expect(five?.customerGets.items.collections.nodes).toHaveLength(1);
    const staff = byCode.get('STAFF-ONLY');
    expect(staff?.customerGets.items.products.nodes).toHaveLength(2);
    expect(staff?.status).toBe('EXPIRED');

    const none = await gql(
      emulator,
      'query { codeDiscountNodes(first: 5) { nodes { id } } discountNodesCount { count } }',
      {},
      empty,
    );
    expect(none.data?.codeDiscountNodes.nodes).toEqual([]);
    expect(none.data?.discountNodesCount.count).toBe(0);
  });

  it('creates, finds by code in any case, updates and deactivates a discount', async () => {
    const created = await gql(
      emulator,
      CREATE,
      {
        input: {
          title: 'Ten off',
          code: 'TENOFF',
          startsAt: '2026-01-01T00:00:00Z',
          context: { all: 'ALL' },
          customerGets: { value: { percentage: 0.1 }, items: { all: true } },
          minimumRequirement: { subtotal: { greaterThanOrEqualToSubtotal: '20.00' } },
          combinesWith: { orderDiscounts: true, productDiscounts: true, shippingDiscounts: true },
          usageLimit: 5,
        },
      },
      empty,
    );
    expect(created.data?.discountCodeBasicCreate.userErrors).toEqual([]);
    const id = created.data?.discountCodeBasicCreate.codeDiscountNode.id as string;
    expect(id).toMatch(/^gid:\/\/shopify\/DiscountCodeNode\/\d+$/);
    expect(created.extensions?.cost.requestedQueryCost).toBe(10);

    const found = await gql(
      emulator,
      `query { codeDiscountNodeByCode(code: "tenoff") { ${NODE} } }`,
      {},
      empty,
    );
    expect(found.data?.codeDiscountNodeByCode.id).toBe(id);
    expect(found.data?.codeDiscountNodeByCode.codeDiscount.status).toBe('ACTIVE');

    const updated = await gql(
      emulator,
      `mutation Update($id: ID!, $input: DiscountCodeBasicInput!) {
        discountCodeBasicUpdate(id: $id, basicCodeDiscount: $input) {
          codeDiscountNode { ${NODE} } userErrors { field message code } } }`,
      {
        id,
        input: {
          customerGets: { value: { discountAmount: { amount: '4.50', appliesOnEachItem: false } } },
          minimumRequirement: null,
        },
      },
      empty,
    );
    const node = updated.data?.discountCodeBasicUpdate.codeDiscountNode.codeDiscount;
    expect(updated.data?.discountCodeBasicUpdate.userErrors).toEqual([]);
    expect(node.customerGets.value.amount.amount).toBe('4.5');
    expect(node.minimumRequirement).toBeNull();
    expect(node.usageLimit).toBe(5);

    const deactivated = await gql(
      emulator,
      `mutation Off($id: ID!) { discountCodeDeactivate(id: $id) {
        codeDiscountNode { ${NODE} } userErrors { field message code } } }`,
      { id },
      empty,
    );
    const off = deactivated.data?.discountCodeDeactivate.codeDiscountNode.codeDiscount;
    expect(off.status).toBe('EXPIRED');
    expect(off.endsAt).not.toBeNull();

    const metafield = await gql(
      emulator,
      `mutation Set($m: [MetafieldsSetInput!]!) { metafieldsSet(metafields: $m) {
        metafields { key } userErrors { field message code } } }`,
      {
        m: [
          {
            ownerId: id,
            namespace: 'replatform',
            key: 'source_id',
            type: 'single_line_text_field',
            value: '7',
          },
        ],
      },
      empty,
    );
    expect(metafield.data?.metafieldsSet.userErrors).toEqual([]);
    const marked = await gql(
      emulator,
      `query { codeDiscountNode(id: "${id}") { metafield(namespace: "replatform", key: "source_id") { value } } }`,
      {},
      empty,
    );
    expect(marked.data?.codeDiscountNode.metafield.value).toBe('7');
  });

  it('refuses a duplicate code and invalid input with userErrors, changing nothing', async () => {
    const before = emulator.countStored('coupons', 'seeded.myshopify.com');
    const valid = {
      title: 'Again',
      code: 'welcome10',
      startsAt: '2026-01-01T00:00:00Z',
      context: { all: 'ALL' },
      customerGets: { value: { percentage: 0.1 }, items: { all: true } },
    };
    const duplicate = await gql(emulator, CREATE, { input: valid }, seeded);
    expect(duplicate.data?.discountCodeBasicCreate).toEqual({
      codeDiscountNode: null,
      userErrors: [
        {
          field: ['basicCodeDiscount', 'code'],
          message: 'Code must be unique. Please try a different code.',
          code: 'TAKEN',
        },
      ],
    });
    const invalid = await gql(
      emulator,
      CREATE,
      {
        input: {
          ...valid,
          code: 'NEWCODE',
          title: ' ',
          endsAt: '2025-01-01T00:00:00Z',
          customerGets: {
            value: { percentage: 1.5 },
            items: { products: { productsToAdd: ['gid://shopify/Product/999999'] } },
          },
        },
      },
      seeded,
    );
    const errors = invalid.data?.discountCodeBasicCreate.userErrors as { code: string }[];
    expect(errors.map((e) => e.code).sort()).toEqual(
      [
        'APPLIES_ON_NOTHING',
        'BLANK',
        'END_DATE_BEFORE_START_DATE',
        'INVALID',
        'VALUE_OUTSIDE_RANGE',
      ].sort(),
    );
    const missing = await gql(emulator, CREATE, { input: { code: 'BARE' } }, seeded);
    expect(
      (missing.data?.discountCodeBasicCreate.userErrors as { field: string[] }[]).map((e) =>
        e.field.join('.'),
      ),
    ).toEqual([
      'basicCodeDiscount.title',
      'basicCodeDiscount.startsAt',
      'basicCodeDiscount.context',
      'basicCodeDiscount.customerGets',
    ]);
    const shipping = await gql(
      emulator,
      `mutation Ship($input: DiscountCodeFreeShippingInput!) {
        discountCodeFreeShippingCreate(freeShippingCodeDiscount: $input) {
          codeDiscountNode { id } userErrors { field message code } } }`,
      {
        input: {
          title: 'Ship',
          code: 'SHIPFREE',
          startsAt: '2026-01-01T00:00:00Z',
          context: { all: 'ALL' },
        },
      },
      seeded,
    );
    expect(shipping.data?.discountCodeFreeShippingCreate.userErrors[0]).toEqual({
      field: ['freeShippingCodeDiscount', 'code'],
      message: 'Code must be unique. Please try a different code.',
      code: 'TAKEN',
    });
    const tooMany = await gql(
      emulator,
      CREATE,
      {
        input: {
          ...valid,
          code: 'MANY',
          customerGets: {
            value: { percentage: 0.1 },
            items: {
              products: {
                productsToAdd: Array.from({ length: 251 }, (_, i) => `gid://shopify/Product/${i}`),
              },
            },
          },
        },
      },
      seeded,
    );
    expect(tooMany.errors?.[0]?.extensions?.code).toBe('MAX_INPUT_SIZE_EXCEEDED');
    expect(emulator.countStored('coupons', 'seeded.myshopify.com')).toBe(before);
  });

  it('needs the discount scopes', async () => {
    const limited = await start({ seed: 'empty', tokens: { 'products-only': ['read_products'] } });
    const read = await gql(
      limited,
      'query { codeDiscountNodes(first: 1) { nodes { id } } }',
      {},
      {
        token: 'products-only',
      },
    );
    expect(read.errors?.[0]?.extensions?.code).toBe('ACCESS_DENIED');
    const write = await gql(limited, CREATE, { input: { code: 'X' } }, { token: 'products-only' });
    expect(write.errors?.[0]?.extensions?.code).toBe('ACCESS_DENIED');
  });
});

describe('product reviews in metafields', () => {
  const LISTS = /* GraphQL */ `
    query Lists {
      products(first: 50, sortKey: ID) {
        nodes {
          id
          reviews: metafield(namespace: "replatform", key: "reviews") {
            type
            value
            compareDigest
          }
          rating: metafield(namespace: "reviews", key: "rating") {
            type
            value
          }
          ratingCount: metafield(namespace: "reviews", key: "rating_count") {
            type
            value
          }
        }
      }
    }
  `;
  const SET = /* GraphQL */ `
    mutation Set($m: [MetafieldsSetInput!]!) {
      metafieldsSet(metafields: $m) {
        metafields {
          key
          value
        }
        userErrors {
          code
          field
          message
          elementIndex
        }
      }
    }
  `;
  const DELETE = /* GraphQL */ `
    mutation Delete($m: [MetafieldIdentifierInput!]!) {
      metafieldsDelete(metafields: $m) {
        deletedMetafields {
          namespace
          key
          ownerId
        }
        userErrors {
          field
          message
        }
      }
    }
  `;
  let emulator: ShopifyEmulator;
  let productId = '';
  beforeAll(async () => {
    emulator = await start({
      shops: ['seeded.myshopify.com', 'none.myshopify.com'],
      shopSeeds: {
        'seeded.myshopify.com': small,
        'none.myshopify.com': { ...small, reviews: false },
      },
    });
    const answer = await gql(emulator, '{ products(first: 1) { nodes { id } } }', {}, seeded);
    productId = answer.data?.products.nodes[0].id;
  });
  const seeded = { shop: 'seeded.myshopify.com' };
  const rating = (value: string) => JSON.stringify({ value, scale_min: '1.0', scale_max: '5.0' });

  it('seeds the sample reviews as product lists with the star rating of the approved ones', async () => {
    const nodes = (await gql(emulator, LISTS, {}, seeded)).data?.products.nodes as {
      id: string;
      reviews: { type: string; value: string } | null;
      rating: { type: string; value: string } | null;
      ratingCount: { type: string; value: string } | null;
    }[];
    const reviewed = nodes.filter((n) => n.reviews);
    const entries = reviewed.flatMap((n) => JSON.parse(n.reviews?.value ?? '[]') as object[]);
    expect(entries).toHaveLength(7);
    expect(emulator.countStored('reviews', 'seeded.myshopify.com')).toBe(7);
    expect(entries[0]).toEqual({
      key: 'review-1',
      reviewer_name: 'Maya Lindqvist',
      reviewer_email: 'maya.lindqvist@example.com',
      rating: 5,
      title: 'Exactly as described',
      body_html: '<p>Fits well and the colour is <strong>exactly</strong> as in the photos.</p>',
      status: 'approved',
      verified: false,
      created_at: '2023-04-12T10:15:00.000Z',
    });
    // The first product: two approved reviews of 5 and 4 stars.
    const first = reviewed.find((n) => n.reviews?.value.includes('review-1'));
    expect(first?.reviews?.type).toBe('json');
    expect(first?.rating).toEqual({ type: 'rating', value: rating('4.5') });
    expect(first?.ratingCount).toEqual({ type: 'number_integer', value: '2' });
    // Reviews that are pending, rejected or spam make no stars.
    const unrated = reviewed.filter((n) => !n.rating);
    expect(unrated.length).toBeGreaterThan(0);
    expect(unrated.every((n) => !n.ratingCount)).toBe(true);
    expect(emulator.countStored('reviews', 'none.myshopify.com')).toBe(0);
  });

  it('checks rating values against their scale and json values against 128 KB', async () => {
    const set = (type: string, value: string) =>
      gql(
        emulator,
        SET,
        { m: [{ ownerId: productId, namespace: 'reviews', key: 'rating', type, value }] },
        seeded,
      );
    for (const value of [
      rating('5.5'),
      JSON.stringify({ value: '4', scale_min: '5.0', scale_max: '1.0' }),
      JSON.stringify({ value: '4' }),
      '4.5',
    ]) {
      const answer = await set('rating', value);
      expect(answer.data?.metafieldsSet.userErrors[0], value).toMatchObject({
        code: 'INVALID_VALUE',
        field: ['metafields', '0', 'value'],
      });
    }
    expect((await set('rating', rating('3.25'))).data?.metafieldsSet.userErrors).toEqual([]);
    const big = (bytes: number) => JSON.stringify(['x'.repeat(bytes - 4)]);
    expect(Buffer.byteLength(big(128 * 1024))).toBe(128 * 1024);
    const json = (value: string) =>
      gql(
        emulator,
        SET,
        { m: [{ ownerId: productId, namespace: 'custom', key: 'big', type: 'json', value }] },
        seeded,
      );
    expect((await json(big(128 * 1024))).data?.metafieldsSet.userErrors).toEqual([]);
    expect((await json(big(128 * 1024 + 1))).data?.metafieldsSet.userErrors[0]).toMatchObject({
      code: 'TOO_LONG',
      field: ['metafields', '0', 'value'],
    });
    // Counted in bytes: 'é' takes two.
    expect(
      (await json(JSON.stringify(['é'.repeat(65_535)]))).data?.metafieldsSet.userErrors[0].code,
    ).toBe('TOO_LONG');
    const text = await gql(
      emulator,
      SET,
      {
        m: [
          {
            ownerId: productId,
            namespace: 'custom',
            key: 'long',
            type: 'multi_line_text_field',
            value: 'y'.repeat(64 * 1024 + 1),
          },
        ],
      },
      seeded,
    );
    expect(text.data?.metafieldsSet.userErrors[0].code).toBe('TOO_LONG');
  });

  it('sets a metafield only while its compareDigest matches, all or nothing', async () => {
    const read = async () =>
      (
        (await gql(emulator, LISTS, {}, seeded)).data?.products.nodes as {
          id: string;
          reviews: { value: string; compareDigest: string } | null;
          ratingCount: { value: string } | null;
        }[]
      ).find((n) => n.id === productId);
    const before = await read();
    expect(before?.reviews).not.toBeNull();
    const list = (value: string, compareDigest: string | null) => ({
      ownerId: productId,
      namespace: 'replatform',
      key: 'reviews',
      type: 'json',
      value,
      compareDigest,
    });
    const count = {
      ownerId: productId,
      namespace: 'reviews',
      key: 'rating_count',
      type: 'number_integer',
      value: '9',
    };
    // Null: only while the metafield does not exist.
    const created = await gql(emulator, SET, { m: [list('[]', null), count] }, seeded);
    expect(created.data?.metafieldsSet).toEqual({
      metafields: null,
      userErrors: [
        {
          code: 'STALE_OBJECT',
          field: ['metafields', '0', 'compareDigest'],
          message: 'The metafield has been modified since it was loaded.',
          elementIndex: 0,
        },
      ],
    });
    const stale = await gql(emulator, SET, { m: [list('[]', 'not-the-digest'), count] }, seeded);
    expect(stale.data?.metafieldsSet.userErrors[0].code).toBe('STALE_OBJECT');
    expect(await read()).toEqual(before);
    const fresh = await gql(
      emulator,
      SET,
      { m: [list('[]', before?.reviews?.compareDigest ?? ''), count] },
      seeded,
    );
    expect(fresh.data?.metafieldsSet.userErrors).toEqual([]);
    const after = await read();
    expect(after?.reviews?.value).toBe('[]');
    expect(after?.ratingCount?.value).toBe('9');
    expect(after?.reviews?.compareDigest).not.toBe(before?.reviews?.compareDigest);
    // A digest that was right once is stale after the value changed.
    const again = await gql(
      emulator,
      SET,
      { m: [list('[]', before?.reviews?.compareDigest ?? '')] },
      seeded,
    );
    expect(again.data?.metafieldsSet.userErrors[0].code).toBe('STALE_OBJECT');
  });

  it('deletes metafields, answering null for one the owner does not have', async () => {
    const identifier = (key: string) => ({ ownerId: productId, namespace: 'reviews', key });
    const answer = await gql(
      emulator,
      DELETE,
      { m: [identifier('rating_count'), identifier('nothing')] },
      seeded,
    );
    expect(answer.data?.metafieldsDelete).toEqual({
      deletedMetafields: [{ namespace: 'reviews', key: 'rating_count', ownerId: productId }, null],
      userErrors: [],
    });
    const again = await gql(emulator, DELETE, { m: [identifier('rating_count')] }, seeded);
    expect(again.data?.metafieldsDelete.deletedMetafields).toEqual([null]);
    const unknown = await gql(
      emulator,
      DELETE,
      { m: [{ ownerId: 'gid://shopify/Product/999999', namespace: 'reviews', key: 'rating' }] },
      seeded,
    );
    expect(unknown.data?.metafieldsDelete.userErrors).toEqual([
      { field: ['metafields', '0', 'ownerId'], message: 'Owner does not exist' },
    ]);
  });
});

describe('product vendors (brands)', () => {
  const VENDORS = /* GraphQL */ `
    query Vendors($first: Int, $last: Int, $after: String, $reverse: Boolean) {
      productVendors(first: $first, last: $last, after: $after, reverse: $reverse) {
        pageInfo {
          hasNextPage
          endCursor
        }
        edges {
          cursor
          node
        }
        nodes
      }
    }
  `;
  const names = (answer: GraphqlAnswer) => answer.data?.productVendors.nodes as string[];
  let emulator: ShopifyEmulator;
  beforeAll(async () => {
    emulator = await start({ seed: { ...small, products: 40 } });
  });

  it('lists the vendors the products name, each once, in alphabetical order', async () => {
    const shop = emulator.shop();
    const seeded = new Set([...shop.products.values()].map((p) => p.vendor));
    const answer = await gql(emulator, VENDORS, { first: 1000 });
    expect(answer.errors).toBeUndefined();
    expect(names(answer)).toEqual(
      [...seeded].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })),
    );
    expect(names(answer)).toContain('Fjällbo');
    expect(names(answer)).toContain('Copper & Pine');
    expect(emulator.countStored('brands')).toBe(seeded.size);
    expect(answer.data?.productVendors.edges.map((e: { node: string }) => e.node)).toEqual(
      names(answer),
    );
  });

  it('pages with cursors, reverses, and reaches a vendor added or left by products', async () => {
    const fresh = await start({ seed: 'empty' });
    const shop = fresh.shop();
    const product = (vendor: string) => {
      const id = shop.nextId();
      shop.products.set(id, {
        ...([...emulator.shop().products.values()][0] as NonNullable<
          ReturnType<typeof shop.products.get>
        >),
        id,
        handle: `p-${id}`,
        vendor,
      });
      return id;
    };
    for (const vendor of ['zeta', 'Äpfel', 'alpha', 'Beta', 'alpha', '', 'Alpha']) product(vendor);
    const all = names(await gql(fresh, VENDORS, { first: 10 }));
    // Letters compared without case or accents; a product without a vendor names none.
    expect(all).toEqual(['Alpha', 'alpha', 'Äpfel', 'Beta', 'zeta']);
    expect(fresh.countStored('brands')).toBe(5);
    const seen: string[] = [];
    let after: string | null = null;
    for (;;) {
      const page: GraphqlAnswer = await gql(fresh, VENDORS, { first: 2, after });
      seen.push(...names(page));
      if (!page.data?.productVendors.pageInfo.hasNextPage) break;
      after = page.data.productVendors.pageInfo.endCursor as string;
    }
    expect(seen).toEqual(all);
    expect(names(await gql(fresh, VENDORS, { first: 10, reverse: true }))).toEqual(
      [...all].reverse(),
    );
    expect(names(await gql(fresh, VENDORS, { last: 2 }))).toEqual(['Beta', 'zeta']);
    // A vendor no product names any more is gone; a new one is listed in its place.
    for (const p of shop.products.values()) if (p.vendor === 'zeta') p.vendor = 'Mu';
    expect(names(await gql(fresh, VENDORS, { first: 10 }))).toEqual([
      'Alpha',
      'alpha',
      'Äpfel',
      'Beta',
      'Mu',
    ]);
  });

  it('takes pages of up to 1000, costs 2 points, and needs read_products', async () => {
    const missing = await gql(emulator, VENDORS, {});
    expect(missing.errors?.[0]?.message).toBe('you must provide one of first or last');
    const tooBig = await gql(emulator, VENDORS, { first: 1001 });
    expect(tooBig.errors?.[0]?.message).toBe('The first argument must be between 0 and 1000.');
    const answer = await gql(emulator, VENDORS, { first: 1000 });
    expect(answer.extensions?.cost.requestedQueryCost).toBe(2);
    const unknown = await gql(emulator, '{ productVendors(first: 5) { nodes { id } } }');
    expect(unknown.errors?.[0]?.message).toMatch(/must not have a selection/);
    const custom = await start({ seed: small, tokens: { shpat_orders: ['read_orders'] } });
    const refused = await gql(custom, VENDORS, { first: 5 }, { token: 'shpat_orders' });
    expect(refused.errors?.[0]?.extensions?.code).toBe('ACCESS_DENIED');
    expect(refused.errors?.[0]?.message).toContain('`read_products` access scope');
  });

  it('counts no vendors in a store without products', async () => {
    const empty = await start({ seed: 'empty' });
    expect(names(await gql(empty, VENDORS, { first: 5 }))).toEqual([]);
    expect(empty.countStored('brands')).toBe(0);
  });
});
