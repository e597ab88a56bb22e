import type { EntityType } from '@replatform/canonical/entities';
import type { AssetRecord, IdMap } from '../kit/contract.ts';
import { runBatch, type BatchItemResult, type BatchOp } from './batch.ts';
import type { WooClient } from './client.ts';
import type { WcTerm } from './wc-schemas.ts';

/**
 * What the writers of WooCommerce's product term trees (categories, brands) share: both are
 * taxonomies written parents first through their batch route, with the same answers.
 */

/**
 * A create WordPress refused with `term_exists` (the same name under the same parent) names the
 * existing term: it is answered as found (`recovered`), for the writer to decide whose it is.
 */
export async function resolveTermExists(
  results: Map<number, BatchItemResult>,
  index: (refresh: boolean) => Promise<Map<number, WcTerm>>,
): Promise<Map<number, BatchItemResult>> {
  for (const [key, result] of results) {
    if (result.ok || result.error.code !== 'term_exists') continue;
    const existingId = result.error.data?.resource_id;
    if (typeof existingId !== 'number') continue;
    const term = (await index(true)).get(existingId);
    if (term) results.set(key, { ok: true, op: 'update', item: term, recovered: true });
  }
  return results;
}

/**
 * Gives the terms written before their parent (`orphans`: destination id -> source id of the
 * parent) their parent, once it is at the destination; those linked leave `orphans`.
 */
export async function adoptOrphans(
  client: WooClient,
  entity: Extract<EntityType, 'categories' | 'brands'>,
  orphans: Map<number, string>,
  written: Map<string, number>,
  idMap: IdMap,
): Promise<void> {
  const fixes: BatchOp[] = [];
  for (const [childId, parentSource] of orphans) {
    const parent = written.get(parentSource) ?? idMap.get(entity, parentSource);
    if (parent === undefined) continue;
    fixes.push({ key: childId, body: { id: childId, parent: Number(parent) } });
  }
  if (!fixes.length) return;
  const results = await runBatch(
    client,
    `/products/${entity}/batch`,
    { create: [], update: fixes },
    async () => new Map(),
  );
  for (const [childId, result] of results) if (result.ok) orphans.delete(childId);
}

/** The shared files a term's write stored for its image (by the image's address). */
export function assetsOf(assets: AssetRecord[], url: string | undefined): AssetRecord[] {
  return url ? assets.filter((a) => a.key === url) : [];
}
