import { ConnectorError } from '../kit/errors.ts';
import type { WooClient } from './client.ts';
import { wcBatchErrorItemSchema, wcBatchResponseSchema, type WcError } from './wc-schemas.ts';

/**
 * Writes through a wc/v3 `.../batch` route (WC_REST_Controller::batch_items): at most 100 creates,
 * updates and deletes per request (413 `woocommerce_rest_request_entity_too_large` beyond), one
 * answer per item in request order, a failed item answered as `{id, error: {code, message, data}}`.
 *
 * A batch is never blindly re-sent after a failure that may have reached the store (a reset, a
 * 5xx, a cut-off answer): the creates still pending are first looked up again by their marker,
 * those found are taken as done, and only the rest are sent again. Updates are idempotent and
 * are re-sent as they are. A 413 halves the batch; a batch refused as a whole (400) is halved down
 * to the one item at fault, which then fails alone with WooCommerce's message.
 *
 * Batches go at the route's maximum of 100 until the store shows it cannot take that many in
 * time: a time-out, a 500 or a 504 halves what is left of the batch, and the size stays smaller for that
 * route on this connection (down to `smallestBatch`), so a slow store gets batches it can finish.
 */

export const batchLimit = 100;
const smallestBatch = 10;

/** Batch sizes a store has shown it can take in time, per route (ids left out), per client. */
const routeLimits = new WeakMap<WooClient, Map<string, number>>();
const routeOf = (path: string) => path.replace(/\d+/g, '#');

/** Routes whose batches went below the maximum on this client, with their size now. */
export function shrunkBatches(client: WooClient): Record<string, number> {
  return Object.fromEntries(routeLimits.get(client) ?? []);
}

export function batchLimitFor(client: WooClient, path: string): number {
  return routeLimits.get(client)?.get(routeOf(path)) ?? batchLimit;
}

function shrink(client: WooClient, path: string, size: number): void {
  const limits = routeLimits.get(client) ?? new Map<string, number>();
  routeLimits.set(client, limits);
  const next = Math.max(smallestBatch, Math.floor(size / 2));
  limits.set(routeOf(path), Math.min(next, limits.get(routeOf(path)) ?? batchLimit));
}

export interface BatchOp {
  /** The caller's reference (an index into its records). */
  key: number;
  body: Record<string, unknown>;
}

export type BatchItemResult =
  | { ok: true; item: unknown; op: 'create' | 'update' | 'delete'; recovered: boolean }
  | { ok: false; error: WcError; op: 'create' | 'update' | 'delete' };

export interface BatchPlan {
  create: BatchOp[];
  update: BatchOp[];
  delete?: BatchOp[];
}

/** Finds creates that a failed request may have carried out; returns those found by key. */
export type Recover = (pendingCreates: BatchOp[]) => Promise<Map<number, unknown>>;

const size = (plan: BatchPlan) =>
  plan.create.length + plan.update.length + (plan.delete?.length ?? 0);

function halves(plan: BatchPlan): BatchPlan[] {
  const ops = [
    ...plan.create.map((op) => ['create', op] as const),
    ...plan.update.map((op) => ['update', op] as const),
    ...(plan.delete ?? []).map((op) => ['delete', op] as const),
  ];
  const middle = Math.ceil(ops.length / 2);
  return [ops.slice(0, middle), ops.slice(middle)].map((part) => ({
    create: part.filter(([k]) => k === 'create').map(([, op]) => op),
    update: part.filter(([k]) => k === 'update').map(([, op]) => op),
    delete: part.filter(([k]) => k === 'delete').map(([, op]) => op),
  }));
}

/** Cuts a plan into requests of at most `limit` items. */
export function chunkPlan(plan: BatchPlan, limit = batchLimit): BatchPlan[] {
  if (size(plan) <= limit) return [plan];
  const [a, b] = halves(plan);
  return [...chunkPlan(a as BatchPlan, limit), ...chunkPlan(b as BatchPlan, limit)];
}

