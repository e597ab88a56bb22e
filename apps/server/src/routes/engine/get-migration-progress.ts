import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { normaliseStatus, type DataTypeName } from '@replatform/contracts/migration';
import { migrationProgressSchema, type MigrationProgress } from '@replatform/contracts/progress';
import {
  averageRate,
  recentRate,
  secondsLeft,
  type RunSpeed,
  type SpeedSample,
} from '@replatform/contracts/run-speed';
import type { EngineJob } from '@replatform/db/engine-jobs-repository';
import type { EngineRun } from '@replatform/db/engine-repository';
import type { StoredMigration } from '@replatform/db/migrations-repository';
import { requireUser } from '../../auth/require-user.ts';
import { notFound } from '../../http/errors.ts';

type State = NonNullable<MigrationProgress['state']>;

function stateOf(
  migration: StoredMigration,
  job: EngineJob | undefined,
  run: EngineRun | undefined,
): State {
  if (job?.state === 'queued') return 'queued';
  if (job?.state === 'running') return run?.phase === 'verify' ? 'verifying' : 'running';
  if (job?.state === 'parked' || run?.status === 'payment_required') return 'payment_required';
  const status = normaliseStatus(migration.status);
  if (status === 'completed') return 'completed';
  if (status === 'failed') return 'failed';
  return 'idle';
}

/**
 * The run's samples as time since its start, the rate measured from them and the time left for
 * `remaining` records. No time left is told while the run waits for a store or is not moving
 * records (queued, verifying, stopped): a rate measured before says nothing then.
 */
export function speedOf(run: EngineRun, remaining: number, moving: boolean): RunSpeed {
  const start = Date.parse(run.startedAt);
  const samples = run.samples.map(([at, done]): SpeedSample => [Math.max(0, at - start), done]);
  const rate = recentRate(samples);
  return {
    startedAt: run.startedAt,
    finishedAt: run.phase === 'migrate' ? null : run.finishedAt,
    samples,
    recordsPerMinute: rate,
    averagePerMinute: averageRate(samples),
    secondsLeft: moving && !run.waiting ? secondsLeft(remaining, rate) : null,
    limitedBy: moving && !run.waiting ? run.limitedBy : null,
  };
}

/** The progress figures of spec.md section 3 from what the engine keeps on the migration. */
export function progressOf(
  migration: StoredMigration,
  job: EngineJob | undefined,
  run: EngineRun | undefined,
): MigrationProgress {
  const figures = (type: DataTypeName) => {
    if (!migration.dataTypes[type]) return { total: 0, completed: 0 };
    const stats = migration.migrationStats[type];
    const total = stats?.total ?? Number(migration.entityCounts[type] ?? 0);
    const completed = stats ? Math.min(total, stats.migrated + stats.failed) : 0;
    return { total, completed };
  };
  const products = figures('products');
  const customers = figures('customers');
  const orders = figures('orders');
  const coupons = figures('coupons');
  const reviews = figures('reviews');
  const brands = figures('brands');
  const pages = figures('pages');
  const posts = figures('posts');
  const all = [products, customers, orders, coupons, reviews, brands, pages, posts];
  const total = all.reduce((sum, f) => sum + f.total, 0);
  const completed = all.reduce((sum, f) => sum + f.completed, 0);
  const status = normaliseStatus(migration.status);
  // 100 only when the engine says so: the page takes 100% as the sign that the run is over.
  const overallProgress =
    status === 'completed' && migration.currentStep >= 5
      ? 100
      : total > 0
        ? Math.min(99, Math.floor((completed / total) * 100))
        : 0;
  const state = stateOf(migration, job, run);
  const message =
    (state === 'failed' || state === 'payment_required') && run?.errorMessage
      ? run.errorMessage
      : undefined;
  const waiting =
    state === 'running' && run?.waiting
      ? { store: run.waiting.side, since: run.waiting.since, retryAt: run.waiting.retryAt }
      : undefined;
  return {
    productsTotal: products.total,
    customersTotal: customers.total,
    ordersTotal: orders.total,
    productsCompleted: products.completed,
    customersCompleted: customers.completed,
    ordersCompleted: orders.completed,
    couponsTotal: coupons.total,
    couponsCompleted: coupons.completed,
    reviewsTotal: reviews.total,
    reviewsCompleted: reviews.completed,
    brandsTotal: brands.total,
    brandsCompleted: brands.completed,
    pagesTotal: pages.total,
    pagesCompleted: pages.completed,
    postsTotal: posts.total,
    postsCompleted: posts.completed,
    overallProgress,
    state,
    ...(message ? { message } : {}),
    ...(waiting ? { waiting } : {}),
    ...(run ? { speed: speedOf(run, total - completed, state === 'running') } : {}),
  };
}

/** GET /migration-progress?migrationId= (spec.md section 7), polled every 5 s. */
export const getMigrationProgress: FastifyPluginAsyncZod = async (app) => {
  const { migrations, engine } = app.services;
  app.get(
    '/migration-progress',
    {
      schema: {
        querystring: z.object({ migrationId: z.string().min(1).max(64) }),
        response: { 200: migrationProgressSchema },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const migration = await migrations.findForUser(request.query.migrationId, user.id);
      if (!migration) throw notFound('The requested migration could not be found.');
      const [job, run] = await Promise.all([
        engine.jobs.latestJob(migration.id),
        engine.repository.latestRun(migration.id),
      ]);
      reply.header('Cache-Control', 'no-store');
      return progressOf(migration, job, run);
    },
  );
};
