import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from './database.ts';
import { EngineJobsRepository, type RemigrationStart } from './engine-jobs-repository.ts';
import { EngineRepository, LeaseLostError, type OutcomeRow } from './engine-repository.ts';
import { listTables } from './migrations.ts';
import { MigrationsRepository } from './migrations-repository.ts';
import { PaymentsRepository } from './payments-repository.ts';
import { RemigrationsRepository } from './remigrations-repository.ts';
import { openTestDatabase, testDialects } from './test-databases.ts';

const row = (sourceId: string, changes: Partial<OutcomeRow> = {}): OutcomeRow => ({
  sourceId,
  destinationId: `d-${sourceId}`,
  contentHash: `h-${sourceId}`,
  outcome: 'migrated',
  reason: null,
  ...changes,
});

describe.each(testDialects())('engine repositories on %s', (dialect) => {
  let db: Db;
  let engine: EngineRepository;
  let jobs: EngineJobsRepository;
  let migrations: MigrationsRepository;
  let migrationId: string;
  let clock: number;
  const now = () => new Date(Date.UTC(2026, 0, 1) + clock);

  beforeEach(async () => {
    clock = 0;
    db = await openTestDatabase(dialect);
    engine = new EngineRepository(db, now);
    jobs = new EngineJobsRepository(db, now);
    migrations = new MigrationsRepository(db);
    migrationId = (await migrations.create({ userId: 'u', email: '', storeName: 'S' })).id;
  });
  afterEach(async () => {
    await db.close();
  });

  it('creates the engine tables', async () => {
    expect(await listTables(db.kysely)).toEqual(
      expect.arrayContaining(['engine_runs', 'engine_id_map', 'engine_checkpoints', 'engine_jobs']),
    );
  });

  it('commits id-map rows, checkpoint and progress together, and keeps a destination id once known', async () => {
    const run = await engine.createRun(migrationId, ['products']);
    await engine.commitBatch({
      migrationId,
      runId: run.id,
      entity: 'products',
      rows: [
        row('1'),
        row('2'),
        row('3', { destinationId: null, contentHash: null, outcome: 'failed', reason: 'bad' }),
      ],
      checkpoint: { checkpoint: '{"version":1,"cursor":"3"}', done: false },
      progress: {
        migrationStats: { products: { total: 3, migrated: 2, failed: 1 } },
        migratedEntities: 2,
        totalEntities: 3,
      },
    });
    expect(await engine.checkpoints(run.id)).toEqual(
      new Map([['products', { checkpoint: '{"version":1,"cursor":"3"}', done: false }]]),
    );
    const found = await engine.lookup(migrationId, 'products', ['1', '3', 'nope']);
    expect(found.get('1')).toMatchObject({
      destinationId: 'd-1',
      contentHash: 'h-1',
      outcome: 'migrated',
    });
    expect(found.get('3')).toMatchObject({ destinationId: null, outcome: 'failed', reason: 'bad' });
    expect(found.has('nope')).toBe(false);
    expect(await migrations.findForUser(migrationId, 'u')).toMatchObject({
      migratedEntities: 2,
      totalEntities: 3,
      migrationStats: { products: { total: 3, migrated: 2, failed: 1 } },
    });

    // A later failure keeps the destination id and the hash of what was last written.
    const second = await engine.createRun(migrationId, ['products']);
    await engine.commitBatch({
      migrationId,
      runId: second.id,
      entity: 'products',
      rows: [row('1', { destinationId: null, contentHash: null, outcome: 'failed', reason: 'x' })],
    });
    expect((await engine.lookup(migrationId, 'products', ['1'])).get('1')).toMatchObject({
      destinationId: 'd-1',
      contentHash: 'h-1',
      outcome: 'failed',
      runId: second.id,
    });
    expect(await engine.sourceIdsOf(migrationId, 'products', ['d-1', 'd-2', 'd-9'])).toEqual(
      new Map([
        ['d-1', '1'],
        ['d-2', '2'],
      ]),
    );
    expect(await engine.runCounts(migrationId, run.id)).toEqual(
      expect.arrayContaining([
        { entity: 'products', outcome: 'migrated', count: 1 },
        { entity: 'products', outcome: 'failed', count: 1 },
      ]),
    );
    expect(await engine.migratedCount(migrationId, ['products'])).toBe(2);
  });

  it('clears the content hash of a record written incompletely, and keeps it otherwise', async () => {
    const run = await engine.createRun(migrationId, ['products']);
    const commit = (rows: OutcomeRow[]) =>
      engine.commitBatch({ migrationId, runId: run.id, entity: 'products', rows });
    await commit([row('1'), row('2')]);
    await commit([
      row('1', { contentHash: 'h-1b', incomplete: true, reason: 'image left out' }),
      // A null hash without `incomplete` keeps what was stored (e.g. a failed retry).
      row('2', { contentHash: null, destinationId: null, outcome: 'failed' }),
    ]);
    const found = await engine.lookup(migrationId, 'products', ['1', '2']);
    expect(found.get('1')).toMatchObject({
      contentHash: null,
      destinationId: 'd-1',
      outcome: 'migrated',
      reason: 'image left out',
    });
    expect(found.get('2')).toMatchObject({ contentHash: 'h-2', destinationId: 'd-2' });
    await engine.updateRun(run.id, { notes: ['Customer e-mails switched off.'] });
    expect((await engine.findRun(run.id))?.notes).toEqual(['Customer e-mails switched off.']);
  });

  it('keeps differences per record, shared assets, source notes, and whether the migration created each record', async () => {
    const run = await engine.createRun(migrationId, ['products']);
    const commit = (
      rows: OutcomeRow[],
      assets: { kind: string; key: string; destinationId: string }[] = [],
    ) => engine.commitBatch({ migrationId, runId: run.id, entity: 'products', rows, assets });
    await commit(
      [
        row('1', {
          created: true,
          sourceFields: '{"name":"a"}',
          differences: [{ field: 'featured', reason: 'No flag.' }],
        }),
        row('2', {
          differences: [
            { field: 'featured', reason: 'No flag.' },
            { field: 'menuOrder', reason: 'No order.' },
          ],
        }),
      ],
      [{ kind: 'image', key: 'https://src/a.jpg', destinationId: '77' }],
    );
    // A later write of record 1 (an update) keeps that it was created, and its notes.
    await commit([row('1', { differences: [] })]);
    expect(await engine.differenceSummary(migrationId)).toEqual([
      { entity: 'products', field: 'featured', reason: 'No flag.', records: 1 },
      { entity: 'products', field: 'menuOrder', reason: 'No order.', records: 1 },
    ]);
    expect([...(await engine.differencesOf(migrationId, 'products', ['1', '2'])).keys()]).toEqual([
      '2',
    ]);
    expect(
      await engine.assets(migrationId, 'image', ['https://src/a.jpg', 'https://src/b.jpg']),
    ).toEqual(new Map([['https://src/a.jpg', '77']]));
    const set = await engine.verificationSet(migrationId, 'products', run.id, 0);
    expect(set.find((r) => r.sourceId === '1')?.sourceFields).toBe('{"name":"a"}');
    const created = await db.kysely
      .selectFrom('engine_id_map')
      .select(['source_id', 'created'])
      .where('migration_id', '=', migrationId)
      .orderBy('source_id')
      .execute();
    expect(created.map((r) => [r.source_id, Number(r.created)])).toEqual([
      ['1', 1],
      ['2', 0],
    ]);
  });

  it('refuses a batch whose job lease was lost, leaving nothing behind', async () => {
    const run = await engine.createRun(migrationId, ['products']);
    await jobs.enqueue(migrationId, 'u');
    const claimed = await jobs.claim('worker-a', 1_000);
    expect(claimed).toBeDefined();
    clock += 5_000;
    const stolen = await jobs.claim('worker-b', 1_000);
    expect(stolen?.leaseOwner).toBe('worker-b');
    await expect(
      engine.commitBatch({
        migrationId,
        runId: run.id,
        entity: 'products',
        rows: [row('1')],
        checkpoint: { checkpoint: 'x', done: false },
        fence: { jobId: claimed!.id, owner: 'worker-a' },
      }),
    ).rejects.toBeInstanceOf(LeaseLostError);
    expect((await engine.lookup(migrationId, 'products', ['1'])).size).toBe(0);
    expect((await engine.checkpoints(run.id)).size).toBe(0);
    await engine.commitBatch({
      migrationId,
      runId: run.id,
      entity: 'products',
      rows: [row('1')],
      fence: { jobId: claimed!.id, owner: 'worker-b' },
    });
    expect((await engine.lookup(migrationId, 'products', ['1'])).size).toBe(1);
  });

  it('pages the id map in source-id order and stores verification notes', async () => {
    const run = await engine.createRun(migrationId, ['customers']);
    const ids = Array.from({ length: 25 }, (_, i) => `c${String(i).padStart(2, '0')}`);
    await engine.commitBatch({
      migrationId,
      runId: run.id,
      entity: 'customers',
      rows: ids.map((id) => row(id)),
    });
    const seen: string[] = [];
    let after: string | null = null;
    for (;;) {
      const page = await engine.idMapPage(migrationId, 'customers', after, 10);
      seen.push(...page.map((r) => r.sourceId));
      if (page.length < 10) break;
      after = page[page.length - 1]!.sourceId;
    }
    expect(seen).toEqual(ids);
    expect(await engine.mappedEntities(migrationId)).toEqual(['customers']);

    await engine.setVerifyFields(migrationId, 'customers', [
      { sourceId: 'c01', fields: '{"a":"1"}' },
    ]);
    expect(await engine.verifyNotes(migrationId, 'customers', ['c01', 'c02'])).toEqual(
      new Map([['c01', '{"a":"1"}']]),
    );
    await engine.clearVerifyFields(migrationId);
    expect((await engine.verifyNotes(migrationId, 'customers', ['c01'])).size).toBe(0);
  });

  it('tracks runs and the migration lifecycle', async () => {
    const run = await engine.createRun(migrationId, ['products', 'orders']);
    expect(run).toMatchObject({
      status: 'running',
      phase: 'migrate',
      entities: ['products', 'orders'],
    });
    clock += 1000;
    await engine.updateRun(run.id, {
      status: 'completed',
      phase: 'done',
      verification: { status: 'passed' },
    });
    expect(await engine.latestVerifiedRun(migrationId)).toMatchObject({
      id: run.id,
      verification: { status: 'passed' },
    });
    clock += 1000;
    const next = await engine.createRun(migrationId, ['products']);
    expect((await engine.latestRun(migrationId))?.id).toBe(next.id);

    const before = (await migrations.findForUser(migrationId, 'u'))!;
    expect(
      await engine.setLifecycle(migrationId, { status: 'in-progress', currentStep: 4 }, [
        'pending',
      ]),
    ).toBe(true);
    expect(await engine.setLifecycle(migrationId, { status: 'completed' }, ['pending'])).toBe(
      false,
    );
    const after = (await migrations.findForUser(migrationId, 'u'))!;
    expect(after).toMatchObject({
      status: 'in-progress',
      currentStep: 4,
      version: before.version + 1,
    });
    expect(await engine.ownerOf(migrationId)).toBe('u');
  });

  it('deletes everything of a migration with it', async () => {
    const run = await engine.createRun(migrationId, ['products']);
    await engine.commitBatch({
      migrationId,
      runId: run.id,
      entity: 'products',
      rows: [row('1')],
      checkpoint: { checkpoint: null, done: true },
    });
    await jobs.enqueue(migrationId, 'u');
    await migrations.delete(migrationId, 'u');
    expect(await engine.latestRun(migrationId)).toBeUndefined();
    expect((await engine.lookup(migrationId, 'products', ['1'])).size).toBe(0);
    expect(await jobs.liveJob(migrationId)).toBeUndefined();
  });

  describe('jobs', () => {
    it('queues one live job per migration', async () => {
      const first = await jobs.enqueue(migrationId, 'u');
      const again = await jobs.enqueue(migrationId, 'u');
      expect(first.created).toBe(true);
      expect(again).toMatchObject({ created: false, job: { id: first.job.id } });
    });

    it('lets exactly one of two racing workers claim a job', async () => {
      await jobs.enqueue(migrationId, 'u');
      const [a, b] = await Promise.all([jobs.claim('a', 10_000), jobs.claim('b', 10_000)]);
      expect([a, b].filter(Boolean)).toHaveLength(1);
      expect(await jobs.claim('c', 10_000)).toBeUndefined();
    });

    it('hands an expired lease to another worker and fences the old one out', async () => {
      const { job } = await jobs.enqueue(migrationId, 'u');
      expect((await jobs.claim('a', 1_000))?.id).toBe(job.id);
      clock += 500;
      expect(await jobs.heartbeat(job.id, 'a', 1_000)).toBe(true);
      clock += 900;
      expect(await jobs.claim('b', 1_000)).toBeUndefined();
      clock += 200;
      const taken = await jobs.claim('b', 1_000);
      expect(taken).toMatchObject({ id: job.id, leaseOwner: 'b', attempts: 2 });
      expect(await jobs.heartbeat(job.id, 'a', 1_000)).toBe(false);
      expect(await jobs.finish(job.id, 'a', 'done')).toBe(false);
      expect(await jobs.finish(job.id, 'b', 'done')).toBe(true);
      expect(await jobs.liveJob(migrationId)).toBeUndefined();
      expect((await jobs.latestJob(migrationId))?.state).toBe('done');
      // A finished job leaves room for the next one.
      expect((await jobs.enqueue(migrationId, 'u')).created).toBe(true);
    });

    it('claims a given job only when it is free or its holder is known to be dead', async () => {
      const { job } = await jobs.enqueue(migrationId, 'u');
      expect((await jobs.claimById(job.id, 'cli:1', 60_000))?.leaseOwner).toBe('cli:1');
      expect(await jobs.claimById(job.id, 'cli:2', 60_000)).toBeUndefined();
      expect(await jobs.claimById(job.id, 'cli:2', 60_000, 'cli:9')).toBeUndefined();
      expect((await jobs.claimById(job.id, 'cli:2', 60_000, 'cli:1'))?.leaseOwner).toBe('cli:2');
    });

    it('gives a released lease back at once', async () => {
      const { job } = await jobs.enqueue(migrationId, 'u');
      await jobs.claim('a', 60_000);
      await jobs.release(job.id, 'a');
      expect((await jobs.claim('b', 60_000))?.leaseOwner).toBe('b');
      expect((await jobs.liveJobs()).map((j) => j.id)).toEqual([job.id]);
    });

    it('counts a claim that finds the lease still held as a crash, and caught failures apart', async () => {
      const { job } = await jobs.enqueue(migrationId, 'u');
      expect(await jobs.claim('a', 1_000)).toMatchObject({ attempts: 1, crashes: 0 });
      clock += 2_000;
      // Worker a died holding the lease.
      expect(await jobs.claim('b', 1_000)).toMatchObject({ attempts: 2, crashes: 1 });
      expect(await jobs.retryLater(job.id, 'b', 500, 'boom')).toMatchObject({
        failures: 1,
        crashes: 1,
        leaseOwner: null,
        lastError: 'boom',
      });
      expect(await jobs.claim('c', 1_000)).toBeUndefined();
      clock += 600;
      // A lease given back is no crash.
      expect(await jobs.claim('c', 1_000)).toMatchObject({ attempts: 3, crashes: 1, failures: 1 });
      await jobs.release(job.id, 'c');
      expect(await jobs.claim('d', 1_000)).toMatchObject({ attempts: 4, crashes: 1 });
      expect(await jobs.retryLater(job.id, 'not-the-holder', 0, 'x')).toBeUndefined();
    });

    it('reclaims a live lease only from a holder judged dead and silent since the cut-off', async () => {
      const { job } = await jobs.enqueue(migrationId, 'u');
      await jobs.claim('host:1:old', 60_000);
      const silentSince = (ms: number) => new Date(now().getTime() - ms).toISOString();
      const dead = (holder: string) => holder === 'host:1:old';
      // Heard from just now: not silent long enough.
      expect(await jobs.reclaim('host:1:new', 60_000, dead, silentSince(2_000))).toBeUndefined();
      clock += 3_000;
      expect(
        await jobs.reclaim('host:1:new', 60_000, () => false, silentSince(2_000)),
      ).toBeUndefined();
      const taken = await jobs.reclaim('host:1:new', 60_000, dead, silentSince(2_000));
      expect(taken).toMatchObject({ id: job.id, leaseOwner: 'host:1:new', crashes: 1 });
      expect(await jobs.heartbeat(job.id, 'host:1:old', 60_000)).toBe(false);
    });

    it('starts a job with its lifecycle change in one transaction, only from the state checked', async () => {
      const migration = (await migrations.findForUser(migrationId, 'u'))!;
      const lifecycle = { status: 'in-progress', currentStep: 4, completedAt: null };
      const stale = await jobs.startJob({
        migrationId,
        userId: 'u',
        unlimited: false,
        expectedVersion: migration.version + 1,
        lifecycle,
      });
      expect(stale).toEqual({ outcome: 'changed' });
      expect(await jobs.liveJob(migrationId)).toBeUndefined();
      expect((await migrations.findForUser(migrationId, 'u'))?.status).toBe('pending');

      const [a, b] = await Promise.all(
        [0, 1].map(() =>
          jobs.startJob({
            migrationId,
            userId: 'u',
            unlimited: true,
            expectedVersion: migration.version,
            lifecycle,
          }),
        ),
      );
      expect([a?.outcome, b?.outcome].sort()).toEqual(['already_running', 'started']);
      expect(await migrations.findForUser(migrationId, 'u')).toMatchObject({
        status: 'in-progress',
        currentStep: 4,
        version: migration.version + 1,
      });
    });

    it('records a re-migration with its job, and a paid one only with its unused quote', async () => {
      const remigrations = new RemigrationsRepository(db);
      const payments = new PaymentsRepository(db, now);
      const start = async (remigration: RemigrationStart) => {
        const m = (await migrations.findForUser(migrationId, 'u'))!;
        const result = await jobs.startJob({
          migrationId,
          userId: 'u',
          unlimited: false,
          expectedVersion: m.version,
          lifecycle: { status: 'in-progress', currentStep: 4, completedAt: null },
          remigration,
        });
        if (result.outcome === 'started') {
          await jobs.claim('w', 1_000);
          await jobs.finish(result.job.id, 'w', 'done');
        }
        return result.outcome;
      };
      expect(await start({ number: 1, basis: 'first' })).toBe('started');
      expect(await remigrations.count(migrationId)).toBe(1);
      // Number 1 again (a stale caller): refused, and nothing of it is kept.
      expect(await start({ number: 1, basis: 'first' })).toBe('changed');
      expect(await jobs.liveJob(migrationId)).toBeUndefined();

      expect(await start({ number: 2, basis: 'paid', quoteId: 'none' })).toBe('changed');
      const quote = await payments.createQuote({
        migrationId,
        userId: 'u',
        kind: 'remigration',
        provider: 'demo',
        counts: { products: 1, customers: 0, orders: 0 },
        recordsTotal: 1,
        previouslyPaidRecords: 1,
        recordsBought: 0,
        amountCents: 9901,
        currency: 'usd',
        remigrationNumber: 2,
      });
      expect(await remigrations.paidQuoteFor(migrationId, 2)).toBeUndefined();
      await payments.fulfil(quote.id, { paidAt: now().toISOString() }, { paymentInfo: () => ({}) });
      expect(await remigrations.paidQuoteFor(migrationId, 2)).toBe(quote.id);
      expect(await start({ number: 2, basis: 'paid', quoteId: quote.id })).toBe('started');
      expect(await remigrations.paidQuoteFor(migrationId, 2)).toBeUndefined();
      expect(await start({ number: 3, basis: 'paid', quoteId: quote.id })).toBe('changed');
      expect((await remigrations.list(migrationId)).map((r) => [r.number, r.basis])).toEqual([
        [1, 'first'],
        [2, 'paid'],
      ]);
    });

    it('parks a job until the owner acts', async () => {
      const { job } = await jobs.enqueue(migrationId, 'u');
      await jobs.claim('a', 60_000);
      expect(await jobs.finish(job.id, 'a', 'parked', 'payment_required')).toBe(true);
      expect(await jobs.claim('b', 60_000)).toBeUndefined();
      expect(await jobs.find(job.id)).toMatchObject({
        state: 'parked',
        lastError: 'payment_required',
      });
    });
  });
});
