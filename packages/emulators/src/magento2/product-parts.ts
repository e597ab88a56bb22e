import { MagentoError, invalidField, requiredField } from './magento-error.ts';
import {
  checkKeys,
  isObject,
  objectField,
  optionalArray,
  optionalBool,
  optionalInt,
  optionalNumber,
  optionalString,
  type Json,
} from './input.ts';

/**
 * The parts of a product that ProductRepository::save takes along with it, as their data
 * interfaces in admin-schema-2.4.9.yaml name them: product links (related, up-sell, cross-sell
 * and a grouped product's associated products), downloadable links and samples, custom options,
 * tier prices and bundle options. Each is validated as Magento's save handlers do it and kept
 * in the shape Magento answers with.
 */

/** Link types of a fresh installation (GET /V1/products/links/types). */
export const linkTypes = ['related', 'crosssell', 'upsell', 'associated'] as const;

export interface ProductLinkRecord {
  link_type: (typeof linkTypes)[number];
  linked_sku: string;
  position: number;
  /** Default quantity of an associated (grouped) product. */
  qty: number;
}

export function parseProductLinks(
  value: unknown,
  productSku: string,
  skuExists: (sku: string) => string | undefined,
): ProductLinkRecord[] {
  const className = 'Magento\\Catalog\\Api\\Data\\ProductLinkInterface';
  return (optionalArray(value, 'product_links') ?? []).map((item) => {
    const link = objectField(item, className);
    checkKeys(
      link,
      [
        'sku',
        'link_type',
        'linked_product_sku',
        'linked_product_type',
        'position',
        'extension_attributes',
      ],
      className,
    );
    const type = optionalString(link.link_type) ?? '';
    if (!(linkTypes as readonly string[]).includes(type)) throw invalidField('link_type', type);
    const linked = optionalString(link.linked_product_sku);
    if (!linked) throw requiredField('linked_product_sku');
    // ProductRepository::processLinks loads every linked product by SKU.
    const found = skuExists(linked);
    if (found === undefined) {
      throw new MagentoError(
        404,
        "The product that was requested doesn't exist. Verify the product and try again.",
      );
    }
    if (found.toLowerCase() === productSku.toLowerCase())
      throw new MagentoError(400, 'The product cannot be linked to itself.');
    const extension =
      link.extension_attributes === undefined
        ? {}
        : objectField(
            link.extension_attributes,
            'Magento\\Catalog\\Api\\Data\\ProductLinkExtensionInterface',
          );
    checkKeys(extension, ['qty'], 'Magento\\Catalog\\Api\\Data\\ProductLinkExtensionInterface');
    return {
      link_type: type as ProductLinkRecord['link_type'],
      linked_sku: found,
      position: optionalInt(link.position) ?? 0,
      qty: optionalNumber(extension.qty) ?? 0,
    };
  });
}

export interface DownloadableFile {
  data: Buffer;
  name: string;
}

export interface FileStore {
  /** Stores an uploaded file under pub/media/downloadable/files/<kind>, answering its path. */
  store(kind: 'links' | 'samples' | 'link_samples', file: DownloadableFile): string;
  has(kind: 'links' | 'samples' | 'link_samples', path: string): boolean;
}

const httpUrl = /^https?:\/\/[^/\s]+/i;

/**
 * Magento\Downloadable\Model\Link\ContentValidator: a URL link must be a valid URL whose host is
 * in env.php's downloadable_domains (`bin/magento downloadable:domains:add`), a file link needs
 * its content (base64) or a file the store already has.
 */
