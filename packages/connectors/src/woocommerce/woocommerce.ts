import type { EntityRecord, EntityType } from '@replatform/canonical/entities';
import type { Brand } from '@replatform/canonical/brand';
import type { Category } from '@replatform/canonical/category';
import type { Coupon } from '@replatform/canonical/coupon';
import type { Customer } from '@replatform/canonical/customer';
import type { Order } from '@replatform/canonical/order';
import type { Product } from '@replatform/canonical/product';
import type { Review } from '@replatform/canonical/review';
import type { Page as ContentPage, Post } from '@replatform/canonical/content';
import {
  defaultWriteChoices,
  defineConnector,
  type Checkpoint,
  type CheckOptions,
  type CheckResult,
  type Connection,
  type ConnectorContext,
  type IdMap,
  type ImportOptions,
  type Page,
  type AssetRecord,
  type RemoveOutcome,
  type StoreValues,
  type TransportStats,
  type WriteChoices,
  type WriteOutcome,
} from '../kit/contract.ts';
import { ConnectorError } from '../kit/errors.ts';
import { shrunkBatches } from './batch.ts';
import { missingWordPressPassword, WooClient, type ClientOptions } from './client.ts';
import { wooCommerceCredentialsSchema, type WooCommerceCredentials } from './credentials.ts';
import { EmailSwitch, type EmailSwitchOptions } from './emails.ts';
import { ImageStore } from './images.ts';
import { ImportState } from './import-state.ts';
import { destinationFields, nativeFields } from './native-fields.ts';
import { countReviews, readEntity, readIds, readMerchantCoupons } from './read.ts';
import type { ReadContext } from './to-canonical.ts';
import { loadStoreInfo, type StoreInfo } from './store-info.ts';
import { loadStoreValues, taxClasses } from './store-values.ts';
import {
  taxClassResolver,
  withStoreTaxClasses,
  withTaxClassNotes,
  type TaxClassResolver,
} from './tax-classes.ts';
import { anyJson, wcIdSchema, wcSystemStatusSchema, wpRootSchema } from './wc-schemas.ts';
import { z } from 'zod';

const wpUserMeSchema = z.looseObject({
  id: z.number(),
  name: z.string(),
  roles: z.array(z.string()).optional(),
});
import { BrandWriter } from './write-brands.ts';
import { ContentAccess, type ContentEntity } from './content.ts';
import { CategoryWriter } from './write-categories.ts';
import { CouponWriter } from './write-coupons.ts';
import { CustomerWriter } from './write-customers.ts';
import { OrderWriter } from './write-orders.ts';
import { ProductWriter } from './write-products.ts';
import { ReviewWriter } from './write-reviews.ts';
import { Remover } from './remove.ts';

/**
 * WooCommerce through its REST API wc/v3 (described by
 * platform-specs/woocommerce/wc-v3-index.woocommerce-11.0.1.json). See client.ts for
 * authentication and retries, read.ts for reading, write-*.ts for writing and finding what an
 * interrupted run already wrote, to-canonical.ts for the order status mapping, native-fields.ts
 * for what becomes of each of WooCommerce's own fields.
 */

/** The batch routes an import writes through; an empty batch proves write access to each. */
const writeRoutes: Record<string, string> = {
  '/products/categories/batch': 'product categories',
  '/products/brands/batch': 'product brands',
  '/products/batch': 'products',
  '/coupons/batch': 'coupons',
  '/customers/batch': 'customers',
  '/orders/batch': 'orders',
  '/products/reviews/batch': 'product reviews',
};

export interface ConnectionOptions extends ClientOptions {
  emailSwitch?: EmailSwitchOptions;
}

const isContent = (entity: EntityType): entity is ContentEntity =>
  entity === 'pages' || entity === 'posts';

/** The records whose source slug the owner may choose not to keep (`keepSlugs`). */
const slugged: ReadonlySet<EntityType> = new Set([
  'categories',
  'brands',
  'products',
  'pages',
  'posts',
]);

