import { z } from 'zod';
import { defaultWriteChoices, type ConnectorContext, type WriteChoices } from '../kit/contract.ts';
import { ConnectorError } from '../kit/errors.ts';
import { isMagentoStatus, MagentoApiError, type MagentoClient, type Query } from './client.ts';
import {
  attributeGroupSchema,
  attributeSchema,
  attributeSetSchema,
  categorySchema,
  countrySchema,
  customerAttributeSchema,
  customerGroupSchema,
  idAnswer,
  searchResults,
  storeConfigSchema,
  storeGroupSchema,
  storeViewSchema,
  type MagentoAttribute,
  type StoreConfig,
} from './magento-schemas.ts';

/** searchCriteria query parameters, in the camelCase form admin-schema-2.4.9.yaml lists. */
export function criteria(options: {
  filters?: [field: string, value: string | number, condition?: string][][];
  sort?: [field: string, direction: 'ASC' | 'DESC'][];
  pageSize?: number;
  currentPage?: number;
}): Query {
  const query: Query = [];
  (options.filters ?? []).forEach((group, g) => {
    group.forEach(([field, value, condition], f) => {
      const prefix = `searchCriteria[filterGroups][${g}][filters][${f}]`;
      query.push([`${prefix}[field]`, field], [`${prefix}[value]`, value]);
      query.push([`${prefix}[conditionType]`, condition ?? 'eq']);
    });
  });
  (options.sort ?? []).forEach(([field, direction], i) => {
    query.push([`searchCriteria[sortOrders][${i}][field]`, field]);
    query.push([`searchCriteria[sortOrders][${i}][direction]`, direction]);
  });
  if (options.pageSize !== undefined) query.push(['searchCriteria[pageSize]', options.pageSize]);
  if (options.currentPage !== undefined)
    query.push(['searchCriteria[currentPage]', options.currentPage]);
  return query;
}

/** Magento attribute code for a canonical option or attribute name ('Shoe Size' -> 'shoe_size'). */
export function attributeCodeFor(name: string): string {
  const code = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return (/^[a-z]/.test(code) ? code : `attr_${code}`).slice(0, 60);
}

const attributeList = searchResults(attributeSchema);

/** Customer groups asked for at once (few stores have more). */
const groupPageSize = 300;

/** The customer groups of a fresh installation. */
const defaultGroups = [
  { id: 0, code: 'NOT LOGGED IN' },
  { id: 1, code: 'General' },
  { id: 2, code: 'Wholesale' },
  { id: 3, code: 'Retailer' },
];

/**
 * What one connection learns once and reuses: the store view's configuration (currency, weight
 * unit, media URL), the root categories, product attributes with their options, the attribute
 * set products are written into, and country regions.
 */
export class MagentoSession {
  readonly client: MagentoClient;
  readonly context: ConnectorContext;
  /** How the owner chose to have records written, read once from the context. */
  readonly choices: WriteChoices;
  #config: Promise<StoreConfig> | undefined;
  #roots: Promise<{ all: Set<string>; storeRoot: number }> | undefined;
  readonly #attributes = new Map<string, Promise<MagentoAttribute | undefined>>();
  readonly #attributeCodes = new Map<string, Promise<string | undefined>>();
  #attributeSet: Promise<{ id: number; groupId: number; members: Set<string> }> | undefined;
  readonly #regions = new Map<string, Promise<{ id: number; code: string; name: string }[]>>();
  #groups: Promise<{ id: number; code: string; taxClassId?: number }[]> | undefined;
  readonly #categoryAttributes = new Map<string, Promise<MagentoAttribute | undefined>>();
  #customerAttributes: Promise<Set<string>> | undefined;
  #setNames: Promise<Map<number, string>> | undefined;

  constructor(client: MagentoClient, context: ConnectorContext) {
    this.client = client;
    this.context = context;
    this.choices = { ...defaultWriteChoices, ...context.choices };
  }

