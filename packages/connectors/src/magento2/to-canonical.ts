import type { Category } from '@replatform/canonical/category';
import type { Customer, CustomerAddress } from '@replatform/canonical/customer';
import {
  categoryDefaults,
  customerDefaults,
  inventoryDefaults,
  orderDefaults,
  productDefaults,
  variantDefaults,
} from '@replatform/canonical/defaults';
import type { Metafield } from '@replatform/canonical/metafield';
import type { FeeLine, Order, OrderLine, OrderNote, Refund } from '@replatform/canonical/order';
import type {
  Inventory,
  Product,
  ProductAttribute,
  ProductImage,
  ProductOption,
  Variant,
} from '@replatform/canonical/product';
import { emptyAddress, type Address } from '@replatform/canonical/address';
import { isoFromMagento, moneyOf, PLACEHOLDER } from './mapping.ts';
import { magentoMetafield } from './metafields.ts';
import { isJson, listOf, type Json } from './native.ts';
import { paymentStatusFromTotals, statusFromMagento, statusToMagento } from './order-status.ts';
import type { MagentoSession } from './session.ts';

/**
 * Native Magento records (native.ts) to the canonical model. Every choice is declared per field
 * in native-fields.ts; Magento's own values without a field in the model become 'magento'
 * metafields, but only where they differ from what a new record gets anyway, so a store that
 * never touched a setting does not hand it to other platforms.
 */

const text = (value: unknown): string =>
  value === null || value === undefined
    ? ''
    : Array.isArray(value)
      ? value.join(',')
      : String(value);
const num = (value: unknown): number => (value === null || value === undefined ? 0 : Number(value));
const flag = (value: unknown): boolean => value === true || value === 1 || value === '1';
const iso = (value: unknown): string | null => isoFromMagento(text(value) || null);

/** Facts about the source store a mapping needs, looked up once per page. */
export interface ReadContext {
  session: MagentoSession;
  currency: string;
  /** <base media URL>catalog/product */
  mediaUrl: string;
  /** <base media URL> */
  baseMediaUrl: string;
  roots: ReadonlySet<string>;
  weightUnit: 'kg' | 'lb';
  /** Name of the tax class new products get (id 2, Taxable Goods). */
  standardTaxClass: string;
  /** Product ids by SKU (lower case), for product links. */
  idsBySku: ReadonlyMap<string, string>;
  /** Attribute set names by id. */
  attributeSets: ReadonlyMap<number, string>;
}

// ------------------------------------------------------------------ shared

/** This service's marker on the products it created (write-products.ts). */
const markerAttribute = 'replatform_source_id';

/** Magento's own product attributes that travel as metafields, with the value a new product has. */
const ownProductAttributes: Record<string, string | undefined> = {
  meta_keyword: undefined,
  news_from_date: undefined,
  news_to_date: undefined,
  country_of_manufacture: undefined,
  cost: undefined,
  msrp: undefined,
  msrp_display_actual_price_type: '0',
  gift_message_available: undefined,
  options_container: 'container2',
  page_layout: undefined,
  custom_layout: undefined,
  custom_layout_update_file: undefined,
  custom_design_from: undefined,
  custom_design_to: undefined,
  links_title: undefined,
  links_purchased_separately: undefined,
  samples_title: undefined,
  gift_wrapping_available: undefined,
  gift_wrapping_price: undefined,
  is_returnable: undefined,
};

/** Product attributes mapped to named fields, derived, or reported (never metafields). */
const handledProductAttributes = new Set([
  'description',
  'short_description',
  'meta_title',
  'meta_description',
  'url_key',
  'url_path',
  'special_price',
  'special_from_date',
  'special_to_date',
  'tax_class_id',
  'image',
  'small_image',
  'thumbnail',
  'swatch_image',
  'image_label',
  'small_image_label',
  'thumbnail_label',
  'category_ids',
  'has_options',
  'required_options',
  'quantity_and_stock_status',
  'links_exist',
  'custom_design',
  'price_type',
  'price_view',
  'sku_type',
  'weight_type',
  'shipment_type',
]);

function ownAttributeFields(custom: Json, skip: ReadonlySet<string>): Metafield[] {
  const out: Metafield[] = [];
  for (const [code, value] of Object.entries(custom)) {
    if (handledProductAttributes.has(code) || skip.has(code)) continue;
    if (value === null || value === undefined || value === '') continue;
    if (code in ownProductAttributes && ownProductAttributes[code] === text(value)) continue;
    out.push(magentoMetafield(code, value));
  }
  return out;
}

