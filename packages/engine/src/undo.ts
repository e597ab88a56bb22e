import { entityTypes, type EntityRecord, type EntityType } from '@replatform/canonical/entities';
import type { AssetRecord, RemoveOutcome } from '@replatform/connectors/kit/contract';
import type {
  EngineRepository,
  EngineRun,
  LeaseFence,
  UndoCandidate,
  UndoOutcome,
  UndoRecord,
} from '@replatform/db/engine-repository';
import { stringify } from 'csv-stringify';
import { pipeline, Readable } from 'node:stream';
import { EngineError, fatalError } from './errors.ts';
import type { StoreSide } from './migrate.ts';
import { readPages } from './read-pages.ts';
import { references } from './references.ts';
import { singular } from './report.ts';
import { defaultRetryPolicy, StoreWatch, type RetryPolicy, type StoreOutage } from './retry.ts';
import { destinationNotes, differingFields, ignoredFields, namesField } from './verification.ts';

export interface UndoOptions {
  repository: EngineRepository;
  migrationId: string;
  destination: StoreSide;
  signal?: AbortSignal | undefined;
  /** The job lease the undo runs under; nothing is recorded once it is lost. */
  fence?: LeaseFence | undefined;
  retry?: RetryPolicy | undefined;
  /** Records handed to one remove() call at most (default 50). */
  batchSize?: number | undefined;
  /**
   * How long after the engine wrote a record a destination's own time of change still counts as
   * that write (the store stamps it while answering; default 2 minutes).
   */
  writeSlackMs?: number | undefined;
  onProgress?: ((counts: UndoCounts) => void) | undefined;
  /** Told when the undo starts waiting for the destination, and `null` once it answers again. */
  onOutage?: ((outage: StoreOutage | null) => void) | undefined;
  log?: ((message: string, fields?: Record<string, unknown>) => void) | undefined;
  now?: () => Date;
}

export type UndoCounts = Record<string, Record<UndoOutcome, number>>;

export interface UndoResult {
  runId: string;
  status: 'completed' | 'failed' | 'interrupted';
  code?: string;
  message?: string;
  counts: UndoCounts;
}

const GONE = 'Already gone from your store.';
const usedBy = (user: string) => `Kept: the ${user} that stays in your store uses it.`;

/** The entity name undo records of files and terms are kept under. */
export const ASSETS = 'assets';

/** Entities whose records form a tree through parentId: children are removed before parents. */
const trees: readonly EntityType[] = ['categories', 'pages'];

/** Entities whose records show images the migration stored (a kept one may still show them). */
const showImages: readonly EntityType[] = ['categories', 'brands', 'products', 'pages', 'posts'];

class Interrupted extends Error {}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Deepest first: a record's depth is the length of its parent chain among `parents`. */
function deepestFirst(ids: readonly string[], parents: Map<string, string | null>): string[] {
  const depth = new Map<string, number>();
  const depthOf = (id: string, seen = new Set<string>()): number => {
    const known = depth.get(id);
    if (known !== undefined) return known;
    const parent = parents.get(id);
    const d =
      parent && parents.has(parent) && !seen.has(parent) ? depthOf(parent, seen.add(id)) + 1 : 0;
    depth.set(id, d);
    return d;
  };
  return [...ids].sort((a, b) => depthOf(b) - depthOf(a));
}

/**
 * Undoes a migration at the destination: removes exactly the records it created (the id map's
 * rows it created and did not link to the merchant's own), never one the owner changed since it
 * was written (its copy differs from the note kept when it was written, or the store's time of
 * change is later than the write) — those are kept, named with the fields that changed, and
 * become the owner's, with what they use. Records go in reverse dependency order (reviews and
 * orders first, a child category before its parent), then the files, terms and redirects stored
 * only for them. Every record's
 * outcome is kept as it happens, so an interrupted undo carries on where it stopped; at the end
 * the id map forgets what was removed, so a later migration writes it afresh.
 */
