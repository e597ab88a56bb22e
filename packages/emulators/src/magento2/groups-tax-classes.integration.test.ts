import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminSchema } from './admin-schema.ts';
import { startMagentoEmulator, type MagentoEmulator } from './magento-emulator.ts';
import { searchQuery, signedFetch } from './testing/signed-fetch.ts';

type Results<T> = { items: T[]; total_count: number };
type Group = { id: number; code: string; tax_class_id: number; tax_class_name: string };
type TaxClass = { class_id: number; class_name: string; class_type: string };

describe('Magento emulator customer group and tax class searches (integration, 127.0.0.1)', () => {
  let emulator: MagentoEmulator;
  const spec = adminSchema();
  const search = async <T>(path: string, query: Parameters<typeof searchQuery>[0]) => {
    const url = `${path}?${searchQuery(query)}`;
    const answer = await signedFetch(emulator.url, emulator.credentials, 'GET', url);
    expect(answer.status).toBe(200);
    expect(spec.checkResponse('GET', `${emulator.url}${url}`, 200, answer.body)).toEqual([]);
    return answer.body as Results<T>;
  };

  beforeAll(async () => {
    emulator = await startMagentoEmulator({ seed: 'empty', inputLimits: true });
  });
  afterAll(async () => {
    await emulator?.close();
  });

  it('lists a fresh installation’s groups by id, NOT LOGGED IN (0) among them, each with its tax class', async () => {
    const found = await search<Group>('/rest/V1/customerGroups/search', {
      sort: [['id', 'ASC']],
      pageSize: 300,
      currentPage: 1,
    });
    expect(found.total_count).toBe(4);
    expect(found.items.map((g) => [g.id, g.code, g.tax_class_name])).toEqual([
      [0, 'NOT LOGGED IN', 'Retail Customer'],
      [1, 'General', 'Retail Customer'],
      [2, 'Wholesale', 'Retail Customer'],
      [3, 'Retailer', 'Retail Customer'],
    ]);
  });

  it('answers a page past the end with the last page again, as Magento’s collections do', async () => {
    const found = await search<Group>('/rest/V1/customerGroups/search', {
      sort: [['id', 'ASC']],
      pageSize: 3,
      currentPage: 5,
    });
    expect(found.total_count).toBe(4);
    expect(found.items.map((g) => g.id)).toEqual([3]);
  });

  it('filters tax classes by type: the product classes only, by id', async () => {
    emulator.store.tax.create({ taxClass: { class_name: 'Books', class_type: 'PRODUCT' } });
    emulator.store.tax.create({ taxClass: { class_name: 'Trade', class_type: 'CUSTOMER' } });
    const found = await search<TaxClass>('/rest/V1/taxClasses/search', {
      groups: [[['class_type', 'PRODUCT', 'eq']]],
      sort: [['class_id', 'ASC']],
      pageSize: 300,
      currentPage: 1,
    });
    expect(found.total_count).toBe(2);
    expect(found.items).toEqual([
      { class_id: 2, class_name: 'Taxable Goods', class_type: 'PRODUCT' },
      { class_id: 4, class_name: 'Books', class_type: 'PRODUCT' },
    ]);
  });
});
