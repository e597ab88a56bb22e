import type { Product, ProductImage } from '@replatform/canonical/product';
import type { AssetRecord, IdMap, WriteOutcome } from '../kit/contract.ts';
import { runBatch, type BatchItemResult, type BatchOp } from './batch.ts';
import type { WooClient } from './client.ts';
import {
  attributeSettings,
  productBody,
  termBody,
  variationBody,
  type Json,
} from './from-canonical.ts';
import { releaseClaims, type ImageClaim, type ImageStore } from './images.ts';
import type { ImportState } from './import-state.ts';
import { digest, markers, metaValue, sourceIdOf } from './markers.ts';
import { pageSize, readVariations } from './read.ts';
import type { StoreInfo } from './store-info.ts';
import {
  Attributes,
  NamedTerms,
  ShippingClasses,
  termAsset,
  type SharedAttribute,
} from './terms.ts';
import { decodeEntities } from './to-canonical.ts';
import { wcProductSchema, wcVariationSchema, type WcError, type WcProduct } from './wc-schemas.ts';

/**
 * Products into WooCommerce: the store's lists they point into first (tags, brands, store-wide
 * attributes and their terms, shipping classes; terms.ts), then the products, their images
 * (stored once per destination; images.ts) and their variations.
 *
 * A product the id map does not know is created at once when the run starts afresh
 * (ImportState.lookFirst false); the store refuses a SKU it already has (`product_invalid_sku`),
 * and only those products are looked up, then written as below. A run that resumes after an
 * interruption first finds what it may already have written: by SKU (`GET /products?sku=a,b,c`,
 * one request for many), else by slug, else (no SKU and no slug, a draft) by the name search and
 * the marker. A product is ours when its `_replatform_source_id` meta names the source product.
 * A product with the same SKU that is not ours is the merchant's: it is linked and left alone.
 * Variations are matched by their own marker, else SKU, else option values; their ids, from the
 * batches' answers, are kept for the order lines (ImportState).
 *
 * Links to other products (up-sells, cross-sells, a grouped product's members) are written as
 * whole lists, once every product of a list is at the destination; until then the store keeps
 * the list it has (see ProductRefs), and the engine writes the product again once they are there.
 */

// Remote images that cannot be fetched answer woocommerce_rest_invalid_remote_image_url or,
// from the upload itself, woocommerce_rest_upload_error.
const isImageError = (e: WcError) => /image|upload/i.test(e.code);
const errorText = (e: WcError) =>
  `${decodeEntities(e.message).replace(/<[^>]*>/g, '')} (${e.code})`;

const gallery = (p: Product) => [...p.images].sort((a, b) => a.position - b.position);

/** An image of a request: by id when the destination has it, else by its source URL. */
const imageRef = (img: ProductImage, id: number | undefined): Json => ({
  ...(id ? { id } : { src: img.url }),
  ...(img.title ? { name: img.title } : {}),
  ...(img.alt ? { alt: img.alt } : {}),
});

/** A term a write created, and the records of the write that name it. */
export interface CreatedTerm {
  asset: AssetRecord;
  users: number[];
}

/**
 * Records each created term on one outcome, so that undo removes it once: the first record that
 * names it and was written, else the first that names it at all.
 */
export function attachTerms(outcomes: (WriteOutcome | undefined)[], created: CreatedTerm[]): void {
  for (const { asset, users } of created) {
    const at =
      users.find((i) => outcomes[i] !== undefined && outcomes[i]?.outcome !== 'failed') ??
      users.find((i) => outcomes[i] !== undefined) ??
      outcomes.findIndex((o) => o !== undefined && o.outcome !== 'failed');
    const outcome = at === undefined || at < 0 ? undefined : outcomes[at];
    if (!outcome) continue;
    outcome.assets = [...(outcome.assets ?? []), asset];
  }
}

export class ProductWriter {
  private readonly client: WooClient;
  private readonly info: () => Promise<StoreInfo>;
  private readonly images: ImageStore;
  readonly tags: NamedTerms;
  readonly brands: NamedTerms;
  readonly attributes: Attributes;
  readonly shippingClasses: ShippingClasses;
  /** Destination ids of the products this connection wrote, by source id. */
  private readonly written = new Map<string, number>();
  /** Products whose links wait for products not at the destination yet, by source id. */
  private readonly pendingLinks = new Map<string, { id: number; p: Product }>();

  private readonly state: ImportState;

