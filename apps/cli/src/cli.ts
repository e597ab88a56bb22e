import { createWriteStream } from 'node:fs';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { EntityType } from '@replatform/canonical/entities';
import type { Connector } from '@replatform/connectors/kit/contract';
import { createHttpClient, type HttpClient } from '@replatform/connectors/kit/http/http-client';
import {
  platformLabels,
  unsupportedDataTypes,
  unwritableDataTypes,
  wordpressContentTypes,
  type Platform,
} from '@replatform/contracts/migration';
import { migrateToLatest, openDatabase, type Db } from '@replatform/db/database';
import { EngineJobsRepository } from '@replatform/db/engine-jobs-repository';
import { EngineRepository, type LeaseFence } from '@replatform/db/engine-repository';
import { MigrationsRepository, type StoredMigration } from '@replatform/db/migrations-repository';
import { executeMigration, type ExecuteResult } from '@replatform/engine/execute';
import { describeRateUsage, type StoreSide } from '@replatform/engine/migrate';
import { paidEntityTypes, planMigration } from '@replatform/engine/plan';
import { reportCsv } from '@replatform/engine/report';
import { defaultRetryPolicy } from '@replatform/engine/retry';
import { verifyMigration, type VerificationResult } from '@replatform/engine/verification';
import {
  UsageError,
  displayAddress,
  flag,
  parseArgs,
  platformFlag,
  sideCredentials,
  type ParsedArgs,
} from './args.ts';
import { MigrationProgress, type ProgressOutput } from './migration-progress.ts';

/** A connector, or how to load it (so a run loads only the two platforms it uses). */
export type ConnectorEntry = Connector<unknown> | (() => Promise<Connector<unknown>>);

export interface CliDeps {
  registry: Partial<Record<Platform, ConnectorEntry>>;
  env: Record<string, string | undefined>;
  stdout: ProgressOutput;
  stderr: ProgressOutput;
  cwd: string;
  /** Aborted on Ctrl-C: the run stops at a batch boundary and can be continued. */
  signal?: AbortSignal;
}

/** Local state (id map, checkpoints, outcomes) lives under this user id in the state file. */
const CLI_USER = 'cli';

export const usage = `replatform — move products, customers, orders, coupons, reviews, brands, pages and blog
posts between store platforms

Usage:
  replatform migrate --from <platform> --from-url <url> [--from-<field> <value>...]
                     --to <platform> --to-url <url> [--to-<field> <value>...]
                     [--entities products,customers,orders,coupons,reviews,brands,pages,posts] [--report report.csv]
                     [--state ./replatform-cli.sqlite] [--allow <origin>...] [--allow-http]
                     [--concurrency <n>] [--batch-size <n>] [--timeout <seconds>]
                     [--no-verify] [--quiet]
  replatform verify  (the same store flags and --state): compare source and destination again
  replatform count   --from <platform> --from-url <url> ... [--to ...]: records per data type
  replatform report  --report <file.csv> [--state ...] [store flags]: write the per-record report

Platforms: woocommerce, magento2, shopify, bigcommerce.
Credentials: --from-consumer-key, --from-consumer-secret, --from-access-token,
  --from-access-token-secret (and --to-…), or environment variables such as
  REPLATFORM_FROM_CONSUMER_SECRET and REPLATFORM_TO_ACCESS_TOKEN. They are never printed.
--allow <origin> admits a store on a private or loopback address (e.g. a local test store).
--batch-size <n> writes at most n records per batch (default: the destination's maximum).
Running migrate again with the same --state continues where it stopped and creates no
duplicates; records unchanged since the last run are skipped.`;

interface Side {
  platform: Platform;
  connector: Connector<unknown>;
  credentials: unknown;
  address: string;
}

