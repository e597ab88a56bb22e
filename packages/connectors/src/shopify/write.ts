import type { Category } from '@replatform/canonical/category';
import type { Page, Post } from '@replatform/canonical/content';
import type { Coupon } from '@replatform/canonical/coupon';
import type { Customer } from '@replatform/canonical/customer';
import type { EntityRecord, EntityType } from '@replatform/canonical/entities';
import type { Order } from '@replatform/canonical/order';
import type { Product } from '@replatform/canonical/product';
import type { Review } from '@replatform/canonical/review';
import { unwritableDataTypes } from '@replatform/contracts/migration';
import { createHash } from 'node:crypto';
import {
  defaultWriteChoices,
  type AssetRecord,
  type IdMap,
  type WriteChoices,
  type WriteOutcome,
} from '../kit/contract.ts';
import { ConnectorError, isTransient } from '../kit/errors.ts';
import { gidNumber } from './bulk.ts';
import { ContentWriter } from './content.ts';
import {
  collectionByIdentifier,
  collectionCreate,
  collectionsByTitle,
  collectionImage,
  collectionUpdate,
  metafieldsSet,
  productMediaState,
  productVariantCombos,
  productVariantsBulkCreate,
  productVariantsBulkUpdate,
  customerByIdentifier,
  customerCreate,
  customerInvite,
  customerUpdateDefaultAddress,
  discountByCode,
  discountCodeBasicCreate,
  discountCodeBasicUpdate,
  discountCodeDeactivate,
  discountCodeFreeShippingCreate,
  discountMetafieldsSet,
  fulfillmentOrderHold,
  jobStatus,
  MARKER_KEY,
  MARKER_NAMESPACE,
  markerDefinitionCreate,
  markerDefinitions,
  orderByIdentifier,
  orderCancel,
  orderCreate,
  orderRefundTargets,
  ordersByName,
  refundCreate,
  primaryLocation,
  productByIdentifier,
  productFirstVariants,
  productRatingDelete,
  productReviewsSet,
  productReviewsState,
  productSet,
  variantsBySku,
  type ShopifyOrderState,
} from './documents.ts';
import {
  bulkVariantInput,
  cancelReasonOf,
  collectionCreateInput,
  couponInput,
  customerInput,
  defaultAddressIndex,
  fileKeyOf,
  imageInput,
  markerMetafield,
  MAX_INPUT_ARRAY,
  METAFIELDS_SET_MAX,
  orderCreateInput,
  PASSWORD_NOTE,
  planProductWrite,
  productSetInput,
  refundInput,
  SOURCE_NUMBER_KEY,
  reviewEntry,
  variantCalls,
  variantCombo,
  type LineLink,
  type MetafieldContext,
  type ProductWritePlan,
} from './from-canonical.ts';
import type { ShopifyGraphqlClient } from './graphql-client.ts';
import {
  mergeReviews,
  parseReviewList,
  RATING_COUNT_KEY,
  RATING_KEY,
  RATING_NAMESPACE,
  ratingOf,
  ratingValue,
  REVIEWS_KEY,
  REVIEWS_MAX_BYTES,
  REVIEWS_NAMESPACE,
  sameRating,
  serializeReviewList,
  shownRating,
  type EntryResult,
} from './reviews.ts';

interface DestinationVariant {
  id: string;
  selectedOptions: { name: string; value: string }[];
}

/**
 * Writing to a shop. Every created record carries the marker metafield replatform.source_id (the
 * source id). The marker has a metafield definition with the unique-values capability, so records
 * are found again by custom id (productByIdentifier & co.) and Shopify itself refuses a second
 * record with the same marker. Before creating, the marker is looked up; after a failure that may
 * have reached Shopify (5xx, reset, cut-off answer) it is looked up again before retrying. So a
 * resumed or repeated run never creates a record twice.
 */

type OwnerType = 'PRODUCT' | 'COLLECTION' | 'CUSTOMER' | 'ORDER';

export interface WriteContext {
  client: ShopifyGraphqlClient;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  log?: (message: string, fields?: Record<string, unknown>) => void;
  /** Whether the shop is a trial or development store (orderCreate: 5 per minute). */
  developmentStore: () => Promise<boolean>;
  /** The shop's currency (coupon amounts must be in it). */
  currency: () => Promise<string>;
  /** Attempts to create one record through transient failures. */
  maxAttempts?: number;
  backoffMs?: number;
  /** The owner's write choices (missing ones as defaultWriteChoices). */
  choices?: Partial<WriteChoices>;
}

/** Records whose source slug becomes their handle (left out when the owner chose new slugs). */
const SLUGGED: ReadonlySet<EntityType> = new Set(['products', 'categories', 'pages', 'posts']);

/** orderCreate on trial and development stores: at most 5 new orders per minute. */
export const DEV_STORE_ORDERS_PER_MINUTE = 5;

/** How Shopify words the per-minute order limit ("Exceeded order API rate limit, …"). */
const ORDER_LIMIT = /order API rate limit|try again in a minute/i;

/** Orders placed within the second of `at` (Shopify keeps processedAt to the second). */
export function placedWithin(at: string): string {
  const second = Math.floor(Date.parse(at) / 1000) * 1000;
  const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
  return `processed_at:>='${iso(second)}' processed_at:<'${iso(second + 1000)}'`;
}

function marker(value: string) {
  return { customId: { namespace: MARKER_NAMESPACE, key: MARKER_KEY, value } };
}

const isMissingScope = (error: unknown) =>
  error instanceof ConnectorError && error.code === 'missing_scope';

const messages = (errors: { field: string[] | null; message: string }[]) =>
  errors
    .map((e) => (e.field?.length ? `${e.field.join('.')}: ${e.message}` : e.message))
    .join('; ');

const isMarkerClash = (
  errors: { field: string[] | null; message: string; code?: string | null }[],
) =>
  errors.some(
    (e) =>
      e.code === 'CAPABILITY_VIOLATION' ||
      (e.field?.includes('metafields') === true && /taken|unique/i.test(e.message)),
  );

type Created =
  | { kind: 'created' | 'found'; id: string; warnings?: string[] }
  | { kind: 'failed'; reason: string };

type MediaState = { id: string; status: string; mediaErrors: { code: string; message: string }[] };
type ComboPage = {
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
  nodes: {
    id: string;
    selectedOptions: { name: string; value: string }[];
    media: { nodes: { id: string }[] };
  }[];
};

/** How long a write waits for Shopify to process a product's images before it reports them. */
const MEDIA_WAIT_MS = 15_000;

/** Warnings and the incomplete flag of an outcome, leaving both out when there is nothing to say. */
function withIncomplete(
  warnings: string[],
  incomplete: boolean,
): Pick<WriteOutcome, 'warnings' | 'incomplete'> {
  return {
    ...(warnings.length ? { warnings } : {}),
    ...(incomplete ? { incomplete: true } : {}),
  };
}

function withAssets(assets: AssetRecord[]): Pick<WriteOutcome, 'assets'> {
  return assets.length ? { assets } : {};
}

/** Reference metafields point at records of the destination, found through the id map. */
function metafieldContext(idMap: IdMap): MetafieldContext {
  return { idOf: (entity, sourceId) => idMap.get(entity, sourceId) };
}

/** An idempotency key for refundCreate, the same for the same refund of the same order. */
export function refundKey(orderSourceId: string, refundSourceId: string): string {
  return createHash('sha256')
    .update(`${orderSourceId}\u0000${refundSourceId}`)
    .digest('hex')
    .slice(0, 32);
}

function missingCollectionImage(url: string): { incomplete: true; warnings: string[] } {
  return {
    incomplete: true,
    warnings: [
      `The collection image ${url} could not be added: Shopify could not fetch it; the next run tries again.`,
    ],
  };
}

