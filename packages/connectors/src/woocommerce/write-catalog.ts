import type { Category } from '@replatform/canonical/category';
import type { Product } from '@replatform/canonical/product';
import type { IdMap, WriteOutcome } from '../kit/contract.ts';
import { runBatch, type BatchItemResult, type BatchOp } from './batch.ts';
import type { WooClient } from './client.ts';
import {
  categoryBody,
  categoryPositionLost,
  productBody,
  variationBody,
  type Json,
} from './from-canonical.ts';
import { digest, markers, metaValue, sourceIdOf } from './markers.ts';
import { pageSize, readAllCategories, readVariations } from './read.ts';
import { writesCategoryOrder, type StoreInfo } from './store-info.ts';
import { decodeEntities, descriptionFromWc } from './to-canonical.ts';
import {
  wcProductSchema,
  wcTermSchema,
  wcVariationSchema,
  type WcError,
  type WcProduct,
  type WcTerm,
} from './wc-schemas.ts';

/**
 * Categories and products (with tags, brands, variations and images) into WooCommerce.
 *
 * Finding what a crashed run already wrote:
 * - categories have no meta_data in wc/v3, so they are found by what WordPress itself keeps
 *   unique: the slug, or the name under the same parent (wp_insert_term refuses a duplicate and
 *   answers `term_exists` with the existing term's id);
 * - products are found by SKU (`GET /products?sku=a,b,c`, one request for many), else by slug,
 *   and are ours when their `_replatform_source_id` meta names the source product; a product
 *   with the same SKU that is not ours is linked and left alone;
 * - variations are matched by their own marker, else SKU, else option values.
 */

const isImageError = (e: WcError) => /image/i.test(e.code);
const name = (s: string) => decodeEntities(s).trim().toLowerCase();
const errorText = (e: WcError) =>
  `${decodeEntities(e.message).replace(/<[^>]*>/g, '')} (${e.code})`;

/** Tags or brands by name: listed once, created in batches when missing. */
export class TermCache {
  private readonly client: WooClient;
  private readonly route: string;
  private byName: Map<string, number> | undefined;
  constructor(client: WooClient, route: string) {
    this.client = client;
    this.route = route;
  }

  private async load(): Promise<Map<string, number>> {
    if (this.byName) return this.byName;
    const map = new Map<string, number>();
    for (let page = 1; ; page++) {
      const result = await this.client.page(
        this.route,
        { page, per_page: pageSize, orderby: 'id', order: 'asc' },
        wcTermSchema,
      );
      for (const t of result.items) map.set(name(t.name), t.id);
      if (page >= result.totalPages || result.items.length === 0) break;
    }
    this.byName = map;
    return map;
  }

  /** Ids of the named terms, creating the missing ones; what could not be created, and why. */
  async ensure(
    names: string[],
  ): Promise<{ ids: Map<string, number>; failed: Map<string, string> }> {
    const map = await this.load();
    const failed = new Map<string, string>();
    const missing = [...new Set(names.filter((n) => n.trim() !== '' && !map.has(name(n))))];
    if (missing.length) {
      // Creating a term is idempotent (a second create answers term_exists with its id).
      const results = await runBatch(
        this.client,
        `${this.route}/batch`,
        { create: missing.map((n, key) => ({ key, body: { name: n } })), update: [] },
        async () => new Map(),
      );
      missing.forEach((n, key) => {
        const result = results.get(key);
        const term = result?.ok ? wcTermSchema.safeParse(result.item) : undefined;
        if (term?.success) map.set(name(n), term.data.id);
        else if (
          result &&
          !result.ok &&
          result.error.code === 'term_exists' &&
          typeof result.error.data?.resource_id === 'number'
        )
          map.set(name(n), result.error.data.resource_id);
        else
          failed.set(
            n,
            result && !result.ok ? errorText(result.error) : 'no answer from the store',
          );
      });
    }
    const ids = new Map(
      names.filter((n) => map.has(name(n))).map((n) => [n, map.get(name(n)) as number]),
    );
    return { ids, failed };
  }
}

export class CatalogWriter {
  private readonly client: WooClient;
  private readonly info: () => Promise<StoreInfo>;
  private categories: Map<number, WcTerm> | undefined;
  /** Categories written before their parent: destination id -> parent's source id. */
  private readonly orphans = new Map<number, string>();
  readonly tags: TermCache;
  readonly brands: TermCache;

