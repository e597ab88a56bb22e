import { z } from 'zod';
import type { Category } from '@replatform/canonical/category';
import type { Product } from '@replatform/canonical/product';
import type { IdMap, WriteOutcome } from '../kit/contract.ts';
import { ConnectorError } from '../kit/errors.ts';
import { createOnce, errorText, type BcAnswer } from './client.ts';
import { categoryToBc, productToBc } from './map-catalog.ts';
import { collectionSchema, treeCategorySchema } from './payloads.ts';
import { allPages, parseAnswer, type BcSession } from './session.ts';

/** Runs `work` over `items` with at most `limit` at a time; results keep the input order. */
export async function mapLimit<T, R>(
  items: T[],
  limit: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T, index);
    }
  });
  await Promise.all(lanes);
  return results;
}

export const skipped = (sourceId: string, destinationId: number, reason: string): WriteOutcome => ({
  sourceId,
  outcome: 'skipped',
  destinationId: String(destinationId),
  reason,
});

const failed = (sourceId: string, reason: string): WriteOutcome => ({
  sourceId,
  outcome: 'failed',
  reason,
});

const withWarnings = (outcome: WriteOutcome, warnings: string[]): WriteOutcome =>
  warnings.length ? { ...outcome, warnings } : outcome;

/** A failure of one record (the platform refused it) rather than of the whole store. */
function recordFailure(error: unknown): string | undefined {
  if (error instanceof ConnectorError && error.errorClass === 'system') return error.message;
  return undefined;
}

// ------------------------------------------------------------------ categories

/**
 * Categories go into the default tree with POST /v3/catalog/trees/categories (batch create,
 * category-trees_catalog.v3.yml), parents before children: a batch is created in rounds, each
 * round holding the categories whose parent already has a destination id.
 */
export async function writeCategories(
  session: BcSession,
  records: Category[],
  idMap: IdMap,
): Promise<WriteOutcome[]> {
  const { markers } = session;
  const treeId = await session.treeId();
  await markers.categories.ensure();
  const outcomes = new Map<string, WriteOutcome>();
  const destination = new Map<string, number>();
  const destOf = (sourceId: string): number | undefined => {
    const mapped = idMap.get('categories', sourceId);
    return (
      destination.get(sourceId) ??
      (mapped ? Number(mapped) : undefined) ??
      markers.categories.find(sourceId)
    );
  };

  let pending: Category[] = [];
  for (const record of records) {
    const known = destOf(record.id);
    if (known !== undefined) outcomes.set(record.id, skipped(record.id, known, 'already migrated'));
    else pending.push(record);
  }

  const marks: { sourceId: string; resourceId: number }[] = [];
  while (pending.length > 0) {
    const ready = pending.filter((c) => c.parentId === null || destOf(c.parentId) !== undefined);
    if (ready.length === 0) {
      for (const c of pending)
        outcomes.set(c.id, failed(c.id, 'its parent category is not at the destination'));
      break;
    }
    pending = pending.filter((c) => !ready.includes(c));
    for (let i = 0; i < ready.length; i += 50) {
      const chunk = ready.slice(i, i + 50);
      const results = await createCategoryChunk(session, chunk, treeId, (c) =>
        c.parentId ? (destOf(c.parentId) ?? 0) : 0,
      );
      for (const [index, result] of results.entries()) {
        const record = chunk[index] as Category;
        outcomes.set(record.id, result.outcome);
        if (result.resourceId !== undefined) {
          destination.set(record.id, result.resourceId);
          markers.categories.claim(record.id, result.resourceId);
          marks.push({ sourceId: record.id, resourceId: result.resourceId });
        }
      }
    }
  }
  await markers.categories.add(marks);
  return records.map((r) => outcomes.get(r.id) ?? failed(r.id, 'not processed'));
}

