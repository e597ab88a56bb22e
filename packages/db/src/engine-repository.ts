import { sql, type Selectable, type Transaction, type Updateable } from 'kysely';
import type { Db } from './database.ts';
import { newId } from './migrations-repository.ts';
import type { Database, EngineIdMapTable, EngineRunsTable } from './schema.ts';

export type RecordOutcome = 'migrated' | 'skipped' | 'failed';
export type RunStatus = 'running' | 'completed' | 'failed' | 'payment_required';
export type RunPhase = 'migrate' | 'verify' | 'done';
/**
 * 'migration': the owner's run, which moves the migration through its lifecycle. 'demo': a free
 * demo run of a few records per type before payment, which leaves the migration where it is.
 * 'undo': removes from the destination what the migration created (also leaving it where it is).
 */
export type RunKind = 'migration' | 'demo' | 'undo';

/** What a finished run did to one entity's records. */
export interface RunEntityStats {
  total: number;
  migrated: number;
  skipped: number;
  failed: number;
}

export interface EngineRun {
  id: string;
  migrationId: string;
  kind: RunKind;
  status: RunStatus;
  phase: RunPhase;
  entities: string[];
  startedAt: string;
  finishedAt: string | null;
  errorCode: string | null;
  errorMessage: string | null;
  verification: unknown;
  /** What the destination did to prepare and finish the import (e-mails switched off, ...). */
  notes: string[];
  /** The store the run is waiting for, and when it is probed next; null when none. */
  waiting: RunWaiting | null;
  /** Records done over time: [epoch ms, records done], oldest first. */
  samples: [number, number][];
  /** How its verification compares when set (a finished run verified again: 'full'). */
  verifyMode: 'full' | 'incremental' | null;
  /** The store that set the pace at the last sample (its limit in full use); null: none. */
  limitedBy: 'source' | 'destination' | null;
  /** What the run did per entity, kept when its migrate phase ended; null before. */
  stats: Record<string, RunEntityStats> | null;
  updatedAt: string;
}

/** An asset the migration stored, with the record whose write stored it (null: not known). */
export interface StoredAsset {
  kind: string;
  key: string;
  destinationId: string;
  owner: { entity: string; sourceId: string } | null;
}

/** A record an undo looks at: what the migration created, and what it knows of its copy. */
export interface UndoCandidate {
  sourceId: string;
  destinationId: string;
  /** Field hashes (JSON) of the record as the migration last wrote it (sourceNote), or null. */
  sourceFields: string | null;
  /** The record's report row: what the destination could not hold of it, when it said. */
  reason: string | null;
  /** When the engine last wrote (or linked) the record. */
  writtenAt: string;
}

export type UndoOutcome = 'removed' | 'gone' | 'kept' | 'failed';

/** How one record (entity 'assets': a file or term, source id 'kind:key') ended in an undo. */
export interface UndoRecord {
  entity: string;
  sourceId: string;
  destinationId: string;
  outcome: UndoOutcome;
  reason?: string | null;
  /** A record left in the store: the records it uses ([entity, destination id]), kept with it. */
  refs?: readonly (readonly [string, string])[] | undefined;
}

export interface RunWaiting {
  side: 'source' | 'destination';
  since: string;
  retryAt: string;
  reason: string;
}

export type RunChanges = Partial<
  Pick<
    EngineRun,
    | 'status'
    | 'phase'
    | 'finishedAt'
    | 'errorCode'
    | 'errorMessage'
    | 'verification'
    | 'notes'
    | 'waiting'
    | 'samples'
    | 'verifyMode'
    | 'limitedBy'
    | 'stats'
  >
>;

export interface IdMapEntry {
  entity: string;
  sourceId: string;
  destinationId: string | null;
  contentHash: string | null;
  outcome: RecordOutcome;
  reason: string | null;
  runId: string;
  /**
   * True when the destination record is the merchant's own, which the migration linked to
   * without changing it: later runs leave it alone too.
   */
  linked: boolean;
}

/** Where one migrated record is shown on each storefront (null: the store gives no path). */
export interface StorefrontPath {
  entity: string;
  sourceId: string;
  destinationId: string;
  sourcePath: string | null;
  destinationPath: string | null;
}

/** How one record ended in a batch. A null hash or destination id keeps what was stored. */
export interface OutcomeRow {
  sourceId: string;
  destinationId: string | null;
  contentHash: string | null;
  outcome: RecordOutcome;
  reason: string | null;
  /**
   * Written without part of its content for a reason that may pass (an image the destination
   * could not fetch): the stored content hash is cleared, so the next run writes it again
   * instead of skipping it as unchanged.
   */
  incomplete?: boolean;
  /**
   * Fields of the record the destination could not hold (or the source model could not carry),
   * with the reason; replaces what an earlier run noted for the record. Undefined keeps it.
   */
  differences?: readonly RecordDifference[];
  /**
   * The record's storefront path at the source (products, categories), kept for the redirect
   * map; null when it has none. Undefined keeps what an earlier run noted.
   */
  sourcePath?: string | null;
  /**
   * What the source record looked like when written (field hashes as JSON), for verification
   * without reading the source again; null or undefined keeps what was stored.
   */
  sourceFields?: string | null;
  /** The destination record was created by this write (not found there). Never unset later. */
  created?: boolean;
  /**
   * The destination record is the merchant's own, linked without being changed (the connector's
   * WriteOutcome.linked). Kept once set: no later run changes that record.
   */
  linked?: boolean;
}

export interface RecordDifference {
  field: string;
  reason: string;
}

/** How many records of an entity share one known difference. */
export interface DifferenceSummary {
  entity: string;
  field: string;
  reason: string;
  records: number;
}

export interface StoredCheckpoint {
  checkpoint: string | null;
  done: boolean;
}

