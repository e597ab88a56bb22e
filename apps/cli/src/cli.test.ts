import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Connector } from '@replatform/connectors/kit/contract';
import { MemoryStore, memoryConnector, sampleData } from '@replatform/engine/testing/memory-store';
import { runCli } from './cli.ts';

const SOURCE = 'https://source.example.com';
const DESTINATION = 'https://destination.example.com';

/** The CLI over memory stores (WooCommerce-shaped credentials), with its output captured. */
describe('replatform CLI commands', () => {
  let dir: string;
  let source: MemoryStore;
  let destination: MemoryStore;
  let registry: { woocommerce: Connector<unknown> };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'replatform-cli-'));
    source = MemoryStore.seeded(sampleData({ products: 9, customers: 4, orders: 5 }));
    destination = new MemoryStore();
    registry = {
      woocommerce: memoryConnector(
        { [SOURCE]: source, [DESTINATION]: destination },
        {
          importNotes: {
            prepare: ['Customer e-mails switched off for the import.'],
            finish: ['Customer e-mails restored.'],
          },
          rateUsage: () => ({
            unit: 'requests',
            usedPerSecond: 2,
            availablePerSecond: 4,
            throttled: 1,
          }),
        },
      ) as Connector<unknown>,
    };
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
    let out = '';
    let err = '';
    const code = await runCli(args, {
      registry,
      env: {
        REPLATFORM_FROM_CONSUMER_KEY: 'ck',
        REPLATFORM_FROM_CONSUMER_SECRET: 'secret',
        REPLATFORM_TO_CONSUMER_KEY: 'ck',
        REPLATFORM_TO_CONSUMER_SECRET: 'secret',
      },
      stdout: { write: (text: string) => (out += text) },
      stderr: { write: (text: string) => (err += text) },
      cwd: dir,
    });
    return { code, out, err };
  }
  const stores = ['--from', 'woocommerce', '--from-url', SOURCE, '--to', 'woocommerce'];
  const both = [...stores, '--to-url', DESTINATION, '--state', 'state.sqlite'];

  it('count: records per data type on each side, never the credentials', async () => {
    const { code, out } = await cli('count', ...stores, '--to-url', DESTINATION);
    expect(code).toBe(0);
    expect(out).toBe(
      [
        'source: WooCommerce "Memory store"',
        '  categories 6',
        '  products   9',
        '  customers  4',
        '  orders     5',
        '  coupons    0',
        '  reviews    0',
        '  brands     0',
        '  records    18 (products + customers + orders + coupons + reviews + brands)',
        'destination: WooCommerce "Memory store"',
        '  categories 0',
        '  products   0',
        '  customers  0',
        '  orders     0',
        '  coupons    0',
        '  reviews    0',
        '  brands     0',
        '  records    0 (products + customers + orders + coupons + reviews + brands)',
        '',
      ].join('\n'),
    );
    expect(out).not.toContain('secret');

    const some = await cli(
      'count',
      '--from',
      'woocommerce',
      '--from-url',
      SOURCE,
      '--entities',
      'orders',
    );
    expect(some.out).toContain('  orders     5');
    expect(some.out).not.toContain('  products');
    expect(some.out).toContain('  records    5 (orders)');
  });

  it('count: refuses unknown data types and wrong credentials with a clear message', async () => {
    const bad = await cli(
      'count',
      '--from',
      'woocommerce',
      '--from-url',
      SOURCE,
      '--entities',
      'pets',
    );
    expect(bad.code).toBe(64);
    expect(bad.err).toMatch(/--entities takes products, customers, orders/);
    const refused = await runCli(['count', '--from', 'woocommerce', '--from-url', SOURCE], {
      registry,
      env: { REPLATFORM_FROM_CONSUMER_KEY: 'ck', REPLATFORM_FROM_CONSUMER_SECRET: 'wrong' },
      stdout: { write: () => true },
      stderr: { write: () => true },
      cwd: dir,
    });
    expect(refused).toBe(1);
  });

  it('migrate prints what the destination did and the rate-limit use; verify compares again', async () => {
    const migrated = await cli('migrate', ...both, '--report', 'report.csv', '--quiet');
    expect(migrated.code, migrated.err).toBe(0);
    expect(migrated.out).toContain('products   9 migrated, 0 skipped, 0 failed (of 9)');
    expect(migrated.out).toContain('Destination: Customer e-mails switched off for the import.');
    expect(migrated.out).toContain('Destination: Customer e-mails restored.');
    expect(migrated.out).toContain(
      'Rate limit (destination): 2.0 of 4.0 requests/s used (50 %), 1 throttled',
    );
    expect(migrated.out).toContain('Rate limit (source): 2.0 of 4.0 requests/s used (50 %)');
    expect(migrated.out).toMatch(/Verification: passed — 24 matched, 0 different, 0 missing/);
    const report = readFileSync(join(dir, 'report.csv'), 'utf8');
    expect(report.split('\r\n')[0]).toBe(
      'type,source_id,destination_id,outcome,reason,not_carried',
    );
    expect(report.split('\r\n')[1]).toBe(
      'import,,,note,Customer e-mails switched off for the import.,',
    );

    const verified = await cli('verify', ...both);
    expect(verified.code).toBe(0);
    expect(verified.out).toMatch(/^Verification: passed — 24 matched, 0 different, 0 missing\n$/);

    // Someone edits a product at the destination and deletes a customer there.
    const [productId, product] = [...destination.records.products.entries()][0]!;
    destination.records.products.set(productId, { ...product, name: 'Edited by hand' });
    const [customerId] = [...destination.records.customers.keys()];
    destination.records.customers.delete(customerId!);
    const differs = await cli('verify', ...both);
    expect(differs.code).toBe(2);
    expect(differs.out).toContain(
      'Verification: differences found — 22 matched, 1 different, 1 missing',
    );
    expect(differs.out).toMatch(/ {2}products \d+ -> d\d+: differs in name\n/);
    expect(differs.out).toMatch(/ {2}customers \d+: Not found at the destination\.\n/);
  });

  it('verify: refuses a state file that holds no migration of these stores', async () => {
    const { code, err } = await cli('verify', ...both);
    expect(code).toBe(64);
    expect(err).toMatch(/holds no migration between these stores; run migrate first/);
  });
});