/** Stock settings with a use_config_* flag that the model has no field for. */
const stockSettings: [flag: string, field: string][] = [
  ['use_config_min_qty', 'min_qty'],
  ['use_config_min_sale_qty', 'min_sale_qty'],
  ['use_config_max_sale_qty', 'max_sale_qty'],
  ['use_config_qty_increments', 'qty_increments'],
  ['use_config_enable_qty_inc', 'enable_qty_increments'],
];

function inventoryOf(
  stock: Json | undefined,
  variantOnly = false,
): { inventory: Inventory; fields: Metafield[] } {
  if (!stock) return { inventory: inventoryDefaults(), fields: [] };
  const tracked = flag(stock.manage_stock ?? true);
  const backorders = num(stock.backorders);
  const qty = num(stock.qty);
  const inStock = flag(stock.is_in_stock);
  const inventory: Inventory = {
    tracked,
    quantity: tracked ? Math.round(qty) : 0,
    stockStatus: !inStock
      ? 'outofstock'
      : tracked && qty <= 0 && backorders > 0
        ? 'onbackorder'
        : 'instock',
    backorders: backorders === 1 ? 'yes' : backorders === 2 ? 'notify' : 'no',
    lowStockThreshold: flag(stock.use_config_notify_stock_qty ?? true)
      ? null
      : Math.round(num(stock.notify_stock_qty)),
  };
  const fields: Metafield[] = [];
  const keep = (key: string, value: unknown) =>
    fields.push(magentoMetafield(`stock_item.${key}`, value));
  // A destination uses the store configuration where the value is Magento's default; a product
  // that set the default explicitly says so.
  if (stock.use_config_manage_stock === false && tracked) keep('use_config_manage_stock', false);
  if (stock.use_config_backorders === false && backorders === 0)
    keep('use_config_backorders', false);
  for (const [flagName, field] of stockSettings) {
    if (flag(stock[flagName] ?? true)) continue;
    // A maximum of one per cart is the product's "sold individually" (not a variant's).
    if (!variantOnly && field === 'max_sale_qty' && num(stock[field]) === 1) continue;
    keep(flagName, stock[flagName]);
    keep(field, stock[field]);
  }
  if (flag(stock.is_qty_decimal)) keep('is_qty_decimal', true);
  if (flag(stock.is_decimal_divided)) keep('is_decimal_divided', true);
  return { inventory, fields };
}

const soldIndividually = (stock: Json | undefined) =>
  !!stock && !flag(stock.use_config_max_sale_qty ?? true) && num(stock.max_sale_qty) === 1;

const stockOf = (record: Json): Json | undefined => {
  const extension = isJson(record.extension_attributes) ? record.extension_attributes : {};
  return isJson(extension.stock_item) ? extension.stock_item : undefined;
};

// ------------------------------------------------------------------ products

function imagesOf(record: Json, ctx: ReadContext): ProductImage[] {
  return listOf(record.media_gallery_entries)
    .filter((m) => (m.media_type ?? 'image') === 'image')
    .sort((a, b) => num(a.position) - num(b.position) || num(a.id) - num(b.id))
    .map((m, position) => ({
      url: `${ctx.mediaUrl}${text(m.file).startsWith('/') ? '' : '/'}${text(m.file)}`,
      alt: text(m.label),
      title: '',
      position,
    }));
}

function taxOf(
  name: string,
  ctx: ReadContext,
): { taxStatus: Product['taxStatus']; taxClass: string } {
  if (name === 'None') return { taxStatus: 'none', taxClass: '' };
  return {
    taxStatus: 'taxable',
    taxClass: name === ctx.standardTaxClass || name === '' ? '' : name,
  };
}

function saleOf(custom: Json, currency: string) {
  const special = text(custom.special_price);
  return {
    salePrice: special === '' ? null : moneyOf(special, currency),
    saleStartsAt: iso(custom.special_from_date),
    saleEndsAt: iso(custom.special_to_date),
  };
}

const weightOf = (value: unknown, unit: 'kg' | 'lb') =>
  value === null || value === undefined || value === '' ? null : { value: Number(value), unit };

function downloadsOf(record: Json, ctx: ReadContext) {
  const extension = isJson(record.extension_attributes) ? record.extension_attributes : {};
  const links = listOf(extension.downloadable_product_links).sort(
    (a, b) => num(a.sort_order) - num(b.sort_order) || num(a.id) - num(b.id),
  );
  const limits = links.map((l) => num(l.number_of_downloads));
  const limit = limits[0] ?? 0;
  return {
    downloads: links.map((l) => ({
      name: text(l.title),
      url:
        l.link_type === 'file'
          ? `${ctx.baseMediaUrl.replace(/\/+$/, '')}/downloadable/files/links${text(l.link_file)}`
          : text(l.link_url),
    })),
    downloadLimit: limit > 0 && limits.every((n) => n === limit) ? limit : null,
  };
}

