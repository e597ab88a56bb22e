import {
  MagentoError,
  invalidField,
  noSuchEntity,
  productNotFound,
  requiredField,
} from './magento-error.ts';
import {
  checkKeys,
  formatUrlKey,
  isObject,
  magentoTime,
  objectField,
  optionalArray,
  optionalBool,
  optionalInt,
  optionalNumber,
  optionalString,
  type Json,
} from './input.ts';
import {
  parseBundleOptions,
  parseCustomOptions,
  parseDownloadableLinks,
  parseDownloadableSamples,
  parseProductLinks,
  parseTierPrices,
  type DownloadableFile,
  type FileStore,
  type ProductLinkRecord,
} from './product-parts.ts';
import type { TaxClasses } from './tax.ts';

/**
 * Magento's catalogue as the REST API sees it: EAV product attributes with their options and
 * attribute sets, the category tree, products (simple and configurable, with stock items,
 * category links and media galleries) and the media files themselves. Rules enforced are the
 * ones a migration trips over: unique SKUs and URL keys, attribute values only for attributes of
 * the product's set, configurable options only on global select attributes, children that carry
 * every option value in a unique combination, and valid base64 image content.
 */

export interface AttributeOption {
  value: string;
  /** The admin (store 0) label. */
  label: string;
  sort_order: number;
  /** Labels of store views other than the admin's, by store id. */
  store_labels?: Map<number, string>;
}

/** Store ids an option label can be given for: the admin store (0) and the default view (1). */
const optionStoreIds = new Set([0, 1]);

/** Magento compares option labels case-insensitively (isAdminStoreLabelUnique). */
const sameOptionLabel = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

export interface AttributeRecord {
  attribute_id: number;
  attribute_code: string;
  frontend_input: string;
  label: string;
  is_user_defined: boolean;
  is_required: boolean;
  scope: 'global' | 'website' | 'store';
  backend_type: string;
  options: AttributeOption[];
  is_filterable: boolean;
  position: number;
  is_visible_on_front: boolean;
  /** The option new products get (an option set with is_default). */
  default_value?: string;
  /**
   * Values a select attribute takes from a source model instead of its own options (tax classes,
   * page layouts, countries): undefined for an attribute with options, 'any' when not checked.
   */
  sourceValues?: readonly string[] | 'any';
}

export interface AttributeSetRecord {
  id: number;
  name: string;
  groups: { id: number; name: string }[];
  /** attribute code -> group id */
  members: Map<string, number>;
}

export interface CategoryRecord {
  id: number;
  parent_id: number;
  name: string;
  is_active: boolean;
  position: number;
  level: number;
  path: string;
  include_in_menu: boolean;
  created_at: string;
  updated_at: string;
  custom: Record<string, string>;
  available_sort_by: string[];
}

/** A category attribute: Magento's own, or one a module or the merchant added (user-defined). */
export interface CategoryAttributeRecord {
  attribute_id: number;
  attribute_code: string;
  frontend_input: string;
  label: string;
  is_user_defined: boolean;
}

export interface MediaRecord {
  id: number;
  label: string;
  position: number;
  disabled: boolean;
  types: string[];
  file: string;
}

export interface ConfigurableOptionRecord {
  id: number;
  attribute_id: string;
  label: string;
  position: number;
  values: number[];
}

export type StockItem = Record<string, string | number | boolean>;

export interface ProductRecord {
  id: number;
  sku: string;
  name: string;
  attribute_set_id: number;
  price: number;
  status: number;
  visibility: number;
  type_id: string;
  created_at: string;
  updated_at: string;
  weight: number | null;
  custom: Record<string, string>;
  website_ids: number[];
  category_links: { category_id: string; position: number }[];
  stock: StockItem;
  media: MediaRecord[];
  configurable_options: ConfigurableOptionRecord[];
  links: number[];
  product_links: ProductLinkRecord[];
  /** Custom options, tier prices, downloadable links and samples, bundle options as answered. */
  options: Json[];
  tier_prices: Json[];
  downloadable_links: Json[];
  downloadable_samples: Json[];
  bundle_options: Json[];
}

export const productKeys = [
  'id',
  'sku',
  'name',
  'attribute_set_id',
  'price',
  'status',
  'visibility',
  'type_id',
  'created_at',
  'updated_at',
  'weight',
  'extension_attributes',
  'product_links',
  'options',
  'media_gallery_entries',
  'tier_prices',
  'custom_attributes',
] as const;

const productExtensionKeys = [
  'website_ids',
  'category_links',
  'stock_item',
  'discounts',
  'bundle_product_options',
  'downloadable_product_links',
  'downloadable_product_samples',
  'giftcard_amounts',
  'configurable_product_options',
  'configurable_product_links',
];

const stockKeys = [
  'item_id',
  'product_id',
  'stock_id',
  'qty',
  'is_in_stock',
  'is_qty_decimal',
  'show_default_notification_message',
  'use_config_min_qty',
  'min_qty',
  'use_config_min_sale_qty',
  'min_sale_qty',
  'use_config_max_sale_qty',
  'max_sale_qty',
  'use_config_backorders',
  'backorders',
  'use_config_notify_stock_qty',
  'notify_stock_qty',
  'use_config_qty_increments',
  'qty_increments',
  'use_config_enable_qty_inc',
  'enable_qty_increments',
  'use_config_manage_stock',
  'manage_stock',
  'low_stock_date',
  'is_decimal_divided',
  'stock_status_changed_auto',
  'extension_attributes',
];

const categoryKeys = [
  'id',
  'parent_id',
  'name',
  'is_active',
  'position',
  'level',
  'children',
  'created_at',
  'updated_at',
  'path',
  'available_sort_by',
  'include_in_menu',
  'extension_attributes',
  'custom_attributes',
];

const mediaEntryKeys = [
  'id',
  'media_type',
  'label',
  'position',
  'disabled',
  'types',
  'file',
  'content',
  'extension_attributes',
];

const attributeKeys = [
  'extension_attributes',
  'is_wysiwyg_enabled',
  'is_html_allowed_on_front',
  'used_for_sort_by',
  'is_filterable',
  'is_filterable_in_search',
  'is_used_in_grid',
  'is_visible_in_grid',
  'is_filterable_in_grid',
  'position',
  'apply_to',
  'is_searchable',
  'is_visible_in_advanced_search',
  'is_comparable',
  'is_used_for_promo_rules',
  'is_visible_on_front',
  'used_in_product_listing',
  'is_visible',
  'scope',
  'attribute_id',
  'attribute_code',
  'frontend_input',
  'entity_type_id',
  'is_required',
  'options',
  'is_user_defined',
  'default_frontend_label',
  'frontend_labels',
  'note',
  'backend_type',
  'backend_model',
  'source_model',
  'default_value',
  'is_unique',
  'frontend_class',
  'validation_rules',
  'custom_attributes',
];

/** The store configuration's stock settings (cataloginventory/item_options of an install). */
const stockConfiguration: Record<string, number | boolean> = {
  manage_stock: true,
  backorders: 0,
  min_qty: 0,
  min_sale_qty: 1,
  max_sale_qty: 10000,
  notify_stock_qty: 1,
  qty_increments: 1,
  enable_qty_increments: false,
};

const stockConfigFlags: [string, string][] = [
  ['use_config_manage_stock', 'manage_stock'],
  ['use_config_backorders', 'backorders'],
  ['use_config_min_qty', 'min_qty'],
  ['use_config_min_sale_qty', 'min_sale_qty'],
  ['use_config_max_sale_qty', 'max_sale_qty'],
  ['use_config_notify_stock_qty', 'notify_stock_qty'],
  ['use_config_qty_increments', 'qty_increments'],
  ['use_config_enable_qty_inc', 'enable_qty_increments'],
];

/** Product fields kept as columns, not as custom attributes. */
const staticProductFields = new Set(['sku', 'name', 'price', 'status', 'visibility', 'weight']);

const productTypes = new Set([
  'simple',
  'configurable',
  'virtual',
  'bundle',
  'grouped',
  'downloadable',
]);

const frontendInputs: Record<string, string> = {
  text: 'varchar',
  textarea: 'text',
  texteditor: 'text',
  select: 'int',
  multiselect: 'varchar',
  boolean: 'int',
  date: 'datetime',
  price: 'decimal',
  weight: 'decimal',
  media_image: 'varchar',
};

const imageTypes: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

