import { createHmac } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { validateShopifyRequests } from '@replatform/emulators/shopify/request-validator';
import { startShopifyEmulator } from '@replatform/emulators/shopify/shopify-emulator';
import { ConnectorError } from '../kit/errors.ts';
import { shopInfo } from './documents.ts';
import { ShopifyGraphqlClient } from './graphql-client.ts';
import {
  buildAuthorizeUrl,
  exchangeCode,
  isFreshTimestamp,
  isValidShopDomain,
  SHOPIFY_SCOPES,
  signedMessage,
  verifyCallbackHmac,
} from './oauth.ts';
import { routeShop, shopRoutingHttp } from './test-support.ts';

const badDomains = [
  '',
  ' ',
  'myshopify.com',
  '.myshopify.com',
  'shop',
  'shop.com',
  'shop.myshopify.co',
  'shop.myshopify.com.evil.com',
  'shop.myshopify.com.',
  'shop.MYSHOPIFY.com',
  'Shop.myshopify.com',
  'SHOP.myshopify.com',
  'shop.myshopify.com:443',
  'shop.myshopify.com:8080',
  'https://shop.myshopify.com',
  'http://shop.myshopify.com',
  '//shop.myshopify.com',
  'shop.myshopify.com/',
  'shop.myshopify.com/admin',
  'shop.myshopify.com?x=1',
  'shop.myshopify.com#frag',
  'user@shop.myshopify.com',
  'user:pass@shop.myshopify.com',
  'evil.com@shop.myshopify.com',
  'shop.myshopify.com@evil.com',
  ' shop.myshopify.com',
  'shop.myshopify.com ',
  'shop .myshopify.com',
  'sh op.myshopify.com',
  'shop\n.myshopify.com',
  'shop.myshopify.com\n',
  'shop\t.myshopify.com',
  '-shop.myshopify.com',
  'shop-.myshopify.com',
  '_shop.myshopify.com',
  'sh_op.myshopify.com',
  'sub.shop.myshopify.com',
  'a.b.myshopify.com',
  'shop..myshopify.com',
  'shop.myshopify..com',
  'shop%2emyshopify.com',
  'shop%2Emyshopify.com',
  'shop.myshopify%2ecom',
  'shöp.myshopify.com',
  'xn--shp-sna.myshopify.com.evil',
  'shop.myshopify.com\u0000',
  'shop\u200b.myshopify.com',
  'ѕhop.myshopify.com',
  'shop.myshopіfy.com',
  '127.0.0.1',
  'localhost',
  '169.254.169.254',
  '[::1]',
  'shop.myshopify.com\\evil.com',
  'shop.myshopify.com;evil.com',
  'shop.myshopify.com,evil.com',
  'shop.shopify.com',
  'shop.myshopify.io',
  'shop.admin.shopify.com',
  'admin.shopify.com/store/shop',
  `${'a'.repeat(64)}.myshopify.com`,
  'shop.myshopify.com.',
];

describe('isValidShopDomain', () => {
  it(`refuses ${badDomains.length} malformed or hostile shop domains`, () => {
    expect(badDomains.length).toBeGreaterThanOrEqual(50);
    for (const domain of badDomains)
      expect(isValidShopDomain(domain), JSON.stringify(domain)).toBe(false);
    for (const value of [null, undefined, 42, {}, ['shop.myshopify.com']])
      expect(isValidShopDomain(value)).toBe(false);
  });

  it('accepts permanent myshopify.com domains', () => {
    for (const domain of [
      'shop.myshopify.com',
      'my-shop-2.myshopify.com',
      '0shop.myshopify.com',
      `${'a'.repeat(63)}.myshopify.com`,
    ])
      expect(isValidShopDomain(domain), domain).toBe(true);
  });
});