export async function runBatch(
  client: WooClient,
  path: string,
  plan: BatchPlan,
  recover: Recover,
  options: { maxAttempts?: number } = {},
): Promise<Map<number, BatchItemResult>> {
  const results = new Map<number, BatchItemResult>();
  const queue = chunkPlan(plan, batchLimitFor(client, path));
  const maxAttempts = options.maxAttempts ?? 6;
  while (queue.length) {
    const chunk = queue.shift() as BatchPlan;
    for (let attempt = 0; size(chunk) > 0; attempt++) {
      try {
        const body: Record<string, unknown> = {};
        if (chunk.create.length) body.create = chunk.create.map((op) => op.body);
        if (chunk.update.length) body.update = chunk.update.map((op) => op.body);
        if (chunk.delete?.length) body.delete = chunk.delete.map((op) => op.body.id);
        const { data } = await client.request('POST', path, {
          body,
          retryable: false,
          schema: wcBatchResponseSchema,
        });
        const take = (
          ops: BatchOp[],
          answers: unknown[] | undefined,
          op: 'create' | 'update' | 'delete',
        ) =>
          ops.forEach((o, i) => {
            const answer = answers?.[i];
            const failed = wcBatchErrorItemSchema.safeParse(answer);
            if (answer === undefined)
              results.set(o.key, {
                ok: false,
                op,
                error: {
                  code: 'missing_answer',
                  message: 'The store did not answer for this item.',
                },
              });
            else if (failed.success)
              results.set(o.key, { ok: false, op, error: failed.data.error });
            else results.set(o.key, { ok: true, op, item: answer, recovered: false });
          });
        take(chunk.create, data.create, 'create');
        take(chunk.update, data.update, 'update');
        take(chunk.delete ?? [], data.delete, 'delete');
        break;
      } catch (error) {
        if (!(error instanceof ConnectorError) || error.errorClass === 'config') throw error;
        const refusedWhole = error.code === 'batch_too_large' || error.code === 'bad_request';
        if (refusedWhole) {
          if (size(chunk) > 1) {
            queue.unshift(...halves(chunk).filter((h) => size(h) > 0));
            break;
          }
          const only = chunk.create[0] ?? chunk.update[0] ?? chunk.delete?.[0];
          const op = chunk.create.length ? 'create' : chunk.update.length ? 'update' : 'delete';
          if (only)
            results.set(only.key, {
              ok: false,
              op,
              error: { code: error.code, message: error.message },
            });
          break;
        }
        if (error.errorClass !== 'transient' || attempt + 1 >= maxAttempts) throw error;
        await client.pause(attempt, error.retryAfterMs);
        if (chunk.create.length) {
          const found = await recover(chunk.create);
          for (const [key, item] of found)
            results.set(key, { ok: true, op: 'create', item, recovered: true });
          client.tally.recoveries += 1;
          client.tally.recovered += found.size;
          client.note('woocommerce: a batch failed on its way; what it created was read back', {
            route: routeOf(path),
            code: error.code,
            creates: chunk.create.length,
            found: found.size,
          });
          chunk.create = chunk.create.filter((op) => !found.has(op.key));
        }
        // A store that is down (502, 503) says nothing about the batch's size; one that ran out
        // of time or memory on it (a time-out, 500, 504) does.
        const tooSlow = error.code === 'timeout' || error.status === 500 || error.status === 504;
        if (tooSlow && size(chunk) > smallestBatch) {
          shrink(client, path, size(chunk));
          client.note(
            'woocommerce: the store could not write a batch in time; smaller batches now',
            {
              route: routeOf(path),
              size: batchLimitFor(client, path),
            },
          );
          queue.unshift(...chunkPlan(chunk, batchLimitFor(client, path)));
          break;
        }
      }
    }
  }
  return results;
}
