import { z } from 'zod';
import type { EntityType } from '@replatform/canonical/entities';
import type { Redirect, RedirectOutcome, RemoveOutcome } from '../kit/contract.ts';
import { mapLimit } from '../kit/concurrency.ts';
import { ConnectorError } from '../kit/errors.ts';
import { errorText } from './client.ts';
import { collectionSchema } from './payloads.ts';
import { allPages, parseAnswer, v3Total, type BcSession } from './session.ts';

/**
 * Storefront 301 redirects (redirects.v3.yml, /v3/storefront/redirects, Content scope).
 *
 * Redirects belong to a site: the one of the store's default channel, which GET /v2/store names
 * as `default_site_id`. The old paths the site already redirects are read first: the whole list
 * of the site when it holds at most `listLimit` redirects (a few pages of 250), else each path
 * looked up by the `keyword` filter, which matches from the beginning of a path, and the exact
 * path picked from what it finds. A path the site already sends to the same place is 'existing';
 * one it sends elsewhere is the owner's (or an earlier run's with another target) and is left
 * alone, 'failed' with where it leads. The rest are upserted `upsertBatch` at a time (PUT takes a
 * list); a refused batch is sent again one by one, so only the refused redirects fail.
 *
 * The target is a record of the store (`type: product | category | brand | page | post`,
 * `entity_id`) when the redirect names its destination id, so it keeps leading to the record if
 * its path changes later; else the new path as `type: url`.
 */

const upsertBatch = 50;
const listLimit = 2500;
const deleteBatch = 50;

const redirectSchema = z.object({
  id: z.number().int(),
  site_id: z.number().int(),
  from_path: z.string(),
  to: z
    .object({
      type: z.string(),
      entity_id: z.number().int().nullish(),
      url: z.string().nullish(),
    })
    .nullish(),
  to_url: z.string().nullish(),
});
type BcRedirect = z.infer<typeof redirectSchema>;

interface Target {
  type: 'product' | 'category' | 'brand' | 'page' | 'post' | 'url';
  entity_id?: number;
  url?: string;
}

const entityTargets: Partial<Record<EntityType, Target['type']>> = {
  products: 'product',
  categories: 'category',
  brands: 'brand',
  pages: 'page',
  posts: 'post',
};

/**
 * A redirect as the engine may hand it once it knows where the record went: with the
 * destination id of its record, the target is that record rather than its path today.
 */
export type RedirectWithRecord = Redirect & { destinationId?: string };