  constructor(client: WooClient, info: () => Promise<StoreInfo>) {
    this.client = client;
    this.info = info;
    this.tags = new TermCache(client, '/products/tags');
    this.brands = new TermCache(client, '/products/brands');
  }

  // -------------------------------------------------------------------------------------------
  // Categories

  private async categoryIndex(refresh = false): Promise<Map<number, WcTerm>> {
    if (!this.categories || refresh)
      this.categories = new Map((await readAllCategories(this.client)).map((t) => [t.id, t]));
    return this.categories;
  }

  private findCategory(
    index: Map<number, WcTerm>,
    c: Category,
    parent: number,
  ): WcTerm | undefined {
    const all = [...index.values()];
    return (
      all.find((t) => c.slug !== '' && t.slug === c.slug && t.parent === parent) ??
      all.find((t) => t.parent === parent && name(t.name) === name(c.name))
    );
  }

  async writeCategories(records: Category[], idMap: IdMap): Promise<WriteOutcome[]> {
    const outcomes: WriteOutcome[] = new Array(records.length);
    const written = new Map<string, number>();
    const inBatch = new Set(records.map((r) => r.id));
    const parentOf = (c: Category): number | undefined => {
      if (c.parentId === null) return 0;
      const known = written.get(c.parentId) ?? idMap.get('categories', c.parentId);
      return known === undefined ? undefined : Number(known);
    };
    let pending = records.map((_, i) => i);
    while (pending.length) {
      // Parents before children: a level holds what can be written now.
      let level = pending.filter((i) => {
        const c = records[i] as Category;
        return (
          parentOf(c) !== undefined ||
          !inBatch.has(c.parentId ?? '') ||
          written.has(c.parentId ?? '')
        );
      });
      if (level.length === 0) level = pending; // a cycle in the source: break it at the root
      await this.writeCategoryLevel(records, level, parentOf, idMap, outcomes, written);
      pending = pending.filter((i) => !level.includes(i));
    }
    await this.adoptOrphans(written, idMap);
    return outcomes;
  }