  /** GET /V1/store/storeConfigs (admin-schema-2.4.9.yaml GetV1StoreStoreConfigs). */
  storeConfig(): Promise<StoreConfig> {
    this.#config ??= this.client
      .get('/V1/store/storeConfigs', z.array(storeConfigSchema))
      .then((configs) => {
        const code = this.client.storeCode === 'all' ? 'default' : this.client.storeCode;
        const config = configs.find((c) => c.code === code) ?? configs[0];
        if (!config) {
          throw new ConnectorError(
            'config',
            'store_not_found',
            `Magento has no store view '${code}'`,
          );
        }
        return config;
      })
      .catch((error: unknown) => {
        this.#config = undefined;
        throw error;
      });
    return this.#config;
  }

  async currency(): Promise<string> {
    return (await this.storeConfig()).base_currency_code.toUpperCase();
  }

  async weightUnit(): Promise<'kg' | 'lb'> {
    return (await this.storeConfig()).weight_unit.toLowerCase().startsWith('kg') ? 'kg' : 'lb';
  }

  /** Base URL of product images: <base_media_url>catalog/product. */
  async productMediaUrl(): Promise<string> {
    const config = await this.storeConfig();
    const base = config.secure_base_media_url || config.base_media_url;
    return `${base.replace(/\/+$/, '')}/catalog/product`;
  }

  async storeName(): Promise<string> {
    const config = await this.storeConfig();
    const [views, groups] = await Promise.all([
      this.client.get('/V1/store/storeViews', z.array(storeViewSchema)),
      this.client.get('/V1/store/storeGroups', z.array(storeGroupSchema)),
    ]);
    const view = views.find((v) => v.id === config.id);
    const group = groups.find((g) => g.id === view?.store_group_id);
    return group?.name ?? view?.name ?? config.code;
  }