async function sideOf(parsed: ParsedArgs, which: 'from' | 'to', deps: CliDeps): Promise<Side> {
  const platform = platformFlag(parsed, which);
  const entry = deps.registry[platform];
  const connector = typeof entry === 'function' ? await entry() : entry;
  if (!connector) {
    throw new UsageError(
      `The ${platformLabels[platform]} connector is not available in this build.`,
    );
  }
  const raw = sideCredentials(parsed, which, platform, deps.env);
  const checked = connector.credentialsSchema.safeParse(raw);
  if (!checked.success) {
    const problems = checked.error.issues
      .map(
        (i) =>
          `  --${which}-${i.path.join('.').replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`) || 'credentials'}: ${i.message}`,
      )
      .join('\n');
    throw new UsageError(
      `The ${which === 'from' ? 'source' : 'destination'} store's details are not valid:\n${problems}`,
    );
  }
  return { platform, connector, credentials: checked.data, address: displayAddress(raw, platform) };
}

/**
 * The data types asked for with --entities; without it, every type both platforms can carry
 * (reviews are left out where Magento is one of the stores, brands where Shopify is the
 * destination, pages and posts where a WooCommerce store is given no WordPress application
 * password). `sides` is the source, then the destination when there is one.
 */
function entitiesOf(parsed: ParsedArgs, sides: Pick<Side, 'platform' | 'credentials'>[]): string[] {
  const platforms = sides.map((s) => s.platform);
  const opensContent = (side: Pick<Side, 'platform' | 'credentials'>) =>
    side.platform !== 'woocommerce' ||
    Boolean(
      (side.credentials as { wordpressApplicationPassword?: string }).wordpressApplicationPassword,
    );
  const all = paidEntityTypes.filter(
    (type) =>
      platforms.every((p) => unsupportedDataTypes[p][type] === undefined) &&
      platforms.slice(1).every((p) => unwritableDataTypes[p][type] === undefined) &&
      (!wordpressContentTypes.includes(type) || sides.every(opensContent)),
  );
  const list = (flag(parsed, 'entities') ?? all.join(','))
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  for (const entity of list) {
    if (!(paidEntityTypes as readonly string[]).includes(entity))
      throw new UsageError(`--entities takes ${paidEntityTypes.join(', ')} (comma-separated)`);
  }
  if (!list.length) throw new UsageError('--entities needs at least one data type');
  return list;
}

function httpFor(parsed: ParsedArgs, env: CliDeps['env']): HttpClient {
  const allow = [...(parsed.flags.get('allow') ?? []), ...(env.REPLATFORM_ALLOW ?? '').split(',')]
    .map((o) => o.trim())
    .filter(Boolean);
  for (const origin of allow) {
    if (!URL.canParse(origin))
      throw new UsageError(
        `--allow takes an origin such as http://127.0.0.1:8080, not '${origin}'`,
      );
  }
  const timeout = flag(parsed, 'timeout') ?? '30';
  if (!/^\d+(\.\d+)?$/.test(timeout) || Number(timeout) <= 0)
    throw new UsageError('--timeout takes seconds, e.g. 30');
  return createHttpClient({
    allowlist: allow.map((o) => new URL(o).origin),
    allowHttp: parsed.booleans.has('allow-http'),
    timeoutMs: Math.round(Number(timeout) * 1000),
  });
}

async function openState(parsed: ParsedArgs, deps: CliDeps): Promise<Db> {
  const path = resolve(deps.cwd, flag(parsed, 'state') ?? 'replatform-cli.sqlite');
  const db = openDatabase({ sqlitePath: path });
  await migrateToLatest(db);
  return db;
}

const pairName = (from: Side, to: Side) =>
  `${from.platform} ${from.address} -> ${to.platform} ${to.address}`;

async function findPair(db: Db, name: string | undefined): Promise<StoredMigration | undefined> {
  const all = await new MigrationsRepository(db).listForUser(CLI_USER);
  return name === undefined ? all[0] : all.find((m) => m.storeName === name);
}

const LEASE_MS = 15_000;
const owner = `cli/${process.pid}@${hostname()}`;