function resource(
  input: Json,
  prefix: 'link' | 'sample',
  kind: 'links' | 'samples' | 'link_samples',
  domains: ReadonlySet<string>,
  files: FileStore,
  required: boolean,
): Json {
  const type = optionalString(input[`${prefix}_type`]);
  const what = prefix === 'link' ? 'Link' : 'Sample';
  if (type === undefined || type === '') {
    if (required) throw requiredField(`${prefix}_type`);
    return {};
  }
  if (type === 'url') {
    const url = optionalString(input[`${prefix}_url`]);
    if (url === undefined && !required) return { [`${prefix}_type`]: type };
    if (!url || !httpUrl.test(url))
      throw new MagentoError(400, `${what} URL must have valid format.`);
    if (!domains.has(new URL(url).hostname.toLowerCase())) {
      throw new MagentoError(
        400,
        `${what} URL's domain is not in list of downloadable_domains in env.php.`,
      );
    }
    return { [`${prefix}_type`]: type, [`${prefix}_url`]: url };
  }
  if (type !== 'file') throw invalidField(`${prefix}_type`, type);
  const content = input[`${prefix}_file_content`];
  if (content !== undefined && content !== null) {
    const file = objectField(content, 'Magento\\Downloadable\\Api\\Data\\File\\ContentInterface');
    checkKeys(
      file,
      ['file_data', 'name', 'extension_attributes'],
      'Magento\\Downloadable\\Api\\Data\\File\\ContentInterface',
    );
    const data = optionalString(file.file_data) ?? '';
    const name = optionalString(file.name) ?? '';
    if (!data || !/^[A-Za-z0-9+/=\s]+$/.test(data))
      throw new MagentoError(400, 'Provided content must be valid base64 encoded data.');
    if (!name || /[\\/]/.test(name))
      throw new MagentoError(400, 'Provided file name contains forbidden characters.');
    const path = files.store(kind, { data: Buffer.from(data, 'base64'), name });
    return { [`${prefix}_type`]: type, [`${prefix}_file`]: path };
  }
  const path = optionalString(input[`${prefix}_file`]);
  if (!path || !files.has(kind, path))
    throw new MagentoError(400, `${what} file not found. Please try again.`);
  return { [`${prefix}_type`]: type, [`${prefix}_file`]: path };
}

export function parseDownloadableLinks(
  value: unknown,
  nextId: () => number,
  domains: ReadonlySet<string>,
  files: FileStore,
  existing: readonly Json[],
): Json[] {
  const className = 'Magento\\Downloadable\\Api\\Data\\LinkInterface';
  return (optionalArray(value, 'downloadable_product_links') ?? []).map((item) => {
    const link = objectField(item, className);
    checkKeys(
      link,
      [
        'id',
        'title',
        'sort_order',
        'is_shareable',
        'price',
        'number_of_downloads',
        'link_type',
        'link_file',
        'link_file_content',
        'link_url',
        'sample_type',
        'sample_file',
        'sample_file_content',
        'sample_url',
        'extension_attributes',
      ],
      className,
    );
    const shareable = optionalInt(link.is_shareable) ?? 2;
    if (![0, 1, 2].includes(shareable)) throw invalidField('is_shareable', shareable);
    const downloads = optionalInt(link.number_of_downloads) ?? 0;
    if (downloads < 0)
      throw new MagentoError(400, 'Number of downloads must be a positive integer.');
    const price = optionalNumber(link.price) ?? 0;
    if (price < 0) throw new MagentoError(400, 'Link price must have numeric positive value.');
    const id = optionalInt(link.id);
    const kept = id !== undefined && existing.some((e) => e.id === id);
    return {
      id: kept ? id : nextId(),
      title: optionalString(link.title) ?? '',
      sort_order: optionalInt(link.sort_order) ?? 0,
      is_shareable: shareable,
      price,
      number_of_downloads: downloads,
      ...resource(link, 'link', 'links', domains, files, true),
      ...resource(link, 'sample', 'link_samples', domains, files, false),
    };
  });
}

export function parseDownloadableSamples(
  value: unknown,
  nextId: () => number,
  domains: ReadonlySet<string>,
  files: FileStore,
  existing: readonly Json[],
): Json[] {
  const className = 'Magento\\Downloadable\\Api\\Data\\SampleInterface';
  return (optionalArray(value, 'downloadable_product_samples') ?? []).map((item) => {
    const sample = objectField(item, className);
    checkKeys(
      sample,
      [
        'id',
        'title',
        'sort_order',
        'sample_type',
        'sample_file',
        'sample_file_content',
        'sample_url',
        'extension_attributes',
      ],
      className,
    );
    const title = optionalString(sample.title) ?? '';
    if (!title) throw requiredField('title');
    const id = optionalInt(sample.id);
    const kept = id !== undefined && existing.some((e) => e.id === id);
    return {
      id: kept ? id : nextId(),
      title,
      sort_order: optionalInt(sample.sort_order) ?? 0,
      ...resource(sample, 'sample', 'samples', domains, files, true),
    };
  });
}

