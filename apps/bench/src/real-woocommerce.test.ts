import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { countRequests, loadKitStore, logLines, logOffset } from './real-woocommerce.ts';
import { realWooCommerce } from './real-woocommerce-scenario.ts';

const line = (request: string, status: number) =>
  `127.0.0.1 - ck_1 [26/Nov/2026:23:02:03 +0000] "${request} HTTP/1.1" ${status} 362 "Replatform" 8680 rt=0.158`;

describe('real WooCommerce figures from the access log', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it('counts requests by method and status, writes, and per-record lookups', () => {
    const counts = countRequests([
      line('POST /wp-json/wc/v3/products/batch', 200),
      line('POST /wp-json/wc/v3/customers/batch', 499),
      line('GET /wp-json/wc/v3/customers?email=a%40example.com', 200),
      line('GET /wp-json/wc/v3/products?per_page=100&sku=BENCH-S-0001', 200),
      line('GET /wp-json/wc/v3/products/categories?slug=mugs', 200),
      line('GET /wp-json/wc/v3/products/categories?slug=uncategorized&per_page=1', 200),
      line('GET /wp-json/wc/v3/customers?search=bench', 200),
      line('GET /wp-json/wc/v3/products?per_page=100&page=2', 200),
      line('GET /wp-json/wc/v3/products?per_page=100&sku=BENCH-V-026%2CBENCH-V-027', 200),
      line('PUT /wp-json/wc/v3/products/12', 200),
      line('DELETE /wp-json/wc/v3/products/12', 200),
      '127.0.0.1 - - [26/Nov/2026:23:22:03 +0000] "POST /wp-cron.php?doing_wp_cron=1 HTTP/1.1" 200 5 "WordPress/7.1; https://127.0.0.1:8681" 8681 rt=0.000',
      'a line of another format',
    ]);
    expect(counts.total).toBe(11);
    expect(counts.byMethod).toEqual({ POST: 2, GET: 7, PUT: 1, DELETE: 1 });
    expect(counts.byStatus).toEqual({ '200': 10, '499': 1 });
    expect(counts.writes).toBe(4);
    expect(counts.lookups).toBe(5);
    expect(counts.singleLookups).toBe(4);
    expect(counts.storeLookups).toBe(1);
    expect(counts.ownRequests).toBe(1);
  });

  it('reads only what a phase appended to the log', () => {
    dir = mkdtempSync(join(tmpdir(), 'bench-log-'));
    mkdirs(dir);
    writeFileSync(
      join(dir, 'store.json'),
      JSON.stringify({
        name: 'dst',
        url_https: 'https://127.0.0.1:8681/',
        url_http: 'http://127.0.0.1:8281',
        consumer_key: 'ck_1',
        consumer_secret: 'cs_1',
        ca_cert: join(dir, 'ca.pem'),
        db_socket: join(dir, 'run', 'mysqld.sock'),
        db_name: 'woo_dst',
        sample_data: false,
        dir,
      }),
    );
    writeFileSync(join(dir, 'ca.pem'), 'certificate');
    const store = loadKitStore(join(dir, 'store.json'));
    expect(store.url).toBe('https://127.0.0.1:8681');
    expect(store.httpsPort).toBe(8681);
    writeFileSync(store.accessLog, `${line('GET /before', 200)}\n`);
    const from = logOffset(store);
    appendFileSync(store.accessLog, `${line('POST /during', 201)}\n`);
    expect(countRequests(logLines(store, from)).byMethod).toEqual({ POST: 1 });
  });

  it('skips scenario (c), and says how to set it up, when no stores are configured', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      expect(await realWooCommerce({ outage: true }, {})).toBe(true);
      expect(log.mock.calls.flat().join('\n')).toMatch(
        /skipped \(set BENCH_WOO_SOURCE and BENCH_WOO_DESTINATION/,
      );
    } finally {
      log.mockRestore();
    }
  });
});

function mkdirs(dir: string): void {
  for (const sub of ['logs', 'run']) mkdirSync(join(dir, sub), { recursive: true });
}
