import { z } from 'zod';
import type { Category } from '@replatform/canonical/category';
import type { Product } from '@replatform/canonical/product';
import type { IdMap, WriteOutcome } from '../kit/contract.ts';
import { ConnectorError } from '../kit/errors.ts';
import { createOnce, errorText, type BcAnswer } from './client.ts';
import { categoryToBc, productToBc, type OptionPlan, type ProductWrite } from './map-catalog.ts';
import type { MetafieldInput } from './metafields.ts';
import { mapLimit } from '../kit/concurrency.ts';
import type { Json } from './native.ts';
import { collectionSchema, optionSchema, treeCategorySchema } from './payloads.ts';
import { allPages, nameKey, parseAnswer, type BcSession } from './session.ts';
import { addMetafields } from './write-metafields.ts';

export const skipped = (sourceId: string, destinationId: number, reason: string): WriteOutcome => ({
  sourceId,
  outcome: 'skipped',
  destinationId: String(destinationId),
  reason,
});

/** The merchant's own record, linked without being changed (and never changed by later runs). */
export const linked = (sourceId: string, destinationId: number, reason: string): WriteOutcome => ({
  ...skipped(sourceId, destinationId, reason),
  linked: true,
});

const failed = (sourceId: string, reason: string): WriteOutcome => ({
  sourceId,
  outcome: 'failed',
  reason,
});

const withWarnings = (outcome: WriteOutcome, warnings: string[]): WriteOutcome =>
  warnings.length ? { ...outcome, warnings: [...(outcome.warnings ?? []), ...warnings] } : outcome;

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
  const metafields: { sourceId: string; resourceId: number; metafields: MetafieldInput[] }[] = [];
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
          if (result.outcome.outcome === 'created' && result.metafields.length)
            metafields.push({
              sourceId: record.id,
              resourceId: result.resourceId,
              metafields: result.metafields,
            });
        }
      }
    }
  }
  await markers.categories.add(marks);
  const refused = await addMetafields(session, '/v3/catalog/categories/metafields', metafields);
  for (const entry of metafields) {
    const problems = refused.get(entry.resourceId);
    const outcome = outcomes.get(entry.sourceId);
    if (problems && outcome) outcomes.set(entry.sourceId, withWarnings(outcome, problems));
  }
  return records.map((r) => outcomes.get(r.id) ?? failed(r.id, 'not processed'));
}

async function createCategoryChunk(
  session: BcSession,
  chunk: Category[],
  treeId: number,
  parentOf: (c: Category) => number,
): Promise<CategoryResult[]> {
  const { client, markers } = session;
  const bodies = chunk.map((c) => categoryToBc(c, parentOf(c), treeId));
  // keepSlugs false: BigCommerce makes the category's path from its name.
  if (!session.choices.keepSlugs) for (const b of bodies) delete b.body.url;
  const siblings = async () =>
    allPages(
      client,
      '/v3/catalog/trees/categories',
      { 'tree_id:in': [treeId], 'parent_id:in': [...new Set(bodies.map((b) => b.body.parent_id))] },
      treeCategorySchema,
    );
  const sameName = (a: string, b: string) => nameKey(a) === nameKey(b);
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
    const key = `${b.body.parent_id}/${nameKey(b.body.name)}`;
    if (seen.has(key)) rename(i);
    seen.add(key);
  });
  // A category of that name already there, and not another record's, is linked rather than doubled.
  const existing = await siblings();
  const results: (CategoryResult | undefined)[] = chunk.map((c, i) => {
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
            metafields: [],
          }
        : undefined;
    }
    return {
      outcome: linked(c.id, hit.category_id, 'a category with this name already existed there'),
      resourceId: hit.category_id,
      metafields: [],
    };
  });
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
            metafields: bodies[i]?.metafields ?? [],
          }
        : {
            outcome: failed(
              record.id,
              `BigCommerce refused the category: ${errorText(answer.body)}`,
            ),
            metafields: [],
          };
    }
  }
  return results.map(
    (r, i) => r ?? { outcome: failed(chunk[i]?.id ?? '', 'not processed'), metafields: [] },
  );
}