/**
 * The records as they are written when the owner chose not to keep the source's slugs: without
 * one, so that WooCommerce and WordPress make each from the record's name or title. The writers
 * then find what an earlier run wrote by the id map, SKU, marker and name, never by slug.
 */
function withoutSlugs<T>(entity: EntityType, records: T[], keepSlugs: boolean): T[] {
  if (keepSlugs || !slugged.has(entity)) return records;
  return records.map((r) => ({ ...r, slug: '' }));
}

const countPaths: Record<Exclude<EntityType, 'coupons' | 'reviews' | ContentEntity>, string> = {
  categories: '/products/categories',
  brands: '/products/brands',
  products: '/products',
  customers: '/customers',
  orders: '/orders',
};

export class WooCommerceConnection implements Connection {
  readonly client: WooClient;
  private info: Promise<StoreInfo> | undefined;
  #taxClasses: Promise<TaxClassResolver> | undefined;
  private readonly categories: CategoryWriter;
  private readonly brands: BrandWriter;
  readonly products: ProductWriter;
  private readonly coupons: CouponWriter;
  private readonly customers: CustomerWriter;
  private readonly orders: OrderWriter;
  private readonly reviews: ReviewWriter;
  /** Pages and blog posts: WordPress's, through wp/v2 with the application password. */
  readonly content: ContentAccess;
  private readonly emails: EmailSwitch;
  private readonly state = new ImportState();
  /** How the owner chose to have records written, read once from the context. */
  readonly choices: WriteChoices;

  constructor(
    credentials: WooCommerceCredentials,
    context: ConnectorContext,
    options: ConnectionOptions = {},
  ) {
    const { emailSwitch, ...client } = options;
    this.choices = { ...defaultWriteChoices, ...context.choices };
    this.client = new WooClient(credentials, context, client);
    const storeInfo = () => this.storeInfo();
    const images = new ImageStore();
    this.categories = new CategoryWriter(this.client, storeInfo, images);
    this.products = new ProductWriter(this.client, storeInfo, images, this.state);
    // The product writer finds a product's brand by name in a list the brand writer refreshes.
    this.brands = new BrandWriter(this.client, images, this.state, this.products.brands);
    this.brands.slugsKept = this.choices.keepSlugs;
    this.coupons = new CouponWriter(this.client, storeInfo, this.state);
    this.customers = new CustomerWriter(this.client, this.state);
    this.orders = new OrderWriter(this.client, this.state);
    this.reviews = new ReviewWriter(this.client, this.state);
    this.content = new ContentAccess(this.client);
    this.content.slugsKept = this.choices.keepSlugs;
    this.emails = new EmailSwitch(this.client, emailSwitch);
  }

  /** The store's tax classes, read once per connection when products or orders are written. */
  taxClassResolver(): Promise<TaxClassResolver> {
    this.#taxClasses ??= taxClasses(this.client)
      .then(taxClassResolver)
      .catch((error: unknown) => {
        this.#taxClasses = undefined;
        throw error;
      });
    return this.#taxClasses;
  }

  storeInfo(): Promise<StoreInfo> {
    this.info ??= loadStoreInfo(this.client).catch((error: unknown) => {
      this.info = undefined;
      throw error;
    });
    return this.info;
  }

  /** The store's roles and tax classes (store-values.ts), read afresh on every call. */
  storeValues(): Promise<StoreValues> {
    return loadStoreValues(this.client);
  }

  async check(options: CheckOptions = {}): Promise<CheckResult> {
    const result = await this.checkRead();
    if (this.client.hasWordPressPassword) await this.checkWordPress();
    if (!options.write) return result;
    await this.checkWrite();
    return { ...result, canWrite: true };
  }