describe('buildAuthorizeUrl', () => {
  it('builds the authorize URL of the shop', () => {
    const url = new URL(
      buildAuthorizeUrl({
        shop: 'my-shop.myshopify.com',
        apiKey: 'key',
        scopes: SHOPIFY_SCOPES,
        redirectUri: 'https://replatform.example/shopify/callback',
        state: 'b0c1d2e3f4a5b6c7d8e9',
      }),
    );
    expect(url.origin + url.pathname).toBe('https://my-shop.myshopify.com/admin/oauth/authorize');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: 'key',
      scope: SHOPIFY_SCOPES.join(','),
      redirect_uri: 'https://replatform.example/shopify/callback',
      state: 'b0c1d2e3f4a5b6c7d8e9',
    });
  });

  it('refuses a bad shop, a weak state or a non-http redirect', () => {
    const input = {
      shop: 'a.myshopify.com',
      apiKey: 'k',
      scopes: ['read_products'],
      redirectUri: 'https://x.example/cb',
      state: 'x'.repeat(16),
    };
    expect(() => buildAuthorizeUrl({ ...input, shop: 'evil.com' })).toThrow(/shop/);
    expect(() => buildAuthorizeUrl({ ...input, state: 'short' })).toThrow(/state/);
    expect(() => buildAuthorizeUrl({ ...input, redirectUri: 'javascript:alert(1)' })).toThrow(
      /redirectUri/,
    );
  });
});

describe('verifyCallbackHmac', () => {
  const secret = 'hush';
  const hmacOf = (message: string, key = secret) =>
    createHmac('sha256', key).update(message).digest('hex');
  const params = {
    code: 'abc123',
    host: 'YWRtaW4uc2hvcGlmeS5jb20vc3RvcmUvc2hvcA',
    shop: 'shop.myshopify.com',
    state: 'nonce',
    timestamp: '1761912000',
  };
  const signed = {
    ...params,
    hmac: hmacOf(
      'code=abc123&host=YWRtaW4uc2hvcGlmeS5jb20vc3RvcmUvc2hvcA&shop=shop.myshopify.com&state=nonce&timestamp=1761912000',
    ),
  };

  it('verifies the example of Shopify’s authorization code grant documentation', () => {
    // shopify.dev "Verify a request": secret "hush", this query, this hmac.
    const documented =
      'code=0907a61c0c8d55e99db179b68161bc00&hmac=700e2dadb827fcc8609e9d5ce208b2e9cdaab9df07390d2cbca10d7c328fc4bf&shop=some-shop.myshopify.com&state=0.6784241404160823&timestamp=1337178173';
    expect(verifyCallbackHmac(documented, 'hush')).toBe(true);
    expect(signedMessage([...new URLSearchParams(documented)])).toBe(
      'code=0907a61c0c8d55e99db179b68161bc00&shop=some-shop.myshopify.com&state=0.6784241404160823&timestamp=1337178173',
    );
    expect(verifyCallbackHmac(documented.replace('state=0.67', 'state=0.68'), 'hush')).toBe(false);
  });

  it('signs values form-encoded, as Shopify’s libraries rebuild the query', () => {
    const query = { shop: 'shop.myshopify.com', state: "a b!'()~*", timestamp: '1761912000' };
    // Spaces become '+', and !'()~ are escaped (encodeURIComponent would write %20 and keep them).
    const formEncoded = 'shop=shop.myshopify.com&state=a+b%21%27%28%29%7E*&timestamp=1761912000';
    expect(signedMessage(Object.entries(query))).toBe(formEncoded);
    expect(verifyCallbackHmac({ ...query, hmac: hmacOf(formEncoded) }, secret)).toBe(true);
    const uriEncoded = "shop=shop.myshopify.com&state=a%20b!'()~*&timestamp=1761912000";
    expect(verifyCallbackHmac({ ...query, hmac: hmacOf(uriEncoded) }, secret)).toBe(false);
    // The query string as a browser sends it decodes to the same values.
    const sent = new URLSearchParams({ ...query, hmac: hmacOf(formEncoded) }).toString();
    expect(verifyCallbackHmac(`?${sent}`, secret)).toBe(true);
  });

  it('accepts Shopify’s signature in every query form', () => {
    expect(verifyCallbackHmac(signed, secret)).toBe(true);
    expect(verifyCallbackHmac(new URLSearchParams(signed), secret)).toBe(true);
    expect(verifyCallbackHmac(`?${new URLSearchParams(signed)}`, secret)).toBe(true);
    expect(verifyCallbackHmac({ ...signed, hmac: signed.hmac.toUpperCase() }, secret)).toBe(true);
  });

  it('refuses forged, tampered, incomplete or ambiguous callbacks', () => {
    expect(verifyCallbackHmac({ ...signed, shop: 'evil.myshopify.com' }, secret)).toBe(false);
    expect(verifyCallbackHmac({ ...signed, state: 'other' }, secret)).toBe(false);
    expect(verifyCallbackHmac({ ...signed, extra: '1' }, secret)).toBe(false);
    expect(verifyCallbackHmac(signed, 'wrong-secret')).toBe(false);
    expect(verifyCallbackHmac({ ...params, hmac: hmacOf('x', 'attacker') }, secret)).toBe(false);
    expect(verifyCallbackHmac({ ...params, hmac: '' }, secret)).toBe(false);
    expect(verifyCallbackHmac({ ...params, hmac: 'zz' }, secret)).toBe(false);
    expect(verifyCallbackHmac(params, secret)).toBe(false);
    expect(
      verifyCallbackHmac(`${new URLSearchParams(signed)}&shop=evil.myshopify.com`, secret),
    ).toBe(false);
    expect(verifyCallbackHmac({ ...signed, shop: ['a', 'b'] }, secret)).toBe(false);
    expect(verifyCallbackHmac(signed, '')).toBe(false);
  });

  it('checks that a timestamp is recent', () => {
    expect(isFreshTimestamp('1761912000', 1761912000_000 + 60_000)).toBe(true);
    expect(isFreshTimestamp('1761912000', 1761912000_000 + 3_600_000)).toBe(false);
    expect(isFreshTimestamp('soon', Date.now())).toBe(false);
  });
});

