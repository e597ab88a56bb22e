import type { Category } from '@replatform/canonical/category';
import type { IdMap, WriteOutcome } from '../kit/contract.ts';
import { runBatch, type BatchOp } from './batch.ts';
import type { WooClient } from './client.ts';
import { categoryBody, categoryPositionLost, type Json } from './from-canonical.ts';
import { releaseClaims, type ImageClaim, type ImageStore } from './images.ts';
import { readAllCategories } from './read.ts';
import { writesCategoryOrder, type StoreInfo } from './store-info.ts';
import { decodeEntities, descriptionFromWc, nameKey } from './to-canonical.ts';
import { adoptOrphans, assetsOf, resolveTermExists } from './term-tree.ts';
import { wcTermSchema, type WcError, type WcTerm } from './wc-schemas.ts';

/**
 * Categories into WooCommerce, parents first. wc/v3 gives terms no meta_data, so a category is
 * found by what WordPress itself keeps unique: the slug, or the same name under the same parent
 * (names compared with WordPress's escaping undone, Unicode composed, case folded);
 * wp_insert_term refuses a duplicate and answers `term_exists` with the existing term's id. The
 * store's own "Uncategorized" is found that way too, so products in it stay in it.
 */

// Remote images that cannot be fetched answer woocommerce_rest_invalid_remote_image_url or,
// from the upload itself, woocommerce_rest_upload_error.
const isImageError = (e: WcError) => /image|upload/i.test(e.code);
const errorText = (e: WcError) =>
  `${decodeEntities(e.message).replace(/<[^>]*>/g, '')} (${e.code})`;

export class CategoryWriter {
  private readonly client: WooClient;
  private readonly info: () => Promise<StoreInfo>;
  private readonly images: ImageStore;
  private categories: Map<number, WcTerm> | undefined;
  /** Categories written before their parent: destination id -> parent's source id. */
  private readonly orphans = new Map<number, string>();

  constructor(client: WooClient, info: () => Promise<StoreInfo>, images: ImageStore) {
    this.client = client;
    this.info = info;
    this.images = images;
  }

  private async index(refresh = false): Promise<Map<number, WcTerm>> {
    if (!this.categories || refresh)
      this.categories = new Map((await readAllCategories(this.client)).map((t) => [t.id, t]));
    return this.categories;
  }

  private find(index: Map<number, WcTerm>, c: Category, parent: number): WcTerm | undefined {
    const all = [...index.values()].sort((a, b) => a.id - b.id);
    return (
      all.find((t) => c.slug !== '' && t.slug === c.slug && t.parent === parent) ??
      all.find((t) => t.parent === parent && nameKey(t.name) === nameKey(c.name))
    );
  }

  async write(records: Category[], idMap: IdMap): Promise<WriteOutcome[]> {
    const outcomes: WriteOutcome[] = new Array(records.length);
    const written = new Map<string, number>();
    const inBatch = new Set(records.map((r) => r.id));
    const parentOf = (c: Category): number | undefined => {
      if (c.parentId === null) return 0;
      const known = written.get(c.parentId) ?? idMap.get('categories', c.parentId);
      return known === undefined ? undefined : Number(known);
    };
    const open: ImageClaim[] = [];
    try {
      await this.writeLevels(
        records,
        records.map((_, i) => i),
        inBatch,
        parentOf,
        idMap,
        outcomes,
        written,
        open,
      );
    } finally {
      // A write that failed part-way must not leave other writes waiting for its images.
      releaseClaims(open);
    }
    await adoptOrphans(this.client, 'categories', this.orphans, written, idMap);
    return outcomes;
  }

