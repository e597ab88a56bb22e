import type { Category } from '@replatform/canonical/category';
import type { Brand } from '@replatform/canonical/brand';
import type { Page as WebPage } from '@replatform/canonical/content';
import type { EntityRecord, EntityType } from '@replatform/canonical/entities';
import type { Product } from '@replatform/canonical/product';
import type { Review } from '@replatform/canonical/review';
import type {
  AssetRecord,
  Capabilities,
  Checkpoint,
  Connection,
  IdMap,
  Page,
  RateUsage,
  TransportStats,
  WriteOutcome,
} from '@replatform/connectors/kit/contract';
import { ConnectorError } from '@replatform/connectors/kit/errors';
import { knownDifferences } from '@replatform/connectors/kit/fields';
import type {
  EngineRepository,
  IdMapEntry,
  LeaseFence,
  MigrationProgressColumns,
  OutcomeRow,
  RecordDifference,
  RecordOutcome,
} from '@replatform/db/engine-repository';
import type { MigrationOptions } from '@replatform/contracts/migration';
import { LeaseLostError } from '@replatform/db/engine-repository';
import { contentHash } from './content-hash.ts';
import { fatalError, type EngineError } from './errors.ts';
import { isPaidEntity, paidEntityTypes } from './plan.ts';
import type { DemoPicker } from './demo.ts';
import { readAhead, readPages } from './read-pages.ts';
import {
  imageKeys,
  productLinks,
  references,
  referencesByEntity,
  storefrontPath,
} from './references.ts';
import { singular } from './report.ts';
import { StoreWatch, type RetryPolicy, type StoreOutage } from './retry.ts';
import { sourceNote } from './verification.ts';

export interface StoreSide {
  connection: Connection;
  capabilities: Capabilities;
  /**
   * Fields the destination makes its own in this migration because the owner chose so (its own
   * URL slugs, its own order numbers): left out of every comparison (see ownFieldsOf).
   */
  ownFields?: Partial<Record<EntityType, readonly string[]>> | undefined;
}

/** The fields a destination makes its own under the owner's options. */
export function ownFieldsOf(
  options: Pick<MigrationOptions, 'keepSlugs' | 'keepOrderNumbers'> | undefined,
): Partial<Record<EntityType, readonly string[]>> {
  const own: Partial<Record<EntityType, readonly string[]>> = {};
  if (options?.keepSlugs === false)
    for (const entity of ['categories', 'brands', 'products', 'pages', 'posts'] as const)
      own[entity] = ['slug'];
  if (options?.keepOrderNumbers === false) own.orders = ['number'];
  return own;
}

export interface EntityStats {
  /** Records the source holds (counted at the start, raised if more turn up). */
  total: number;
  migrated: number;
  skipped: number;
  failed: number;
}

export type RunStats = Partial<Record<EntityType, EntityStats>>;

export interface EngineProgress {
  runId: string;
  phase: 'migrate' | 'verify';
  /** The stream being worked on. */
  entity: EntityType | null;
  stats: RunStats;
}

/** Rate-limit use of each side's connection, when its connector measures it. */
export interface RunRateUsage {
  source?: RateUsage;
  destination?: RateUsage;
}

interface PhaseFacts {
  stats: RunStats;
  /** What the destination did to prepare and finish the import, in the order it said so. */
  notes: string[];
  rateUsage: RunRateUsage;
}

export type MigratePhaseResult = PhaseFacts &
  (
    | { status: 'completed' }
    | { status: 'interrupted' }
    | { status: 'failed'; code: string; message: string }
    | {
        status: 'payment_required';
        message: string;
        /** Records (products + customers + orders) the migration needs paid for. */
        needed: number;
        paid: number;
      }
  );

export interface MigratePhaseOptions {
  repository: EngineRepository;
  migrationId: string;
  runId: string;
  /** Streams in dependency order (from planMigration). */
  streams: readonly EntityType[];
  /**
   * The run carries on after an interruption or a failed run, so the destination may hold records
   * the id map does not know (ImportOptions.resumed). Default true: look before creating.
   */
  resumed?: boolean | undefined;
  source: StoreSide;
  /** What the owner chose that changes the records (mappings), one line each for the report. */
  choices?: readonly string[] | undefined;
  destination: StoreSide;
  /** Products + customers + orders that may reach the destination; undefined = no limit. */
  paidRecords?: number | undefined;
  /**
   * A free demo run: moves only the records the picker chooses, and leaves the migration's
   * progress columns alone (they show the owner's own runs).
   */
  demo?: DemoPicker | undefined;
  /** Leave alone what an earlier run wrote and the source has not changed since (ISO date). */
  changedSince?: string | undefined;
  signal?: AbortSignal | undefined;
  fence?: LeaseFence | undefined;
  /** Batches written at once (commits stay in order). */
  concurrency?: number | undefined;
  /** Records per batch at most, below the destination's own maximum (an operator's choice). */
  maxBatch?: number | undefined;
  retry: RetryPolicy;
  /**
   * Told when a store has kept failing past the retries and the run is waiting for it (with
   * when it is probed next), and `null` when it answers again.
   */
  onOutage?: ((outage: StoreOutage | null) => void) | undefined;
  onProgress?: ((progress: EngineProgress) => void) | undefined;
  log?: ((message: string, fields?: Record<string, unknown>) => void) | undefined;
}

type AnyRecord = EntityRecord[EntityType];

