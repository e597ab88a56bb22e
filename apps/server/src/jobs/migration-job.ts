import type { FastifyBaseLogger } from 'fastify';
import type { Platform } from '@replatform/contracts/migration';
import type { EngineJob } from '@replatform/db/engine-jobs-repository';
import type { EngineRepository } from '@replatform/db/engine-repository';
import type { MigrationsRepository, StoredMigration } from '@replatform/db/migrations-repository';
import { DEFAULT_DEMO_LIMIT } from '@replatform/engine/demo';
import { executeMigration, recordRunFailure, type ExecuteResult } from '@replatform/engine/execute';
import { ownFieldsOf, type StoreSide } from '@replatform/engine/migrate';
import { paidRecordLimit } from '@replatform/engine/payment-limit';
import { selectedDataTypes } from '@replatform/engine/plan';
import type { RetryPolicy, StoreOutage } from '@replatform/engine/retry';
import { executeUndo, type UndoResult } from '@replatform/engine/undo';
import type { StoreConnections } from '../connections/store-connections.ts';
import { storedMappings, storedOptions } from '../migrations/present-migration.ts';
import type { JobHandler, JobOutcome } from './runner.ts';

/** The notification service's entry point, when the server has one. */
export interface Notifier {
  notify(notification: {
    userId: string;
    type: 'success' | 'info' | 'warning' | 'error';
    title: string;
    message: string;
    migrationId: string;
  }): unknown;
}

