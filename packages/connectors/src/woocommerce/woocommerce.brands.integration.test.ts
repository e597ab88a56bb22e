import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Brand } from '@replatform/canonical/brand';
import { checkRequest } from '@replatform/emulators/woocommerce/testing/spec';
import {
  startWooCommerceEmulator,
  type RunningWooCommerceEmulator,
} from '@replatform/emulators/woocommerce/woocommerce-emulator';
import { MemoryIdMap, readAll } from '../kit/conformance/conformance-suite.ts';
import type { Connection, ConnectorHttp, ConnectorHttpRequest } from '../kit/contract.ts';
import { ConnectorError } from '../kit/errors.ts';
import { loopbackHttp } from '../kit/testing/loopback-http.ts';
import { brand, product } from './test-records.ts';
import { wooCommerceConnector } from './woocommerce.ts';

/** Product brands read from and written into the emulator (it starts servers on 127.0.0.1). */

const recordings: ConnectorHttpRequest[][] = [];
afterAll(() => {
  const problems = recordings
    .flat()
    .flatMap((r) => checkRequest(r).map((p) => `${r.method} ${new URL(r.url).pathname}: ${p}`));
  expect(problems).toEqual([]);
});

function connect(emu: RunningWooCommerceEmulator, http?: ConnectorHttp): Connection {
  const transport = http ?? loopbackHttp();
  if (!http) recordings.push((transport as ReturnType<typeof loopbackHttp>).requests);
  return wooCommerceConnector.connect(
    { storeUrl: emu.url, consumerKey: emu.consumerKey, consumerSecret: emu.consumerSecret },
    { http: transport },
  );
}

/** A transport that carries the first brands batch out and then loses its answer. */
function losingFirstAnswer(): { http: ConnectorHttp; lost: () => boolean } {
  const inner = loopbackHttp();
  recordings.push(inner.requests);
  let lost = false;
  return {
    lost: () => lost,
    http: {
      async request(request: ConnectorHttpRequest) {
        const answer = await inner.request(request);
        if (!lost && request.method === 'POST' && request.url.includes('/brands/batch')) {
          lost = true;
          throw new ConnectorError('transient', 'timeout', 'no answer in time');
        }
        return answer;
      },
    },
  };
}

describe('WooCommerce brands read from a seeded store', () => {
  const counts = { products: 12, customers: 1, orders: 1 };
  let emu: RunningWooCommerceEmulator;
  beforeAll(async () => {
    emu = await startWooCommerceEmulator({ seed: counts });
  });
  afterAll(async () => {
    await emu.close();
  });

  it('counts and reads every brand with its logo, description, order and page', async () => {
    const connection = connect(emu);
    expect(await connection.count('brands')).toBe(emu.store.counts().brands);
    const brands = await readAll(connection, 'brands');
    expect(brands.length).toBe(emu.store.counts().brands);
    const copper = brands.find((b) => b.name === 'Copper & Pine') as Brand;
    expect(copper).toMatchObject({
      slug: 'copper-pine',
      parentId: null,
      description: '<p>Handmade copper and pine pieces.</p>',
      imageAlt: 'Copper & Pine logo',
      sourceUrlPath: '/brand/copper-pine/',
    });
    expect(copper.imageUrl).toMatch(/\/media\/brands\/copper-pine\.png$/);
    const byId = await connection.readByIds?.('brands', [copper.id]);
    expect(byId).toEqual([copper]);
  });
});

