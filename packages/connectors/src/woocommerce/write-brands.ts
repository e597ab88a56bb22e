import type { Brand } from '@replatform/canonical/brand';
import type { IdMap, WriteOutcome } from '../kit/contract.ts';
import { runBatch, type BatchOp } from './batch.ts';
import type { WooClient } from './client.ts';
import { brandBody, type Json } from './from-canonical.ts';
import { releaseClaims, type ImageClaim, type ImageStore } from './images.ts';
import type { ImportState } from './import-state.ts';
import { readAllBrands } from './read.ts';
import type { NamedTerms } from './terms.ts';
import { decodeEntities, descriptionFromWc, nameKey } from './to-canonical.ts';
import { adoptOrphans, assetsOf, resolveTermExists } from './term-tree.ts';
import { wcTermSchema, type WcError, type WcTerm } from './wc-schemas.ts';

/**
 * Product brands into WooCommerce (`products/brands`, a tree like categories), parents first.
 * wc/v3 gives terms no meta_data, so nothing on the store says a brand was written by a
 * migration. A brand is found by the id map, else by its name anywhere in the tree (WordPress's
 * escaping undone, Unicode composed, case folded: the way the product writer finds a product's
 * brand, lowest id first), since the model keeps brand names unique and products name their brand
 * by it.
 *
 * Ours, updated or skipped: the one the id map names, one this connection created, or one found
 * by name whose create this connection sent without an answer (a lost answer). Any other brand
 * found by name is the merchant's: linked and never changed. WordPress refuses a second brand of
 * one name under one parent (`term_exists`, with the existing brand's id), which is read the same
 * way.
 */

const isImageError = (e: WcError) => /image|upload/i.test(e.code);
const errorText = (e: WcError) =>
  `${decodeEntities(e.message).replace(/<[^>]*>/g, '')} (${e.code})`;

export const merchantBrandReason = (id: number) =>
  `The store already has a brand of this name (id ${id}) that this migration did not write: it is the merchant's own and was linked, not changed. Its products are linked to it by name.`;

export class BrandWriter {
  private readonly client: WooClient;
  private readonly images: ImageStore;
  private readonly state: ImportState;
  /** The product writer's list of brands by name, told about every brand written here. */
  private readonly productBrands: NamedTerms;
  private brands: Map<number, WcTerm> | undefined;
  /** False when the owner chose not to keep the source's slugs: WordPress makes each one. */
  slugsKept = true;
  /** Destination ids of the brands this connection created. */
  private readonly created = new Set<number>();
  /** Brands written before their parent: destination id -> parent's source id. */
  private readonly orphans = new Map<number, string>();

  constructor(
    client: WooClient,
    images: ImageStore,
    state: ImportState,
    productBrands: NamedTerms,
  ) {
    this.client = client;
    this.images = images;
    this.state = state;
    this.productBrands = productBrands;
  }

  private async index(refresh = false): Promise<Map<number, WcTerm>> {
    if (!this.brands || refresh)
      this.brands = new Map((await readAllBrands(this.client)).map((t) => [t.id, t]));
    return this.brands;
  }

  /** The store's brand of this name, the oldest of several. */
  private byName(index: Map<number, WcTerm>, name: string): WcTerm | undefined {
    const key = nameKey(name);
    let oldest: WcTerm | undefined;
    for (const term of index.values())
      if (nameKey(term.name) === key && (!oldest || term.id < oldest.id)) oldest = term;
    return oldest;
  }

  async write(records: Brand[], idMap: IdMap): Promise<WriteOutcome[]> {
    const outcomes: WriteOutcome[] = new Array(records.length);
    const written = new Map<string, number>();
    const inBatch = new Set(records.map((r) => r.id));
    const parentOf = (b: Brand): number | undefined => {
      if (b.parentId === null) return 0;
      const known = written.get(b.parentId) ?? idMap.get('brands', b.parentId);
      return known === undefined ? undefined : Number(known);
    };
    const open: ImageClaim[] = [];
    try {
      let pending = records.map((_, i) => i);
      while (pending.length) {
        // Parents before children: a level holds what can be written now.
        let level = pending.filter((i) => {
          const b = records[i] as Brand;
          return parentOf(b) !== undefined || !inBatch.has(b.parentId ?? '');
        });
        if (level.length === 0) level = pending; // a cycle in the source: break it at the root
        await this.writeLevel(records, level, parentOf, idMap, outcomes, written, open);
        pending = pending.filter((i) => !level.includes(i));
      }
    } catch (error) {
      // The store may have saved part of what was sent: the next write lists it again.
      this.brands = undefined;
      throw error;
    } finally {
      // A write that failed part-way must not leave other writes waiting for its images.
      releaseClaims(open);
      // Products written on this connection find the brands by name from now on.
      this.productBrands.forget();
    }
    await adoptOrphans(this.client, 'brands', this.orphans, written, idMap);
    return outcomes;
  }

  private same(existing: WcTerm, b: Brand, body: Json, parent: number): boolean {
    return (
      decodeEntities(existing.name).trim() === b.name.trim() &&
      (b.slug === '' || existing.slug === b.slug) &&
      existing.parent === parent &&
      (existing.display || 'default') === b.displayType &&
      existing.menu_order === b.position &&
      descriptionFromWc(existing.description) === descriptionFromWc(String(body.description)) &&
      (b.imageUrl ? existing.image != null && (existing.image.alt ?? '') === b.imageAlt : true)
    );
  }