async function createCategoryChunk(
  session: BcSession,
  chunk: Category[],
  treeId: number,
  parentOf: (c: Category) => number,
): Promise<{ outcome: WriteOutcome; resourceId?: number }[]> {
  const { client, markers } = session;
  const bodies = chunk.map((c) => categoryToBc(c, parentOf(c), treeId));
  const siblings = async () =>
    allPages(
      client,
      '/v3/catalog/trees/categories',
      { 'tree_id:in': [treeId], 'parent_id:in': [...new Set(bodies.map((b) => b.body.parent_id))] },
      treeCategorySchema,
    );
  const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
  const matches = (c: { parent_id: number; name: string }, index: number) => {
    const body = bodies[index]?.body;
    return body !== undefined && c.parent_id === body.parent_id && sameName(c.name, body.name);
  };
  // Sibling names are unique on BigCommerce: a second source category of the same name under the
  // same parent gets its source id appended.
  const rename = (i: number) => {
    const entry = bodies[i];
    const record = chunk[i];
    if (!entry || !record) return;
    const suffix = ` (${record.id})`;
    entry.body = {
      ...entry.body,
      name: `${entry.body.name.slice(0, 50 - suffix.length)}${suffix}`,
    };
    entry.warnings = [
      ...entry.warnings,
      `renamed to '${entry.body.name}': its parent already has a category of that name`,
    ];
  };
  const seen = new Set<string>();
  bodies.forEach((b, i) => {
    const key = `${b.body.parent_id}/${b.body.name.toLowerCase()}`;
    if (seen.has(key)) rename(i);
    seen.add(key);
  });
  // A category of that name already there, and not another record's, is linked rather than doubled.
  const existing = await siblings();
  const results: ({ outcome: WriteOutcome; resourceId?: number } | undefined)[] = chunk.map(
    (c, i) => {
      const hit = existing.find((e) => matches(e, i));
      if (!hit) return undefined;
      const owner = markers.categories.sourceOf(hit.category_id);
      if (owner !== undefined && owner !== c.id) {
        rename(i);
        return existing.some((e) => matches(e, i))
          ? {
              outcome: failed(
                c.id,
                `another migrated category named '${hit.name}' has the same parent`,
              ),
            }
          : undefined;
      }
      return {
        outcome: skipped(c.id, hit.category_id, 'a category with this name already existed there'),
        resourceId: hit.category_id,
      };
    },
  );
  const toCreate = chunk.map((_c, i) => i).filter((i) => results[i] === undefined);
  if (toCreate.length > 0) {
    let lastAnswer: BcAnswer | undefined;
    /** Creates the given categories; answers what was created and why the others were refused. */
    const post = async (indexes: number[]) => {
      // A repeated request cannot double a category (sibling names are unique): safe to retry.
      const answer = await client.request('POST', '/v3/catalog/trees/categories', {
        idempotent: true,
        body: indexes.map((i) => bodies[i]?.body),
      });
      lastAnswer = answer;
      if (![201, 207, 422].includes(answer.status)) {
        throw new ConnectorError(
          'system',
          'unexpected_answer',
          `Creating categories answered ${answer.status}: ${errorText(answer.body)}`,
        );
      }
      const parsed = parseAnswer(
        z.object({
          data: z.array(treeCategorySchema).default([]),
          errors: z.object({ errors: z.record(z.string(), z.unknown()).optional() }).optional(),
        }),
        answer.body ?? {},
        'POST /v3/catalog/trees/categories',
      );
      const refusals = new Map<number, string>();
      for (const [key, value] of Object.entries(parsed.errors?.errors ?? {})) {
        const position = /^\[(\d+)\]$/.exec(key)?.[1];
        const index = position === undefined ? undefined : indexes[Number(position)];
        if (index !== undefined) refusals.set(index, String(value));
      }
      return { created: parsed.data, refusals };
    };
    const first = await post(toCreate);
    const created = first.created;
    // A storefront URL already in use: BigCommerce picks one from the name instead.
    const urlTaken = toCreate.filter(
      (i) => !created.some((c) => matches(c, i)) && /url/i.test(first.refusals.get(i) ?? ''),
    );
    if (urlTaken.length > 0) {
      for (const i of urlTaken) {
        const entry = bodies[i];
        if (!entry) continue;
        const { url: _url, ...rest } = entry.body;
        entry.body = rest;
        entry.warnings = [
          ...entry.warnings,
          'the storefront URL was taken; BigCommerce chose a new one',
        ];
      }
      created.push(...(await post(urlTaken)).created);
    }
    const answer = lastAnswer as BcAnswer;
    const missing = toCreate.some((i) => !created.some((c) => matches(c, i)));
    // Not in this answer: refused, or created by an earlier attempt whose answer was lost.
    const present = missing ? [...created, ...(await siblings())] : created;
    for (const i of toCreate) {
      const record = chunk[i] as Category;
      const hit = present.find((c) => matches(c, i));
      results[i] = hit
        ? {
            outcome: withWarnings(
              { sourceId: record.id, outcome: 'created', destinationId: String(hit.category_id) },
              bodies[i]?.warnings ?? [],
            ),
            resourceId: hit.category_id,
          }
        : {
            outcome: failed(
              record.id,
              `BigCommerce refused the category: ${errorText(answer.body)}`,
            ),
          };
    }
  }
  return results.map((r, i) => r ?? { outcome: failed(chunk[i]?.id ?? '', 'not processed') });
}

