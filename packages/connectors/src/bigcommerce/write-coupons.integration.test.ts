import { afterAll, describe, expect, it } from 'vitest';
import type { Coupon } from '@replatform/canonical/coupon';
import { couponDefaults } from '@replatform/canonical/defaults';
import {
  startBigCommerceEmulator,
  type BigCommerceEmulatorOptions,
  type RunningBigCommerceEmulator,
} from '@replatform/emulators/bigcommerce/bigcommerce-emulator';
import { BigCommerceSpec } from '@replatform/emulators/bigcommerce/openapi-validator';
import { MemoryIdMap, readAll } from '../kit/conformance/conformance-suite.ts';
import type { ConnectorHttpRequest } from '../kit/contract.ts';
import { ConnectorError } from '../kit/errors.ts';
import { knownDifferences } from '../kit/fields.ts';
import { loopbackHttp } from '../kit/testing/loopback-http.ts';
import { createBigCommerceConnector } from './bigcommerce-connector.ts';

const spec = new BigCommerceSpec();
const origins = new Map<string, string>();
const emulators: RunningBigCommerceEmulator[] = [];
let counter = 0;

const connector = createBigCommerceConnector({
  apiBaseUrl: (storeHash) => origins.get(storeHash) ?? 'http://127.0.0.1:9',
  retry: { baseDelayMs: 5, maxDelayMs: 50 },
});

async function store(options: BigCommerceEmulatorOptions): Promise<RunningBigCommerceEmulator> {
  counter += 1;
  const emulator = await startBigCommerceEmulator({
    storeHash: `coupons${counter}`,
    plan: 'unlimited',
    ...options,
  });
  origins.set(emulator.storeHash, emulator.url);
  emulators.push(emulator);
  return emulator;
}

function connect(emulator: RunningBigCommerceEmulator, accessToken = emulator.accessToken) {
  const http = loopbackHttp();
  const connection = connector.connect({ storeHash: emulator.storeHash, accessToken }, { http });
  return { connection, requests: http.requests };
}

const specProblems = (requests: ConnectorHttpRequest[]) => [
  ...new Set(requests.flatMap((r) => spec.validateRequest(r))),
];
const posts = (requests: ConnectorHttpRequest[]) =>
  requests.filter((r) => r.method === 'POST' && r.url.includes('/v2/coupons')).length;

const coupon = (over: Partial<Coupon>): Coupon => ({
  ...couponDefaults(),
  id: '1',
  code: 'SAVE10',
  description: 'Ten percent off',
  discountType: 'percent',
  percentOff: 10,
  amountOff: null,
  createdAt: null,
  ...over,
});

afterAll(async () => {
  await Promise.all(emulators.map((e) => e.close()));
});

