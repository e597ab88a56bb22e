import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSampleStore } from '../framework/sample-store.ts';
import { adminSchema } from './admin-schema.ts';
import { startMagentoEmulator, type MagentoEmulator } from './magento-emulator.ts';
import { signedFetch, type SignedFetchOptions } from './testing/signed-fetch.ts';

const sample = { seed: 3, products: 6, customers: 1, orders: 0 };
const base = '/rest/all/V1/products/attributes/manufacturer';

type Option = { value: string; label: string; sort_order?: number; store_labels?: unknown };

describe('Magento emulator manufacturer options, the brands (integration, 127.0.0.1)', () => {
  let emulator: MagentoEmulator;
  let bare: MagentoEmulator;
  const spec = adminSchema();
  const on = (target: () => MagentoEmulator) => {
    return async (method: string, path: string, options: SignedFetchOptions = {}) => {
      const e = target();
      const answer = await signedFetch(e.url, e.credentials, method, path, options);
      if (answer.status === 200)
        expect(spec.checkResponse(method, `${e.url}${path}`, 200, answer.body)).toEqual([]);
      return answer;
    };
  };
  const call = on(() => emulator);
  const list = async () => (await call('GET', `${base}/options`)).body as Option[];

  beforeAll(async () => {
    emulator = await startMagentoEmulator({ seed: sample });
    bare = await startMagentoEmulator({ seed: { ...sample, brands: false } });
  });
  afterAll(async () => {
    await emulator?.close();
    await bare?.close();
  });

  it('is seeded with the sample brands as options in their order, after the empty option, which the products point at', async () => {
    const brands = generateSampleStore(sample).brands;
    const options = await list();
    expect(options[0]).toEqual({ label: ' ', value: '' });
    expect(options.slice(1).map((o) => [o.label, o.sort_order])).toEqual(
      [...brands].sort((a, b) => a.position - b.position).map((b) => [b.name, b.position]),
    );
    const attribute = (await call('GET', base.replace('/rest/all', '/rest'))).body as {
      options: Option[];
    };
    expect(attribute.options).toEqual(options);
    expect(emulator.store.countCanonical('brands')).toBe(brands.length);
    const values = new Set(options.map((o) => o.value));
    for (const p of emulator.store.catalog.products.values())
      if (p.custom.manufacturer !== undefined) expect(values.has(p.custom.manufacturer)).toBe(true);
    // Without brand records, the products' vendors are still options (a product's manufacturer is one).
    expect(bare.store.countCanonical('brands')).toBeGreaterThan(0);
  });

  it('adds an option with its sort order and answers its id; refuses an empty label, a label taken in any case, an unknown store, an unknown field', async () => {
    const added = await call('POST', `${base}/options`, {
      body: {
        option: {
          label: ' Orbit ',
          value: '',
          sort_order: 12,
          is_default: false,
          store_labels: [
            { store_id: 0, label: 'Orbit' },
            { store_id: 1, label: 'Orbit (EN)' },
          ],
        },
      },
    });
    expect(added.status).toBe(200);
    expect(added.body).toMatch(/^id_\d+$/);
    const id = String(added.body).slice(3);
    const stored = (await list()).find((o) => o.value === id);
    expect(stored).toEqual({
      label: 'Orbit',
      value: id,
      sort_order: 12,
      store_labels: [{ store_id: 1, label: 'Orbit (EN)' }],
    });
    const refusals: [unknown, number, string][] = [
      [{ option: { label: '   ', value: '' } }, 400, 'The attribute option label is empty'],
      [{ option: { label: 'ORBIT', value: '' } }, 400, 'is already exists'],
      [
        { option: { label: 'Nova', value: '', store_labels: [{ store_id: 9, label: 'x' }] } },
        404,
        "The store that was requested wasn't found",
      ],
      [{ option: { label: 'Nova', value: '', logo: 'x.png' } }, 400, 'does not have accessor'],
      [{}, 400, '"%fieldName" is required'],
    ];
    for (const [body, status, message] of refusals) {
      const answer = await call('POST', `${base}/options`, { body });
      expect(answer.status, JSON.stringify(body)).toBe(status);
      expect((answer.body as { message: string }).message).toContain(message);
    }
    const sku = await call('POST', '/rest/all/V1/products/attributes/sku/options', {
      body: { option: { label: 'Nova', value: '' } },
    });
    expect(sku.status).toBe(400);
    expect(sku.body).toEqual({
      message: 'The "%1" attribute doesn\'t work with options.',
      parameters: ['sku'],
    });
  });

  it('updates an option in place (label, order, store labels saved anew) and deletes one, clearing the products that had it', async () => {
    const options = await list();
    const [first, second] = options.slice(1);
    if (!first || !second) throw new Error('seeded brands');
    const put = await call('PUT', `${base}/options/${first.value}`, {
      body: { option: { label: 'Renamed', value: first.value, sort_order: 40 } },
    });
    expect(put.status).toBe(200);
    expect(put.body).toBe(true);
    expect((await list()).find((o) => o.value === first.value)).toEqual({
      label: 'Renamed',
      value: first.value,
      sort_order: 40,
    });
    const taken = await call('PUT', `${base}/options/${first.value}`, {
      body: { option: { label: second.label.toUpperCase(), value: first.value } },
    });
    expect(taken.status).toBe(400);
    // Its own label, in another case, is no conflict.
    const own = await call('PUT', `${base}/options/${first.value}`, {
      body: { option: { label: 'RENAMED', value: first.value, sort_order: 40 } },
    });
    expect(own.status).toBe(200);
    const missing = await call('PUT', `${base}/options/999999`, {
      body: { option: { label: 'Ghost', value: '999999' } },
    });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({
      message: 'The "%1" attribute doesn\'t include an option with "%2" ID.',
      parameters: ['manufacturer', '999999'],
    });
    const holders = [...emulator.store.catalog.products.values()].filter(
      (p) => p.custom.manufacturer === second.value,
    );
    const removed = await call('DELETE', `${base}/options/${second.value}`);
    expect(removed.status).toBe(200);
    expect(removed.body).toBe(true);
    expect((await list()).some((o) => o.value === second.value)).toBe(false);
    for (const p of holders) expect(p.custom.manufacturer).toBeUndefined();
    expect((await call('DELETE', `${base}/options/${second.value}`)).status).toBe(404);
  });
});