  constructor(
    client: WooClient,
    info: () => Promise<StoreInfo>,
    images: ImageStore,
    state: ImportState,
  ) {
    this.client = client;
    this.info = info;
    this.images = images;
    this.state = state;
    this.tags = new NamedTerms(client, '/products/tags');
    this.brands = new NamedTerms(client, '/products/brands');
    this.attributes = new Attributes(client);
    this.shippingClasses = new ShippingClasses(client);
  }

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
    unmappedToo = true,
  ): Promise<Map<number, WcProduct>> {
    const found = new Map<number, WcProduct>();
    const mappedId = (i: number) => idMap.get('products', (records[i] as Product).id);
    const mapped = keys.filter((i) => mappedId(i) !== undefined);
    for (let start = 0; start < mapped.length; start += pageSize) {
      const chunk = mapped.slice(start, start + pageSize);
      const products = await this.productsBy({
        include: chunk.map((i) => Number(mappedId(i))).join(','),
        per_page: chunk.length,
      });
      for (const i of chunk) {
        const product = products.find((p) => p.id === Number(mappedId(i)));
        if (product) found.set(i, product);
      }
    }
    if (!unmappedToo) return found;
    const rest = keys.filter((i) => !found.has(i));
    const skuOf = (i: number) => {
      const p = records[i] as Product;
      return (
        p.sku || (p.type === 'simple' || p.type === 'external' ? (p.variants[0]?.sku ?? '') : '')
      );
    };
    // WooCommerce splits `sku` on commas, so a SKU holding one cannot be looked up this way.
    const bySku = rest.filter((i) => skuOf(i) !== '' && !skuOf(i).includes(','));
    for (let start = 0; start < bySku.length; start += 25) {
      const chunk = bySku.slice(start, start + 25);
      const products = await this.productsBy({ sku: chunk.map(skuOf).join(',') });
      for (const i of chunk) {
        const product = products.find((p) => p.sku === skuOf(i));
        if (product) found.set(i, product);
      }
    }
    // A create sent without an answer that the store saved only in part as it went down may hold
    // its name and slug but neither its SKU nor our markers (its SKU only in the store's lookup
    // table, so the store refuses it again): found by slug, and taken only as the one this run
    // made (see ours()).
    for (const i of bySku.filter(
      (k) =>
        !found.has(k) &&
        this.state.unanswered.products.has((records[k] as Product).id) &&
        (records[k] as Product).slug !== '',
    )) {
      const [product] = await this.productsBy({ slug: (records[i] as Product).slug });
      if (
        product &&
        (product.sku === '' || product.sku === skuOf(i)) &&
        sourceIdOf(product.meta_data) === undefined &&
        this.state.madeDuringImport('products', product.id)
      )
        found.set(i, product);
    }
    for (const i of rest.filter(
      (k) => !found.has(k) && skuOf(k) === '' && (records[k] as Product).slug !== '',
    )) {
      const [product] = await this.productsBy({ slug: (records[i] as Product).slug });
      if (product) found.set(i, product);
    }
    // Neither SKU nor slug (a draft): wc/v3 cannot filter by meta, but it searches names, and a
    // product found that way is only taken when its marker names this very source product.
    for (const i of rest.filter(
      (k) => !found.has(k) && skuOf(k) === '' && (records[k] as Product).slug === '',
    )) {
      const product = await this.productByName(records[i] as Product);
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

  /**
   * Store-wide attributes of the records, created where missing, with their terms. A record
   * written without one (or without one of its values) is incomplete: the next run tries again.
   */
  private async sharedAttributes(
    records: Product[],
    warnings: string[][],
    incomplete: Set<number>,
    createdTerms: CreatedTerm[],
  ) {
    const wanted = new Map<
      string,
      SharedAttribute & { values: Set<string>; terms: Map<string, Record<string, unknown>> }
    >();
    for (const p of records)
      for (const a of [...p.options, ...p.attributes]) {
        if (!a.shared) continue;
        const definition = p.sharedAttributes.find((d) => d.slug === a.shared?.slug);
        const entry = wanted.get(a.shared.slug) ?? {
          slug: a.shared.slug,
          name: definition?.name ?? a.name,
          ...(definition ? { settings: attributeSettings(definition) } : {}),
          values: new Set<string>(),
          terms: new Map<string, Record<string, unknown>>(),
        };
        // Every term of the attribute, in the source's order of creation, then the values
        // products name that the definition does not list.
        for (const t of definition?.terms ?? [])
          if (!entry.terms.has(t.name)) {
            entry.values.add(t.name);
            entry.terms.set(t.name, termBody(t));
          }
        for (const v of a.values) if (v.trim() !== '') entry.values.add(v);
        wanted.set(a.shared.slug, entry);
      }
    const ids = new Map<string, number>();
    if (wanted.size === 0) return ids;
    const ensured = await this.attributes.ensure([...wanted.values()]);
    const users = (slug: string, value?: string) =>
      records.flatMap((p, i) =>
        [...p.options, ...p.attributes].some(
          (a) => a.shared?.slug === slug && (value === undefined || a.values.includes(value)),
        )
          ? [i]
          : [],
      );
    for (const [slug, id] of ensured.created)
      createdTerms.push({ asset: termAsset('attribute', slug, String(id)), users: users(slug) });
    for (const [slug, entry] of wanted) {
      const id = ensured.ids.get(slug);
      if (id === undefined) {
        records.forEach((p, i) => {
          if ([...p.options, ...p.attributes].some((a) => a.shared?.slug === slug)) {
            warnings[i]?.push(
              `The store-wide attribute '${entry.name}' could not be created (${ensured.failed.get(slug) ?? 'no answer'}); it is kept as the product's own attribute.`,
            );
            incomplete.add(i);
          }
        });
        continue;
      }
      const terms = await this.attributes.ensureTerms(
        id,
        [...entry.values],
        (name) => entry.terms.get(name) ?? {},
      );
      // A term of the definition no product names yet goes with the first product of the attribute.
      for (const [value, termId] of terms.created) {
        const named = users(slug, value);
        createdTerms.push({
          asset: {
            kind: 'term',
            key: `pa_${slug}:${value}`,
            destinationId: `attribute_term:${id}:${termId}`,
          },
          users: named.length ? named : users(slug),
        });
      }
      for (const [value, why] of terms.failed)
        records.forEach((p, i) => {
          if (
            [...p.options, ...p.attributes].some(
              (a) => a.shared?.slug === slug && a.values.includes(value),
            )
          ) {
            warnings[i]?.push(
              `The value '${value}' of '${entry.name}' could not be created: ${why}`,
            );
            incomplete.add(i);
          }
        });
      ids.set(slug, id);
    }
    return ids;
  }

  async write(records: Product[], idMap: IdMap): Promise<WriteOutcome[]> {
    const lookFirst = this.state.lookFirst;
    const { outcomes, skuTaken } = await this.writeBatch(records, idMap, lookFirst);
    if (lookFirst || skuTaken.size === 0) return outcomes;
    // SKUs the store already has: the merchant's products, or ours written without the id map
    // knowing; these few are looked up and written as a resumed run writes them.
    const again = [...skuTaken];
    const second = await this.writeBatch(
      again.map((i) => records[i] as Product),
      idMap,
      true,
    );
    again.forEach((i, at) => {
      const outcome = second.outcomes[at];
      if (outcome) outcomes[i] = outcome;
    });
    return outcomes;
  }

  private async writeBatch(
    records: Product[],
    idMap: IdMap,
    lookFirst: boolean,
  ): Promise<{ outcomes: WriteOutcome[]; skuTaken: Set<number> }> {
    const open: ImageClaim[] = [];
    try {
      return await this.writeClaiming(records, idMap, lookFirst, open);
    } finally {
      // A write that failed part-way must not leave other writes waiting for its images.
      releaseClaims(open);
    }
  }

  private async writeClaiming(
    records: Product[],
    idMap: IdMap,
    lookFirst: boolean,
    open: ImageClaim[],
  ): Promise<{ outcomes: WriteOutcome[]; skuTaken: Set<number> }> {
    const skuTaken = new Set<number>();
    const info = await this.info();
    const outcomes: WriteOutcome[] = new Array(records.length);
    const warnings = records.map(() => [] as string[]);
    /** Records written without something that may be there on a later run. */
    const incomplete = new Set<number>();
    const tagBodies = new Map<string, Record<string, unknown>>();
    for (const r of records)
      for (const t of r.tagDefinitions)
        if (!tagBodies.has(t.name))
          tagBodies.set(t.name, {
            ...(t.slug ? { slug: t.slug } : {}),
            ...(t.description ? { description: t.description } : {}),
          });
    const tags = await this.tags.ensure(
      records.flatMap((r) => r.tags),
      (name) => tagBodies.get(name) ?? {},
    );
    const brands = await this.brands.ensure(records.map((r) => r.vendor).filter(Boolean));
    /** Terms this write created at the destination, each with the records that name it. */
    const createdTerms: CreatedTerm[] = [];
    const attributeIds = await this.sharedAttributes(records, warnings, incomplete, createdTerms);
    const classes = await this.shippingClasses.ensure(
      records.flatMap((p) => [p.shippingClass, ...p.variants.map((v) => v.shippingClass ?? '')]),
    );
    const naming = (has: (p: Product) => boolean) => records.flatMap((p, i) => (has(p) ? [i] : []));
    for (const [name, id] of tags.created)
      createdTerms.push({
        asset: termAsset('product_tag', name, String(id)),
        users: naming((p) => p.tags.includes(name)),
      });
    for (const [name, id] of brands.created)
      createdTerms.push({
        asset: termAsset('product_brand', name, String(id)),
        users: naming((p) => p.vendor === name),
      });
    for (const [slug, id] of classes.created)
      createdTerms.push({
        asset: termAsset('product_shipping_class', slug, String(id)),
        users: naming((p) =>
          [p.shippingClass, ...p.variants.map((v) => v.shippingClass)].includes(slug),
        ),
      });
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
      for (const slug of [p.shippingClass, ...p.variants.map((v) => v.shippingClass ?? '')]) {
        if (classes.created.has(slug))
          warnings[i]?.push(
            `The shipping class '${slug}' did not exist at the destination and was created with its slug as name; set its name and rates under WooCommerce > Settings > Shipping.`,
          );
        if (classes.failed.has(slug)) {
          warnings[i]?.push(
            `The shipping class '${slug}' could not be created: ${classes.failed.get(slug) ?? ''}`,
          );
          incomplete.add(i);
        }
      }
    });
    const existing = await this.findProducts(
      records,
      idMap,
      records.map((_, i) => i),
      lookFirst,
    );

    // Products of this batch already at the destination can be linked to at once.
    for (const [i, found] of existing)
      if (this.ours(records[i] as Product, found, idMap))
        this.written.set((records[i] as Product).id, found.id);
    const create: BatchOp[] = [];
    const update: BatchOp[] = [];
    const bodies = new Map<number, Json>();
    const hashes = new Map<number, { hash: string; images: string }>();
    /** Products pointing at products not at the destination yet: linked once they are. */
    const linksLater = new Set<number>();
    /** Records whose gallery is sent (all created ones, updated ones whose images changed). */
    const withImages = new Set<number>();
    for (const [i, p] of records.entries()) {
      const found = existing.get(i);
      if (found && !this.ours(p, found, idMap)) {
        outcomes[i] = {
          sourceId: p.id,
          outcome: 'skipped',
          destinationId: String(found.id),
          reason: `A product with SKU '${found.sku || found.slug}' already exists at the destination; it was linked, not changed.`,
          linked: true,
        };
        continue;
      }
      const categoryIds: number[] = [];
      for (const id of p.categoryIds) {
        const mapped = idMap.get('categories', id);
        if (mapped) categoryIds.push(Number(mapped));
        else {
          warnings[i]?.push(`Category ${id} was not migrated; the product is not placed in it.`);
          incomplete.add(i);
        }
      }
      const missing = this.missingLinks(p, idMap);
      const written = productBody(p, {
        categoryIds,
        tagIds: p.tags.flatMap((t) => (tags.ids.has(t) ? [tags.ids.get(t) as number] : [])),
        brandIds: p.vendor && brands.ids.has(p.vendor) ? [brands.ids.get(p.vendor) as number] : [],
        attributeIds,
        images: [],
        upsellIds: this.linkAll(p.upsellIds, idMap),
        crossSellIds: this.linkAll(p.crossSellIds, idMap),
        groupedIds: this.linkAll(p.groupedProductIds, idMap),
        currency: info.currency,
        units: info.units,
      });
      warnings[i]?.push(...written.warnings);
      const { images: _none, ...described } = written.body;
      const hash = digest({ body: described, images: gallery(p), variants: p.variants });
      const imagesHash = digest(gallery(p));
      hashes.set(i, { hash, images: imagesHash });
      if (missing) linksLater.add(i);
      const complete = p.type !== 'variable' || found?.variations.length === p.variants.length;
      if (found && metaValue(found.meta_data, markers.hash) === hash && complete) {
        // Created, not skipped, when this connection sent its create and lost the answer: the
        // store carried the request out after all.
        outcomes[i] = !this.state.unanswered.products.has(p.id)
          ? {
              sourceId: p.id,
              outcome: 'skipped',
              destinationId: String(found.id),
              reason: 'Already up to date.',
            }
          : { sourceId: p.id, outcome: 'created', destinationId: String(found.id) };
        continue;
      }
      bodies.set(i, written.body);
      if (!found || metaValue(found.meta_data, markers.images) !== imagesHash) withImages.add(i);
      if (!found) create.push({ key: i, body: written.body });
      else update.push({ key: i, body: { id: found.id, ...written.body } });
    }

    // Images: by id when the destination has them, else downloaded by the first write of them.
    const claim = this.images.claim(
      [...withImages].flatMap((i) => gallery(records[i] as Product).map((img) => img.url)),
      idMap,
      open,
    );
    /** Per record, the source URLs of the gallery images sent, in the order sent. */
    const sentImages = new Map<number, string[]>();
    /** Records that left out images another write is storing: they get them afterwards. */
    const deferred = new Set<number>();
    const sentInBatch = new Set<string>();
    for (const op of [...create, ...update]) {
      const i = op.key;
      const p = records[i] as Product;
      const marks = hashes.get(i) as { hash: string; images: string };
      if (!withImages.has(i)) {
        delete op.body.images;
      } else {
        const images: Json[] = [];
        const sent: string[] = [];
        /** Images this record would have the store download. */
        const own: string[] = [];
        for (const img of gallery(p)) {
          const known = this.images.known(img.url, idMap);
          if (
            known === undefined &&
            (!claim.mine.has(img.url) || sentInBatch.has(img.url) || own.includes(img.url))
          ) {
            deferred.add(i);
            continue;
          }
          if (known === undefined) own.push(img.url);
          images.push(imageRef(img, known));
          sent.push(img.url);
        }
        // A product already at the destination keeps its gallery until it can be sent whole, for
        // the reason links are (see ProductRefs): its images it would download are left to a
        // later record of the batch, or to completeDeferred.
        if (deferred.has(i) && existing.has(i)) {
          delete op.body.images;
        } else {
          for (const url of own) sentInBatch.add(url);
          op.body.images = images;
          sentImages.set(i, sent);
        }
      }
      op.body.meta_data = [
        ...(op.body.meta_data as Json[]),
        { key: markers.sourceId, value: p.id },
        // Images still to come: the product is up to date only once they are there.
        { key: markers.hash, value: deferred.has(i) || linksLater.has(i) ? '' : marks.hash },
        ...(withImages.has(i)
          ? [{ key: markers.images, value: deferred.has(i) ? '' : marks.images }]
          : []),
      ];
      bodies.set(i, op.body);
    }

    const recover = async (ops: BatchOp[]) => {
      const again = await this.findProducts(
        records,
        idMap,
        ops.map((o) => o.key),
      );
      const out = new Map<number, unknown>();
      for (const [key, product] of again)
        if (sourceIdOf(product.meta_data) === (records[key] as Product).id) out.set(key, product);
      for (const op of ops)
        if (!out.has(op.key)) this.state.unanswered.products.add((records[op.key] as Product).id);
      return out;
    };
    const results = await runBatch(this.client, '/products/batch', { create, update }, recover);
    await this.retryWithoutImages(bodies, update, results, recover, warnings, incomplete);

    const parsed = new Map<number, WcProduct>();
    const stored = new Map<string, number>();
    for (const [key, result] of results) {
      if (!result.ok) continue;
      const product = wcProductSchema.safeParse(result.item);
      if (!product.success) continue;
      parsed.set(key, product.data);
      if (!(bodies.get(key)?.images as unknown[] | undefined)?.length) continue;
      (sentImages.get(key) ?? []).forEach((url, index) => {
        const id = Number(product.data.images[index]?.id ?? 0);
        if (claim.mine.has(url) && id > 0 && !stored.has(url)) stored.set(url, id);
      });
    }
    const assets = claim.settle(stored);
    const assetsOf = (i: number): AssetRecord[] => {
      const mine = new Set(sentImages.get(i) ?? []);
      return assets.filter((a) => mine.has(a.key));
    };
    await this.completeDeferred(
      records,
      deferred,
      parsed,
      hashes,
      linksLater,
      idMap,
      warnings,
      incomplete,
    );

    for (const [key, result] of results) {
      const p = records[key] as Product;
      if (
        !result.ok &&
        !lookFirst &&
        result.op === 'create' &&
        result.error.code === 'product_invalid_sku'
      ) {
        skuTaken.add(key);
        continue;
      }
      if (!result.ok) {
        outcomes[key] = {
          sourceId: p.id,
          outcome: 'failed',
          reason: errorText(result.error),
          ...(warnings[key]?.length ? { warnings: warnings[key] } : {}),
        };
        continue;
      }
      const product = parsed.get(key);
      if (!product) {
        outcomes[key] = {
          sourceId: p.id,
          outcome: 'failed',
          reason: 'The store answered with something that is not a product.',
        };
        continue;
      }
      const created = result.op === 'create';
      const variantAssets: AssetRecord[] = [];
      if (p.type === 'variable') {
        const { problems, imageWarnings } = await this.syncVariations(
          product,
          p,
          info,
          attributeIds,
          idMap,
          created && !result.recovered,
          variantAssets,
          open,
        );
        if (imageWarnings.length) {
          (warnings[key] ??= []).push(...imageWarnings);
          incomplete.add(key);
        }
        if (problems.length || imageWarnings.length) {
          // Unmark the product so that the next run completes its variations.
          await this.client
            .request('PUT', `/products/${product.id}`, {
              body: { meta_data: [{ key: markers.hash, value: '' }] },
              retryable: true,
              schema: wcProductSchema,
            })
            .catch(() => undefined);
        }
        if (problems.length) {
          outcomes[key] = {
            sourceId: p.id,
            outcome: 'failed',
            destinationId: String(product.id),
            reason: problems.join('; '),
          };
          continue;
        }
      }
      const stock = [...assetsOf(key), ...variantAssets];
      outcomes[key] = {
        sourceId: p.id,
        outcome: created ? 'created' : 'updated',
        destinationId: String(product.id),
        ...(warnings[key]?.length ? { warnings: warnings[key] } : {}),
        ...(stock.length ? { assets: stock } : {}),
        ...(incomplete.has(key) ? { incomplete: true } : {}),
      };
    }
    for (const [i, outcome] of outcomes.entries())
      if (outcome?.destinationId && outcome.outcome !== 'failed')
        this.written.set((records[i] as Product).id, Number(outcome.destinationId));
    for (const i of linksLater) {
      const id = outcomes[i]?.destinationId;
      const p = records[i] as Product;
      if (id && outcomes[i]?.outcome !== 'failed')
        this.pendingLinks.set(p.id, { id: Number(id), p });
    }
    await this.linkPending(idMap);
    records.forEach((p, i) => {
      if (skuTaken.has(i)) return;
      outcomes[i] ??= {
        sourceId: p.id,
        outcome: 'failed',
        reason: 'The store did not answer for this product.',
      };
    });
    attachTerms(outcomes, createdTerms);
    return { outcomes, skuTaken };
  }

  /** Destination ids of linked products already at the destination (id map or this connection). */
  private link(ids: string[], idMap: IdMap): number[] {
    return ids.flatMap((id) => {
      const mapped = idMap.get('products', id) ?? this.written.get(id);
      return mapped ? [Number(mapped)] : [];
    });
  }

  /** The whole list, or undefined while one of its products is not at the destination yet. */
  private linkAll(ids: string[], idMap: IdMap): number[] | undefined {
    const linked = this.link(ids, idMap);
    return linked.length === ids.length ? linked : undefined;
  }

  private missingLinks(p: Product, idMap: IdMap): boolean {
    return [...p.upsellIds, ...p.crossSellIds, ...p.groupedProductIds].some(
      (id) => idMap.get('products', id) === undefined && !this.written.has(id),
    );
  }

  /**
   * Completes the links of products written before the products they point at, once those are
   * at the destination. They stay unmarked (no hash): the engine writes such a product again once
   * its stream is done, and that write marks it up to date.
   */
  private async linkPending(idMap: IdMap) {
    const ready = [...this.pendingLinks.values()].filter(({ p }) => !this.missingLinks(p, idMap));
    if (!ready.length) return;
    const ops: BatchOp[] = ready.map(({ id, p }, key) => ({
      key,
      body: {
        id,
        upsell_ids: this.link(p.upsellIds, idMap),
        cross_sell_ids: this.link(p.crossSellIds, idMap),
        ...(p.type === 'grouped'
          ? { grouped_products: this.link(p.groupedProductIds, idMap) }
          : {}),
      },
    }));
    const results = await runBatch(
      this.client,
      '/products/batch',
      { create: [], update: ops },
      async () => new Map(),
    );
    ready.forEach(({ p }, key) => {
      if (results.get(key)?.ok) this.pendingLinks.delete(p.id);
    });
  }

  /** Whether a destination product is the one this connector wrote for `p`. */
  private ours(p: Product, found: WcProduct, idMap: IdMap): boolean {
    return (
      idMap.get('products', p.id) === String(found.id) ||
      sourceIdOf(found.meta_data) === p.id ||
      // Sent unanswered and saved only in part (its SKU without our markers) by a store that went
      // down: the product this run created.
      (sourceIdOf(found.meta_data) === undefined &&
        this.state.unanswered.products.has(p.id) &&
        this.state.madeDuringImport('products', found.id))
    );
  }

  /** A product whose images cannot be downloaded is written without them, and reported. */
  private async retryWithoutImages(
    bodies: Map<number, Json>,
    update: BatchOp[],
    results: Map<number, BatchItemResult>,
    recover: (ops: BatchOp[]) => Promise<Map<number, unknown>>,
    warnings: string[][],
    incomplete: Set<number>,
  ) {
    const imageFailures = [...results].filter(
      ([key, r]) =>
        !r.ok &&
        isImageError(r.error) &&
        (bodies.get(key)?.images as unknown[] | undefined)?.length,
    );
    if (!imageFailures.length) return;
    // Written without its images, the product must not look up to date to the next run, which
    // then sends the images again: its hash and image markers are left blank.
    const strip = (key: number, extra: Json = {}) => ({
      key,
      body: {
        ...bodies.get(key),
        ...extra,
        images: [],
        meta_data: [
          ...((bodies.get(key)?.meta_data as Json[] | undefined) ?? []).filter(
            (m) => m.key !== markers.hash && m.key !== markers.images,
          ),
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
      bodies.set(key, { ...bodies.get(key), images: [] });
    }
  }

  /** Gives products that left out images another write was storing their full gallery. */
  private async completeDeferred(
    records: Product[],
    deferred: Set<number>,
    parsed: Map<number, WcProduct>,
    hashes: Map<number, { hash: string; images: string }>,
    unlinked: Set<number>,
    idMap: IdMap,
    warnings: string[][],
    incomplete: Set<number>,
  ) {
    const ops: BatchOp[] = [];
    for (const key of deferred) {
      const product = parsed.get(key);
      const p = records[key] as Product;
      if (!product) continue;
      const images: Json[] = [];
      for (const img of gallery(p))
        images.push(imageRef(img, await this.images.wait(img.url, idMap)));
      ops.push({
        key,
        body: {
          id: product.id,
          images,
          meta_data: [
            { key: markers.hash, value: unlinked.has(key) ? '' : (hashes.get(key)?.hash ?? '') },
            { key: markers.images, value: hashes.get(key)?.images ?? '' },
          ],
        },
      });
    }
    if (!ops.length) return;
    const results = await runBatch(
      this.client,
      '/products/batch',
      { create: [], update: ops },
      async () => new Map(),
    );
    for (const { key } of ops) {
      const result = results.get(key);
      if (result?.ok) {
        const product = wcProductSchema.safeParse(result.item);
        if (product.success) parsed.set(key, product.data);
        continue;
      }
      warnings[key]?.push(
        `The images could not be added: ${result && !result.ok ? errorText(result.error) : 'no answer from the store'}`,
      );
      incomplete.add(key);
    }
  }

  /** Writes a variable product's variants as variations; answers what went wrong, if anything. */
  private async syncVariations(
    product: WcProduct,
    p: Product,
    info: StoreInfo,
    attributeIds: Map<string, number>,
    idMap: IdMap,
    fresh: boolean,
    assets: AssetRecord[],
    open: ImageClaim[],
  ): Promise<{ problems: string[]; imageWarnings: string[] }> {
    const path = `/products/${product.id}/variations`;
    const existing = fresh ? [] : await readVariations(this.client, product.id);
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
    const claim = this.images.claim(
      p.variants.flatMap((v) => (v.imageUrl ? [v.imageUrl] : [])),
      idMap,
      open,
    );
    const sentInBatch = new Set<string>();
    const titled = new Map(p.images.map((img) => [img.url, img]));
    const create: BatchOp[] = [];
    const update: BatchOp[] = [];
    const urls = new Map<number, string>();
    /** Variants whose image another variant of this batch stores: given it by id afterwards. */
    const later = new Map<number, string>();
    for (const [key, v] of p.variants.entries()) {
      let image: Json | undefined;
      if (v.imageUrl) {
        let id = this.images.known(v.imageUrl, idMap);
        // Waiting for an image this very batch stores would wait for ever.
        if (id === undefined && claim.mine.has(v.imageUrl) && sentInBatch.has(v.imageUrl))
          later.set(key, v.imageUrl);
        else if (id === undefined && !claim.mine.has(v.imageUrl))
          id = await this.images.wait(v.imageUrl, idMap);
        const img = titled.get(v.imageUrl);
        image = id
          ? { id }
          : later.has(key)
            ? undefined
            : {
                src: v.imageUrl,
                ...(img?.title ? { name: img.title } : {}),
                ...(img?.alt ? { alt: img.alt } : {}),
              };
        if (!id && !later.has(key)) {
          sentInBatch.add(v.imageUrl);
          urls.set(key, v.imageUrl);
        }
      }
      const body = variationBody(v, info.units, attributeIds, p.options, image);
      body.meta_data = [...(body.meta_data as Json[]), { key: markers.sourceId, value: v.id }];
      const match = matchOf(
        v.id,
        v.sku,
        v.optionValues.map((o) => o.value),
      );
      if (match) {
        used.add(match.id);
        update.push({ key, body: { id: match.id, ...body } });
      } else create.push({ key, body });
    }
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
    const imageWarnings: string[] = [];
    // A variation whose image the store cannot download is written without it, and reported:
    // the product stays whole (its orders keep their links) and the next run sends the image again.
    const imageFailures = [...results].filter(
      ([key, r]) => !r.ok && r.op !== 'delete' && isImageError(r.error) && urls.has(key),
    );
    if (imageFailures.length) {
      const without = (op: BatchOp | undefined): BatchOp[] => {
        if (!op) return [];
        const { image: _image, ...body } = op.body;
        return [{ key: op.key, body }];
      };
      const again = await runBatch(
        this.client,
        `${path}/batch`,
        {
          create: imageFailures.flatMap(([key, r]) =>
            r.op === 'create' ? without(create.find((op) => op.key === key)) : [],
          ),
          update: imageFailures.flatMap(([key, r]) =>
            r.op === 'update' ? without(update.find((op) => op.key === key)) : [],
          ),
        },
        recover,
      );
      for (const [key, failure] of imageFailures) {
        const retried = again.get(key);
        if (!retried?.ok) continue;
        results.set(key, retried);
        urls.delete(key);
        imageWarnings.push(
          `Variant ${p.variants[key]?.sku || key}: its image could not be copied (${failure.ok ? '' : errorText(failure.error)})`,
        );
      }
    }
    const stored = new Map<string, number>();
    for (const [key, result] of results) {
      if (result.ok) {
        if (result.op === 'delete') continue;
        const variation = wcVariationSchema.safeParse(result.item);
        if (variation.success) {
          const url = urls.get(key);
          const id = Number(variation.data.image?.id ?? 0);
          if (url && id > 0 && !stored.has(url)) stored.set(url, id);
          continue;
        }
        problems.push(`Variant ${p.variants[key]?.sku || key}: unexpected answer from the store`);
        continue;
      }
      const variant = p.variants[key];
      problems.push(`Variant ${variant?.sku || variant?.id || key}: ${errorText(result.error)}`);
    }
    assets.push(...claim.settle(stored));
    const ids = new Map<number, number>();
    for (const [key, result] of results)
      if (result.ok && result.op !== 'delete') {
        const variation = wcVariationSchema.safeParse(result.item);
        if (variation.success) {
          ids.set(key, variation.data.id);
          const variant = p.variants[key];
          if (variant) this.state.rememberVariation(product.id, variant.id, variation.data.id);
        }
      }
    const imageOps: BatchOp[] = [...later].flatMap(([key, url]) => {
      const id = ids.get(key);
      const image = stored.get(url);
      return id !== undefined && image !== undefined
        ? [{ key, body: { id, image: { id: image } } }]
        : [];
    });
    if (imageOps.length) {
      const again = await runBatch(
        this.client,
        `${path}/batch`,
        { create: [], update: imageOps },
        async () => new Map(),
      );
      for (const [key, result] of again)
        if (!result.ok)
          problems.push(
            `Variant ${p.variants[key]?.sku || key}: its image was not set (${errorText(result.error)})`,
          );
    }
    for (const [key, url] of later)
      if (!imageOps.some((op) => op.key === key))
        problems.push(`Variant ${p.variants[key]?.sku || key}: its image ${url} was not stored`);
    return { problems, imageWarnings };
  }
}