  /**
   * Proves write access the way a write would meet it. WooCommerce checks a key's own permission
   * (read, write, read/write) for every changing request before any route runs, and each batch
   * route checks that the key's user may change that kind of record; an empty batch passes both
   * checks and changes nothing. wc/v3 has no route that tells a key's permissions otherwise.
   */
  private async checkWrite(): Promise<void> {
    for (const [route, what] of Object.entries(writeRoutes)) {
      try {
        await this.client.request('POST', route, { body: {}, retryable: true, schema: anyJson });
      } catch (error) {
        if (
          error instanceof ConnectorError &&
          error.status === 401 &&
          /write permission/i.test(error.message)
        )
          throw new ConnectorError(
            'config',
            'read_only_credentials',
            'This WooCommerce API key may only read. A destination store needs a key with Read/Write permissions: edit the key (or make a new one) under WooCommerce > Settings > Advanced > REST API.',
            { status: 401, cause: error },
          );
        if (error instanceof ConnectorError && (error.status === 401 || error.status === 403))
          throw new ConnectorError(
            'config',
            'insufficient_permissions',
            `The user this API key belongs to may not change ${what} in this store. Make the key for an administrator or shop manager under WooCommerce > Settings > Advanced > REST API.`,
            { status: error.status, cause: error },
          );
        throw error;
      }
    }
  }

  /**
   * The WordPress user and application password given for pages and posts: the user must exist,
   * the password must be one of its application passwords, and the user must be able to edit
   * pages and posts (an administrator's or editor's account).
   */
  private async checkWordPress(): Promise<void> {
    let user;
    try {
      user = (await this.client.get('/wp-json/wp/v2/users/me', { context: 'edit' }, wpUserMeSchema))
        .data;
    } catch (error) {
      if (error instanceof ConnectorError && error.code === 'not_woocommerce')
        throw new ConnectorError(
          'config',
          'wordpress_api_missing',
          "The store's WordPress REST API (wp/v2) is not reachable: pages and posts cannot be moved. Check that no plugin or host blocks /wp-json/wp/v2.",
          { cause: error },
        );
      throw error;
    }
    const roles = user.roles ?? [];
    if (!roles.some((r) => r === 'administrator' || r === 'editor'))
      throw new ConnectorError(
        'config',
        'insufficient_permissions',
        `The WordPress user '${user.name}' may not edit every page and post: make the application password for an administrator or editor.`,
      );
  }

  private async checkRead(): Promise<CheckResult> {
    let status;
    try {
      status = (await this.client.get('/system_status', {}, wcSystemStatusSchema)).data;
    } catch (error) {
      if (error instanceof ConnectorError && error.code === 'unexpected_response')
        throw new ConnectorError(
          'config',
          'not_woocommerce',
          'The address does not answer like a WooCommerce store.',
        );
      if (
        error instanceof ConnectorError &&
        (error.code === 'not_found' || error.code === 'truncated_response')
      )
        throw new ConnectorError(
          'config',
          'not_woocommerce',
          'No WooCommerce REST API was found at this address. Check the address and that pretty permalinks are on.',
        );
      throw error;
    }
    // The site title comes from the WordPress index; the host name stands in when it is hidden.
    let storeName = new URL(status.environment.home_url || this.client.apiBase).hostname;
    try {
      const root = await this.client.get('/wp-json/', {}, wpRootSchema);
      if (root.data.name.trim()) storeName = root.data.name.trim();
    } catch {
      // Some hosts block the root index; the store itself answered, which is what matters.
    }
    const currency = status.settings.currency.toUpperCase();
    return { ok: true, storeName, ...(/^[A-Z]{3}$/.test(currency) ? { currency } : {}) };
  }