function sniffImage(data: Buffer): string | undefined {
  if (data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'image/png';
  if (data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'image/jpeg';
  if (data.subarray(0, 3).toString('ascii') === 'GIF') return 'image/gif';
  if (
    data.subarray(0, 4).toString('ascii') === 'RIFF' &&
    data.subarray(8, 12).toString('ascii') === 'WEBP'
  )
    return 'image/webp';
  return undefined;
}

/** The store's root catalogue ids, as on every Magento installation. */
export const ROOT_CATALOG_ID = 1;
export const DEFAULT_CATEGORY_ID = 2;
export const DEFAULT_ATTRIBUTE_SET_ID = 4;

export class Catalog {
  readonly attributes = new Map<string, AttributeRecord>();
  readonly attributeSets = new Map<number, AttributeSetRecord>();
  readonly categories = new Map<number, CategoryRecord>();
  readonly products = new Map<number, ProductRecord>();
  readonly #bySku = new Map<string, number>();
  readonly #byUrlKey = new Map<string, number>();
  /** Uploaded media files by path under /media/catalog/product. */
  readonly files = new Map<string, { data: Buffer; type: string }>();
  /** Paths of seeded images, rendered on demand. */
  readonly seededFiles = new Set<string>();
  #nextAttributeId = 1;
  #nextOptionId = 1;
  #nextCategoryId = 3;
  #nextProductId = 1;
  #nextMediaId = 1;
  #nextOptionRecordId = 1;
  #nextSetId = 9;
  #nextGroupId = 20;
  #nextStockItemId = 1;
  #nextPartId = 1;
  readonly #tax: TaxClasses;
  /** Category attributes by code: Magento's own and those added by modules or the merchant. */
  readonly categoryAttributes = new Map<string, CategoryAttributeRecord>();
  /**
   * Hosts downloadable URL links may point at (env.php downloadable_domains; the installer adds
   * the store's own host).
   */
  readonly downloadableDomains = new Set(['127.0.0.1', 'localhost']);
  /** Uploaded downloadable files by kind and path under pub/media/downloadable/files. */
  readonly downloadableFiles = new Map<string, DownloadableFile>();
  readonly #fileStore: FileStore = {
    store: (kind, file) => {
      const base = file.name.toLowerCase().replace(/[^a-z0-9._-]+/g, '_') || 'file';
      let path = `/${base[0] ?? 'f'}/${base[1] ?? '_'}/${base}`;
      for (let n = 1; this.downloadableFiles.has(`${kind}${path}`); n++)
        path = `/${base[0] ?? 'f'}/${base[1] ?? '_'}/${base.replace(/(\.[^.]*)?$/, `_${n}$1`)}`;
      this.downloadableFiles.set(`${kind}${path}`, file);
      return path;
    },
    has: (kind, path) => this.downloadableFiles.has(`${kind}${path}`),
  };

  constructor(tax: TaxClasses) {
    this.#tax = tax;
    const now = magentoTime();
    this.categories.set(ROOT_CATALOG_ID, {
      id: ROOT_CATALOG_ID,
      parent_id: 0,
      name: 'Root Catalog',
      is_active: true,
      position: 0,
      level: 0,
      path: '1',
      include_in_menu: true,
      created_at: now,
      updated_at: now,
      custom: {},
      available_sort_by: [],
    });
    this.categories.set(DEFAULT_CATEGORY_ID, {
      id: DEFAULT_CATEGORY_ID,
      parent_id: ROOT_CATALOG_ID,
      name: 'Default Category',
      is_active: true,
      position: 1,
      level: 1,
      path: '1/2',
      include_in_menu: true,
      created_at: now,
      updated_at: now,
      custom: { url_key: 'default-category', display_mode: 'PRODUCTS', is_anchor: '1' },
      available_sort_by: [],
    });
    this.attributeSets.set(DEFAULT_ATTRIBUTE_SET_ID, {
      id: DEFAULT_ATTRIBUTE_SET_ID,
      name: 'Default',
      groups: [
        { id: 7, name: 'Product Details' },
        { id: 8, name: 'Content' },
        { id: 9, name: 'Search Engine Optimization' },
        { id: 10, name: 'Images' },
      ],
      members: new Map(),
    });
    // The attributes of a fresh installation that the API exposes on products. Selects backed by
    // a source model (tax classes, layouts, countries) take the source's values, not options.
    const any = 'any' as const;
    const system: [string, string, string, number, (readonly string[] | 'any')?][] = [
      ['name', 'Product Name', 'text', 7],
      ['sku', 'SKU', 'text', 7],
      ['price', 'Price', 'price', 7],
      ['status', 'Enable Product', 'boolean', 7],
      ['visibility', 'Visibility', 'select', 7, any],
      ['weight', 'Weight', 'weight', 7],
      ['tax_class_id', 'Tax Class', 'select', 7, any],
      ['special_price', 'Special Price', 'price', 7],
      ['special_from_date', 'Special Price From Date', 'date', 7],
      ['special_to_date', 'Special Price To Date', 'date', 7],
      ['cost', 'Cost', 'price', 7],
      ['msrp', 'Minimum Advertised Price', 'price', 7],
      ['msrp_display_actual_price_type', 'Display Actual Price', 'select', 7, ['0', '1', '2', '3']],
      ['news_from_date', 'Set Product as New from Date', 'date', 7],
      ['news_to_date', 'Set Product as New to Date', 'date', 7],
      ['country_of_manufacture', 'Country of Manufacture', 'select', 7, any],
      ['gift_message_available', 'Allow Gift Message', 'boolean', 7],
      ['links_purchased_separately', 'Links can be purchased separately', 'boolean', 7],
      ['links_title', 'Links title', 'text', 7],
      ['samples_title', 'Samples title', 'text', 7],
      ['description', 'Description', 'textarea', 8],
      ['short_description', 'Short Description', 'textarea', 8],
      ['url_key', 'URL Key', 'text', 9],
      ['meta_title', 'Meta Title', 'text', 9],
      ['meta_keyword', 'Meta Keywords', 'textarea', 9],
      ['meta_description', 'Meta Description', 'textarea', 9],
      ['image', 'Base', 'media_image', 10],
      ['small_image', 'Small', 'media_image', 10],
      ['thumbnail', 'Thumbnail', 'media_image', 10],
      ['swatch_image', 'Swatch', 'media_image', 10],
      [
        'page_layout',
        'Layout',
        'select',
        7,
        ['', 'empty', '1column', '2columns-left', '2columns-right', '3columns'],
      ],
      [
        'options_container',
        'Display Product Options In',
        'select',
        7,
        ['container1', 'container2'],
      ],
    ];
    for (const [code, label, input, group, sourceValues] of system) {
      const record = this.#addAttribute({ code, label, input, userDefined: false, scope: 'store' });
      if (sourceValues) record.sourceValues = sourceValues;
      this.attributeSets.get(DEFAULT_ATTRIBUTE_SET_ID)?.members.set(code, group);
    }
    // color and manufacturer ship with Magento as global select attributes in the Default set.
    for (const [code, label] of [
      ['color', 'Color'],
      ['manufacturer', 'Manufacturer'],
    ] as const) {
      this.#addAttribute({ code, label, input: 'select', userDefined: true, scope: 'global' });
      this.attributeSets.get(DEFAULT_ATTRIBUTE_SET_ID)?.members.set(code, 7);
    }
    // Category attributes the REST API exposes as custom attributes.
    const categorySystem: [string, string, string][] = [
      ['description', 'Description', 'textarea'],
      ['image', 'Image', 'image'],
      ['meta_title', 'Page Title', 'text'],
      ['meta_keywords', 'Meta Keywords', 'textarea'],
      ['meta_description', 'Meta Description', 'textarea'],
      ['display_mode', 'Display Mode', 'select'],
      ['landing_page', 'CMS Block', 'select'],
      ['is_anchor', 'Anchor', 'select'],
      ['url_key', 'URL Key', 'text'],
      ['url_path', 'Url Path', 'text'],
      ['path', 'Path', 'text'],
      ['children_count', 'Children Count', 'text'],
      ['custom_use_parent_settings', 'Use Parent Category Settings', 'select'],
      ['custom_apply_to_products', 'Apply To Products', 'select'],
      ['custom_design', 'Theme', 'select'],
      ['custom_design_from', 'Active From', 'date'],
      ['custom_design_to', 'Active To', 'date'],
      ['page_layout', 'Layout', 'select'],
      ['custom_layout_update_file', 'Custom Layout Update', 'select'],
      ['default_sort_by', 'Default Product Listing Sort By', 'select'],
      ['filter_price_range', 'Layered Navigation Price Step', 'text'],
    ];
    for (const [code, label, input] of categorySystem)
      this.#addCategoryAttribute(code, label, input, false);
  }

  #addCategoryAttribute(
    code: string,
    label: string,
    input: string,
    userDefined: boolean,
  ): CategoryAttributeRecord {
    const record: CategoryAttributeRecord = {
      attribute_id: 100 + this.categoryAttributes.size,
      attribute_code: code,
      frontend_input: input,
      label,
      is_user_defined: userDefined,
    };
    this.categoryAttributes.set(code, record);
    return record;
  }

  /**
   * A category attribute a module or the merchant added (Magento's REST API cannot create one:
   * it comes with the installation).
   */
  installCategoryAttribute(code: string, label: string, input = 'text'): void {
    if (!this.categoryAttributes.has(code)) this.#addCategoryAttribute(code, label, input, true);
  }

  getCategoryAttribute(code: string): CategoryAttributeRecord {
    const found = this.categoryAttributes.get(code);
    if (!found) {
      throw new MagentoError(
        404,
        'The attribute with a "%1" attributeCode doesn\'t exist. Verify the attribute and try again.',
        [code],
      );
    }
    return found;
  }

  categoryAttributeJson(a: CategoryAttributeRecord): Json {
    return {
      attribute_id: a.attribute_id,
      attribute_code: a.attribute_code,
      frontend_input: a.frontend_input,
      entity_type_id: '3',
      is_required: false,
      is_user_defined: a.is_user_defined,
      default_frontend_label: a.label,
      frontend_labels: [],
      options: [],
      scope: 'store',
      validation_rules: [],
    };
  }

  // ---------------------------------------------------------------- attributes

  #addAttribute(spec: {
    code: string;
    label: string;
    input: string;
    userDefined: boolean;
    scope: AttributeRecord['scope'];
  }): AttributeRecord {
    const record: AttributeRecord = {
      attribute_id: this.#nextAttributeId++,
      attribute_code: spec.code,
      frontend_input: spec.input,
      label: spec.label,
      is_user_defined: spec.userDefined,
      is_required: spec.code === 'name' || spec.code === 'sku' || spec.code === 'price',
      scope: spec.scope,
      backend_type: frontendInputs[spec.input] ?? 'varchar',
      options: [],
      is_filterable: spec.input === 'select' || spec.input === 'multiselect',
      position: 0,
      is_visible_on_front: false,
    };
    this.attributes.set(spec.code, record);
    return record;
  }

  /** For seeding: an attribute (created when missing) that belongs to every attribute set. */
  seedAttribute(
    code: string,
    label: string,
    input: string,
    scope: AttributeRecord['scope'] = 'global',
    visibleOnFront = false,
  ): AttributeRecord {
    let record = this.attributes.get(code);
    if (!record) {
      record = this.#addAttribute({ code, label, input, userDefined: true, scope });
      record.is_visible_on_front = visibleOnFront;
    }
    for (const set of this.attributeSets.values()) {
      if (!set.members.has(code)) set.members.set(code, set.groups[0]?.id ?? 7);
    }
    return record;
  }

  /** For seeding: the option id of a label, created when missing. */
  seedOption(code: string, label: string): string {
    const attribute = this.attributes.get(code);
    if (!attribute) throw new Error(`unknown attribute ${code}`);
    const found = attribute.options.find((o) => o.label === label);
    if (found) return found.value;
    const option = {
      value: String(this.#nextOptionId++),
      label,
      sort_order: attribute.options.length,
    };
    attribute.options.push(option);
    return option.value;
  }

  /** For seeding: a further attribute set with the Default set's attributes. */
  seedAttributeSet(name: string): AttributeSetRecord {
    const existing = [...this.attributeSets.values()].find((s) => s.name === name);
    if (existing) return existing;
    const base = this.attributeSets.get(DEFAULT_ATTRIBUTE_SET_ID);
    const groups = (base?.groups ?? []).map((g) => ({ id: this.#nextGroupId++, name: g.name }));
    const groupMap = new Map((base?.groups ?? []).map((g, i) => [g.id, groups[i]?.id ?? 0]));
    const set: AttributeSetRecord = {
      id: this.#nextSetId++,
      name,
      groups,
      members: new Map(
        [...(base?.members ?? [])].map(([code, group]) => [code, groupMap.get(group) ?? 0]),
      ),
    };
    this.attributeSets.set(set.id, set);
    return set;
  }

  getAttribute(code: string): AttributeRecord {
    const attribute = this.attributes.get(code);
    if (!attribute) {
      throw new MagentoError(
        404,
        'The attribute with a "%1" attributeCode doesn\'t exist. Verify the attribute and try again.',
        [code],
      );
    }
    return attribute;
  }

  attributeById(id: string | number): AttributeRecord | undefined {
    return [...this.attributes.values()].find((a) => a.attribute_id === Number(id));
  }

  attributeJson(a: AttributeRecord): Json {
    // The tax class attribute's options come from its source model: "None" and the product
    // tax classes.
    const taxOptions = () => [
      { label: 'None', value: '0' },
      ...[...this.#tax.classes.values()]
        .filter((c) => c.class_type === 'PRODUCT')
        .map((c) => ({ label: c.class_name, value: String(c.class_id) })),
    ];
    const options =
      a.attribute_code === 'tax_class_id'
        ? taxOptions()
        : a.frontend_input === 'select' || a.frontend_input === 'multiselect'
          ? [
              // Magento lists an empty "no value" option first for select attributes.
              { label: ' ', value: '' },
              // Listed by sort order (options of equal order by id), as Magento's source model.
              ...[...a.options]
                .sort((x, y) => x.sort_order - y.sort_order || Number(x.value) - Number(y.value))
                .map((o) => ({
                  label: o.label,
                  value: o.value,
                  sort_order: o.sort_order,
                  ...(o.store_labels?.size
                    ? {
                        store_labels: [...o.store_labels].map(([store_id, label]) => ({
                          store_id,
                          label,
                        })),
                      }
                    : {}),
                })),
            ]
          : [];
    return {
      attribute_id: a.attribute_id,
      attribute_code: a.attribute_code,
      frontend_input: a.frontend_input,
      entity_type_id: '4',
      is_required: a.is_required,
      options,
      is_user_defined: a.is_user_defined,
      default_frontend_label: a.label,
      frontend_labels: [],
      ...(a.default_value === undefined ? {} : { default_value: a.default_value }),
      backend_type: a.backend_type,
      is_unique: '0',
      scope: a.scope,
      is_filterable: a.is_filterable,
      is_filterable_in_search: false,
      is_visible: true,
      is_visible_on_front: a.is_visible_on_front ? '1' : '0',
      position: a.position,
      validation_rules: [],
    };
  }

  createAttribute(body: Json): AttributeRecord {
    if (body.attribute === undefined) throw requiredField('attribute');
    const input = objectField(
      body.attribute,
      'Magento\\Catalog\\Api\\Data\\ProductAttributeInterface',
    );
    checkKeys(input, attributeKeys, 'Magento\\Catalog\\Api\\Data\\ProductAttributeInterface');
    const labels = optionalArray(input.frontend_labels, 'frontend_labels') ?? [];
    const adminLabel = labels
      .filter(isObject)
      .find((l) => optionalInt(l.store_id) === 0 || l.store_id === undefined);
    const label =
      optionalString(input.default_frontend_label) ?? optionalString(adminLabel?.label) ?? '';
    if (!label) throw requiredField('frontend_label');
    const code = optionalString(input.attribute_code) ?? formatUrlKey(label).replace(/-/g, '_');
    if (!/^[a-z][a-z_0-9]{0,59}$/.test(code)) {
      throw new MagentoError(
        400,
        'Attribute code "%1" is invalid. Please use only letters (a-z or A-Z), numbers (0-9) or underscore (_) in this field, and the first character should be a letter.',
        [code],
      );
    }
    if (this.attributes.has(code)) {
      throw new MagentoError(400, 'An attribute with the same code (%1) already exists.', [code]);
    }
    const frontendInput = optionalString(input.frontend_input);
    if (!frontendInput) throw requiredField('frontend_input');
    if (!(frontendInput in frontendInputs)) throw invalidField('frontend_input', frontendInput);
    const scope = optionalString(input.scope) ?? 'global';
    if (scope !== 'global' && scope !== 'website' && scope !== 'store') {
      throw invalidField('scope', scope);
    }
    const record = this.#addAttribute({
      code,
      label,
      input: frontendInput,
      userDefined: true,
      scope,
    });
    record.is_required = optionalBool(input.is_required) ?? false;
    record.is_filterable = optionalBool(input.is_filterable) ?? record.is_filterable;
    record.is_visible_on_front = optionalBool(input.is_visible_on_front) ?? false;
    for (const option of optionalArray(input.options, 'options') ?? []) {
      if (!isObject(option)) continue;
      const optionLabel = optionalString(option.label)?.trim();
      if (optionLabel) this.seedOption(code, optionLabel);
    }
    return record;
  }

  /** An option attribute (select or multiselect), as the option routes require. */
  #optionAttribute(code: string): AttributeRecord {
    const attribute = this.getAttribute(code);
    if (attribute.frontend_input !== 'select' && attribute.frontend_input !== 'multiselect') {
      throw new MagentoError(400, 'The "%1" attribute doesn\'t work with options.', [code]);
    }
    return attribute;
  }

  /**
   * The option of an eav-data-attribute-option-interface body: its admin label (trimmed; the
   * store 0 entry of store_labels when label is empty), sort order, default flag and the labels
   * of other store views.
   */
  #optionInput(attribute: AttributeRecord, body: Json, except?: string) {
    if (body.option === undefined) throw requiredField('option');
    const option = objectField(body.option, 'Magento\\Eav\\Api\\Data\\AttributeOptionInterface');
    checkKeys(
      option,
      ['label', 'value', 'sort_order', 'is_default', 'store_labels'],
      'Magento\\Eav\\Api\\Data\\AttributeOptionInterface',
    );
    const storeLabels = new Map<number, string>();
    for (const entry of optionalArray(option.store_labels, 'store_labels') ?? []) {
      const item = objectField(entry, 'Magento\\Eav\\Api\\Data\\AttributeOptionLabelInterface');
      checkKeys(
        item,
        ['store_id', 'label'],
        'Magento\\Eav\\Api\\Data\\AttributeOptionLabelInterface',
      );
      const storeId = optionalInt(item.store_id) ?? 0;
      if (!optionStoreIds.has(storeId)) {
        throw new MagentoError(
          404,
          "The store that was requested wasn't found. Verify the store and try again.",
        );
      }
      const text = optionalString(item.label)?.trim() ?? '';
      if (text) storeLabels.set(storeId, text);
    }
    const label = optionalString(option.label)?.trim() || storeLabels.get(0) || '';
    if (!label) {
      throw new MagentoError(
        400,
        'The attribute option label is empty. Enter the value and try again.',
      );
    }
    if (attribute.options.some((o) => o.value !== except && sameOptionLabel(o.label, label))) {
      throw new MagentoError(400, 'Admin store attribute option label "%1" is already exists.', [
        label,
      ]);
    }
    storeLabels.delete(0);
    return {
      label,
      sortOrder: optionalInt(option.sort_order),
      isDefault: optionalBool(option.is_default) ?? false,
      storeLabels,
    };
  }

  #findOption(attribute: AttributeRecord, optionId: string): AttributeOption {
    const found = attribute.options.find((o) => o.value === optionId);
    if (!found) {
      throw new MagentoError(404, 'The "%1" attribute doesn\'t include an option with "%2" ID.', [
        attribute.attribute_code,
        optionId,
      ]);
    }
    return found;
  }

  /** POST /V1/products/attributes/{attributeCode}/options: the new option's id, as "id_<id>". */
  addAttributeOption(code: string, body: Json): string {
    const attribute = this.#optionAttribute(code);
    const input = this.#optionInput(attribute, body);
    const value = this.seedOption(code, input.label);
    const stored = this.#findOption(attribute, value);
    if (input.sortOrder !== undefined) stored.sort_order = input.sortOrder;
    if (input.storeLabels.size) stored.store_labels = input.storeLabels;
    if (input.isDefault) attribute.default_value = value;
    return `id_${value}`;
  }

  /** PUT /V1/products/attributes/{attributeCode}/options/{optionId}: true. */
  updateAttributeOption(code: string, optionId: string, body: Json): boolean {
    const attribute = this.#optionAttribute(code);
    const stored = this.#findOption(attribute, optionId);
    const input = this.#optionInput(attribute, body, optionId);
    stored.label = input.label;
    if (input.sortOrder !== undefined) stored.sort_order = input.sortOrder;
    // The option's labels are saved anew: store view labels not given are removed.
    if (input.storeLabels.size) stored.store_labels = input.storeLabels;
    else delete stored.store_labels;
    if (input.isDefault) attribute.default_value = optionId;
    else if (attribute.default_value === optionId) delete attribute.default_value;
    return true;
  }

  /**
   * DELETE /V1/products/attributes/{attributeCode}/options/{optionId}: true; products that had
   * the option keep no value for the attribute.
   */
  deleteAttributeOption(code: string, optionId: string): boolean {
    const attribute = this.#optionAttribute(code);
    const stored = this.#findOption(attribute, optionId);
    attribute.options = attribute.options.filter((o) => o !== stored);
    if (attribute.default_value === optionId) delete attribute.default_value;
    for (const product of this.products.values()) {
      const value = product.custom[code];
      if (value === undefined) continue;
      const kept = value.split(',').filter((v) => v !== optionId);
      if (kept.length) product.custom[code] = kept.join(',');
      else delete product.custom[code];
    }
    return true;
  }

  // ---------------------------------------------------------------- attribute sets

  attributeSetJson(s: AttributeSetRecord): Json {
    return { attribute_set_id: s.id, attribute_set_name: s.name, sort_order: 0, entity_type_id: 4 };
  }

  attributeGroups(): Json[] {
    return [...this.attributeSets.values()].flatMap((s) =>
      s.groups.map((g) => ({
        attribute_group_id: String(g.id),
        attribute_group_name: g.name,
        attribute_set_id: s.id,
      })),
    );
  }

  getAttributeSet(id: number): AttributeSetRecord {
    const set = this.attributeSets.get(id);
    if (!set) throw noSuchEntity('id', id);
    return set;
  }

  assignAttribute(body: Json): number {
    for (const key of ['attributeSetId', 'attributeGroupId', 'attributeCode', 'sortOrder']) {
      if (body[key] === undefined) throw requiredField(key);
    }
    const set = this.getAttributeSet(optionalInt(body.attributeSetId) ?? 0);
    const groupId = optionalInt(body.attributeGroupId) ?? 0;
    if (!set.groups.some((g) => g.id === groupId)) throw noSuchEntity('attributeGroupId', groupId);
    const attribute = this.getAttribute(optionalString(body.attributeCode) ?? '');
    set.members.set(attribute.attribute_code, groupId);
    return attribute.attribute_id;
  }

  // ---------------------------------------------------------------- categories

  getCategory(id: number): CategoryRecord {
    const category = this.categories.get(id);
    if (!category) throw noSuchEntity('id', id);
    return category;
  }

  childrenOf(id: number): CategoryRecord[] {
    return [...this.categories.values()]
      .filter((c) => c.parent_id === id)
      .sort((a, b) => a.position - b.position || a.id - b.id);
  }

  #urlPath(parent: CategoryRecord, urlKey: string): string {
    const parentPath = parent.level >= 2 ? parent.custom.url_path : undefined;
    return parentPath ? `${parentPath}/${urlKey}` : urlKey;
  }

  categoryJson(c: CategoryRecord): Json {
    const children = this.childrenOf(c.id);
    const custom: Record<string, string> = {
      ...c.custom,
      path: c.path,
      children_count: String(this.#descendants(c.id)),
    };
    return {
      id: c.id,
      parent_id: c.parent_id,
      name: c.name,
      is_active: c.is_active,
      position: c.position,
      level: c.level,
      children: children.map((k) => k.id).join(','),
      created_at: c.created_at,
      updated_at: c.updated_at,
      path: c.path,
      available_sort_by: [...c.available_sort_by],
      include_in_menu: c.include_in_menu,
      custom_attributes: Object.entries(custom).map(([attribute_code, value]) => ({
        attribute_code,
        value,
      })),
    };
  }

  #descendants(id: number): number {
    return this.childrenOf(id).reduce((sum, c) => sum + 1 + this.#descendants(c.id), 0);
  }

  categoryTree(rootId: number, depth: number | undefined): Json {
    const node = (c: CategoryRecord, remaining: number | undefined): Json => ({
      id: c.id,
      parent_id: c.parent_id,
      name: c.name,
      is_active: c.is_active,
      position: c.position,
      level: c.level,
      product_count: [...this.products.values()].filter((p) =>
        p.category_links.some((l) => l.category_id === String(c.id)),
      ).length,
      children_data:
        remaining === 0
          ? []
          : this.childrenOf(c.id).map((k) =>
              node(k, remaining === undefined ? undefined : remaining - 1),
            ),
    });
    return node(this.getCategory(rootId), depth);
  }

  saveCategory(body: Json, existingId?: number): CategoryRecord {
    if (body.category === undefined) throw requiredField('category');
    const input = objectField(body.category, 'Magento\\Catalog\\Api\\Data\\CategoryInterface');
    checkKeys(input, categoryKeys, 'Magento\\Catalog\\Api\\Data\\CategoryInterface');
    const custom = this.#customAttributes(input.custom_attributes);
    const existing = existingId === undefined ? undefined : this.getCategory(existingId);
    const now = magentoTime();
    const name = optionalString(input.name)?.trim() ?? existing?.name ?? '';
    if (!name) {
      throw new MagentoError(400, 'Could not save category: %1', [
        'The "Name" attribute value is empty. Set the attribute and try again.',
      ]);
    }
    // A PUT cannot move a category (Magento has /V1/categories/{id}/move for that).
    const parentId = existing?.parent_id ?? optionalInt(input.parent_id) ?? DEFAULT_CATEGORY_ID;
    const parent = this.categories.get(parentId);
    if (!parent) throw noSuchEntity('id', parentId);
    const urlKey = formatUrlKey(custom.url_key ?? existing?.custom.url_key ?? name);
    if (!urlKey) throw invalidField('url_key', custom.url_key ?? '');
    const urlPath = this.#urlPath(parent, urlKey);
    const clash = [...this.categories.values()].find(
      (c) => c.id !== existing?.id && c.level >= 2 && c.custom.url_path === urlPath,
    );
    if (clash) throw new MagentoError(400, 'URL key for specified store already exists.');
    const siblings = this.childrenOf(parentId).filter((c) => c.id !== existing?.id);
    const record: CategoryRecord = existing ?? {
      id: this.#nextCategoryId++,
      parent_id: parentId,
      name,
      is_active: true,
      position: (siblings.at(-1)?.position ?? 0) + 1,
      level: parent.level + 1,
      path: '',
      include_in_menu: true,
      created_at: now,
      updated_at: now,
      custom: {},
      available_sort_by: [],
    };
    record.name = name;
    record.is_active = optionalBool(input.is_active) ?? record.is_active;
    record.include_in_menu = optionalBool(input.include_in_menu) ?? record.include_in_menu;
    record.position = optionalInt(input.position) ?? record.position;
    const sortBy = optionalArray(input.available_sort_by, 'available_sort_by');
    if (sortBy) record.available_sort_by = sortBy.map((v) => optionalString(v) ?? '');
    record.path = `${parent.path}/${record.id}`;
    record.updated_at = now;
    const { url_path: _ignored, path: _path, children_count: _count, ...sent } = custom;
    // Values of attributes the installation does not have are dropped, as EAV does.
    const rest = Object.fromEntries(
      Object.entries(sent).filter(([code]) => this.categoryAttributes.has(code)),
    );
    // An empty value removes the attribute's value (EAV deletes the row).
    const emptied = Object.keys(rest).filter((code) => rest[code] === '');
    for (const code of emptied) delete rest[code];
    record.custom = {
      display_mode: 'PRODUCTS',
      is_anchor: '1',
      ...record.custom,
      ...rest,
      url_key: urlKey,
      url_path: urlPath,
    };
    for (const code of emptied) delete record.custom[code];
    this.categories.set(record.id, record);
    return record;
  }

  /**
   * DELETE /V1/categories/{categoryId}: true. The category goes with its whole subtree, and
   * products lose their links to every category removed (catalog_category_product cascades);
   * the products themselves stay. The tree root and the store roots (level 0 and 1) are refused,
   * as Magento refuses them ("Can't delete root category", reported by the repository as
   * "Cannot delete category with id %1").
   */
  deleteCategory(id: number): boolean {
    const category = this.getCategory(id);
    if (category.level <= 1)
      throw new MagentoError(400, 'Cannot delete category with id %1', [category.id]);
    const removed = new Set<string>();
    const drop = (c: CategoryRecord) => {
      for (const child of this.childrenOf(c.id)) drop(child);
      this.categories.delete(c.id);
      removed.add(String(c.id));
    };
    drop(category);
    for (const product of this.products.values()) {
      product.category_links = product.category_links.filter((l) => !removed.has(l.category_id));
    }
    return true;
  }

  categoryField = (c: CategoryRecord, field: string): string | number | boolean | undefined => {
    switch (field) {
      case 'entity_id':
      case 'id':
        return c.id;
      case 'parent_id':
      case 'name':
      case 'is_active':
      case 'position':
      case 'level':
      case 'path':
      case 'include_in_menu':
      case 'created_at':
      case 'updated_at':
        return c[field];
      default:
        if (field in c.custom || this.#isCategoryAttribute(field)) return c.custom[field];
        throw new MagentoError(400, 'Invalid attribute name: %1', [field]);
    }
  };

  #isCategoryAttribute(field: string): boolean {
    return this.categoryAttributes.has(field);
  }

  // ---------------------------------------------------------------- products

  productBySku(sku: string): ProductRecord {
    const id = this.#bySku.get(sku.toLowerCase());
    const product = id === undefined ? undefined : this.products.get(id);
    if (!product) throw productNotFound();
    return product;
  }

  hasSku(sku: string): boolean {
    return this.#bySku.has(sku.toLowerCase());
  }

  /**
   * POST /V1/products/{sku}/links: ProductLinkManagementInterface::setProductLinks, which replaces
   * the product's links of the types it is sent and keeps its other links.
   */
  setProductLinks(sku: string, body: Json): boolean {
    const product = this.productBySku(sku);
    if (body.items === undefined) throw requiredField('items');
    const skuOf = (wanted: string) => {
      const found = this.#bySku.get(wanted.toLowerCase());
      return found === undefined ? undefined : this.products.get(found)?.sku;
    };
    const links = parseProductLinks(body.items, product.sku, skuOf);
    if (links.some((l) => l.link_type === 'associated') && product.type_id !== 'grouped')
      throw new MagentoError(400, 'Only a grouped product has associated products.');
    const types = new Set(links.map((l) => l.link_type));
    product.product_links = [
      ...product.product_links.filter((l) => !types.has(l.link_type)),
      ...links,
    ];
    product.updated_at = magentoTime();
    return true;
  }

  /**
   * DELETE /V1/products/{sku}: the product goes, with its links from other products and from
   * configurable parents; orders keep their lines (sales_order_item has no key to the product).
   */
  deleteProduct(sku: string): boolean {
    const product = this.productBySku(sku);
    this.products.delete(product.id);
    this.#bySku.delete(product.sku.toLowerCase());
    if (product.custom.url_key) this.#byUrlKey.delete(product.custom.url_key);
    for (const other of this.products.values()) {
      other.links = other.links.filter((id) => id !== product.id);
      other.product_links = other.product_links.filter(
        (l) => l.linked_sku.toLowerCase() !== product.sku.toLowerCase(),
      );
    }
    return true;
  }

  #customAttributes(value: unknown): Record<string, string> {
    const out: Record<string, string> = {};
    for (const item of optionalArray(value, 'custom_attributes') ?? []) {
      const attribute = objectField(item, 'Magento\\Framework\\Api\\AttributeInterface');
      checkKeys(
        attribute,
        ['attribute_code', 'value'],
        'Magento\\Framework\\Api\\AttributeInterface',
      );
      const code = optionalString(attribute.attribute_code);
      if (!code) throw requiredField('attribute_code');
      const raw = attribute.value;
      out[code] = Array.isArray(raw) ? raw.map(String).join(',') : (optionalString(raw) ?? '');
    }
    return out;
  }

  defaultStock(productId: number): StockItem {
    return {
      item_id: this.#nextStockItemId++,
      product_id: productId,
      stock_id: 1,
      qty: 0,
      is_in_stock: false,
      is_qty_decimal: false,
      show_default_notification_message: false,
      use_config_min_qty: true,
      min_qty: 0,
      use_config_min_sale_qty: 1,
      min_sale_qty: 1,
      use_config_max_sale_qty: true,
      max_sale_qty: 10000,
      use_config_backorders: true,
      backorders: 0,
      use_config_notify_stock_qty: true,
      notify_stock_qty: 1,
      use_config_qty_increments: true,
      qty_increments: 0,
      use_config_enable_qty_inc: true,
      enable_qty_increments: false,
      use_config_manage_stock: true,
      manage_stock: true,
      low_stock_date: '',
      is_decimal_divided: false,
      stock_status_changed_auto: 0,
    };
  }

  /**
   * POST /V1/products and PUT /V1/products/{sku}: Magento's ProductRepository::save, which
   * creates or updates by SKU (a POST with an existing SKU updates that product, a PUT with an
   * unknown SKU creates one).
   */
  saveProduct(body: Json, pathSku?: string): { product: ProductRecord; created: boolean } {
    if (body.product === undefined) throw requiredField('product');
    const input = objectField(body.product, 'Magento\\Catalog\\Api\\Data\\ProductInterface');
    checkKeys(input, productKeys, 'Magento\\Catalog\\Api\\Data\\ProductInterface');
    const sku = (optionalString(input.sku) ?? pathSku ?? '').trim();
    if (!sku) throw requiredField('sku');
    if (sku.length > 64) {
      throw new MagentoError(400, 'SKU length should be %1 characters maximum.', [64]);
    }
    const lookup = pathSku ?? sku;
    const existing = this.hasSku(lookup) ? this.productBySku(lookup) : undefined;
    if (existing && sku.toLowerCase() !== existing.sku.toLowerCase() && this.hasSku(sku)) {
      throw new MagentoError(400, 'The SKU "%1" is already used by another product.', [sku]);
    }
    const custom = this.#customAttributes(input.custom_attributes);
    const typeId = optionalString(input.type_id) ?? existing?.type_id ?? 'simple';
    if (!productTypes.has(typeId)) throw invalidField('type_id', typeId);
    const name = optionalString(input.name) ?? custom.name ?? existing?.name ?? '';
    if (!name.trim()) {
      throw new MagentoError(
        400,
        'The "%1" attribute value is empty. Set the attribute and try again.',
        ['Product Name'],
      );
    }
    const price = optionalNumber(input.price) ?? existing?.price;
    if (
      price === undefined &&
      typeId !== 'configurable' &&
      typeId !== 'bundle' &&
      typeId !== 'grouped'
    ) {
      throw new MagentoError(
        400,
        'The "%1" attribute value is empty. Set the attribute and try again.',
        ['Price'],
      );
    }
    const setId =
      optionalInt(input.attribute_set_id) ?? existing?.attribute_set_id ?? DEFAULT_ATTRIBUTE_SET_ID;
    const set = this.attributeSets.get(setId);
    if (!set) throw invalidField('attribute_set_id', setId);
    const status = optionalInt(input.status) ?? existing?.status ?? 1;
    if (status !== 1 && status !== 2) throw invalidField('status', status);
    const visibility = optionalInt(input.visibility) ?? existing?.visibility ?? 4;
    if (visibility < 1 || visibility > 4) throw invalidField('visibility', visibility);

    const extension =
      input.extension_attributes === undefined
        ? {}
        : objectField(
            input.extension_attributes,
            'Magento\\Catalog\\Api\\Data\\ProductExtensionInterface',
          );
    checkKeys(
      extension,
      productExtensionKeys,
      'Magento\\Catalog\\Api\\Data\\ProductExtensionInterface',
    );

    const id = existing?.id ?? this.#nextProductId;
    // Values only count for attributes of the product's set; Magento drops the others.
    const values: Record<string, string> = { ...(existing?.custom ?? {}) };
    for (const [code, value] of Object.entries(custom)) {
      if (staticProductFields.has(code)) continue;
      if (!this.attributes.has(code) || !set.members.has(code)) continue;
      const attribute = this.getAttribute(code);
      if (
        attribute.frontend_input === 'select' &&
        value !== '' &&
        !this.#selectable(attribute, value)
      )
        throw invalidField(code, value);
      // An empty value removes the attribute's value (EAV deletes the row).
      if (value === '') delete values[code];
      else values[code] = value;
    }
    if (!existing) {
      // Attribute defaults a new product gets (catalog_product_entity defaults of the install).
      const defaults: Record<string, string> = {
        options_container: 'container2',
        msrp_display_actual_price_type: '0',
        ...(typeId === 'grouped' ? {} : { tax_class_id: '2' }),
      };
      for (const [code, value] of Object.entries(defaults))
        if (values[code] === undefined && set.members.has(code)) values[code] = value;
    }
    const urlKey = formatUrlKey(values.url_key ?? existing?.custom.url_key ?? name);
    const owner = this.#byUrlKey.get(urlKey);
    if (owner !== undefined && owner !== id) {
      throw new MagentoError(400, 'URL key for specified store already exists.');
    }
    values.url_key = urlKey;

    const categoryLinks =
      this.#categoryLinks(extension.category_links) ?? existing?.category_links ?? [];
    const websiteIds = (
      optionalArray(extension.website_ids, 'website_ids') ??
      existing?.website_ids ?? [1]
    ).map((w) => optionalInt(w) ?? 0);
    for (const w of websiteIds) if (w !== 1) throw noSuchEntity('websiteId', w);

    const stock: StockItem = existing ? { ...existing.stock } : this.defaultStock(id);
    if (extension.stock_item !== undefined) {
      const item = objectField(
        extension.stock_item,
        'Magento\\CatalogInventory\\Api\\Data\\StockItemInterface',
      );
      checkKeys(item, stockKeys, 'Magento\\CatalogInventory\\Api\\Data\\StockItemInterface');
      for (const [key, value] of Object.entries(item)) {
        if (key === 'item_id' || key === 'product_id' || key === 'extension_attributes') continue;
        if (value === null || value === undefined) continue;
        if (typeof value === 'object') throw invalidField(key, JSON.stringify(value));
        stock[key] = value as string | number | boolean;
      }
      const qty = optionalNumber(stock.qty) ?? 0;
      stock.qty = qty;
      if (item.is_in_stock === undefined) stock.is_in_stock = qty > 0;
      const backorders = optionalInt(stock.backorders) ?? 0;
      if (![0, 1, 2].includes(backorders)) throw invalidField('backorders', backorders);
    }
    const skuOf = (wanted: string) => {
      const found = this.#bySku.get(wanted.toLowerCase());
      return found === undefined ? undefined : this.products.get(found)?.sku;
    };
    const nextPartId = () => this.#nextPartId++;
    const productLinks =
      input.product_links === undefined
        ? (existing?.product_links ?? [])
        : parseProductLinks(input.product_links, sku, skuOf);
    if (productLinks.some((l) => l.link_type === 'associated') && typeId !== 'grouped')
      throw new MagentoError(400, 'Only a grouped product has associated products.');
    const customOptions =
      input.options === undefined
        ? (existing?.options ?? [])
        : parseCustomOptions(input.options, sku, nextPartId);
    const tierPrices =
      input.tier_prices === undefined
        ? (existing?.tier_prices ?? [])
        : parseTierPrices(input.tier_prices);
    const downloadableLinks =
      extension.downloadable_product_links === undefined
        ? (existing?.downloadable_links ?? [])
        : parseDownloadableLinks(
            extension.downloadable_product_links,
            nextPartId,
            this.downloadableDomains,
            this.#fileStore,
            existing?.downloadable_links ?? [],
          );
    const downloadableSamples =
      extension.downloadable_product_samples === undefined
        ? (existing?.downloadable_samples ?? [])
        : parseDownloadableSamples(
            extension.downloadable_product_samples,
            nextPartId,
            this.downloadableDomains,
            this.#fileStore,
            existing?.downloadable_samples ?? [],
          );
    if ((downloadableLinks.length || downloadableSamples.length) && typeId !== 'downloadable')
      throw new MagentoError(400, 'Only a downloadable product has downloadable links.');
    const bundleOptions =
      extension.bundle_product_options === undefined
        ? (existing?.bundle_options ?? [])
        : parseBundleOptions(extension.bundle_product_options, sku, nextPartId, skuOf);

    const weight =
      input.weight === undefined
        ? (existing?.weight ?? null)
        : (optionalNumber(input.weight) ?? null);
    const now = magentoTime();
    const product: ProductRecord = {
      id,
      sku,
      name,
      attribute_set_id: setId,
      price: price ?? 0,
      status,
      visibility,
      type_id: typeId,
      // Magento stamps both dates itself; values sent by the client are ignored.
      created_at: existing?.created_at ?? now,
      updated_at: now,
      weight,
      custom: values,
      website_ids: websiteIds,
      category_links: categoryLinks,
      stock,
      media: existing?.media ?? [],
      configurable_options: existing?.configurable_options ?? [],
      links: existing?.links ?? [],
      product_links: productLinks,
      options: customOptions,
      tier_prices: tierPrices,
      downloadable_links: downloadableLinks,
      downloadable_samples: downloadableSamples,
      bundle_options: bundleOptions,
    };
    if (typeId === 'configurable') {
      if (extension.configurable_product_options !== undefined) {
        const options =
          optionalArray(extension.configurable_product_options, 'configurable_product_options') ??
          [];
        product.configurable_options = [];
        for (const option of options) {
          product.configurable_options.push(this.#configurableOption(product, option));
        }
      }
      if (extension.configurable_product_links !== undefined) {
        const links = (
          optionalArray(extension.configurable_product_links, 'configurable_product_links') ?? []
        ).map((l) => optionalInt(l) ?? 0);
        this.#checkLinks(product, links);
        product.links = links;
      }
    }
    const mediaInput = input.media_gallery_entries;
    const media =
      mediaInput === undefined
        ? undefined
        : (optionalArray(mediaInput, 'media_gallery_entries') ?? []);
    // Media are validated before anything is stored, so a refused product leaves no trace.
    const newMedia = media?.map((entry) => this.#parseMediaEntry(entry, product));
    if (!existing) this.#nextProductId++;
    this.products.set(id, product);
    if (existing && existing.sku.toLowerCase() !== sku.toLowerCase())
      this.#bySku.delete(existing.sku.toLowerCase());
    this.#bySku.set(sku.toLowerCase(), id);
    if (existing?.custom.url_key && existing.custom.url_key !== urlKey) {
      this.#byUrlKey.delete(existing.custom.url_key);
    }
    this.#byUrlKey.set(urlKey, id);
    if (newMedia) {
      const keep = new Set(newMedia.filter((m) => m.kind === 'existing').map((m) => m.id));
      product.media = product.media.filter((m) => keep.has(m.id));
      for (const m of newMedia) {
        if (m.kind === 'existing') {
          const stored = product.media.find((x) => x.id === m.id);
          if (stored) Object.assign(stored, m.fields);
        } else {
          this.#storeMedia(product, m);
        }
      }
    }
    return { product, created: !existing };
  }

  #selectable(attribute: AttributeRecord, value: string): boolean {
    if (attribute.attribute_code === 'tax_class_id') return this.#tax.isProductClass(value);
    if (attribute.sourceValues === 'any') return true;
    if (attribute.sourceValues) return attribute.sourceValues.includes(value);
    return attribute.options.some((o) => o.value === value);
  }

  #categoryLinks(value: unknown): ProductRecord['category_links'] | undefined {
    const links = optionalArray(value, 'category_links');
    if (!links) return undefined;
    return links.map((item) => {
      const link = objectField(item, 'Magento\\Catalog\\Api\\Data\\CategoryLinkInterface');
      checkKeys(
        link,
        ['position', 'category_id', 'extension_attributes'],
        'Magento\\Catalog\\Api\\Data\\CategoryLinkInterface',
      );
      const categoryId = optionalString(link.category_id);
      if (!categoryId) throw requiredField('category_id');
      if (!this.categories.has(Number(categoryId))) {
        throw new MagentoError(400, 'Could not save product "%1" with position %2 to category %3', [
          'product',
          optionalInt(link.position) ?? 0,
          categoryId,
        ]);
      }
      return { category_id: categoryId, position: optionalInt(link.position) ?? 0 };
    });
  }

  #configurableOption(product: ProductRecord, value: unknown): ConfigurableOptionRecord {
    const option = objectField(value, 'Magento\\ConfigurableProduct\\Api\\Data\\OptionInterface');
    checkKeys(
      option,
      [
        'id',
        'attribute_id',
        'label',
        'position',
        'is_use_default',
        'values',
        'extension_attributes',
        'product_id',
      ],
      'Magento\\ConfigurableProduct\\Api\\Data\\OptionInterface',
    );
    const attributeId = optionalString(option.attribute_id);
    if (!attributeId) throw requiredField('attribute_id');
    const attribute = this.attributeById(attributeId);
    if (!attribute) throw noSuchEntity('attributeId', attributeId);
    if (attribute.frontend_input !== 'select' || attribute.scope !== 'global') {
      throw new MagentoError(
        400,
        'The "%1" attribute can\'t be used to create configurable products.',
        [attribute.attribute_code],
      );
    }
    if (
      product.configurable_options.some((o) => o.attribute_id === String(attribute.attribute_id))
    ) {
      throw new MagentoError(400, 'Something went wrong while saving option.');
    }
    const values = (optionalArray(option.values, 'values') ?? []).map((v) => {
      const item = objectField(v, 'Magento\\ConfigurableProduct\\Api\\Data\\OptionValueInterface');
      const index = optionalInt(item.value_index);
      if (index === undefined) throw requiredField('value_index');
      if (!attribute.options.some((o) => o.value === String(index)))
        throw invalidField('value_index', index);
      return index;
    });
    if (!values.length) {
      throw new MagentoError(400, 'Option values are not specified.');
    }
    return {
      id: this.#nextOptionRecordId++,
      attribute_id: String(attribute.attribute_id),
      label: optionalString(option.label) ?? attribute.label,
      position: optionalInt(option.position) ?? product.configurable_options.length,
      values,
    };
  }

  #checkLinks(parent: ProductRecord, links: number[]): void {
    const combos = new Map<string, string>();
    for (const childId of links) {
      const child = this.products.get(childId);
      if (!child) throw productNotFound();
      combos.set(this.#combination(parent, child), child.sku);
    }
    if (combos.size !== links.length) {
      throw new MagentoError(400, 'Products "%1" and "%2" have the same set of attribute values.', [
        String(links[0]),
        String(links[1]),
      ]);
    }
  }

  #combination(parent: ProductRecord, child: ProductRecord): string {
    return parent.configurable_options
      .map((option) => {
        const attribute = this.attributeById(option.attribute_id);
        const value = attribute ? child.custom[attribute.attribute_code] : undefined;
        if (!attribute || !value) {
          throw new MagentoError(
            400,
            'The child product doesn\'t have the "%1" attribute value. Verify the value and try again.',
            [attribute?.attribute_code ?? option.attribute_id],
          );
        }
        return `${attribute.attribute_code}=${value}`;
      })
      .join('&');
  }

  addConfigurableOption(sku: string, body: Json): number {
    const product = this.productBySku(sku);
    if (product.type_id !== 'configurable') {
      throw new MagentoError(
        400,
        'Product with specified sku: "%1" is not a configurable product',
        [sku],
      );
    }
    if (body.option === undefined) throw requiredField('option');
    const option = this.#configurableOption(product, body.option);
    product.configurable_options.push(option);
    product.updated_at = magentoTime();
    return option.id;
  }

  addChild(sku: string, body: Json): boolean {
    const parent = this.productBySku(sku);
    const childSku = optionalString(body.childSku);
    if (!childSku) throw requiredField('childSku');
    const child = this.productBySku(childSku);
    if (parent.type_id !== 'configurable') {
      throw new MagentoError(
        400,
        'Product with specified sku: "%1" is not a configurable product',
        [sku],
      );
    }
    if (!parent.configurable_options.length) {
      throw new MagentoError(400, "The parent product doesn't have configurable product options.");
    }
    if (parent.links.includes(child.id)) {
      throw new MagentoError(400, 'The product is already attached.');
    }
    this.#checkLinks(parent, [...parent.links, child.id]);
    parent.links.push(child.id);
    parent.updated_at = magentoTime();
    return true;
  }

  children(sku: string): ProductRecord[] {
    const parent = this.productBySku(sku);
    return parent.links.flatMap((id) => {
      const child = this.products.get(id);
      return child ? [child] : [];
    });
  }

  configurableOptionJson(product: ProductRecord, o: ConfigurableOptionRecord): Json {
    return {
      id: o.id,
      attribute_id: o.attribute_id,
      label: o.label,
      position: o.position,
      values: o.values.map((value_index) => ({ value_index })),
      product_id: product.id,
    };
  }

  /**
   * The stock item as StockItem's getters answer it: a setting that follows the store
   * configuration (use_config_* set) answers the configuration's value.
   */
  stockJson(stock: StockItem): Json {
    const json: Json = { ...stock };
    for (const [flag, field] of stockConfigFlags) {
      if (optionalBool(stock[flag]) !== false) json[field] = stockConfiguration[field];
    }
    return json;
  }

  productJson(p: ProductRecord): Json {
    const extension: Json = {
      website_ids: p.website_ids,
      category_links: p.category_links,
      stock_item: this.stockJson(p.stock),
    };
    if (p.type_id === 'configurable') {
      extension.configurable_product_options = p.configurable_options.map((o) =>
        this.configurableOptionJson(p, o),
      );
      extension.configurable_product_links = p.links;
    }
    if (p.type_id === 'downloadable') {
      extension.downloadable_product_links = p.downloadable_links.map((l) => ({ ...l }));
      extension.downloadable_product_samples = p.downloadable_samples.map((l) => ({ ...l }));
    }
    if (p.type_id === 'bundle')
      extension.bundle_product_options = structuredClone(p.bundle_options);
    const json: Json = {
      id: p.id,
      sku: p.sku,
      name: p.name,
      attribute_set_id: p.attribute_set_id,
      price: p.price,
      status: p.status,
      visibility: p.visibility,
      type_id: p.type_id,
      created_at: p.created_at,
      updated_at: p.updated_at,
    };
    if (p.weight !== null) json.weight = p.weight;
    json.extension_attributes = extension;
    json.product_links = p.product_links.map((l) => ({
      sku: p.sku,
      link_type: l.link_type,
      linked_product_sku: l.linked_sku,
      linked_product_type: this.hasSku(l.linked_sku)
        ? this.productBySku(l.linked_sku).type_id
        : 'simple',
      position: l.position,
      ...(l.link_type === 'associated' ? { extension_attributes: { qty: l.qty } } : {}),
    }));
    json.options = structuredClone(p.options);
    json.media_gallery_entries = p.media.map((m) => this.mediaJson(m));
    json.tier_prices = structuredClone(p.tier_prices);
    const custom: Record<string, string> = { ...p.custom };
    for (const m of p.media) for (const role of m.types) custom[role] = m.file;
    // Derived by Magento on every load: the category ids of the links, and whether the product
    // has (required) custom options.
    // admin-schema-2.4.9.yaml types every custom attribute value as a string.
    custom.category_ids = p.category_links.map((l) => l.category_id).join(',');
    custom.has_options = p.options.length || p.type_id === 'configurable' ? '1' : '0';
    custom.required_options = p.options.some((o) => o.is_require === true) ? '1' : '0';
    json.custom_attributes = Object.entries(custom).map(([attribute_code, value]) => ({
      attribute_code,
      value,
    }));
    return json;
  }

  productField = (
    p: ProductRecord,
    field: string,
  ): string | number | null | undefined | string[] => {
    switch (field) {
      case 'entity_id':
      case 'id':
        return p.id;
      case 'sku':
      case 'name':
      case 'attribute_set_id':
      case 'price':
      case 'status':
      case 'visibility':
      case 'type_id':
      case 'created_at':
      case 'updated_at':
      case 'weight':
        return p[field];
      case 'category_id':
        return p.category_links.map((l) => l.category_id);
      default:
        if (this.attributes.has(field)) return p.custom[field];
        throw new MagentoError(400, 'Invalid attribute name: %1', [field]);
    }
  };

  // ---------------------------------------------------------------- media

  mediaJson(m: MediaRecord): Json {
    return {
      id: m.id,
      media_type: 'image',
      label: m.label,
      position: m.position,
      disabled: m.disabled,
      types: m.types,
      file: m.file,
    };
  }

  #parseMediaEntry(
    value: unknown,
    product: ProductRecord,
  ):
    | { kind: 'existing'; id: number; fields: Partial<MediaRecord> }
    | {
        kind: 'new';
        label: string;
        position: number;
        disabled: boolean;
        types: string[];
        data: Buffer;
        type: string;
        name: string;
      } {
    const entry = objectField(
      value,
      'Magento\\Catalog\\Api\\Data\\ProductAttributeMediaGalleryEntryInterface',
    );
    checkKeys(
      entry,
      mediaEntryKeys,
      'Magento\\Catalog\\Api\\Data\\ProductAttributeMediaGalleryEntryInterface',
    );
    const mediaType = optionalString(entry.media_type) ?? 'image';
    if (mediaType !== 'image') throw invalidField('media_type', mediaType);
    const types = (optionalArray(entry.types, 'types') ?? []).map((t) => optionalString(t) ?? '');
    for (const t of types) {
      if (!['image', 'small_image', 'thumbnail', 'swatch_image'].includes(t))
        throw invalidField('types', t);
    }
    const fields = {
      label: optionalString(entry.label) ?? '',
      position: optionalInt(entry.position) ?? product.media.length + 1,
      disabled: optionalBool(entry.disabled) ?? false,
      types,
    };
    const id = optionalInt(entry.id);
    if (id !== undefined && entry.content === undefined) {
      if (!product.media.some((m) => m.id === id)) throw noSuchEntity('imageId', id);
      return { kind: 'existing', id, fields };
    }
    if (entry.content === undefined) {
      throw new MagentoError(
        400,
        'The image content is invalid. Verify the content and try again.',
      );
    }
    const content = objectField(
      entry.content,
      'Magento\\Framework\\Api\\Data\\ImageContentInterface',
    );
    checkKeys(
      content,
      ['base64_encoded_data', 'type', 'name'],
      'Magento\\Framework\\Api\\Data\\ImageContentInterface',
    );
    const base64 = optionalString(content.base64_encoded_data) ?? '';
    if (!base64 || !/^[A-Za-z0-9+/=\s]+$/.test(base64)) {
      throw new MagentoError(400, 'The image content must be valid base64 encoded data.');
    }
    const data = Buffer.from(base64, 'base64');
    const type = optionalString(content.type) ?? '';
    const sniffed = sniffImage(data);
    if (!(type in imageTypes) || sniffed !== type) {
      throw new MagentoError(400, 'The image MIME type is not valid or not supported.');
    }
    const name = optionalString(content.name) ?? '';
    if (!name)
      throw new MagentoError(400, 'The image name is invalid. Verify the name and try again.');
    return { kind: 'new', ...fields, data, type, name };
  }

  #storeMedia(
    product: ProductRecord,
    m: {
      label: string;
      position: number;
      disabled: boolean;
      types: string[];
      data: Buffer;
      type: string;
      name: string;
    },
  ): MediaRecord {
    const extension = imageTypes[m.type] ?? 'jpg';
    const base =
      m.name
        .replace(/\.[a-z0-9]+$/i, '')
        .toLowerCase()
        .replace(/[^a-z0-9_-]+/g, '_') || 'image';
    const dir = `/${base[0] ?? 'i'}/${base[1] ?? '_'}`;
    let file = `${dir}/${base}.${extension}`;
    for (let n = 1; this.files.has(file) || this.seededFiles.has(file); n++) {
      file = `${dir}/${base}_${n}.${extension}`;
    }
    this.files.set(file, { data: m.data, type: m.type });
    // An image role belongs to one gallery entry at a time.
    for (const other of product.media)
      other.types = other.types.filter((t) => !m.types.includes(t));
    const record: MediaRecord = {
      id: this.#nextMediaId++,
      label: m.label,
      position: m.position,
      disabled: m.disabled,
      types: m.types,
      file,
    };
    product.media.push(record);
    product.media.sort((a, b) => a.position - b.position || a.id - b.id);
    return record;
  }

  addMedia(sku: string, body: Json): number {
    const product = this.productBySku(sku);
    if (body.entry === undefined) throw requiredField('entry');
    const parsed = this.#parseMediaEntry(body.entry, product);
    if (parsed.kind === 'existing') {
      throw new MagentoError(
        400,
        'The image content is invalid. Verify the content and try again.',
      );
    }
    const record = this.#storeMedia(product, parsed);
    product.updated_at = magentoTime();
    return record.id;
  }

  /** For seeding: a gallery entry whose file is rendered on demand. */
  seedMedia(product: ProductRecord, file: string, label: string, types: string[]): void {
    this.seededFiles.add(file);
    product.media.push({
      id: this.#nextMediaId++,
      label,
      position: product.media.length + 1,
      disabled: false,
      types,
      file,
    });
  }
}