export async function executeUndo(options: UndoOptions): Promise<UndoResult> {
  const { repository, migrationId, destination } = options;
  const now = options.now ?? (() => new Date());
  const retry = options.retry ?? defaultRetryPolicy;
  const batchSize = options.batchSize ?? 50;
  const slack = options.writeSlackMs ?? 2 * 60_000;
  const connection = destination.connection;
  // A transient failure of the store outlasting the connector's own retries is waited out, as in
  // a migration; each remove() is safe to repeat (a record already removed answers 'gone').
  const watch = new StoreWatch('destination', retry, options.onOutage);
  const withStoreRetry = <T>(call: () => Promise<T>) => watch.run(call, options.signal);
  const capabilities = destination.capabilities;

  let run: EngineRun | undefined = await repository.latestRun(migrationId, 'undo');
  if (!run || run.phase === 'done') {
    const totals = await repository.undoTotals(migrationId);
    const entities = [...entityTypes].reverse().filter((e) => (totals[e] ?? 0) > 0);
    run = await repository.createRun(migrationId, entities, 'undo');
  }
  const runId = run.id;
  const counts: UndoCounts = {};
  const tally = (entity: string, outcome: UndoOutcome, n = 1) => {
    (counts[entity] ??= { removed: 0, gone: 0, kept: 0, failed: 0 })[outcome] += n;
  };
  for (const row of await repository.undoCounts(runId)) tally(row.entity, row.outcome, row.count);
  /**
   * Records a record left in the store uses ('categories:12' -> 'product 128'): they stay too, so
   * nothing left loses its category, customer or parent. Kept on the records themselves (refs), so
   * a resumed undo knows them.
   */
  const needed = new Map<string, string>();
  const hold = (
    entity: string,
    destinationId: string,
    refs: readonly (readonly [string, string])[] | undefined,
  ) => {
    for (const [e, id] of refs ?? [])
      if (!needed.has(`${e}:${id}`))
        needed.set(`${e}:${id}`, `${singular[entity] ?? entity} ${destinationId}`);
  };
  for (const row of await repository.undoRecords(runId))
    if (row.outcome === 'kept' || row.outcome === 'failed')
      hold(row.entity, row.destinationId, row.refs);

  const record = async (rows: UndoRecord[]) => {
    if (options.signal?.aborted) throw new Interrupted();
    await repository.recordUndo(migrationId, runId, rows, options.fence);
    for (const row of rows) tally(row.entity, row.outcome);
    options.onProgress?.(counts);
  };

  // The comparison's view of the run that wrote the records: the fields it left out.
  const lastRun = await repository.latestRun(migrationId);
  const streams = (lastRun?.entities ?? run.entities) as EntityType[];

  /**
   * Why a record the migration created is kept instead of removed, or null to remove it: its copy
   * now differs from what the migration wrote (compared as a verification compares, field by
   * field, leaving out what the destination could not hold as written, which its report row or
   * noted differences name), or, where nothing was noted, the store changed it after the write.
   */
  const changes = async (
    entity: EntityType,
    found: { candidate: UndoCandidate; record: EntityRecord[EntityType] }[],
  ): Promise<Map<string, string | null>> => {
    const why = new Map<string, string | null>();
    const noted = found.filter((f) => f.candidate.sourceFields);
    const notes = noted.length
      ? await destinationNotes(
          repository,
          migrationId,
          entity,
          noted.map((f) => f.record),
          ignoredFields(entity, streams, destination),
          destination,
          { keepPaths: false },
        )
      : new Map<string, Record<string, string>>();
    const known = noted.length
      ? await repository.differencesOf(
          migrationId,
          entity,
          noted.map((f) => f.candidate.sourceId),
        )
      : new Map<string, { field: string }[]>();
    for (const { candidate, record } of found) {
      if (candidate.sourceFields) {
        const written = JSON.parse(candidate.sourceFields) as Record<string, string>;
        const lost = (known.get(candidate.sourceId) ?? []).map((d) => d.field.split('.')[0]);
        const fields = differingFields(entity, written, notes.get(candidate.sourceId) ?? {}).filter(
          (field) => !lost.includes(field) && !namesField(candidate.reason, field),
        );
        why.set(
          candidate.sourceId,
          fields.length
            ? `Kept: changed in your store since the migration wrote it (${fields.join(', ')}).`
            : null,
        );
        continue;
      }
      const changedAt = (record as { updatedAt?: string | null }).updatedAt;
      const later =
        changedAt && Date.parse(changedAt) > Date.parse(candidate.writtenAt) + slack
          ? changedAt
          : null;
      why.set(
        candidate.sourceId,
        later
          ? `Kept: changed in your store on ${new Date(later).toUTCString()}, after the migration wrote it.`
          : null,
      );
    }
    return why;
  };

  /** Removes records in order, a batch at a time, keeping each outcome as it comes. */
  const removeAll = async (
    entity: EntityType,
    victims: { sourceId: string; destinationId: string; refs: [EntityType, string][] }[],
  ) => {
    for (let i = 0; i < victims.length; i += batchSize) {
      const part = victims.slice(i, i + batchSize);
      const outcomes = await withStoreRetry(() =>
        connection.remove!(
          entity,
          part.map((v) => v.destinationId),
        ),
      );
      await record(
        part.map((v, j) => {
          const o: RemoveOutcome | undefined = outcomes[j];
          const left = !o || o.outcome === 'failed' || o.outcome === 'kept';
          if (left) hold(entity, v.destinationId, v.refs);
          return {
            entity,
            sourceId: v.sourceId,
            destinationId: v.destinationId,
            ...(left && v.refs.length ? { refs: v.refs } : {}),
            outcome: o?.outcome ?? 'failed',
            reason:
              o?.outcome === 'gone'
                ? GONE
                : (o?.reason ?? (o ? null : 'The store gave no answer for it.')),
          };
        }),
      );
    }
  };

  const undoEntity = async (entity: EntityType) => {
    // A type the platform cannot delete is still read: what its records use stays with them.
    const unsupported =
      capabilities.removeUnsupported?.[entity] ??
      (connection.remove ? undefined : 'The destination platform cannot delete these records.');
    const victims: { sourceId: string; destinationId: string; refs: [EntityType, string][] }[] = [];
    const parents = new Map<string, string | null>();
    const seen = new Set<string>();
    const whoNeeds = (destinationId: string) => needed.get(`${entity}:${destinationId}`);
    const decide = async (
      found: { candidate: UndoCandidate; record: EntityRecord[EntityType] }[],
    ) => {
      const why = unsupported ? new Map<string, string | null>() : await changes(entity, found);
      const kept: UndoRecord[] = [];
      for (const { candidate, record: copy } of found) {
        seen.add(candidate.sourceId);
        const refs = references(entity, copy);
        const user = whoNeeds(candidate.destinationId);
        const reason = unsupported
          ? `Kept: ${unsupported}`
          : user
            ? usedBy(user)
            : why.get(candidate.sourceId);
        if (reason) {
          hold(entity, candidate.destinationId, refs);
          kept.push({
            entity,
            sourceId: candidate.sourceId,
            destinationId: candidate.destinationId,
            outcome: 'kept',
            reason,
            ...(refs.length ? { refs } : {}),
          });
          continue;
        }
        victims.push({
          sourceId: candidate.sourceId,
          destinationId: candidate.destinationId,
          refs,
        });
        if (trees.includes(entity))
          parents.set(
            candidate.destinationId,
            (copy as { parentId?: string | null }).parentId ?? null,
          );
      }
      await record(kept);
    };
    const readByIds = connection.readByIds?.bind(connection);
    if (readByIds) {
      let after: string | null = null;
      for (;;) {
        const page = await repository.undoCandidates(migrationId, entity, runId, after, batchSize);
        if (!page.length) break;
        after = page.at(-1)!.sourceId;
        const copies = await withStoreRetry(() =>
          readByIds(
            entity,
            page.map((c) => c.destinationId),
          ),
        );
        const byId = new Map(copies.map((r) => [r.id, r]));
        await decide(
          page.flatMap((candidate) => {
            const copy = byId.get(candidate.destinationId);
            return copy ? [{ candidate, record: copy }] : [];
          }),
        );
      }
    } else {
      // No reads by id: the destination's records are read once, and each page's candidates found.
      for await (const page of readPages(connection, entity, null, watch, options.signal)) {
        const candidates = await repository.undoCandidatesAmong(
          migrationId,
          entity,
          runId,
          page.records.map((r) => r.id),
        );
        const byId = new Map(page.records.map((r) => [r.id, r]));
        await decide(
          candidates.flatMap((candidate) => {
            const copy = byId.get(candidate.destinationId);
            return copy ? [{ candidate, record: copy }] : [];
          }),
        );
      }
    }
    // Candidates the destination no longer holds.
    let after: string | null = null;
    for (;;) {
      const page = await repository.undoCandidates(migrationId, entity, runId, after, 500);
      if (!page.length) break;
      after = page.at(-1)!.sourceId;
      const gone = page.filter((c) => !seen.has(c.sourceId));
      await record(
        gone.map((c) => ({
          entity,
          sourceId: c.sourceId,
          destinationId: c.destinationId,
          outcome: 'gone' as const,
          reason: GONE,
        })),
      );
    }
    // A record kept meanwhile may use others of its own kind (a parent, a linked product): those
    // stay too, and so on up.
    for (let moved = true; moved;) {
      moved = false;
      for (const victim of [...victims]) {
        const user = whoNeeds(victim.destinationId);
        if (!user) continue;
        victims.splice(victims.indexOf(victim), 1);
        hold(entity, victim.destinationId, victim.refs);
        await record([
          {
            entity,
            sourceId: victim.sourceId,
            destinationId: victim.destinationId,
            outcome: 'kept',
            reason: usedBy(user),
            ...(victim.refs.length ? { refs: victim.refs } : {}),
          },
        ]);
        moved = true;
      }
    }
    if (trees.includes(entity)) {
      const order = deepestFirst(
        victims.map((v) => v.destinationId),
        parents,
      );
      const byDestination = new Map(victims.map((v) => [v.destinationId, v]));
      await removeAll(
        entity,
        order.map((id) => byDestination.get(id)!),
      );
    } else await removeAll(entity, victims);
  };

  /**
   * Files, terms and redirects the migration stored, once the records that used them are gone:
   * one stored by a record that is kept (changed since, or not removable) stays with it; one whose
   * record is not known (stored before records were noted with their assets) stays while any
   * record that may show it is kept.
   */
  const undoAssets = async () => {
    const assets = await repository.allAssets(migrationId);
    const records = await repository.undoRecords(runId);
    const done = new Set(records.filter((r) => r.entity === ASSETS).map((r) => r.sourceId));
    const open = assets.filter((a) => !done.has(`${a.kind}:${a.key}`));
    if (!open.length) return;
    const left = new Set(
      records
        .filter((r) => r.entity !== ASSETS && (r.outcome === 'kept' || r.outcome === 'failed'))
        .map((r) => `${r.entity}:${r.sourceId}`),
    );
    const leftOf = (entities: readonly EntityType[]) =>
      entities.reduce((n, e) => n + (counts[e]?.kept ?? 0) + (counts[e]?.failed ?? 0), 0);
    const keep = (a: (typeof assets)[number]): string | null => {
      if (!connection.removeAssets) return 'Kept: the destination platform cannot delete it.';
      if (a.kind === 'redirect') return null;
      if (a.owner)
        return left.has(`${a.owner.entity}:${a.owner.sourceId}`)
          ? `Kept with the ${singular[a.owner.entity] ?? a.owner.entity} ${a.owner.sourceId} that uses it, which stays in your store.`
          : null;
      const stillShown = leftOf(a.kind === 'term' ? ['products', 'posts'] : showImages);
      return stillShown
        ? `Kept: ${plural(stillShown, 'record')} the migration wrote ${stillShown === 1 ? 'is' : 'are'} still in your store and may use it.`
        : null;
    };
    const decided = open.map((asset) => ({ asset, kept: keep(asset) }));
    await record(
      decided.flatMap(({ asset: a, kept }) =>
        kept
          ? [
              {
                entity: ASSETS,
                sourceId: `${a.kind}:${a.key}`,
                destinationId: a.destinationId,
                outcome: 'kept' as const,
                reason: kept,
              },
            ]
          : [],
      ),
    );
    const victims = decided
      .filter(({ kept }) => !kept)
      .map(({ asset: a }): AssetRecord => ({
        kind: a.kind as AssetRecord['kind'],
        key: a.key,
        destinationId: a.destinationId,
      }));
    for (let i = 0; i < victims.length; i += batchSize) {
      const part = victims.slice(i, i + batchSize);
      const outcomes = await withStoreRetry(() => connection.removeAssets!(part));
      await record(
        part.map((a, j) => ({
          entity: ASSETS,
          sourceId: `${a.kind}:${a.key}`,
          destinationId: a.destinationId,
          outcome: outcomes[j]?.outcome ?? 'failed',
          reason: outcomes[j]?.outcome === 'gone' ? GONE : (outcomes[j]?.reason ?? null),
        })),
      );
    }
  };

  try {
    for (const entity of run.entities as EntityType[]) {
      options.log?.('undo: removing', { entity });
      await undoEntity(entity);
    }
    await undoAssets();
    await repository.settleUndo(migrationId, runId, options.fence);
  } catch (error) {
    if (error instanceof Interrupted || options.signal?.aborted)
      return { runId, status: 'interrupted', counts };
    const failure =
      error instanceof EngineError ? error : fatalError(error, 'destination', 'undoing');
    await repository.updateRun(runId, {
      status: 'failed',
      phase: 'done',
      finishedAt: now().toISOString(),
      errorCode: failure.code,
      errorMessage: failure.message,
    });
    return { runId, status: 'failed', code: failure.code, message: failure.message, counts };
  }
  await repository.updateRun(runId, {
    status: 'completed',
    phase: 'done',
    finishedAt: now().toISOString(),
  });
  return { runId, status: 'completed', counts };
}

export const undoReportHeader = [
  'type',
  'source_id',
  'destination_id',
  'outcome',
  'reason',
] as const;

async function* undoRows(repository: EngineRepository, runId: string): AsyncGenerator<string[]> {
  yield [...undoReportHeader];
  for (const row of await repository.undoRecords(runId)) {
    const asset = row.entity === ASSETS ? row.sourceId.split(':')[0] : undefined;
    yield [
      asset ?? singular[row.entity] ?? row.entity,
      asset ? row.sourceId.slice(asset.length + 1) : row.sourceId,
      row.destinationId,
      row.outcome,
      row.reason ?? '',
    ];
  }
}

/**
 * An undo run's report as CSV (as the migration report: RFC 4180, CRLF, formula-like cells
 * escaped): every record and asset it looked at, how it ended and why; those not removed first.
 */
export function undoReportCsv(repository: EngineRepository, runId: string): Readable {
  const csv = stringify({ record_delimiter: 'windows', escape_formulas: true });
  pipeline(Readable.from(undoRows(repository, runId)), csv, () => {});
  return csv;
}