  private async writeCategoryLevel(
    records: Category[],
    level: number[],
    parentOf: (c: Category) => number | undefined,
    idMap: IdMap,
    outcomes: WriteOutcome[],
    written: Map<string, number>,
  ) {
    const index = await this.categoryIndex();
    const menuOrder = writesCategoryOrder(await this.info());
    const create: BatchOp[] = [];
    const update: BatchOp[] = [];
    const bodies = new Map<number, Json>();
    const notes = new Map<number, string[]>();
    for (const i of level) {
      const c = records[i] as Category;
      const parent = parentOf(c) ?? 0;
      const { body, warnings: lost } = categoryBody(c, parent, menuOrder);
      bodies.set(i, body);
      notes.set(i, lost);
      const mapped = idMap.get('categories', c.id);
      const existing =
        (mapped ? index.get(Number(mapped)) : undefined) ?? this.findCategory(index, c, parent);
      if (!existing) {
        create.push({ key: i, body });
        continue;
      }
      const same =
        decodeEntities(existing.name).trim() === c.name.trim() &&
        existing.slug === c.slug &&
        existing.parent === parent &&
        (!menuOrder || existing.menu_order === c.position) &&
        descriptionFromWc(existing.description) === descriptionFromWc(String(body.description)) &&
        (!c.imageUrl || existing.image !== null);
      if (same) {
        outcomes[i] = {
          sourceId: c.id,
          outcome: 'skipped',
          destinationId: String(existing.id),
          reason: 'Already up to date.',
        };
        written.set(c.id, existing.id);
        continue;
      }
      // The image is only sent when the category has none (re-sending would download it again).
      const { image: _image, ...rest } = body;
      update.push({ key: i, body: { id: existing.id, ...(existing.image ? rest : body) } });
    }
    const recover = async (ops: BatchOp[]) => {
      const fresh = await this.categoryIndex(true);
      const found = new Map<number, unknown>();
      for (const op of ops) {
        const c = records[op.key] as Category;
        const term = this.findCategory(fresh, c, Number(op.body.parent ?? 0));
        if (term) found.set(op.key, term);
      }
      return found;
    };
    let results = await runBatch(
      this.client,
      '/products/categories/batch',
      { create, update },
      recover,
    );
    // A category whose image cannot be copied is written without it.
    const retry = [...results].filter(
      ([k, r]) => !r.ok && isImageError(r.error) && bodies.get(k)?.image,
    );
    const warnings = new Map<number, string[]>();
    if (retry.length) {
      const again = await runBatch(
        this.client,
        '/products/categories/batch',
        {
          create: retry
            .filter(([, r]) => r.op === 'create')
            .map(([key]) => ({ key, body: { ...bodies.get(key), image: undefined } })),
          update: retry
            .filter(([, r]) => r.op === 'update')
            .map(([key]) => ({
              key,
              body: { ...(update.find((u) => u.key === key)?.body ?? {}), image: undefined },
            })),
        },
        recover,
      );
      for (const [key, r] of retry) {
        warnings.set(key, [
          `The category image could not be copied: ${r.ok ? '' : errorText(r.error)}`,
        ]);
        const replacement = again.get(key);
        if (replacement) results.set(key, replacement);
      }
    }
    results = await this.resolveTermExists(results);
    for (const [key, result] of results) {
      const c = records[key] as Category;
      const extra = [...(notes.get(key) ?? []), ...(warnings.get(key) ?? [])];
      if (!result.ok) {
        outcomes[key] = { sourceId: c.id, outcome: 'failed', reason: errorText(result.error) };
        continue;
      }
      const parsed = wcTermSchema.safeParse(result.item);
      if (!parsed.success) {
        outcomes[key] = {
          sourceId: c.id,
          outcome: 'failed',
          reason: 'The store answered with something that is not a category.',
        };
        continue;
      }
      const term = parsed.data;
      // A store that takes menu_order but did not keep it is reported like one that cannot.
      if (menuOrder && c.position !== 0 && term.menu_order !== c.position)
        extra.push(categoryPositionLost(c.position));
      this.categories?.set(term.id, term);
      written.set(c.id, term.id);
      const created = result.op === 'create';
      const orphan = parentOf(c) === undefined && c.parentId !== null;
      const all = [
        ...(orphan
          ? [`Parent category ${c.parentId} was not migrated yet; it will be linked when it is.`]
          : []),
        ...extra,
      ];
      outcomes[key] = {
        sourceId: c.id,
        outcome: created ? 'created' : 'updated',
        destinationId: String(term.id),
        ...(all.length ? { warnings: all } : {}),
        // A missing image or parent may be there on the next run; the rest is for good.
        ...(warnings.has(key) || orphan ? { incomplete: true } : {}),
      };
      if (c.parentId !== null && parentOf(c) === undefined) this.orphans.set(term.id, c.parentId);
    }
  }

  /** `term_exists` (same name under the same parent) names the existing term: link to it. */
  private async resolveTermExists(results: Map<number, BatchItemResult>) {
    for (const [key, result] of results) {
      if (result.ok || result.error.code !== 'term_exists') continue;
      const existingId = result.error.data?.resource_id;
      if (typeof existingId !== 'number') continue;
      const term = (await this.categoryIndex(true)).get(existingId);
      if (term) results.set(key, { ok: true, op: 'update', item: term, recovered: true });
    }
    return results;
  }

  private async adoptOrphans(written: Map<string, number>, idMap: IdMap) {
    const fixes: BatchOp[] = [];
    for (const [childId, parentSource] of this.orphans) {
      const parent = written.get(parentSource) ?? idMap.get('categories', parentSource);
      if (parent === undefined) continue;
      fixes.push({ key: childId, body: { id: childId, parent: Number(parent) } });
    }
    if (!fixes.length) return;
    const results = await runBatch(
      this.client,
      '/products/categories/batch',
      { create: [], update: fixes },
      async () => new Map(),
    );
    for (const [childId, result] of results) if (result.ok) this.orphans.delete(childId);
  }

  // -------------------------------------------------------------------------------------------
  // Products

  private async productsBy(query: Record<string, string | number>): Promise<WcProduct[]> {
    const result = await this.client.page(
      '/products',
      { per_page: pageSize, context: 'edit', ...query },
      wcProductSchema,
    );
    return result.items;
  }

