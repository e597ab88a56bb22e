import type { EntityType } from '@replatform/canonical/entities';
import type { AssetRecord, Redirect } from '@replatform/connectors/kit/contract';
import type { EngineRepository } from '@replatform/db/engine-repository';
import type { StoreSide } from './migrate.ts';
import { redirectedEntities, redirectNeed } from './redirect-map.ts';
import type { StoreWatch } from './retry.ts';

/** Redirects handed to one writeRedirects() call. */
const BATCH = 50;
/** Refusals named in the run's notes, the rest counted. */
const NAMED = 3;

/** How a redirect is kept among the migration's assets: its old path and where it leads. */
export const redirectKey = (r: Pick<Redirect, 'from' | 'to'>) => `${r.from} -> ${r.to}`;

const plural = (n: number, one: string, many = `${one}s`) =>
  `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/**
 * Writes a 301 redirect into the destination for every record whose old address needs one (as
 * the redirect map decides), where the destination keeps redirects. Redirects an earlier run wrote
 * are left as they are; one whose target moved since (a new slug) is replaced. What was written is
 * kept among the migration's assets, so undo removes it. Answers the run's notes: how many were
 * written, already there or refused (with the first reasons). Never fails the run: the
 * downloadable map holds them all either way.
 */
export async function writeDestinationRedirects(options: {
  repository: EngineRepository;
  migrationId: string;
  destination: StoreSide;
  watch: StoreWatch;
  signal?: AbortSignal | undefined;
}): Promise<string[]> {
  const { repository, migrationId, destination, watch, signal } = options;
  const connection = destination.connection;
  if (!connection.writeRedirects) return [];
  const wanted: Redirect[] = [];
  let after: { entity: string; sourceId: string } | null = null;
  for (;;) {
    const rows = await repository.storefrontPaths(migrationId, redirectedEntities, after, 1000);
    if (!rows.length) break;
    const last = rows.at(-1)!;
    after = { entity: last.entity, sourceId: last.sourceId };
    for (const row of rows)
      if (redirectNeed(row) === 'yes')
        wanted.push({
          entity: row.entity as EntityType,
          sourceId: row.sourceId,
          destinationId: row.destinationId,
          from: row.sourcePath!,
          to: row.destinationPath!,
        });
  }
  const ours = (await repository.allAssets(migrationId)).filter((a) => a.kind === 'redirect');
  const held = new Set(ours.map((a) => a.key));
  const wantedKeys = new Set(wanted.map(redirectKey));
  const wantedFrom = new Set(wanted.map((r) => r.from));
  // Our own redirects of an old path that now leads elsewhere go first.
  const stale = ours.filter(
    (a) => !wantedKeys.has(a.key) && wantedFrom.has(a.key.split(' -> ')[0]!),
  );
  try {
    if (stale.length && connection.removeAssets) {
      const removed = await watch.run(
        () => connection.removeAssets!(stale as AssetRecord[]),
        signal,
      );
      await repository.deleteAssets(
        migrationId,
        'redirect',
        stale.filter((_, i) => removed[i]?.outcome !== 'failed').map((a) => a.key),
      );
    }
    const open = wanted.filter((r) => !held.has(redirectKey(r)));
    let created = wanted.length - open.length;
    let existing = 0;
    const refused: string[] = [];
    for (let i = 0; i < open.length; i += BATCH) {
      if (signal?.aborted) break;
      const part = open.slice(i, i + BATCH);
      const outcomes = await watch.run(() => connection.writeRedirects!(part), signal);
      const assets: { kind: string; key: string; destinationId: string }[] = [];
      part.forEach((r, j) => {
        const o = outcomes[j];
        if (o?.outcome === 'created' && o.destinationId) {
          created += 1;
          assets.push({ kind: 'redirect', key: redirectKey(r), destinationId: o.destinationId });
        } else if (o?.outcome === 'existing') existing += 1;
        else refused.push(`${r.from}: ${o?.reason ?? 'the store gave no answer for it'}`);
      });
      await repository.saveAssets(migrationId, assets);
    }
    if (!wanted.length) return [];
    const parts = [`${plural(created, 'redirect')} in place`];
    if (existing)
      parts.push(`${plural(existing, 'old address', 'old addresses')} already redirected there`);
    const notes = [
      `301 redirects written into your destination store from the old addresses: ${parts.join(', ')}.`,
    ];
    if (refused.length)
      notes.push(
        `301 redirects not written for ${plural(refused.length, 'old address', 'old addresses')} (the downloadable redirect list has ${refused.length === 1 ? 'it' : 'them'}): ${refused.slice(0, NAMED).join('; ')}${refused.length > NAMED ? '; …' : ''}.`,
      );
    return notes;
  } catch (error) {
    if (signal?.aborted) return [];
    return [
      `301 redirects could not be written into your destination store (${error instanceof Error ? error.message : String(error)}); the downloadable redirect list and server rules have them all.`,
    ];
  }
}