  private async writeLevels(
    records: Category[],
    start: number[],
    inBatch: Set<string>,
    parentOf: (c: Category) => number | undefined,
    idMap: IdMap,
    outcomes: WriteOutcome[],
    written: Map<string, number>,
    open: ImageClaim[],
  ) {
    let pending = start;
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
      await this.writeLevel(records, level, parentOf, idMap, outcomes, written, open);
      pending = pending.filter((i) => !level.includes(i));
    }
  }

  private async writeLevel(
    records: Category[],
    level: number[],
    parentOf: (c: Category) => number | undefined,
    idMap: IdMap,
    outcomes: WriteOutcome[],
    written: Map<string, number>,
    open: ImageClaim[],
  ) {
    const index = await this.index();
    const menuOrder = writesCategoryOrder(await this.info());
    const create: BatchOp[] = [];
    const update: BatchOp[] = [];
    const bodies = new Map<number, Json>();
    const notes = new Map<number, string[]>();
    const urls = new Map<number, string>();
    const claim = this.images.claim(
      level.flatMap((i) => (records[i]?.imageUrl ? [records[i].imageUrl] : [])),
      idMap,
      open,
    );
    for (const i of level) {
      const c = records[i] as Category;
      const parent = parentOf(c) ?? 0;
      let image: Json | undefined;
      if (c.imageUrl) {
        const id = claim.mine.has(c.imageUrl)
          ? undefined
          : await this.images.wait(c.imageUrl, idMap);
        image = id ? { id } : undefined;
        urls.set(i, c.imageUrl);
      }
      const { body, warnings: lost } = categoryBody(c, parent, menuOrder, image);
      bodies.set(i, body);
      notes.set(i, lost);
      const mapped = idMap.get('categories', c.id);
      const existing =
        (mapped ? index.get(Number(mapped)) : undefined) ?? this.find(index, c, parent);
      if (!existing) {
        create.push({ key: i, body });
        continue;
      }
      const same =
        decodeEntities(existing.name).trim() === c.name.trim() &&
        (c.slug === '' || existing.slug === c.slug) &&
        existing.parent === parent &&
        (existing.display || 'default') === c.displayType &&
        (!menuOrder || existing.menu_order === c.position) &&
        descriptionFromWc(existing.description) === descriptionFromWc(String(body.description)) &&
        (c.imageUrl
          ? existing.image !== null &&
            (existing.image?.alt ?? '') === c.imageAlt &&
            (!c.imageTitle || decodeEntities(existing.image?.name ?? '') === c.imageTitle)
          : true);
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
      // An image already there is not sent again (it would be downloaded again): only its alt
      // and title.
      const { image: _image, ...rest } = body;
      const keep =
        existing.image && c.imageUrl
          ? {
              image: {
                id: existing.image.id,
                alt: c.imageAlt,
                ...(c.imageTitle ? { name: c.imageTitle } : {}),
              },
            }
          : {};
      update.push({
        key: i,
        body: { id: existing.id, ...(existing.image ? { ...rest, ...keep } : body) },
      });
    }
    const recover = async (ops: BatchOp[]) => {
      const fresh = await this.index(true);
      const found = new Map<number, unknown>();
      for (const op of ops) {
        const c = records[op.key] as Category;
        const term = this.find(fresh, c, Number(op.body.parent ?? 0));
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
          `The category image could not be copied (image alt and image title left empty with it): ${r.ok ? '' : errorText(r.error)}`,
        ]);
        const replacement = again.get(key);
        if (replacement) results.set(key, replacement);
      }
    }
    results = await resolveTermExists(results, (refresh) => this.index(refresh));
    const stored = new Map<string, number>();
    const byKey = new Map<number, WcTerm>();
    for (const [key, result] of results) {
      if (!result.ok) continue;
      const parsed = wcTermSchema.safeParse(result.item);
      if (!parsed.success) continue;
      byKey.set(key, parsed.data);
      const url = urls.get(key);
      if (url && parsed.data.image?.id && claim.mine.has(url))
        stored.set(url, Number(parsed.data.image.id));
    }
    const assets = claim.settle(stored);
    for (const [key, result] of results) {
      const c = records[key] as Category;
      const extra = [...(notes.get(key) ?? []), ...(warnings.get(key) ?? [])];
      if (!result.ok) {
        outcomes[key] = { sourceId: c.id, outcome: 'failed', reason: errorText(result.error) };
        continue;
      }
      const term = byKey.get(key);
      if (!term) {
        outcomes[key] = {
          sourceId: c.id,
          outcome: 'failed',
          reason: 'The store answered with something that is not a category.',
        };
        continue;
      }
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
      const mine = assetsOf(assets, urls.get(key));
      outcomes[key] = {
        sourceId: c.id,
        outcome: created ? 'created' : 'updated',
        destinationId: String(term.id),
        ...(all.length ? { warnings: all } : {}),
        ...(mine.length ? { assets: mine } : {}),
        // A missing image or parent may be there on the next run; the rest is for good.
        ...(warnings.has(key) || orphan ? { incomplete: true } : {}),
      };
      if (c.parentId !== null && parentOf(c) === undefined) this.orphans.set(term.id, c.parentId);
    }
  }
}