interface Batch {
  records: AnyRecord[];
  rejected: { sourceId: string; reason: string }[];
  /** What the source's model could not carry, by source id (Page.losses). */
  losses: Map<string, RecordDifference[]>;
  /** JSON checkpoint the stream may resume from once this batch is committed. */
  checkpoint: string | undefined;
}

interface PreparedBatch {
  batch: Batch;
  existing: Map<string, IdMapEntry>;
  hashes: Map<string, string>;
  /** Outcomes decided without the destination: unchanged records and source rejections. */
  decided: OutcomeRow[];
  toWrite: AnyRecord[];
  idMap: IdMap;
  /**
   * Records written before what they point at: their content hash is not stored until the
   * relinking write, so a run that stops in between writes them again when it resumes.
   */
  deferred: Set<string>;
  /** A second write of products only to set their links: what the first write noted stays. */
  relink: boolean;
  /**
   * Records that point at source records that failed (not at the destination): written without
   * those links, and written again by the next run, once they may be there.
   */
  unlinked: Map<string, string[]>;
}

interface WrittenBatch {
  rows: OutcomeRow[];
  /** With the source id of the record whose write stored each. */
  assets: (AssetRecord & { sourceId: string })[];
}

class StopRun extends Error {}

/** One stream's writes in flight and its ordered commits. */
interface Lane {
  entity: EntityType;
  inFlight: Set<Promise<void>>;
  inFlightIds: Set<string>;
  commitChain: Promise<void>;
}

/**
 * What must be complete before a stream starts, so that its references resolve: a product's
 * categories, a coupon's products and categories, an order's customer, products and coupons, a
 * review's product (and the orders that make its reviewer a buyer).
 * Customers need nothing and run alongside the
 * catalogue.
 */
const runsAfter: Record<EntityType, readonly EntityType[]> = {
  categories: [],
  brands: [],
  // After brands: a product names its brand, which the destination finds by that name.
  products: ['categories', 'brands'],
  coupons: ['categories', 'products'],
  customers: [],
  orders: ['categories', 'products', 'coupons', 'customers'],
  // After orders too: a store that marks a review as a verified buyer's (WooCommerce) decides it
  // when the review is written, from the orders it already holds.
  reviews: ['categories', 'products', 'customers', 'orders'],
  // Pages and posts name no other record; they run on their own lanes from the start.
  pages: [],
  posts: [],
};

/** Why a linked record of the merchant's was left alone, when its first write gave no reason. */
const LINKED =
  "The destination already had this record (the merchant's own): it was linked, not changed.";

const DEFAULT_BATCH = 25;

function emptyBatch(): Batch {
  return { records: [], rejected: [], losses: new Map(), checkpoint: undefined };
}

function lossesOf(losses: Page<EntityType>['losses']): Map<string, RecordDifference[]> {
  const out = new Map<string, RecordDifference[]>();
  for (const loss of losses ?? []) {
    const list = out.get(loss.sourceId) ?? [];
    list.push({ field: loss.field, reason: loss.reason });
    out.set(loss.sourceId, list);
  }
  return out;
}
const UNCHANGED = 'Unchanged since the last run; not sent again.';

/** When a record last changed at the source: its time of change, else of creation; null if neither. */
function changedAt(record: AnyRecord): string | null {
  const dated = record as { updatedAt?: string | null; createdAt?: string | null };
  return dated.updatedAt ?? dated.createdAt ?? null;
}

/** Start of the day an ISO date names, in UTC (ms), or undefined when there is none. */
function dayStart(date: string | undefined): number | undefined {
  if (!date) return undefined;
  const at = Date.parse(`${date.slice(0, 10)}T00:00:00Z`);
  return Number.isNaN(at) ? undefined : at;
}
const RETRIED = 'It will be written again on the next run.';
const NOT_CARRIED = 'Not carried over: ';

/**
 * The reason kept for a written record: the destination's warnings, joined. A relinking write
 * adds to what the record's first write noted rather than replacing it, since that write may be
 * the only one that saw a loss (a value the destination refused when the record was created).
 */
export function warningText(warnings: readonly string[], earlier: string | null): string | null {
  const noted =
    notCarried(earlier)
      ?.slice(NOT_CARRIED.length)
      .split('; ')
      .filter((w) => w.length > 0) ?? [];
  const all = [...new Set([...noted, ...warnings])];
  return all.length ? `${NOT_CARRIED}${all.join('; ')}` : null;
}

/** What an earlier write of the record noted as not carried over, as it reads in its reason. */
function notCarried(earlier: string | null): string | null {
  const at = earlier?.indexOf(NOT_CARRIED) ?? -1;
  return earlier && at >= 0 ? earlier.slice(at).replace(` ${RETRIED}`, '') : null;
}

/**
 * The reason of a record skipped because it is already at the destination. What its earlier
 * write could not carry over is still missing there, so the row keeps saying so: the report stays
 * true, and the verification still finds the difference named.
 */
