import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkRequest } from '@replatform/emulators/woocommerce/testing/spec';
import { checkWpRequest } from '@replatform/emulators/woocommerce/testing/wp-spec';
import { categoryDefaults } from '@replatform/canonical/defaults';
import type { Category } from '@replatform/canonical/category';
import {
  startWooCommerceEmulator,
  type RunningWooCommerceEmulator,
} from '@replatform/emulators/woocommerce/woocommerce-emulator';
import { MemoryIdMap } from '../kit/conformance/conformance-suite.ts';
import type { ConnectorHttpRequest, WriteChoices } from '../kit/contract.ts';
import { loopbackHttp } from '../kit/testing/loopback-http.ts';
import { markers } from './markers.ts';
import { blogPost, brand, customer, order, product, webPage } from './test-records.ts';
import type { WooCommerceConnection } from './woocommerce.ts';
import { wooCommerceConnector } from './woocommerce.ts';

/**
 * The owner's write choices (keepOrderNumbers, keepSlugs, notifyCustomers) against the emulator:
 * what is sent with and without each, and that a second write still finds what the first made.
 */

function checkAnyRequest(r: ConnectorHttpRequest): string[] {
  const path = new URL(r.url).pathname;
  if (path.startsWith('/wp-json/wp/v2')) return checkWpRequest(r);
  if (!path.startsWith('/wp-json') && r.method === 'GET') return [];
  return checkRequest(r);
}

const recordings: ConnectorHttpRequest[][] = [];
afterAll(() => {
  const problems = recordings
    .flat()
    .flatMap((r) => checkAnyRequest(r).map((p) => `${r.method} ${new URL(r.url).pathname}: ${p}`));
  expect(problems).toEqual([]);
});

let emu: RunningWooCommerceEmulator;
beforeEach(async () => {
  emu = await startWooCommerceEmulator({ seed: 'empty' });
});
afterEach(() => emu.close());

function connect(choices: Partial<WriteChoices>) {
  const http = loopbackHttp();
  recordings.push(http.requests);
  const connection = wooCommerceConnector.connect(
    {
      storeUrl: emu.url,
      consumerKey: emu.consumerKey,
      consumerSecret: emu.consumerSecret,
      wordpressUser: emu.wordpressUser,
      wordpressApplicationPassword: emu.wordpressApplicationPassword,
    },
    { http, choices },
  ) as WooCommerceConnection;
  return { connection, requests: http.requests };
}

/** The JSON bodies of the writes sent to a path (batch creates flattened). */
function sent(requests: ConnectorHttpRequest[], path: string): Record<string, unknown>[] {
  return requests
    .filter((r) => r.method !== 'GET' && new URL(r.url).pathname.endsWith(path))
    .flatMap((r) => {
      const body = JSON.parse(String(r.body ?? '{}')) as Record<string, unknown>;
      return path.endsWith('/batch')
        ? [
            ...((body.create as Record<string, unknown>[] | undefined) ?? []),
            ...((body.update as Record<string, unknown>[] | undefined) ?? []),
          ]
        : [body];
    });
}

const category = (id: string, name: string): Category => ({
  ...categoryDefaults(),
  id,
  name,
  slug: `source-${id}`,
  description: '',
  position: 0,
  parentId: null,
  sourceUrlPath: null,
});

