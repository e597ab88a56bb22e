// npm run load: several web servers and worker processes on PostgreSQL, many migrations at once
// between emulated BigCommerce stores (realistic latency, destinations on the Standard plan's
// published limit of 150 requests per 30 s), from many accounts, with workers killed at random.
// Prints migrations per hour, queue wait, API latency under that load, records per minute per
// destination against its limit, takeover time after each kill, and duplicates (must be 0).
//
// PostgreSQL: LOAD_DATABASE_URL (a server where a scratch database may be created), or a private
// cluster started from the machine's initdb/pg_ctl (Debian's postgresql package) and removed after.
//
// Options: --workers 4 --migrations 40 --accounts 10 --servers 2 --products 30 --customers 10
// --orders 8 --latency 100 --kills 3 --kill-every 25 --timeout 900
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { entityTypes, type EntityType } from '@replatform/canonical/entities';
import { openDatabase } from '@replatform/db/database';
import { MigrationsRepository } from '@replatform/db/migrations-repository';
import { startBenchStore, type BenchStore } from '@replatform/bench/bench-stores';
import { serverEnvironment, serverNodeFlags } from '@replatform/bench/server-runtime';
import { sealCredentials } from '@replatform/server/migrations/store-credentials';
import { CredentialVault } from '@replatform/server/security/credential-vault';

const { values } = parseArgs({
  options: {
    workers: { type: 'string', default: '4' },
    migrations: { type: 'string', default: '40' },
    accounts: { type: 'string', default: '10' },
    servers: { type: 'string', default: '2' },
    products: { type: 'string', default: '30' },
    customers: { type: 'string', default: '10' },
    orders: { type: 'string', default: '8' },
    latency: { type: 'string', default: '100' },
    kills: { type: 'string', default: '3' },
    'kill-every': { type: 'string', default: '25' },
    timeout: { type: 'string', default: '900' },
  },
});
const n = (name: keyof typeof values) => Number(values[name]);
const WORKERS = n('workers');
const MIGRATIONS = n('migrations');
const ACCOUNTS = n('accounts');
const SERVERS = n('servers');
const SOURCES = 4;
const root = fileURLToPath(new URL('..', import.meta.url));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const fmt = (x: number, digits = 0) =>
  x.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}
const ascending = (xs: number[]) => [...xs].sort((a, b) => a - b);