  async count(entity: EntityType): Promise<number> {
    if (isContent(entity)) return this.content.count(entity);
    // The store's coupons include the importer's own records, which are not migrated.
    if (entity === 'coupons') return (await readMerchantCoupons(this.client)).length;
    // Approved and held, spam, and the bin: no one list holds them all.
    if (entity === 'reviews') return countReviews(this.client);
    const { total } = await this.client.page(countPaths[entity], { per_page: 1, page: 1 }, anyJson);
    if (entity !== 'categories') return total;
    // "Uncategorized" is WooCommerce's own placeholder and is not migrated.
    const info = await this.storeInfo();
    return info.defaultCategoryId === null ? total : total - 1;
  }

  async *read<E extends EntityType>(
    entity: E,
    checkpoint: Checkpoint | null,
  ): AsyncIterable<Page<E>> {
    if (isContent(entity)) {
      yield* this.content.read(entity, checkpoint) as AsyncIterable<Page<E>>;
      return;
    }
    yield* readEntity(this.client, await this.storeInfo(), entity, checkpoint);
  }

  async readByIds<E extends EntityType>(
    entity: E,
    ids: readonly string[],
  ): Promise<EntityRecord[E][]> {
    if (isContent(entity)) return (await this.content.readByIds(entity, ids)) as EntityRecord[E][];
    const info = await this.storeInfo();
    this.#byIdContext ??= {
      currency: info.currency,
      units: info.units,
      defaultCategoryId: info.defaultCategoryId,
    };
    return readIds(this.client, info, entity, ids, this.#byIdContext);
  }

  /** The tags and attributes reads by id share until the next write changes them. */
  #byIdContext: ReadContext | undefined;

  async write<E extends EntityType>(
    entity: E,
    records: EntityRecord[E][],
    idMap: IdMap,
  ): Promise<WriteOutcome[]> {
    if (records.length === 0) return [];
    records = withoutSlugs(entity, records, this.choices.keepSlugs);
    if (isContent(entity))
      return this.content.write(entity, records as (ContentPage | Post)[], idMap);
    this.#byIdContext = undefined;
    await this.emails.beat();
    let taxNotes = new Map<string, string[]>();
    if (entity === 'products' || entity === 'orders')
      ({ records, notes: taxNotes } = withStoreTaxClasses(
        entity,
        records,
        await this.taxClassResolver(),
      ));
    const sent =
      entity === 'categories'
        ? undefined
        : this.state.unanswered[entity as Exclude<E, 'categories' | ContentEntity>];
    try {
      const outcomes =
        entity === 'categories'
          ? await this.categories.write(records as Category[], idMap)
          : entity === 'brands'
            ? await this.brands.write(records as Brand[], idMap)
            : entity === 'products'
              ? await this.products.write(records as Product[], idMap)
              : entity === 'coupons'
                ? await this.coupons.write(records as Coupon[], idMap)
                : entity === 'customers'
                  ? await this.customers.write(records as Customer[], idMap)
                  : entity === 'reviews'
                    ? await this.reviews.write(records as Review[], idMap)
                    : await this.orders.write(records as Order[], idMap);
      const noted = withTaxClassNotes(outcomes, taxNotes);
      if (!sent?.size) return noted;
      // A record whose create this connection sent unanswered and then completed was created
      // by this run, whatever it took to complete it.
      return noted.map((o) => {
        if (!sent.has(o.sourceId) || o.outcome === 'failed') return o;
        sent.delete(o.sourceId);
        return o.outcome === 'updated' ? { ...o, outcome: 'created' } : o;
      });
    } catch (error) {
      // The store may have carried out part of what was sent (it went down mid-batch): when the
      // records are written again, what exists is looked for first, and what is found counts as
      // created by this run.
      if (!(error instanceof ConnectorError) || error.errorClass !== 'config') {
        this.state.lookFirst = true;
        for (const r of records) sent?.add(r.id);
      }
      throw error;
    }
  }