// ------------------------------------------------------------------ products

const productAnswer = z.object({ data: z.object({ id: z.number().int() }) });

/**
 * One product per POST /v3/catalog/products (products_catalog.v3.yml createProduct), with its
 * variants, images (by URL) and custom fields nested, so a product is complete or absent. The
 * platform refuses a second product of the same name or SKU (409), which makes a repeated create
 * harmless; the marker metafield follows in one batch per write.
 */
export async function writeProducts(
  session: BcSession,
  records: Product[],
  idMap: IdMap,
): Promise<WriteOutcome[]> {
  const { markers } = session;
  const [{ units }] = await Promise.all([session.store(), markers.products.ensure()]);
  const marks: { sourceId: string; resourceId: number }[] = [];
  // Names are unique on BigCommerce: a second product of the same name in this batch is renamed
  // up front (records of earlier batches are told apart by their markers).
  const seenNames = new Set<string>();
  const twins = new Set(
    records.filter((r) => {
      const key = r.name.trim().toLowerCase();
      const twin = seenNames.has(key);
      seenNames.add(key);
      return twin;
    }),
  );
  const renamed = (product: Product, body: Record<string, unknown>, warnings: string[]) => {
    const suffix = product.sku || product.id;
    const name = `${product.name.slice(0, 240 - suffix.length)} (${suffix})`;
    warnings.push(`renamed to '${name}': another product already has this name`);
    return { ...body, name };
  };

  const outcomes = await mapLimit(records, 3, async (product): Promise<WriteOutcome> => {
    const mapped = idMap.get('products', product.id);
    const known = mapped ? Number(mapped) : markers.products.find(product.id);
    if (known !== undefined) return skipped(product.id, known, 'already migrated');
    const warnings: string[] = [];
    const categoryIds: number[] = [];
    for (const sourceId of product.categoryIds) {
      const dest =
        idMap.get('categories', sourceId) ?? markers.categories.find(sourceId)?.toString();
      if (dest) categoryIds.push(Number(dest));
      else
        warnings.push(
          `category ${sourceId} is not at the destination; the product was not put in it`,
        );
    }
    try {
      const brandId = await session.brandFor(product.vendor);
      const mappedBody = productToBc(product, { units, categoryIds, brandId });
      warnings.push(...mappedBody.warnings);
      let body: Record<string, unknown> = twins.has(product)
        ? renamed(product, mappedBody.body, warnings)
        : mappedBody.body;
      for (let attempt = 0; attempt < 3; attempt++) {
        const result = await createProduct(session, product, body);
        if (result.kind === 'created' || result.kind === 'adopted') {
          markers.products.claim(product.id, result.id);
        }
        if (result.kind === 'created') {
          marks.push({ sourceId: product.id, resourceId: result.id });
          return withWarnings(
            { sourceId: product.id, outcome: 'created', destinationId: String(result.id) },
            warnings,
          );
        }
        if (result.kind === 'adopted') {
          marks.push({ sourceId: product.id, resourceId: result.id });
          return withWarnings(skipped(product.id, result.id, result.reason), warnings);
        }
        if (result.kind === 'rename') {
          body = renamed(product, body, warnings);
          continue;
        }
        if (result.kind === 'url') {
          const { custom_url: _url, ...rest } = body;
          body = rest;
          warnings.push('the storefront URL was taken; BigCommerce chose a new one');
          continue;
        }
        return withWarnings(failed(product.id, result.reason), warnings);
      }
      return withWarnings(
        failed(product.id, 'the product name or URL stayed in conflict'),
        warnings,
      );
    } catch (error) {
      const reason = recordFailure(error);
      if (reason === undefined) throw error;
      return withWarnings(failed(product.id, reason), warnings);
    }
  });
  await markers.products.add(marks);
  return outcomes;
}

