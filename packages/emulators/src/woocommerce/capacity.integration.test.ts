import { Agent, get } from 'node:https';
import { describe, expect, it } from 'vitest';
import { realStoreCapacity } from './capacity.ts';
import { startWooCommerceEmulator } from './woocommerce-emulator.ts';

const items = (n: number) =>
  Buffer.from(JSON.stringify({ create: Array.from({ length: n }, () => ({})) }));

describe('the real store capacity model', () => {
  it('costs a batch per item as the real store took', () => {
    const cost = (path: string, n: number) =>
      realStoreCapacity.costMs({ method: 'POST', path: `/wp-json/wc/v3${path}`, body: items(n) });
    expect(cost('/products/batch', 100)).toBe(2_800);
    expect(cost('/customers/batch', 100)).toBe(10_300);
    expect(cost('/orders/batch', 50)).toBe(4_450);
    expect(cost('/products/12/variations/batch', 6)).toBe(258);
    expect(
      realStoreCapacity.costMs({
        method: 'GET',
        path: '/wp-json/wc/v3/products',
        body: Buffer.alloc(0),
      }),
    ).toBe(40);
  });

  it('lets two requests work at once and queues the rest, so answers slow down as requests pile up', async () => {
    const emu = await startWooCommerceEmulator({
      seed: 'empty',
      https: true,
      capacity: { workers: 2, costMs: () => 150 },
    });
    try {
      const auth = `Basic ${Buffer.from(`${emu.consumerKey}:${emu.consumerSecret}`).toString('base64')}`;
      const agent = new Agent({ ca: emu.certificate ?? '', keepAlive: false });
      const started = performance.now();
      const done = await Promise.all(
        Array.from(
          { length: 4 },
          () =>
            new Promise<number>((resolve, reject) => {
              get(`${emu.apiUrl}/products`, { headers: { authorization: auth }, agent }, (res) => {
                res.resume();
                res.on('end', () => resolve(performance.now() - started));
              }).on('error', reject);
            }),
        ),
      );
      done.sort((a, b) => a - b);
      // Two answered after one unit of work, two after two.
      expect(done[1]).toBeLessThan(290);
      expect(done[2]).toBeGreaterThanOrEqual(290);
      agent.destroy();
    } finally {
      await emu.close();
    }
  });
});
