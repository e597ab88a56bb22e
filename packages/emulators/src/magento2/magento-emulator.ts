import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseAuthorizationHeader } from '@replatform/connectors/kit/oauth1/oauth1';
import {
  Router,
  startEmulator,
  type EmulatorOptions,
  type EmulatorRequest,
  type EmulatorResponse,
  type RouteHandler,
  type RunningEmulator,
} from '../framework/server.ts';
import {
  generateSampleStore,
  samplePng,
  type SampleStoreOptions,
} from '../framework/sample-store.ts';
import { CmsPages } from './cms-pages.ts';
import { countryJson } from './directory.ts';
import { MagentoError } from './magento-error.ts';
import { isObject, optionalInt, type Json } from './input.ts';
import { OAuthGuard, type IntegrationCredentials } from './oauth-guard.ts';
import {
  applySearchCriteria,
  parseSearchCriteria,
  searchCriteriaJson,
  type FieldAccessor,
} from './search-criteria.ts';
import { seedFromLuma } from './seed-luma.ts';
import { seedFromSample } from './seed-sample.ts';
import { applyInstallation, enrichSample, type Installation } from './seed-fidelity.ts';
import { MagentoStore, type StoreSettings } from './store.ts';
import { platformSpecsDir } from '../framework/platform-specs.ts';

/**
 * A stateful Magento 2.4 admin REST API (admin-schema-2.4.9.yaml) on 127.0.0.1: the store,
 * catalogue, CMS page, cart price rule and coupon, customer, order and bulk-status routes a migration uses,
 * under /rest/V1, /rest/<store_code>/V1, and the asynchronous /rest/<store_code>/async[/bulk]/V1
 * forms Magento derives from them. Requests are authenticated as an integration (OAuth 1.0a), as a real store
 * requires, and authorised by the ACL resource of their route, which the integration must have
 * been granted; media files are served under /media/catalog/product like Magento's pub/media.
 */

export interface MagentoEmulatorOptions extends Omit<EmulatorOptions, 'seed'> {
  /**
   * What the store holds: the sample store (options), Luma sample data, or an empty installation.
   * Default: the sample store at sandbox counts. (EmulatorOptions' fault-dice seed is `faultSeed`.)
   */
  seed?: SampleStoreOptions | 'luma' | 'empty';
  /** The integration's credentials; random ones are made when absent. */
  credentials?: IntegrationCredentials;
  /**
   * ACL resources granted to that integration (its API tab, Resource Access: Custom), or 'all'
   * (Resource Access: All, the default).
   */
  resources?: readonly string[] | 'all';
  /** More integrations of the same store, each with its own credentials and resources. */
  integrations?: { credentials: IntegrationCredentials; resources: readonly string[] | 'all' }[];
  /** Accept the access token as a bearer token (Magento: oauth/consumer/enable_integration_as_bearer). */
  allowBearer?: boolean;
  settings?: Partial<StoreSettings>;
  /** Magento's web API input limits (off by default): pageSize at most 300, 20 when absent. */
  inputLimits?: boolean;
  /** Background consumer of the bulk queue. */
  bulk?: { tickMs?: number; perTick?: number };
  /**
   * What the installation has beyond a fresh Magento (attributes modules added, downloadable
   * domains); a seeded sample store has `sampleInstallation` whatever this says.
   */
  installation?: Installation;
  /** Directory of the Luma sample CSVs (default: shared/platform-specs/samples/magento2). */
  lumaDirectory?: string;
  /** Seed of the fault dice (EmulatorOptions.seed). */
  faultSeed?: number;
  /** Server clock in Unix seconds, for OAuth timestamp checks. */
  clock?: () => number;
}

export interface MagentoEmulator extends RunningEmulator {
  store: MagentoStore;
  credentials: IntegrationCredentials;
  guard: OAuthGuard;
}

interface Context {
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
  storeCode: string;
  baseUrl: string;
}

interface Route {
  method: string;
  path: string;
  /** ACL resource checked for the integration, or 'anonymous'. */
  resource: string;
  /** Service contract the route calls; names the async topic. */
  service: string;
  handler: (ctx: Context) => unknown;
}

const defaultLumaDirectory = resolve(platformSpecsDir(), 'samples/magento2');

const unauthorized = (resource: string) =>
  new MagentoError(401, "The consumer isn't authorized to access %resources.", {
    resources: resource,
  });

const noRoute = () => new MagentoError(404, 'Request does not match any route.');

const contentTypes: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
};

function topicOf(route: Route): string {
  const [service = '', method = ''] = route.service.split('::');
  return `async.${service.replace(/\\/g, '.').toLowerCase()}.${method.toLowerCase()}.${route.method.toLowerCase()}`;
}