export interface MigrationJobDeps {
  migrations: MigrationsRepository;
  engine: EngineRepository;
  connections: StoreConnections;
  log: FastifyBaseLogger;
  /** Resolved at each event, so a notification service registered later is still found. */
  notifier: () => Notifier | undefined;
  concurrency?: number;
  retry?: RetryPolicy;
  /**
   * How long a run waits for a store that stopped answering before the owner is told (once per
   * outage; the run keeps waiting and carries on by itself). Default 5 minutes.
   */
  tellOwnerAfterWaitMs?: number;
  /** Records of each selected type a demo job moves (DEMO_MIGRATION_LIMIT). */
  demoLimit?: number;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Tells the owner when a run has waited `tellAfterMs` for a store that stopped answering (once
 * per outage), and again when it answers and the run carries on.
 */
export function outageNotices(
  notify: (type: 'info' | 'warning', title: string, message: string) => Promise<void>,
  tellAfterMs: number,
): { onOutage: (outage: StoreOutage | null) => void; stop: () => void } {
  let told: StoreOutage['side'] | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  return {
    onOutage(outage) {
      if (!outage) {
        clearTimeout(timer);
        timer = undefined;
        if (told)
          void notify(
            'info',
            'Migration resumed',
            `the ${told} store answers again; the migration carries on where it paused.`,
          );
        told = undefined;
        return;
      }
      if (timer || told) return;
      const waited = Date.now() - Date.parse(outage.since);
      timer = setTimeout(
        () => {
          told = outage.side;
          void notify(
            'warning',
            'Migration waiting for your store',
            `the ${outage.side} store has not answered since ${new Date(outage.since).toUTCString()} (${outage.reason}). The migration is paused, keeps trying, and carries on by itself when the store answers; nothing is lost.`,
          );
        },
        Math.max(0, tellAfterMs - waited),
      );
      timer.unref?.();
    },
    stop: () => clearTimeout(timer),
  };
}

/** Runs migration jobs: connects both stores, runs the engine, tells the owner how it went. */
export function migrationJobHandler(deps: MigrationJobDeps): JobHandler {
  const notify = async (
    migration: Pick<StoredMigration, 'id' | 'userId' | 'storeName'>,
    type: 'success' | 'info' | 'warning' | 'error',
    title: string,
    message: string,
  ) => {
    try {
      await deps.notifier()?.notify({
        userId: migration.userId,
        type,
        title,
        message,
        migrationId: migration.id,
      });
    } catch (error) {
      deps.log.warn({ err: error, migrationId: migration.id }, 'notification failed');
    }
  };

  /** How a demo run went, in one notification: it is looked at on Select Data, before paying. */
  const announceDemo = async (migration: StoredMigration, result: ExecuteResult) => {
    const name = migration.storeName;
    const count = (key: 'migrated' | 'failed') =>
      Object.values(result.stats).reduce((n, s) => n + (s?.[key] ?? 0), 0);
    if (result.status === 'completed')
      await notify(
        migration,
        count('failed') ? 'warning' : 'success',
        'Demo migration finished',
        `${name}: ${count('migrated')} demo records are in your destination store${count('failed') ? `, ${count('failed')} could not be moved (the report says why)` : ''}. Check them, then pay and run the full migration; the demo records are not moved twice.`,
      );
    else if (result.status === 'failed')
      await notify(migration, 'error', 'Demo migration failed', `${name}: ${result.message ?? ''}`);
  };

  const announce = async (migration: StoredMigration, result: ExecuteResult) => {
    const name = migration.storeName;
    // What the destination store did around the import (e.g. customer e-mails switched off and
    // back on) explains a failure; on success those engine notes are in the report.
    const notes = result.notes?.length ? ` ${result.notes.join(' ')}` : '';
    if (result.status === 'completed') {
      const done = Object.values(result.stats).reduce((n, s) => n + (s?.migrated ?? 0), 0);
      const failed = Object.values(result.stats).reduce((n, s) => n + (s?.failed ?? 0), 0);
      const count = (n: number) => n.toLocaleString('en-US');
      await notify(
        migration,
        failed ? 'warning' : 'success',
        'Migration completed',
        `${name}: ${count(done)} records migrated${failed ? `, ${count(failed)} could not be moved (the report says why)` : ''}.`,
      );
    } else if (result.status === 'failed') {
      await notify(
        migration,
        'error',
        'Migration failed',
        `${name}: ${result.message ?? ''}${notes}`,
      );
    } else if (result.status === 'payment_required') {
      await notify(
        migration,
        'warning',
        'Top-up needed',
        `${name}: ${result.message ?? ''}${notes}`,
      );
    }
  };

  const side = (migration: StoredMigration, which: 'source' | 'destination'): StoreSide => {
    const platform = (
      which === 'source' ? migration.sourceStore : migration.destinationStore
    ) as Platform;
    return {
      connection: deps.connections.connectSide(migration, which),
      capabilities: deps.connections.connector(platform).capabilities,
    };
  };

  /** How an undo went, in one notification. */
  const announceUndo = async (migration: StoredMigration, result: UndoResult) => {
    const total = (key: 'removed' | 'kept' | 'failed') =>
      Object.entries(result.counts)
        .filter(([entity]) => entity !== 'assets')
        .reduce((n, [, c]) => n + c[key], 0);
    const count = (n: number) => n.toLocaleString('en-US');
    if (result.status === 'completed') {
      const kept = total('kept');
      const failed = total('failed');
      const rest = [
        kept ? `${count(kept)} kept (changed since, or not removable; the report says which)` : '',
        failed ? `${count(failed)} could not be removed (undo again to retry)` : '',
      ].filter(Boolean);
      await notify(
        migration,
        failed ? 'warning' : 'success',
        'Undo finished',
        `${migration.storeName}: ${count(total('removed'))} records the migration created were removed from your destination store${rest.length ? `; ${rest.join('; ')}` : ''}.`,
      );
    } else if (result.status === 'failed')
      await notify(
        migration,
        'error',
        'Undo stopped',
        `${migration.storeName}: ${result.message ?? ''} Undo again to carry on where it stopped.`,
      );
  };

  const runUndo = async (
    migration: StoredMigration,
    signal: AbortSignal,
    fence: Parameters<JobHandler['run']>[0]['fence'],
  ): Promise<JobOutcome> => {
    let destination: StoreSide;
    try {
      // Compared as the migration compared it: without the fields the owner let it make its own.
      destination = {
        ...side(migration, 'destination'),
        ownFields: ownFieldsOf(storedOptions(migration)),
      };
    } catch (error) {
      const message = `The destination store could not be opened: ${errorText(error)}`;
      await recordRunFailure(deps.engine, migration.id, 'store_config', message, undefined, 'undo');
      await notify(migration, 'error', 'Undo stopped', `${migration.storeName}: ${message}`);
      return { state: 'failed', error: message };
    }
    try {
      const result = await executeUndo({
        repository: deps.engine,
        migrationId: migration.id,
        destination,
        signal,
        fence,
        retry: deps.retry,
        log: (message, fields) =>
          deps.log.info({ migrationId: migration.id, undo: true, ...fields }, message),
      });
      if (result.status !== 'interrupted') await announceUndo(migration, result);
      if (result.status === 'completed') return { state: 'done' };
      if (result.status === 'failed') return { state: 'failed', error: result.message ?? 'failed' };
      return { state: 'interrupted' };
    } finally {
      await destination.connection.close?.();
    }
  };

  return {
    async run({ job, fence, signal }): Promise<JobOutcome> {
      const migration = await deps.migrations.findForUser(job.migrationId, job.userId);
      if (!migration) return { state: 'failed', error: 'The migration no longer exists.' };

      if (job.kind === 'undo') return runUndo(migration, signal, fence);

      let source: StoreSide;
      let destination: StoreSide;
      try {
        source = side(migration, 'source');
        destination = side(migration, 'destination');
      } catch (error) {
        const message = `The stores could not be opened: ${errorText(error)}`;
        const demo = job.kind === 'demo';
        await recordRunFailure(
          deps.engine,
          migration.id,
          'store_config',
          message,
          undefined,
          job.kind,
        );
        await notify(
          migration,
          'error',
          demo ? 'Demo migration failed' : 'Migration failed',
          `${migration.storeName}: ${message}`,
        );
        return { state: 'failed', error: message };
      }

      // What both kinds of run are given.
      const run = {
        repository: deps.engine,
        migrationId: migration.id,
        dataTypes: selectedDataTypes(migration.dataTypes),
        source,
        destination,
        mappings: storedMappings(migration),
        migrationOptions: storedOptions(migration),
        changedSince: job.changedSince ?? undefined,
        signal,
        fence,
        concurrency: deps.concurrency,
        retry: deps.retry,
      };
      if (job.kind === 'demo') {
        try {
          const result = await executeMigration({
            ...run,
            demo: { limit: deps.demoLimit ?? DEFAULT_DEMO_LIMIT },
            log: (message, fields) =>
              deps.log.info({ migrationId: migration.id, demo: true, ...fields }, message),
          });
          if (result.status !== 'interrupted') await announceDemo(migration, result);
          if (result.status === 'completed') return { state: 'done' };
          if (result.status === 'failed')
            return { state: 'failed', error: result.message ?? 'failed' };
          return { state: 'interrupted' };
        } finally {
          await Promise.allSettled([source.connection.close?.(), destination.connection.close?.()]);
        }
      }

      const previous = await deps.engine.latestRun(migration.id);
      if (!previous || previous.phase === 'done') {
        await notify(
          migration,
          'info',
          'Migration started',
          `${migration.storeName}: moving your data now. You can leave this page; we will let you know when it is done.`,
        );
      }
      const outages = outageNotices(
        (type, title, message) =>
          notify(migration, type, title, `${migration.storeName}: ${message}`),
        deps.tellOwnerAfterWaitMs ?? 5 * 60_000,
      );
      try {
        const result = await executeMigration({
          ...run,
          paidRecords: job.unlimited ? undefined : paidRecordLimit(migration.paymentInfo),
          onMigrated: (result) => announce(migration, result),
          onOutage: outages.onOutage,
          log: (message, fields) =>
            deps.log.info({ migrationId: migration.id, ...fields }, message),
        });
        switch (result.status) {
          case 'completed':
            return { state: 'done' };
          case 'failed':
            return { state: 'failed', error: result.message ?? 'failed' };
          case 'payment_required':
            return { state: 'parked', error: 'payment_required' };
          default:
            return { state: 'interrupted' };
        }
      } finally {
        outages.stop();
        await Promise.allSettled([source.connection.close?.(), destination.connection.close?.()]);
      }
    },

    async giveUp(job: EngineJob, reason: string, explanation?: string): Promise<void> {
      const migration = await deps.migrations.findForUser(job.migrationId, job.userId);
      if (!migration) return;
      const what = { demo: 'demo migration', undo: 'undo', migration: 'migration' }[job.kind];
      const message =
        explanation ??
        `The ${what} was stopped because ${reason}. Nothing was lost; please contact support or start it again.`;
      await recordRunFailure(deps.engine, migration.id, 'internal', message, undefined, job.kind);
      await notify(
        migration,
        'error',
        { demo: 'Demo migration failed', undo: 'Undo stopped', migration: 'Migration failed' }[
          job.kind
        ],
        `${migration.storeName}: ${message}`,
      );
    },
  };
}