/** Product custom options (engraving text, a gift-wrap choice): Magento_Catalog product options. */
export function parseCustomOptions(value: unknown, sku: string, nextId: () => number): Json[] {
  const className = 'Magento\\Catalog\\Api\\Data\\ProductCustomOptionInterface';
  const selectable = new Set(['drop_down', 'radio', 'checkbox', 'multiple']);
  const types = new Set(['field', 'area', 'file', 'date', 'date_time', 'time', ...selectable]);
  return (optionalArray(value, 'options') ?? []).map((item) => {
    const option = objectField(item, className);
    checkKeys(
      option,
      [
        'product_sku',
        'option_id',
        'title',
        'type',
        'sort_order',
        'is_require',
        'price',
        'price_type',
        'sku',
        'file_extension',
        'max_characters',
        'image_size_x',
        'image_size_y',
        'values',
        'extension_attributes',
      ],
      className,
    );
    const title = optionalString(option.title) ?? '';
    if (!title) throw requiredField('title');
    const type = optionalString(option.type) ?? '';
    if (!types.has(type)) throw invalidField('type', type);
    const values = (optionalArray(option.values, 'values') ?? []).map((v) => {
      const entry = objectField(
        v,
        'Magento\\Catalog\\Api\\Data\\ProductCustomOptionValuesInterface',
      );
      return {
        title: optionalString(entry.title) ?? '',
        sort_order: optionalInt(entry.sort_order) ?? 0,
        price: optionalNumber(entry.price) ?? 0,
        price_type: optionalString(entry.price_type) ?? 'fixed',
        sku: optionalString(entry.sku) ?? '',
        option_type_id: nextId(),
      };
    });
    if (selectable.has(type) && !values.length)
      throw new MagentoError(400, 'The value of option "%1" is empty.', [title]);
    const out: Json = {
      product_sku: sku,
      option_id: nextId(),
      title,
      type,
      sort_order: optionalInt(option.sort_order) ?? 0,
      is_require: optionalBool(option.is_require) ?? false,
    };
    if (selectable.has(type)) out.values = values;
    else {
      out.price = optionalNumber(option.price) ?? 0;
      out.price_type = optionalString(option.price_type) ?? 'fixed';
      out.sku = optionalString(option.sku) ?? '';
      if (type === 'field' || type === 'area')
        out.max_characters = optionalInt(option.max_characters) ?? 0;
    }
    return out;
  });
}

export function parseTierPrices(value: unknown): Json[] {
  const className = 'Magento\\Catalog\\Api\\Data\\ProductTierPriceInterface';
  return (optionalArray(value, 'tier_prices') ?? []).map((item) => {
    const tier = objectField(item, className);
    checkKeys(tier, ['customer_group_id', 'qty', 'value', 'extension_attributes'], className);
    const qty = optionalNumber(tier.qty);
    const price = optionalNumber(tier.value);
    if (qty === undefined || qty <= 0) throw invalidField('qty', String(tier.qty));
    if (price === undefined) throw requiredField('value');
    const extension = isObject(tier.extension_attributes) ? tier.extension_attributes : {};
    return {
      customer_group_id: optionalInt(tier.customer_group_id) ?? 32000,
      qty,
      value: price,
      extension_attributes: { website_id: optionalInt(extension.website_id) ?? 0 },
    };
  });
}

export function parseBundleOptions(
  value: unknown,
  sku: string,
  nextId: () => number,
  skuExists: (sku: string) => string | undefined,
): Json[] {
  const className = 'Magento\\Bundle\\Api\\Data\\OptionInterface';
  return (optionalArray(value, 'bundle_product_options') ?? []).map((item, index) => {
    const option = objectField(item, className);
    checkKeys(
      option,
      [
        'option_id',
        'title',
        'required',
        'type',
        'position',
        'sku',
        'product_links',
        'extension_attributes',
      ],
      className,
    );
    const optionId = nextId();
    const links = (optionalArray(option.product_links, 'product_links') ?? []).map((l, i) => {
      const link = objectField(l, 'Magento\\Bundle\\Api\\Data\\LinkInterface');
      const linked = optionalString(link.sku) ?? '';
      const found = skuExists(linked);
      if (found === undefined) throw requiredField('sku');
      return {
        id: String(nextId()),
        sku: found,
        option_id: optionId,
        qty: optionalNumber(link.qty) ?? 1,
        position: optionalInt(link.position) ?? i,
        is_default: optionalBool(link.is_default) ?? false,
        price: optionalNumber(link.price) ?? 0,
        price_type: optionalInt(link.price_type) ?? 0,
        can_change_quantity: optionalInt(link.can_change_quantity) ?? 0,
      };
    });
    return {
      option_id: optionId,
      title: optionalString(option.title) ?? '',
      required: optionalBool(option.required) ?? true,
      type: optionalString(option.type) ?? 'select',
      position: optionalInt(option.position) ?? index + 1,
      sku,
      product_links: links,
    };
  });
}