/** The product-level attribute values of the merchant's attributes (not options, not vendor). */
async function merchantAttributes(
  record: Json,
  optionCodes: ReadonlySet<string>,
  ctx: ReadContext,
  position: number,
): Promise<{ attributes: ProductAttribute[]; fields: Metafield[] }> {
  const attributes: ProductAttribute[] = [];
  const fields: Metafield[] = [];
  const merchant = isJson(record.user_defined_attributes) ? record.user_defined_attributes : {};
  for (const [code, value] of Object.entries(merchant).sort(([a], [b]) => a.localeCompare(b))) {
    if (code === 'manufacturer' || code === markerAttribute || optionCodes.has(code)) continue;
    const meta = await ctx.session.attribute(code);
    const input = meta?.frontend_input ?? 'text';
    if (input === 'select' || input === 'multiselect') {
      const values = (Array.isArray(value) ? value.map(String) : [text(value)]).filter(Boolean);
      if (!values.length) continue;
      attributes.push({
        name: meta?.default_frontend_label || code,
        values: [...new Set(values)],
        shared: { slug: code },
        visible: flag(meta?.is_visible_on_front === 'true' ? true : meta?.is_visible_on_front),
        position: position + attributes.length,
      });
    } else if (value !== null && value !== undefined && value !== '') {
      fields.push(magentoMetafield(code, value, input));
    }
  }
  return { attributes, fields };
}

const childName = (product: string, values: readonly string[]) => `${product}-${values.join('-')}`;