/** A private PostgreSQL cluster, run as the postgres user when this runs as root. */
function startPostgres(): { url: string; stop: () => void } {
  const bins = ['/usr/lib/postgresql']
    .filter(existsSync)
    .flatMap((d) => readdirSync(d).map((v) => join(d, v, 'bin')))
    .filter((d) => existsSync(join(d, 'initdb')))
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  const bin = bins.at(-1);
  if (!bin) throw new Error('No PostgreSQL found: install postgresql or set LOAD_DATABASE_URL.');
  const dir = mkdtempSync(join(tmpdir(), 'replatform-load-pg-'));
  const port = 57000 + Math.floor(Math.random() * 2000);
  const asRoot = process.getuid?.() === 0;
  if (asRoot) chownSync(dir, Number(spawnSync('id', ['-u', 'postgres']).stdout), 0);
  const run = (args: string[]) => {
    const quoted = args.map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ');
    const result = asRoot
      ? spawnSync('su', ['postgres', '-s', '/bin/sh', '-c', quoted], { encoding: 'utf8' })
      : spawnSync(args[0]!, args.slice(1), { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`${args[0]} failed: ${result.stderr}`);
  };
  run([join(bin, 'initdb'), '-D', join(dir, 'data'), '-A', 'trust', '-U', 'postgres']);
  run([
    join(bin, 'pg_ctl'),
    '-D',
    join(dir, 'data'),
    '-l',
    join(dir, 'log'),
    '-o',
    `-h 127.0.0.1 -p ${port} -k ${dir} -c max_connections=300 -c fsync=on`,
    '-w',
    'start',
  ]);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: () => {
      run([join(bin, 'pg_ctl'), '-D', join(dir, 'data'), '-m', 'fast', 'stop']);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** What to undo if the run stops half-way: processes started and the private cluster. */
const undo: (() => void)[] = [];

/** Still running: a process killed by a signal keeps a null exit code. */
const running = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

interface Proc {
  child: ChildProcess;
  kind: 'server' | 'worker';
  url?: string;
  output: string;
}

async function main(): Promise<void> {
  const began = Date.now();
  const cluster = process.env.LOAD_DATABASE_URL ? undefined : startPostgres();
  if (cluster) undo.push(cluster.stop);
  const adminUrl = process.env.LOAD_DATABASE_URL ?? cluster!.url;
  const dbName = `replatform_load_${Date.now()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  await admin.end();
  const databaseUrl = new URL(adminUrl);
  databaseUrl.pathname = `/${dbName}`;
  console.log(
    `PostgreSQL: ${cluster ? 'a private cluster' : 'LOAD_DATABASE_URL'}, database ${dbName}`,
  );

  const sample = { products: n('products'), customers: n('customers'), orders: n('orders') };
  const latencyMs = n('latency');
  const sources: BenchStore[] = [];
  for (let i = 0; i < SOURCES; i++)
    sources.push(
      await startBenchStore('bigcommerce', { seed: { seed: 100 + i, ...sample }, latencyMs }),
    );
  const destinations: BenchStore[] = [];
  for (let i = 0; i < MIGRATIONS; i++)
    destinations.push(
      await startBenchStore('bigcommerce', { seed: 'empty', latencyMs, limited: true }),
    );
  const stores = [...sources, ...destinations];
  console.log(
    `Stores: ${SOURCES} BigCommerce sources (${sample.products} products, ${sample.customers} customers, ${sample.orders} orders each) and ${MIGRATIONS} empty BigCommerce destinations on the Standard plan (150 requests per 30 s each), ${latencyMs} ms per request`,
  );

  const encryptionKey = randomBytes(32);
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    ...serverEnvironment,
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl.toString(),
    ENCRYPTION_KEY: encryptionKey.toString('base64'),
    AUTH_SECRET: randomBytes(32).toString('hex'),
    SANDBOX_STORES: 'false',
    EMULATED_STORES: stores
      .map((s) => `bigcommerce:${s.address.credentials.storeHash}=${s.address.origin}`)
      .join(','),
  };
  const procs: Proc[] = [];
  const node = (script: string, extra: Record<string, string>, kind: Proc['kind']): Proc => {
    const child = spawn(
      process.execPath,
      [...serverNodeFlags, '--disable-warning=ExperimentalWarning', join(root, script)],
      { env: { ...env, ...extra }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const proc: Proc = { child, kind, output: '' };
    undo.unshift(() => running(child) && child.kill('SIGKILL'));
    const keep = (chunk: Buffer) => (proc.output = (proc.output + chunk.toString()).slice(-4000));
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    procs.push(proc);
    return proc;
  };
  const servers: Proc[] = [];
  for (let i = 0; i < SERVERS; i++) {
    const port = 47000 + Math.floor(Math.random() * 1000) + i * 1000;
    const url = `http://127.0.0.1:${port}`;
    const server = node(
      'apps/server/src/main.ts',
      { PORT: String(port), PUBLIC_URL: url, WORKERS: '0' },
      'server',
    );
    server.url = url;
    servers.push(server);
    // The first one applies the schema migrations before the others start.
    const until = Date.now() + 120_000;
    for (;;) {
      const ok = await fetch(`${url}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (Date.now() > until || server.child.exitCode !== null)
        throw new Error(`server ${url} did not start: ${server.output}`);
      await sleep(250);
    }
  }
  // Headroom: the workers left after a kill can hold every migration, as operators would size them.
  const perWorker = Math.ceil(MIGRATIONS / Math.max(1, WORKERS - 1));
  const startWorker = () =>
    node('apps/server/src/worker.ts', { WORKERS: String(perWorker), LOG_LEVEL: 'info' }, 'worker');
  const workersUp = Array.from({ length: WORKERS }, () => startWorker());
  // Ready when each has said it runs migrations (its queue is polled from then on).
  const until = Date.now() + 120_000;
  while (!workersUp.every((w) => w.output.includes('Replatform worker is running migrations'))) {
    if (Date.now() > until || workersUp.some((w) => w.child.exitCode !== null))
      throw new Error(`a worker did not start: ${workersUp.map((w) => w.output).join('\n')}`);
    await sleep(250);
  }
  console.log(
    `Processes: ${SERVERS} web servers (WORKERS=0) and ${WORKERS} workers (npm run worker, WORKERS=${perWorker}) on one database`,
  );

  // Accounts sign up through the API; their migrations are prepared in the database as the
  // Connect, Select Data and Payment steps would leave them, then started through the API.
  const api = servers.map((s) => s.url!);
  const cookies: string[] = [];
  for (let i = 0; i < ACCOUNTS; i++) {
    const res = await fetch(`${api[0]}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: api[0]! },
      body: JSON.stringify({
        email: `load-${i}@example.com`,
        password: 'correct horse battery staple',
        name: `Load ${i}`,
      }),
    });
    if (!res.ok) throw new Error(`sign-up answered ${res.status}: ${await res.text()}`);
    cookies.push(
      res.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .join('; '),
    );
  }
  const db = openDatabase({ databaseUrl: databaseUrl.toString(), sqlitePath: '' });
  const users = await db.kysely.selectFrom('users').select(['id', 'email']).execute();
  const userOf = (i: number) => users.find((u) => u.email === `load-${i}@example.com`)!.id;
  const migrations = new MigrationsRepository(db);
  const vault = new CredentialVault(encryptionKey);
  const ids: string[] = [];
  const owner = new Map<string, number>();
  for (let i = 0; i < MIGRATIONS; i++) {
    const account = i % ACCOUNTS;
    const userId = userOf(account);
    const source = sources[i % SOURCES]!;
    const destination = destinations[i]!;
    const m = await migrations.create({ userId, email: '', storeName: `Load store ${i + 1}` });
    const seal = (side: 'source' | 'destination', store: BenchStore) =>
      sealCredentials(vault, m.id, side, {
        platform: 'bigcommerce',
        secrets: store.address.credentials,
      });
    const records = sample.products + sample.customers + sample.orders;
    await migrations.update(m.id, userId, {
      sourceStore: 'bigcommerce',
      destinationStore: 'bigcommerce',
      sourceStoreUrl: source.address.origin,
      destinationStoreUrl: destination.address.origin,
      sourceCredentials: seal('source', source),
      destinationCredentials: seal('destination', destination),
      sourceVerified: true,
      destinationVerified: true,
      dataTypes: { products: true, customers: true, orders: true },
      entityCounts: sample,
      totalEntities: records,
      paymentInfo: {
        paymentStatus: 'paid',
        amount: 9900,
        currency: 'usd',
        paymentDate: new Date().toISOString(),
        paidRecords: records,
      },
      currentStep: 3,
    });
    ids.push(m.id);
    owner.set(m.id, account);
  }

  // API load: every account polls its migrations' progress as the Migrate step does (every 5 s),
  // and lists its migrations, alternating between servers.
  const apiTimes: number[] = [];
  const apiErrors: string[] = [];
  let polling = true;
  const timed = async (url: string, init: RequestInit) => {
    const t0 = performance.now();
    const res = await fetch(url, init);
    await res.arrayBuffer();
    apiTimes.push(performance.now() - t0);
    if (!res.ok) apiErrors.push(`${res.status} ${url}`);
    return res;
  };
  const pollers = Array.from({ length: ACCOUNTS }, async (_, account) => {
    let k = 0;
    while (polling) {
      const mine = ids.filter((id) => owner.get(id) === account);
      const base = api[k++ % api.length]!;
      const headers = { cookie: cookies[account]! };
      await Promise.all([
        ...mine.map((id) => timed(`${base}/migration-progress?migrationId=${id}`, { headers })),
        timed(`${base}/get-migrations`, { headers }),
      ]).catch((error: unknown) => apiErrors.push(String(error)));
      await sleep(5000);
    }
  });

  const startedAt = new Map<string, number>();
  const firstRunning = new Map<string, number>();
  const doneAt = new Map<string, number>();
  let startsSent = false;
  const runStarted = Date.now();
  // Watch the jobs; kill a random worker holding jobs every few seconds and start another.
  const kills: { at: number; pid: number; jobs: string[]; takenOverAt: Map<string, number> }[] = [];
  let lastKill = Date.now();
  const deadline = Date.now() + n('timeout') * 1000;
  const pidOf = (holder: string | null) => Number(holder?.split(':')[1] ?? NaN);
  const watch = async () => {
    for (;;) {
      const jobs = await db.kysely
        .selectFrom('engine_jobs')
        .select(['migration_id', 'state', 'lease_owner'])
        .where('migration_id', 'in', ids)
        .execute();
      const now = Date.now();
      for (const job of jobs) {
        if (job.state === 'running' && job.lease_owner && !firstRunning.has(job.migration_id))
          firstRunning.set(job.migration_id, now);
        if (job.state === 'done' && !doneAt.has(job.migration_id))
          doneAt.set(job.migration_id, now);
        for (const kill of kills) {
          if (!kill.jobs.includes(job.migration_id) || kill.takenOverAt.has(job.migration_id))
            continue;
          if (job.lease_owner && pidOf(job.lease_owner) !== kill.pid)
            kill.takenOverAt.set(job.migration_id, now);
          else if (job.state === 'done') kill.takenOverAt.set(job.migration_id, now);
        }
      }
      if (
        startsSent &&
        jobs.length === ids.length &&
        jobs.every((j) => j.state === 'done' || j.state === 'failed')
      )
        break;
      if (now > deadline) throw new Error('the migrations did not finish in time');
      if (kills.length < n('kills') && now - lastKill > n('kill-every') * 1000) {
        const live = procs.filter((p) => p.kind === 'worker' && running(p.child));
        const holding = live
          .map((p) => ({
            p,
            jobs: jobs
              .filter((j) => j.state === 'running' && pidOf(j.lease_owner) === p.child.pid)
              .map((j) => j.migration_id),
          }))
          .filter((h) => h.jobs.length > 0);
        const victim = holding[Math.floor(Math.random() * holding.length)];
        if (victim) {
          victim.p.child.kill('SIGKILL');
          kills.push({
            at: Date.now(),
            pid: victim.p.child.pid!,
            jobs: victim.jobs,
            takenOverAt: new Map(),
          });
          lastKill = Date.now();
          console.log(
            `  ${((Date.now() - runStarted) / 1000).toFixed(0)} s: SIGKILL worker ${victim.p.child.pid} holding ${victim.jobs.length} migrations; another worker started`,
          );
          startWorker();
        }
      }
      await sleep(250);
    }
  };
  // The jobs are watched from before the first start, so no wait is counted late.
  const watching = watch();
  // All started at once, through the API of either server.
  await Promise.all(
    ids.map(async (id, i) => {
      const account = owner.get(id)!;
      startedAt.set(id, Date.now());
      const res = await timed(`${api[i % api.length]}/api/migrations/${id}/start`, {
        method: 'POST',
        headers: { cookie: cookies[account]!, origin: api[i % api.length]! },
      });
      if (!res.ok) throw new Error(`start answered ${res.status}`);
    }),
  );
  startsSent = true;
  console.log(`${MIGRATIONS} migrations started from ${ACCOUNTS} accounts`);
  await watching;

  const runEnded = Date.now();
  polling = false;
  await Promise.all(pollers);

  // Figures.
  const failed = (
    await db.kysely
      .selectFrom('engine_jobs')
      .select(['migration_id', 'last_error'])
      .where('migration_id', 'in', ids)
      .where('state', '=', 'failed')
      .execute()
  ).map((j) => `${j.migration_id}: ${j.last_error}`);
  let duplicates = 0;
  let missing = 0;
  const perMinute: number[] = [];
  const usedShare: number[] = [];
  let refused = 0;
  const counted: EntityType[] = entityTypes.filter((e) => e !== 'categories');
  for (const [i, id] of ids.entries()) {
    const source = sources[i % SOURCES]!;
    const destination = destinations[i]!;
    for (const entity of entityTypes) {
      const diff = destination.countStored(entity) - source.countStored(entity);
      if (diff > 0) duplicates += diff;
      else missing -= diff;
    }
    const records = counted.reduce((sum, e) => sum + destination.countStored(e), 0);
    const from = firstRunning.get(id) ?? startedAt.get(id)!;
    const minutes = ((doneAt.get(id) ?? runEnded) - from) / 60_000;
    perMinute.push(records / minutes);
    const use = destination.limitUse();
    if (use) {
      refused += use.refused;
      const seconds = ((doneAt.get(id) ?? runEnded) - from) / 1000;
      usedShare.push(use.used / seconds / use.perSecond);
    }
  }
  const waits = ascending(ids.map((id) => (firstRunning.get(id) ?? runEnded) - startedAt.get(id)!));
  const api99 = ascending(apiTimes);
  const takeovers = ascending(
    kills.flatMap((k) => [...k.takenOverAt.values()].map((t) => t - k.at)),
  );
  const hours = (runEnded - runStarted) / 3_600_000;
  const bound = destinations[0]!.limitUse();
  console.log(`
Load figures (${WORKERS} workers, ${SERVERS} web servers, ${MIGRATIONS} migrations at once, ${ACCOUNTS} accounts):
  all migrations finished in ${fmt((runEnded - runStarted) / 1000, 1)} s: ${fmt(MIGRATIONS / hours)} migrations per hour (${doneAt.size} completed, ${failed.length} failed)
  queue wait (start to first worker): p50 ${fmt(percentile(waits, 50) / 1000, 2)} s, p99 ${fmt(percentile(waits, 99) / 1000, 2)} s
  API under load (${fmt(apiTimes.length)} requests: progress polls, lists, starts): p50 ${fmt(percentile(api99, 50), 1)} ms, p99 ${fmt(percentile(api99, 99), 1)} ms, ${apiErrors.length} errors
  records per minute per destination: p50 ${fmt(percentile(ascending(perMinute), 50))}, min ${fmt(Math.min(...perMinute))}, max ${fmt(Math.max(...perMinute))}
  destination rate limit (${bound?.quota ?? 150} requests per ${(bound?.windowMs ?? 30000) / 1000} s = ${fmt(bound?.perSecond ?? 5, 1)}/s each): used p50 ${fmt(percentile(ascending(usedShare), 50) * 100, 1)} %, max ${fmt(Math.max(...usedShare) * 100, 1)} % of the bound over each run; ${refused} requests refused (429)
  workers killed with SIGKILL: ${kills.length}; takeover of their ${takeovers.length} migrations: p50 ${fmt(percentile(takeovers, 50) / 1000, 1)} s, max ${fmt((takeovers.at(-1) ?? NaN) / 1000, 1)} s
  duplicates at the destinations: ${duplicates}; records missing: ${missing}
  (whole run with set-up: ${fmt((Date.now() - began) / 1000)} s)`);
  if (failed.length) console.log(`  failed:\n    ${failed.join('\n    ')}`);
  if (apiErrors.length) console.log(`  API errors (first 5): ${apiErrors.slice(0, 5).join('; ')}`);

  await db.close();
  for (const p of procs) if (running(p.child)) p.child.kill('SIGTERM');
  await Promise.all(
    procs.map((p) => (running(p.child) ? new Promise((r) => p.child.once('exit', r)) : undefined)),
  );
  for (const store of stores) await store.close();
  const cleanup = new pg.Client({ connectionString: adminUrl });
  await cleanup.connect();
  await cleanup.query(`DROP DATABASE ${dbName}`);
  await cleanup.end();
  undo.length = 0;
  cluster?.stop();
  if (duplicates || missing || failed.length || doneAt.size < MIGRATIONS) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  for (const step of undo) {
    try {
      step();
    } catch {
      // Best effort: the rest is still undone.
    }
  }
  process.exit(1);
});
