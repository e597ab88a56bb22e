import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { routeTable } from '../route-table.ts';
import { buildRouteTable, checkRequest, checkResource, wcSamplesDir } from './spec.ts';

const api = 'http://127.0.0.1:1/wp-json/wc/v3';

describe('WooCommerce spec files', () => {
  it('keeps the emulator’s route table equal to the 11.0.1 index (regenerate when it changes)', () => {
    expect(routeTable).toEqual(buildRouteTable());
  });

  it('keeps the bundled sample CSV equal to WooCommerce’s sample_products.csv', () => {
    const bundled = readFileSync(
      resolve(import.meta.dirname, '../sample-data/sample_products.csv'),
      'utf8',
    );
    expect(bundled).toBe(readFileSync(resolve(wcSamplesDir, 'sample_products.csv'), 'utf8'));
  });
});

describe('request checks against the wc/v3 index', () => {
  it('accepts documented requests', () => {
    expect(
      checkRequest({
        method: 'GET',
        url: `${api}/products?per_page=100&orderby=id&order=asc&sku=a,b&oauth_nonce=x`,
      }),
    ).toEqual([]);
    expect(
      checkRequest({
        method: 'GET',
        url: `${api}/orders?created_via=replatform,rest-api&include_meta=a,b&include=1,2`,
      }),
    ).toEqual([]);
    expect(
      checkRequest({
        method: 'POST',
        url: `${api}/products/batch`,
        body: JSON.stringify({
          create: [{ name: 'x', regular_price: '1.00', images: [{ src: 'http://a/b.png' }] }],
          update: [{ id: 3, name: 'y' }],
        }),
      }),
    ).toEqual([]);
    expect(
      checkRequest({
        method: 'PUT',
        url: `${api}/settings/email_new_order/enabled`,
        body: '{"value":"no"}',
      }),
    ).toEqual([]);
  });

  it('finds unknown routes, methods, arguments and bad values', () => {
    expect(checkRequest({ method: 'GET', url: `${api}/nope` })).toEqual([
      'no wc/v3 route for /wc/v3/nope',
    ]);
    expect(checkRequest({ method: 'DELETE', url: `${api}/products` })[0]).toMatch(
      /DELETE not allowed/,
    );
    expect(checkRequest({ method: 'GET', url: `${api}/products?per_page=101` })).toEqual([
      'query per_page: per_page must be between 1 (inclusive) and 100 (inclusive)',
    ]);
    expect(checkRequest({ method: 'GET', url: `${api}/products?orderby=sku` })[0]).toMatch(
      /orderby is not one of/,
    );
    expect(checkRequest({ method: 'GET', url: `${api}/customers?meta_key=x` })).toEqual([
      "unknown query argument 'meta_key' on /wc/v3/customers",
    ]);
  });

  it('finds bodies with read-only, unknown or mistyped fields and batches over 100', () => {
    const problems = checkRequest({
      method: 'POST',
      url: `${api}/orders`,
      body: JSON.stringify({
        number: '1001',
        status: 'shipped',
        line_items: [{ quantity: '2', total_tax: '1.00' }],
        nope: 1,
      }),
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/unknown body field 'nope'/),
        expect.stringMatching(/unknown body field 'number'/),
        expect.stringMatching(/read-only field sent: .*total_tax/),
        expect.stringMatching(/status is not one of/),
      ]),
    );
    const big = checkRequest({
      method: 'POST',
      url: `${api}/customers/batch`,
      body: JSON.stringify({
        create: Array.from({ length: 101 }, (_, i) => ({ email: `a${i}@b.co` })),
      }),
    });
    expect(big).toContain('/wc/v3/customers/batch: 101 items in one batch (limit 100)');
  });

  it('lets a review carry the date and verified flag a real store reads, and needs its address field', () => {
    const review = {
      product_id: 3,
      reviewer: 'Ann',
      reviewer_email: '',
      review: 'Fine.',
      rating: 4,
      status: 'hold',
      date_created_gmt: '2023-04-12T10:15:00',
      verified: true,
    };
    expect(
      checkRequest({
        method: 'POST',
        url: `${api}/products/reviews/batch`,
        body: JSON.stringify({ create: [review], update: [{ id: 9, status: 'trash' }] }),
      }),
    ).toEqual([]);
    const { reviewer_email: _, ...noAddress } = review;
    expect(
      checkRequest({
        method: 'POST',
        url: `${api}/products/reviews/batch`,
        body: JSON.stringify({ create: [noAddress] }),
      }),
    ).toEqual(['/wc/v3/products/reviews/batch create[0]: missing reviewer_email']);
  });

  it('validates resources against the index schemas', () => {
    expect(
      checkResource('/wc/v3/products/categories', {
        id: 1,
        name: 'A',
        slug: 'a',
        parent: 0,
        image: null,
      }),
    ).toEqual([]);
    expect(
      checkResource('/wc/v3/products/categories', { id: 'one', name: 2 }).length,
    ).toBeGreaterThan(0);
    expect(checkResource('/wc/v3/orders', { status: 'shipped' })[0]).toMatch(/allowed values/);
  });
});