describe('keepSlugs', () => {
  const records = {
    categories: [category('c1', 'Linen Shirts')],
    brands: [brand('b1', 'North Wind', { slug: 'source-north-wind' })],
    products: [
      product('p1', { name: 'Blue Shirt', slug: 'source-blue-shirt' }),
      // No SKU: found again by its name and marker, not by slug.
      product('p2', {
        name: 'Red Scarf',
        slug: 'source-red-scarf',
        sku: '',
        variants: product('p2').variants.map((v) => ({ ...v, sku: '' })),
      }),
    ],
    pages: [webPage('pg1', 'About Us', { slug: 'source-about' })],
    posts: [blogPost('po1', 'Summer News', { slug: 'source-summer' })],
  };
  type Kind = keyof typeof records;
  const kinds: Kind[] = ['categories', 'brands', 'products', 'pages', 'posts'];
  const paths: Record<Kind, string> = {
    categories: '/products/categories/batch',
    brands: '/products/brands/batch',
    products: '/products/batch',
    pages: '/wp/v2/pages',
    posts: '/wp/v2/posts',
  };

  async function writeAll(
    connection: WooCommerceConnection,
    idMap: MemoryIdMap,
  ): Promise<Record<Kind, string[]>> {
    const out = {} as Record<Kind, string[]>;
    for (const kind of kinds) {
      const outcomes = await connection.write(kind, records[kind] as never[], idMap);
      idMap.record(kind, outcomes);
      out[kind] = outcomes.map((o) => `${o.outcome}:${o.destinationId ?? ''}`);
    }
    return out;
  }

  it('kept (the default): each record is sent with the source slug and keeps it', async () => {
    const { connection, requests } = connect({});
    await writeAll(connection, new MemoryIdMap());
    for (const kind of kinds)
      for (const body of sent(requests, paths[kind])) expect(body.slug).toMatch(/^source-/);
    expect([...emu.store.products.values()].map((p) => p.slug).sort()).toEqual([
      'source-blue-shirt',
      'source-red-scarf',
    ]);
  });

  it('not kept: no slug is sent, the store makes each from the name, and a second run (with or without the id map) creates nothing', async () => {
    const { connection, requests } = connect({ keepSlugs: false });
    const idMap = new MemoryIdMap();
    const first = await writeAll(connection, idMap);
    for (const kind of kinds) {
      expect(first[kind].every((o) => o.startsWith('created:'))).toBe(true);
      const bodies = sent(requests, paths[kind]);
      expect(bodies.length).toBeGreaterThan(0);
      for (const body of bodies) expect(body).not.toHaveProperty('slug');
    }
    // What the store made of the names.
    expect([...emu.store.products.values()].map((p) => p.slug).sort()).toEqual([
      'blue-shirt',
      'red-scarf',
    ]);
    const read = async (kind: 'categories' | 'brands' | 'pages' | 'posts') => {
      const slugs: string[] = [];
      for await (const page of connection.read(kind, null))
        for (const r of page.records) slugs.push(r.slug);
      return slugs;
    };
    expect(await read('categories')).toEqual(['linen-shirts']);
    expect(await read('brands')).toEqual(['north-wind']);
    expect(await read('pages')).toContain('about-us');
    expect(await read('posts')).toContain('summer-news');
    const counts = emu.store.counts();

    // The same connection and id map: found by id, nothing new, nothing changed.
    const again = await writeAll(connection, idMap);
    for (const kind of kinds) expect(again[kind].every((o) => o.startsWith('skipped:'))).toBe(true);

    // A new connection without the id map (a run that crashed before saving it): found by SKU,
    // marker, name or title, never created twice.
    const fresh = connect({ keepSlugs: false }).connection;
    await fresh.prepareImport({ runId: 'again' });
    const third = await writeAll(fresh, new MemoryIdMap());
    for (const kind of kinds)
      for (const [i, o] of third[kind].entries())
        expect(o.split(':')[1], `${kind} ${i}`).toBe(first[kind][i]?.split(':')[1]);
    await fresh.finishImport({ runId: 'again' });
    expect(emu.store.counts()).toEqual(counts);
    expect([...emu.store.products.values()]).toHaveLength(2);
  });
});