describe('WooCommerce brand writes', () => {
  let source: RunningWooCommerceEmulator;
  let emu: RunningWooCommerceEmulator;
  let connection: Connection;
  let idMap: MemoryIdMap;
  let logo: string;
  beforeAll(async () => {
    source = await startWooCommerceEmulator({ seed: { products: 6, customers: 1, orders: 1 } });
    const sourceBrands = await readAll(connect(source), 'brands');
    logo = sourceBrands.find((b) => b.imageUrl)?.imageUrl as string;
  });
  afterAll(async () => {
    await source.close();
  });
  beforeEach(async () => {
    emu = await startWooCommerceEmulator({ seed: 'empty' });
    connection = connect(emu);
    idMap = new MemoryIdMap();
  });
  afterEach(async () => {
    await emu.close();
  });

  const stored = () => emu.store.termsOf('product_brand').sort((a, b) => a.id - b.id);
  const parent = () =>
    brand('1', 'Makers & Co', {
      description: '<p>Makers of <em>things</em>.</p>',
      displayType: 'subcategories',
      position: 2,
      imageUrl: logo,
      imageAlt: 'Makers logo',
      seoTitle: 'Makers | Shop',
    });
  const child = (overrides: Partial<Brand> = {}) =>
    brand('2', 'Little Makers', { parentId: '1', position: 1, ...overrides });

  /** Parents first, one level per write, as the engine writes them. */
  const writeTree = async (c: Connection, records: Brand[][]) => {
    const all = [];
    for (const level of records) {
      const outcomes = await c.write('brands', level, idMap);
      idMap.record('brands', outcomes);
      all.push(...outcomes);
    }
    return all;
  };

  it('creates a tree once with every field and its logo, skips it unchanged and updates what changed', async () => {
    const first = await writeTree(connection, [[parent()], [child()]]);
    expect(first.map((o) => o.outcome)).toEqual(['created', 'created']);
    expect(first[0]?.assets?.length).toBe(1);
    const [p, c] = stored();
    expect(p).toMatchObject({
      name: 'Makers &amp; Co',
      slug: 'makers-co',
      parent: 0,
      display: 'subcategories',
      menuOrder: 2,
    });
    expect(c).toMatchObject({ slug: 'little-makers', parent: p?.id, menuOrder: 1 });
    const back = await readAll(connection, 'brands');
    expect(back.find((b) => b.id === String(p?.id))).toMatchObject({
      name: 'Makers & Co',
      description: '<p>Makers of <em>things</em>.</p>',
      imageAlt: 'Makers logo',
      sourceUrlPath: '/brand/makers-co/',
    });
    expect(back.find((b) => b.id === String(c?.id))?.sourceUrlPath).toBe(
      '/brand/makers-co/little-makers/',
    );

    const again = connect(emu);
    const second = await writeTree(again, [[parent()], [child()]]);
    expect(second.map((o) => o.outcome)).toEqual(['skipped', 'skipped']);
    const third = await writeTree(again, [
      [parent()],
      [child({ description: '<p>Now described.</p>', displayType: 'both' })],
    ]);
    expect(third.map((o) => o.outcome)).toEqual(['skipped', 'updated']);
    expect(stored()[1]).toMatchObject({ description: 'Now described.', display: 'both' });
    expect(stored().length).toBe(2);
    expect(emu.store.counts().attachments).toBe(1);
  });

  it('finds the brands a batch whose answer was lost created, counts them created, and creates none twice', async () => {
    const { http, lost } = losingFirstAnswer();
    const lossy = connect(emu, http);
    const outcomes = await lossy.write(
      'brands',
      [brand('1', 'Alpha'), brand('2', 'Beta'), brand('3', 'Gamma')],
      idMap,
    );
    expect(lost()).toBe(true);
    expect(outcomes.map((o) => o.outcome)).toEqual(['created', 'created', 'created']);
    expect(outcomes.some((o) => o.linked)).toBe(false);
    expect(stored().length).toBe(3);
  });

  it('finds a brand again after a write that failed as a whole (the store went down), as this run’s, not linked', async () => {
    let down = false;
    let saved = false;
    const inner = loopbackHttp();
    recordings.push(inner.requests);
    const flaky = connect(emu, {
      async request(request: ConnectorHttpRequest) {
        if (down) throw new ConnectorError('transient', 'unavailable', 'the store is down');
        const answer = await inner.request(request);
        // The store saves the brand and goes down before it answers.
        if (!saved && request.url.includes('/brands/batch')) {
          saved = true;
          down = true;
          throw new ConnectorError('transient', 'unavailable', 'the store is down');
        }
        return answer;
      },
    });
    await expect(flaky.write('brands', [brand('1', 'Alpha')], idMap)).rejects.toThrow();
    expect(stored().length).toBe(1);
    down = false;
    const again = await flaky.write('brands', [brand('1', 'Alpha')], idMap);
    // Found by name, as the one this connection sent unanswered: counted as created by this run.
    expect(again[0]).toMatchObject({ outcome: 'created', destinationId: String(stored()[0]?.id) });
    expect(again[0]?.linked).toBeUndefined();
    expect(stored().length).toBe(1);
  });

  it("links the merchant's own brand of the same name (any case) and never changes it", async () => {
    const theirs = emu.store.insertTerm('product_brand', {
      name: 'makers & co',
      description: 'Their words.',
    });
    const outcomes = await writeTree(connection, [[parent()], [child()]]);
    expect(outcomes[0]).toMatchObject({
      outcome: 'skipped',
      linked: true,
      destinationId: String(theirs.id),
    });
    expect(outcomes[0]?.reason).toContain("the merchant's own");
    expect(outcomes[1]).toMatchObject({ outcome: 'created' });
    expect(stored()[0]).toMatchObject({ name: 'makers &amp; co', description: 'Their words.' });
    expect(stored()[1]?.parent).toBe(theirs.id);
    // A later connection leaves it alone too.
    const later = await connect(emu).write('brands', [parent()], new MemoryIdMap());
    expect(later[0]).toMatchObject({ outcome: 'skipped', linked: true });
    expect(stored()[0]?.description).toBe('Their words.');
  });

  it('fails a brand the store refuses with its reason, writes one whose logo it cannot fetch without it, and loses nothing else', async () => {
    const outcomes = await connection.write(
      'brands',
      [
        brand('1', '<i></i>', { slug: 'empty' }),
        brand('2', 'No Logo', { imageUrl: 'http://127.0.0.1:9/none.png', imageAlt: 'x' }),
        brand('3', 'Fine'),
      ],
      idMap,
    );
    expect(outcomes[0]).toMatchObject({ outcome: 'failed' });
    expect(outcomes[0]?.reason).toContain('empty_term_name');
    expect(outcomes[1]).toMatchObject({ outcome: 'created', incomplete: true });
    expect(outcomes[1]?.warnings?.[0]).toContain("The brand's logo could not be copied");
    expect(outcomes[2]).toMatchObject({ outcome: 'created' });
    expect(
      stored()
        .map((t) => t.name)
        .sort(),
    ).toEqual(['Fine', 'No Logo']);
  });

  it('gives products the migrated brand, found by name on the same connection and on another one', async () => {
    idMap.record('brands', await connection.write('brands', [parent()], idMap));
    const brandId = Number(idMap.get('brands', '1'));
    const products = await connection.write(
      'products',
      [product('p1', { vendor: 'Makers & Co' })],
      idMap,
    );
    expect(products[0]?.outcome).toBe('created');
    const other = await connect(emu).write(
      'products',
      [product('p2', { vendor: 'MAKERS & CO' })],
      idMap,
    );
    expect(other[0]?.outcome).toBe('created');
    for (const p of emu.store.products.values()) expect(p.brandIds).toEqual([brandId]);
    expect(stored().length).toBe(1);
  });
});
