import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Order } from '@replatform/canonical/order';
import { checkRequest } from '@replatform/emulators/woocommerce/testing/spec';
import {
  startWooCommerceEmulator,
  type RunningWooCommerceEmulator,
} from '@replatform/emulators/woocommerce/woocommerce-emulator';
import { MemoryIdMap } from '../kit/conformance/conformance-suite.ts';
import type { Connection, ConnectorHttpRequest } from '../kit/contract.ts';
import { loopbackHttp } from '../kit/testing/loopback-http.ts';
import { markers } from './markers.ts';
import { coupon, order as baseOrder, product, usd } from './test-records.ts';
import { wooCommerceConnector } from './woocommerce.ts';

/** Coupons written into the emulator (it starts servers on 127.0.0.1). */

const recordings: ConnectorHttpRequest[][] = [];
afterAll(() => {
  const problems = recordings
    .flat()
    .flatMap((r) => checkRequest(r).map((p) => `${r.method} ${new URL(r.url).pathname}: ${p}`));
  expect(problems).toEqual([]);
});

function connect(emu: RunningWooCommerceEmulator): Connection {
  const http = loopbackHttp();
  recordings.push(http.requests);
  return wooCommerceConnector.connect(
    { storeUrl: emu.url, consumerKey: emu.consumerKey, consumerSecret: emu.consumerSecret },
    { http },
  );
}

const stored = (emu: RunningWooCommerceEmulator, code: string) =>
  [...emu.store.coupons.values()].filter((c) => c.code === code);