type CreateResult =
  | { kind: 'created'; id: number }
  | { kind: 'adopted'; id: number; reason: string }
  | { kind: 'rename' }
  | { kind: 'url' }
  | { kind: 'failed'; reason: string };

async function findProduct(
  session: BcSession,
  query: Record<string, string>,
): Promise<number | undefined> {
  const answer = await session.client.ok('GET', '/v3/catalog/products', {
    query: { ...query, include_fields: ['name', 'sku'], limit: 5 },
  });
  const found = parseAnswer(
    collectionSchema(z.object({ id: z.number().int() })),
    answer.body,
    'GET products',
  );
  return found.data[0]?.id;
}

async function createProduct(
  session: BcSession,
  product: Product,
  body: Record<string, unknown>,
): Promise<CreateResult> {
  const { client, markers } = session;
  const name = String(body.name);
  const sent = await createOnce<{ answer?: BcAnswer; recoveredId?: number }>(
    client,
    async () => ({
      answer: await session.writeSlots.products.run(() =>
        client.request('POST', '/v3/catalog/products', { body, idempotent: false }),
      ),
    }),
    async () => {
      // The create may have gone through before the answer was lost: a product of this name is ours.
      const id = await findProduct(session, { name });
      return id === undefined ? undefined : { recoveredId: id };
    },
  );
  if (sent.recoveredId !== undefined) return { kind: 'created', id: sent.recoveredId };
  const answer = sent.answer as BcAnswer;
  if (answer.status === 200 || answer.status === 201 || answer.status === 207) {
    const data = parseAnswer(productAnswer, answer.body, 'POST /v3/catalog/products').data;
    return { kind: 'created', id: data.id };
  }
  if (answer.status === 409) {
    const errors = JSON.stringify((answer.body as { errors?: unknown } | undefined)?.errors ?? {});
    const title = errorText(answer.body);
    const field = errors.includes('custom_url')
      ? 'url'
      : /sku/i.test(`${errors} ${title}`)
        ? 'sku'
        : 'name';
    if (field === 'url') return { kind: 'url' };
    const id = await findProduct(
      session,
      field === 'sku' ? { sku: String(body.sku ?? '') } : { name },
    );
    if (id === undefined)
      return { kind: 'failed', reason: `BigCommerce refused the product: ${title}` };
    const owner = markers.products.sourceOf(id);
    if (owner === undefined || owner === product.id) {
      return {
        kind: 'adopted',
        id,
        reason: `a product with this ${field} already existed at the destination; linked to it`,
      };
    }
    if (field === 'name') return { kind: 'rename' };
    return {
      kind: 'failed',
      reason: `the SKU is already used by another migrated product (${owner})`,
    };
  }
  return {
    kind: 'failed',
    reason: `BigCommerce refused the product (${answer.status}): ${errorText(answer.body)}`,
  };
}
