import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateSampleStore } from '@replatform/emulators/framework/sample-store';
import { bigCommerceRequestBound } from './request-bound.ts';
import { serverEnvironment, serverNodeFlags } from './server-runtime.ts';

describe('benchmark bounds and runtime', () => {
  it('counts the fewest BigCommerce requests of an import, and says which', () => {
    const store = generateSampleStore({ seed: 2024, products: 2000, customers: 0, orders: 0 });
    const brands = new Set(store.products.map((p) => p.vendor)).size;
    const bound = bigCommerceRequestBound(store);
    const categories = store.categories.length;
    expect(bound.requests).toBe(
      2000 + // product creates
        2 + // tree levels (roots, then their children)
        brands +
        Math.ceil(categories / 50) +
        40 + // product markers, 50 per request
        5, // store settings, tree, brand list, two marker indexes
    );
    expect(bound.explanation).toContain('2000 for 2000 product creates');
    expect(bound.explanation).toContain(`${categories} categories in 2 tree levels`);

    const all = bigCommerceRequestBound(
      generateSampleStore({ seed: 1, products: 100, customers: 95, orders: 30 }),
    );
    expect(all.explanation).toContain('10 for 95 customers 10 per create');
    expect(all.explanation).toContain('30 for 30 order creates');
  });

  it('measures with the runtime settings the server and the CLI are started with', () => {
    const root = JSON.parse(
      readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'),
    ) as { scripts: Record<string, string> };
    const start = root.scripts.start ?? '';
    for (const flag of serverNodeFlags) expect(start).toContain(flag);
    for (const [name, value] of Object.entries(serverEnvironment))
      expect(start).toContain(`${name}=${value}`);
    // The CLI runs the same engine with the same settings.
    const launcher = readFileSync(new URL('../../cli/bin/replatform.mjs', import.meta.url), 'utf8');
    for (const flag of serverNodeFlags) expect(launcher).toContain(`'${flag}'`);
    for (const [name, value] of Object.entries(serverEnvironment))
      expect(launcher).toContain(`${name}: '${value}'`);
  });
});