describe('WooCommerce coupon writes', () => {
  let emu: RunningWooCommerceEmulator;
  let connection: Connection;
  let idMap: MemoryIdMap;
  beforeEach(async () => {
    emu = await startWooCommerceEmulator({ seed: 'empty' });
    connection = connect(emu);
    idMap = new MemoryIdMap();
    idMap.record('products', await connection.write('products', [product('p1')], idMap));
  });
  afterEach(async () => {
    await emu.close();
  });

  it('creates each coupon once, with its restrictions through the id map, and skips or updates it later', async () => {
    const records = [
      coupon('1', { code: 'VIP20', percentOff: 20, productIds: ['p1'], usageLimit: 5 }),
      coupon('2', {
        code: 'ship',
        discountType: 'fixed_cart',
        percentOff: null,
        amountOff: usd(0),
        freeShipping: true,
        expiresAt: '2030-01-01T00:00:00.000Z',
      }),
      coupon('3', { code: 'limited', excludedProductIds: ['p9'] }),
    ];
    const first = await connection.write('coupons', records, idMap);
    expect(first.map((o) => o.outcome)).toEqual(['created', 'created', 'failed']);
    expect(first[0]?.warnings).toEqual([
      "WooCommerce keeps coupon codes in lower case: 'VIP20' is kept as 'vip20' (customers may type it in any case).",
    ]);
    expect(first[2]?.reason).toContain('excluded product p9');
    idMap.record('coupons', first);
    const [vip] = stored(emu, 'vip20');
    expect(vip).toMatchObject({
      discountType: 'percent',
      amount: '20',
      productIds: [Number(idMap.get('products', 'p1'))],
      usageLimit: 5,
    });
    expect(stored(emu, 'ship')[0]).toMatchObject({
      freeShipping: true,
      dateExpires: Date.parse('2030-01-01T00:00:00Z'),
    });
    expect(stored(emu, 'limited')).toEqual([]);

    const again = await connection.write('coupons', records.slice(0, 2), idMap);
    expect(again.map((o) => o.outcome)).toEqual(['skipped', 'skipped']);
    // A run that lost its id map finds them by their marker.
    const withoutCoupons = new MemoryIdMap();
    withoutCoupons.record('products', [
      { sourceId: 'p1', outcome: 'created', destinationId: idMap.get('products', 'p1') },
    ]);
    const amnesiac = await connect(emu).write('coupons', records.slice(0, 2), withoutCoupons);
    expect(amnesiac.map((o) => [o.outcome, o.destinationId])).toEqual(
      first.slice(0, 2).map((o) => ['skipped', o.destinationId]),
    );
    const changed = await connection.write(
      'coupons',
      [{ ...(records[1] as (typeof records)[1]), expiresAt: null }],
      idMap,
    );
    expect(changed[0]?.outcome).toBe('updated');
    expect(stored(emu, 'ship')[0]?.dateExpires).toBeNull();
    expect(emu.store.coupons.size).toBe(2);
  });

  it("links a merchant's coupon of the same code and leaves it alone; replaces a temporary one left behind", async () => {
    const merchant = emu.store.createCoupon({ code: 'welcome', amount: '3' });
    emu.store.createCoupon({
      code: 'spring',
      amount: '9',
      meta_data: [{ key: markers.temporaryCoupon, value: 'o0' }],
    });
    const outcomes = await connection.write(
      'coupons',
      [coupon('1', { code: 'WELCOME' }), coupon('2', { code: 'spring', percentOff: 15 })],
      idMap,
    );
    expect(outcomes[0]).toEqual({
      sourceId: '1',
      outcome: 'skipped',
      destinationId: String(merchant.id),
      reason:
        "A coupon with the code 'welcome' already exists at the destination; it was linked, not changed.",
      linked: true,
    });
    expect(stored(emu, 'welcome')).toEqual([merchant]);
    expect(outcomes[1]?.outcome).toBe('created');
    expect(stored(emu, 'spring')).toHaveLength(1);
    expect(stored(emu, 'spring')[0]).toMatchObject({ discountType: 'percent', amount: '15' });
  });

  it('fails a coupon in another currency than the store’s', async () => {
    const [euro] = await connection.write(
      'coupons',
      [
        coupon('1', {
          discountType: 'fixed_cart',
          percentOff: null,
          amountOff: { amount: 5, currency: 'EUR' },
        }),
      ],
      idMap,
    );
    expect(euro?.outcome).toBe('failed');
    expect(euro?.reason).toContain('in EUR');
  });

  it('records an order of a migrated coupon with its historical discount, and publishes the coupon again', async () => {
    // Expired, so WooCommerce would refuse it for the order as it stands.
    const [written] = await connection.write(
      'coupons',
      [coupon('1', { code: 'old10', expiresAt: '2021-01-01T00:00:00.000Z', usageLimit: 3 })],
      idMap,
    );
    idMap.record('coupons', [written as NonNullable<typeof written>]);
    const before = structuredClone(stored(emu, 'old10'));
    const o: Order = {
      ...baseOrder('o1', 'p1'),
      discounts: [{ code: 'old10', amount: usd(100), tax: usd(0) }],
      discountTotal: usd(100),
      lines: baseOrder('o1', 'p1').lines.map((l) => ({ ...l, total: usd(900) })),
      grandTotal: usd(900),
    };
    const [outcome] = await connection.write('orders', [o], idMap);
    expect(outcome?.outcome).toBe('created');
    expect(outcome?.warnings?.join(' ')).toContain(
      "the line's code leads to the migrated coupon 'old10'",
    );
    const created = emu.store.orders.get(Number(outcome?.destinationId));
    expect(created?.couponLines.map((c) => [c.code, c.discount])).toEqual([['old10', 1]]);
    // Only the migrated coupon is left, published as before, with its marker of set-aside cleared.
    const after = stored(emu, 'old10');
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({
      id: before[0]?.id,
      status: 'publish',
      dateExpires: before[0]?.dateExpires,
      usageLimit: 3,
    });
    expect(after[0]?.meta.find((m) => m.key === markers.parkedCoupon)?.value).toBe('');
    // The next run finds the coupon up to date.
    const [again] = await connection.write(
      'coupons',
      [coupon('1', { code: 'old10', expiresAt: '2021-01-01T00:00:00.000Z', usageLimit: 3 })],
      idMap,
    );
    expect(again?.outcome).toBe('skipped');
  });

  it('publishes again a migrated coupon an interrupted order write left set aside', async () => {
    const record = coupon('1', { code: 'kept' });
    const [written] = await connection.write('coupons', [record], idMap);
    const id = Number(written?.destinationId);
    const left = emu.store.coupons.get(id);
    if (!left) throw new Error('not written');
    emu.store.updateCoupon(left, {
      status: 'draft',
      meta_data: [{ key: markers.parkedCoupon, value: 'publish' }],
    });
    const [again] = await connection.write('coupons', [record], idMap);
    expect(again?.outcome).toBe('updated');
    expect(emu.store.coupons.get(id)?.status).toBe('publish');
  });

  it('publishes at the end of the import a coupon set aside by an order whose write stopped, and nothing else', async () => {
    const [written] = await connection.write('coupons', [coupon('1', { code: 'parked' })], idMap);
    const [draft] = await connection.write(
      'coupons',
      [coupon('2', { code: 'draft-of-ours', enabled: false })],
      idMap,
    );
    const left = emu.store.coupons.get(Number(written?.destinationId));
    if (!left) throw new Error('not written');
    emu.store.updateCoupon(left, {
      status: 'draft',
      meta_data: [{ key: markers.parkedCoupon, value: 'publish' }],
    });
    await connection.prepareImport?.({ runId: 'run-1', resumed: false });
    const notes = (await connection.finishImport?.({ runId: 'run-1' })) ?? [];
    expect(notes).toContain(
      'Coupons set aside while their orders were recorded were published again: parked.',
    );
    expect(emu.store.coupons.get(left.id)?.status).toBe('publish');
    // A coupon that is a draft at the source stays one.
    expect(emu.store.coupons.get(Number(draft?.destinationId))?.status).toBe('draft');
  });
});