describe('install flow against the emulator', () => {
  const shop = 'install-flow.myshopify.com';
  const emulatorReady = startShopifyEmulator({
    shops: [shop],
    seed: { products: 3, customers: 1, orders: 1 },
    apiKey: 'app-key',
    apiSecret: 'app-secret',
  });
  let unroute: (() => void) | undefined;
  afterAll(async () => {
    unroute?.();
    await (await emulatorReady).close();
  });

  it('authorize -> callback -> verified HMAC -> token exchange -> API access; a code works once', async () => {
    const emulator = await emulatorReady;
    unroute = routeShop(shop, emulator.url);
    const http = shopRoutingHttp();
    const state = 'state-0123456789abcdef';
    const authorizeUrl = buildAuthorizeUrl({
      shop,
      apiKey: 'app-key',
      scopes: ['read_products', 'write_products'],
      redirectUri: 'https://replatform.example/callback',
      state,
    });
    const redirect = await http.request({ method: 'GET', url: authorizeUrl });
    expect(redirect.status).toBe(302);
    const callback = new URL(redirect.headers.location ?? '');
    expect(callback.searchParams.get('state')).toBe(state);
    expect(callback.searchParams.get('shop')).toBe(shop);
    expect(verifyCallbackHmac(callback.searchParams, 'app-secret')).toBe(true);
    const tampered = new URLSearchParams(callback.searchParams);
    tampered.set('shop', 'evil.myshopify.com');
    expect(verifyCallbackHmac(tampered, 'app-secret')).toBe(false);

    const code = callback.searchParams.get('code') ?? '';
    const token = await exchangeCode(
      { shop, code, apiKey: 'app-key', apiSecret: 'app-secret' },
      http,
    );
    expect(token.scopes).toEqual(['read_products', 'write_products']);
    const client = new ShopifyGraphqlClient({
      shopDomain: shop,
      accessToken: token.accessToken,
      http,
    });
    expect((await client.request(shopInfo)).shop.myshopifyDomain).toBe(shop);

    const again = await exchangeCode(
      { shop, code, apiKey: 'app-key', apiSecret: 'app-secret' },
      http,
    ).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(ConnectorError);
    expect((again as ConnectorError).code).toBe('oauth_code_invalid');
    expect(
      http.requests
        .filter((r) => r.url.endsWith('/admin/oauth/access_token'))
        .every((r) => r.retryable === false),
    ).toBe(true);
    // Every request of the flow (authorize, token exchange, GraphQL) matches Shopify's API.
    expect(validateShopifyRequests(http.requests)).toEqual([]);
    await expect(
      exchangeCode({ shop: 'evil.com', code, apiKey: 'k', apiSecret: 's' }, http),
    ).rejects.toThrow(/shop domain/);
  });
});