  /** Existing destination products of the records: by id map, else SKU, else slug. */
  private async findProducts(
    records: Product[],
    idMap: IdMap,
    keys: number[],
  ): Promise<Map<number, WcProduct>> {
    const found = new Map<number, WcProduct>();
    const mapped = keys.filter(
      (i) => idMap.get('products', (records[i] as Product).id) !== undefined,
    );
    const mappedIds = mapped.map((i) => Number(idMap.get('products', (records[i] as Product).id)));
    for (let start = 0; start < mappedIds.length; start += pageSize) {
      const chunk = mappedIds.slice(start, start + pageSize);
      const products = await this.productsBy({ include: chunk.join(','), per_page: chunk.length });
      for (const i of mapped) {
        const product = products.find(
          (p) => p.id === Number(idMap.get('products', (records[i] as Product).id)),
        );
        if (product) found.set(i, product);
      }
    }
    const rest = keys.filter((i) => !found.has(i));
    // WooCommerce splits `sku` on commas, so a SKU holding one cannot be looked up this way.
    const bySku = rest.filter(
      (i) => (records[i] as Product).sku !== '' && !(records[i] as Product).sku.includes(','),
    );
    for (let start = 0; start < bySku.length; start += 25) {
      const chunk = bySku.slice(start, start + 25);
      const products = await this.productsBy({
        sku: chunk.map((i) => (records[i] as Product).sku).join(','),
      });
      for (const i of chunk) {
        const product = products.find((p) => p.sku === (records[i] as Product).sku);
        if (product) found.set(i, product);
      }
    }
    for (const i of rest.filter(
      (k) =>
        !found.has(k) && (records[k] as Product).sku === '' && (records[k] as Product).slug !== '',
    )) {
      const [product] = await this.productsBy({ slug: (records[i] as Product).slug });
      if (product) found.set(i, product);
    }
    // Neither SKU nor slug (a draft): wc/v3 cannot filter by meta, but it searches names, and a
    // product found that way is only taken when its marker names this very source product.
    for (const i of rest.filter(
      (k) =>
        !found.has(k) && (records[k] as Product).sku === '' && (records[k] as Product).slug === '',
    )) {
      const p = records[i] as Product;
      const product = await this.productByName(p);
      if (product) found.set(i, product);
    }
    return found;
  }

  /** The product this connector wrote for `p`, found through the name search and its marker. */
  private async productByName(p: Product): Promise<WcProduct | undefined> {
    for (let page = 1; page <= 5; page++) {
      const result = await this.client.page(
        '/products',
        {
          search: p.name,
          per_page: pageSize,
          page,
          context: 'edit',
          orderby: 'id',
          order: 'asc',
        },
        wcProductSchema,
      );
      const ours = result.items.find((item) => sourceIdOf(item.meta_data) === p.id);
      if (ours) return ours;
      if (page >= result.totalPages || result.items.length === 0) return undefined;
    }
    return undefined;
  }