  /** Undo: deletes what a migration created, for good (remove.ts). */
  async remove(entity: EntityType, destinationIds: readonly string[]): Promise<RemoveOutcome[]> {
    if (destinationIds.length === 0) return [];
    if (isContent(entity) && !this.client.hasWordPressPassword) throw missingWordPressPassword();
    const outcomes = await new Remover(this.client).remove(entity, destinationIds);
    // What the writers remember of the store (lists of terms, brands) is stale now.
    this.#byIdContext = undefined;
    if (entity === 'brands') this.products.brands.forget();
    return outcomes;
  }

  async removeAssets(assets: readonly AssetRecord[]): Promise<RemoveOutcome[]> {
    if (assets.length === 0) return [];
    const outcomes = await new Remover(this.client).removeAssets(assets);
    this.#byIdContext = undefined;
    // The terms the writers listed may be gone now.
    this.products.tags.forget();
    this.products.brands.forget();
    this.products.attributes.forget();
    this.products.shippingClasses.forget();
    this.content.forgetTerms();
    return outcomes;
  }

  transportStats(): TransportStats {
    const shrunk = shrunkBatches(this.client);
    return {
      ...this.client.transportStats(),
      ...(Object.keys(shrunk).length ? { batchSizes: shrunk } : {}),
    };
  }

  async prepareImport(options?: ImportOptions): Promise<string[]> {
    // WooCommerce's e-mails are switched off for the import, unless the owner chose to have the
    // store send them.
    const lines = this.choices.notifyCustomers
      ? await this.emails.leaveOn(options)
      : await this.emails.switchOff(options);
    // The newest product and account before anything is written (one id each).
    const newest = async (path: string, extra: Record<string, string> = {}) => {
      const { items } = await this.client.page(
        path,
        { orderby: 'id', order: 'desc', per_page: 1, _fields: 'id', ...extra },
        wcIdSchema,
      );
      return items[0]?.id ?? 0;
    };
    [this.state.lastIdBefore.products, this.state.lastIdBefore.customers] = await Promise.all([
      newest('/products'),
      newest('/customers', { role: 'all' }),
    ]);
    // The store's own record of an import of this migration that never finished says the run
    // resumes, whatever the caller believes.
    this.state.lookFirst = options?.resumed !== false || this.emails.interrupted;
    return lines;
  }

  async finishImport(options?: ImportOptions): Promise<string[]> {
    // E-mails first: a store that fails the coupons' read still gets its e-mails back.
    const restored = this.choices.notifyCustomers ? [] : await this.emails.restore(options);
    return [...(await this.coupons.publishSetAside()), ...restored];
  }
}

export const wooCommerceConnector = defineConnector<WooCommerceCredentials>({
  platform: 'woocommerce',
  label: 'WooCommerce',
  credentialsSchema: wooCommerceCredentialsSchema,
  capabilities: {
    read: [
      'categories',
      'brands',
      'products',
      'coupons',
      'customers',
      'orders',
      'reviews',
      'pages',
      'posts',
    ],
    write: [
      'categories',
      'brands',
      'products',
      'coupons',
      'customers',
      'orders',
      'reviews',
      'pages',
      'posts',
    ],
    // The batch routes' maximum: a real store writes 100 simple products in about 3 s, 100
    // customers in 10 s, 100 orders in 9 s and 100 reviews in 1.5 s, alone, within the client's
    // 60 s deadline; a store that cannot gets smaller batches from then on (batch.ts).
    batchSize: {
      categories: 100,
      brands: 100,
      products: 100,
      coupons: 100,
      customers: 100,
      orders: 100,
      reviews: 100,
      // One request per page or post (wp/v2 has no batch route), with its image and terms.
      pages: 20,
      posts: 20,
    },
    pageSize: {
      categories: 100,
      brands: 100,
      products: 100,
      coupons: 100,
      customers: 100,
      orders: 100,
      reviews: 100,
      pages: 100,
      posts: 100,
    },
    rateLimit: {
      description: 'No limit in the WooCommerce REST API itself; some hosts add their own.',
    },
    nativeFields,
    destinationFields,
  },
  connect: (credentials, context) => new WooCommerceConnection(credentials, context),
});