interface CategoryResult {
  outcome: WriteOutcome;
  resourceId?: number;
  metafields: MetafieldInput[];
}

// ------------------------------------------------------------------ products

const productAnswer = z.object({
  data: z.object({
    id: z.number().int(),
    base_variant_id: z.number().int().nullish(),
    variants: z.array(z.object({ id: z.number().int(), sku: z.string().nullish() })).default([]),
  }),
});
type CreatedProduct = z.infer<typeof productAnswer>['data'];

interface Pending {
  product: Product;
  id: number;
  write: ProductWrite;
  created: CreatedProduct | undefined;
}

/**
 * One product per POST /v3/catalog/products (products_catalog.v3.yml createProduct), with its
 * variants, images (by URL), custom fields, videos and pricing rules nested, so a product is
 * complete or absent. The platform refuses a second product of the same name or SKU (409), which
 * makes a repeated create harmless. What the create cannot carry follows: option settings
 * (PUT options), the own fields of a simple product's variant, and metafields (in batches, with
 * the markers).
 *
 * A product already at the destination is written again only for its links to other products
 * (related products), which may not have existed when it was first written.
 */
export async function writeProducts(
  session: BcSession,
  records: Product[],
  idMap: IdMap,
): Promise<WriteOutcome[]> {
  const { markers } = session;
  const [{ units }] = await Promise.all([session.store(), markers.products.ensure()]);
  const now = Date.now();
  const marks: { sourceId: string; resourceId: number }[] = [];
  const written: Pending[] = [];
  // Names are unique on BigCommerce: a second product of the same name in this batch is renamed
  // up front (records of earlier batches are told apart by their markers).
  const seenNames = new Set<string>();
  const twins = new Set(
    records.filter((r) => {
      const key = nameKey(r.name.trim());
      const twin = seenNames.has(key);
      seenNames.add(key);
      return twin;
    }),
  );
  const renamed = (product: Product, body: Json, warnings: string[]) => {
    const suffix = product.sku || product.id;
    const name = `${product.name.slice(0, 240 - suffix.length)} (${suffix})`;
    warnings.push(`renamed to '${name}': another product already has this name`);
    return { ...body, name };
  };
  const related = (product: Product) =>
    [...product.upsellIds, ...product.groupedProductIds].flatMap((sourceId) => {
      const dest = idMap.get('products', sourceId) ?? markers.products.find(sourceId)?.toString();
      return dest ? [Number(dest)] : [];
    });

  const outcomes = await mapLimit(records, 3, async (product): Promise<WriteOutcome> => {
    const mapped = idMap.get('products', product.id);
    const known = mapped ? Number(mapped) : markers.products.find(product.id);
    if (known !== undefined) {
      // The write again replaces the record's outcome: it names again what the first write
      // could not keep.
      const { warnings } = productToBc(product, {
        units,
        categoryIds: [],
        brandId: 0,
        relatedIds: [],
        now,
      });
      return withWarnings(await relink(session, product, known, related(product)), warnings);
    }
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
      const write = productToBc(product, {
        units,
        categoryIds,
        brandId,
        relatedIds: related(product),
        now,
      });
      warnings.push(...write.warnings);
      // keepSlugs false: BigCommerce makes the product's path from its name.
      if (!session.choices.keepSlugs) delete write.body.custom_url;
      let body: Json = twins.has(product) ? renamed(product, write.body, warnings) : write.body;
      for (let attempt = 0; attempt < 3; attempt++) {
        const result = await createProduct(session, product, body);
        if (result.kind === 'created' || result.kind === 'adopted') {
          markers.products.claim(product.id, result.id);
          marks.push({ sourceId: product.id, resourceId: result.id });
          written.push({
            product,
            id: result.id,
            write,
            created: result.kind === 'created' ? result.created : undefined,
          });
        }
        if (result.kind === 'created') {
          return withWarnings(
            { sourceId: product.id, outcome: 'created', destinationId: String(result.id) },
            warnings,
          );
        }
        if (result.kind === 'adopted') {
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
  const problems = await completeProducts(session, written, related);
  return outcomes.map((outcome) => {
    const more = problems.get(outcome.sourceId);
    return more?.length ? withWarnings(outcome, more) : outcome;
  });
}

/** Writes again the related products of a product already at the destination. */
async function relink(
  session: BcSession,
  product: Product,
  id: number,
  relatedIds: number[],
): Promise<WriteOutcome> {
  if (relatedIds.length === 0) return skipped(product.id, id, 'already migrated');
  const answer = await session.client.request('PUT', `/v3/catalog/products/${id}`, {
    body: { related_products: [...new Set(relatedIds)] },
  });
  if (answer.status === 200)
    return { sourceId: product.id, outcome: 'updated', destinationId: String(id) };
  return {
    sourceId: product.id,
    outcome: 'skipped',
    destinationId: String(id),
    reason: `already migrated; its related products could not be updated: ${errorText(answer.body)}`,
    warnings: ['related products not updated (upsellIds)'],
  };
}

/**
 * What follows the creates of a batch: option settings, a simple product's own variant fields,
 * and the metafields of products and variants. Answers the problems per source id.
 */
async function completeProducts(
  session: BcSession,
  written: Pending[],
  related: (product: Product) => number[],
): Promise<Map<string, string[]>> {
  const problems = new Map<string, string[]>();
  const note = (sourceId: string, text: string) =>
    problems.set(sourceId, [...(problems.get(sourceId) ?? []), text]);
  const productMetafields: { resourceId: number; metafields: MetafieldInput[] }[] = [];
  const variantMetafields: { resourceId: number; metafields: MetafieldInput[] }[] = [];
  const owners = new Map<string, string>();
  await mapLimit(written, 3, async ({ product, id, write, created }) => {
    let variants = created?.variants;
    const needsVariants =
      write.baseVariant !== undefined || write.variantMetafields.size > 0 || !created;
    if (!variants && needsVariants) {
      const answer = await session.client.ok('GET', `/v3/catalog/products/${id}/variants`, {
        query: { limit: 250 },
      });
      variants = parseAnswer(
        collectionSchema(z.object({ id: z.number().int(), sku: z.string().nullish() })),
        answer.body,
        'GET variants',
      ).data;
    }
    for (const plan of write.optionPlans) {
      const problem = await applyOptionPlan(session, id, plan);
      if (problem) note(product.id, problem);
    }
    for (const rule of write.bulkPricingRules) {
      const problem = await addPricingRule(session, id, rule);
      if (problem) note(product.id, problem);
    }
    // Products of this batch it relates to were made alongside it: link them now.
    const links = [...new Set(related(product))];
    const sent = (write.body.related_products as number[] | undefined) ?? [];
    if (links.some((link) => !sent.includes(link))) {
      const answer = await session.client.request('PUT', `/v3/catalog/products/${id}`, {
        body: { related_products: links },
      });
      if (answer.status !== 200)
        note(product.id, `related products not updated: ${errorText(answer.body)} (upsellIds)`);
    }
    if (write.baseVariant) {
      const base = created?.base_variant_id ?? variants?.[0]?.id;
      if (base !== undefined) {
        const answer = await session.client.request(
          'PUT',
          `/v3/catalog/products/${id}/variants/${base}`,
          { body: write.baseVariant },
        );
        if (answer.status !== 200)
          note(
            product.id,
            `the variant's own fields were refused: ${errorText(answer.body)} (variants)`,
          );
      }
    }
    if (write.metafields.length) {
      productMetafields.push({ resourceId: id, metafields: write.metafields });
      owners.set(`p${id}`, product.id);
    }
    for (const [sku, metafields] of write.variantMetafields) {
      const variant = variants?.find((v) => (v.sku ?? '').toLowerCase() === sku.toLowerCase());
      if (!variant) {
        note(
          product.id,
          `the custom fields of variant ${sku} were not written (variants.metafields)`,
        );
        continue;
      }
      variantMetafields.push({ resourceId: variant.id, metafields });
      owners.set(`v${variant.id}`, product.id);
    }
  });
  for (const [prefix, path, entries] of [
    ['p', '/v3/catalog/products/metafields', productMetafields],
    ['v', '/v3/catalog/variants/metafields', variantMetafields],
  ] as const) {
    for (const [resourceId, texts] of await addMetafields(session, path, entries)) {
      const owner = owners.get(`${prefix}${resourceId}`);
      if (owner) for (const text of texts) note(owner, text);
    }
  }
  return problems;
}

/**
 * Makes a bulk pricing rule (products_catalog.v3.yml createBulkPricingRule). A rule whose answer
 * was lost is looked for before it is made again.
 */
async function addPricingRule(
  session: BcSession,
  productId: number,
  rule: Json,
): Promise<string | undefined> {
  const path = `/v3/catalog/products/${productId}/bulk-pricing-rules`;
  const same = (r: Json) => r.quantity_min === rule.quantity_min && r.type === rule.type;
  const sent = await createOnce<{ answer?: BcAnswer; found?: true }>(
    session.client,
    async () => ({
      answer: await session.client.request('POST', path, { body: rule, idempotent: false }),
    }),
    async () => {
      // getAllBulkPricingRules takes no page or limit: a product has few rules.
      const answer = await session.client.ok('GET', path);
      const rules = parseAnswer(
        collectionSchema(z.record(z.string(), z.unknown())),
        answer.body,
        `GET ${path}`,
      );
      return rules.data.some(same) ? { found: true } : undefined;
    },
  );
  if (sent.found || sent.answer?.status === 200) return undefined;
  return `a bulk pricing rule was refused: ${errorText(sent.answer?.body)} (metafields)`;
}

/**
 * Sets an option's display type, the order of its values, the preselected value and swatch data
 * (PUT /v3/catalog/products/{id}/options/{option_id}), when BigCommerce made it otherwise.
 */
async function applyOptionPlan(
  session: BcSession,
  productId: number,
  plan: OptionPlan,
): Promise<string | undefined> {
  const answer = await session.client.ok('GET', `/v3/catalog/products/${productId}/options`, {
    query: { limit: 250 },
  });
  const options = parseAnswer(collectionSchema(optionSchema), answer.body, 'GET options').data;
  const option = options.find((o) => o.display_name === plan.display_name);
  if (!option?.id)
    return `the option ${plan.display_name} was not found after the create (options)`;
  const values = plan.values.map((value) => {
    const existing = option.option_values.find((v) => v.label === value.label);
    return { ...(existing?.id !== undefined ? { id: existing.id } : {}), ...value };
  });
  const put = await session.client.request(
    'PUT',
    `/v3/catalog/products/${productId}/options/${option.id}`,
    {
      body: {
        product_id: productId,
        display_name: plan.display_name,
        type: plan.type,
        option_values: values,
      },
    },
  );
  return put.status === 200
    ? undefined
    : `the option ${plan.display_name} kept BigCommerce's own settings: ${errorText(put.body)} (options)`;
}

type CreateResult =
  | { kind: 'created'; id: number; created: CreatedProduct | undefined }
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
  body: Json,
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
  if (sent.recoveredId !== undefined)
    return { kind: 'created', id: sent.recoveredId, created: undefined };
  const answer = sent.answer as BcAnswer;
  if (answer.status === 200 || answer.status === 201 || answer.status === 207) {
    const data = parseAnswer(productAnswer, answer.body, 'POST /v3/catalog/products').data;
    return { kind: 'created', id: data.id, created: data };
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