/** The progress columns of the migration row that the engine keeps true while it runs. */
export interface MigrationProgressColumns {
  migrationStats: Record<string, { total: number; migrated: number; failed: number }>;
  migratedEntities: number;
  totalEntities: number;
  entityCounts?: Record<string, number>;
}

export interface BatchCommit {
  migrationId: string;
  runId: string;
  entity: string;
  rows: OutcomeRow[];
  /** Where the read stream may resume after this batch; undefined leaves it where it is. */
  checkpoint?: StoredCheckpoint;
  progress?: MigrationProgressColumns;
  /** The job lease under which the batch was written; the commit is refused if it was lost. */
  fence?: LeaseFence;
  /**
   * Shared files (and terms) the batch stored at the destination for the first time, with the
   * source id of the record whose write stored each (of the batch's entity).
   */
  assets?: readonly { kind: string; key: string; destinationId: string; sourceId?: string }[];
}

/**
 * The claim a run's batches are committed under; a commit is refused once it is lost. Either the
 * embedded runner's lease on the `engine_jobs` row (SQLite), or the attempt of a pg-boss job
 * (PostgreSQL): the job must still be active in that attempt (pg-boss counts attempts in
 * `retry_count`), so a worker whose job was failed by the heartbeat monitor, cancelled, or
 * claimed again by another worker cannot commit.
 */
export type LeaseFence = { jobId: string; owner: string } | { jobId: string; queue: QueueClaim };

/** One attempt of a pg-boss job: its schema, queue name, job id and `retry_count`. */
export interface QueueClaim {
  schema: string;
  name: string;
  id: string;
  attempt: number;
}

/** The worker no longer holds the job's lease: another worker took the migration over. */
export class LeaseLostError extends Error {
  constructor(jobId: string) {
    super(`The lease on job ${jobId} was lost to another worker.`);
    this.name = 'LeaseLostError';
  }
}

export interface VerifyRow {
  sourceId: string;
  destinationId: string | null;
  outcome: RecordOutcome;
  reason: string | null;
  verifyFields: string | null;
}

function runFromRow(row: Selectable<EngineRunsTable>): EngineRun {
  return {
    id: row.id,
    migrationId: row.migration_id,
    status: row.status as RunStatus,
    phase: row.phase as RunPhase,
    entities: JSON.parse(row.entities) as string[],
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    errorCode: row.error_code,
    errorMessage: row.error_message,
    verification: row.verification === null ? null : JSON.parse(row.verification),
    notes: row.notes ? (JSON.parse(row.notes) as string[]) : [],
    waiting: row.waiting ? (JSON.parse(row.waiting) as RunWaiting) : null,
    samples: row.samples ? (JSON.parse(row.samples) as [number, number][]) : [],
    verifyMode:
      row.verify_mode === 'full' || row.verify_mode === 'incremental' ? row.verify_mode : null,
    limitedBy:
      row.limited_by === 'source' || row.limited_by === 'destination' ? row.limited_by : null,
    kind: runKindOf(row.kind),
    stats: row.stats ? (JSON.parse(row.stats) as Record<string, RunEntityStats>) : null,
    updatedAt: row.updated_at,
  };
}

function entryFromRow(
  row: Pick<
    Selectable<EngineIdMapTable>,
    | 'entity'
    | 'source_id'
    | 'destination_id'
    | 'content_hash'
    | 'outcome'
    | 'reason'
    | 'run_id'
    | 'linked'
  >,
): IdMapEntry {
  return {
    entity: row.entity,
    sourceId: row.source_id,
    destinationId: row.destination_id,
    contentHash: row.content_hash,
    outcome: row.outcome as RecordOutcome,
    reason: row.reason,
    runId: row.run_id,
    linked: row.linked === 1,
  };
}

function undoCandidateOf(r: {
  source_id: string;
  destination_id: string | null;
  source_fields: string | null;
  reason: string | null;
  updated_at: string;
}): UndoCandidate {
  return {
    sourceId: r.source_id,
    destinationId: r.destination_id ?? '',
    sourceFields: r.source_fields,
    reason: r.reason,
    writtenAt: r.updated_at,
  };
}

function runKindOf(kind: string): RunKind {
  return kind === 'demo' || kind === 'undo' ? kind : 'migration';
}

// Keeps IN lists well under SQLite's and PostgreSQL's bound-parameter limits.
const IN_CHUNK = 500;
const INSERT_CHUNK = 300;