/** True when a lease holder is a replatform process on this machine that no longer exists. */
function deadLocalOwner(holder: string | null): boolean {
  const match = /^cli\/(\d+)@(.+)$/.exec(holder ?? '');
  if (!match || match[2] !== hostname()) return false;
  try {
    process.kill(Number(match[1]), 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

interface Lease {
  fence: LeaseFence;
  end(state: 'done' | 'failed' | 'interrupted'): Promise<void>;
}

/**
 * One process at a time per migration: the same job lease as the server's workers, so two CLIs
 * on one state file cannot write the same records at once. A holder that was killed on this
 * machine is taken over at once; any other holder only once its lease runs out.
 */
async function holdMigration(db: Db, migrationId: string): Promise<Lease> {
  const jobs = new EngineJobsRepository(db);
  const { job } = await jobs.enqueue(migrationId, CLI_USER, { unlimited: true });
  const claimed =
    (await jobs.claimById(job.id, owner, LEASE_MS)) ??
    (deadLocalOwner(job.leaseOwner)
      ? await jobs.claimById(job.id, owner, LEASE_MS, job.leaseOwner ?? undefined)
      : undefined);
  if (!claimed) {
    throw new UsageError(
      `Another replatform process (${job.leaseOwner ?? 'unknown'}) is working on this migration with the same state file. Wait for it to finish, or stop it and try again in ${LEASE_MS / 1000} s.`,
    );
  }
  const timer = setInterval(() => {
    jobs.heartbeat(job.id, owner, LEASE_MS).catch(() => {});
  }, LEASE_MS / 3);
  timer.unref();
  return {
    fence: { jobId: job.id, owner },
    async end(state) {
      clearInterval(timer);
      if (state === 'interrupted') await jobs.release(job.id, owner);
      else await jobs.finish(job.id, owner, state);
    },
  };
}

function connect(side: Side, http: HttpClient): StoreSide {
  return {
    connection: side.connector.connect(side.credentials, { http }),
    capabilities: side.connector.capabilities,
  };
}

const number = (n: number) => n.toLocaleString('en-US');

function printVerification(out: ProgressOutput, v: VerificationResult): void {
  if (v.status === 'failed') {
    out.write(`Verification could not run: ${v.message ?? 'unknown reason'}\n`);
    return;
  }
  out.write(
    `Verification: ${v.status === 'passed' ? 'passed' : 'differences found'} — ${number(v.matched)} matched, ${number(v.mismatched)} different, ${number(v.missing)} missing\n`,
  );
  for (const x of v.examples.mismatched)
    out.write(
      `  ${x.entity} ${x.sourceId} -> ${x.destinationId}: differs in ${x.fields.join(', ')}\n`,
    );
  for (const x of v.examples.missing) out.write(`  ${x.entity} ${x.sourceId}: ${x.reason}\n`);
}

/** What the destination did around the import, and how much of each store's rate limit was used. */
function printRunFacts(out: ProgressOutput, result: ExecuteResult): void {
  for (const note of result.notes ?? []) out.write(`Destination: ${note}\n`);
  for (const side of ['source', 'destination'] as const) {
    const usage = result.rateUsage?.[side];
    if (usage) out.write(`Rate limit (${side}): ${describeRateUsage(usage)}\n`);
  }
}

async function writeReport(db: Db, migrationId: string, path: string): Promise<void> {
  await pipeline(reportCsv(new EngineRepository(db), migrationId), createWriteStream(path));
}

async function migrate(parsed: ParsedArgs, deps: CliDeps): Promise<number> {
  const from = await sideOf(parsed, 'from', deps);
  const to = await sideOf(parsed, 'to', deps);
  const entities = entitiesOf(parsed, [from, to]);
  const concurrency = flag(parsed, 'concurrency');
  if (concurrency !== undefined && !/^[1-9]\d*$/.test(concurrency))
    throw new UsageError('--concurrency takes a whole number from 1');
  const batchSize = flag(parsed, 'batch-size');
  if (batchSize !== undefined && !/^[1-9]\d*$/.test(batchSize))
    throw new UsageError('--batch-size takes a whole number from 1');
  const http = httpFor(parsed, deps.env);
  const db = await openState(parsed, deps);
  const quiet = parsed.booleans.has('quiet');
  const bar = new MigrationProgress(quiet ? { write: () => true } : deps.stderr);
  try {
    const migrations = new MigrationsRepository(db);
    const name = pairName(from, to);
    let migration = await findPair(db, name);
    migration ??= await migrations.create({ userId: CLI_USER, email: '', storeName: name });
    const dataTypes = Object.fromEntries(paidEntityTypes.map((t) => [t, entities.includes(t)]));
    await migrations.update(migration.id, CLI_USER, {
      sourceStore: from.platform,
      destinationStore: to.platform,
      sourceStoreUrl: from.address,
      destinationStoreUrl: to.address,
      sourceVerified: true,
      destinationVerified: true,
      dataTypes,
    });

    const source = connect(from, http);
    const destination = connect(to, http);
    const [sourceInfo, destinationInfo] = await Promise.all([
      source.connection.check(),
      destination.connection.check(),
    ]);
    const lease = await holdMigration(db, migration.id);
    bar.message(
      `${platformLabels[from.platform]} "${sourceInfo.storeName}" -> ${platformLabels[to.platform]} "${destinationInfo.storeName}" (${entities.join(', ')})`,
    );
    let result;
    try {
      result = await executeMigration({
        repository: new EngineRepository(db),
        migrationId: migration.id,
        dataTypes: entities,
        source,
        destination,
        signal: deps.signal,
        verify: !parsed.booleans.has('no-verify'),
        concurrency: concurrency === undefined ? undefined : Number(concurrency),
        maxBatch: batchSize === undefined ? undefined : Number(batchSize),
        fence: lease.fence,
        retry: defaultRetryPolicy,
        onProgress: (p) => bar.update(p),
        log: parsed.booleans.has('verbose')
          ? (message, fields) => bar.message(`${message} ${JSON.stringify(fields ?? {})}`)
          : undefined,
      });
    } catch (error) {
      await lease.end('interrupted');
      throw error;
    }
    await lease.end(
      result.status === 'interrupted'
        ? 'interrupted'
        : result.status === 'completed'
          ? 'done'
          : 'failed',
    );
    bar.done();

    const report = flag(parsed, 'report');
    if (report) await writeReport(db, migration.id, resolve(deps.cwd, report));

    const out = deps.stdout;
    if (result.status === 'interrupted') {
      out.write('Stopped. Run the same command again to continue where it stopped.\n');
      return 130;
    }
    for (const [entity, s] of Object.entries(result.stats)) {
      if (!s) continue;
      out.write(
        `${entity.padEnd(10)} ${number(s.migrated)} migrated, ${number(s.skipped)} skipped, ${number(s.failed)} failed (of ${number(s.total)})\n`,
      );
    }
    printRunFacts(out, result);
    if (report) out.write(`Report: ${report}\n`);
    if (result.status === 'failed' || result.status === 'payment_required') {
      deps.stderr.write(`Migration failed: ${result.message ?? result.code ?? 'unknown reason'}\n`);
      return 1;
    }
    if (result.verification) printVerification(out, result.verification);
    const failed = Object.values(result.stats).some((s) => (s?.failed ?? 0) > 0);
    return failed || (result.verification && result.verification.status !== 'passed') ? 2 : 0;
  } finally {
    bar.done();
    await db.close();
    await http.close();
  }
}

async function verify(parsed: ParsedArgs, deps: CliDeps): Promise<number> {
  const from = await sideOf(parsed, 'from', deps);
  const to = await sideOf(parsed, 'to', deps);
  const http = httpFor(parsed, deps.env);
  const db = await openState(parsed, deps);
  try {
    const migration = await findPair(db, pairName(from, to));
    if (!migration) {
      throw new UsageError(
        'The state file holds no migration between these stores; run migrate first.',
      );
    }
    const repository = new EngineRepository(db);
    const source = connect(from, http);
    const destination = connect(to, http);
    const run = await repository.latestRun(migration.id);
    const streams = (
      run?.entities.length
        ? run.entities
        : planMigration(
            entitiesOf(parsed, [from, to]),
            source.capabilities,
            destination.capabilities,
          ).streams
    ) as EntityType[];
    const result = await verifyMigration({
      repository,
      migrationId: migration.id,
      streams,
      source,
      destination,
      retry: defaultRetryPolicy,
      signal: deps.signal,
    });
    if (run) await repository.updateRun(run.id, { verification: result });
    printVerification(deps.stdout, result);
    return result.status === 'passed' ? 0 : 2;
  } finally {
    await db.close();
    await http.close();
  }
}

async function count(parsed: ParsedArgs, deps: CliDeps): Promise<number> {
  const http = httpFor(parsed, deps.env);
  try {
    const sides: [string, Side][] = [['source', await sideOf(parsed, 'from', deps)]];
    if (flag(parsed, 'to')) sides.push(['destination', await sideOf(parsed, 'to', deps)]);
    const entities = [
      'categories',
      ...entitiesOf(
        parsed,
        sides.map(([, side]) => side),
      ),
    ] as EntityType[];
    for (const [label, side] of sides) {
      const store = connect(side, http);
      const info = await store.connection.check();
      deps.stdout.write(`${label}: ${platformLabels[side.platform]} "${info.storeName}"\n`);
      let total = 0;
      for (const entity of entities) {
        if (!side.connector.capabilities.read.includes(entity)) continue;
        const n = await store.connection.count(entity);
        if (entity !== 'categories') total += n;
        deps.stdout.write(`  ${entity.padEnd(10)} ${number(n)}\n`);
      }
      deps.stdout.write(
        `  ${'records'.padEnd(10)} ${number(total)} (${entities.filter((e) => e !== 'categories').join(' + ')})\n`,
      );
    }
    return 0;
  } finally {
    await http.close();
  }
}

async function report(parsed: ParsedArgs, deps: CliDeps): Promise<number> {
  const path = flag(parsed, 'report');
  if (!path) throw new UsageError('report needs --report <file.csv>');
  const db = await openState(parsed, deps);
  try {
    const name =
      flag(parsed, 'from') && flag(parsed, 'to')
        ? pairName(await sideOf(parsed, 'from', deps), await sideOf(parsed, 'to', deps))
        : undefined;
    const migration = await findPair(db, name);
    if (!migration) throw new UsageError('The state file holds no migration; run migrate first.');
    await writeReport(db, migration.id, resolve(deps.cwd, path));
    deps.stdout.write(`Report: ${path}\n`);
    return 0;
  } finally {
    await db.close();
  }
}

/** Runs one CLI command and answers the process exit code. */
export async function runCli(args: readonly string[], deps: CliDeps): Promise<number> {
  try {
    const parsed = parseArgs(args);
    if (parsed.booleans.has('help') || parsed.command === 'help') {
      deps.stdout.write(`${usage}\n`);
      return 0;
    }
    if (!parsed.command) {
      deps.stderr.write(`${usage}\n`);
      return 64;
    }
    switch (parsed.command) {
      case 'migrate':
        return await migrate(parsed, deps);
      case 'verify':
        return await verify(parsed, deps);
      case 'count':
        return await count(parsed, deps);
      case 'report':
        return await report(parsed, deps);
      default:
        throw new UsageError(`Unknown command '${parsed.command}'. Run replatform --help.`);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      deps.stderr.write(`${error.message}\n`);
      return 64;
    }
    deps.stderr.write(`replatform: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