  async writeProducts(records: Product[], idMap: IdMap): Promise<WriteOutcome[]> {
    const info = await this.info();
    const outcomes: WriteOutcome[] = new Array(records.length);
    const warnings = records.map(() => [] as string[]);
    const tags = await this.tags.ensure(records.flatMap((r) => r.tags));
    const brands = await this.brands.ensure(records.map((r) => r.vendor).filter(Boolean));
    const tagIds = tags.ids;
    const brandIds = brands.ids;
    /** Records written without something that may be there on a later run. */
    const incomplete = new Set<number>();
    records.forEach((p, i) => {
      for (const t of p.tags)
        if (tags.failed.has(t)) {
          warnings[i]?.push(`The tag '${t}' could not be created: ${tags.failed.get(t) ?? ''}`);
          incomplete.add(i);
        }
      if (brands.failed.has(p.vendor)) {
        warnings[i]?.push(
          `The brand '${p.vendor}' could not be created: ${brands.failed.get(p.vendor) ?? ''}`,
        );
        incomplete.add(i);
      }
    });
    const existing = await this.findProducts(
      records,
      idMap,
      records.map((_, i) => i),
    );

    const create: BatchOp[] = [];
    const update: BatchOp[] = [];
    const bodies = new Map<number, Json>();
    records.forEach((p, i) => {
      const categoryIds: number[] = [];
      for (const id of p.categoryIds) {
        const mapped = idMap.get('categories', id);
        if (mapped) categoryIds.push(Number(mapped));
        else {
          warnings[i]?.push(`Category ${id} was not migrated; the product is not placed in it.`);
          incomplete.add(i);
        }
      }
      const written = productBody(p, {
        categoryIds,
        tagIds: p.tags.flatMap((t) => (tagIds.has(t) ? [tagIds.get(t) as number] : [])),
        brandIds: p.vendor && brandIds.has(p.vendor) ? [brandIds.get(p.vendor) as number] : [],
        currency: info.currency,
        units: info.units,
      });
      warnings[i]?.push(...written.warnings);
      const hash = digest({ body: written.body, variants: p.variants, options: p.options });
      const imagesHash = digest(written.body.images);
      const body: Json = {
        ...written.body,
        meta_data: [
          { key: markers.sourceId, value: p.id },
          { key: markers.hash, value: hash },
          { key: markers.images, value: imagesHash },
        ],
      };
      bodies.set(i, body);
      const found = existing.get(i);
      if (!found) {
        create.push({ key: i, body });
        return;
      }
      const ours =
        idMap.get('products', p.id) === String(found.id) || sourceIdOf(found.meta_data) === p.id;
      if (!ours) {
        outcomes[i] = {
          sourceId: p.id,
          outcome: 'skipped',
          destinationId: String(found.id),
          reason: `A product with SKU '${found.sku || found.slug}' already exists at the destination; it was linked, not changed.`,
        };
        return;
      }
      const complete = p.type === 'simple' || found.variations.length === p.variants.length;
      if (metaValue(found.meta_data, markers.hash) === hash && complete) {
        outcomes[i] = {
          sourceId: p.id,
          outcome: 'skipped',
          destinationId: String(found.id),
          reason: 'Already up to date.',
        };
        return;
      }
      const { images: _images, ...withoutImages } = body;
      const keepImages = metaValue(found.meta_data, markers.images) === imagesHash;
      update.push({ key: i, body: { id: found.id, ...(keepImages ? withoutImages : body) } });
    });

    const recover = async (ops: BatchOp[]) => {
      const again = await this.findProducts(
        records,
        idMap,
        ops.map((o) => o.key),
      );
      const out = new Map<number, unknown>();
      for (const [key, product] of again)
        if (sourceIdOf(product.meta_data) === (records[key] as Product).id) out.set(key, product);
      return out;
    };
    const results = await runBatch(this.client, '/products/batch', { create, update }, recover);

    // A product whose images cannot be downloaded is written without them.
    const imageFailures = [...results].filter(
      ([key, r]) =>
        !r.ok &&
        isImageError(r.error) &&
        (bodies.get(key)?.images as unknown[] | undefined)?.length,
    );
    if (imageFailures.length) {
      // Written without its images, the product must not look up to date to the next run, which
      // then sends the images again: its hash and image markers are left blank.
      const strip = (key: number, extra: Json = {}) => ({
        key,
        body: {
          ...bodies.get(key),
          ...extra,
          images: [],
          meta_data: [
            { key: markers.sourceId, value: (records[key] as Product).id },
            { key: markers.hash, value: '' },
            { key: markers.images, value: '' },
          ],
        },
      });
      const again = await runBatch(
        this.client,
        '/products/batch',
        {
          create: imageFailures.filter(([, r]) => r.op === 'create').map(([key]) => strip(key)),
          update: imageFailures
            .filter(([, r]) => r.op === 'update')
            .map(([key]) => strip(key, { id: update.find((u) => u.key === key)?.body.id })),
        },
        recover,
      );
      for (const [key, r] of imageFailures) {
        warnings[key]?.push(`The images could not be copied: ${r.ok ? '' : errorText(r.error)}`);
        incomplete.add(key);
        const replacement = again.get(key);
        if (replacement) results.set(key, replacement);
      }
    }

    for (const [key, result] of results) {
      const p = records[key] as Product;
      if (!result.ok) {
        outcomes[key] = {
          sourceId: p.id,
          outcome: 'failed',
          reason: errorText(result.error),
          ...(warnings[key]?.length ? { warnings: warnings[key] } : {}),
        };
        continue;
      }
      const parsed = wcProductSchema.safeParse(result.item);
      if (!parsed.success) {
        outcomes[key] = {
          sourceId: p.id,
          outcome: 'failed',
          reason: 'The store answered with something that is not a product.',
        };
        continue;
      }
      const product = parsed.data;
      const created = result.op === 'create';
      if (p.type === 'variable') {
        const problems = await this.syncVariations(product, p, info, created && !result.recovered);
        if (problems.length) {
          // Unmark the product so that the next run completes its variations.
          await this.client
            .request('PUT', `/products/${product.id}`, {
              body: { meta_data: [{ key: markers.hash, value: '' }] },
              retryable: true,
              schema: wcProductSchema,
            })
            .catch(() => undefined);
          outcomes[key] = {
            sourceId: p.id,
            outcome: 'failed',
            destinationId: String(product.id),
            reason: problems.join('; '),
          };
          continue;
        }
      }
      outcomes[key] = {
        sourceId: p.id,
        outcome: created ? 'created' : 'updated',
        destinationId: String(product.id),
        ...(warnings[key]?.length ? { warnings: warnings[key] } : {}),
        ...(incomplete.has(key) ? { incomplete: true } : {}),
      };
    }
    records.forEach((p, i) => {
      if (
        outcomes[i] &&
        warnings[i]?.length &&
        !outcomes[i].warnings &&
        outcomes[i].outcome !== 'failed'
      )
        outcomes[i] = { ...outcomes[i], warnings: warnings[i] };
      outcomes[i] ??= {
        sourceId: p.id,
        outcome: 'failed',
        reason: 'The store did not answer for this product.',
      };
    });
    return outcomes;
  }