/** A path as BigCommerce keeps one: from the first slash, without scheme and host. */
export function pathOf(value: string): string {
  const trimmed = value.trim();
  if (/^https?:\/\//i.test(trimmed)) {
    const url = new URL(trimmed);
    return `${url.pathname}${url.search}`;
  }
  return trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

export function targetOf(redirect: RedirectWithRecord): Target {
  const type = entityTargets[redirect.entity];
  const id = Number(redirect.destinationId);
  if (type && redirect.destinationId && Number.isInteger(id) && id > 0)
    return { type, entity_id: id };
  return { type: 'url', url: pathOf(redirect.to) };
}

function leadsTo(current: BcRedirect, target: Target, path: string): boolean {
  const to = current.to;
  if (to?.type === target.type) {
    if (target.type === 'url' && to.url && pathOf(to.url) === target.url) return true;
    if (target.type !== 'url' && to.entity_id === target.entity_id) return true;
  }
  return Boolean(current.to_url && pathOf(current.to_url) === path);
}

function whereItLeads(current: BcRedirect): string {
  if (current.to_url) return pathOf(current.to_url);
  const to = current.to;
  if (!to) return 'another page';
  return to.type === 'url' ? (to.url ?? 'another page') : `${to.type} ${String(to.entity_id)}`;
}

function contentScope(error: unknown, what: string): never {
  if (error instanceof ConnectorError && error.status === 403)
    throw new ConnectorError(
      'config',
      'read_only_credentials',
      `This BigCommerce API account may not ${what} storefront redirects: its Content scope is not set to modify. Edit the account (or create a new one) under Settings > API > Store-level API accounts.`,
      { status: 403 },
    );
  throw error;
}

async function siteIdOf(session: BcSession): Promise<number> {
  const site = (await session.store()).default_site_id;
  if (site === undefined || site === null)
    throw new ConnectorError(
      'system',
      'no_default_site',
      "BigCommerce did not name the store's default site (GET /v2/store default_site_id), to which redirects belong",
    );
  return site;
}

/** The site's redirects of these old paths, by path. */
async function currentRedirects(
  session: BcSession,
  siteId: number,
  paths: readonly string[],
): Promise<Map<string, BcRedirect>> {
  const path = '/v3/storefront/redirects';
  const { client } = session;
  const byPath = new Map<string, BcRedirect>();
  const wanted = new Set(paths);
  const total = await v3Total(client, path, { site_id: siteId });
  if (total <= listLimit) {
    const all = await allPages(
      client,
      path,
      { site_id: siteId, include: ['to_url'] },
      redirectSchema,
    );
    for (const r of all) if (wanted.has(r.from_path)) byPath.set(r.from_path, r);
    return byPath;
  }
  await mapLimit([...wanted], 3, async (from) => {
    const answer = await client.ok('GET', path, {
      query: { site_id: siteId, keyword: from, include: ['to_url'], limit: 250 },
    });
    const found = parseAnswer(collectionSchema(redirectSchema), answer.body, `GET ${path}`).data;
    const exact = found.find((r) => r.from_path === from);
    if (exact) byPath.set(from, exact);
  });
  return byPath;
}

export async function writeStoreRedirects(
  session: BcSession,
  redirects: readonly RedirectWithRecord[],
): Promise<RedirectOutcome[]> {
  if (redirects.length === 0) return [];
  try {
    return await writeAll(session, redirects);
  } catch (error) {
    return contentScope(error, 'write');
  }
}

async function writeAll(
  session: BcSession,
  redirects: readonly RedirectWithRecord[],
): Promise<RedirectOutcome[]> {
  const siteId = await siteIdOf(session);
  const plans = redirects.map((r) => ({
    from: pathOf(r.from),
    path: pathOf(r.to),
    target: targetOf(r),
  }));
  const current = await currentRedirects(
    session,
    siteId,
    plans.map((p) => p.from),
  );
  const outcomes: (RedirectOutcome | undefined)[] = redirects.map(() => undefined);
  const planned = new Map<string, number>();
  const toWrite: number[] = [];
  plans.forEach((plan, index) => {
    const from = redirects[index]!.from;
    const there = current.get(plan.from);
    if (there) {
      outcomes[index] = leadsTo(there, plan.target, plan.path)
        ? { from, outcome: 'existing' }
        : {
            from,
            outcome: 'failed',
            reason: `the store already redirects ${plan.from} to ${whereItLeads(there)}; that redirect was left as it is`,
          };
      return;
    }
    const first = planned.get(plan.from);
    if (first !== undefined) {
      const other = plans[first]!;
      outcomes[index] =
        JSON.stringify(other.target) === JSON.stringify(plan.target)
          ? { from, outcome: 'existing' }
          : {
              from,
              outcome: 'failed',
              reason: `another redirect of this migration already sends ${plan.from} to ${other.path}`,
            };
      return;
    }
    planned.set(plan.from, index);
    toWrite.push(index);
  });

  const send = async (indexes: number[]): Promise<void> => {
    const body = indexes.map((i) => ({
      from_path: plans[i]!.from,
      site_id: siteId,
      to: plans[i]!.target,
    }));
    const answer = await session.client.request('PUT', '/v3/storefront/redirects', { body });
    if (answer.status === 200 || answer.status === 201) {
      const written = parseAnswer(
        collectionSchema(redirectSchema),
        answer.body,
        'PUT /v3/storefront/redirects',
      ).data;
      const ids = new Map(written.map((r) => [r.from_path, r.id]));
      for (const i of indexes) {
        const id = ids.get(plans[i]!.from);
        outcomes[i] =
          id === undefined
            ? {
                from: redirects[i]!.from,
                outcome: 'failed',
                reason: 'BigCommerce did not answer with the redirect it wrote',
              }
            : { from: redirects[i]!.from, outcome: 'created', destinationId: String(id) };
      }
      return;
    }
    if (answer.status === 403)
      throw new ConnectorError('config', 'forbidden', 'forbidden', { status: 403 });
    if (indexes.length > 1) {
      for (const i of indexes) await send([i]);
      return;
    }
    const i = indexes[0]!;
    outcomes[i] = {
      from: redirects[i]!.from,
      outcome: 'failed',
      reason: `BigCommerce refused the redirect (${answer.status}): ${errorText(answer.body)}`,
    };
  };
  for (let start = 0; start < toWrite.length; start += upsertBatch)
    await send(toWrite.slice(start, start + upsertBatch));

  return outcomes.map(
    (o, i) => o ?? { from: redirects[i]!.from, outcome: 'failed', reason: 'not processed' },
  );
}

/**
 * Undo: deletes redirects writeRedirects created, by id. One GET per batch tells the ones the
 * store still has from the gone ones (DELETE answers 204 either way), then one DELETE by id:in.
 */
export async function removeRedirects(
  session: BcSession,
  destinationIds: readonly string[],
): Promise<Map<string, RemoveOutcome>> {
  const results = new Map<string, RemoveOutcome>();
  const ids = new Map<number, string[]>();
  for (const destinationId of destinationIds) {
    const id = Number(destinationId);
    if (!Number.isInteger(id) || id <= 0) {
      results.set(destinationId, {
        destinationId,
        outcome: 'failed',
        reason: `'${destinationId}' is not a BigCommerce redirect id`,
      });
      continue;
    }
    ids.set(id, [...(ids.get(id) ?? []), destinationId]);
  }
  const path = '/v3/storefront/redirects';
  const all = [...ids.keys()];
  try {
    for (let start = 0; start < all.length; start += deleteBatch) {
      const batch = all.slice(start, start + deleteBatch);
      const answer = await session.client.ok('GET', path, {
        query: { 'id:in': batch, limit: 250 },
      });
      const present = new Set(
        parseAnswer(collectionSchema(redirectSchema), answer.body, `GET ${path}`).data.map(
          (r) => r.id,
        ),
      );
      const doomed = batch.filter((id) => present.has(id));
      if (doomed.length) await session.client.ok('DELETE', path, { query: { 'id:in': doomed } });
      for (const id of batch)
        for (const destinationId of ids.get(id) ?? [])
          results.set(destinationId, {
            destinationId,
            outcome: present.has(id) ? 'removed' : 'gone',
          });
    }
  } catch (error) {
    contentScope(error, 'delete');
  }
  return results;
}