export async function startMagentoEmulator(
  options: MagentoEmulatorOptions = {},
): Promise<MagentoEmulator> {
  const store = new MagentoStore(options.settings, options.bulk);
  const seed = options.seed ?? {};
  if (seed === 'luma') {
    const directory = options.lumaDirectory ?? defaultLumaDirectory;
    if (!existsSync(directory)) throw new Error(`Luma sample data not found at ${directory}`);
    seedFromLuma(store, directory);
  } else if (seed !== 'empty') {
    const sample = generateSampleStore(seed);
    enrichSample(store, sample, seedFromSample(store, sample));
    if (seed.currency) store.settings.baseCurrency = seed.currency;
  }
  if (options.installation) applyInstallation(store, options.installation);
  const credentials: IntegrationCredentials = options.credentials ?? {
    consumerKey: randomBytes(16).toString('hex'),
    consumerSecret: randomBytes(16).toString('hex'),
    accessToken: randomBytes(16).toString('hex'),
    accessTokenSecret: randomBytes(16).toString('hex'),
  };
  const guardFor = (c: IntegrationCredentials) =>
    new OAuthGuard(c, {
      allowBearer: options.allowBearer ?? false,
      ...(options.clock ? { now: options.clock } : {}),
    });
  const guard = guardFor(credentials);
  const integrations = [
    { credentials, resources: options.resources ?? 'all', guard },
    ...(options.integrations ?? []).map((i) => ({ ...i, guard: guardFor(i.credentials) })),
  ];
  const limits = options.inputLimits ? { maxPageSize: 300, defaultPageSize: 20 } : {};
  const { catalog, customers, sales, bulk, tax, creditmemos, invoices, salesRules, cmsPages } =
    store;

  function list<T>(
    ctx: Context,
    items: readonly T[],
    field: FieldAccessor<T>,
    toJson: (item: T) => Json,
  ): Json {
    const criteria = parseSearchCriteria(ctx.query);
    const result = applySearchCriteria(items, criteria, field, limits);
    return {
      items: result.items.map(toJson),
      search_criteria: searchCriteriaJson(criteria),
      total_count: result.total,
    };
  }

  const body = (ctx: Context): Json => {
    if (!isObject(ctx.body)) {
      throw new MagentoError(400, 'Decoding error: %1', ['request body must be a JSON object']);
    }
    return ctx.body;
  };
  const intParam = (value: string | undefined, name: string): number => {
    const n = optionalInt(value);
    if (n === undefined)
      throw new MagentoError(400, 'Invalid value of "%value" provided for the %fieldName field.', {
        fieldName: name,
        value: String(value),
      });
    return n;
  };

  const settings = store.settings;
  const routes: Route[] = [
    // Store
    {
      method: 'GET',
      path: '/V1/store/storeConfigs',
      resource: 'Magento_Backend::store',
      service: 'Magento\\Store\\Api\\StoreConfigManagerInterface::getStoreConfigs',
      handler: (ctx) => {
        const codes = [...ctx.query.entries()]
          .filter(([k]) => k === 'storeCodes' || k.startsWith('storeCodes['))
          .map(([, v]) => v);
        if (codes.length && !codes.includes('default')) return [];
        const base = `${ctx.baseUrl}/`;
        return [
          {
            id: 1,
            code: 'default',
            website_id: 1,
            locale: settings.locale,
            base_currency_code: settings.baseCurrency,
            default_display_currency_code: settings.baseCurrency,
            timezone: settings.timezone,
            weight_unit: settings.weightUnit,
            base_url: base,
            base_link_url: base,
            base_static_url: `${base}static/`,
            base_media_url: `${base}media/`,
            secure_base_url: base,
            secure_base_link_url: base,
            secure_base_static_url: `${base}static/`,
            secure_base_media_url: `${base}media/`,
          },
        ];
      },
    },
    {
      method: 'GET',
      path: '/V1/store/storeViews',
      resource: 'Magento_Backend::store',
      service: 'Magento\\Store\\Api\\StoreRepositoryInterface::getList',
      handler: () => [
        { id: 0, code: 'admin', name: 'Admin', website_id: 0, store_group_id: 0, is_active: 1 },
        {
          id: 1,
          code: 'default',
          name: settings.storeViewName,
          website_id: 1,
          store_group_id: 1,
          is_active: 1,
        },
      ],
    },
    {
      method: 'GET',
      path: '/V1/store/websites',
      resource: 'Magento_Backend::store',
      service: 'Magento\\Store\\Api\\WebsiteRepositoryInterface::getList',
      handler: () => [
        { id: 0, code: 'admin', name: 'Admin', default_group_id: 0 },
        { id: 1, code: 'base', name: 'Main Website', default_group_id: 1 },
      ],
    },
    {
      method: 'GET',
      path: '/V1/store/storeGroups',
      resource: 'Magento_Backend::store',
      service: 'Magento\\Store\\Api\\GroupRepositoryInterface::getList',
      handler: () => [
        {
          id: 0,
          website_id: 0,
          root_category_id: 0,
          default_store_id: 0,
          name: 'Default',
          code: 'default',
        },
        {
          id: 1,
          website_id: 1,
          root_category_id: 2,
          default_store_id: 1,
          name: settings.storeName,
          code: 'main_website_store',
        },
      ],
    },
    // Directory
    {
      method: 'GET',
      path: '/V1/directory/countries/:countryId',
      resource: 'anonymous',
      service: 'Magento\\Directory\\Api\\CountryInformationAcquirerInterface::getCountryInfo',
      handler: (ctx) => {
        const country = countryJson((ctx.params.countryId ?? '').toUpperCase());
        if (!country) {
          throw new MagentoError(404, "The country isn't available.");
        }
        return country;
      },
    },
    // Categories
    {
      method: 'GET',
      path: '/V1/categories',
      resource: 'Magento_Catalog::categories',
      service: 'Magento\\Catalog\\Api\\CategoryManagementInterface::getTree',
      handler: (ctx) => {
        const root = optionalInt(ctx.query.get('rootCategoryId') ?? undefined) ?? 2;
        const depth = optionalInt(ctx.query.get('depth') ?? undefined);
        return catalog.categoryTree(root, depth);
      },
    },
    {
      method: 'GET',
      path: '/V1/categories/list',
      resource: 'Magento_Catalog::categories',
      service: 'Magento\\Catalog\\Api\\CategoryListInterface::getList',
      handler: (ctx) =>
        list(ctx, [...catalog.categories.values()], catalog.categoryField, (c) =>
          catalog.categoryJson(c),
        ),
    },
    {
      method: 'POST',
      path: '/V1/categories',
      resource: 'Magento_Catalog::categories',
      service: 'Magento\\Catalog\\Api\\CategoryRepositoryInterface::save',
      handler: (ctx) => catalog.categoryJson(catalog.saveCategory(body(ctx))),
    },
    {
      method: 'GET',
      path: '/V1/categories/:categoryId',
      resource: 'Magento_Catalog::categories',
      service: 'Magento\\Catalog\\Api\\CategoryRepositoryInterface::get',
      handler: (ctx) =>
        catalog.categoryJson(catalog.getCategory(intParam(ctx.params.categoryId, 'categoryId'))),
    },
    {
      method: 'PUT',
      path: '/V1/categories/:id',
      resource: 'Magento_Catalog::categories',
      service: 'Magento\\Catalog\\Api\\CategoryRepositoryInterface::save',
      handler: (ctx) =>
        catalog.categoryJson(catalog.saveCategory(body(ctx), intParam(ctx.params.id, 'id'))),
    },
    {
      method: 'DELETE',
      path: '/V1/categories/:categoryId',
      resource: 'Magento_Catalog::categories',
      service: 'Magento\\Catalog\\Api\\CategoryRepositoryInterface::deleteByIdentifier',
      handler: (ctx) => catalog.deleteCategory(intParam(ctx.params.categoryId, 'categoryId')),
    },
    {
      method: 'GET',
      path: '/V1/categories/attributes/:attributeCode',
      resource: 'Magento_Catalog::categories',
      service: 'Magento\\Catalog\\Api\\CategoryAttributeRepositoryInterface::get',
      handler: (ctx) =>
        catalog.categoryAttributeJson(catalog.getCategoryAttribute(ctx.params.attributeCode ?? '')),
    },
    // Tax classes
    {
      method: 'GET',
      path: '/V1/taxClasses/search',
      resource: 'Magento_Tax::manage_tax',
      service: 'Magento\\Tax\\Api\\TaxClassRepositoryInterface::getList',
      handler: (ctx) => list(ctx, [...tax.classes.values()], tax.field, (c) => tax.json(c)),
    },
    {
      method: 'GET',
      path: '/V1/taxClasses/:taxClassId',
      resource: 'Magento_Tax::manage_tax',
      service: 'Magento\\Tax\\Api\\TaxClassRepositoryInterface::get',
      handler: (ctx) => tax.json(tax.get(intParam(ctx.params.taxClassId, 'taxClassId'))),
    },
    {
      method: 'POST',
      path: '/V1/taxClasses',
      resource: 'Magento_Tax::manage_tax',
      service: 'Magento\\Tax\\Api\\TaxClassRepositoryInterface::save',
      handler: (ctx) => tax.create(body(ctx)),
    },
    // Product attributes and attribute sets (registered before /V1/products/:sku)
    {
      method: 'GET',
      path: '/V1/products/attributes',
      resource: 'Magento_Catalog::attributes_attributes',
      service: 'Magento\\Catalog\\Api\\ProductAttributeRepositoryInterface::getList',
      handler: (ctx) =>
        list(
          ctx,
          [...catalog.attributes.values()],
          (a, field) => {
            if (
              field === 'attribute_code' ||
              field === 'frontend_input' ||
              field === 'attribute_id'
            )
              return a[field];
            if (field === 'is_user_defined') return a.is_user_defined ? 1 : 0;
            throw new MagentoError(400, 'Invalid attribute name: %1', [field]);
          },
          (a) => catalog.attributeJson(a),
        ),
    },
    {
      method: 'POST',
      path: '/V1/products/attributes',
      resource: 'Magento_Catalog::attributes_attributes',
      service: 'Magento\\Catalog\\Api\\ProductAttributeRepositoryInterface::save',
      handler: (ctx) => catalog.attributeJson(catalog.createAttribute(body(ctx))),
    },
    {
      method: 'GET',
      path: '/V1/products/attributes/:attributeCode/options',
      resource: 'Magento_Catalog::attributes_attributes',
      service: 'Magento\\Catalog\\Api\\ProductAttributeOptionManagementInterface::getItems',
      handler: (ctx) =>
        catalog.attributeJson(catalog.getAttribute(ctx.params.attributeCode ?? '')).options,
    },
    {
      method: 'POST',
      path: '/V1/products/attributes/:attributeCode/options',
      resource: 'Magento_Catalog::attributes_attributes',
      service: 'Magento\\Catalog\\Api\\ProductAttributeOptionManagementInterface::add',
      handler: (ctx) => catalog.addAttributeOption(ctx.params.attributeCode ?? '', body(ctx)),
    },
    {
      method: 'PUT',
      path: '/V1/products/attributes/:attributeCode/options/:optionId',
      resource: 'Magento_Catalog::attributes_attributes',
      service: 'Magento\\Catalog\\Api\\ProductAttributeOptionUpdateInterface::update',
      handler: (ctx) =>
        catalog.updateAttributeOption(
          ctx.params.attributeCode ?? '',
          ctx.params.optionId ?? '',
          body(ctx),
        ),
    },
    {
      method: 'DELETE',
      path: '/V1/products/attributes/:attributeCode/options/:optionId',
      resource: 'Magento_Catalog::attributes_attributes',
      service: 'Magento\\Catalog\\Api\\ProductAttributeOptionManagementInterface::delete',
      handler: (ctx) =>
        catalog.deleteAttributeOption(ctx.params.attributeCode ?? '', ctx.params.optionId ?? ''),
    },
    {
      method: 'GET',
      path: '/V1/products/attributes/:attributeCode',
      resource: 'Magento_Catalog::attributes_attributes',
      service: 'Magento\\Catalog\\Api\\ProductAttributeRepositoryInterface::get',
      handler: (ctx) => catalog.attributeJson(catalog.getAttribute(ctx.params.attributeCode ?? '')),
    },
    {
      method: 'GET',
      path: '/V1/products/attribute-sets/sets/list',
      resource: 'Magento_Catalog::sets',
      service: 'Magento\\Catalog\\Api\\AttributeSetRepositoryInterface::getList',
      handler: (ctx) =>
        list(
          ctx,
          [...catalog.attributeSets.values()],
          (s, field) => {
            if (field === 'attribute_set_id') return s.id;
            if (field === 'attribute_set_name') return s.name;
            if (field === 'entity_type_id') return 4;
            throw new MagentoError(400, 'Invalid attribute name: %1', [field]);
          },
          (s) => catalog.attributeSetJson(s),
        ),
    },
    {
      method: 'GET',
      path: '/V1/products/attribute-sets/groups/list',
      resource: 'Magento_Catalog::sets',
      service: 'Magento\\Catalog\\Api\\ProductAttributeGroupRepositoryInterface::getList',
      handler: (ctx) =>
        list(
          ctx,
          catalog.attributeGroups(),
          (g, field) => {
            if (field in g) return g[field] as string | number;
            throw new MagentoError(400, 'Invalid attribute name: %1', [field]);
          },
          (g) => g,
        ),
    },
    {
      method: 'POST',
      path: '/V1/products/attribute-sets/attributes',
      resource: 'Magento_Catalog::sets',
      service: 'Magento\\Catalog\\Api\\ProductAttributeManagementInterface::assign',
      handler: (ctx) => catalog.assignAttribute(body(ctx)),
    },
    {
      method: 'GET',
      path: '/V1/products/attribute-sets/:attributeSetId/attributes',
      resource: 'Magento_Catalog::sets',
      service: 'Magento\\Catalog\\Api\\ProductAttributeManagementInterface::getAttributes',
      handler: (ctx) => {
        const set = catalog.getAttributeSet(intParam(ctx.params.attributeSetId, 'attributeSetId'));
        return [...set.members.keys()].flatMap((code) => {
          const attribute = catalog.attributes.get(code);
          return attribute ? [catalog.attributeJson(attribute)] : [];
        });
      },
    },
    // Products
    {
      method: 'GET',
      path: '/V1/products',
      resource: 'Magento_Catalog::products',
      service: 'Magento\\Catalog\\Api\\ProductRepositoryInterface::getList',
      handler: (ctx) =>
        list(ctx, [...catalog.products.values()], catalog.productField, (p) =>
          catalog.productJson(p),
        ),
    },
    {
      method: 'POST',
      path: '/V1/products',
      resource: 'Magento_Catalog::products',
      service: 'Magento\\Catalog\\Api\\ProductRepositoryInterface::save',
      handler: (ctx) => catalog.productJson(catalog.saveProduct(body(ctx)).product),
    },
    {
      method: 'GET',
      path: '/V1/products/:sku/media',
      resource: 'Magento_Catalog::catalog',
      service: 'Magento\\Catalog\\Api\\ProductAttributeMediaGalleryManagementInterface::getList',
      handler: (ctx) =>
        catalog.productBySku(ctx.params.sku ?? '').media.map((m) => catalog.mediaJson(m)),
    },
    {
      method: 'POST',
      path: '/V1/products/:sku/media',
      resource: 'Magento_Catalog::catalog',
      service: 'Magento\\Catalog\\Api\\ProductAttributeMediaGalleryManagementInterface::create',
      handler: (ctx) => catalog.addMedia(ctx.params.sku ?? '', body(ctx)),
    },
    {
      method: 'GET',
      path: '/V1/products/:sku',
      resource: 'Magento_Catalog::products',
      service: 'Magento\\Catalog\\Api\\ProductRepositoryInterface::get',
      handler: (ctx) => catalog.productJson(catalog.productBySku(ctx.params.sku ?? '')),
    },
    {
      method: 'PUT',
      path: '/V1/products/:sku',
      resource: 'Magento_Catalog::products',
      service: 'Magento\\Catalog\\Api\\ProductRepositoryInterface::save',
      handler: (ctx) => catalog.productJson(catalog.saveProduct(body(ctx), ctx.params.sku).product),
    },
    {
      method: 'POST',
      path: '/V1/products/:sku/links',
      resource: 'Magento_Catalog::products',
      service: 'Magento\\Catalog\\Api\\ProductLinkManagementInterface::setProductLinks',
      handler: (ctx) => catalog.setProductLinks(ctx.params.sku ?? '', body(ctx)),
    },
    {
      method: 'DELETE',
      path: '/V1/products/:sku',
      resource: 'Magento_Catalog::products',
      service: 'Magento\\Catalog\\Api\\ProductRepositoryInterface::deleteById',
      handler: (ctx) => catalog.deleteProduct(ctx.params.sku ?? ''),
    },
    // Configurable products
    {
      method: 'POST',
      path: '/V1/configurable-products/:sku/options',
      resource: 'Magento_Catalog::products',
      service: 'Magento\\ConfigurableProduct\\Api\\OptionRepositoryInterface::save',
      handler: (ctx) => catalog.addConfigurableOption(ctx.params.sku ?? '', body(ctx)),
    },
    {
      method: 'GET',
      path: '/V1/configurable-products/:sku/options/all',
      resource: 'Magento_Catalog::products',
      service: 'Magento\\ConfigurableProduct\\Api\\OptionRepositoryInterface::getList',
      handler: (ctx) => {
        const product = catalog.productBySku(ctx.params.sku ?? '');
        return product.configurable_options.map((o) => catalog.configurableOptionJson(product, o));
      },
    },
    {
      method: 'POST',
      path: '/V1/configurable-products/:sku/child',
      resource: 'Magento_Catalog::products',
      service: 'Magento\\ConfigurableProduct\\Api\\LinkManagementInterface::addChild',
      handler: (ctx) => catalog.addChild(ctx.params.sku ?? '', body(ctx)),
    },
    {
      method: 'GET',
      path: '/V1/configurable-products/:sku/children',
      resource: 'Magento_Catalog::products',
      service: 'Magento\\ConfigurableProduct\\Api\\LinkManagementInterface::getChildren',
      handler: (ctx) => catalog.children(ctx.params.sku ?? '').map((p) => catalog.productJson(p)),
    },
    // Customer groups and customer attributes
    {
      method: 'GET',
      path: '/V1/customerGroups/search',
      resource: 'Magento_Customer::group',
      service: 'Magento\\Customer\\Api\\GroupRepositoryInterface::getList',
      handler: (ctx) =>
        list(ctx, [...customers.groups.values()], customers.groupField, (g) =>
          customers.groupJson(g),
        ),
    },
    {
      method: 'GET',
      path: '/V1/customerGroups/:id',
      resource: 'Magento_Customer::group',
      service: 'Magento\\Customer\\Api\\GroupRepositoryInterface::getById',
      handler: (ctx) => customers.groupJson(customers.getGroup(intParam(ctx.params.id, 'id'))),
    },
    {
      method: 'POST',
      path: '/V1/customerGroups',
      resource: 'Magento_Customer::group',
      service: 'Magento\\Customer\\Api\\GroupRepositoryInterface::save',
      handler: (ctx) => customers.groupJson(customers.createGroup(body(ctx))),
    },
    {
      method: 'GET',
      path: '/V1/attributeMetadata/customer/custom',
      resource: 'Magento_Customer::manage',
      service: 'Magento\\Customer\\Api\\CustomerMetadataInterface::getCustomAttributesMetadata',
      handler: () =>
        [...customers.attributes.values()].map((a) => customers.attributeMetadataJson(a)),
    },
    {
      method: 'GET',
      path: '/V1/attributeMetadata/customer/attribute/:attributeCode',
      resource: 'Magento_Customer::manage',
      service: 'Magento\\Customer\\Api\\CustomerMetadataInterface::getAttributeMetadata',
      handler: (ctx) =>
        customers.attributeMetadataJson(
          customers.getAttributeMetadata(ctx.params.attributeCode ?? ''),
        ),
    },
    // Cart price rules and their coupons (Magento_SalesRule etc/webapi.xml: Magento_SalesRule::quote)
    {
      method: 'GET',
      path: '/V1/salesRules/search',
      resource: 'Magento_SalesRule::quote',
      service: 'Magento\\SalesRule\\Api\\RuleRepositoryInterface::getList',
      handler: (ctx) =>
        list(ctx, [...salesRules.rules.values()], salesRules.ruleField, (r) =>
          salesRules.ruleJson(r),
        ),
    },
    {
      method: 'GET',
      path: '/V1/salesRules/:ruleId',
      resource: 'Magento_SalesRule::quote',
      service: 'Magento\\SalesRule\\Api\\RuleRepositoryInterface::getById',
      handler: (ctx) =>
        salesRules.ruleJson(salesRules.getRule(intParam(ctx.params.ruleId, 'ruleId'))),
    },
    {
      method: 'POST',
      path: '/V1/salesRules',
      resource: 'Magento_SalesRule::quote',
      service: 'Magento\\SalesRule\\Api\\RuleRepositoryInterface::save',
      handler: (ctx) => salesRules.ruleJson(salesRules.saveRule(body(ctx))),
    },
    {
      method: 'PUT',
      path: '/V1/salesRules/:ruleId',
      resource: 'Magento_SalesRule::quote',
      service: 'Magento\\SalesRule\\Api\\RuleRepositoryInterface::save',
      handler: (ctx) =>
        salesRules.ruleJson(salesRules.saveRule(body(ctx), intParam(ctx.params.ruleId, 'ruleId'))),
    },
    {
      method: 'DELETE',
      path: '/V1/salesRules/:ruleId',
      resource: 'Magento_SalesRule::quote',
      service: 'Magento\\SalesRule\\Api\\RuleRepositoryInterface::deleteById',
      handler: (ctx) => salesRules.deleteRule(intParam(ctx.params.ruleId, 'ruleId')),
    },
    {
      method: 'GET',
      path: '/V1/coupons/search',
      resource: 'Magento_SalesRule::quote',
      service: 'Magento\\SalesRule\\Api\\CouponRepositoryInterface::getList',
      handler: (ctx) =>
        list(ctx, [...salesRules.coupons.values()], salesRules.couponField, (c) =>
          salesRules.couponJson(c),
        ),
    },
    {
      method: 'GET',
      path: '/V1/coupons/:couponId',
      resource: 'Magento_SalesRule::quote',
      service: 'Magento\\SalesRule\\Api\\CouponRepositoryInterface::getById',
      handler: (ctx) =>
        salesRules.couponJson(salesRules.getCoupon(intParam(ctx.params.couponId, 'couponId'))),
    },
    {
      method: 'POST',
      path: '/V1/coupons',
      resource: 'Magento_SalesRule::quote',
      service: 'Magento\\SalesRule\\Api\\CouponRepositoryInterface::save',
      handler: (ctx) => salesRules.couponJson(salesRules.saveCoupon(body(ctx))),
    },
    {
      method: 'PUT',
      path: '/V1/coupons/:couponId',
      resource: 'Magento_SalesRule::quote',
      service: 'Magento\\SalesRule\\Api\\CouponRepositoryInterface::save',
      handler: (ctx) =>
        salesRules.couponJson(
          salesRules.saveCoupon(body(ctx), intParam(ctx.params.couponId, 'couponId')),
        ),
    },
    {
      method: 'DELETE',
      path: '/V1/coupons/:couponId',
      resource: 'Magento_SalesRule::quote',
      service: 'Magento\\SalesRule\\Api\\CouponRepositoryInterface::deleteById',
      handler: (ctx) => salesRules.deleteCoupon(intParam(ctx.params.couponId, 'couponId')),
    },
    // CMS pages (Magento_Cms etc/webapi.xml: Magento_Cms::page, deleting Magento_Cms::page_delete)
    {
      method: 'GET',
      path: '/V1/cmsPage/search',
      resource: 'Magento_Cms::page',
      service: 'Magento\\Cms\\Api\\PageRepositoryInterface::getList',
      handler: (ctx) =>
        list(ctx, [...cmsPages.pages.values()], cmsPages.field, (p) => cmsPages.json(p)),
    },
    {
      method: 'GET',
      path: '/V1/cmsPage/:pageId',
      resource: 'Magento_Cms::page',
      service: 'Magento\\Cms\\Api\\PageRepositoryInterface::getById',
      handler: (ctx) => cmsPages.json(cmsPages.get(intParam(ctx.params.pageId, 'pageId'))),
    },
    {
      method: 'POST',
      path: '/V1/cmsPage',
      resource: 'Magento_Cms::page',
      service: 'Magento\\Cms\\Api\\PageRepositoryInterface::save',
      handler: (ctx) => cmsPages.json(cmsPages.save(body(ctx), CmsPages.storesOf(ctx.storeCode))),
    },
    {
      method: 'PUT',
      path: '/V1/cmsPage/:id',
      resource: 'Magento_Cms::page',
      service: 'Magento\\Cms\\Api\\PageRepositoryInterface::save',
      handler: (ctx) =>
        cmsPages.json(
          cmsPages.save(body(ctx), CmsPages.storesOf(ctx.storeCode), intParam(ctx.params.id, 'id')),
        ),
    },
    {
      method: 'DELETE',
      path: '/V1/cmsPage/:pageId',
      resource: 'Magento_Cms::page_delete',
      service: 'Magento\\Cms\\Api\\PageRepositoryInterface::deleteById',
      handler: (ctx) => cmsPages.delete(intParam(ctx.params.pageId, 'pageId')),
    },
    // Customers
    {
      method: 'GET',
      path: '/V1/customers/search',
      resource: 'Magento_Customer::customer',
      service: 'Magento\\Customer\\Api\\CustomerRepositoryInterface::getList',
      handler: (ctx) =>
        list(ctx, [...customers.customers.values()], customers.field, (c) => customers.json(c)),
    },
    {
      method: 'GET',
      path: '/V1/customers/:customerId',
      resource: 'Magento_Customer::customer',
      service: 'Magento\\Customer\\Api\\CustomerRepositoryInterface::getById',
      handler: (ctx) =>
        customers.json(customers.get(intParam(ctx.params.customerId, 'customerId'))),
    },
    {
      method: 'POST',
      path: '/V1/customers',
      resource: 'anonymous',
      service: 'Magento\\Customer\\Api\\AccountManagementInterface::createAccount',
      handler: (ctx) => customers.json(customers.createAccount(body(ctx))),
    },
    {
      method: 'PUT',
      path: '/V1/customers/validate',
      resource: 'Magento_Customer::manage',
      service: 'Magento\\Customer\\Api\\AccountManagementInterface::validate',
      handler: (ctx) => customers.validate(body(ctx)),
    },
    {
      method: 'PUT',
      path: '/V1/customers/:customerId',
      resource: 'Magento_Customer::manage',
      service: 'Magento\\Customer\\Api\\CustomerRepositoryInterface::save',
      handler: (ctx) =>
        customers.json(customers.save(body(ctx), intParam(ctx.params.customerId, 'customerId'))),
    },
    // Magento_Customer etc/webapi.xml: deleting needs Magento_Customer::delete.
    {
      method: 'DELETE',
      path: '/V1/customers/:customerId',
      resource: 'Magento_Customer::delete',
      service: 'Magento\\Customer\\Api\\CustomerRepositoryInterface::deleteById',
      handler: (ctx) => store.deleteCustomer(intParam(ctx.params.customerId, 'customerId')),
    },
    // Orders
    {
      method: 'GET',
      path: '/V1/orders',
      resource: 'Magento_Sales::actions_view',
      service: 'Magento\\Sales\\Api\\OrderRepositoryInterface::getList',
      handler: (ctx) => list(ctx, [...sales.orders.values()], sales.field, (o) => sales.json(o)),
    },
    {
      method: 'POST',
      path: '/V1/orders',
      resource: 'Magento_Sales::create',
      service: 'Magento\\Sales\\Api\\OrderRepositoryInterface::save',
      handler: (ctx) => sales.json(sales.save(body(ctx))),
    },
    {
      method: 'PUT',
      path: '/V1/orders/create',
      resource: 'Magento_Sales::create',
      service: 'Magento\\Sales\\Api\\OrderRepositoryInterface::save',
      handler: (ctx) => sales.json(sales.save(body(ctx))),
    },
    {
      method: 'PUT',
      path: '/V1/orders/:parent_id',
      resource: 'Magento_Sales::create',
      service: 'Magento\\Sales\\Api\\OrderAddressRepositoryInterface::save',
      handler: (ctx) => sales.saveAddress(body(ctx)),
    },
    {
      method: 'GET',
      path: '/V1/orders/:id',
      resource: 'Magento_Sales::actions_view',
      service: 'Magento\\Sales\\Api\\OrderRepositoryInterface::get',
      handler: (ctx) => sales.json(sales.get(intParam(ctx.params.id, 'id'))),
    },
    // Magento_Sales etc/webapi.xml: OrderManagementInterface::notify, the "Send Email" of the
    // admin's order view.
    {
      method: 'POST',
      path: '/V1/orders/:id/emails',
      resource: 'Magento_Sales::emails',
      service: 'Magento\\Sales\\Api\\OrderManagementInterface::notify',
      handler: (ctx) => sales.notify(intParam(ctx.params.id, 'id')),
    },
    // Credit memos and invoices
    {
      method: 'GET',
      path: '/V1/creditmemos',
      resource: 'Magento_Sales::sales_creditmemo',
      service: 'Magento\\Sales\\Api\\CreditmemoRepositoryInterface::getList',
      handler: (ctx) =>
        list(ctx, [...creditmemos.documents.values()], creditmemos.field, (d) =>
          creditmemos.json(d),
        ),
    },
    {
      method: 'POST',
      path: '/V1/creditmemo',
      resource: 'Magento_Sales::sales_creditmemo',
      service: 'Magento\\Sales\\Api\\CreditmemoRepositoryInterface::save',
      handler: (ctx) => creditmemos.json(creditmemos.save(body(ctx))),
    },
    {
      method: 'GET',
      path: '/V1/creditmemo/:id',
      resource: 'Magento_Sales::sales_creditmemo',
      service: 'Magento\\Sales\\Api\\CreditmemoRepositoryInterface::get',
      handler: (ctx) => creditmemos.json(creditmemos.get(intParam(ctx.params.id, 'id'))),
    },
    {
      method: 'GET',
      path: '/V1/invoices',
      resource: 'Magento_Sales::sales_invoice',
      service: 'Magento\\Sales\\Api\\InvoiceRepositoryInterface::getList',
      handler: (ctx) =>
        list(ctx, [...invoices.documents.values()], invoices.field, (d) => invoices.json(d)),
    },
    {
      method: 'GET',
      path: '/V1/invoices/:id',
      resource: 'Magento_Sales::sales_invoice',
      service: 'Magento\\Sales\\Api\\InvoiceRepositoryInterface::get',
      handler: (ctx) => invoices.json(invoices.get(intParam(ctx.params.id, 'id'))),
    },
    // Bulk status
    {
      method: 'GET',
      path: '/V1/bulk/:bulkUuid/status',
      resource: 'Magento_Logging::system_magento_logging_bulk_operations',
      service: 'Magento\\AsynchronousOperations\\Api\\BulkStatusInterface::getBulkShortStatus',
      handler: (ctx) => bulk.statusJson(ctx.params.bulkUuid ?? ''),
    },
    {
      method: 'GET',
      path: '/V1/bulk/:bulkUuid/detailed-status',
      resource: 'Magento_Logging::system_magento_logging_bulk_operations',
      service: 'Magento\\AsynchronousOperations\\Api\\BulkStatusInterface::getBulkDetailedStatus',
      handler: (ctx) => bulk.detailedStatusJson(ctx.params.bulkUuid ?? ''),
    },
    {
      method: 'GET',
      path: '/V1/bulk/:bulkUuid/operation-status/:status',
      resource: 'Magento_Logging::system_magento_logging_bulk_operations',
      service:
        'Magento\\AsynchronousOperations\\Api\\BulkStatusInterface::getOperationsCountByBulkIdAndStatus',
      handler: (ctx) =>
        bulk.countByStatus(ctx.params.bulkUuid ?? '', intParam(ctx.params.status, 'status')),
    },
  ];

  // Magento matches a route's exact path before its patterns, so POST /V1/customers/ (trailing
  // slash, Magento_Customer etc/webapi.xml) reaches CustomerRepositoryInterface::save rather than
  // createAccount: the admin way to create a customer without the new-account e-mail.
  const exact = new Map<string, Route>([
    [
      'POST /V1/customers/',
      {
        method: 'POST',
        path: '/V1/customers/',
        resource: 'Magento_Customer::manage',
        service: 'Magento\\Customer\\Api\\CustomerRepositoryInterface::save',
        handler: (ctx) => customers.json(customers.save(body(ctx))),
      },
    ],
    [
      'POST /V1/invoices/',
      {
        method: 'POST',
        path: '/V1/invoices/',
        resource: 'Magento_Sales::sales_invoice',
        service: 'Magento\\Sales\\Api\\InvoiceRepositoryInterface::save',
        handler: (ctx) => invoices.json(invoices.save(body(ctx))),
      },
    ],
  ]);

  const router = new Router();
  const routeOf = new Map<RouteHandler, Route>();
  for (const route of routes) {
    const marker: RouteHandler = () => ({ status: 200 });
    routeOf.set(marker, route);
    router.on(route.method, route.path, marker);
  }

  function resolveRoute(
    method: string,
    path: string,
  ): { route: Route; params: Record<string, string> } | undefined {
    const direct = exact.get(`${method} ${path}`);
    if (direct) return { route: direct, params: {} };
    const found = router.match(method, path);
    const route = found ? routeOf.get(found.handler) : undefined;
    return found && route ? { route, params: found.params } : undefined;
  }

  /** The integration a request's Authorization header names (by consumer key or bearer token). */
  function integrationOf(authorization: string | undefined) {
    const bearer = /^Bearer\s+(.+)$/i.exec(authorization ?? '')?.[1]?.trim();
    const consumerKey = authorization
      ? parseAuthorizationHeader(authorization)?.oauth_consumer_key
      : undefined;
    return (
      integrations.find((i) =>
        bearer ? i.credentials.accessToken === bearer : i.credentials.consumerKey === consumerKey,
      ) ?? integrations[0]
    );
  }

  /**
   * Magento's web API checks the integration's OAuth signature and then whether it was granted
   * the route's ACL resource; either failure is the same 401 naming the resource. The check runs
   * before the request's input is read, so a refused request never reaches the service.
   */
  function authorize(request: EmulatorRequest, route: Route, fullUrl: string): void {
    if (route.resource === 'anonymous') return;
    const header = request.headers.authorization;
    const auth = Array.isArray(header) ? header[0] : header;
    const integration = integrationOf(auth);
    if (!integration) throw unauthorized(route.resource);
    const result = integration.guard.verify(request.method, fullUrl, auth);
    if (!result.ok) throw unauthorized(route.resource);
    if (integration.resources !== 'all' && !integration.resources.includes(route.resource))
      throw unauthorized(route.resource);
  }

  function parseBody(request: EmulatorRequest): unknown {
    if (request.method === 'GET' || request.method === 'DELETE' || request.body.length === 0)
      return undefined;
    const type = String(request.headers['content-type'] ?? '');
    if (!/^application\/json\b/i.test(type)) {
      throw new MagentoError(
        400,
        'Server cannot understand Content-Type HTTP header media type %1',
        [type || 'undefined'],
      );
    }
    try {
      return JSON.parse(request.body.toString('utf8')) as unknown;
    } catch {
      throw new MagentoError(400, 'Decoding error: %1', ['Syntax error']);
    }
  }

  function serveMedia(pathname: string): EmulatorResponse {
    const file = decodeURIComponent(pathname.slice('/media/catalog/product'.length));
    const uploaded = catalog.files.get(file);
    const data = uploaded?.data ?? (catalog.seededFiles.has(file) ? samplePng(file) : undefined);
    if (!data)
      return {
        status: 404,
        headers: { 'content-type': 'text/html' },
        body: '<h1>404 Not Found</h1>',
      };
    const sniffed = data[0] === 0x89 ? 'image/png' : undefined;
    const extension = file.split('.').pop()?.toLowerCase() ?? '';
    return {
      status: 200,
      headers: {
        'content-type':
          uploaded?.type ?? sniffed ?? contentTypes[extension] ?? 'application/octet-stream',
      },
      body: data,
    };
  }

  async function handle(request: EmulatorRequest): Promise<EmulatorResponse> {
    const { pathname } = request.url;
    if (request.method === 'GET' && pathname.startsWith('/media/catalog/product/'))
      return serveMedia(pathname);
    const match = /^\/rest(?:\/([A-Za-z0-9_]+))?(\/async(?:\/bulk)?)?(\/V1(?:\/.*)?)$/.exec(
      pathname,
    );
    if (!match) throw noRoute();
    const storeCode = match[1] ?? 'default';
    if (storeCode !== 'default' && storeCode !== 'all') {
      throw new MagentoError(
        404,
        "The store that was requested wasn't found. Verify the store and try again.",
      );
    }
    const host = String(request.headers.host ?? `127.0.0.1`);
    const baseUrl = `http://${host}`;
    const fullUrl = `${baseUrl}${request.raw.url ?? pathname}`;
    const path = match[3] ?? '/V1';
    if (match[2])
      return handleAsync(request, match[2] === '/async/bulk', path, {
        storeCode,
        baseUrl,
        fullUrl,
      });
    const resolved = resolveRoute(request.method, path);
    if (!resolved) throw noRoute();
    authorize(request, resolved.route, fullUrl);
    const payload = parseBody(request);
    const result = resolved.route.handler({
      params: resolved.params,
      query: request.url.searchParams,
      body: payload,
      storeCode,
      baseUrl,
    });
    return {
      status: 200,
      body: JSON.stringify(result),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    };
  }

  /**
   * /async/V1/... takes one body, /async/bulk/V1/... an array of them; path parameters of the
   * synchronous route become `by<Param>` segments whose values travel inside each body
   * (limits.json magento2.async_bulk).
   */
  function handleAsync(
    request: EmulatorRequest,
    isBulk: boolean,
    path: string,
    where: { storeCode: string; baseUrl: string; fullUrl: string },
  ): EmulatorResponse {
    if (request.method === 'GET') throw noRoute();
    const segments = path.split('/');
    const params = segments.map((s) => {
      const by = /^by([A-Z]\w*)$/.exec(s)?.[1];
      return by ? by[0]?.toLowerCase() + by.slice(1) : undefined;
    });
    const probe = segments.map((s, i) => (params[i] ? '0' : s)).join('/');
    const template = resolveRoute(request.method, probe);
    if (!template) throw noRoute();
    authorize(request, template.route, where.fullUrl);
    const payload = parseBody(request);
    if (isBulk && !Array.isArray(payload)) {
      throw new MagentoError(400, 'Request body is expected to be an array of request bodies.');
    }
    const items = isBulk ? (payload as unknown[]) : [payload];
    const result = bulk.submit(topicOf(template.route), items, (item) => {
      if (!isObject(item))
        throw new MagentoError(400, 'Decoding error: %1', ['item must be a JSON object']);
      const values: Record<string, string> = {};
      const rest: Json = { ...item };
      const concrete = segments
        .map((s, i) => {
          const name = params[i];
          if (!name) return s;
          const value = item[name];
          if (value === undefined || value === null || value === '') {
            throw new MagentoError(400, '"%fieldName" is required. Enter and try again.', {
              fieldName: name,
            });
          }
          values[name] = String(value);
          delete rest[name];
          return encodeURIComponent(String(value));
        })
        .join('/');
      const resolved = resolveRoute(request.method, concrete);
      if (!resolved) throw noRoute();
      const ctx: Context = {
        params: { ...resolved.params, ...values },
        query: new URLSearchParams(),
        body: rest,
        storeCode: where.storeCode,
        baseUrl: where.baseUrl,
      };
      return () => resolved.route.handler(ctx);
    });
    return {
      status: 202,
      body: JSON.stringify(result),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    };
  }

  const running = await startEmulator(
    async (request) => {
      try {
        return await handle(request);
      } catch (error) {
        if (error instanceof MagentoError) {
          return {
            status: error.status,
            body: JSON.stringify(error.body()),
            headers: { 'content-type': 'application/json; charset=utf-8' },
          };
        }
        return {
          status: 500,
          body: JSON.stringify({
            message:
              'Internal Error. Details are available in Magento log file. Report ID: webapi-emulator',
          }),
          headers: { 'content-type': 'application/json; charset=utf-8' },
        };
      }
    },
    {
      ...(options.latencyMs !== undefined ? { latencyMs: options.latencyMs } : {}),
      ...(options.faults ? { faults: options.faults } : {}),
      ...(options.port !== undefined ? { port: options.port } : {}),
      ...(options.faultSeed !== undefined ? { seed: options.faultSeed } : {}),
    },
  );

  return {
    ...running,
    url: running.url,
    port: running.port,
    stats: running.stats,
    store,
    credentials,
    guard,
    close: async () => {
      bulk.close();
      await running.close();
    },
  };
}