/** One difference per field (the first reason given wins), as the table's key requires. */
function uniqueByField(differences: readonly RecordDifference[]): RecordDifference[] {
  const seen = new Map<string, RecordDifference>();
  for (const d of differences) if (!seen.has(d.field)) seen.set(d.field, d);
  return [...seen.values()];
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * The engine's persistence: runs, id map with per-record outcomes, checkpoints, and the progress
 * columns of the migration row. Not owner-scoped: only the engine and the job runner use it,
 * after the API has checked ownership.
 */
export class EngineRepository {
  readonly #db: Db;
  readonly #now: () => Date;

  constructor(db: Db, now: () => Date = () => new Date()) {
    this.#db = db;
    this.#now = now;
  }

  get #k() {
    return this.#db.kysely;
  }

  #stamp(): string {
    return this.#now().toISOString();
  }

  async createRun(
    migrationId: string,
    entities: readonly string[],
    kind: RunKind = 'migration',
  ): Promise<EngineRun> {
    const now = this.#stamp();
    const row = await this.#k
      .insertInto('engine_runs')
      .values({
        id: newId(),
        migration_id: migrationId,
        kind,
        status: 'running',
        phase: 'migrate',
        entities: JSON.stringify(entities),
        started_at: now,
        finished_at: null,
        error_code: null,
        error_message: null,
        verification: null,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return runFromRow(row);
  }

  async findRun(runId: string): Promise<EngineRun | undefined> {
    const row = await this.#k
      .selectFrom('engine_runs')
      .selectAll()
      .where('id', '=', runId)
      .executeTakeFirst();
    return row ? runFromRow(row) : undefined;
  }

  /**
   * The newest run of a migration of a kind: its own runs by default (the one the API reports
   * on), or its newest demo run.
   */
  async latestRun(
    migrationId: string,
    kind: RunKind = 'migration',
  ): Promise<EngineRun | undefined> {
    const row = await this.#k
      .selectFrom('engine_runs')
      .selectAll()
      .where('migration_id', '=', migrationId)
      .where('kind', '=', kind)
      .orderBy('started_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row ? runFromRow(row) : undefined;
  }

  /** The newest of the migration's own runs that has a verification result. */
  async latestVerifiedRun(migrationId: string): Promise<EngineRun | undefined> {
    const row = await this.#k
      .selectFrom('engine_runs')
      .selectAll()
      .where('migration_id', '=', migrationId)
      .where('kind', '=', 'migration')
      .where('verification', 'is not', null)
      .orderBy('started_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row ? runFromRow(row) : undefined;
  }

  async updateRun(runId: string, changes: RunChanges): Promise<void> {
    const columns: Updateable<EngineRunsTable> = { updated_at: this.#stamp() };
    if (changes.status !== undefined) columns.status = changes.status;
    if (changes.phase !== undefined) columns.phase = changes.phase;
    if (changes.finishedAt !== undefined) columns.finished_at = changes.finishedAt;
    if (changes.errorCode !== undefined) columns.error_code = changes.errorCode;
    if (changes.errorMessage !== undefined) columns.error_message = changes.errorMessage;
    if (changes.verification !== undefined)
      columns.verification =
        changes.verification === null ? null : JSON.stringify(changes.verification);
    if (changes.notes !== undefined) columns.notes = JSON.stringify(changes.notes);
    if (changes.waiting !== undefined)
      columns.waiting = changes.waiting === null ? null : JSON.stringify(changes.waiting);
    if (changes.samples !== undefined) columns.samples = JSON.stringify(changes.samples);
    if (changes.verifyMode !== undefined) columns.verify_mode = changes.verifyMode;
    if (changes.limitedBy !== undefined) columns.limited_by = changes.limitedBy;
    if (changes.stats !== undefined)
      columns.stats = changes.stats === null ? null : JSON.stringify(changes.stats);
    await this.#k.updateTable('engine_runs').set(columns).where('id', '=', runId).execute();
  }

  async checkpoints(runId: string): Promise<Map<string, StoredCheckpoint>> {
    const rows = await this.#k
      .selectFrom('engine_checkpoints')
      .select(['entity', 'checkpoint', 'done'])
      .where('run_id', '=', runId)
      .execute();
    return new Map(
      rows.map((r) => [r.entity, { checkpoint: r.checkpoint, done: Number(r.done) === 1 }]),
    );
  }

  /** Checkpoint alone (a stream that ended without a batch, e.g. an empty store). */
  async saveCheckpoint(
    runId: string,
    entity: string,
    checkpoint: StoredCheckpoint,
    fence?: LeaseFence,
  ): Promise<void> {
    await this.#k.transaction().execute(async (trx) => {
      await this.#fence(trx, fence);
      await this.#upsertCheckpoint(trx, runId, entity, checkpoint);
    });
  }

  /** Id-map rows of the given source ids of one entity. */
  async lookup(
    migrationId: string,
    entity: string,
    sourceIds: readonly string[],
  ): Promise<Map<string, IdMapEntry>> {
    const found = new Map<string, IdMapEntry>();
    for (const part of chunks([...new Set(sourceIds)], IN_CHUNK)) {
      const rows = await this.#k
        .selectFrom('engine_id_map')
        .select([
          'entity',
          'source_id',
          'destination_id',
          'content_hash',
          'outcome',
          'reason',
          'run_id',
          'linked',
        ])
        .where('migration_id', '=', migrationId)
        .where('entity', '=', entity)
        .where('source_id', 'in', part)
        .execute();
      for (const row of rows) found.set(row.source_id, entryFromRow(row));
    }
    return found;
  }

  /**
   * The records of an entity a verification after run `runId` looks at: those the run wrote,
   * and up to `sample` others (written earlier, or found unchanged), picked at random. With
   * their destination ids and what the source looked like when each was written.
   */
  async verificationSet(
    migrationId: string,
    entity: string,
    runId: string,
    sample: number,
  ): Promise<{ sourceId: string; destinationId: string; sourceFields: string | null }[]> {
    const base = () =>
      this.#k
        .selectFrom('engine_id_map')
        .select(['source_id', 'destination_id', 'source_fields'])
        .where('migration_id', '=', migrationId)
        .where('entity', '=', entity)
        .where('destination_id', 'is not', null)
        .where('outcome', '!=', 'failed');
    const written = await base()
      .where('run_id', '=', runId)
      .where('outcome', '=', 'migrated')
      .execute();
    const others =
      sample > 0
        ? await base()
            .where((eb) => eb.or([eb('run_id', '!=', runId), eb('outcome', '!=', 'migrated')]))
            .orderBy(sql`random()`)
            .limit(sample)
            .execute()
        : [];
    return [...written, ...others].map((r) => ({
      sourceId: r.source_id,
      destinationId: r.destination_id ?? '',
      sourceFields: r.source_fields,
    }));
  }

  /** Records of an entity whose last outcome is failed, with the reason (keyset paging). */
  async failedRecords(
    migrationId: string,
    entity: string,
    limit: number,
  ): Promise<{ count: number; examples: { sourceId: string; reason: string | null }[] }> {
    const failed = () =>
      this.#k
        .selectFrom('engine_id_map')
        .where('migration_id', '=', migrationId)
        .where('entity', '=', entity)
        .where('outcome', '=', 'failed');
    const count = await failed()
      .select((eb) => eb.fn.countAll<string | number>().as('count'))
      .executeTakeFirstOrThrow();
    const examples = await failed()
      .select(['source_id', 'reason'])
      .orderBy('source_id')
      .limit(limit)
      .execute();
    return {
      count: Number(count.count),
      examples: examples.map((r) => ({ sourceId: r.source_id, reason: r.reason })),
    };
  }

  /** Source ids of the given destination ids of one entity (the id map read backwards). */
  async sourceIdsOf(
    migrationId: string,
    entity: string,
    destinationIds: readonly string[],
  ): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    for (const part of chunks([...new Set(destinationIds)], IN_CHUNK)) {
      const rows = await this.#k
        .selectFrom('engine_id_map')
        .select(['source_id', 'destination_id'])
        .where('migration_id', '=', migrationId)
        .where('entity', '=', entity)
        .where('destination_id', 'in', part)
        .execute();
      for (const row of rows) if (row.destination_id) found.set(row.destination_id, row.source_id);
    }
    return found;
  }

  /**
   * Records a written batch: its id-map rows, the stream's checkpoint and the migration's
   * progress, in one transaction, so a crash leaves either all of it or none.
   */
  async commitBatch(commit: BatchCommit): Promise<void> {
    const now = this.#stamp();
    await this.#k.transaction().execute(async (trx) => {
      await this.#fence(trx, commit.fence);
      const complete = commit.rows.filter((r) => !r.incomplete);
      const incomplete = commit.rows.filter((r) => r.incomplete);
      for (const part of chunks(complete, INSERT_CHUNK)) {
        await trx
          .insertInto('engine_id_map')
          .values(
            part.map((r) => ({
              migration_id: commit.migrationId,
              entity: commit.entity,
              source_id: r.sourceId,
              destination_id: r.destinationId,
              content_hash: r.contentHash,
              outcome: r.outcome,
              reason: r.reason,
              run_id: commit.runId,
              updated_at: now,
              verify_fields: null,
              source_fields: r.sourceFields ?? null,
              created: r.created ? 1 : 0,
              source_path: r.sourcePath ?? null,
              linked: r.linked ? 1 : 0,
            })),
          )
          .onConflict((oc) =>
            oc.columns(['migration_id', 'entity', 'source_id']).doUpdateSet((eb) => ({
              destination_id: sql<
                string | null
              >`coalesce(excluded.destination_id, engine_id_map.destination_id)`,
              content_hash: sql<
                string | null
              >`coalesce(excluded.content_hash, engine_id_map.content_hash)`,
              outcome: eb.ref('excluded.outcome'),
              reason: eb.ref('excluded.reason'),
              run_id: eb.ref('excluded.run_id'),
              updated_at: eb.ref('excluded.updated_at'),
              source_fields: sql<
                string | null
              >`coalesce(excluded.source_fields, engine_id_map.source_fields)`,
              created: sql<number>`case when excluded.created = 1 then 1 else engine_id_map.created end`,
              source_path: sql<
                string | null
              >`coalesce(excluded.source_path, engine_id_map.source_path)`,
              linked: sql<number>`case when excluded.linked = 1 then 1 else engine_id_map.linked end`,
            })),
          )
          .execute();
      }
      // The same, except that the content hash is cleared rather than kept.
      for (const part of chunks(incomplete, INSERT_CHUNK)) {
        await trx
          .insertInto('engine_id_map')
          .values(
            part.map((r) => ({
              migration_id: commit.migrationId,
              entity: commit.entity,
              source_id: r.sourceId,
              destination_id: r.destinationId,
              content_hash: null,
              outcome: r.outcome,
              reason: r.reason,
              run_id: commit.runId,
              updated_at: now,
              verify_fields: null,
              source_fields: r.sourceFields ?? null,
              created: r.created ? 1 : 0,
              source_path: r.sourcePath ?? null,
              linked: r.linked ? 1 : 0,
            })),
          )
          .onConflict((oc) =>
            oc.columns(['migration_id', 'entity', 'source_id']).doUpdateSet((eb) => ({
              destination_id: sql<
                string | null
              >`coalesce(excluded.destination_id, engine_id_map.destination_id)`,
              content_hash: null,
              outcome: eb.ref('excluded.outcome'),
              reason: eb.ref('excluded.reason'),
              run_id: eb.ref('excluded.run_id'),
              updated_at: eb.ref('excluded.updated_at'),
              source_fields: sql<
                string | null
              >`coalesce(excluded.source_fields, engine_id_map.source_fields)`,
              created: sql<number>`case when excluded.created = 1 then 1 else engine_id_map.created end`,
              source_path: sql<
                string | null
              >`coalesce(excluded.source_path, engine_id_map.source_path)`,
              linked: sql<number>`case when excluded.linked = 1 then 1 else engine_id_map.linked end`,
            })),
          )
          .execute();
      }
      const noted = commit.rows.filter((r) => r.differences !== undefined);
      for (const part of chunks(noted, IN_CHUNK)) {
        await trx
          .deleteFrom('engine_record_differences')
          .where('migration_id', '=', commit.migrationId)
          .where('entity', '=', commit.entity)
          .where(
            'source_id',
            'in',
            part.map((r) => r.sourceId),
          )
          .execute();
      }
      const differences = noted.flatMap((r) =>
        uniqueByField(r.differences ?? []).map((d) => ({
          migration_id: commit.migrationId,
          entity: commit.entity,
          source_id: r.sourceId,
          field: d.field,
          reason: d.reason,
        })),
      );
      for (const part of chunks(differences, INSERT_CHUNK)) {
        await trx.insertInto('engine_record_differences').values(part).execute();
      }
      for (const part of chunks(commit.assets ?? [], INSERT_CHUNK)) {
        await trx
          .insertInto('engine_assets')
          .values(
            part.map((a) => ({
              migration_id: commit.migrationId,
              kind: a.kind,
              source_key: a.key,
              destination_id: a.destinationId,
              owner_entity: a.sourceId ? commit.entity : null,
              owner_id: a.sourceId ?? null,
              updated_at: now,
            })),
          )
          .onConflict((oc) =>
            oc.columns(['migration_id', 'kind', 'source_key']).doUpdateSet((eb) => ({
              destination_id: eb.ref('excluded.destination_id'),
              updated_at: eb.ref('excluded.updated_at'),
            })),
          )
          .execute();
      }
      if (commit.checkpoint)
        await this.#upsertCheckpoint(trx, commit.runId, commit.entity, commit.checkpoint);
      if (commit.progress) await this.#writeProgress(trx, commit.migrationId, commit.progress, now);
    });
  }

  /** The destination's copies of shared files, by their identity at the source. */
  async assets(
    migrationId: string,
    kind: string,
    keys: readonly string[],
  ): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    for (const part of chunks([...new Set(keys)], IN_CHUNK)) {
      const rows = await this.#k
        .selectFrom('engine_assets')
        .select(['source_key', 'destination_id'])
        .where('migration_id', '=', migrationId)
        .where('kind', '=', kind)
        .where('source_key', 'in', part)
        .execute();
      for (const row of rows) found.set(row.source_key, row.destination_id);
    }
    return found;
  }

  /** Keeps assets stored outside a batch (redirects written after a run), replacing any of a key. */
  async saveAssets(
    migrationId: string,
    assets: readonly { kind: string; key: string; destinationId: string }[],
  ): Promise<void> {
    const now = this.#stamp();
    for (const part of chunks(assets, INSERT_CHUNK))
      await this.#k
        .insertInto('engine_assets')
        .values(
          part.map((a) => ({
            migration_id: migrationId,
            kind: a.kind,
            source_key: a.key,
            destination_id: a.destinationId,
            updated_at: now,
          })),
        )
        .onConflict((oc) =>
          oc.columns(['migration_id', 'kind', 'source_key']).doUpdateSet((eb) => ({
            destination_id: eb.ref('excluded.destination_id'),
            updated_at: eb.ref('excluded.updated_at'),
          })),
        )
        .execute();
  }

  /** Forgets assets (removed from the destination). */
  async deleteAssets(migrationId: string, kind: string, keys: readonly string[]): Promise<void> {
    for (const part of chunks([...new Set(keys)], IN_CHUNK))
      await this.#k
        .deleteFrom('engine_assets')
        .where('migration_id', '=', migrationId)
        .where('kind', '=', kind)
        .where('source_key', 'in', part)
        .execute();
  }

  /** Known differences of these records, by source id. */
  async differencesOf(
    migrationId: string,
    entity: string,
    sourceIds: readonly string[],
  ): Promise<Map<string, RecordDifference[]>> {
    const found = new Map<string, RecordDifference[]>();
    for (const part of chunks([...new Set(sourceIds)], IN_CHUNK)) {
      const rows = await this.#k
        .selectFrom('engine_record_differences')
        .select(['source_id', 'field', 'reason'])
        .where('migration_id', '=', migrationId)
        .where('entity', '=', entity)
        .where('source_id', 'in', part)
        .orderBy('field')
        .execute();
      for (const row of rows) {
        const list = found.get(row.source_id) ?? [];
        list.push({ field: row.field, reason: row.reason });
        found.set(row.source_id, list);
      }
    }
    return found;
  }

  /**
   * Known differences of the migration's records that reached the destination, counted by
   * entity, field and reason (the detail page's list), most frequent first.
   */
  async differenceSummary(migrationId: string): Promise<DifferenceSummary[]> {
    const rows = await this.#k
      .selectFrom('engine_record_differences as d')
      .innerJoin('engine_id_map as m', (join) =>
        join
          .onRef('m.migration_id', '=', 'd.migration_id')
          .onRef('m.entity', '=', 'd.entity')
          .onRef('m.source_id', '=', 'd.source_id'),
      )
      .select([
        'd.entity',
        'd.field',
        'd.reason',
        (eb) => eb.fn.countAll<string | number>().as('records'),
      ])
      .where('d.migration_id', '=', migrationId)
      .where('m.destination_id', 'is not', null)
      .groupBy(['d.entity', 'd.field', 'd.reason'])
      .execute();
    return rows
      .map((r) => ({
        entity: r.entity,
        field: r.field,
        reason: r.reason,
        records: Number(r.records),
      }))
      .sort(
        (a, b) =>
          b.records - a.records ||
          a.entity.localeCompare(b.entity) ||
          a.field.localeCompare(b.field),
      );
  }

  /** Outcomes of one run so far, by entity and outcome (a resumed run starts from these). */
  async runCounts(
    migrationId: string,
    runId: string,
  ): Promise<{ entity: string; outcome: RecordOutcome; count: number }[]> {
    const rows = await this.#k
      .selectFrom('engine_id_map')
      .select(['entity', 'outcome', (eb) => eb.fn.countAll<string | number>().as('count')])
      .where('migration_id', '=', migrationId)
      .where('run_id', '=', runId)
      .groupBy(['entity', 'outcome'])
      .execute();
    return rows.map((r) => ({
      entity: r.entity,
      outcome: r.outcome as RecordOutcome,
      count: Number(r.count),
    }));
  }

  /** The records a run touched last (at most `limit`, by entity and source id). */
  async runRecords(
    migrationId: string,
    runId: string,
    limit: number,
  ): Promise<
    {
      entity: string;
      sourceId: string;
      destinationId: string | null;
      outcome: RecordOutcome;
      reason: string | null;
    }[]
  > {
    const rows = await this.#k
      .selectFrom('engine_id_map')
      .select(['entity', 'source_id', 'destination_id', 'outcome', 'reason'])
      .where('migration_id', '=', migrationId)
      .where('run_id', '=', runId)
      .orderBy('entity')
      .orderBy('source_id')
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      entity: r.entity,
      sourceId: r.source_id,
      destinationId: r.destination_id,
      outcome: r.outcome as RecordOutcome,
      reason: r.reason,
    }));
  }

  /** Source records of these entities that have ever reached the destination. */
  async migratedCount(migrationId: string, entities: readonly string[]): Promise<number> {
    if (entities.length === 0) return 0;
    const row = await this.#k
      .selectFrom('engine_id_map')
      .select((eb) => eb.fn.countAll<string | number>().as('count'))
      .where('migration_id', '=', migrationId)
      .where('entity', 'in', [...entities])
      .where('destination_id', 'is not', null)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /** One page of an entity's id map in source-id order (keyset paging, for reports). */
  async idMapPage(
    migrationId: string,
    entity: string,
    afterSourceId: string | null,
    limit: number,
  ): Promise<(IdMapEntry & { verifyFields: string | null })[]> {
    let query = this.#k
      .selectFrom('engine_id_map')
      .select([
        'entity',
        'source_id',
        'destination_id',
        'content_hash',
        'outcome',
        'reason',
        'run_id',
        'linked',
        'verify_fields',
      ])
      .where('migration_id', '=', migrationId)
      .where('entity', '=', entity);
    if (afterSourceId !== null) query = query.where('source_id', '>', afterSourceId);
    const rows = await query.orderBy('source_id').limit(limit).execute();
    return rows.map((r) => ({ ...entryFromRow(r), verifyFields: r.verify_fields }));
  }

  /** Entities that have id-map rows for a migration. */
  async mappedEntities(migrationId: string): Promise<string[]> {
    const rows = await this.#k
      .selectFrom('engine_id_map')
      .select('entity')
      .distinct()
      .where('migration_id', '=', migrationId)
      .execute();
    return rows.map((r) => r.entity);
  }

  async clearVerifyFields(migrationId: string): Promise<void> {
    await this.#k
      .updateTable('engine_id_map')
      .set({ verify_fields: null })
      .where('migration_id', '=', migrationId)
      .where('verify_fields', 'is not', null)
      .execute();
  }

  /** Stores what the verification pass saw at the destination, by source id. */
  async setVerifyFields(
    migrationId: string,
    entity: string,
    rows: readonly { sourceId: string; fields: string }[],
  ): Promise<void> {
    await this.#setPerRecord(
      migrationId,
      entity,
      rows.map((r) => ({ sourceId: r.sourceId, set: { verify_fields: r.fields } })),
    );
  }

  /** Sets columns of id-map rows, by source id, in one transaction. */
  async #setPerRecord(
    migrationId: string,
    entity: string,
    rows: readonly {
      sourceId: string;
      set: { verify_fields?: string } | { destination_path?: string | null };
    }[],
  ): Promise<void> {
    if (rows.length === 0) return;
    await this.#k.transaction().execute(async (trx) => {
      for (const row of rows) {
        await trx
          .updateTable('engine_id_map')
          .set(row.set)
          .where('migration_id', '=', migrationId)
          .where('entity', '=', entity)
          .where('source_id', '=', row.sourceId)
          .execute();
      }
    });
  }

  /** Stores the storefront paths the verification pass read at the destination, by source id. */
  async setDestinationPaths(
    migrationId: string,
    entity: string,
    rows: readonly { sourceId: string; path: string | null }[],
  ): Promise<void> {
    await this.#setPerRecord(
      migrationId,
      entity,
      rows.map((r) => ({ sourceId: r.sourceId, set: { destination_path: r.path } })),
    );
  }

  /**
   * The storefront paths of a migration's records that are at the destination (entities given,
   * e.g. categories and products), in id-map order, a page at a time after `after`.
   */
  async storefrontPaths(
    migrationId: string,
    entities: readonly string[],
    after: { entity: string; sourceId: string } | null,
    limit: number,
  ): Promise<StorefrontPath[]> {
    if (entities.length === 0) return [];
    let query = this.#k
      .selectFrom('engine_id_map')
      .select(['entity', 'source_id', 'destination_id', 'source_path', 'destination_path'])
      .where('migration_id', '=', migrationId)
      .where('entity', 'in', [...entities])
      .where('destination_id', 'is not', null);
    if (after)
      query = query.where((eb) =>
        eb.or([
          eb('entity', '>', after.entity),
          eb.and([eb('entity', '=', after.entity), eb('source_id', '>', after.sourceId)]),
        ]),
      );
    const rows = await query.orderBy('entity').orderBy('source_id').limit(limit).execute();
    return rows.map((r) => ({
      entity: r.entity,
      sourceId: r.source_id,
      destinationId: r.destination_id ?? '',
      sourcePath: r.source_path,
      destinationPath: r.destination_path,
    }));
  }

  /** What the verification pass noted at the destination, by source id. */
  async verifyNotes(
    migrationId: string,
    entity: string,
    sourceIds: readonly string[],
  ): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    for (const part of chunks([...new Set(sourceIds)], IN_CHUNK)) {
      const rows = await this.#k
        .selectFrom('engine_id_map')
        .select(['source_id', 'verify_fields'])
        .where('migration_id', '=', migrationId)
        .where('entity', '=', entity)
        .where('source_id', 'in', part)
        .where('verify_fields', 'is not', null)
        .execute();
      for (const row of rows) if (row.verify_fields) found.set(row.source_id, row.verify_fields);
    }
    return found;
  }

  /**
   * Records this migration created at the destination (and that are not the merchant's) which an
   * undo run has not looked at yet, in source-id order after `after`; with the field hashes of
   * what was written, its report row, and when the row was last written.
   */
  async undoCandidates(
    migrationId: string,
    entity: string,
    runId: string,
    after: string | null,
    limit: number,
  ): Promise<UndoCandidate[]> {
    let query = this.#undoCandidateQuery(migrationId, entity, runId).where(
      'm.destination_id',
      'is not',
      null,
    );
    if (after !== null) query = query.where('m.source_id', '>', after);
    return (await query.orderBy('m.source_id').limit(limit).execute()).map(undoCandidateOf);
  }

  /** Of these destination ids, the undo candidates (see undoCandidates) they belong to. */
  async undoCandidatesAmong(
    migrationId: string,
    entity: string,
    runId: string,
    destinationIds: readonly string[],
  ): Promise<UndoCandidate[]> {
    const found: UndoCandidate[] = [];
    for (const part of chunks([...new Set(destinationIds)], IN_CHUNK)) {
      const rows = await this.#undoCandidateQuery(migrationId, entity, runId)
        .where('m.destination_id', 'in', part)
        .execute();
      found.push(...rows.map(undoCandidateOf));
    }
    return found;
  }

  /** Id-map rows the migration created, not the merchant's, that the undo run has no record of. */
  #undoCandidateQuery(migrationId: string, entity: string, runId: string) {
    return this.#k
      .selectFrom('engine_id_map as m')
      .select(['m.source_id', 'm.destination_id', 'm.source_fields', 'm.reason', 'm.updated_at'])
      .where('m.migration_id', '=', migrationId)
      .where('m.entity', '=', entity)
      .where('m.created', '=', 1)
      .where('m.linked', '=', 0)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('engine_undo_records as u')
              .select('u.source_id')
              .where('u.run_id', '=', runId)
              .whereRef('u.entity', '=', 'm.entity')
              .whereRef('u.source_id', '=', 'm.source_id'),
          ),
        ),
      );
  }

  /** Records per entity an undo would look at: created by the migration, not the merchant's. */
  async undoTotals(migrationId: string): Promise<Record<string, number>> {
    const rows = await this.#k
      .selectFrom('engine_id_map')
      .select(['entity', (eb) => eb.fn.countAll<number | string>().as('count')])
      .where('migration_id', '=', migrationId)
      .where('created', '=', 1)
      .where('linked', '=', 0)
      .where('destination_id', 'is not', null)
      .groupBy('entity')
      .execute();
    return Object.fromEntries(rows.map((r) => [r.entity, Number(r.count)]));
  }

  /**
   * Every asset (file, term, redirect) the migration stored at the destination, with the record
   * whose write stored it where that is known.
   */
  async allAssets(migrationId: string): Promise<StoredAsset[]> {
    const rows = await this.#k
      .selectFrom('engine_assets')
      .select(['kind', 'source_key', 'destination_id', 'owner_entity', 'owner_id'])
      .where('migration_id', '=', migrationId)
      .orderBy('kind')
      .orderBy('source_key')
      .execute();
    return rows.map((r) => ({
      kind: r.kind,
      key: r.source_key,
      destinationId: r.destination_id,
      owner: r.owner_entity && r.owner_id ? { entity: r.owner_entity, sourceId: r.owner_id } : null,
    }));
  }

  /** Keeps how records of an undo run ended, under the run's lease. */
  async recordUndo(
    migrationId: string,
    runId: string,
    rows: readonly UndoRecord[],
    fence?: LeaseFence,
  ): Promise<void> {
    if (!rows.length) return;
    const now = this.#stamp();
    await this.#k.transaction().execute(async (trx) => {
      await this.#fence(trx, fence);
      for (const part of chunks(rows, INSERT_CHUNK))
        await trx
          .insertInto('engine_undo_records')
          .values(
            part.map((r) => ({
              migration_id: migrationId,
              run_id: runId,
              entity: r.entity,
              source_id: r.sourceId,
              destination_id: r.destinationId,
              outcome: r.outcome,
              reason: r.reason ?? null,
              refs: r.refs?.length ? JSON.stringify(r.refs) : null,
              updated_at: now,
            })),
          )
          .onConflict((oc) =>
            oc.columns(['run_id', 'entity', 'source_id']).doUpdateSet((eb) => ({
              outcome: eb.ref('excluded.outcome'),
              reason: eb.ref('excluded.reason'),
              refs: eb.ref('excluded.refs'),
              updated_at: eb.ref('excluded.updated_at'),
            })),
          )
          .execute();
    });
  }

  /** How many records of each entity ended how in an undo run. */
  async undoCounts(
    runId: string,
  ): Promise<{ entity: string; outcome: UndoOutcome; count: number }[]> {
    const rows = await this.#k
      .selectFrom('engine_undo_records')
      .select(['entity', 'outcome', (eb) => eb.fn.countAll<number | string>().as('count')])
      .where('run_id', '=', runId)
      .groupBy(['entity', 'outcome'])
      .execute();
    return rows.map((r) => ({
      entity: r.entity,
      outcome: r.outcome as UndoOutcome,
      count: Number(r.count),
    }));
  }

  /** The records of an undo run, the ones that were not removed first; at most `limit`. */
  async undoRecords(runId: string, limit?: number): Promise<UndoRecord[]> {
    let query = this.#k
      .selectFrom('engine_undo_records')
      .select(['entity', 'source_id', 'destination_id', 'outcome', 'reason', 'refs'])
      .where('run_id', '=', runId)
      .orderBy(
        sql`case outcome when 'failed' then 0 when 'kept' then 1 when 'gone' then 2 else 3 end`,
      )
      .orderBy('entity')
      .orderBy('source_id');
    if (limit !== undefined) query = query.limit(limit);
    const rows = await query.execute();
    return rows.map((r) => ({
      entity: r.entity,
      sourceId: r.source_id,
      destinationId: r.destination_id,
      outcome: r.outcome as UndoOutcome,
      reason: r.reason,
      ...(r.refs ? { refs: JSON.parse(r.refs) as [string, string][] } : {}),
    }));
  }

  /**
   * Ends an undo run in the id map, in one transaction: records removed (or found gone) leave the
   * id map, with their noted differences, so a later migration creates them afresh; records kept
   * because the owner changed them become the owner's (linked: no run changes them again); assets
   * removed leave the asset list. Failed ones stay, for another undo.
   */
  async settleUndo(migrationId: string, runId: string, fence?: LeaseFence): Promise<void> {
    await this.#k.transaction().execute(async (trx) => {
      await this.#fence(trx, fence);
      for (const table of ['engine_id_map', 'engine_record_differences'] as const)
        await trx
          .deleteFrom(table)
          .where('migration_id', '=', migrationId)
          .where(({ exists, selectFrom }) =>
            exists(
              selectFrom('engine_undo_records as u')
                .select('u.source_id')
                .where('u.run_id', '=', runId)
                .where('u.outcome', 'in', ['removed', 'gone'])
                .whereRef('u.entity', '=', sql.ref(`${table}.entity`))
                .whereRef('u.source_id', '=', sql.ref(`${table}.source_id`)),
            ),
          )
          .execute();
      await trx
        .updateTable('engine_id_map')
        .set({ linked: 1 })
        .where('migration_id', '=', migrationId)
        .where(({ exists, selectFrom }) =>
          exists(
            selectFrom('engine_undo_records as u')
              .select('u.source_id')
              .where('u.run_id', '=', runId)
              .where('u.outcome', '=', 'kept')
              .whereRef('u.entity', '=', sql.ref('engine_id_map.entity'))
              .whereRef('u.source_id', '=', sql.ref('engine_id_map.source_id')),
          ),
        )
        .execute();
      const assets = await trx
        .selectFrom('engine_undo_records')
        .select('source_id')
        .where('run_id', '=', runId)
        .where('entity', '=', 'assets')
        .where('outcome', 'in', ['removed', 'gone'])
        .execute();
      for (const { source_id: key } of assets) {
        const at = key.indexOf(':');
        await trx
          .deleteFrom('engine_assets')
          .where('migration_id', '=', migrationId)
          .where('kind', '=', key.slice(0, at))
          .where('source_key', '=', key.slice(at + 1))
          .execute();
      }
    });
  }

  /** Writes the progress columns of the migration row (not its version: the owner may edit). */
  async writeProgress(migrationId: string, progress: MigrationProgressColumns): Promise<void> {
    await this.#writeProgress(this.#k, migrationId, progress, this.#stamp());
  }

  /**
   * Moves the migration's status and step (bumping its version, so a stale edit of the owner
   * cannot undo it). `from` makes the change conditional on the current status.
   */
  async setLifecycle(
    migrationId: string,
    change: { status: string; currentStep?: number; completedAt?: string | null },
    from?: readonly string[],
  ): Promise<boolean> {
    let query = this.#k
      .updateTable('migrations')
      .set({
        status: change.status,
        ...(change.currentStep === undefined ? {} : { current_step: change.currentStep }),
        ...(change.completedAt === undefined ? {} : { completed_at: change.completedAt }),
        last_updated: this.#stamp(),
        version: (eb) => eb('version', '+', 1),
      })
      .where('id', '=', migrationId);
    if (from) query = query.where('status', 'in', [...from]);
    const result = await query.executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** The owner of a migration, for the runner (jobs carry it too). */
  async ownerOf(migrationId: string): Promise<string | undefined> {
    const row = await this.#k
      .selectFrom('migrations')
      .select('user_id')
      .where('id', '=', migrationId)
      .executeTakeFirst();
    return row?.user_id;
  }

  async #fence(trx: Transaction<Database>, fence: LeaseFence | undefined): Promise<void> {
    if (!fence) return;
    if ('queue' in fence) {
      // A shared row lock until this transaction ends: pg-boss's heartbeat monitor, a cancel or a
      // new claim must wait for this commit, and after them the check fails.
      const { schema, name, id, attempt } = fence.queue;
      const held = await sql<{ held: number }>`select 1 as held from ${sql.table(`${schema}.job`)}
        where name = ${name} and id = ${id}::uuid and state = 'active' and retry_count = ${attempt}
        for share`.execute(trx);
      if (held.rows.length === 0) throw new LeaseLostError(fence.jobId);
      return;
    }
    const result = await trx
      .updateTable('engine_jobs')
      .set({ updated_at: this.#stamp() })
      .where('id', '=', fence.jobId)
      .where('lease_owner', '=', fence.owner)
      .where('state', '=', 'running')
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) throw new LeaseLostError(fence.jobId);
  }

  async #upsertCheckpoint(
    trx: Transaction<Database>,
    runId: string,
    entity: string,
    checkpoint: StoredCheckpoint,
  ): Promise<void> {
    const now = this.#stamp();
    await trx
      .insertInto('engine_checkpoints')
      .values({
        run_id: runId,
        entity,
        checkpoint: checkpoint.checkpoint,
        done: checkpoint.done ? 1 : 0,
        updated_at: now,
      })
      .onConflict((oc) =>
        oc.columns(['run_id', 'entity']).doUpdateSet((eb) => ({
          checkpoint: eb.ref('excluded.checkpoint'),
          done: eb.ref('excluded.done'),
          updated_at: eb.ref('excluded.updated_at'),
        })),
      )
      .execute();
  }

  async #writeProgress(
    executor: Transaction<Database> | Db['kysely'],
    migrationId: string,
    progress: MigrationProgressColumns,
    now: string,
  ): Promise<void> {
    await executor
      .updateTable('migrations')
      .set({
        migration_stats: JSON.stringify(progress.migrationStats),
        migrated_entities: progress.migratedEntities,
        total_entities: progress.totalEntities,
        ...(progress.entityCounts ? { entity_counts: JSON.stringify(progress.entityCounts) } : {}),
        last_updated: now,
      })
      .where('id', '=', migrationId)
      .execute();
  }
}