export function skippedReason(reason: string, earlier: string | null): string {
  const kept = notCarried(earlier);
  return kept ? `${reason} ${kept}` : reason;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The rate-limit use a connection reports, if it measures one (a failing probe reports none). */
export function rateUsageOf(connection: Connection): RateUsage | undefined {
  try {
    return connection.rateUsage?.();
  } catch {
    return undefined;
  }
}

/** One line a person reads: '4.8 of 5 requests/s used (96 %), 0 throttled'. */
export function describeRateUsage(usage: RateUsage): string {
  const round = (n: number) => (n >= 10 ? Math.round(n).toString() : n.toFixed(1));
  const share = usage.availablePerSecond
    ? ` (${Math.round((usage.usedPerSecond / usage.availablePerSecond) * 100)} %)`
    : '';
  return `${round(usage.usedPerSecond)} of ${round(usage.availablePerSecond)} ${usage.unit}/s used${share}, ${usage.throttled} throttled`;
}

/** One line for the log: what the transport to one store did during the run. */
export function describeTransport(stats: TransportStats): string {
  const fmt = (n: number) => n.toLocaleString('en-US');
  const failures = Object.entries(stats.failures)
    .map(([code, n]) => `${fmt(n)} ${code}`)
    .join(', ');
  const parts = [
    `${fmt(stats.requests)} requests`,
    failures ? `failed attempts: ${failures}` : 'no failed attempt',
    `${fmt(stats.retries)} retried`,
    `${fmt(stats.recoveries)} writes read back after a lost answer (${fmt(stats.recovered)} records found)`,
  ];
  if (stats.inFlight)
    parts.push(
      `in flight ${stats.inFlight.lowest}-${stats.inFlight.highest} (ended at ${stats.inFlight.now})`,
    );
  const shrunk = Object.entries(stats.batchSizes ?? {});
  if (shrunk.length)
    parts.push(`batches cut to ${shrunk.map(([route, n]) => `${n} on ${route}`).join(', ')}`);
  return parts.join('; ');
}

/**
 * The migrate phase of one run: each stream once those it refers to are complete (customers run
 * alongside the catalogue), read page by page (the next page is fetched while the previous batch
 * is written), cut into batches of the destination's size, written a few at a time with bounded
 * retries, and committed in order together with the stream's checkpoint and the migration's
 * progress.
 */
export class MigratePhase {
  readonly #o: MigratePhaseOptions;
  readonly #stats: RunStats = {};
  readonly #concurrency: number;
  #lastEntity: EntityType | null = null;
  #budgetUsed = 0;
  #stop: 'payment_required' | 'interrupted' | undefined;
  #failure: EngineError | undefined;
  #leaseLost = false;
  #paymentNeeded = 0;
  #notes: string[] = [];
  #prepared: Promise<void> | undefined;
  /** Products to write again once the products they point at are at the destination. */
  /** Products to write again once the stream is done, with what their read could not carry. */
  readonly #relink = new Map<string, { product: Product; losses?: RecordDifference[] }>();
  readonly #sourceWatch: StoreWatch;
  readonly #destinationWatch: StoreWatch;

  constructor(options: MigratePhaseOptions) {
    this.#o = options;
    this.#sourceWatch = new StoreWatch('source', options.retry, options.onOutage);
    this.#destinationWatch = new StoreWatch('destination', options.retry, options.onOutage);
    this.#concurrency = Math.max(1, Math.floor(options.concurrency ?? 3));
  }

  async run(): Promise<MigratePhaseResult> {
    const o = this.#o;
    try {
      if (o.demo) {
        const picker = o.demo;
        await this.#sourceCall(
          () => picker.prepare(o.source.connection, o.streams, this.#sourceWatch, o.signal),
          'choosing the demo records',
        );
      }
      await this.#loadStats();
      const checkpoints = await o.repository.checkpoints(o.runId);
      const paidCount = paidEntityTypes.reduce(
        (sum, e) => sum + (o.streams.includes(e) ? (this.#stats[e]?.total ?? 0) : 0),
        0,
      );
      if (o.paidRecords !== undefined && paidCount > o.paidRecords) {
        return this.#paymentRequired(paidCount, o.paidRecords);
      }
      this.#budgetUsed = await o.repository.migratedCount(
        o.migrationId,
        paidEntityTypes.filter((e) => o.streams.includes(e)),
      );
      await this.#persistProgress(true);
      this.#notes = (await o.repository.findRun(o.runId))?.notes ?? [];
      await this.#note(o.choices ?? [], 'owner choices');

      // A run that resumes prepares at once: its interrupted attempt may have left the store
      // prepared (e-mails switched off) with nothing left to write. A fresh run prepares just
      // before its first write, so a re-run that finds nothing changed writes nothing at all.
      if (o.resumed ?? true) await this.#prepareImport();
      try {
        await this.#runStreams(checkpoints);
      } finally {
        try {
          const finished = this.#prepared
            ? ((await o.destination.connection.finishImport?.({ runId: o.migrationId })) ?? [])
            : [];
          await this.#note(finished, 'destination import finished');
        } catch (error) {
          o.log?.('finishing the import failed', { error: errorText(error) });
          this.#notes.push(`Finishing the import failed: ${errorText(error)}`);
        }
        this.#logRateUsage();
      }
    } catch (error) {
      if (error instanceof LeaseLostError) this.#leaseLost = true;
      else if (!(error instanceof StopRun)) this.#fail(error, 'destination', 'migrating');
    }
    const facts = this.#facts();
    // A lost lease means another worker carries on; an abort means this one will resume later.
    if (this.#leaseLost || o.signal?.aborted) return { status: 'interrupted', ...facts };
    if (this.#failure) {
      return {
        status: 'failed',
        code: this.#failure.code,
        message: this.#failure.message,
        ...facts,
      };
    }
    if (this.#stop === 'payment_required') {
      return this.#paymentRequired(this.#paymentNeeded, o.paidRecords ?? 0);
    }
    if (this.#stop === 'interrupted') return { status: 'interrupted', ...facts };
    return { status: 'completed', ...facts };
  }

  #facts(): PhaseFacts {
    const rateUsage: RunRateUsage = {};
    const source = rateUsageOf(this.#o.source.connection);
    const destination = rateUsageOf(this.#o.destination.connection);
    if (source) rateUsage.source = source;
    if (destination) rateUsage.destination = destination;
    return { stats: this.#stats, notes: [...this.#notes], rateUsage };
  }

  /** Keeps what the destination said it did on the run (once per line), and logs it. */
  async #note(lines: readonly string[], message: string): Promise<void> {
    if (!lines.length) return;
    this.#o.log?.(message, { notes: lines });
    const fresh = lines.filter((line) => !this.#notes.includes(line));
    if (!fresh.length) return;
    this.#notes.push(...fresh);
    try {
      await this.#o.repository.updateRun(this.#o.runId, { notes: this.#notes });
    } catch (error) {
      this.#o.log?.('recording the import notes failed', { error: errorText(error) });
    }
  }

  #logRateUsage(): void {
    for (const side of ['source', 'destination'] as const) {
      const usage = rateUsageOf(this.#o[side].connection);
      if (usage) {
        this.#o.log?.(`${side} rate-limit use: ${describeRateUsage(usage)}`, {
          side,
          ...usage,
        });
      }
      const transport = this.#o[side].connection.transportStats?.();
      if (transport)
        this.#o.log?.(`${side} store: ${describeTransport(transport)}`, { side, ...transport });
    }
  }

  #paymentRequired(needed: number, paid: number): MigratePhaseResult {
    const more = Math.max(0, needed - paid);
    return {
      status: 'payment_required',
      needed,
      paid,
      ...this.#facts(),
      message: `This migration now covers ${needed} records but ${paid} were paid for. Top up for the ${more} additional records to continue; everything migrated so far is kept and will not be sent again.`,
    };
  }

  async #loadStats(): Promise<void> {
    const o = this.#o;
    // At once: every resumed run starts with these, and each is a request to the store.
    const totals = await Promise.all(
      o.streams.map((entity) =>
        this.#sourceCall(() => o.source.connection.count(entity), `counting ${entity}`),
      ),
    );
    o.streams.forEach((entity, i) => {
      const total = o.demo ? o.demo.total(entity, totals[i] ?? 0) : (totals[i] ?? 0);
      this.#stats[entity] = { total, migrated: 0, skipped: 0, failed: 0 };
    });
    for (const row of await o.repository.runCounts(o.migrationId, o.runId)) {
      const stats = this.#stats[row.entity as EntityType];
      if (stats) stats[row.outcome] += row.count;
    }
    if (o.demo)
      for (const entity of o.streams) {
        const s = this.#stats[entity];
        if (s) o.demo.resume(entity, s.migrated + s.skipped + s.failed);
      }
  }

  #progressColumns(withCounts: boolean): MigrationProgressColumns {
    const migrationStats: MigrationProgressColumns['migrationStats'] = {};
    let migratedEntities = 0;
    let totalEntities = 0;
    const entityCounts: Record<string, number> = {
      products: 0,
      customers: 0,
      orders: 0,
      coupons: 0,
      reviews: 0,
      brands: 0,
      pages: 0,
      posts: 0,
    };
    // Only the data types of spec.md section 3 (categories travel with products, and show in
    // the run's stats and report instead).
    for (const entity of this.#o.streams) {
      const s = this.#stats[entity];
      if (!s || !isPaidEntity(entity)) continue;
      const done = s.migrated + s.skipped;
      const total = Math.max(s.total, done + s.failed);
      migrationStats[entity] = { total, migrated: done, failed: s.failed };
      migratedEntities += done;
      totalEntities += total;
      entityCounts[entity] = total;
    }
    return {
      migrationStats,
      migratedEntities,
      totalEntities,
      ...(withCounts ? { entityCounts } : {}),
    };
  }

  async #persistProgress(withCounts = false): Promise<void> {
    if (!this.#o.demo)
      await this.#o.repository.writeProgress(
        this.#o.migrationId,
        this.#progressColumns(withCounts),
      );
    this.#report();
  }

  #report(): void {
    this.#o.onProgress?.({
      runId: this.#o.runId,
      phase: 'migrate',
      entity: this.#lastEntity,
      stats: structuredClone(this.#stats),
    });
  }

  #fail(error: unknown, side: 'source' | 'destination', what: string): void {
    if (error instanceof LeaseLostError) throw error;
    this.#failure ??= fatalError(error, side, what);
  }

  async #sourceCall<T>(task: () => Promise<T>, what: string): Promise<T> {
    try {
      return await this.#sourceWatch.run(task, this.#o.signal);
    } catch (error) {
      this.#fail(error, 'source', what);
      throw new StopRun();
    }
  }

  /** The destination's preparation for the import, once per run (see run()). */
  #prepareImport(): Promise<void> {
    const o = this.#o;
    this.#prepared ??= (async () => {
      const lines = await this.#destinationCall(
        () =>
          o.destination.connection.prepareImport?.({
            runId: o.migrationId,
            resumed: o.resumed ?? true,
          }) ?? Promise.resolve([]),
        'preparing the import',
      );
      await this.#note(lines, 'destination prepared for import');
    })();
    return this.#prepared;
  }

  async #destinationCall<T>(task: () => Promise<T>, what: string): Promise<T> {
    try {
      return await this.#destinationWatch.run(task, this.#o.signal);
    } catch (error) {
      this.#fail(error, 'destination', what);
      throw new StopRun();
    }
  }

  #batchSize(entity: EntityType): number {
    const size = this.#o.destination.capabilities.batchSize[entity] ?? DEFAULT_BATCH;
    return Math.max(1, Math.min(size, this.#o.maxBatch ?? size));
  }

  #halted(): boolean {
    if (this.#o.signal?.aborted) this.#stop ??= 'interrupted';
    return Boolean(this.#stop || this.#failure || this.#leaseLost);
  }

  /**
   * Runs the streams, each as soon as the streams it refers to are complete (customers alongside
   * categories and products), until all are done or the run stops.
   */
  async #runStreams(checkpoints: Map<string, { checkpoint: string | null; done: boolean }>) {
    const streams = this.#o.streams;
    const done = new Set(streams.filter((e) => checkpoints.get(e)?.done));
    const running = new Map<EntityType, Promise<void>>();
    for (;;) {
      if (!this.#halted()) {
        for (const entity of streams) {
          if (done.has(entity) || running.has(entity)) continue;
          const waiting = runsAfter[entity].some((e) => streams.includes(e) && !done.has(e));
          if (waiting) continue;
          const saved = checkpoints.get(entity)?.checkpoint;
          const from = saved ? (JSON.parse(saved) as Checkpoint) : null;
          running.set(
            entity,
            this.#runStream(entity, from).then(() => {
              running.delete(entity);
              if (!this.#halted()) done.add(entity);
            }),
          );
        }
      }
      if (running.size === 0) return;
      await Promise.race(running.values());
    }
  }

  async #runStream(entity: EntityType, from: Checkpoint | null): Promise<void> {
    const lane: Lane = {
      entity,
      inFlight: new Set(),
      inFlightIds: new Set(),
      commitChain: Promise.resolve(),
    };
    try {
      if (entity === 'categories' || entity === 'brands' || entity === 'pages')
        await this.#streamTree(lane, entity);
      else await this.#streamPages(lane, from);
    } catch (error) {
      if (error instanceof LeaseLostError) this.#leaseLost = true;
      else if (!(error instanceof StopRun)) this.#fail(error, 'source', `reading ${entity}`);
    }
    await this.#drain(lane);
    if (entity === 'products' && !this.#halted()) await this.#relinkProducts(lane);
    if (this.#halted()) return;
    try {
      await this.#o.repository.saveCheckpoint(
        this.#o.runId,
        entity,
        { checkpoint: null, done: true },
        this.#o.fence,
      );
    } catch (error) {
      if (error instanceof LeaseLostError) this.#leaseLost = true;
      else this.#fail(error, 'destination', `recording ${entity}`);
    }
  }

  async #streamPages(lane: Lane, from: Checkpoint | null): Promise<void> {
    const { entity } = lane;
    const size = this.#batchSize(entity);
    let current = emptyBatch();
    // A demo reads the stream's pages until it has the records its orders and reviews name and
    // its first ones (pages, not reads by id, so what the source could not carry is known).
    const demo = this.#o.demo;
    if (demo?.satisfied(entity)) return;
    const pages = readAhead(
      readPages(this.#o.source.connection, entity, from, this.#sourceWatch, this.#o.signal),
    );
    try {
      for await (const page of pages) {
        const losses = lossesOf(page.losses);
        for (const record of page.records) {
          if (demo && !demo.take(entity, record.id)) continue;
          current.records.push(record);
          const lost = losses.get(record.id);
          if (lost) current.losses.set(record.id, lost);
          if (current.records.length >= size) {
            await this.#dispatch(lane, current);
            current = emptyBatch();
            if (this.#halted()) return;
          }
        }
        for (const rejected of page.rejected ?? [])
          if (!demo || demo.take(entity, rejected.sourceId)) current.rejected.push(rejected);
        // Everything up to the end of this page is in `current` or an earlier batch, so the
        // page's successor is a safe place to resume once `current` is committed.
        if (page.next) current.checkpoint = JSON.stringify(page.next);
        if (this.#halted()) return;
        if (demo?.satisfied(entity)) break;
      }
    } catch (error) {
      if (error instanceof StopRun || error instanceof LeaseLostError) throw error;
      this.#fail(error, 'source', `reading ${entity}`);
      return;
    }
    if (current.records.length || current.rejected.length || current.checkpoint !== undefined) {
      await this.#dispatch(lane, current);
    }
  }

  /**
   * Categories, brands and pages are read whole (a store has few) and written parents first, one tree
   * level at a time, so a child's parent always has its destination id when the child is
   * written. They keep no intermediate checkpoint: a resumed run reads them again and skips the
   * ones already written.
   */
  async #streamTree(lane: Lane, entity: 'categories' | 'brands' | 'pages'): Promise<void> {
    type Node = Category | Brand | WebPage;
    const all: Node[] = [];
    const rejected: Batch['rejected'] = [];
    const losses = new Map<string, RecordDifference[]>();
    try {
      for await (const page of readPages(
        this.#o.source.connection,
        entity,
        null,
        this.#sourceWatch,
        this.#o.signal,
      )) {
        const demo = this.#o.demo;
        all.push(...(page.records as Node[]).filter((r) => !demo || demo.take(entity, r.id)));
        rejected.push(
          ...(page.rejected ?? []).filter((r) => !demo || demo.take(entity, r.sourceId)),
        );
        for (const [id, lost] of lossesOf(page.losses)) losses.set(id, lost);
      }
    } catch (error) {
      this.#fail(error, 'source', `reading ${entity}`);
      return;
    }
    const byId = new Map(all.map((c) => [c.id, c]));
    const depths = new Map<string, number>();
    const depthOf = (category: Node, seen: Set<string>): number => {
      const known = depths.get(category.id);
      if (known !== undefined) return known;
      const parent = category.parentId ? byId.get(category.parentId) : undefined;
      const depth = parent && !seen.has(parent.id) ? depthOf(parent, seen.add(category.id)) + 1 : 0;
      depths.set(category.id, depth);
      return depth;
    };
    const levels: Node[][] = [];
    for (const category of all) (levels[depthOf(category, new Set())] ??= []).push(category);
    const size = this.#batchSize(entity);
    if (rejected.length) await this.#dispatch(lane, { ...emptyBatch(), rejected });
    for (const level of levels) {
      if (!level) continue;
      for (let i = 0; i < level.length; i += size) {
        const records = level.slice(i, i + size);
        await this.#dispatch(lane, {
          ...emptyBatch(),
          records,
          losses: new Map(
            records.flatMap((r) => (losses.has(r.id) ? [[r.id, losses.get(r.id) ?? []]] : [])),
          ),
        });
        if (this.#halted()) return;
      }
      await this.#drain(lane);
      if (this.#halted()) return;
    }
  }

  /**
   * Writes again the products that pointed at products not yet at the destination when they were
   * written (up-sells, cross-sells, grouped members), now that the whole stream is there.
   */
  async #relinkProducts(lane: Lane): Promise<void> {
    const pending = [...this.#relink.values()];
    this.#relink.clear();
    const size = this.#batchSize('products');
    for (let i = 0; i < pending.length && !this.#halted(); i += size) {
      const slice = pending.slice(i, i + size);
      // The second write's row replaces the first's: the read's losses must stay named on it.
      const losses = new Map(
        slice.flatMap(({ product, losses: lost }) => (lost ? [[product.id, lost] as const] : [])),
      );
      await this.#dispatch(
        lane,
        { ...emptyBatch(), records: slice.map((p) => p.product), losses },
        true,
      );
    }
    await this.#drain(lane);
  }

  async #drain(lane: Lane): Promise<void> {
    while (lane.inFlight.size) await Promise.all([...lane.inFlight]);
    await lane.commitChain;
  }

  /** Starts a batch: waits for room, decides what to skip, checks the payment budget, writes. */
  async #dispatch(lane: Lane, batch: Batch, relink = false): Promise<void> {
    if (this.#halted()) return;
    const { entity } = lane;
    const ids = batch.records.map((r) => r.id);
    // A record twice in flight could be created twice before either write sees the other.
    if (ids.some((id) => lane.inFlightIds.has(id))) await this.#drain(lane);
    while (lane.inFlight.size >= this.#concurrency) await Promise.race(lane.inFlight);
    if (this.#halted()) return;

    const prepared = await this.#prepare(entity, batch, relink);
    if (!prepared) return;
    // Nothing new (all done earlier in this run) and no checkpoint to move: no commit needed.
    if (!prepared.toWrite.length && !prepared.decided.length && batch.checkpoint === undefined)
      return;
    for (const id of ids) lane.inFlightIds.add(id);
    const written = this.#write(entity, prepared);
    written.catch(() => {});
    const committed = lane.commitChain.then(async () => {
      if (this.#failure || this.#leaseLost) return;
      let result: WrittenBatch;
      try {
        result = await written;
      } catch (error) {
        this.#fail(error, 'destination', `writing ${entity}`);
        return;
      }
      await this.#commit(entity, prepared, result);
    });
    // The chain itself never rejects, so later batches still queue behind a failed one (and
    // then do nothing).
    lane.commitChain = committed.catch(() => {});
    const tracked: Promise<void> = committed
      .catch((error: unknown) => {
        if (error instanceof LeaseLostError) {
          this.#leaseLost = true;
          this.#stop ??= 'interrupted';
        } else {
          this.#fail(error, 'destination', `recording ${entity}`);
        }
      })
      .finally(() => {
        lane.inFlight.delete(tracked);
        for (const id of ids) lane.inFlightIds.delete(id);
      });
    lane.inFlight.add(tracked);
  }

  async #prepare(
    entity: EntityType,
    batch: Batch,
    relink = false,
  ): Promise<PreparedBatch | undefined> {
    const o = this.#o;
    // Later duplicates of a source id in one batch replace earlier ones.
    const unique = new Map(batch.records.map((r) => [r.id, r]));
    const records = [...unique.values()];
    const existing = await o.repository.lookup(o.migrationId, entity, [
      ...unique.keys(),
      ...batch.rejected.map((r) => r.sourceId),
    ]);
    const hashes = new Map<string, string>();
    const decided: OutcomeRow[] = batch.rejected.map((r) => ({
      sourceId: r.sourceId,
      destinationId: null,
      contentHash: null,
      outcome: 'failed',
      reason: `Could not be read from the source: ${r.reason}`,
    }));
    const toWrite: AnyRecord[] = [];
    const since = dayStart(o.changedSince);
    for (const record of records) {
      const hash = contentHash(record);
      hashes.set(record.id, hash);
      const known = existing.get(record.id);
      if (known?.linked && known.destinationId) {
        // The merchant's own record, linked by an earlier write: never changed, whatever the
        // source now holds.
        if (known.runId !== o.runId)
          decided.push({
            sourceId: record.id,
            destinationId: known.destinationId,
            contentHash: hash,
            outcome: 'skipped',
            reason: known.reason ?? LINKED,
            linked: true,
          });
        continue;
      }
      if (relink && known?.destinationId) {
        toWrite.push(record);
        continue;
      }
      if (
        since !== undefined &&
        known?.destinationId &&
        known.outcome !== 'failed' &&
        known.runId !== o.runId
      ) {
        // A "recent data" run: what the source has not changed since the chosen day stays as
        // an earlier run wrote it (a record without any date is compared as in any run).
        const at = changedAt(record);
        if (at !== null && Date.parse(at) < since) {
          decided.push({
            sourceId: record.id,
            destinationId: known.destinationId,
            contentHash: known.contentHash,
            outcome: 'skipped',
            reason: `Not changed at the source since ${o.changedSince?.slice(0, 10)}; left as an earlier run wrote it.`,
          });
          continue;
        }
      }
      if (known && known.outcome !== 'failed' && known.contentHash === hash) {
        // Already handled earlier in this very run (before a restart): nothing to add.
        if (known.runId === o.runId) continue;
        if (known.destinationId) {
          decided.push({
            sourceId: record.id,
            destinationId: known.destinationId,
            contentHash: hash,
            outcome: 'skipped',
            reason: skippedReason(UNCHANGED, known.reason),
          });
          continue;
        }
      }
      toWrite.push(record);
    }

    if (isPaidEntity(entity) && o.paidRecords !== undefined) {
      const fresh = toWrite.filter((r) => !existing.get(r.id)?.destinationId).length;
      if (this.#budgetUsed + fresh > o.paidRecords) {
        this.#paymentNeeded = Math.max(
          this.#budgetUsed + fresh,
          paidEntityTypes.reduce((sum, e) => sum + (this.#stats[e]?.total ?? 0), 0),
        );
        this.#stop ??= 'payment_required';
        return undefined;
      }
      this.#budgetUsed += fresh;
    }

    const wanted = referencesByEntity(entity, toWrite);
    const known = new Map<string, string>();
    for (const [id, entry] of existing) {
      if (entry.destinationId) known.set(`${entity}:${id}`, entry.destinationId);
    }
    // Referenced records the id map knows without a destination id: they failed.
    const failedRefs = new Set<string>();
    for (const [refEntity, ids] of wanted) {
      const found = await o.repository.lookup(o.migrationId, refEntity, [...ids]);
      for (const [id, entry] of found) {
        if (entry.destinationId) known.set(`${refEntity}:${id}`, entry.destinationId);
        else failedRefs.add(`${refEntity}:${id}`);
      }
    }
    if (entity === 'reviews') {
      // A review is attached to its product at the destination: with no copy of the product
      // there, nothing can take it, so it fails with the reason instead of reaching the store.
      for (const record of [...toWrite]) {
        const productId = (record as Review).productId;
        if (known.has(`products:${productId}`)) continue;
        toWrite.splice(toWrite.indexOf(record), 1);
        decided.push({
          sourceId: record.id,
          destinationId: null,
          contentHash: null,
          outcome: 'failed',
          reason: failedRefs.has(`products:${productId}`)
            ? `Its product (source id ${productId}) failed to migrate, so the review has nothing to belong to.`
            : `Its product (source id ${productId}) was not migrated: select Products too, or migrate them first.`,
        });
      }
    }
    const unlinked = new Map<string, string[]>();
    for (const record of toWrite) {
      const missing = references(entity, record)
        .filter(([e, id]) => failedRefs.has(`${e}:${id}`) && !known.has(`${e}:${id}`))
        .map(([e, id]) => `${singular[e] ?? e} ${id}`);
      if (missing.length) unlinked.set(record.id, [...new Set(missing)]);
    }
    const assets = new Map<string, string>();
    const deferred = new Set<string>();
    if (entity === 'products') {
      const keys = toWrite.flatMap((r) => imageKeys(r as Product));
      for (const [key, id] of await o.repository.assets(o.migrationId, 'image', keys))
        assets.set(key, id);
      // A product pointing at products not written yet is written again once they are.
      for (const record of relink ? [] : toWrite) {
        if (productLinks(record as Product).some((id) => !known.has(`products:${id}`))) {
          this.#relink.set(record.id, {
            product: record as Product,
            losses: batch.losses.get(record.id),
          });
          deferred.add(record.id);
        }
      }
    }
    const idMap: IdMap = {
      get: (e, sourceId) => known.get(`${e}:${sourceId}`),
      asset: (kind, key) => (kind === 'image' ? assets.get(key) : undefined),
    };
    return { batch, existing, hashes, decided, toWrite, idMap, deferred, relink, unlinked };
  }

  async #write(entity: EntityType, prepared: PreparedBatch): Promise<WrittenBatch> {
    const rows = [...prepared.decided];
    if (prepared.toWrite.length === 0) return { rows, assets: [] };
    const outcomes = await this.#writeIsolating(entity, prepared.toWrite, prepared.idMap);
    const bySource = new Map(outcomes.map((o) => [o.sourceId, o]));
    const fields = this.#o.destination.capabilities.destinationFields[entity] ?? {};
    for (const record of prepared.toWrite) {
      const outcome = bySource.get(record.id);
      const hash = prepared.deferred.has(record.id)
        ? null
        : (prepared.hashes.get(record.id) ?? null);
      const previous = prepared.existing.get(record.id)?.destinationId ?? null;
      if (!outcome) {
        rows.push({
          sourceId: record.id,
          destinationId: null,
          contentHash: null,
          outcome: 'failed',
          reason: 'The destination did not report on this record.',
        });
        continue;
      }
      const missingLinks = prepared.unlinked.get(record.id);
      const warnings = warningText(
        [
          ...(outcome.warnings ?? []),
          ...(missingLinks
            ? [`the link to ${missingLinks.join(', ')} (not written: it failed)`]
            : []),
        ],
        prepared.relink ? (prepared.existing.get(record.id)?.reason ?? null) : null,
      );
      const incomplete = outcome.incomplete || missingLinks !== undefined;
      const differences = [
        ...(prepared.batch.losses.get(record.id) ?? []),
        ...knownDifferences(entity, record, fields),
      ];
      const sourceFields =
        outcome.outcome === 'failed'
          ? null
          : sourceNote(entity, record, this.#o.streams, this.#o.destination);
      const sourcePath = storefrontPath(entity, record);
      switch (outcome.outcome) {
        case 'created':
        case 'updated':
          rows.push({
            sourceId: record.id,
            destinationId: outcome.destinationId ?? previous,
            contentHash: incomplete ? null : hash,
            outcome: 'migrated',
            reason: incomplete
              ? `${warnings ?? 'Written without part of its content.'} ${RETRIED}`
              : warnings,
            differences,
            sourceFields,
            ...(sourcePath !== undefined ? { sourcePath } : {}),
            ...(outcome.outcome === 'created' ? { created: true } : {}),
            ...(incomplete ? { incomplete: true } : {}),
          });
          break;
        case 'skipped':
          rows.push({
            sourceId: record.id,
            destinationId: outcome.destinationId ?? previous,
            contentHash: missingLinks ? null : hash,
            outcome: 'skipped',
            reason: missingLinks
              ? `${warnings ?? ''} ${RETRIED}`.trim()
              : skippedReason(
                  outcome.reason ?? 'Already at the destination.',
                  warnings ?? prepared.existing.get(record.id)?.reason ?? null,
                ),
            differences,
            sourceFields,
            ...(sourcePath !== undefined ? { sourcePath } : {}),
            ...(outcome.linked ? { linked: true } : {}),
            ...(missingLinks ? { incomplete: true } : {}),
          });
          break;
        default:
          rows.push({
            sourceId: record.id,
            destinationId: null,
            contentHash: null,
            outcome: 'failed',
            reason: outcome.reason ?? 'The destination refused the record.',
          });
      }
    }
    return {
      rows,
      assets: outcomes.flatMap((o) =>
        (o.assets ?? []).map((a) => ({ ...a, sourceId: o.sourceId })),
      ),
    };
  }

  /**
   * Writes with retries. A batch that fails as a whole for a reason other than the store (an
   * answer we do not understand, a bug) is split until the failing records are isolated, so one
   * bad record never stops the others. Store-wide failures stop the run.
   */
  async #writeIsolating(
    entity: EntityType,
    records: AnyRecord[],
    idMap: IdMap,
  ): Promise<WriteOutcome[]> {
    await this.#prepareImport();
    try {
      return await this.#destinationWatch.run(
        () => this.#o.destination.connection.write(entity, records as never[], idMap),
        this.#o.signal,
        (attempt, error) =>
          this.#o.log?.('retrying a batch', { entity, attempt, error: errorText(error) }),
      );
    } catch (error) {
      const storeWide =
        error instanceof ConnectorError &&
        (error.errorClass === 'config' || error.errorClass === 'transient');
      if (storeWide || this.#o.signal?.aborted) throw error;
      if (records.length === 1) {
        const record = records[0] as AnyRecord;
        return [{ sourceId: record.id, outcome: 'failed', reason: errorText(error) }];
      }
      const half = Math.ceil(records.length / 2);
      const first = await this.#writeIsolating(entity, records.slice(0, half), idMap);
      const second = await this.#writeIsolating(entity, records.slice(half), idMap);
      return [...first, ...second];
    }
  }

  async #commit(
    entity: EntityType,
    prepared: PreparedBatch,
    { rows: written, assets }: WrittenBatch,
  ): Promise<void> {
    const o = this.#o;
    const stats = (this.#stats[entity] ??= { total: 0, migrated: 0, skipped: 0, failed: 0 });
    const sent = new Set(prepared.toWrite.map((r) => r.id));
    // A record written earlier in this run and sent again only to link it (relinkProducts) keeps
    // that write's outcome and warnings when the destination had nothing more to change; its
    // content hash, held back until the links were set, is stored now.
    const rows = written.map((row) => {
      const before = prepared.existing.get(row.sourceId);
      return row.outcome === 'skipped' &&
        before?.runId === o.runId &&
        before.outcome === 'migrated' &&
        sent.has(row.sourceId)
        ? { ...row, outcome: 'migrated' as const, reason: before.reason }
        : row;
    });
    for (const row of rows) {
      const before = prepared.existing.get(row.sourceId);
      if (before && before.runId === o.runId) stats[before.outcome as RecordOutcome] -= 1;
      stats[row.outcome] += 1;
      // A new record that did not make it uses none of the paid budget.
      if (
        isPaidEntity(entity) &&
        sent.has(row.sourceId) &&
        !before?.destinationId &&
        !row.destinationId
      ) {
        this.#budgetUsed = Math.max(0, this.#budgetUsed - 1);
      }
    }
    await o.repository.commitBatch({
      migrationId: o.migrationId,
      runId: o.runId,
      entity,
      rows,
      ...(prepared.batch.checkpoint === undefined
        ? {}
        : { checkpoint: { checkpoint: prepared.batch.checkpoint, done: false } }),
      ...(o.demo ? {} : { progress: this.#progressColumns(false) }),
      ...(o.fence ? { fence: o.fence } : {}),
      ...(assets.length ? { assets } : {}),
    });
    this.#lastEntity = entity;
    this.#report();
  }
}