/**
 * A discount input whose product or collection list is longer than one input array takes, split:
 * the input with the first ones, then the items to add with discountCodeBasicUpdate.
 */
export function itemBatches(
  input: Record<string, unknown>,
): [Record<string, unknown>, ...Record<string, unknown>[]] {
  const gets = input.customerGets as
    { items?: Record<string, Record<string, string[]>> } | undefined;
  const items = gets?.items;
  const key = items?.products ? 'products' : items?.collections ? 'collections' : undefined;
  const field = key === 'products' ? 'productsToAdd' : 'add';
  const ids = key ? (items?.[key]?.[field] ?? []) : [];
  if (!key || ids.length <= MAX_INPUT_ARRAY) return [input];
  const chunk = (i: number) => ({ [key]: { [field]: ids.slice(i, i + MAX_INPUT_ARRAY) } });
  const rest: Record<string, unknown>[] = [];
  for (let i = MAX_INPUT_ARRAY; i < ids.length; i += MAX_INPUT_ARRAY) rest.push(chunk(i));
  return [{ ...input, customerGets: { ...gets, items: chunk(0) } }, ...rest];
}

export class ShopifyWriter {
  readonly #ctx: WriteContext;
  #markers: Promise<Record<OwnerType, boolean>> | undefined;
  #location: Promise<string> | undefined;
  readonly #variants = new Map<string, Promise<DestinationVariant | undefined>>();
  /**
   * Images this connection stored (source URL -> media id), so that a product showing an image
   * another product of the same batch stored reuses it instead of storing it again.
   */
  readonly #images = new Map<string, string>();
  readonly #orderTimes: number[] = [];
  /** Set once Shopify refused an order for the per-minute limit although the plan did not say. */
  #limitedStore = false;
  readonly #content: ContentWriter;
  readonly #choices: WriteChoices;

  constructor(ctx: WriteContext) {
    this.#ctx = ctx;
    this.#content = new ContentWriter(ctx);
    this.#choices = { ...defaultWriteChoices, ...ctx.choices };
  }