  /**
   * Magento's tree starts at 'Root Catalog' (level 0) with one root per store group below it
   * ('Default Category', level 1). Those are containers, not categories a shopper sees, so the
   * canonical tree starts one level lower; `storeRoot` is where canonical roots are written.
   */
  roots(): Promise<{ all: Set<string>; storeRoot: number }> {
    this.#roots ??= (async () => {
      const config = await this.storeConfig();
      const [list, views, groups] = await Promise.all([
        this.client.get(
          '/V1/categories/list',
          searchResults(categorySchema),
          criteria({ filters: [[['level', 1, 'lteq']]], pageSize: 100, currentPage: 1 }),
        ),
        this.client.get('/V1/store/storeViews', z.array(storeViewSchema)),
        this.client.get('/V1/store/storeGroups', z.array(storeGroupSchema)),
      ]);
      const view = views.find((v) => v.id === config.id);
      const group = groups.find((g) => g.id === view?.store_group_id);
      return {
        all: new Set(list.items.map((c) => String(c.id))),
        storeRoot: group?.root_category_id || 2,
      };
    })().catch((error: unknown) => {
      this.#roots = undefined;
      throw error;
    });
    return this.#roots;
  }

  /** GET /V1/products/attributes/{attributeCode}; undefined when the store has no such attribute. */
  attribute(code: string, refresh = false): Promise<MagentoAttribute | undefined> {
    if (refresh) this.#attributes.delete(code);
    let found = this.#attributes.get(code);
    if (!found) {
      found = this.client
        .get(`/V1/products/attributes/${encodeURIComponent(code)}`, attributeSchema)
        .catch((error: unknown) => {
          if (isMagentoStatus(error, 404)) return undefined;
          this.#attributes.delete(code);
          throw error;
        });
      this.#attributes.set(code, found);
    }
    return found;
  }

  /** Attribute code of an attribute id (configurable options name attributes by id). */
  attributeCode(attributeId: string): Promise<string | undefined> {
    let found = this.#attributeCodes.get(attributeId);
    if (!found) {
      found = this.client
        .get(
          '/V1/products/attributes',
          attributeList,
          criteria({ filters: [[['attribute_id', attributeId]]], pageSize: 1, currentPage: 1 }),
        )
        .then((list) => {
          const attribute = list.items[0];
          if (attribute) this.#attributes.set(attribute.attribute_code, Promise.resolve(attribute));
          return attribute?.attribute_code;
        })
        .catch((error: unknown) => {
          this.#attributeCodes.delete(attributeId);
          throw error;
        });
      this.#attributeCodes.set(attributeId, found);
    }
    return found;
  }

  /** Option label of a select value, labels of a multiselect value, Yes/No of a boolean. */
  async attributeText(code: string, raw: unknown): Promise<string> {
    const value = Array.isArray(raw)
      ? raw.join(',')
      : raw === null || raw === undefined
        ? ''
        : String(raw);
    if (value === '') return '';
    const attribute = await this.attribute(code);
    const input = attribute?.frontend_input ?? 'text';
    if (input === 'boolean') return value === '1' ? 'Yes' : 'No';
    if (input !== 'select' && input !== 'multiselect') return value;
    const labelOf = (v: string) => attribute?.options?.find((o) => o.value === v)?.label;
    const labels = value.split(',').map((v) => labelOf(v.trim()));
    if (labels.some((l) => l === undefined)) {
      // An option added since the attribute was cached.
      const fresh = await this.attribute(code, true);
      return value
        .split(',')
        .map((v) => fresh?.options?.find((o) => o.value === v.trim())?.label ?? v)
        .join(', ');
    }
    return labels.join(', ');
  }

  /**
   * The attribute set new products go into ('Default', as on every installation) and the group
   * new attributes are assigned to.
   */
  attributeSet(): Promise<{ id: number; groupId: number; members: Set<string> }> {
    this.#attributeSet ??= (async () => {
      const sets = await this.client.get(
        '/V1/products/attribute-sets/sets/list',
        searchResults(attributeSetSchema),
        criteria({ filters: [[['attribute_set_name', 'Default']]], pageSize: 10, currentPage: 1 }),
      );
      const id = sets.items[0]?.attribute_set_id ?? 4;
      const [groups, members] = await Promise.all([
        this.client.get(
          '/V1/products/attribute-sets/groups/list',
          searchResults(attributeGroupSchema),
          criteria({ filters: [[['attribute_set_id', id]]], pageSize: 100, currentPage: 1 }),
        ),
        this.client.get(`/V1/products/attribute-sets/${id}/attributes`, z.array(attributeSchema)),
      ]);
      const preferred = ['Product Details', 'General'];
      const group =
        groups.items.find((g) => preferred.includes(g.attribute_group_name)) ?? groups.items[0];
      if (!group) {
        throw new ConnectorError(
          'system',
          'no_attribute_group',
          `Attribute set ${id} has no attribute group`,
        );
      }
      return {
        id,
        groupId: group.attribute_group_id,
        members: new Set(members.map((a) => a.attribute_code)),
      };
    })().catch((error: unknown) => {
      this.#attributeSet = undefined;
      throw error;
    });
    return this.#attributeSet;
  }

  /** Puts an attribute into the product attribute set (POST /V1/products/attribute-sets/attributes). */
  async ensureInSet(code: string): Promise<void> {
    const set = await this.attributeSet();
    if (set.members.has(code)) return;
    // Assigning is idempotent in Magento (AttributeManagement::assign saves the same row again).
    await this.client.request('POST', '/V1/products/attribute-sets/attributes', idAnswer, {
      body: {
        attributeSetId: set.id,
        attributeGroupId: set.groupId,
        attributeCode: code,
        sortOrder: 0,
      },
      scope: 'all',
      retry: 'always',
    });
    set.members.add(code);
  }

  /** Names of the product attribute sets by id. */
  attributeSets(): Promise<Map<number, string>> {
    this.#setNames ??= this.client
      .get(
        '/V1/products/attribute-sets/sets/list',
        searchResults(attributeSetSchema),
        criteria({ pageSize: 300, currentPage: 1 }),
      )
      .then((r) => new Map(r.items.map((s) => [s.attribute_set_id, s.attribute_set_name])))
      .catch((error: unknown) => {
        this.#setNames = undefined;
        throw error;
      });
    return this.#setNames;
  }

  /** Labels of a select or multiselect value, one per chosen option. */
  async attributeLabels(code: string, raw: unknown): Promise<string[]> {
    const values = (Array.isArray(raw) ? raw.map(String) : String(raw ?? '').split(','))
      .map((v) => v.trim())
      .filter(Boolean);
    const labels: string[] = [];
    for (const value of values) labels.push(await this.attributeText(code, value));
    return labels;
  }

  /**
   * The name of a product's tax class ('None' for 0), from the options of the tax_class_id
   * attribute (its source model lists the product tax classes), which needs no tax resource.
   */
  async taxClassName(id: string): Promise<string> {
    if (id === '') return '';
    return this.attributeText('tax_class_id', id);
  }

  /**
   * Customer groups of the store (GET /V1/customerGroups/search), NOT LOGGED IN (0) included.
   * Without Customers > Customer Groups the groups every installation has stand in (see below).
   */
  customerGroups(refresh = false): Promise<{ id: number; code: string; taxClassId?: number }[]> {
    if (refresh) this.#groups = undefined;
    this.#groups ??= this.searchCustomerGroups().catch((error: unknown) => {
      this.#groups = undefined;
      // A source integration without Customers > Customer Groups still reads its customers,
      // with the groups every installation has by name and the others by id.
      if (isMagentoStatus(error, 401)) return defaultGroups;
      throw error;
    });
    return this.#groups;
  }

  /**
   * Every customer group as the store lists it now, by id, paged by page number and bounded by
   * total_count (Magento answers a page past the end with the last one again). No stand-in:
   * a refusal is the caller's to report.
   */
  async searchCustomerGroups(): Promise<{ id: number; code: string; taxClassId?: number }[]> {
    const groups: { id: number; code: string; taxClassId?: number }[] = [];
    for (let page = 1; ; page++) {
      const result = await this.client.get(
        '/V1/customerGroups/search',
        searchResults(customerGroupSchema),
        criteria({ sort: [['id', 'ASC']], pageSize: groupPageSize, currentPage: page }),
      );
      for (const g of result.items)
        groups.push({
          id: g.id,
          code: g.code,
          ...(g.tax_class_id === undefined ? {} : { taxClassId: g.tax_class_id }),
        });
      if (result.items.length < groupPageSize || groups.length >= result.total_count) return groups;
    }
  }

  async customerGroupCode(id: string): Promise<string> {
    const found = (await this.customerGroups()).find((g) => String(g.id) === id);
    return found?.code ?? id;
  }

  /** GET /V1/categories/attributes/{code}; undefined when the store has no such attribute. */
  categoryAttribute(code: string): Promise<MagentoAttribute | undefined> {
    let found = this.#categoryAttributes.get(code);
    if (!found) {
      found = this.client
        .get(`/V1/categories/attributes/${encodeURIComponent(code)}`, attributeSchema)
        .catch((error: unknown) => {
          if (isMagentoStatus(error, 404)) return undefined;
          this.#categoryAttributes.delete(code);
          throw error;
        });
      this.#categoryAttributes.set(code, found);
    }
    return found;
  }

  /** Codes of the customer attributes a module or the merchant added (GET .../customer/custom). */
  customerAttributes(): Promise<Set<string>> {
    this.#customerAttributes ??= this.client
      .get('/V1/attributeMetadata/customer/custom', z.array(customerAttributeSchema))
      .then((list) => new Set(list.map((a) => a.attribute_code)))
      .catch((error: unknown) => {
        this.#customerAttributes = undefined;
        throw error;
      });
    return this.#customerAttributes;
  }

  /** Regions Magento lists for a country (GET /V1/directory/countries/{countryId}). */
  regions(countryId: string): Promise<{ id: number; code: string; name: string }[]> {
    let found = this.#regions.get(countryId);
    if (!found) {
      found = this.client
        .get(`/V1/directory/countries/${encodeURIComponent(countryId)}`, countrySchema)
        .then((c) => c.available_regions ?? [])
        .catch((error: unknown) => {
          if (error instanceof MagentoApiError && (error.status === 404 || error.status === 400))
            return [];
          this.#regions.delete(countryId);
          throw error;
        });
      this.#regions.set(countryId, found);
    }
    return found;
  }
}