function slugOf(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** The URL key a destination gives a child it creates (write-catalog.ts does the same). */
export const childUrlKey = (productKey: string, values: readonly string[]) =>
  `${productKey}-${values.map(slugOf).join('-')}`;
export { childName };

export async function productToCanonical(
  record: Json,
  ctx: ReadContext,
): Promise<{ record?: Product; reason?: string }> {
  const typeId = text(record.type_id);
  const kinds: Record<string, Product['type']> = {
    simple: 'simple',
    virtual: 'simple',
    downloadable: 'simple',
    configurable: 'variable',
    grouped: 'grouped',
    bundle: 'grouped',
  };
  const type = kinds[typeId];
  if (!type)
    return { reason: `Magento ${typeId} products have no equivalent in the migration model` };
  const custom = isJson(record.custom_attributes) ? record.custom_attributes : {};
  const merchant = isJson(record.user_defined_attributes) ? record.user_defined_attributes : {};
  const extension = isJson(record.extension_attributes) ? record.extension_attributes : {};
  const stock = stockOf(record);
  const { currency } = ctx;
  const money = (v: unknown) => moneyOf(v === null || v === undefined ? 0 : text(v), currency);
  const name = text(record.name) || text(record.sku);
  const urlKey = text(custom.url_key);
  const { taxStatus, taxClass } = taxOf(text(custom.tax_class_id), ctx);

  // Options of a configurable product and its variants.
  const options: ProductOption[] = [];
  const optionCodes: string[] = [];
  const configurable = listOf(extension.configurable_product_options).sort(
    (a, b) => num(a.position) - num(b.position),
  );
  for (const option of configurable) {
    const code = text(option.attribute_id);
    const meta = await ctx.session.attribute(code);
    const values = [
      ...new Set(
        listOf(option.values)
          .map((v) => text(v.value_index))
          .filter(Boolean),
      ),
    ];
    if (!values.length)
      return { reason: `configurable option '${text(option.label)}' has no values` };
    optionCodes.push(code);
    options.push({
      name: text(option.label) || meta?.default_frontend_label || code,
      values,
      shared: { slug: code },
      visible: flag(meta?.is_visible_on_front === 'true' ? true : meta?.is_visible_on_front),
      position: options.length,
    });
  }
  const { attributes, fields: merchantFields } = await merchantAttributes(
    record,
    new Set(optionCodes),
    ctx,
    options.length,
  );

  const metafields: Metafield[] = [...ownAttributeFields(custom, new Set()), ...merchantFields];
  const setName = ctx.attributeSets.get(num(record.attribute_set_id));
  if (setName && setName !== 'Default') metafields.push(magentoMetafield('attribute_set', setName));

  // Product links by meaning; related products (no field in the model) as a metafield.
  const links = listOf(record.product_links).sort((a, b) => num(a.position) - num(b.position));
  const linked = (kind: string) =>
    links
      .filter((l) => l.link_type === kind)
      .flatMap((l) => {
        const id = ctx.idsBySku.get(text(l.linked_product_sku).toLowerCase());
        return id ? [id] : [];
      });
  // Related products by SKU: other platforms have no related products to point at.
  const related = links
    .filter((l) => l.link_type === 'related')
    .map((l) => text(l.linked_product_sku));
  if (related.length) metafields.push(magentoMetafield('related', related));
  let grouped = linked('associated');
  if (typeId === 'bundle') {
    const parts = listOf(extension.bundle_product_options).flatMap((o) =>
      listOf(o.product_links).map((l) => ctx.idsBySku.get(text(l.sku).toLowerCase())),
    );
    grouped = [...new Set(parts.filter((id): id is string => !!id))];
  }

  const positions = listOf(extension.category_links).map((l) => num(l.position));
  const menuOrder =
    positions.length && positions.every((p) => p === positions[0]) ? (positions[0] ?? 0) : 0;

  let variants: Variant[] = [];
  if (type === 'variable') {
    const children = listOf(record.children);
    if (!children.length) return { reason: 'configurable product without child products' };
    for (const [position, child] of children.entries()) {
      const childCustom = isJson(child.custom_attributes) ? child.custom_attributes : {};
      const childMerchant = isJson(child.user_defined_attributes)
        ? child.user_defined_attributes
        : {};
      const optionValues: { name: string; value: string }[] = [];
      for (const [i, code] of optionCodes.entries()) {
        const value = text(childMerchant[code]);
        const optionName = options[i]?.name ?? code;
        if (!value)
          return { reason: `child ${text(child.sku)} has no value for option '${optionName}'` };
        optionValues.push({ name: optionName, value });
      }
      const childStock = stockOf(child);
      const { inventory, fields: stockFields } = inventoryOf(childStock, true);
      const childTax = text(childCustom.tax_class_id);
      const fields: Metafield[] = [...ownAttributeFields(childCustom, new Set()), ...stockFields];
      for (const [code, value] of Object.entries(childMerchant)) {
        if (optionCodes.includes(code) || code === markerAttribute) continue;
        if (value === null || value === '') continue;
        fields.push(magentoMetafield(code, value));
      }
      for (const code of ['short_description', 'meta_title', 'meta_description']) {
        if (text(childCustom[code])) fields.push(magentoMetafield(code, childCustom[code]));
      }
      const values = optionValues.map((o) => o.value);
      if (text(child.name) && text(child.name) !== childName(name, values))
        fields.push(magentoMetafield('name', text(child.name)));
      const childKey = text(childCustom.url_key);
      if (childKey && childKey !== childUrlKey(slugOf(urlKey || name), values))
        fields.push(magentoMetafield('url_key', childKey));
      const [image] = imagesOf(child, ctx);
      const description = text(childCustom.description);
      variants.push({
        ...variantDefaults(money(child.price)),
        id: text(child.id),
        sku: text(child.sku),
        optionValues,
        position,
        status: num(child.status) === 2 ? 'private' : 'active',
        ...saleOf(childCustom, currency),
        weight: weightOf(child.weight, ctx.weightUnit),
        inventory,
        imageUrl: image?.url ?? null,
        taxClass:
          childTax === text(custom.tax_class_id)
            ? null
            : childTax === ctx.standardTaxClass
              ? ''
              : childTax,
        // Magento's downloadable products are virtual ones with files: nothing is shipped.
        virtual: child.type_id === 'virtual' || child.type_id === 'downloadable',
        downloadable: child.type_id === 'downloadable',
        ...(child.type_id === 'downloadable' ? downloadsOf(child, ctx) : {}),
        ...(description ? { descriptionHtml: description } : {}),
        metafields: fields,
      });
    }
  } else if (type === 'simple') {
    const { inventory, fields } = inventoryOf(stock);
    variants = [
      {
        ...variantDefaults(money(record.price)),
        id: text(record.id),
        sku: text(record.sku),
        optionValues: [],
        position: 0,
        ...saleOf(custom, currency),
        weight: weightOf(record.weight, ctx.weightUnit),
        inventory,
        virtual: typeId === 'virtual' || typeId === 'downloadable',
        downloadable: typeId === 'downloadable',
        ...(typeId === 'downloadable' ? downloadsOf(record, ctx) : {}),
        metafields: fields,
      },
    ];
  }

  const product: Product = {
    ...productDefaults(),
    id: text(record.id),
    type,
    name,
    slug: urlKey.toLowerCase(),
    sku: text(record.sku),
    descriptionHtml: text(custom.description),
    shortDescriptionHtml: text(custom.short_description),
    status: num(record.status) === 2 ? 'draft' : 'active',
    visibility:
      (['hidden', 'catalog', 'search', 'visible'] as const)[num(record.visibility ?? 4) - 1] ??
      'visible',
    vendor: text(merchant.manufacturer),
    options,
    attributes,
    variants,
    images: imagesOf(record, ctx),
    categoryIds: [
      ...new Set(
        listOf(extension.category_links)
          .map((l) => text(l.category_id))
          .filter((id) => !ctx.roots.has(id)),
      ),
    ],
    seoTitle: text(custom.meta_title),
    seoDescription: text(custom.meta_description),
    weight: weightOf(record.weight, ctx.weightUnit),
    taxStatus,
    taxClass,
    soldIndividually: soldIndividually(stock),
    menuOrder,
    upsellIds: linked('upsell'),
    crossSellIds: linked('crosssell'),
    groupedProductIds: grouped,
    metafields,
    sourceUrlPath: urlKey ? `/${urlKey}.html` : null,
    createdAt: iso(record.created_at),
    updatedAt: iso(record.updated_at),
  };
  return { record: product };
}

// ------------------------------------------------------------------ categories

/** Magento's own category settings that travel as metafields, with their value on a new category. */
const ownCategoryAttributes: Record<string, string | undefined> = {
  meta_keywords: undefined,
  is_anchor: '1',
  default_sort_by: undefined,
  filter_price_range: undefined,
  page_layout: undefined,
  custom_use_parent_settings: '0',
  custom_apply_to_products: '0',
  custom_layout_update_file: undefined,
  custom_design_from: undefined,
  custom_design_to: undefined,
  automatic_sorting: undefined,
};

const handledCategoryAttributes = new Set([
  'description',
  'url_key',
  'url_path',
  'path',
  'children_count',
  'meta_title',
  'meta_description',
  'image',
  'display_mode',
  'landing_page',
  'custom_design',
]);

export function categoryToCanonical(record: Json, ctx: ReadContext): Category {
  const custom = isJson(record.custom_attributes) ? record.custom_attributes : {};
  const merchant = isJson(record.user_defined_attributes) ? record.user_defined_attributes : {};
  const image = text(custom.image);
  const urlPath = text(custom.url_path);
  const mode = text(custom.display_mode);
  const metafields: Metafield[] = [];
  if (record.is_active === false) metafields.push(magentoMetafield('is_active', false));
  if (record.include_in_menu === false) metafields.push(magentoMetafield('include_in_menu', false));
  const sortBy = Array.isArray(record.available_sort_by) ? record.available_sort_by : [];
  if (sortBy.length) metafields.push(magentoMetafield('available_sort_by', sortBy));
  if (mode === 'PAGE' || mode === 'PRODUCTS_AND_PAGE')
    metafields.push(magentoMetafield('display_mode', mode));
  for (const [code, value] of Object.entries(custom)) {
    if (handledCategoryAttributes.has(code) || value === null || value === '') continue;
    if (code in ownCategoryAttributes && ownCategoryAttributes[code] === text(value)) continue;
    metafields.push(magentoMetafield(code, value));
  }
  for (const [code, value] of Object.entries(merchant))
    if (value !== null && value !== '') metafields.push(magentoMetafield(code, value));
  return {
    ...categoryDefaults(),
    id: text(record.id),
    parentId:
      record.parent_id === null || record.parent_id === undefined ? null : text(record.parent_id),
    name: text(record.name),
    slug: text(custom.url_key).toLowerCase(),
    description: text(custom.description),
    // Magento positions start at 1 among siblings.
    position: Math.max(0, num(record.position) - 1),
    imageUrl: image
      ? image.startsWith('http')
        ? image
        : image.startsWith('/')
          ? new URL(image, ctx.baseMediaUrl).toString()
          : `${ctx.baseMediaUrl.replace(/\/+$/, '')}/catalog/category/${image}`
      : null,
    displayType: mode === 'PRODUCTS' ? 'products' : 'default',
    seoTitle: text(custom.meta_title),
    seoDescription: text(custom.meta_description),
    metafields,
    sourceUrlPath: urlPath ? `/${urlPath}.html` : null,
  };
}

// ------------------------------------------------------------------ customers

const unplaceholder = (value: unknown) => (text(value) === PLACEHOLDER ? '' : text(value));

function addressOf(a: Json, province: string): Address {
  const street = Array.isArray(a.street) ? a.street.map(String) : [];
  return {
    ...emptyAddress(),
    firstName: text(a.firstname),
    lastName: text(a.lastname),
    company: text(a.company),
    address1: unplaceholder(street[0]),
    address2: street.slice(1).filter(Boolean).join('\n'),
    city: unplaceholder(a.city),
    province,
    postalCode: unplaceholder(a.postcode),
    countryCode: /^[A-Z]{2}$/.test(text(a.country_id)) ? text(a.country_id) : '',
    phone: unplaceholder(a.telephone),
  };
}

const ownCustomerFields = ['middlename', 'prefix', 'suffix', 'dob', 'gender', 'taxvat'];

export function customerToCanonical(record: Json): Customer {
  const addresses: CustomerAddress[] = listOf(record.addresses).map((a) => {
    const region = isJson(a.region) ? a.region : {};
    return {
      ...addressOf(a, text(region.region_code) || text(region.region)),
      isDefaultBilling:
        a.default_billing === true ||
        (a.id !== undefined && text(a.id) === text(record.default_billing)),
      isDefaultShipping:
        a.default_shipping === true ||
        (a.id !== undefined && text(a.id) === text(record.default_shipping)),
    };
  });
  const billing = addresses.find((a) => a.isDefaultBilling) ?? addresses[0];
  const metafields: Metafield[] = [];
  for (const field of ownCustomerFields)
    if (record[field] !== undefined && record[field] !== null && record[field] !== '')
      metafields.push(magentoMetafield(field, record[field]));
  if (num(record.disable_auto_group_change) === 1)
    metafields.push(magentoMetafield('disable_auto_group_change', 1));
  const extension = isJson(record.extension_attributes) ? record.extension_attributes : {};
  if (extension.assistance_allowed !== undefined && num(extension.assistance_allowed) !== 2)
    metafields.push(magentoMetafield('assistance_allowed', extension.assistance_allowed));
  const custom = isJson(record.custom_attributes) ? record.custom_attributes : {};
  for (const [code, value] of Object.entries(custom))
    if (value !== null && value !== '') metafields.push(magentoMetafield(code, value));
  const group = text(record.group_id);
  return {
    ...customerDefaults(),
    id: text(record.id),
    email: text(record.email).trim().toLowerCase(),
    firstName: text(record.firstname),
    lastName: text(record.lastname),
    // Magento keeps phone numbers on addresses only.
    phone: billing?.phone ?? '',
    acceptsMarketing: extension.is_subscribed === true,
    addresses,
    note: '',
    tags: [],
    group: group === 'General' ? '' : group,
    metafields,
    createdAt: iso(record.created_at) ?? new Date(0).toISOString(),
  };
}

// ------------------------------------------------------------------ orders

/** Order fields a destination fills from other ones, and the value it would give them. */
const ownOrderFields: Record<string, (o: Json) => unknown> = {
  customer_firstname: (o) => (isJson(o.billing_address) ? o.billing_address.firstname : ''),
  customer_lastname: (o) => (isJson(o.billing_address) ? o.billing_address.lastname : ''),
  customer_middlename: () => '',
  customer_prefix: () => '',
  customer_suffix: () => '',
  customer_dob: () => '',
  customer_gender: () => '',
  customer_taxvat: () => '',
  discount_description: (o) => o.coupon_code ?? '',
  x_forwarded_for: () => '',
  ext_customer_id: () => '',
  store_name: () => '',
  hold_before_state: () => '',
  hold_before_status: () => '',
  can_ship_partially: () => '',
  can_ship_partially_item: () => '',
  forced_shipment_with_invoice: () => '',
  original_increment_id: () => '',
  edit_increment: () => '',
};

const ownPaymentFields = [
  'po_number',
  'cc_type',
  'cc_last4',
  'cc_exp_month',
  'cc_exp_year',
  'cc_owner',
  'cc_approval',
  'cc_avs_status',
  'cc_cid_status',
  'cc_status',
  'cc_status_description',
  'cc_trans_id',
  'cc_ss_issue',
  'cc_ss_start_month',
  'cc_ss_start_year',
  'cc_secure_verify',
  'echeck_account_name',
  'echeck_account_type',
  'echeck_bank_name',
  'echeck_routing_number',
  'echeck_type',
  'account_status',
  'address_status',
  'protection_eligibility',
  'anet_trans_method',
  'additional_data',
];

/** The order's own fields that a destination fills differently, as metafields. */
function orderFields(o: Json, currency: string): Metafield[] {
  const out: Metafield[] = [];
  const isSet = (v: unknown) => v !== null && v !== undefined && v !== '' && v !== 0;
  for (const [field, fallback] of Object.entries(ownOrderFields)) {
    const value = o[field];
    if (isSet(value) && text(value) !== text(fallback(o))) out.push(magentoMetafield(field, value));
  }
  const base = text(o.base_currency_code).toUpperCase();
  if (base && base !== currency) out.push(magentoMetafield('base_currency_code', base));
  const rate = num(o.base_to_order_rate ?? 1);
  if (rate !== 1 && rate !== 0) out.push(magentoMetafield('base_to_order_rate', rate));
  const { status } = statusToMagento(statusFromMagento(text(o.state), text(o.status)));
  if (text(o.status) && text(o.status) !== status)
    out.push(magentoMetafield('status', text(o.status)));
  const payment = isJson(o.payment) ? o.payment : {};
  for (const field of ownPaymentFields)
    if (isSet(payment[field])) out.push(magentoMetafield(`payment.${field}`, payment[field]));
  const info = Array.isArray(payment.additional_information) ? payment.additional_information : [];
  if (info.length > 1) out.push(magentoMetafield('payment.additional_information', info));
  return out;
}

/** The child item a configurable parent item has, when it has one. */
const childOf = (items: readonly Json[], item: Json) =>
  items.find(
    (c) =>
      c.parent_item_id !== null &&
      c.parent_item_id !== undefined &&
      text(c.parent_item_id) === text(item.item_id),
  );

const isTop = (item: Json) => item.parent_item_id === null || item.parent_item_id === undefined;

export async function orderToCanonical(
  o: Json,
  ctx: ReadContext,
  variantIdBySku: ReadonlyMap<string, string>,
): Promise<{ record?: Order; reason?: string }> {
  const currency = (
    text(o.order_currency_code) ||
    text(o.base_currency_code) ||
    ctx.currency
  ).toUpperCase();
  const m = (v: unknown) => moneyOf(v === null || v === undefined ? 0 : text(v), currency);
  const items = listOf(o.items);
  const top = items.filter(isTop);
  const lines: OrderLine[] = [];
  for (const item of top) {
    const child = childOf(items, item);
    const quantity = Math.max(1, Math.round(num(item.qty_ordered ?? 1)));
    const price = num(item.price);
    const rowTotal =
      item.row_total === undefined || item.row_total === null
        ? price * quantity
        : num(item.row_total);
    const productId =
      item.product_id === null || item.product_id === undefined ? null : text(item.product_id);
    const variantId =
      productId === null
        ? undefined
        : child
          ? child.product_id === null || child.product_id === undefined
            ? undefined
            : text(child.product_id)
          : item.product_type === 'configurable'
            ? variantIdBySku.get(text(item.sku).toLowerCase())
            : undefined;
    const meta: { key: string; value: string }[] = [];
    const option = isJson(item.product_option) ? item.product_option : {};
    const extension = isJson(option.extension_attributes) ? option.extension_attributes : {};
    for (const chosen of listOf(extension.configurable_item_options)) {
      const code = text(chosen.option_id);
      const attribute = await ctx.session.attribute(code);
      meta.push({
        key: attribute?.default_frontend_label || code,
        value: text(chosen.option_value),
      });
    }
    if (text(item.description)) meta.push({ key: 'description', value: text(item.description) });
    lines.push({
      id: text(item.item_id),
      productId,
      variantId: variantId && variantId !== productId ? variantId : null,
      sku: text(child?.sku ?? item.sku),
      name: text(item.name) || text(item.sku),
      quantity,
      unitPrice: m(price),
      tax: m(item.tax_amount),
      total: { amount: m(rowTotal).amount - Math.abs(m(item.discount_amount).amount), currency },
      taxClass: '',
      meta,
    });
  }
  if (!lines.length) return { reason: 'order has no items' };
  const shippedAll = top.map((i) => {
    const child = childOf(items, i);
    return {
      ordered: num(i.qty_ordered),
      shipped: Math.max(num(i.qty_shipped), num(child?.qty_shipped)),
    };
  });
  const fulfillmentStatus = shippedAll.every((s) => s.shipped >= s.ordered)
    ? 'fulfilled'
    : shippedAll.some((s) => s.shipped > 0)
      ? 'partial'
      : 'unfulfilled';
  const grand = m(o.grand_total);
  const extension = isJson(o.extension_attributes) ? o.extension_attributes : {};
  const assignment = listOf(extension.shipping_assignments)[0];
  const shipping = assignment && isJson(assignment.shipping) ? assignment.shipping : undefined;
  const shippingAmount = m(o.shipping_amount);
  const discount = Math.abs(m(o.discount_amount).amount);
  const payment = isJson(o.payment) ? o.payment : {};
  const paymentInfo = listOf(extension.payment_additional_info);
  const info = Array.isArray(payment.additional_information)
    ? payment.additional_information.map(String)
    : [];
  const fees: FeeLine[] = listOf(extension.custom_fees).map((fee) => ({
    name: text(fee.custom_fee_label) || text(fee.custom_fee_code),
    amount: m(fee.custom_fee_amount),
    tax: m(0),
    taxClass: '',
    taxStatus: 'none',
  }));
  const lineIdAt = (position: unknown) => {
    const item = items[num(position) - 1];
    if (!item) return undefined;
    const parent = isTop(item)
      ? item
      : items.find((p) => text(p.item_id) === text(item.parent_item_id));
    return parent ? text(parent.item_id) : undefined;
  };
  const refunds: Refund[] = listOf(o.creditmemos).map((memo) => ({
    id: text(memo.entity_id),
    createdAt: iso(memo.created_at) ?? new Date(0).toISOString(),
    amount: m(memo.grand_total),
    reason: text(listOf(memo.comments)[0]?.comment),
    lines: listOf(memo.items).flatMap((row) => {
      const lineId = lineIdAt(row.order_item_id);
      const item = items[num(row.order_item_id) - 1];
      if (!lineId || !item || !isTop(item) || num(row.qty) <= 0) return [];
      return [
        {
          lineId,
          quantity: Math.round(num(row.qty)),
          amount: {
            amount: m(row.row_total).amount - Math.abs(m(row.discount_amount).amount),
            currency,
          },
          tax: m(row.tax_amount),
        },
      ];
    }),
  }));
  const notes: OrderNote[] = listOf(o.status_histories)
    .filter((h) => text(h.comment).trim())
    .sort(
      (a, b) =>
        text(a.created_at).localeCompare(text(b.created_at)) || num(a.entity_id) - num(b.entity_id),
    )
    .map((h) => ({
      content: text(h.comment),
      customerNote: flag(h.is_customer_notified) || flag(h.is_visible_on_front),
      author: '',
      createdAt: iso(h.created_at) ?? new Date(0).toISOString(),
    }));
  const [invoice] = listOf(o.invoices);
  const address = (a: unknown): Address | null => {
    if (!isJson(a)) return null;
    return { ...addressOf(a, text(a.region_code) || text(a.region)), email: text(a.email) };
  };
  const order: Order = {
    ...orderDefaults(currency),
    id: text(o.entity_id),
    number: text(o.increment_id),
    createdAt: iso(o.created_at) ?? new Date(0).toISOString(),
    updatedAt: iso(o.updated_at),
    currency,
    customerId: num(o.customer_is_guest) === 1 || !o.customer_id ? null : text(o.customer_id),
    email: text(o.customer_email),
    status: statusFromMagento(text(o.state), text(o.status)),
    paymentStatus: paymentStatusFromTotals({
      grand: grand.amount,
      paid: m(o.total_paid).amount,
      refunded: m(o.total_refunded).amount,
      authorized: m(payment.amount_authorized).amount,
      canceled: m(o.total_canceled).amount > 0,
    }),
    fulfillmentStatus,
    lines,
    shippingLines:
      text(o.shipping_description) || shippingAmount.amount > 0
        ? [
            {
              title: text(o.shipping_description),
              code: text(shipping?.method),
              price: shippingAmount,
              tax: m(o.shipping_tax_amount),
            },
          ]
        : [],
    discounts: discount
      ? [
          {
            code: text(o.coupon_code) || text(o.discount_description),
            amount: { amount: discount, currency },
            tax: m(0),
          },
        ]
      : [],
    fees,
    refunds,
    subtotal: m(o.subtotal),
    taxTotal: m(o.tax_amount),
    shippingTotal: shippingAmount,
    discountTotal: { amount: discount, currency },
    feeTotal: { amount: fees.reduce((n, f) => n + f.amount.amount, 0), currency },
    refundTotal: m(o.total_refunded),
    grandTotal: grand,
    billingAddress: address(o.billing_address),
    shippingAddress: address(shipping?.address),
    note: text(o.customer_note),
    notes,
    paymentMethod: text(payment.method),
    paymentMethodTitle:
      text(paymentInfo.find((e) => e.key === 'method_title')?.value) || (info[0] ?? ''),
    transactionId: text(payment.last_trans_id),
    paidAt: invoice ? iso(invoice.created_at) : null,
    customerIpAddress: text(o.remote_ip),
    metafields: orderFields(o, currency),
  };
  return { record: order };
}