  /**
   * Makes sure each owner type has the marker definition with unique values (metafieldDefinitionCreate).
   * Where that is impossible the writer falls back to handle / e-mail / order-name lookups.
   */
  markers(): Promise<Record<OwnerType, boolean>> {
    this.#markers ??= (async () => {
      const result = { PRODUCT: false, COLLECTION: false, CUSTOMER: false, ORDER: false };
      let existing;
      try {
        existing = await this.#ctx.client.request(markerDefinitions);
      } catch (error) {
        // Without access to metafield definitions the writer still works, with fallback lookups.
        if (isMissingScope(error)) {
          this.#ctx.log?.('shopify: no access to metafield definitions, using fallback lookups');
          return result;
        }
        throw error;
      }
      for (const ownerType of ['PRODUCT', 'COLLECTION', 'CUSTOMER', 'ORDER'] as const) {
        const found = existing[ownerType].nodes[0];
        if (found) {
          result[ownerType] = found.capabilities.uniqueValues.enabled;
          continue;
        }
        const created = await this.#ctx.client
          .request(markerDefinitionCreate, {
            definition: {
              name: 'Replatform source id',
              namespace: MARKER_NAMESPACE,
              key: MARKER_KEY,
              description:
                'Id of the record in the store it was migrated from (set by Replatform).',
              type: 'single_line_text_field',
              ownerType,
              capabilities: { uniqueValues: { enabled: true } },
            },
          })
          .catch((error: unknown) => {
            if (isMissingScope(error)) return { metafieldDefinitionCreate: null };
            throw error;
          });
        const payload = created.metafieldDefinitionCreate;
        result[ownerType] =
          Boolean(payload?.createdDefinition) ||
          Boolean(payload?.userErrors.some((e) => e.code === 'TAKEN'));
        if (!result[ownerType])
          this.#ctx.log?.('shopify: marker definition unavailable, using fallback lookups', {
            ownerType,
            errors: payload?.userErrors.map((e) => e.message),
          });
      }
      return result;
    })();
    this.#markers.catch(() => {
      this.#markers = undefined;
    });
    return this.#markers;
  }

  async prepare(): Promise<string[]> {
    const markers = await this.markers();
    const lines = Object.entries(markers).map(([ownerType, unique]) =>
      unique
        ? `Metafield definition ${MARKER_NAMESPACE}.${MARKER_KEY} with unique values is ready for ${ownerType.toLowerCase()} records.`
        : `No unique ${MARKER_NAMESPACE}.${MARKER_KEY} definition for ${ownerType.toLowerCase()} records: records are matched by handle, e-mail or order name.`,
    );
    lines.push(
      this.#choices.notifyCustomers
        ? 'Orders are imported with Shopify’s order and shipping confirmations e-mailed to their customers, and customers are sent Shopify’s account invitation; inventory is not changed.'
        : 'Orders are imported without notifying customers and without changing inventory.',
    );
    if (!this.#choices.keepOrderNumbers)
      lines.push(
        `Orders are numbered by Shopify; each keeps its number at the source in the metafield ${MARKER_NAMESPACE}.${SOURCE_NUMBER_KEY}.`,
      );
    if (!this.#choices.keepSlugs)
      lines.push(
        'Products, collections, pages and blog articles get handles Shopify makes from their titles.',
      );
    lines.push(PASSWORD_NOTE);
    return lines;
  }

  #locationId(): Promise<string> {
    this.#location ??= this.#ctx.client.request(primaryLocation).then((r) => {
      if (!r.location)
        throw new ConnectorError(
          'config',
          'no_location',
          'The shop has no location to hold inventory.',
        );
      return r.location.id;
    });
    this.#location.catch(() => {
      this.#location = undefined;
    });
    return this.#location;
  }

  async #createOnce(
    lookup: () => Promise<string | undefined>,
    create: () => Promise<Created>,
  ): Promise<Created> {
    const existing = await lookup();
    if (existing) return { kind: 'found', id: existing };
    const max = this.#ctx.maxAttempts ?? 8;
    for (let attempt = 1; ; attempt++) {
      try {
        return await create();
      } catch (error) {
        if (!isTransient(error) || attempt >= max) throw error;
        await this.#ctx.sleep(Math.min(5_000, (this.#ctx.backoffMs ?? 200) * 2 ** (attempt - 1)));
        // The failed attempt may have reached Shopify: its record carries the marker.
        const landed = await lookup();
        if (landed) return { kind: 'created', id: landed };
      }
    }
  }

  async write<E extends EntityType>(
    entity: E,
    records: EntityRecord[E][],
    idMap: IdMap,
  ): Promise<WriteOutcome[]> {
    if (entity === 'reviews') return this.#writeReviews(records as Review[], idMap);
    // Not a destination of brands (capabilities.write leaves them out, so the engine never asks):
    // a call all the same fails each record with the reason, never pretending to have kept it.
    if (entity === 'brands')
      return records.map((r) => ({
        sourceId: r.id,
        outcome: 'failed',
        reason: unwritableDataTypes.shopify.brands,
      }));
    const outcomes: WriteOutcome[] = [];
    // New slugs: the records go without theirs, and Shopify makes each handle from the title.
    const written =
      !this.#choices.keepSlugs && SLUGGED.has(entity)
        ? records.map((r) => ({ ...r, slug: '' }) as EntityRecord[E])
        : records;
    for (const record of written) {
      try {
        outcomes.push(await this.#writeOne(entity, record, idMap));
      } catch (error) {
        // Problems of the store or of the connection stop the batch; a record Shopify refuses
        // for what it contains only fails that record.
        if (error instanceof ConnectorError && error.errorClass === 'system')
          outcomes.push({ sourceId: record.id, outcome: 'failed', reason: error.message });
        else throw error;
      }
    }
    return outcomes;
  }

  #writeOne<E extends EntityType>(
    entity: E,
    record: EntityRecord[E],
    idMap: IdMap,
  ): Promise<WriteOutcome> {
    switch (entity) {
      case 'categories':
        return this.#writeCategory(record as Category, idMap);
      case 'products':
        return this.#writeProduct(record as Product, idMap);
      case 'coupons':
        return this.#writeCoupon(record as Coupon, idMap);
      case 'customers':
        return this.#writeCustomer(record as Customer, idMap);
      case 'pages':
        return this.#content.writePage(record as Page, idMap);
      case 'posts':
        return this.#content.writePost(record as Post, idMap);
      default:
        return this.#writeOrder(record as Order, idMap);
    }
  }

  // ---------------------------------------------------------------- categories

  async #findCollection(c: Category): Promise<string | undefined> {
    const { client } = this.#ctx;
    if ((await this.markers()).COLLECTION)
      return (await client.request(collectionByIdentifier, { identifier: marker(c.id) }))
        .collectionByIdentifier?.id;
    if (!c.slug) return undefined;
    const found = (await client.request(collectionByIdentifier, { identifier: { handle: c.slug } }))
      .collectionByIdentifier;
    return found?.marker?.value === c.id ? found.id : undefined;
  }

  /**
   * The merchant's own collection of the same name (no migration made it), which the category
   * joins instead of a second collection of that name: names are compared as Unicode text
   * (normalised, case-insensitive), since collections are flat and named uniquely by merchants.
   */
  async #sameNamedCollection(c: Category): Promise<string | undefined> {
    const key = (name: string) => name.normalize('NFC').trim().toLocaleLowerCase();
    const query = `title:"${c.name.normalize('NFC').replace(/["\\]/g, '\\$&')}"`;
    const { collections } = await this.#ctx.client.request(collectionsByTitle, { query });
    return collections.nodes.find((n) => !n.marker && key(n.title) === key(c.name))?.id;
  }

  /**
   * A collection image Shopify could not fetch is added again; answers whether it changed
   * something and what is still missing.
   */
  async #completeCollection(
    c: Category,
    id: string,
  ): Promise<{ changed: boolean; incomplete: boolean; warnings: string[] }> {
    const none = { changed: false, incomplete: false, warnings: [] };
    if (!c.imageUrl) return none;
    const { client } = this.#ctx;
    const current = (await client.request(collectionImage, { id })).collection;
    if (!current || current.image) return none;
    let answer;
    try {
      answer = (
        await client.request(collectionUpdate, {
          collection: { id, image: imageInput(c) },
        })
      ).collectionUpdate;
    } catch (error) {
      if (!isTransient(error)) throw error;
      return { changed: false, ...missingCollectionImage(c.imageUrl) };
    }
    if (answer?.collection?.image) return { changed: true, incomplete: false, warnings: [] };
    if (answer?.userErrors.length)
      return {
        changed: false,
        incomplete: false,
        warnings: [
          `The collection image ${c.imageUrl} was refused: ${messages(answer.userErrors)}`,
        ],
      };
    return { changed: false, ...missingCollectionImage(c.imageUrl) };
  }

  async #writeCategory(c: Category, idMap: IdMap): Promise<WriteOutcome> {
    const built = collectionCreateInput(c, metafieldContext(idMap));
    if ('failure' in built) return { sourceId: c.id, outcome: 'failed', reason: built.failure };
    const known = idMap.get('categories', c.id);
    if (known) {
      const completed = await this.#completeCollection(c, known);
      return {
        sourceId: c.id,
        outcome: completed.changed ? 'updated' : 'skipped',
        destinationId: known,
        ...(completed.changed ? {} : { reason: 'Already migrated.' }),
        ...withIncomplete(
          completed.changed ? [...built.warnings, ...completed.warnings] : completed.warnings,
          completed.incomplete,
        ),
      };
    }
    if (!(await this.#findCollection(c))) {
      const same = await this.#sameNamedCollection(c);
      if (same)
        return {
          sourceId: c.id,
          outcome: 'skipped',
          destinationId: same,
          reason: `The destination already has a collection named '${c.name}': its products are added to it.`,
        };
    }
    let imageMissing = false;
    const result = await this.#createOnce(
      () => this.#findCollection(c),
      async () => {
        const answer = (
          await this.#ctx.client.request(
            collectionCreate,
            { collection: built.input },
            { idempotent: false },
          )
        ).collectionCreate;
        if (answer?.collection) {
          imageMissing = Boolean(c.imageUrl) && !answer.collection.image;
          return { kind: 'created', id: answer.collection.id };
        }
        const errors = answer?.userErrors ?? [];
        if (isMarkerClash(errors)) {
          const id = await this.#findCollection(c);
          if (id) return { kind: 'created', id };
        }
        if (errors.some((e) => e.field?.includes('handle') && /taken/i.test(e.message)))
          return {
            kind: 'failed',
            reason: `A collection with the handle '${c.slug}' already exists at the destination and was not created by this migration.`,
          };
        return { kind: 'failed', reason: `Shopify refused the collection: ${messages(errors)}` };
      },
    );
    if (result.kind === 'failed')
      return { sourceId: c.id, outcome: 'failed', reason: result.reason };
    const warnings = [...built.warnings];
    let incomplete = false;
    if (result.kind === 'found') {
      const completed = await this.#completeCollection(c, result.id);
      warnings.push(...completed.warnings);
      incomplete = completed.incomplete;
    } else if (imageMissing && c.imageUrl) {
      const missing = missingCollectionImage(c.imageUrl);
      warnings.push(...missing.warnings);
      incomplete = true;
    }
    return {
      sourceId: c.id,
      outcome: result.kind === 'found' ? 'skipped' : 'created',
      destinationId: result.id,
      ...(result.kind === 'found'
        ? { reason: 'Already at the destination (found by its migration marker).' }
        : {}),
      ...withIncomplete(warnings, incomplete),
    };
  }

  // ---------------------------------------------------------------- products

  async #findProduct(p: Product): Promise<{ id: string; handle: string } | undefined> {
    const { client } = this.#ctx;
    if ((await this.markers()).PRODUCT) {
      const found = (await client.request(productByIdentifier, { identifier: marker(p.id) }))
        .productByIdentifier;
      return found ? { id: found.id, handle: found.handle } : undefined;
    }
    if (!p.slug) return undefined;
    const found = (await client.request(productByIdentifier, { identifier: { handle: p.slug } }))
      .productByIdentifier;
    return found?.marker?.value === p.id ? { id: found.id, handle: found.handle } : undefined;
  }

  /**
   * Shopify's media of a product, in the order of the files given to productSet; waits a little
   * while Shopify is still processing them.
   */
  async #mediaStates(productId: string, count: number): Promise<MediaState[]> {
    if (count === 0) return [];
    const { client } = this.#ctx;
    let delay = 500;
    for (let waited = 0; ;) {
      const nodes =
        (await client.request(productMediaState, { id: productId, first: Math.min(count, 250) }))
          .product?.media.nodes ?? [];
      const pending = nodes.some((m) => m.status === 'UPLOADED' || m.status === 'PROCESSING');
      if (!pending || waited >= MEDIA_WAIT_MS) return nodes;
      await this.#ctx.sleep(delay);
      waited += delay;
      delay = Math.min(delay * 2, 8_000);
    }
  }

  /** The option combination of each variant the product has, with its image. */
  async #variantCombos(productId: string): Promise<Map<string, { id: string; mediaId?: string }>> {
    const combos = new Map<string, { id: string; mediaId?: string }>();
    let after: string | null = null;
    for (;;) {
      const page: { product: { variants: ComboPage } | null } = await this.#ctx.client.request(
        productVariantCombos,
        { id: productId, after },
      );
      const variants = page.product?.variants;
      if (!variants) return combos;
      for (const v of variants.nodes) {
        const combo = v.selectedOptions.map((o) => o.value).join(' / ');
        const mediaId = v.media.nodes[0]?.id;
        combos.set(combo, { id: v.id, ...(mediaId ? { mediaId } : {}) });
      }
      if (!variants.pageInfo.hasNextPage) return combos;
      after = variants.pageInfo.endCursor;
    }
  }

  /**
   * Everything a product needs besides its productSet: checks that Shopify got its images (and,
   * for a product already at the destination, adds again those it failed to fetch), creates the
   * variants and metafields one productSet could not carry (or a crashed run left out), and
   * links variants to their images.
   */
  async #completeProduct(
    productId: string,
    plan: ProductWritePlan,
    fresh: boolean,
  ): Promise<{
    changed: boolean;
    incomplete: boolean;
    warnings: string[];
    assets: AssetRecord[];
  }> {
    const { client } = this.#ctx;
    const warnings: string[] = [];
    const assets: AssetRecord[] = [];
    let changed = false;
    let incomplete = false;
    const step = async <T>(what: string, run: () => Promise<T>): Promise<T | undefined> => {
      try {
        return await run();
      } catch (error) {
        if (!isTransient(error)) throw error;
        warnings.push(
          `${what} did not reach Shopify (${(error as Error).message}); the next run tries again.`,
        );
        incomplete = true;
        return undefined;
      }
    };

    let media = await this.#mediaStates(productId, plan.files.length);
    const broken = plan.files.some((_f, i) => media[i]?.status === 'FAILED');
    if (!fresh && broken && media.length === plan.files.length) {
      const repaired = await step('Adding the images again', async () => {
        const answer = (
          await client.request(productSet, {
            identifier: { id: productId },
            input: {
              files: plan.files.map((f, i) => {
                const m = media[i];
                return m && m.status !== 'FAILED'
                  ? { id: m.id, alt: f.alt }
                  : { originalSource: f.source, alt: f.alt, contentType: 'IMAGE' };
              }),
            },
          })
        ).productSet;
        if (answer?.userErrors.length)
          warnings.push(`The images could not be added again: ${messages(answer.userErrors)}`);
        else changed = true;
        return this.#mediaStates(productId, plan.files.length);
      });
      if (repaired) media = repaired;
    }
    plan.files.forEach((f, i) => {
      const m = media[i];
      if (!m) return;
      if (m.status === 'FAILED') {
        const error = m.mediaErrors[0];
        // Downloads can pass on a later try; a file Shopify cannot use never will.
        const retry = !error || /DOWNLOAD|TIMEOUT/.test(error.code);
        warnings.push(
          `The image ${f.source} was not added: ${error ? `${error.message} (${error.code})` : 'Shopify could not process it'}${retry ? '; the next run tries again' : ''}.`,
        );
        if (retry) incomplete = true;
      } else if (m.status !== 'READY') {
        warnings.push(
          `Shopify was still processing the image ${f.source}; the next run checks it.`,
        );
        incomplete = true;
      }
      // An image stored here for the first time is reused by every later record that shows it.
      if (m.status !== 'FAILED' && !this.#images.has(f.source)) {
        this.#images.set(f.source, m.id);
        if (!f.id) assets.push({ kind: 'image', key: f.source, destinationId: m.id });
      }
    });
    const mediaFor = (variant: Record<string, unknown>): string | undefined => {
      const key = fileKeyOf(variant);
      const index = plan.files.findIndex((f) => (f.id ?? f.source) === key);
      const m = index === -1 ? undefined : media[index];
      return m && m.status !== 'FAILED' ? m.id : undefined;
    };

    const options = ((plan.input.productOptions as { name: string }[] | undefined) ?? []).map(
      (o) => o.name,
    );
    const wanted = fresh
      ? plan.laterVariants
      : [...((plan.input.variants as Record<string, unknown>[]) ?? []), ...plan.laterVariants];
    if (wanted.length && (!fresh || plan.laterVariants.length)) {
      const existing = fresh ? new Map() : await this.#variantCombos(productId);
      const missing = wanted.filter((v) => !existing.has(variantCombo(v, options)));
      for (const call of variantCalls(missing)) {
        const answer = await step(
          `Creating ${call.length} more variants`,
          async () =>
            (
              await client.request(
                productVariantsBulkCreate,
                {
                  productId,
                  variants: call.map((v) => bulkVariantInput(v, mediaFor(v))),
                  strategy: 'DEFAULT',
                },
                { idempotent: false },
              )
            ).productVariantsBulkCreate,
        );
        if (!answer) break;
        const refused = answer.userErrors.filter((e) => e.code !== 'VARIANT_ALREADY_EXISTS');
        if (refused.length)
          warnings.push(`${call.length} variants could not be created: ${messages(refused)}`);
        else changed = changed || !fresh;
      }
      // Variants whose image was added again point at the new copy.
      if (!fresh && changed) {
        const current = await this.#variantCombos(productId);
        const relink = wanted.flatMap((v) => {
          const mediaId = mediaFor(v);
          const found = current.get(variantCombo(v, options));
          return mediaId && found && found.mediaId !== mediaId ? [{ id: found.id, mediaId }] : [];
        });
        for (let i = 0; i < relink.length; i += MAX_INPUT_ARRAY) {
          const answer = await step(
            'Linking variants to their images',
            async () =>
              (
                await client.request(productVariantsBulkUpdate, {
                  productId,
                  variants: relink.slice(i, i + MAX_INPUT_ARRAY),
                })
              ).productVariantsBulkUpdate,
          );
          if (answer?.userErrors.length)
            warnings.push(`Variant images could not be linked: ${messages(answer.userErrors)}`);
        }
      }
    }

    for (let i = 0; i < plan.laterMetafields.length; i += METAFIELDS_SET_MAX) {
      const batch = plan.laterMetafields.slice(i, i + METAFIELDS_SET_MAX);
      const answer = await step(
        `Setting ${batch.length} metafields`,
        async () =>
          (
            await client.request(metafieldsSet, {
              metafields: batch.map((m) => ({ ...m, ownerId: productId })),
            })
          ).metafieldsSet,
      );
      if (answer?.userErrors.length)
        warnings.push(`Some attributes were not migrated: ${messages(answer.userErrors)}`);
      else if (answer && !fresh) changed = true;
    }
    return { changed, incomplete, warnings, assets };
  }

  async #writeProduct(p: Product, idMap: IdMap): Promise<WriteOutcome> {
    const built = productSetInput(p, {
      locationId: await this.#locationId(),
      collectionIds: (categoryId) => idMap.get('categories', categoryId),
      imageId: (url) => idMap.asset?.('image', url) ?? this.#images.get(url),
      now: this.#ctx.now(),
      ...metafieldContext(idMap),
    });
    if ('failure' in built) return { sourceId: p.id, outcome: 'failed', reason: built.failure };
    const plan = planProductWrite(built.input, built.files);
    const planned = [...built.warnings, ...plan.warnings];
    const known = idMap.get('products', p.id);
    if (known) {
      const completed = await this.#completeProduct(known, plan, false);
      return {
        sourceId: p.id,
        outcome: completed.changed ? 'updated' : 'skipped',
        destinationId: known,
        ...(completed.changed ? {} : { reason: 'Already migrated.' }),
        ...withIncomplete(
          completed.changed ? [...planned, ...completed.warnings] : completed.warnings,
          completed.incomplete,
        ),
        ...withAssets(completed.assets),
      };
    }
    const useMarker = (await this.markers()).PRODUCT;
    const result = await this.#createOnce(
      async () => {
        const found = await this.#findProduct(p);
        return found?.id;
      },
      async () => {
        // With a unique marker, productSet upserts by custom id: repeating it cannot duplicate.
        const answer = (
          await this.#ctx.client.request(
            productSet,
            { input: plan.input, ...(useMarker ? { identifier: marker(p.id) } : {}) },
            { idempotent: useMarker },
          )
        ).productSet;
        if (answer?.product) {
          return { kind: 'created', id: answer.product.id };
        }
        const errors = answer?.userErrors ?? [];
        if (isMarkerClash(errors)) {
          const found = await this.#findProduct(p);
          if (found) return { kind: 'created', id: found.id };
        }
        if (errors.some((e) => e.code === 'HANDLE_NOT_UNIQUE'))
          return {
            kind: 'failed',
            reason: `A product with the handle '${p.slug}' already exists at the destination and was not created by this migration.`,
          };
        return { kind: 'failed', reason: `Shopify refused the product: ${messages(errors)}` };
      },
    );
    if (result.kind === 'failed')
      return { sourceId: p.id, outcome: 'failed', reason: result.reason };
    const completed = await this.#completeProduct(result.id, plan, result.kind === 'created');
    const warnings =
      result.kind === 'found' ? [...completed.warnings] : [...planned, ...completed.warnings];
    const outcome =
      result.kind === 'created' ? 'created' : completed.changed ? 'updated' : 'skipped';
    return {
      sourceId: p.id,
      outcome,
      destinationId: result.id,
      ...(outcome === 'skipped'
        ? { reason: 'Already at the destination (found by its migration marker).' }
        : {}),
      ...withIncomplete(warnings, completed.incomplete),
      ...withAssets(completed.assets),
    };
  }

  // ---------------------------------------------------------------- coupons

  /**
   * The shop's discount with the coupon's code, and whether it is this coupon's (our marker). A
   * discount with the code found right after an attempt whose answer was lost, before its marker
   * was set, is the one that attempt created: codes are unique and it was not there before.
   */
  async #discountWithCode(code: string) {
    const found = (await this.#ctx.client.request(discountByCode, { code })).codeDiscountNodeByCode;
    return found ?? undefined;
  }

  async #markCoupon(
    c: Coupon,
    id: string,
    metafields: Record<string, string>[],
    warnings: string[],
  ): Promise<void> {
    const all = [markerMetafield(c.id), ...metafields];
    for (let i = 0; i < all.length; i += METAFIELDS_SET_MAX) {
      const answer = (
        await this.#ctx.client.request(discountMetafieldsSet, {
          metafields: all.slice(i, i + METAFIELDS_SET_MAX).map((m) => ({ ...m, ownerId: id })),
        })
      ).metafieldsSet;
      if (answer?.userErrors.length)
        warnings.push(`Some custom fields were not migrated: ${messages(answer.userErrors)}`);
    }
  }

  async #writeCoupon(c: Coupon, idMap: IdMap): Promise<WriteOutcome> {
    const { client } = this.#ctx;
    const built = couponInput(c, {
      currency: await this.#ctx.currency(),
      now: this.#ctx.now(),
      productId: (id) => idMap.get('products', id),
      collectionId: (id) => idMap.get('categories', id),
      ...metafieldContext(idMap),
    });
    if ('failure' in built) return { sourceId: c.id, outcome: 'failed', reason: built.failure };
    const { warnings } = built;
    const known = idMap.get('coupons', c.id);
    if (known)
      return {
        sourceId: c.id,
        outcome: 'skipped',
        destinationId: known,
        reason: 'Already migrated.',
      };
    const existing = await this.#discountWithCode(c.code);
    if (existing && existing.marker?.value !== c.id)
      return {
        sourceId: c.id,
        outcome: 'skipped',
        destinationId: existing.id,
        reason: `The destination already has a discount with the code ${c.code}, not created by this migration: it was left as it is.`,
        linked: true,
      };
    let id = existing?.id;
    let created = false;
    const [firstItems, ...moreItems] = itemBatches(built.input.input);
    const max = this.#ctx.maxAttempts ?? 8;
    for (let attempt = 1; !id; attempt++) {
      try {
        const variables = { input: firstItems };
        const payload =
          built.input.kind === 'basic'
            ? (await client.request(discountCodeBasicCreate, variables, { idempotent: false }))
                .discountCodeBasicCreate
            : (
                await client.request(discountCodeFreeShippingCreate, variables, {
                  idempotent: false,
                })
              ).discountCodeFreeShippingCreate;
        if (payload?.codeDiscountNode) {
          id = payload.codeDiscountNode.id;
          created = true;
          break;
        }
        const errors = payload?.userErrors ?? [];
        if (errors.some((e) => e.code === 'TAKEN')) {
          // Created meanwhile by someone else: the merchant's, unless it carries our marker.
          const other = await this.#discountWithCode(c.code);
          if (other)
            return {
              sourceId: c.id,
              outcome: 'skipped',
              destinationId: other.id,
              reason:
                other.marker?.value === c.id
                  ? 'Already at the destination (found by its migration marker).'
                  : `The destination already has a discount with the code ${c.code}, not created by this migration: it was left as it is.`,
              ...(other.marker?.value === c.id ? {} : { linked: true }),
            };
        }
        return {
          sourceId: c.id,
          outcome: 'failed',
          reason: `Shopify refused the discount: ${messages(errors)}`,
          ...(warnings.length ? { warnings } : {}),
        };
      } catch (error) {
        if (!isTransient(error) || attempt >= max) throw error;
        await this.#ctx.sleep(Math.min(5_000, (this.#ctx.backoffMs ?? 200) * 2 ** (attempt - 1)));
        // The failed attempt may have reached Shopify: the code was free before it.
        const landed = await this.#discountWithCode(c.code);
        if (landed) {
          id = landed.id;
          created = true;
        }
      }
    }
    if (!existing?.marker) await this.#markCoupon(c, id, built.input.metafields, warnings);
    if (created)
      for (const items of moreItems) {
        const answer = (
          await client.request(discountCodeBasicUpdate, {
            id,
            input: { customerGets: { items } },
          })
        ).discountCodeBasicUpdate;
        if (answer?.userErrors.length)
          warnings.push(
            `Not every product or collection could be added to the discount: ${messages(answer.userErrors)}`,
          );
      }
    let deactivated = false;
    const status = existing?.codeDiscount.status;
    if (!c.enabled && (created || (status !== undefined && status !== 'EXPIRED'))) {
      const answer = (await client.request(discountCodeDeactivate, { id })).discountCodeDeactivate;
      if (answer?.userErrors.length)
        warnings.push(`The code could not be switched off: ${messages(answer.userErrors)}`);
      else deactivated = !created;
    }
    return {
      sourceId: c.id,
      outcome: created ? 'created' : deactivated ? 'updated' : 'skipped',
      destinationId: id,
      ...(created ? {} : { reason: 'Already at the destination (found by its migration marker).' }),
      ...(warnings.length && (created || deactivated) ? { warnings } : {}),
    };
  }

  // ---------------------------------------------------------------- reviews

  /** The write to each product's reviews list that runs now, so the next waits for it. */
  readonly #reviewLists = new Map<string, Promise<unknown>>();

  /**
   * Runs `write` once the writes to the same product's list that came before have ended: the
   * engine may have several batches in flight, and each rewrites the whole list.
   */
  #inTurn<T>(productId: string, write: () => Promise<T>): Promise<T> {
    const before = this.#reviewLists.get(productId) ?? Promise.resolve();
    const mine = before.then(write, write);
    const done = mine.catch(() => undefined);
    this.#reviewLists.set(productId, done);
    void done.then(() => {
      if (this.#reviewLists.get(productId) === done) this.#reviewLists.delete(productId);
    });
    return mine;
  }

  /**
   * Reviews go into their products' lists (reviews.ts): the reviews of a batch are grouped by
   * product, and each product's list is read, merged and written back once, in turn with other
   * writes to it.
   */
  async #writeReviews(reviews: Review[], idMap: IdMap): Promise<WriteOutcome[]> {
    const outcomes = new Map<string, WriteOutcome>();
    const byProduct = new Map<string, Review[]>();
    for (const r of reviews) {
      const productId = idMap.get('products', r.productId);
      if (!productId) {
        outcomes.set(r.id, {
          sourceId: r.id,
          outcome: 'failed',
          reason: `Its product (source id ${r.productId}) has no copy at the destination, so the review has nothing to belong to.`,
        });
        continue;
      }
      byProduct.set(productId, [...(byProduct.get(productId) ?? []), r]);
    }
    const groups = [...byProduct];
    const settled = await Promise.allSettled(
      groups.map(([productId, group]) =>
        this.#inTurn(productId, () => this.#writeProductReviews(productId, group)),
      ),
    );
    let failure: unknown;
    settled.forEach((result, i) => {
      if (result.status === 'fulfilled') {
        for (const o of result.value) outcomes.set(o.sourceId, o);
        return;
      }
      const error: unknown = result.reason;
      // A product Shopify cannot take reviews for fails its reviews; a problem of the store or
      // of the connection fails the batch.
      if (error instanceof ConnectorError && error.errorClass === 'system')
        for (const r of groups[i]?.[1] ?? [])
          outcomes.set(r.id, { sourceId: r.id, outcome: 'failed', reason: error.message });
      else failure ??= error;
    });
    if (failure !== undefined) throw failure;
    return reviews.map(
      (r) => outcomes.get(r.id) ?? { sourceId: r.id, outcome: 'failed', reason: 'Not written.' },
    );
  }

  /**
   * One product's reviews: its list is read with its digest, the reviews merged into it, and the
   * list set back with compareDigest together with the star rating, so nothing another writer put
   * there in between is overwritten (a list changed meanwhile is read and merged again). A list
   * in another shape is never overwritten, and stars another app keeps are left as they are.
   */
  async #writeProductReviews(productId: string, reviews: Review[]): Promise<WriteOutcome[]> {
    const { client } = this.#ctx;
    const failAll = (reason: string): WriteOutcome[] =>
      reviews.map((r) => ({ sourceId: r.id, outcome: 'failed', reason }));
    const wanted = reviews.map(reviewEntry);
    const number = gidNumber(productId);
    const foreign = (why: string) =>
      failAll(
        `The product's metafield ${REVIEWS_NAMESPACE}.${REVIEWS_KEY} holds data Replatform did not write (${why}): it was left as it is, and the review was not added to it.`,
      );
    let state = (await client.request(productReviewsState, { id: productId })).product;
    if (!state) return failAll(`Its product (${productId}) is no longer at the destination.`);
    const first = parseReviewList(state.reviews);
    if ('foreign' in first) return foreign(first.foreign);
    const before = first.entries;
    for (let round = 1; ; round++) {
      const current = parseReviewList(state.reviews);
      if ('foreign' in current) return foreign(current.foreign);
      const merged = mergeReviews(current.entries, wanted, before);
      const shown = shownRating(state.rating, state.ratingCount);
      // Stars are the list's while they are none or what its approved reviews make.
      const ownStars = shown === null || sameRating(shown, ratingOf(current.entries));
      const stars = ratingOf(merged.entries);
      const starsChange = ownStars && !sameRating(shown, stars);
      const warnings =
        !ownStars && merged.changed
          ? [
              `The product's star rating (metafields ${RATING_NAMESPACE}.${RATING_KEY} and ${RATING_NAMESPACE}.${RATING_COUNT_KEY}) is kept by another app: it was left as it is and does not count this review.`,
            ]
          : [];
      if (!merged.changed && !starsChange)
        return this.#reviewOutcomes(reviews, merged.results, number, warnings);
      if (starsChange && !stars) {
        // None approved: the stars go, before the list, so that stars left by a write that
        // stopped between the two are none, which the list's next write sets again.
        const answer = (
          await client.request(productRatingDelete, {
            metafields: [RATING_KEY, RATING_COUNT_KEY].map((key) => ({
              ownerId: productId,
              namespace: RATING_NAMESPACE,
              key,
            })),
          })
        ).metafieldsDelete;
        if (answer?.userErrors.length)
          warnings.push(
            `The product's star rating could not be removed: ${messages(answer.userErrors)}`,
          );
      }
      const metafields: Record<string, unknown>[] = [];
      if (merged.changed || state.reviews)
        metafields.push({
          ownerId: productId,
          namespace: REVIEWS_NAMESPACE,
          key: REVIEWS_KEY,
          type: 'json',
          value: serializeReviewList(merged.entries),
          compareDigest: state.reviews?.compareDigest ?? null,
        });
      if (starsChange && stars)
        metafields.push(
          {
            ownerId: productId,
            namespace: RATING_NAMESPACE,
            key: RATING_KEY,
            type: 'rating',
            value: ratingValue(stars),
          },
          {
            ownerId: productId,
            namespace: RATING_NAMESPACE,
            key: RATING_COUNT_KEY,
            type: 'number_integer',
            value: String(stars.count),
          },
        );
      if (metafields.length === 0)
        return this.#reviewOutcomes(reviews, merged.results, number, warnings);
      // Repeating it is safe: the digest makes a repeat of a set that reached Shopify stale.
      const answer = (await client.request(productReviewsSet, { metafields })).metafieldsSet;
      const errors = answer?.userErrors ?? [];
      const stale = errors.some(
        (e) => e.code === 'STALE_OBJECT' || e.code === 'INVALID_COMPARE_DIGEST',
      );
      if (stale) {
        if (round >= 5)
          throw new ConnectorError(
            'transient',
            'reviews_contended',
            `The reviews of product ${productId} kept changing while they were written.`,
          );
        state = (await client.request(productReviewsState, { id: productId })).product;
        if (!state) return failAll(`Its product (${productId}) is no longer at the destination.`);
        continue;
      }
      if (errors.length) {
        const reason = `Shopify refused the product's reviews list: ${messages(errors)}`;
        return this.#reviewOutcomes(reviews, merged.results, number, warnings, reason);
      }
      return this.#reviewOutcomes(reviews, merged.results, number, warnings);
    }
  }

  /** Outcomes of a product's reviews from what the merge did; `refused`: the set was refused. */
  #reviewOutcomes(
    reviews: Review[],
    results: Map<string, EntryResult>,
    productNumber: string,
    warnings: string[],
    refused?: string,
  ): WriteOutcome[] {
    return reviews.map((r): WriteOutcome => {
      const result = results.get(r.id);
      if (!result) return { sourceId: r.id, outcome: 'failed', reason: 'Not written.' };
      if (result.kind === 'too large')
        return {
          sourceId: r.id,
          outcome: 'failed',
          reason: `A product's reviews are kept in one Shopify metafield (${REVIEWS_NAMESPACE}.${REVIEWS_KEY}), which holds at most ${REVIEWS_MAX_BYTES.toLocaleString('en')} bytes; with this review the product's list would hold ${result.bytes.toLocaleString('en')}, so the review was not written.`,
        };
      const destinationId = `${productNumber}:${result.key}`;
      if (result.kind === 'linked')
        return {
          sourceId: r.id,
          outcome: 'skipped',
          destinationId,
          reason:
            'The product already has this review (same reviewer, date and text) in its reviews list, not written by this migration: it was linked and left as it is.',
          linked: true,
        };
      if (refused && result.write) return { sourceId: r.id, outcome: 'failed', reason: refused };
      if (result.kind === 'skipped')
        return {
          sourceId: r.id,
          outcome: 'skipped',
          destinationId,
          reason: 'Already at the destination (found by its migration marker).',
        };
      return {
        sourceId: r.id,
        outcome: result.kind,
        destinationId,
        ...(warnings.length ? { warnings } : {}),
      };
    });
  }

  // ---------------------------------------------------------------- customers

  async #findCustomer(c: Customer): Promise<string | undefined> {
    const { client } = this.#ctx;
    if ((await this.markers()).CUSTOMER)
      return (await client.request(customerByIdentifier, { identifier: marker(c.id) }))
        .customerByIdentifier?.id;
    const found = (
      await client.request(customerByIdentifier, { identifier: { emailAddress: c.email } })
    ).customerByIdentifier;
    return found?.marker?.value === c.id ? found.id : undefined;
  }

  async #writeCustomer(c: Customer, idMap: IdMap): Promise<WriteOutcome> {
    const { client } = this.#ctx;
    const known = idMap.get('customers', c.id);
    const built = customerInput(c, { withPhone: true });
    if ('failure' in built) return { sourceId: c.id, outcome: 'failed', reason: built.failure };
    const warnings = [...built.warnings];
    if (known)
      return {
        sourceId: c.id,
        outcome: 'skipped',
        destinationId: known,
        reason: 'Already migrated.',
        warnings,
      };
    let addressIds: string[] = [];
    let sameEmail: string | undefined;
    const result = await this.#createOnce(
      () => this.#findCustomer(c),
      async () => {
        let input = built.input;
        for (;;) {
          const answer = (await client.request(customerCreate, { input }, { idempotent: false }))
            .customerCreate;
          if (answer?.customer) {
            addressIds = answer.customer.addressesV2.nodes.map((a) => a.id);
            return { kind: 'created', id: answer.customer.id };
          }
          const errors = answer?.userErrors ?? [];
          if (isMarkerClash(errors)) {
            const id = await this.#findCustomer(c);
            if (id) return { kind: 'created', id };
          }
          if (errors.some((e) => e.field?.includes('email') && /taken/i.test(e.message))) {
            const existing = (
              await client.request(customerByIdentifier, { identifier: { emailAddress: c.email } })
            ).customerByIdentifier;
            if (existing?.marker?.value === c.id) return { kind: 'created', id: existing.id };
            if (existing) {
              sameEmail = existing.id;
              return { kind: 'found', id: existing.id };
            }
          }
          // Shopify validates and deduplicates phone numbers; keep the customer without it.
          if (
            'phone' in input &&
            errors.length > 0 &&
            errors.every((e) => e.field?.includes('phone'))
          ) {
            warnings.push(
              `The phone number '${c.phone}' was refused by Shopify (${messages(errors)}); the customer was created without it.`,
            );
            const { phone: _phone, smsMarketingConsent: _sms, ...rest } = input;
            input = rest;
            continue;
          }
          return { kind: 'failed', reason: `Shopify refused the customer: ${messages(errors)}` };
        }
      },
    );
    if (result.kind === 'failed')
      return { sourceId: c.id, outcome: 'failed', reason: result.reason, warnings };
    if (result.kind === 'found')
      return {
        sourceId: c.id,
        outcome: 'skipped',
        destinationId: result.id,
        reason: sameEmail
          ? 'A customer with this e-mail address already exists at the destination; orders are linked to it.'
          : 'Already at the destination (found by its migration marker).',
        warnings,
        ...(sameEmail ? { linked: true } : {}),
      };
    const defaultIndex = defaultAddressIndex(c);
    const defaultId = addressIds[defaultIndex];
    if (defaultIndex > 0 && defaultId) {
      const answer = (
        await client.request(customerUpdateDefaultAddress, {
          customerId: result.id,
          addressId: defaultId,
        })
      ).customerUpdateDefaultAddress;
      if (answer?.userErrors.length)
        warnings.push(`The default address could not be set: ${messages(answer.userErrors)}`);
    }
    if (this.#choices.notifyCustomers) await this.#invite(result.id, warnings);
    return { sourceId: c.id, outcome: 'created', destinationId: result.id, warnings };
  }

  /**
   * Shopify's account invitation to a customer just created (the owner chose e-mails). It works
   * only with legacy customer accounts; a refusal is a warning, the customer stays written.
   */
  async #invite(customerId: string, warnings: string[]): Promise<void> {
    let answer;
    try {
      answer = (
        await this.#ctx.client.request(customerInvite, { customerId }, { idempotent: false })
      ).customerSendAccountInviteEmail;
    } catch (error) {
      if (!isTransient(error) && !isMissingScope(error)) throw error;
      warnings.push(
        'Shopify’s account invitation could not be asked for (the request did not go through); the customer was written without it.',
      );
      return;
    }
    if (answer?.userErrors.length)
      warnings.push(
        `Shopify did not send the customer its account invitation: ${messages(answer.userErrors)}`,
      );
  }

  // ---------------------------------------------------------------- orders

  async #findOrder(o: Order): Promise<ShopifyOrderState | undefined> {
    const { client } = this.#ctx;
    if ((await this.markers()).ORDER)
      return (
        (await client.request(orderByIdentifier, { identifier: marker(o.id) })).orderByIdentifier ??
        undefined
      );
    // Without a unique marker, by its name; numbered by Shopify, by the instant it was placed.
    const query = this.#choices.keepOrderNumbers
      ? `name:"${`#${o.number}`.replace(/["\\]/g, '\\$&')}"`
      : placedWithin(o.createdAt);
    const found = await client.request(ordersByName, { query });
    return found.orders.nodes.find((n) => n.marker?.value === o.id);
  }

  /**
   * A variant of the destination product for an order line, with its chosen options: by SKU, else
   * the only variant.
   */
  #variantFor(productId: string, sku: string): Promise<DestinationVariant | undefined> {
    const key = `${productId}|${sku}`;
    let found = this.#variants.get(key);
    if (!found) {
      const { client } = this.#ctx;
      found = (async () => {
        if (sku) {
          const query = `product_id:${gidNumber(productId)} sku:"${sku.replace(/["\\]/g, '\\$&')}"`;
          const { productVariants } = await client.request(variantsBySku, { query });
          const exact = productVariants.nodes.find(
            (v) => v.sku === sku && v.product.id === productId,
          );
          if (exact) return { id: exact.id, selectedOptions: exact.selectedOptions };
        }
        const { product } = await client.request(productFirstVariants, { id: productId });
        return product?.variants.nodes.length === 1 ? product.variants.nodes[0] : undefined;
      })();
      found.catch(() => this.#variants.delete(key));
      this.#variants.set(key, found);
    }
    return found;
  }

  /**
   * Trial and development stores accept 5 orders per minute: wait for a free slot instead of being
   * refused.
   */
  async #paceOrders(): Promise<void> {
    if (!this.#limitedStore && !(await this.#ctx.developmentStore())) return;
    const window = 60_000;
    for (;;) {
      const now = this.#ctx.now();
      while (this.#orderTimes.length && (this.#orderTimes[0] ?? 0) <= now - window)
        this.#orderTimes.shift();
      if (this.#orderTimes.length < DEV_STORE_ORDERS_PER_MINUTE) break;
      await this.#ctx.sleep((this.#orderTimes[0] ?? now) + window - now + 50);
    }
    this.#orderTimes.push(this.#ctx.now());
  }

  /**
   * Makes the refunds of the order that the destination does not have yet, in the order they were
   * made (the destination's first refunds are the source's first ones). Each carries an idempotency
   * key, so a refund whose answer was lost is not made twice.
   */
  async #refunds(o: Order, orderId: string): Promise<{ changed: boolean; warnings: string[] }> {
    const warnings: string[] = [];
    if (o.refunds.length === 0) return { changed: false, warnings };
    const { client } = this.#ctx;
    const target = (await client.request(orderRefundTargets, { id: orderId })).order;
    if (!target) return { changed: false, warnings };
    const payment = target.transactions.find(
      (t) => t.status === 'SUCCESS' && (t.kind === 'SALE' || t.kind === 'CAPTURE'),
    );
    let changed = false;
    for (const refund of o.refunds.slice(target.refunds.length)) {
      const built = refundInput(o, refund, {
        orderId,
        lineIds: target.lineItems.nodes.map((l) => l.id),
        ...(payment ? { payment: { id: payment.id, gateway: payment.gateway ?? 'manual' } } : {}),
      });
      if ('failure' in built) {
        warnings.push(built.failure);
        continue;
      }
      warnings.push(...built.warnings);
      const answer = (
        await client.request(refundCreate, {
          input: built.input,
          key: refundKey(o.id, refund.id),
        })
      ).refundCreate;
      if (answer?.refund) changed = true;
      else
        warnings.push(
          `Refund ${refund.id} could not be made: ${messages(answer?.userErrors ?? [])}`,
        );
    }
    return { changed, warnings };
  }

  /** Applies what orderCreate cannot set: refunds, cancellation and the on-hold state. */
  async #followUps(
    o: Order,
    state: ShopifyOrderState,
  ): Promise<{ changed: boolean; warnings: string[] }> {
    const { client } = this.#ctx;
    const refunds = await this.#refunds(o, state.id);
    const warnings: string[] = [...refunds.warnings];
    let changed = refunds.changed;
    if (o.status === 'cancelled' && !state.cancelledAt) {
      const answer = (
        await client.request(orderCancel, {
          orderId: state.id,
          reason: cancelReasonOf(o),
          staffNote: 'Cancelled at the source store (imported by Replatform).',
          notifyCustomer: this.#choices.notifyCustomers,
        })
      ).orderCancel;
      const errors = answer?.orderCancelUserErrors ?? [];
      if (errors.length && !errors.some((e) => /already been cancel/i.test(e.message)))
        warnings.push(`The order could not be marked cancelled: ${messages(errors)}`);
      else changed = true;
      let job = answer?.job;
      for (let i = 0; job && !job.done && i < 20; i++) {
        await this.#ctx.sleep(250);
        job = (await client.request(jobStatus, { id: job.id })).job ?? undefined;
      }
    }
    if (o.status === 'on-hold' && state.displayFulfillmentStatus !== 'ON_HOLD') {
      for (const fo of state.fulfillmentOrders.nodes) {
        if (fo.status !== 'OPEN' && fo.status !== 'SCHEDULED') continue;
        const answer = (
          await client
            .request(fulfillmentOrderHold, {
              id: fo.id,
              hold: {
                reason: 'OTHER',
                reasonNotes: 'On hold at the source store (imported by Replatform).',
                notifyMerchant: false,
              },
            })
            .catch((error: unknown) => {
              if (!isMissingScope(error)) throw error;
              warnings.push(
                'The order was not put on hold: the app lacks the write_merchant_managed_fulfillment_orders scope.',
              );
              return { fulfillmentOrderHold: undefined };
            })
        ).fulfillmentOrderHold;
        if (answer === undefined) break;
        if (answer?.userErrors.length)
          warnings.push(`The order could not be put on hold: ${messages(answer.userErrors)}`);
        else changed = true;
      }
    }
    return { changed, warnings };
  }

  async #writeOrder(o: Order, idMap: IdMap): Promise<WriteOutcome> {
    const { client } = this.#ctx;
    const known = idMap.get('orders', o.id);
    if (known)
      return {
        sourceId: o.id,
        outcome: 'skipped',
        destinationId: known,
        reason: 'Already migrated.',
      };
    // Built only when the order is not at the destination yet, so a re-run spends no variant lookups.
    let warnings: string[] = [];
    const build = async () => {
      const links: LineLink[] = [];
      for (const line of o.lines) {
        const productId = line.productId ? idMap.get('products', line.productId) : undefined;
        const variant = productId ? await this.#variantFor(productId, line.sku) : undefined;
        links.push({
          ...(productId ? { productId } : {}),
          ...(variant ? { variantId: variant.id, variantOptions: variant.selectedOptions } : {}),
        });
      }
      const built = orderCreateInput(o, {
        customerId: o.customerId ? idMap.get('customers', o.customerId) : undefined,
        line: (i) => links[i] ?? {},
        keepNumber: this.#choices.keepOrderNumbers,
        ...metafieldContext(idMap),
      });
      if (!('failure' in built)) warnings = built.warnings;
      return built;
    };
    let state: ShopifyOrderState | undefined;
    const result = await this.#createOnce(
      async () => {
        state = await this.#findOrder(o);
        return state?.id;
      },
      async () => {
        const built = await build();
        if ('failure' in built) return { kind: 'failed', reason: built.failure };
        let answer;
        for (let refusals = 0; ; refusals++) {
          await this.#paceOrders();
          answer = (
            await client.request(
              orderCreate,
              {
                order: built.input,
                // Imported orders never move stock, and e-mail the customer only when the owner
                // chose so (Shopify sends the fulfillment receipt for fulfilled orders only).
                options: {
                  sendReceipt: this.#choices.notifyCustomers,
                  sendFulfillmentReceipt: this.#choices.notifyCustomers,
                  inventoryBehaviour: 'BYPASS',
                },
              },
              { idempotent: false },
            )
          ).orderCreate;
          // A store on a trial plan the shop details did not reveal still says so: wait the
          // minute out instead of failing the order.
          const limited = answer?.userErrors.some((e) => ORDER_LIMIT.test(e.message));
          if (!limited || refusals >= 5) break;
          this.#limitedStore = true;
          await this.#ctx.sleep(60_000);
        }
        if (answer?.order) {
          state = answer.order;
          return { kind: 'created', id: answer.order.id };
        }
        const errors = answer?.userErrors ?? [];
        if (isMarkerClash(errors)) {
          state = await this.#findOrder(o);
          if (state) return { kind: 'created', id: state.id };
        }
        return { kind: 'failed', reason: `Shopify refused the order: ${messages(errors)}` };
      },
    );
    if (result.kind === 'failed')
      return {
        sourceId: o.id,
        outcome: 'failed',
        reason: result.reason,
        ...(warnings.length ? { warnings } : {}),
      };
    const current = state ?? (await this.#findOrder(o));
    const follow = current ? await this.#followUps(o, current) : { changed: false, warnings: [] };
    warnings = [...warnings, ...follow.warnings];
    if (result.kind === 'found')
      return {
        sourceId: o.id,
        outcome: follow.changed ? 'updated' : 'skipped',
        destinationId: result.id,
        reason: 'Already at the destination (found by its migration marker).',
        ...(warnings.length ? { warnings } : {}),
      };
    return {
      sourceId: o.id,
      outcome: 'created',
      destinationId: result.id,
      ...(warnings.length ? { warnings } : {}),
    };
  }
}