  /** Writes a variable product's variants as variations; answers what went wrong, if anything. */
  private async syncVariations(
    product: WcProduct,
    p: Product,
    info: StoreInfo,
    fresh: boolean,
  ): Promise<string[]> {
    const path = `/products/${product.id}/variations`;
    const existing = fresh ? [] : await readVariations(this.client, product.id);
    const images = [...p.images].sort((a, b) => a.position - b.position);
    const imageIdOf = (url: string | null) => {
      if (!url) return undefined;
      const index = images.findIndex((img) => img.url === url);
      return index >= 0 ? product.images[index]?.id : undefined;
    };
    const used = new Set<number>();
    const matchOf = (variantId: string, sku: string, values: string[]) =>
      existing.find((v) => !used.has(v.id) && sourceIdOf(v.meta_data) === variantId) ??
      existing.find((v) => !used.has(v.id) && sku !== '' && v.sku === sku) ??
      existing.find(
        (v) =>
          !used.has(v.id) &&
          !sourceIdOf(v.meta_data) &&
          values.length > 0 &&
          values.every((value) => v.attributes.some((a) => a.option === value)),
      );
    const create: BatchOp[] = [];
    const update: BatchOp[] = [];
    p.variants.forEach((v, key) => {
      const body = {
        ...variationBody(v, info.units, key, imageIdOf(v.imageUrl)),
        meta_data: [{ key: markers.sourceId, value: v.id }],
      };
      const match = matchOf(
        v.id,
        v.sku,
        v.optionValues.map((o) => o.value),
      );
      if (match) {
        used.add(match.id);
        update.push({ key, body: { id: match.id, ...body } });
      } else create.push({ key, body });
    });
    // Variations this connector wrote that the source no longer has are removed.
    const remove = existing
      .filter((v) => !used.has(v.id) && sourceIdOf(v.meta_data) !== undefined)
      .map((v, i) => ({ key: p.variants.length + i, body: { id: v.id } }));
    const recover = async (ops: BatchOp[]) => {
      const now = await readVariations(this.client, product.id);
      const found = new Map<number, unknown>();
      for (const op of ops) {
        const variant = p.variants[op.key];
        const match = variant && now.find((v) => sourceIdOf(v.meta_data) === variant.id);
        if (match) found.set(op.key, match);
      }
      return found;
    };
    const results = await runBatch(
      this.client,
      `${path}/batch`,
      { create, update, delete: remove },
      recover,
    );
    const problems: string[] = [];
    for (const [key, result] of results) {
      if (result.ok) {
        if (result.op === 'delete' || wcVariationSchema.safeParse(result.item).success) continue;
        problems.push(`Variant ${p.variants[key]?.sku || key}: unexpected answer from the store`);
        continue;
      }
      const variant = p.variants[key];
      problems.push(`Variant ${variant?.sku || variant?.id || key}: ${errorText(result.error)}`);
    }
    return problems;
  }
}