describe('keepOrderNumbers', () => {
  async function writeOrder(choices: Partial<WriteChoices>, sourceId: string) {
    const { connection, requests } = connect(choices);
    const idMap = new MemoryIdMap();
    const source = order(sourceId, null, { number: '#1001', email: 'ann@example.org' });
    const [first] = await connection.write('orders', [source], idMap);
    idMap.record(
      'orders',
      [first].filter((x) => x !== undefined),
    );
    const [second] = await connection.write('orders', [source], idMap);
    // Without the id map (a run that crashed before saving it): found by its marker.
    const [third] = await connect(choices).connection.write('orders', [source], new MemoryIdMap());
    const bodies = sent(requests, '/orders/batch');
    const stored = emu.store.orders.get(Number(first?.destinationId));
    return { first, second, third, bodies, stored };
  }

  it('either way WooCommerce numbers the order itself and the source number stays in its meta; a second write finds it', async () => {
    const results = [];
    for (const keepOrderNumbers of [true, false]) {
      const r = await writeOrder({ keepOrderNumbers }, `o-${String(keepOrderNumbers)}`);
      expect(r.first?.outcome).toBe('created');
      expect(r.second?.outcome).toBe('skipped');
      expect(r.second?.destinationId).toBe(r.first?.destinationId);
      expect(r.third?.outcome).toBe('skipped');
      expect(r.third?.destinationId).toBe(r.first?.destinationId);
      for (const body of r.bodies) expect(body).not.toHaveProperty('number');
      const meta = r.stored?.meta.find((m) => m.key === markers.sourceNumber);
      expect(meta?.value).toBe('#1001');
      results.push(r.bodies[0]);
    }
    // The same request with either setting: WooCommerce has no order number to set.
    const [kept, notKept] = results.map((b) => {
      const { meta_data: meta, ...rest } = b as Record<string, unknown>;
      return {
        ...rest,
        meta_data: (meta as { key: string }[]).filter((m) => m.key !== markers.sourceId),
      };
    });
    expect(notKept).toEqual(kept);
  });
});

describe('notifyCustomers', () => {
  const write = async (connection: WooCommerceConnection) => {
    const idMap = new MemoryIdMap();
    const [c] = await connection.write('customers', [customer('c1', 'ann@example.org')], idMap);
    idMap.record(
      'customers',
      [c].filter((x) => x !== undefined),
    );
    const records = [
      order('2001', null, { customerId: 'c1', email: 'ann@example.org', status: 'completed' }),
    ];
    const [o] = await connection.write('orders', records, idMap);
    idMap.record(
      'orders',
      [o].filter((x) => x !== undefined),
    );
    return { idMap, records, outcomes: [c, o] };
  };

  it('off (the default): the e-mails are switched off around the import and none is sent', async () => {
    const { connection, requests } = connect({});
    const lines = await connection.prepareImport({ runId: 'm1' });
    expect(lines.join('\n')).toMatch(/Switched off the WooCommerce e-mail "New account"/);
    await write(connection);
    await connection.finishImport({ runId: 'm1' });
    expect(emu.store.outbox).toEqual([]);
    expect(
      requests.filter((r) => r.method === 'PUT' && r.url.includes('/settings/email_')).length,
    ).toBeGreaterThan(0);
    expect([...emu.store.emails.values()].every((s) => s.enabled === 'yes')).toBe(true);
  });

  it('on: nothing is switched off and WooCommerce sends its new-account and order e-mails, once', async () => {
    const note = emu.store.emails.get('customer_note');
    if (note) note.enabled = 'no';
    const { connection, requests } = connect({ notifyCustomers: true });
    const lines = await connection.prepareImport({ runId: 'm2' });
    expect(lines.join('\n')).toMatch(/left switched on, as chosen/);
    expect(lines.join('\n')).toMatch(/not sent: "Customer note"/);
    const { idMap, records } = await write(connection);
    await connection.finishImport({ runId: 'm2' });
    expect(requests.filter((r) => r.method === 'PUT' && r.url.includes('/settings/'))).toEqual([]);
    expect(emu.store.coupons.size).toBe(0);
    const sentMail = emu.store.outbox.map((m) => `${m.template} ${m.to}`).sort();
    expect(sentMail).toEqual([
      'customer_completed_order ann@example.org',
      'customer_new_account ann@example.org',
      'new_order admin@example.com',
    ]);
    // Written again: found, not created, so nothing is sent again.
    const [again] = await connection.write('orders', records, idMap);
    expect(again?.outcome).toBe('skipped');
    expect(emu.store.outbox).toHaveLength(3);
  });

  it('on, after an interrupted run that switched them off: they are switched back on first', async () => {
    const crashed = connect({}).connection;
    await crashed.prepareImport({ runId: 'm3' });
    expect(emu.store.emails.get('customer_new_account')?.enabled).toBe('no');
    const { connection } = connect({ notifyCustomers: true });
    const lines = await connection.prepareImport({ runId: 'm3' });
    expect(lines.join('\n')).toMatch(/back on/);
    expect([...emu.store.emails.values()].every((s) => s.enabled === 'yes')).toBe(true);
    expect(emu.store.coupons.size).toBe(0);
  });
});