  private async writeLevel(
    records: Brand[],
    level: number[],
    parentOf: (b: Brand) => number | undefined,
    idMap: IdMap,
    outcomes: WriteOutcome[],
    written: Map<string, number>,
    open: ImageClaim[],
  ) {
    const index = await this.index();
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
    const unanswered = this.state.unanswered.brands;
    for (const i of level) {
      const b = records[i] as Brand;
      const parent = parentOf(b) ?? 0;
      let image: Json | undefined;
      if (b.imageUrl) {
        const id = claim.mine.has(b.imageUrl)
          ? undefined
          : await this.images.wait(b.imageUrl, idMap);
        image = id ? { id } : undefined;
        urls.set(i, b.imageUrl);
      }
      const { body, warnings } = brandBody(b, parent, image);
      bodies.set(i, body);
      notes.set(i, warnings);
      const mapped = idMap.get('brands', b.id);
      const ours = mapped ? index.get(Number(mapped)) : undefined;
      const named = ours ? undefined : this.byName(index, b.name);
      if (named && !this.created.has(named.id) && !unanswered.has(b.id)) {
        outcomes[i] = this.linked(b, named);
        written.set(b.id, named.id);
        continue;
      }
      const existing = ours ?? named;
      if (!existing) {
        create.push({ key: i, body });
        continue;
      }
      if (this.same(existing, b, body, parent)) {
        // One this connection sent unanswered (and the store saved whole) was created by this run.
        outcomes[i] =
          !ours && unanswered.has(b.id)
            ? { sourceId: b.id, outcome: 'created', destinationId: String(existing.id) }
            : {
                sourceId: b.id,
                outcome: 'skipped',
                destinationId: String(existing.id),
                reason: 'Already up to date.',
              };
        written.set(b.id, existing.id);
        continue;
      }
      // A logo already there is not sent again (it would be downloaded again): only its alt text.
      const { image: _image, ...rest } = body;
      update.push({
        key: i,
        body: {
          id: existing.id,
          ...(existing.image && b.imageUrl
            ? { ...rest, image: { id: existing.image.id, alt: b.imageAlt } }
            : body),
        },
      });
    }
    // A create whose answer was lost is found by name among the brands the store has now.
    const recover = async (ops: BatchOp[]) => {
      const fresh = await this.index(true);
      const found = new Map<number, unknown>();
      for (const op of ops) {
        const term = this.byName(fresh, (records[op.key] as Brand).name);
        if (term) found.set(op.key, term);
      }
      return found;
    };
    let results = await runBatch(
      this.client,
      '/products/brands/batch',
      { create, update },
      recover,
    );
    // The store refuses a brand whose logo it cannot download: it is written without it.
    const retry = [...results].filter(
      ([k, r]) => !r.ok && isImageError(r.error) && bodies.get(k)?.image,
    );
    const imageWarnings = new Map<number, string>();
    if (retry.length) {
      const without = (key: number, from: Json | undefined) => {
        const { image: _image, ...rest } = from ?? {};
        return { key, body: rest };
      };
      const again = await runBatch(
        this.client,
        '/products/brands/batch',
        {
          create: retry
            .filter(([, r]) => r.op === 'create')
            .map(([key]) => without(key, bodies.get(key))),
          update: retry
            .filter(([, r]) => r.op === 'update')
            .map(([key]) => without(key, update.find((u) => u.key === key)?.body)),
        },
        recover,
      );
      for (const [key, r] of retry) {
        imageWarnings.set(
          key,
          `The brand's logo could not be copied (its alt text left out with it): ${r.ok ? '' : errorText(r.error)}`,
        );
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
      const b = records[key] as Brand;
      if (!result.ok) {
        outcomes[key] = { sourceId: b.id, outcome: 'failed', reason: errorText(result.error) };
        continue;
      }
      const term = byKey.get(key);
      if (!term) {
        outcomes[key] = {
          sourceId: b.id,
          outcome: 'failed',
          reason: 'The store answered with something that is not a brand.',
        };
        continue;
      }
      // term_exists named a brand this migration did not write: the merchant's.
      if (
        result.op === 'update' &&
        result.recovered &&
        !this.created.has(term.id) &&
        !unanswered.has(b.id)
      ) {
        outcomes[key] = this.linked(b, term);
        written.set(b.id, term.id);
        continue;
      }
      if (result.op === 'create') this.created.add(term.id);
      this.brands?.set(term.id, term);
      written.set(b.id, term.id);
      const orphan = parentOf(b) === undefined && b.parentId !== null;
      const warnings = [
        ...(orphan
          ? [`Parent brand ${b.parentId} was not migrated yet; it will be linked when it is.`]
          : []),
        ...(notes.get(key) ?? []),
        ...(imageWarnings.has(key) ? [imageWarnings.get(key) as string] : []),
        ...(b.slug !== '' && term.slug !== b.slug
          ? [
              `The slug '${b.slug}' belongs to another brand or term at the destination; WordPress gave this brand '${term.slug}', so its page is at another address.`,
            ]
          : []),
        ...(b.slug === '' && this.slugsKept
          ? [
              `The source store gives this brand no page of its own; WordPress made it one from its name (slug '${term.slug}').`,
            ]
          : []),
      ];
      const mine = assetsOf(assets, urls.get(key));
      outcomes[key] = {
        sourceId: b.id,
        outcome: result.op === 'create' ? 'created' : 'updated',
        destinationId: String(term.id),
        ...(warnings.length ? { warnings } : {}),
        ...(mine.length ? { assets: mine } : {}),
        // A missing logo or parent may be there on the next run; the rest is for good.
        ...(imageWarnings.has(key) || orphan ? { incomplete: true } : {}),
      };
      if (orphan) this.orphans.set(term.id, b.parentId as string);
    }
  }

  private linked(b: Brand, term: WcTerm): WriteOutcome {
    return {
      sourceId: b.id,
      outcome: 'skipped',
      destinationId: String(term.id),
      linked: true,
      reason: merchantBrandReason(term.id),
    };
  }
}