describe('BigCommerce coupon writes', () => {
  it('copies the sample coupons with their restrictions, and reports what BigCommerce cannot hold', async () => {
    const source = await store({ seed: { seed: 5, products: 6, customers: 0, orders: 4 } });
    const destination = await store({ seed: 'empty' });
    const from = connect(source).connection;
    const to = connect(destination);
    const idMap = new MemoryIdMap();
    for (const entity of ['categories', 'products'] as const)
      idMap.record(entity, await to.connection.write(entity, await readAll(from, entity), idMap));
    const coupons = await readAll(from, 'coupons');
    expect(coupons).toHaveLength(6);
    const outcomes = await to.connection.write('coupons', coupons, idMap);
    expect(outcomes.map((o) => o.outcome)).toEqual(Array(6).fill('created'));
    expect(destination.countStored('coupons')).toBe(6);
    expect(specProblems(to.requests)).toEqual([]);
    // The staff coupon is limited to two products: the destination's copies of them.
    const staff = destination.state.coupons.find((c) => c.code === 'STAFF-ONLY');
    const sourceStaff = coupons.find((c) => c.code === 'STAFF-ONLY');
    expect(staff?.applies_to).toEqual({
      entity: 'products',
      ids: (sourceStaff?.productIds ?? []).map((id) => Number(idMap.get('products', id))),
    });
    const perItem = destination.state.coupons.find((c) => c.code === 'FIVEOFFEACH');
    const sourcePerItem = coupons.find((c) => c.code === 'FIVEOFFEACH');
    expect(sourcePerItem?.categoryIds).toHaveLength(1);
    expect(perItem?.applies_to).toEqual({
      entity: 'categories',
      ids: (sourcePerItem?.categoryIds ?? []).map((id) => Number(idMap.get('categories', id))),
    });
    // A coupon read from another platform names what did not fit.
    const woo = coupon({
      id: '50',
      code: 'VIPONLY',
      startsAt: '2026-01-01T00:00:00.000Z',
      allowedEmails: ['*@staff.example.com'],
      excludeSaleItems: true,
      usageCount: 3,
    });
    const [outcome] = await to.connection.write('coupons', [woo], idMap);
    expect(outcome).toMatchObject({ outcome: 'created' });
    // What BigCommerce has no place for is the run's known difference of the coupon, by its
    // declaration; the outcome's warnings name only what the mapping itself gave up.
    expect(
      knownDifferences('coupons', woo, connector.capabilities.destinationFields.coupons ?? {}).map(
        (d) => d.field,
      ),
    ).toEqual(['startsAt', 'allowedEmails', 'excludeSaleItems', 'usageCount']);
    expect(outcome?.warnings).toBeUndefined();
    const both = await to.connection.write(
      'coupons',
      [
        coupon({
          id: '51',
          code: 'SHIPTOO',
          description: 'Ten off and free shipping',
          freeShipping: true,
        }),
      ],
      idMap,
    );
    expect(both[0]?.warnings).toEqual([expect.stringMatching(/\(freeShipping\)$/)]);
  });

  it("links the merchant's coupon of the same code without changing it, and skips what the id map knows", async () => {
    const destination = await store({ seed: { seed: 3, products: 2, customers: 0, orders: 0 } });
    const merchant = destination.state.coupons.find((c) => c.code === 'VIP20');
    const before = structuredClone(merchant);
    const { connection, requests } = connect(destination);
    const idMap = new MemoryIdMap();
    const outcomes = await connection.write(
      'coupons',
      [coupon({ id: '9', code: 'vip20', percentOff: 50 })],
      idMap,
    );
    expect(outcomes).toEqual([
      {
        sourceId: '9',
        outcome: 'skipped',
        destinationId: String(merchant?.id),
        reason:
          'a coupon with this code already existed at the destination; linked to it, not changed',
        linked: true,
      },
    ]);
    expect(destination.state.coupons.find((c) => c.code === 'VIP20')).toEqual(before);
    idMap.record('coupons', outcomes);
    const again = await connection.write('coupons', [coupon({ id: '9', code: 'vip20' })], idMap);
    expect(again[0]).toMatchObject({ outcome: 'skipped', reason: 'already migrated' });
    expect(posts(requests)).toBe(0);
    expect(destination.countStored('coupons')).toBe(6);
  });

  it('fails what it cannot write faithfully, creating nothing', async () => {
    const destination = await store({ seed: 'empty' });
    const { connection, requests } = connect(destination);
    const outcomes = await connection.write(
      'coupons',
      [
        coupon({ id: '1', code: 'A1', productIds: ['77'] }),
        coupon({ id: '2', code: 'A2', categoryIds: ['5'] }),
        coupon({
          id: '3',
          code: 'A3',
          discountType: 'fixed_cart',
          percentOff: null,
          amountOff: { amount: 500, currency: 'EUR' },
        }),
        coupon({ id: '4', code: '10%OFF' }),
      ],
      new MemoryIdMap(),
    );
    expect(outcomes.map((o) => [o.outcome, o.reason])).toEqual([
      ['failed', 'limited to products that were not migrated (77): select Products too'],
      ['failed', 'limited to categories that were not migrated (5): select Categories too'],
      [
        'failed',
        "the coupon's amounts are in EUR, the destination store's currency is USD: BigCommerce coupons work in the store's currency only",
      ],
      ['failed', expect.stringContaining("'10%OFF' cannot be written")],
    ]);
    expect(posts(requests)).toBe(0);
    expect(destination.countStored('coupons')).toBe(0);
  });

  it('keeps two coupons of one code apart and renames a coupon whose name is taken', async () => {
    const destination = await store({ seed: 'empty' });
    const { connection, requests } = connect(destination);
    const outcomes = await connection.write(
      'coupons',
      [
        coupon({ id: '1', code: 'SAVE10' }),
        coupon({ id: '2', code: 'save10' }),
        coupon({ id: '3', code: 'SAVE15', percentOff: 15 }),
      ],
      new MemoryIdMap(),
    );
    expect(outcomes.map((o) => o.outcome)).toEqual(['created', 'failed', 'created']);
    expect(outcomes[1]?.reason).toBe('another migrated coupon (1) has the same code');
    expect(outcomes[2]?.warnings).toEqual([
      "renamed to 'Ten percent off (SAVE15)': another coupon of the store already has this name (description)",
    ]);
    expect(destination.state.coupons.map((c) => c.name).sort()).toEqual([
      'Ten percent off',
      'Ten percent off (SAVE15)',
    ]);
    expect(specProblems(requests)).toEqual([]);
  });

  it('asks for the Marketing scope when the API account may not change coupons', async () => {
    const destination = await store({
      seed: 'empty',
      apiAccounts: [
        {
          accessToken: 'no-marketing',
          scopes: ['store_v2_information', 'store_v2_marketing_read_only'],
        },
      ],
    });
    const { connection } = connect(destination, 'no-marketing');
    const error = await connection
      .write('coupons', [coupon({})], new MemoryIdMap())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectorError);
    expect(error).toMatchObject({ errorClass: 'config', code: 'read_only_credentials' });
    expect((error as Error).message).toMatch(/Marketing scope/);
  });
});
