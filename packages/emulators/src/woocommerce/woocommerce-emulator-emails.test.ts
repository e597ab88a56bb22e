import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wcClient } from './testing/signed-fetch.ts';
import {
  startWooCommerceEmulator,
  type RunningWooCommerceEmulator,
} from './woocommerce-emulator.ts';

/**
 * Which e-mails the store sends for records the REST API creates, as a real WooCommerce 11.0.1
 * store sent them (each switched on, as after installation): the outbox shows what would have
 * gone out, so a migration's tests can see whether its customers were e-mailed.
 */

type Obj = Record<string, unknown>;

describe('WooCommerce emulator e-mails for API-created records', () => {
  let emu: RunningWooCommerceEmulator;
  let wc: ReturnType<typeof wcClient>;
  beforeAll(async () => {
    emu = await startWooCommerceEmulator({ seed: 'empty' });
    wc = wcClient({
      baseUrl: emu.url,
      consumerKey: emu.consumerKey,
      consumerSecret: emu.consumerSecret,
    });
  });
  afterAll(async () => {
    await emu.close();
  });

  const sentFor = async (call: () => Promise<unknown>) => {
    const before = emu.store.outbox.length;
    await call();
    return emu.store.outbox.slice(before).map((m) => `${m.template} ${m.to}`);
  };
  const order = (status: string, email: string) =>
    wc.call('POST', '/orders', {
      body: { status, billing: { email }, fee_lines: [{ name: 'Thing', total: '5.00' }] },
    });

  it('a customer: the new-account e-mail', async () => {
    expect(
      await sentFor(() => wc.call('POST', '/customers', { body: { email: 'ann@example.org' } })),
    ).toEqual(['customer_new_account ann@example.org']);
  });

  it('an order by its status: the shop and the customer as WooCommerce tells them', async () => {
    const admin = emu.store.adminEmail;
    expect(await sentFor(() => order('processing', 'bob@example.org'))).toEqual([
      `new_order ${admin}`,
      'customer_processing_order bob@example.org',
    ]);
    expect(await sentFor(() => order('completed', 'cy@example.org'))).toEqual([
      `new_order ${admin}`,
      'customer_completed_order cy@example.org',
    ]);
    expect(await sentFor(() => order('on-hold', 'di@example.org'))).toEqual([
      `new_order ${admin}`,
      'customer_on_hold_order di@example.org',
    ]);
    expect(await sentFor(() => order('cancelled', 'ed@example.org'))).toEqual([
      `cancelled_order ${admin}`,
    ]);
    expect(await sentFor(() => order('failed', 'gil@example.org'))).toEqual([
      `failed_order ${admin}`,
      'customer_failed_order gil@example.org',
    ]);
    expect(await sentFor(() => order('refunded', 'hal@example.org'))).toEqual([
      'customer_refunded_order hal@example.org',
    ]);
    expect(await sentFor(() => order('pending', 'ivy@example.org'))).toEqual([]);
  });

  it("a customer note and a partial refund: the customer's e-mails", async () => {
    const { body } = await order('completed', 'jo@example.org');
    const id = (body as Obj).id as number;
    expect(
      await sentFor(() =>
        wc.call('POST', `/orders/${id}/notes`, { body: { note: 'Shipped', customer_note: true } }),
      ),
    ).toEqual(['customer_note jo@example.org']);
    expect(
      await sentFor(() =>
        wc.call('POST', `/orders/${id}/refunds`, { body: { amount: '2.00', api_refund: false } }),
      ),
    ).toEqual(['customer_refunded_order jo@example.org']);
  });

  it('none of them once switched off in the settings', async () => {
    for (const id of ['new_order', 'customer_completed_order', 'customer_new_account'])
      await wc.call('PUT', `/settings/email_${id}/enabled`, { body: { value: 'no' } });
    expect(await sentFor(() => order('completed', 'kim@example.org'))).toEqual([]);
    expect(
      await sentFor(() => wc.call('POST', '/customers', { body: { email: 'kim@example.org' } })),
    ).toEqual([]);
  });
});
