import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EngineProgress } from '@replatform/engine/migrate';
import { MigrationProgress } from './migration-progress.ts';

const escape = String.fromCharCode(27);
/** Terminal control sequences (cursor moves, line clears) taken out of what was written. */
const withoutControls = (text: string) =>
  text.replace(new RegExp(`${escape}\\[[0-9;?]*[A-Za-z]`, 'g'), '');

const progress = (
  stats: EngineProgress['stats'],
  phase: EngineProgress['phase'] = 'migrate',
): EngineProgress => ({ runId: 'r1', phase, entity: null, stats });

const stats = (total: number, migrated: number, failed = 0) => ({
  total,
  migrated,
  skipped: 0,
  failed,
});

describe('migration progress on the terminal', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('draws one bar per data type in place on a terminal', () => {
    let out = '';
    const bars = new MigrationProgress({
      write: (t: string) => (out += t),
      isTTY: true,
      columns: 120,
    });
    bars.message('WooCommerce "A" -> Shopify "B" (products, customers)');
    bars.update(progress({ products: stats(1500, 600), customers: stats(750, 0) }));
    bars.update(progress({ products: stats(1500, 1500, 3), customers: stats(750, 750) }));
    bars.done();
    const screen = withoutControls(out);
    expect(out.startsWith('WooCommerce "A" -> Shopify "B" (products, customers)\n')).toBe(true);
    expect(screen).toMatch(/products +█{24} 1,503\/1,503, 3 failed/);
    expect(screen).toMatch(/customers +█{24} 750\/750 /);
    // Redrawn with cursor movements, not a new line per update.
    expect(out).toContain(`${escape}[`);
  });

  it('prints the bars every few seconds, line by line, into a file or a pipe', () => {
    vi.useFakeTimers();
    let out = '';
    const bars = new MigrationProgress({ write: (t: string) => (out += t) });
    bars.update(progress({ products: stats(100, 25), orders: stats(40, 0) }));
    vi.advanceTimersByTime(5_000);
    expect(out).toMatch(/products +█{6}░{18} 25\/100 /);
    expect(out).toMatch(/orders +░{24} 0\/40 /);
    expect(out).not.toContain(escape);
    bars.update(progress({ products: stats(100, 100), orders: stats(40, 40) }, 'migrate'));
    bars.update(progress({}, 'verify'));
    bars.done();
    expect(out).toContain('verifying  comparing source and destination...\n');
    expect(out).toMatch(/products +█{24} 100\/100 /);
  });
});
