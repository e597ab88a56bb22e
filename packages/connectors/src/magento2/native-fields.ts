import {
  addressEmailKept,
  asStoreWide,
  displayTypeKept,
  lineMetaKept,
  lineSkuKept,
  paymentMethodKept,
  productMetafieldsKept,
  statusKept,
  typeKept,
  variantMetafieldsKept,
  variantTaxClassKept,
  weightKept,
} from './comparable.ts';
import { NO_SKU } from './order-values.ts';
import { keywordsKept, pageMetafieldsKept, pageStatusKept } from './page-mapping.ts';
import type { DestinationFields, NativeCatalogue, SourceField } from '../kit/fields.ts';

/**
 * Magento's own fields per entity (admin-schema-2.4.9.yaml data interfaces) and what a migration
 * from Magento does with each, as kit/fields.ts describes; and what Magento cannot hold as a
 * destination.
 *
 * The native record of each entity is what the REST API answers for it, with the sub-resources
 * the connector reads along with it, in the form native.ts builds:
 * - products: GET /V1/products items; `custom_attributes` (a list of {attribute_code, value} in
 *   the API) keyed by attribute code, Magento's own attributes there and the merchant's
 *   (is_user_defined) under `user_defined_attributes`; select values given by their option
 *   labels, tax_class_id by the tax class name, configurable options by attribute code and value
 *   labels (the ids are each store's own); `children`: a configurable product's child products
 *   (GET /V1/configurable-products/{sku}/children) in the same form;
 * - categories: GET /V1/categories/list items, custom attributes keyed the same way, parent_id
 *   null for a category right below the store's root category;
 * - customers: GET /V1/customers/search items, custom attributes keyed, group_id given by the
 *   group's code;
 * - orders: GET /V1/orders items with `creditmemos` (GET /V1/creditmemos) and `invoices`
 *   (GET /V1/invoices) of the order; configurable item options by attribute code and value
 *   label, an item's product_id null when that product no longer exists, and credit memo and
 *   invoice items naming their order item by its position among the order's items.
 *
 * Magento's own fields the model has no field for are carried as metafields in the 'magento'
 * namespace, keyed by attribute code or field path ('meta_keyword', 'stock_item.min_sale_qty',
 * 'payment.po_number'); a Magento destination writes each back to the same field, and only values
 * that differ from what a new record gets anyway are kept.
 */

const magento = (key: string): SourceField => ({
  converted: 'metafields',
  how: `kept as the metafield magento.${key}`,
});
const assigned = (why: string): SourceField => ({ assigned: why });
const notCarried = (why: string): SourceField => ({ notCarried: why });

const stamped = assigned('Magento stamps it when the record is saved');

// ------------------------------------------------------------------ products

/** The fields of a product and of a configurable product's child products alike. */
function productFields(prefix: '' | 'children[].'): Record<string, SourceField> {
  const child = prefix !== '';
  const v = (path: string) => (child ? `variants.${path}` : path);
  // A simple product's price, stock and sale are its one variant's.
  const variant = (path: string) => `variants.${path}`;
  const meta = (key: string): SourceField =>
    child
      ? { converted: 'variants.metafields', how: `kept as the variant's metafield magento.${key}` }
      : magento(key);
  const stockMeta = (key: string): SourceField => ({
    converted: 'variants.metafields',
    how: `kept as the variant's metafield magento.stock_item.${key} when set on the product rather than taken from the store configuration`,
  });
  const fields: Record<string, SourceField> = {
    id: assigned(child ? 'Magento numbers the child products' : 'Magento numbers its products'),
    sku: { carried: child ? 'variants.sku' : ['sku', 'variants.sku'] },
    created_at: child ? stamped : { carried: 'createdAt' },
    updated_at: stamped,
    price: { carried: variant('price') },
    weight: { carried: child ? 'variants.weight' : ['weight', 'variants.weight'] },
    'extension_attributes.website_ids': notCarried(
      'the websites a product is sold on: the model has one store, and the product is written to the destination’s main website (reported when it was on several)',
    ),
    'extension_attributes.stock_item.item_id': assigned('Magento numbers stock items'),
    'extension_attributes.stock_item.product_id': assigned('the id of the product itself'),
    'extension_attributes.stock_item.stock_id': assigned('the default stock'),
    'extension_attributes.stock_item.qty': { carried: variant('inventory.quantity') },
    'extension_attributes.stock_item.is_in_stock': {
      converted: variant('inventory.stockStatus'),
      how: "in stock, out of stock, or on backorder when it is in stock with no quantity left and backorders allowed (Magento has no 'on backorder' status of its own)",
    },
    'extension_attributes.stock_item.manage_stock': { carried: variant('inventory.tracked') },
    'extension_attributes.stock_item.use_config_manage_stock': stockMeta('use_config_manage_stock'),
    'extension_attributes.stock_item.backorders': {
      converted: variant('inventory.backorders'),
      how: "0 'no', 1 'yes' (allowed below zero), 2 'notify' (allowed, and the customer is told)",
    },
    'extension_attributes.stock_item.use_config_backorders': stockMeta('use_config_backorders'),
    'extension_attributes.stock_item.notify_stock_qty': {
      carried: variant('inventory.lowStockThreshold'),
    },
    'extension_attributes.stock_item.use_config_notify_stock_qty': {
      converted: variant('inventory.lowStockThreshold'),
      how: "null: the store's default threshold",
    },
    'extension_attributes.stock_item.max_sale_qty': child
      ? stockMeta('max_sale_qty')
      : {
          converted: ['soldIndividually', 'variants.metafields'],
          how: 'a maximum of 1 per cart is "sold individually"; another maximum is kept as the metafield magento.stock_item.max_sale_qty',
        },
    'extension_attributes.stock_item.use_config_max_sale_qty': stockMeta('use_config_max_sale_qty'),
    'extension_attributes.stock_item.min_sale_qty': stockMeta('min_sale_qty'),
    'extension_attributes.stock_item.use_config_min_sale_qty': stockMeta('use_config_min_sale_qty'),
    'extension_attributes.stock_item.min_qty': stockMeta('min_qty'),
    'extension_attributes.stock_item.use_config_min_qty': stockMeta('use_config_min_qty'),
    'extension_attributes.stock_item.qty_increments': stockMeta('qty_increments'),
    'extension_attributes.stock_item.use_config_qty_increments': stockMeta(
      'use_config_qty_increments',
    ),
    'extension_attributes.stock_item.enable_qty_increments': stockMeta('enable_qty_increments'),
    'extension_attributes.stock_item.use_config_enable_qty_inc': stockMeta(
      'use_config_enable_qty_inc',
    ),
    'extension_attributes.stock_item.is_qty_decimal': stockMeta('is_qty_decimal'),
    'extension_attributes.stock_item.is_decimal_divided': stockMeta('is_decimal_divided'),
    'extension_attributes.stock_item.show_default_notification_message': assigned(
      'a display flag Magento sets itself',
    ),
    'extension_attributes.stock_item.low_stock_date': assigned(
      'set by Magento when the stock fell below the notify quantity',
    ),
    'extension_attributes.stock_item.stock_status_changed_auto': assigned(
      'set by Magento when it changed the stock status itself',
    ),
    'extension_attributes.stock_item.extension_attributes': notCarried(
      'fields of stock modules (multi-source inventory) the model has no place for',
    ),
    tier_prices: notCarried(
      'quantity and customer-group prices: the model has one regular price and one sale price',
    ),
    options: notCarried(
      'custom options (engraving text, a gift-wrap choice) have no place in the model: the product arrives without them',
    ),
    'media_gallery_entries[].id': assigned('Magento numbers gallery entries'),
    'media_gallery_entries[].extension_attributes': notCarried('videos: the model has images only'),
    'media_gallery_entries[].disabled': notCarried(
      'an image hidden from the product page: the model has no hidden images, it arrives shown',
    ),
    'media_gallery_entries[].types': notCarried(
      "Magento's image roles: the model knows the main image (the first), which a destination shows as the base, small and thumbnail image; other role layouts are reported",
    ),
    'custom_attributes.url_path': assigned('derived by Magento from the URL keys'),
    'custom_attributes.category_ids': assigned('the categories of the category links'),
    'custom_attributes.has_options': assigned('derived from the custom options'),
    'custom_attributes.required_options': assigned('derived from the custom options'),
    'custom_attributes.quantity_and_stock_status': assigned('a copy of the stock item'),
    'custom_attributes.image': assigned('the file of the gallery entry with the base image role'),
    'custom_attributes.small_image': assigned('the file of the entry with the small image role'),
    'custom_attributes.thumbnail': assigned('the file of the entry with the thumbnail role'),
    'custom_attributes.swatch_image': assigned('the file of the entry with the swatch role'),
    'custom_attributes.image_label': assigned('the label of the base image'),
    'custom_attributes.small_image_label': assigned('the label of the small image'),
    'custom_attributes.thumbnail_label': assigned('the label of the thumbnail'),
    'custom_attributes.links_exist': assigned('derived from the downloadable links'),
    'custom_attributes.special_price': { carried: variant('salePrice') },
    'custom_attributes.special_from_date': { converted: variant('saleStartsAt'), how: 'UTC' },
    'custom_attributes.special_to_date': { converted: variant('saleEndsAt'), how: 'UTC' },
    'custom_attributes.tax_class_id': child
      ? {
          converted: 'variants.taxClass',
          how: "by tax class name; null when it is the product's",
        }
      : {
          converted: ['taxStatus', 'taxClass', 'variants.taxClass'],
          how: "by tax class name ('' for Taxable Goods, the default); 'None' is a product that is not taxed",
        },
    'custom_attributes.description': { carried: v('descriptionHtml') },
    'custom_attributes.url_key': child
      ? {
          converted: 'variants.metafields',
          how: "kept as the variant's metafield magento.url_key when it is not the product's URL key followed by the option values",
        }
      : { converted: ['slug', 'sourceUrlPath'], how: 'lower case; the page is <url_key>.html' },
    // Magento's own attributes without a field in the model.
    'custom_attributes.meta_keyword': meta('meta_keyword'),
    'custom_attributes.news_from_date': meta('news_from_date'),
    'custom_attributes.news_to_date': meta('news_to_date'),
    'custom_attributes.country_of_manufacture': meta('country_of_manufacture'),
    'custom_attributes.cost': meta('cost'),
    'custom_attributes.msrp': meta('msrp'),
    'custom_attributes.msrp_display_actual_price_type': meta('msrp_display_actual_price_type'),
    'custom_attributes.gift_message_available': meta('gift_message_available'),
    'custom_attributes.options_container': meta('options_container'),
    'custom_attributes.page_layout': meta('page_layout'),
    'custom_attributes.custom_layout': meta('custom_layout'),
    'custom_attributes.custom_layout_update_file': meta('custom_layout_update_file'),
    'custom_attributes.custom_design_from': meta('custom_design_from'),
    'custom_attributes.custom_design_to': meta('custom_design_to'),
    'custom_attributes.custom_design': notCarried(
      'a theme of the store, named by an id the destination numbers itself',
    ),
    'custom_attributes.links_title': meta('links_title'),
    'custom_attributes.links_purchased_separately': meta('links_purchased_separately'),
    'custom_attributes.samples_title': meta('samples_title'),
    'custom_attributes.gift_wrapping_available': meta('gift_wrapping_available'),
    'custom_attributes.gift_wrapping_price': meta('gift_wrapping_price'),
    'custom_attributes.is_returnable': meta('is_returnable'),
    'custom_attributes.price_type': notCarried('how a bundle is priced: the model has no bundles'),
    'custom_attributes.price_view': notCarried(
      'how a bundle price shows: the model has no bundles',
    ),
    'custom_attributes.sku_type': notCarried('how a bundle SKU is made: the model has no bundles'),
    'custom_attributes.weight_type': notCarried(
      'how a bundle weight is made: the model has no bundles',
    ),
    'custom_attributes.shipment_type': notCarried('how a bundle ships: the model has no bundles'),
  };
  if (child) {
    Object.assign(fields, {
      'children[].name': {
        converted: 'variants.metafields',
        how: "kept as the variant's metafield magento.name when it is not the product's name followed by the option values",
      },
      'children[].attribute_set_id': notCarried(
        "a variant's attribute set: written in its product's (reported when it differs)",
      ),
      'children[].status': {
        converted: 'variants.status',
        how: "enabled 'active', disabled 'private' (kept, not offered)",
      },
      'children[].visibility': notCarried(
        'a variant is shown through its product; one also visible on its own is read as a product of its own as well (reported)',
      ),
      'children[].type_id': {
        converted: 'variants.virtual',
        how: 'a virtual child is a virtual variant',
      },
      'children[].extension_attributes.category_links': notCarried(
        "a variant's own categories: written in its product's (reported when they differ)",
      ),
      'children[].product_links': notCarried(
        "a variant's own related products, up-sells and cross-sells: the model links products",
      ),
      'children[].media_gallery_entries': {
        converted: 'variants.imageUrl',
        how: "the variant's first image (its others are reported)",
      },
      'children[].media_gallery_entries[].label': notCarried(
        "a variant image's own label: written as the label the product gives the same image",
      ),
      'children[].media_gallery_entries[].position': {
        converted: 'variants.imageUrl',
        how: 'the first image',
      },
      'children[].extension_attributes.configurable_product_links': assigned('none on a variant'),
      'children[].user_defined_attributes': {
        converted: ['variants.optionValues', 'variants.metafields'],
        how: "the values of the product's options, by label; the merchant's other attributes as the variant's metafields magento.<code>",
      },
      'children[].custom_attributes.short_description': meta('short_description'),
      'children[].custom_attributes.meta_title': meta('meta_title'),
      'children[].custom_attributes.meta_description': meta('meta_description'),
    });
    return Object.fromEntries(
      Object.entries(fields).map(([path, field]) => [
        path.startsWith('children[]') ? path : `children[].${path}`,
        field,
      ]),
    );
  }
  return fields;
}

const products: Record<string, SourceField> = {
  ...productFields(''),
  name: { carried: 'name' },
  attribute_set_id: {
    converted: 'metafields',
    how: 'an attribute set other than Default is kept by name as the metafield magento.attribute_set',
  },
  status: {
    converted: 'status',
    how: "enabled 'active', disabled 'draft'",
  },
  visibility: {
    converted: 'visibility',
    how: "1 Not Visible Individually 'hidden', 2 Catalog 'catalog', 3 Search 'search', 4 'visible'",
  },
  type_id: {
    converted: ['type', 'variants.virtual', 'variants.downloadable'],
    how: "simple, virtual and downloadable 'simple' (with the variant virtual or downloadable), configurable 'variable', grouped 'grouped', bundle 'grouped' of its parts",
  },
  'extension_attributes.category_links[].category_id': {
    carried: 'categoryIds',
    ref: 'categories',
  },
  'extension_attributes.category_links[].position': {
    converted: 'menuOrder',
    how: 'the product’s position in its categories when it is the same in each (positions that differ are reported)',
  },
  'extension_attributes.category_links[].extension_attributes': notCarried(
    'fields of modules on a category link',
  ),
  'extension_attributes.configurable_product_options[].id': assigned('Magento numbers them'),
  'extension_attributes.configurable_product_options[].product_id': assigned(
    'the configurable product itself',
  ),
  'extension_attributes.configurable_product_options[].attribute_id': {
    converted: 'options.shared',
    how: 'the store-wide attribute, by code',
  },
  'extension_attributes.configurable_product_options[].label': { carried: 'options.name' },
  'extension_attributes.configurable_product_options[].position': {
    converted: 'options.position',
    how: 'the order of the options',
  },
  'extension_attributes.configurable_product_options[].is_use_default': assigned(
    'whether the store-view label follows the default one',
  ),
  'extension_attributes.configurable_product_options[].values': {
    converted: 'options.values',
    how: 'by label, in the order the options list them',
  },
  'extension_attributes.configurable_product_options[].extension_attributes': notCarried(
    'fields of modules on a configurable option',
  ),
  'extension_attributes.configurable_product_links': assigned(
    'the ids of the child products, which are read as the product’s variants',
  ),
  'extension_attributes.downloadable_product_links[].id': assigned('Magento numbers links'),
  'extension_attributes.downloadable_product_links[].title': {
    carried: 'variants.downloads.name',
  },
  'extension_attributes.downloadable_product_links[].sort_order': {
    converted: 'variants.downloads',
    how: 'the order of the files',
  },
  'extension_attributes.downloadable_product_links[].link_type': {
    converted: 'variants.downloads.url',
    how: "a link to a URL keeps the URL; a file the store keeps is given by its address in the store's media (Magento serves it to buyers only)",
  },
  'extension_attributes.downloadable_product_links[].link_url': {
    carried: 'variants.downloads.url',
  },
  'extension_attributes.downloadable_product_links[].link_file': {
    converted: 'variants.downloads.url',
    how: 'the address of the file in the store’s media',
  },
  'extension_attributes.downloadable_product_links[].number_of_downloads': {
    converted: 'variants.downloadLimit',
    how: 'one limit for all the files (0 = unlimited; limits that differ between files are reported)',
  },
  'extension_attributes.downloadable_product_links[].is_shareable': notCarried(
    'whether one download link may be shared between customers: the model has no such setting',
  ),
  'extension_attributes.downloadable_product_links[].price': notCarried(
    'a price for each file (links sold separately): the model sells the files together',
  ),
  'extension_attributes.downloadable_product_links[].sample_type': notCarried(
    'a free sample of the file: the model has no samples',
  ),
  'extension_attributes.downloadable_product_links[].sample_url': notCarried(
    'a free sample of the file: the model has no samples',
  ),
  'extension_attributes.downloadable_product_links[].sample_file': notCarried(
    'a free sample of the file: the model has no samples',
  ),
  'extension_attributes.downloadable_product_links[].extension_attributes': notCarried(
    'fields of modules on a download link',
  ),
  'extension_attributes.downloadable_product_samples': notCarried(
    'free samples of a downloadable product: the model has no samples',
  ),
  'extension_attributes.bundle_product_options': {
    converted: 'groupedProductIds',
    how: 'a bundle arrives as a grouped product of its parts; its options, quantities and prices have no place in the model and are reported',
  },
  'extension_attributes.giftcard_amounts': notCarried(
    'gift card amounts: the model has no gift cards',
  ),
  'extension_attributes.discounts': assigned('discounts of cart rules, computed by Magento'),
  'product_links[]': {
    carried: ['upsellIds', 'crossSellIds', 'groupedProductIds', 'metafields'],
    unordered: true,
  },
  'product_links[].sku': assigned('the product’s own SKU'),
  'product_links[].link_type': {
    converted: ['upsellIds', 'crossSellIds', 'groupedProductIds', 'metafields'],
    how: "upsell, crosssell and associated (a grouped product's members) by their meaning; related products (no field in the model) as the metafield magento.related (their SKUs)",
  },
  'product_links[].linked_product_sku': {
    carried: ['upsellIds', 'crossSellIds', 'groupedProductIds', 'metafields'],
  },
  'product_links[].linked_product_type': assigned('the type of the linked product'),
  'product_links[].position': {
    converted: ['upsellIds', 'crossSellIds', 'groupedProductIds', 'metafields'],
    how: 'the order of the links',
  },
  'product_links[].extension_attributes': notCarried(
    'the default quantity of a grouped product’s member: the model has none',
  ),
  'media_gallery_entries[].media_type': { converted: 'images', how: 'images only' },
  'media_gallery_entries[].label': { carried: 'images.alt' },
  'media_gallery_entries[].position': {
    converted: 'images.position',
    how: 'the gallery order (Magento counts from 1)',
  },
  'media_gallery_entries[].file': {
    converted: 'images.url',
    how: 'the address of the image in the store’s media (<base media URL>catalog/product<file>)',
  },
  'custom_attributes.short_description': { carried: 'shortDescriptionHtml' },
  'custom_attributes.meta_title': { carried: 'seoTitle' },
  'custom_attributes.meta_description': { carried: 'seoDescription' },
  user_defined_attributes: {
    converted: ['attributes', 'options', 'metafields'],
    how: "the merchant's select and multiselect attributes as shared attributes (by label, code as slug, shown when visible on the storefront), the values of a configurable product's options, other attributes as metafields magento.<code>",
  },
  'user_defined_attributes.manufacturer': { carried: 'vendor' },
  'user_defined_attributes.replatform_source_id': assigned(
    'this service’s marker on the products it created (the source id)',
  ),
  'children[].user_defined_attributes.replatform_source_id': assigned(
    'this service’s marker on the child products it created',
  ),
  children: {
    converted: 'variants',
    how: "a configurable product's child products are its variants",
  },
  ...productFields('children[].'),
};

// ------------------------------------------------------------------ categories

const categories: Record<string, SourceField> = {
  id: assigned('Magento numbers its categories'),
  parent_id: { carried: 'parentId', ref: 'categories' },
  name: { carried: 'name' },
  is_active: magento('is_active'),
  include_in_menu: magento('include_in_menu'),
  position: { converted: 'position', how: 'among its siblings (Magento counts from 1)' },
  level: assigned('the depth in the tree'),
  children: assigned('the ids of the category’s children'),
  path: assigned('the ids from the root'),
  created_at: assigned('Magento stamps it; the model keeps no category dates'),
  updated_at: stamped,
  available_sort_by: magento('available_sort_by'),
  extension_attributes: notCarried('fields of modules on a category'),
  'custom_attributes.description': { carried: 'description' },
  'custom_attributes.url_key': {
    converted: ['slug', 'sourceUrlPath'],
    how: 'lower case; the page is <url_path>.html',
  },
  'custom_attributes.url_path': { converted: 'sourceUrlPath', how: 'the page is <url_path>.html' },
  'custom_attributes.path': assigned('the ids from the root'),
  'custom_attributes.children_count': assigned('counted by Magento'),
  'custom_attributes.meta_title': { carried: 'seoTitle' },
  'custom_attributes.meta_description': { carried: 'seoDescription' },
  'custom_attributes.meta_keywords': magento('meta_keywords'),
  'custom_attributes.image': {
    converted: 'imageUrl',
    how: "the image's address in the store's media (catalog/category/<file>)",
  },
  'custom_attributes.display_mode': {
    converted: ['displayType', 'metafields'],
    how: "PRODUCTS 'products'; a static block (PAGE, PRODUCTS_AND_PAGE) as the metafield magento.display_mode",
  },
  'custom_attributes.landing_page': notCarried(
    'the static block shown on the category page: blocks are not migrated',
  ),
  'custom_attributes.is_anchor': magento('is_anchor'),
  'custom_attributes.default_sort_by': magento('default_sort_by'),
  'custom_attributes.filter_price_range': magento('filter_price_range'),
  'custom_attributes.page_layout': magento('page_layout'),
  'custom_attributes.custom_use_parent_settings': magento('custom_use_parent_settings'),
  'custom_attributes.custom_apply_to_products': magento('custom_apply_to_products'),
  'custom_attributes.custom_layout_update_file': magento('custom_layout_update_file'),
  'custom_attributes.custom_design_from': magento('custom_design_from'),
  'custom_attributes.custom_design_to': magento('custom_design_to'),
  'custom_attributes.custom_design': notCarried(
    'a theme of the store, named by an id the destination numbers itself',
  ),
  'custom_attributes.automatic_sorting': magento('automatic_sorting'),
  user_defined_attributes: {
    converted: 'metafields',
    how: "the merchant's category attributes as metafields magento.<code>",
  },
};

// ------------------------------------------------------------------ customers

const customers: Record<string, SourceField> = {
  id: assigned('Magento numbers its customers'),
  email: { converted: 'email', how: 'lower case' },
  firstname: { carried: 'firstName' },
  lastname: { carried: 'lastName' },
  middlename: magento('middlename'),
  prefix: magento('prefix'),
  suffix: magento('suffix'),
  dob: magento('dob'),
  gender: magento('gender'),
  taxvat: magento('taxvat'),
  group_id: {
    converted: 'group',
    how: "the group's code ('' for General, the default group of new accounts)",
  },
  disable_auto_group_change: magento('disable_auto_group_change'),
  created_at: { carried: 'createdAt' },
  updated_at: stamped,
  created_in: assigned('the store view Magento records the account was created in'),
  confirmation: assigned('the key Magento e-mails for confirming the account'),
  store_id: assigned('the store view of the account: the destination’s default'),
  website_id: assigned('the website of the account: the destination’s main website'),
  default_billing: assigned(
    'the id of the default billing address, which the address’s own default_billing also says',
  ),
  default_shipping: assigned(
    'the id of the default shipping address, which the address’s own default_shipping also says',
  ),
  'addresses[].id': assigned('Magento numbers addresses'),
  'addresses[].customer_id': assigned('the customer itself'),
  'addresses[].firstname': { carried: 'addresses.firstName' },
  'addresses[].lastname': { carried: 'addresses.lastName' },
  'addresses[].company': { carried: 'addresses.company' },
  'addresses[].street': {
    converted: ['addresses.address1', 'addresses.address2'],
    how: 'the first line, then the others one per line',
  },
  'addresses[].city': { carried: 'addresses.city' },
  'addresses[].postcode': { carried: 'addresses.postalCode' },
  'addresses[].country_id': { carried: 'addresses.countryCode' },
  'addresses[].region': { converted: 'addresses.province', how: 'the region code, or its name' },
  'addresses[].region.region_id': assigned('the id of the region in Magento’s directory'),
  'addresses[].region_id': assigned('the id of the region in Magento’s directory'),
  'addresses[].telephone': { carried: ['addresses.phone', 'phone'] },
  'addresses[].default_billing': { carried: 'addresses.isDefaultBilling' },
  'addresses[].default_shipping': { carried: 'addresses.isDefaultShipping' },
  'addresses[].middlename': notCarried('a middle name on an address: the model has none'),
  'addresses[].prefix': notCarried('a name prefix on an address: the model has none'),
  'addresses[].suffix': notCarried('a name suffix on an address: the model has none'),
  'addresses[].fax': notCarried('a fax number on an address: the model has none'),
  'addresses[].vat_id': notCarried(
    'a VAT number on an address: the model keeps the tax/VAT number of the customer only',
  ),
  'addresses[].custom_attributes': notCarried('custom attributes of an address'),
  'addresses[].extension_attributes': notCarried('fields of modules on an address'),
  'extension_attributes.is_subscribed': { carried: 'acceptsMarketing' },
  'extension_attributes.assistance_allowed': magento('assistance_allowed'),
  'extension_attributes.company_attributes': notCarried('B2B company accounts are not migrated'),
  'extension_attributes.all_company_attributes': notCarried(
    'B2B company accounts are not migrated',
  ),
  custom_attributes: {
    converted: 'metafields',
    how: "the customer's custom attributes as metafields magento.<code>",
  },
};

// ------------------------------------------------------------------ coupons

/** A combine condition's operator: Magento keeps '' or nothing (null), which mean the same. */
const noOperator = (value: unknown) => (value === '' ? null : value);

const categoryCondition: SourceField = {
  converted: ['categoryIds', 'excludedCategoryIds'],
  how: 'the categories an item must (or must not) be in',
  ref: 'categories',
  unordered: true,
};

/**
 * A cart price rule (sales-rule-data-rule-interface) with its primary coupon under `coupon`;
 * category conditions list their ids in `category_ids` (read.ts nativeCondition).
 */
const coupons: Record<string, SourceField> = {
  rule_id: assigned('Magento numbers its rules'),
  name: {
    converted: 'metafields',
    how: 'kept as the metafield magento.name when it is not the code (the name a rule gets when written)',
  },
  description: { carried: 'description' },
  store_labels: magento('store_labels'),
  website_ids: notCarried(
    'the websites of the store a rule is for: a coupon is for the whole store in the model',
  ),
  customer_group_ids: notCarried(
    'the customer groups a rule is for: the model has no customer groups on a coupon',
  ),
  from_date: {
    converted: 'startsAt',
    how: 'the start of that day in the store’s time zone',
  },
  to_date: { converted: 'expiresAt', how: 'the end of that day in the store’s time zone' },
  uses_per_customer: { converted: 'usageLimitPerCustomer', how: '0 (unlimited) is none' },
  uses_per_coupon: { converted: 'usageLimit', how: '0 (unlimited) is none' },
  is_active: { carried: 'enabled' },
  condition: {
    converted: ['minimumSpend', 'maximumSpend'],
    how: 'subtotal (base_subtotal) at least and at most; other cart conditions are reported as lost',
    meaning: noOperator,
  },
  action_condition: {
    converted: ['productIds', 'excludedProductIds', 'categoryIds', 'excludedCategoryIds'],
    how: 'the items a discount applies to by SKU (found as products) and category, included or excluded; other item conditions are reported as lost',
    meaning: noOperator,
  },
  'action_condition.conditions[].category_ids': categoryCondition,
  'action_condition.conditions[].conditions[].category_ids': categoryCondition,
  stop_rules_processing: {
    converted: 'individualUse',
    how: '"Discard subsequent rules": no other discount after this one',
  },
  is_advanced: assigned('Magento sets it on every rule'),
  product_ids: assigned('Magento’s index of the products a rule applies to'),
  sort_order: magento('sort_order'),
  simple_action: {
    converted: 'discountType',
    how: "by_percent is 'percent', by_fixed (each item) 'fixed_product', cart_fixed 'fixed_cart'; buy_x_get_y rules are refused",
  },
  discount_amount: {
    converted: ['percentOff', 'amountOff'],
    how: 'the percentage, or the amount in the store’s base currency',
  },
  discount_qty: { converted: 'itemLimit', how: '0 (no maximum) is none' },
  discount_step: magento('discount_step'),
  apply_to_shipping: magento('apply_to_shipping'),
  times_used: assigned('Magento counts the uses of the rule; the coupon’s own count is carried'),
  is_rss: magento('is_rss'),
  coupon_type: assigned('a coupon is a rule for a specific coupon'),
  use_auto_generation: assigned('pools of generated codes are refused with their reason'),
  simple_free_shipping: {
    converted: 'freeShipping',
    how: "'1' (for matching items only) and '2' (for the whole shipment) are free shipping",
  },
  extension_attributes: notCarried('fields of modules on a rule (reward points)'),
  'coupon.coupon_id': assigned('Magento numbers its coupons'),
  'coupon.rule_id': assigned('the rule itself'),
  'coupon.code': { carried: 'code' },
  'coupon.usage_limit': assigned('Magento copies the rule’s uses per coupon'),
  'coupon.usage_per_customer': assigned('Magento copies the rule’s uses per customer'),
  'coupon.times_used': { carried: 'usageCount' },
  'coupon.expiration_date': assigned('Magento copies the rule’s end date'),
  'coupon.is_primary': assigned('the coupon of a rule for a specific coupon is its primary one'),
  'coupon.created_at': { carried: 'createdAt' },
  'coupon.type': assigned('a code typed by the merchant (0), not a generated one'),
  'coupon.extension_attributes': notCarried('fields of modules on a coupon'),
};

// ------------------------------------------------------------------ orders

/** Fields of an order that Magento computes from its other amounts, invoices and credit memos. */
const orderTotals = [
  'adjustment_negative',
  'adjustment_positive',
  'base_adjustment_negative',
  'base_adjustment_positive',
  'discount_canceled',
  'discount_invoiced',
  'discount_refunded',
  'discount_tax_compensation_amount',
  'discount_tax_compensation_invoiced',
  'discount_tax_compensation_refunded',
  'shipping_canceled',
  'shipping_discount_amount',
  'shipping_discount_tax_compensation_amount',
  'shipping_incl_tax',
  'shipping_invoiced',
  'shipping_refunded',
  'shipping_tax_refunded',
  'subtotal_canceled',
  'subtotal_incl_tax',
  'subtotal_invoiced',
  'subtotal_refunded',
  'tax_canceled',
  'tax_invoiced',
  'tax_refunded',
  'total_due',
  'total_invoiced',
  'total_offline_refunded',
  'total_online_refunded',
  'total_qty_ordered',
  'total_item_count',
  'payment_authorization_amount',
  'weight',
  'is_virtual',
];

const orderOwn = [
  'customer_firstname',
  'customer_lastname',
  'customer_middlename',
  'customer_prefix',
  'customer_suffix',
  'customer_dob',
  'customer_gender',
  'customer_taxvat',
  'discount_description',
  'x_forwarded_for',
  'ext_customer_id',
  'store_name',
  'hold_before_state',
  'hold_before_status',
  'can_ship_partially',
  'can_ship_partially_item',
  'forced_shipment_with_invoice',
  'original_increment_id',
  'edit_increment',
];

const paymentOwn = [
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

const paymentAmounts = [
  'amount_authorized',
  'amount_canceled',
  'amount_ordered',
  'amount_paid',
  'amount_refunded',
  'shipping_amount',
  'shipping_captured',
  'shipping_refunded',
];

const itemDerived = [
  'amount_refunded',
  'discount_invoiced',
  'discount_refunded',
  'discount_percent',
  'discount_tax_compensation_amount',
  'discount_tax_compensation_canceled',
  'discount_tax_compensation_invoiced',
  'discount_tax_compensation_refunded',
  'price_incl_tax',
  'row_total_incl_tax',
  'row_invoiced',
  'row_weight',
  'weight',
  'is_virtual',
  'is_qty_decimal',
  'qty_backordered',
  'qty_canceled',
  'qty_invoiced',
  'qty_refunded',
  'qty_returned',
  'tax_before_discount',
  'tax_canceled',
  'tax_invoiced',
  'tax_percent',
  'tax_refunded',
  'locked_do_invoice',
  'locked_do_ship',
  'applied_rule_ids',
];

/** An order address (billing, or the shipping assignment's). */
function orderAddress(prefix: string, to: 'billingAddress' | 'shippingAddress') {
  return {
    [`${prefix}.address_type`]: assigned('billing or shipping, by where the address is'),
    [`${prefix}.entity_id`]: assigned('Magento numbers order addresses'),
    [`${prefix}.parent_id`]: assigned('the order itself'),
    [`${prefix}.customer_id`]: assigned('the order’s customer'),
    [`${prefix}.customer_address_id`]: assigned('the customer address it was copied from'),
    [`${prefix}.quote_address_id`]: assigned('the cart address it was copied from'),
    [`${prefix}.region_id`]: assigned('the id of the region in Magento’s directory'),
    [`${prefix}.firstname`]: { carried: `${to}.firstName` },
    [`${prefix}.lastname`]: { carried: `${to}.lastName` },
    [`${prefix}.company`]: { carried: `${to}.company` },
    [`${prefix}.street`]: {
      converted: [`${to}.address1`, `${to}.address2`],
      how: 'the first line, then the others one per line',
    },
    [`${prefix}.city`]: { carried: `${to}.city` },
    [`${prefix}.region`]: { converted: `${to}.province`, how: 'the region code, or its name' },
    [`${prefix}.region_code`]: { carried: `${to}.province` },
    [`${prefix}.postcode`]: { carried: `${to}.postalCode` },
    [`${prefix}.country_id`]: { carried: `${to}.countryCode` },
    [`${prefix}.telephone`]: { carried: `${to}.phone` },
    [`${prefix}.email`]: { carried: `${to}.email` },
    [`${prefix}.middlename`]: notCarried('a middle name on an address: the model has none'),
    [`${prefix}.prefix`]: notCarried('a name prefix on an address: the model has none'),
    [`${prefix}.suffix`]: notCarried('a name suffix on an address: the model has none'),
    [`${prefix}.fax`]: notCarried('a fax number on an address: the model has none'),
    [`${prefix}.vat_id`]: notCarried('a VAT number on an address: the model has none'),
    [`${prefix}.vat_is_valid`]: notCarried('the result of a VAT number check'),
    [`${prefix}.vat_request_date`]: notCarried('the result of a VAT number check'),
    [`${prefix}.vat_request_id`]: notCarried('the result of a VAT number check'),
    [`${prefix}.vat_request_success`]: notCarried('the result of a VAT number check'),
    [`${prefix}.extension_attributes`]: notCarried('fields of modules on an address'),
  } satisfies Record<string, SourceField>;
}

/** Credit memos and invoices: what a refund or a payment date is made of. */
const documentTotals = [
  'base_currency_code',
  'order_currency_code',
  'store_currency_code',
  'global_currency_code',
  'base_to_global_rate',
  'base_to_order_rate',
  'store_to_base_rate',
  'store_to_order_rate',
  'subtotal',
  'subtotal_incl_tax',
  'tax_amount',
  'discount_amount',
  'discount_description',
  'discount_tax_compensation_amount',
  'shipping_tax_amount',
  'shipping_incl_tax',
  'shipping_discount_tax_compensation_amount',
  'billing_address_id',
  'shipping_address_id',
  'store_id',
  'email_sent',
  'order_id',
  'state',
];

const orders: Record<string, SourceField> = {
  entity_id: assigned('Magento numbers its orders'),
  increment_id: { carried: 'number' },
  ext_order_id: assigned('the order id of another system; this service keeps its marker there'),
  created_at: { carried: 'createdAt' },
  updated_at: stamped,
  state: { converted: 'status', how: 'by state (see order-status.ts)' },
  status: {
    converted: ['status', 'metafields'],
    how: 'by state; a status other than the default of its state as the metafield magento.status',
  },
  customer_id: { carried: 'customerId', ref: 'customers' },
  customer_is_guest: { converted: 'customerId', how: 'a guest order has no customer' },
  customer_group_id: assigned('the group of the order’s customer (NOT LOGGED IN for guests)'),
  customer_email: { carried: 'email' },
  customer_note: { carried: 'note' },
  customer_note_notify: assigned('whether the customer was told of the note: imports tell no one'),
  email_sent: assigned('whether Magento e-mailed the order confirmation'),
  send_email: assigned('whether Magento e-mails the order confirmation'),
  quote_id: assigned('the cart the order came from'),
  quote_address_id: assigned('the cart address the order came from'),
  protect_code: assigned('a random code Magento makes for the order'),
  store_id: assigned('the store view of the order: the destination’s default'),
  applied_rule_ids: assigned('the cart price rules Magento applied'),
  relation_child_id: assigned('an edited copy of the order'),
  relation_child_real_id: assigned('an edited copy of the order'),
  relation_parent_id: assigned('the order this one is an edited copy of'),
  relation_parent_real_id: assigned('the order this one is an edited copy of'),
  billing_address_id: assigned('the id of the billing address'),
  payment_auth_expiration: assigned('set by the payment gateway'),
  remote_ip: { carried: 'customerIpAddress' },
  order_currency_code: { carried: 'currency' },
  base_currency_code: magento('base_currency_code'),
  store_currency_code: assigned('the store’s currency'),
  global_currency_code: assigned('the installation’s currency'),
  base_to_order_rate: magento('base_to_order_rate'),
  base_to_global_rate: assigned('the rate between the base and the installation’s currency'),
  store_to_base_rate: assigned('the rate between the store’s and the base currency'),
  store_to_order_rate: assigned('the rate between the store’s and the order’s currency'),
  subtotal: { carried: 'subtotal' },
  tax_amount: { carried: 'taxTotal' },
  shipping_amount: { carried: ['shippingTotal', 'shippingLines.price'] },
  shipping_tax_amount: { carried: 'shippingLines.tax' },
  shipping_description: { carried: 'shippingLines.title' },
  discount_amount: {
    converted: ['discountTotal', 'discounts.amount'],
    how: 'positive (Magento keeps it negative)',
  },
  coupon_code: { carried: 'discounts.code' },
  grand_total: { carried: 'grandTotal' },
  total_paid: { converted: 'paymentStatus', how: 'with the refunded and canceled totals' },
  total_refunded: { carried: 'refundTotal' },
  total_canceled: { converted: 'paymentStatus', how: 'voided' },
  items: { carried: 'lines' },
  'items[].item_id': assigned('Magento numbers order items'),
  'items[].order_id': assigned('the order itself'),
  'items[].parent_item_id': assigned(
    'the link of a configurable product’s child item to its parent item',
  ),
  'items[].quote_item_id': assigned('the cart item the line came from'),
  'items[].store_id': assigned('the order’s store view'),
  'items[].created_at': assigned('the order’s date'),
  'items[].updated_at': stamped,
  'items[].product_id': {
    converted: ['lines.productId', 'lines.variantId'],
    how: "the product of the line, and a configurable item's child the variant; null when the product no longer exists",
    ref: 'variants',
  },
  'items[].product_type': {
    converted: ['lines.productId', 'lines.variantId'],
    how: 'a configurable item with its child is one line with its variant',
  },
  'items[].sku': { carried: 'lines.sku' },
  'items[].name': { carried: 'lines.name' },
  'items[].qty_ordered': { carried: 'lines.quantity' },
  'items[].qty_shipped': { converted: 'fulfillmentStatus', how: 'with the other lines' },
  'items[].price': { carried: 'lines.unitPrice' },
  'items[].original_price': notCarried(
    'the price before catalogue rules and special prices: the model keeps the price charged (reported when they differ)',
  ),
  'items[].tax_amount': { carried: 'lines.tax' },
  'items[].row_total': { converted: 'lines.total', how: 'less the line’s discount' },
  'items[].discount_amount': { converted: 'lines.total', how: 'taken off the row total' },
  'items[].product_option': {
    converted: 'lines.meta',
    how: 'the chosen values of a configurable product’s options, by label',
  },
  'items[].product_option.extension_attributes.custom_options': notCarried(
    'the values the buyer gave custom options (engraving text): custom options are not migrated',
  ),
  'items[].product_option.extension_attributes.bundle_options': notCarried(
    'the parts chosen in a bundle: the model has no bundles',
  ),
  'items[].product_option.extension_attributes.downloadable_option': assigned(
    'the bought files, the downloadable product’s links',
  ),
  'items[].product_option.extension_attributes.giftcard_item_option': notCarried(
    'a gift card’s details: the model has no gift cards',
  ),
  'items[].description': {
    converted: 'lines.meta',
    how: "the meta entry 'description'",
  },
  'items[].additional_data': notCarried('data a module kept on the line'),
  'items[].ext_order_item_id': notCarried('the line’s id in another system'),
  'items[].free_shipping': notCarried('whether a cart rule shipped the line free'),
  'items[].no_discount': notCarried('whether the line was excluded from discounts'),
  'items[].base_cost': notCarried('the cost of the goods to the merchant: the model has none'),
  'items[].event_id': notCarried('a private sales event: the model has none'),
  'items[].extension_attributes': notCarried('gift messages and gift wrapping of a line'),
  'items[].parent_item': assigned('the parent item, given again'),
  status_histories: { converted: 'notes', how: 'oldest first (Magento lists the newest first)' },
  'status_histories[].entity_id': assigned('Magento numbers comments'),
  'status_histories[].parent_id': assigned('the order itself'),
  'status_histories[].entity_name': assigned('the kind of record the comment came with'),
  'status_histories[].comment': { carried: 'notes.content' },
  'status_histories[].created_at': { carried: 'notes.createdAt' },
  'status_histories[].is_customer_notified': {
    converted: 'notes.customerNote',
    how: 'a note the customer was sent or shown is a customer note',
  },
  'status_histories[].is_visible_on_front': {
    converted: 'notes.customerNote',
    how: 'a note the customer was sent or shown is a customer note (a note sent but not shown, or shown but not sent, is reported)',
  },
  'status_histories[].status': notCarried(
    'the order status at the time of the comment: the model keeps the note, not the status it was written under (reported when it differs from the order’s)',
  ),
  'status_histories[].extension_attributes': notCarried('fields of modules on a comment'),
  'payment.method': { carried: 'paymentMethod' },
  'payment.additional_information': {
    converted: ['paymentMethodTitle', 'metafields'],
    how: 'its first entry is the title of the payment method; more entries as the metafield magento.payment.additional_information',
  },
  'payment.last_trans_id': { carried: 'transactionId' },
  'payment.entity_id': assigned('Magento numbers payments'),
  'payment.parent_id': assigned('the order itself'),
  'payment.quote_payment_id': assigned('the cart payment it came from'),
  'payment.extension_attributes': notCarried('a stored card token of the payment gateway'),
  'payment.cc_number_enc': notCarried('an encrypted card number is never migrated'),
  'payment.cc_debug_request_body': notCarried('payment gateway debug data'),
  'payment.cc_debug_response_body': notCarried('payment gateway debug data'),
  'payment.cc_debug_response_serialized': notCarried('payment gateway debug data'),
  'extension_attributes.shipping_assignments[].shipping.method': {
    carried: 'shippingLines.code',
  },
  'extension_attributes.shipping_assignments[].shipping.total': assigned(
    'the order’s shipping amounts, given again',
  ),
  'extension_attributes.shipping_assignments[].shipping.extension_attributes': notCarried(
    'fields of modules on the shipping',
  ),
  'extension_attributes.shipping_assignments[].items': assigned('the order’s items, given again'),
  'extension_attributes.shipping_assignments[].stock_id': assigned('the stock it ships from'),
  'extension_attributes.shipping_assignments[].extension_attributes': notCarried(
    'fields of modules on the shipping',
  ),
  'extension_attributes.payment_additional_info': assigned(
    'the payment’s additional information, given again with its keys',
  ),
  'extension_attributes.custom_fees': { carried: 'fees' },
  'extension_attributes.custom_fees[].id': assigned('Magento numbers fees'),
  'extension_attributes.custom_fees[].order_id': assigned('the order itself'),
  'extension_attributes.custom_fees[].custom_fee_code': {
    converted: 'fees.name',
    how: 'the label is the name; the code is made from it',
  },
  'extension_attributes.custom_fees[].custom_fee_label': { carried: 'fees.name' },
  'extension_attributes.custom_fees[].custom_fee_amount': { carried: 'fees.amount' },
  'extension_attributes.custom_fees[].base_custom_fee_amount': assigned(
    'the fee in the base currency',
  ),
  'extension_attributes.custom_fees[].custom_fee_amount_invoiced': assigned(
    'computed from the invoices',
  ),
  'extension_attributes.custom_fees[].base_custom_fee_amount_invoiced': assigned(
    'computed from the invoices',
  ),
  'extension_attributes.custom_fees[].custom_fee_amount_refunded': assigned(
    'computed from the credit memos',
  ),
  'extension_attributes.custom_fees[].base_custom_fee_amount_refunded': assigned(
    'computed from the credit memos',
  ),
  'extension_attributes.custom_fees[].apply_fee_on_last_invoice':
    notCarried('when a fee is invoiced'),
  'extension_attributes.custom_fees[].apply_fee_on_last_creditmemo':
    notCarried('when a fee is refunded'),
  'extension_attributes.custom_fees[].invoice_id': assigned('the invoice that charged it'),
  'extension_attributes.custom_fees[].creditmemo_id': assigned('the credit memo that refunded it'),
  'extension_attributes.send_notification': assigned(
    'whether Magento e-mails the customer: imports never do',
  ),
  'extension_attributes.notification_sent': assigned('whether Magento e-mailed the customer'),
  'extension_attributes.converting_from_quote': assigned('set while a cart becomes an order'),
  'extension_attributes.applied_taxes': assigned('the tax rates Magento applied'),
  'extension_attributes.item_applied_taxes': assigned('the tax rates Magento applied per item'),
  'extension_attributes.taxes': assigned('the tax rates Magento applied'),
  'extension_attributes.additional_itemized_taxes': assigned('the tax rates Magento applied'),
  'extension_attributes.coupon_codes': { carried: 'discounts.code' },
  'extension_attributes.coupon_discounts': { carried: 'discounts.amount' },
  'extension_attributes.gift_message': notCarried('a gift message: the model has none'),
  'extension_attributes.pickup_location_code': notCarried(
    'an in-store pickup location: the model has none',
  ),
  'extension_attributes.company_order_attributes': notCarried(
    'B2B company accounts are not migrated',
  ),
  'extension_attributes.gift_cards': notCarried('gift cards: the model has none'),
  'extension_attributes.reward_points_balance': notCarried('reward points: the model has none'),
  creditmemos: { converted: 'refunds', how: 'one refund per credit memo, oldest first' },
  'creditmemos[].entity_id': assigned('Magento numbers credit memos'),
  'creditmemos[].increment_id': assigned('Magento numbers credit memos'),
  'creditmemos[].invoice_id': assigned('the invoice refunded'),
  'creditmemos[].created_at': { carried: 'refunds.createdAt' },
  'creditmemos[].updated_at': stamped,
  'creditmemos[].grand_total': { carried: 'refunds.amount' },
  'creditmemos[].base_grand_total': assigned('the refund in the base currency'),
  'creditmemos[].comments[].comment': {
    converted: 'refunds.reason',
    how: 'the first comment is the reason (more are reported)',
  },
  'creditmemos[].comments[].created_at': assigned('the credit memo’s date'),
  'creditmemos[].comments[].entity_id': assigned('Magento numbers comments'),
  'creditmemos[].comments[].parent_id': assigned('the credit memo itself'),
  'creditmemos[].comments[].is_customer_notified': notCarried(
    'whether the customer was sent the refund comment: the model keeps the reason only',
  ),
  'creditmemos[].comments[].is_visible_on_front': notCarried(
    'whether the customer sees the refund comment: the model keeps the reason only',
  ),
  'creditmemos[].comments[].extension_attributes': notCarried('fields of modules on a comment'),
  'creditmemos[].items[].order_item_id': { carried: 'refunds.lines.lineId' },
  'creditmemos[].items[].qty': { carried: 'refunds.lines.quantity' },
  'creditmemos[].items[].row_total': {
    converted: 'refunds.lines.amount',
    how: 'less the item’s refunded discount',
  },
  'creditmemos[].items[].discount_amount': {
    converted: 'refunds.lines.amount',
    how: 'taken off the row total',
  },
  'creditmemos[].items[].tax_amount': { carried: 'refunds.lines.tax' },
  'creditmemos[].items[].additional_data': notCarried('data a module kept on the item'),
  'creditmemos[].items[].extension_attributes': notCarried('fields of modules on the item'),
  'creditmemos[].shipping_amount': notCarried(
    'how much of a refund was shipping: the model keeps the refund’s total and its lines (reported)',
  ),
  'creditmemos[].base_shipping_amount': assigned('the shipping refunded in the base currency'),
  'creditmemos[].adjustment': notCarried(
    'an adjustment refund or fee: the model keeps the refund’s total and its lines (reported)',
  ),
  'creditmemos[].adjustment_positive': notCarried(
    'an adjustment refund: the model keeps the refund’s total and its lines (reported)',
  ),
  'creditmemos[].adjustment_negative': notCarried(
    'an adjustment fee: the model keeps the refund’s total and its lines (reported)',
  ),
  'creditmemos[].creditmemo_status': assigned('set by Magento'),
  'creditmemos[].transaction_id': notCarried(
    'the payment gateway’s id of the refund: the model has none',
  ),
  'creditmemos[].extension_attributes': notCarried(
    'store credit, gift cards and gift wrapping refunded',
  ),
  invoices: {
    converted: 'paidAt',
    how: 'the date of the first invoice is when the order was paid (an order invoiced in several parts is reported)',
  },
  'invoices[].created_at': { carried: 'paidAt' },
  'invoices[].entity_id': assigned('Magento numbers invoices'),
  'invoices[].increment_id': assigned('Magento numbers invoices'),
  'invoices[].updated_at': stamped,
  'invoices[].items': assigned('the order’s items, invoiced'),
  'invoices[].comments': notCarried('comments on an invoice: the model has notes on the order'),
  'invoices[].grand_total': assigned('the order’s total, invoiced'),
  'invoices[].total_qty': assigned('the order’s quantities, invoiced'),
  'invoices[].shipping_amount': assigned('the order’s shipping, invoiced'),
  'invoices[].transaction_id': assigned('the payment’s transaction id'),
  'invoices[].can_void_flag': assigned('set by the payment method'),
  'invoices[].is_used_for_refund': assigned('set when a credit memo refunds it'),
  'invoices[].base_total_refunded': assigned('computed from the credit memos'),
  'invoices[].extension_attributes': notCarried('store credit, gift cards and gift wrapping'),
  ...orderAddress('billing_address', 'billingAddress'),
  ...orderAddress(
    'extension_attributes.shipping_assignments[].shipping.address',
    'shippingAddress',
  ),
};
const inBase = assigned('the amount in the store’s base currency (see base_to_order_rate)');
for (const field of orderTotals)
  orders[field] = assigned('computed by Magento from the order’s amounts, invoices and refunds');
for (const field of 'adjustment_negative adjustment_positive discount_amount discount_canceled discount_invoiced discount_refunded grand_total discount_tax_compensation_amount discount_tax_compensation_invoiced discount_tax_compensation_refunded shipping_amount shipping_canceled shipping_discount_amount shipping_discount_tax_compensation_amnt shipping_incl_tax shipping_invoiced shipping_refunded shipping_tax_amount shipping_tax_refunded subtotal subtotal_canceled subtotal_incl_tax subtotal_invoiced subtotal_refunded tax_amount tax_canceled tax_invoiced tax_refunded total_canceled total_due total_invoiced total_invoiced_cost total_offline_refunded total_online_refunded total_paid total_qty_ordered total_refunded'.split(
  ' ',
))
  orders[`base_${field}`] = inBase;
for (const field of orderOwn) orders[field] = magento(field);
for (const field of paymentOwn) orders[`payment.${field}`] = magento(`payment.${field}`);
for (const field of paymentAmounts) {
  orders[`payment.${field}`] = assigned('the order’s amounts, as the payment records them');
  orders[`payment.base_${field}`] = assigned('the payment’s amounts in the base currency');
}
for (const field of ['amount_paid_online', 'amount_refunded_online'])
  orders[`payment.base_${field}`] = assigned('the payment’s amounts in the base currency');
for (const field of itemDerived)
  orders[`items[].${field}`] = assigned(
    'computed by Magento from the line’s amounts, the product, invoices and refunds',
  );
for (const field of 'amount_refunded discount_amount discount_invoiced discount_refunded discount_tax_compensation_amount discount_tax_compensation_invoiced discount_tax_compensation_refunded original_price price price_incl_tax row_invoiced row_total row_total_incl_tax tax_amount tax_before_discount tax_invoiced tax_refunded'.split(
  ' ',
))
  orders[`items[].base_${field}`] = assigned('the amount in the store’s base currency');
const weee =
  'weee_tax_applied weee_tax_applied_amount weee_tax_applied_row_amount weee_tax_disposition weee_tax_row_disposition base_weee_tax_applied_amount base_weee_tax_applied_row_amnt base_weee_tax_disposition base_weee_tax_row_disposition';
for (const field of weee.split(' ')) {
  orders[`items[].${field}`] = notCarried('fixed product taxes (WEEE): the model has none');
  orders[`creditmemos[].items[].${field}`] = notCarried(
    'fixed product taxes (WEEE): the model has none',
  );
}
const wrapping =
  'gw_id gw_base_price gw_price gw_base_tax_amount gw_tax_amount gw_base_price_invoiced gw_price_invoiced gw_base_tax_amount_invoiced gw_tax_amount_invoiced gw_base_price_refunded gw_price_refunded gw_base_tax_amount_refunded gw_tax_amount_refunded';
for (const field of wrapping.split(' '))
  orders[`items[].${field}`] = notCarried('gift wrapping: the model has none');
const documentBase =
  'base_adjustment base_adjustment_negative base_adjustment_positive base_discount_amount base_discount_tax_compensation_amount base_shipping_discount_tax_compensation_amnt base_shipping_incl_tax base_shipping_tax_amount base_subtotal base_subtotal_incl_tax base_tax_amount';
for (const field of [...documentTotals, ...documentBase.split(' ')]) {
  orders[`creditmemos[].${field}`] ??= assigned('the order’s, or computed from the items');
  orders[`invoices[].${field}`] ??= assigned('the order’s, or computed from the items');
}
orders['invoices[].base_grand_total'] = inBase;
orders['invoices[].base_shipping_amount'] = inBase;
for (const field of 'base_cost base_price price price_incl_tax base_price_incl_tax row_total_incl_tax base_row_total_incl_tax discount_tax_compensation_amount base_discount_tax_compensation_amount base_discount_amount base_row_total base_tax_amount sku name product_id description entity_id parent_id'.split(
  ' ',
)) {
  orders[`creditmemos[].items[].${field}`] ??= assigned('the order item’s, given again');
}

// ------------------------------------------------------------------ brands

/**
 * A brand is an option of the manufacturer attribute, as GET /V1/products/attributes/manufacturer
 * answers it (eav-data-attribute-option-interface).
 */
const brands: Record<string, SourceField> = {
  value: assigned('Magento numbers the options of an attribute (the brand’s id)'),
  label: { carried: 'name' },
  sort_order: { carried: 'position' },
  is_default: notCarried(
    'the option the admin’s product form preselects for new products: a setting of the attribute, which the model has no place for',
  ),
  store_labels: notCarried(
    'the brand’s name per store view: the model has one name, the admin label, which is read',
  ),
};

// ------------------------------------------------------------------ CMS pages

const pageSetting = (what: string): SourceField => ({
  converted: 'metafields',
  how: `${what}: no field in the model, carried as the 'magento' custom field of the same name, which a Magento destination writes back`,
});

/**
 * A web page is a CMS page as GET /V1/cmsPage/search answers it (cms-data-page-interface). The
 * interface has no store view field: which store views a page shows on cannot be read.
 */
const pages: Record<string, SourceField> = {
  id: assigned('Magento numbers its CMS pages (the page’s id)'),
  identifier: { carried: 'slug' },
  title: { carried: 'title' },
  content: { carried: 'body' },
  content_heading: pageSetting('the heading shown above the content'),
  page_layout: pageSetting('the page’s layout (1column, 2columns-left…)'),
  layout_update_xml: pageSetting('layout update XML'),
  custom_theme: pageSetting('the theme the page is shown in for a period'),
  custom_root_template: pageSetting('the layout the page has for that period'),
  custom_layout_update_xml: pageSetting('the layout update of that period'),
  custom_theme_from: pageSetting('the first day of that period'),
  custom_theme_to: pageSetting('the last day of that period'),
  meta_title: { carried: 'seoTitle' },
  meta_description: { carried: 'seoDescription' },
  meta_keywords: {
    converted: 'seoKeywords',
    how: 'one comma-separated text in Magento, split on its commas into the list of keywords',
  },
  sort_order: {
    converted: 'position',
    how: 'a number kept as text; a negative or unreadable order is read as 0',
  },
  active: {
    converted: ['status', 'sourceUrlPath'],
    how: "an active page is 'published' at /<identifier>; an inactive one is a 'draft' with no storefront address (Magento has no other states)",
  },
  creation_time: { carried: 'createdAt' },
  update_time: { carried: 'updatedAt' },
};

export const magentoNativeFields: NativeCatalogue = {
  products,
  categories,
  brands,
  pages,
  coupons,
  customers,
  orders,
};

/** What Magento cannot hold as a destination, and what it holds in another form. */
export const magentoDestinationFields: {
  categories: DestinationFields;
  brands: DestinationFields;
  products: DestinationFields;
  coupons: DestinationFields;
  customers: DestinationFields;
  orders: DestinationFields;
  pages: DestinationFields;
} = {
  categories: {
    comparable: { displayType: displayTypeKept },
    unsupported: {
      imageUrl: "Magento's REST API cannot upload category images; add the image in the admin.",
      imageAlt: "Magento's REST API cannot upload category images; add the image in the admin.",
      imageTitle: "Magento's REST API cannot upload category images; add the image in the admin.",
    },
    converted: {
      displayType:
        "Magento shows products, a static block or both: 'products' and 'default' show products, 'subcategories' and 'both' show the products of the category and its subcategories (an anchor category).",
      metafields:
        "Magento's own category settings (magento.*) are written back to them; other custom fields to a category attribute of the same code when the store has one (others are reported).",
    },
  },
  brands: {
    unsupported: {
      parentId:
        'Magento manufacturers are the options of one product attribute, a flat list: a brand is written without its parent.',
      slug: 'A Magento manufacturer is an option of a product attribute, with no page of its own, so no URL key.',
      description:
        'A Magento manufacturer is an option of a product attribute, with no page of its own, so no description.',
      imageUrl:
        'A Magento manufacturer is an option of a product attribute, with no page of its own, so no logo.',
      imageAlt:
        'A Magento manufacturer is an option of a product attribute, with no page of its own, so no logo.',
      displayType:
        'A Magento manufacturer is an option of a product attribute, with no page of its own, so no page layout.',
      seoTitle:
        'A Magento manufacturer is an option of a product attribute, with no page of its own, so no SEO title.',
      seoDescription:
        'A Magento manufacturer is an option of a product attribute, with no page of its own, so no meta description.',
      seoKeywords:
        'A Magento manufacturer is an option of a product attribute, with no page of its own, so no meta keywords.',
      searchKeywords: 'A Magento attribute option has no search keywords of its own.',
      metafields: 'A Magento attribute option has no custom fields.',
      sourceUrlPath:
        'A Magento manufacturer is an option of a product attribute, with no page of its own to redirect to.',
    },
  },
  products: {
    comparable: {
      metafields: productMetafieldsKept,
      'variants.metafields': variantMetafieldsKept,
      weight: weightKept,
      'variants.taxClass': variantTaxClassKept,
      attributes: asStoreWide,
      options: asStoreWide,
      status: statusKept,
      type: typeKept,
    },
    unsupported: {
      'options.visible':
        'Magento shows an attribute on product pages or not for the whole store (its "Visible on Catalog Pages on Storefront", set when the attribute is created), not per product.',
      'attributes.visible':
        'Magento shows an attribute on product pages or not for the whole store (its "Visible on Catalog Pages on Storefront", set when the attribute is created), not per product.',
      featured: 'Magento has no featured flag (themes pick featured products with widgets).',
      tags: 'Magento products have no tags.',
      tagDefinitions: 'Magento products have no tags.',
      sharedAttributes:
        "A store-wide attribute is found or created by its code with the values products use; the source attribute's settings, its values' descriptions and order, and the values no product uses are not written.",
      dimensions: 'Magento has no package dimensions by default.',
      'variants.dimensions': 'Magento has no package dimensions by default.',
      'variants.barcode': 'Magento has no barcode field by default.',
      defaultOptionValues: 'Magento has no preselected variant.',
      externalUrl:
        'Magento has no external (affiliate) products: the product is written as a simple product, without the link to the other site.',
      buttonText:
        'Magento has no external (affiliate) products, so no buy button text of their own.',
      shippingClass: 'Magento has no shipping classes.',
      'variants.shippingClass': 'Magento has no shipping classes.',
      reviewsAllowed: 'Magento allows reviews store-wide, not per product.',
      purchaseNote: 'Magento has no purchase note.',
      'variants.downloadExpiryDays': 'Magento download links do not expire.',
      'images.title': 'Magento keeps one label per image (its alternative text), not a title.',
      createdAt: 'Magento stamps its own creation date when a product is saved.',
      updatedAt: 'Magento stamps its own modification date when a product is saved.',
    },
    converted: {
      type: 'External products are written as simple products.',
      status:
        "Magento has enabled and disabled only: 'active' is enabled, the others are disabled.",
      taxStatus:
        "Magento taxes a product or not: 'shipping' (only its shipping taxed) is written as taxable.",
      'options.shared':
        'Magento attributes are store-wide: an option of one product becomes a store-wide attribute of the same code, found or created.',
      'attributes.shared':
        'Magento attributes are store-wide: an attribute of one product becomes a store-wide attribute of the same code, found or created.',
      'attributes.position': 'Magento orders attributes by the attribute set, store-wide.',
      'options.position': 'Magento orders the options of a configurable product by their position.',
      menuOrder: "Written as the product's position in each of its categories.",
      images:
        'Copied into Magento’s media storage once per product that shows them (Magento’s REST API cannot share one file between products); the first image gets the base, small and thumbnail roles.',
      'variants.imageUrl': 'Copied into Magento’s media storage, as the child product’s image.',
      'variants.downloads':
        "Written as links to the file's address; Magento accepts them only from domains listed in its downloadable_domains (bin/magento downloadable:domains:add).",
      metafields:
        "Magento's own attributes (magento.*) are written back to them; other custom fields to a product attribute named after the namespace and key, created when missing, holding the field's text as it was.",
      'variants.metafields':
        "Magento's own settings (magento.*) are written back to the child product or its stock item; other custom fields to a product attribute named after the namespace and key. A product with a single variant is one Magento product, so that variant's fields are kept on the product.",
      weight:
        'A product with a single variant is one Magento product with one weight: a product without a weight of its own gets its variant’s.',
      'variants.taxClass':
        "A Magento child product has a tax class of its own: a variant that follows its product's class gets that class.",
    },
  },
  coupons: {
    unsupported: {
      allowedEmails:
        'A Magento cart price rule cannot be limited to e-mail addresses: any customer can use the code (limit it to customer groups in the admin).',
      excludeSaleItems: 'Magento cart price rules cannot leave out items on sale.',
    },
    converted: {
      startsAt:
        "Magento keeps the day a rule starts, not the time: the coupon works from the start of that day in the store's time zone.",
      expiresAt:
        "Magento keeps the last day a rule works, not the time: the coupon works until the end of that day in the store's time zone.",
      discountType:
        'A cart price rule: percent of the price of the items (by_percent), a fixed amount off each item (by_fixed), or off the whole cart (cart_fixed).',
      freeShipping: 'Free shipping for the whole shipment (simple_free_shipping 2).',
      minimumSpend: 'A condition on the cart subtotal (at least).',
      maximumSpend: 'A condition on the cart subtotal (at most).',
      productIds: 'A condition on the SKUs of the items the discount applies to.',
      excludedProductIds: 'A condition on the SKUs of the items the discount applies to.',
      categoryIds: 'A condition on the categories of the items the discount applies to.',
      excludedCategoryIds: 'A condition on the categories of the items the discount applies to.',
      individualUse: 'The rule discards the rules after it ("Discard subsequent rules").',
      metafields:
        "Magento's own rule settings (magento.name, sort_order, store_labels...) are written back to them; other custom fields are reported (cart price rules have no custom fields).",
    },
  },
  customers: {
    unsupported: {
      note: 'Magento customers have no note.',
      tags: 'Magento customers have no tags.',
      acceptsMarketing:
        'Subscribing a customer to the newsletter makes Magento e-mail them; subscribe them in the admin if they agreed.',
      username: 'Magento customers sign in with their e-mail address.',
      'addresses.email': 'Magento customer addresses have no e-mail address.',
    },
    converted: {
      phone: 'Magento keeps phone numbers on addresses: the default billing address’s is used.',
      group: 'The customer group of that name, created when missing.',
      metafields:
        "Magento's own customer fields (magento.dob, gender, taxvat, name prefix...) are written back to them; other custom fields to a customer attribute of the same code when the store has one (Magento's REST API cannot create customer attributes; others are reported).",
    },
  },
  orders: {
    unsupported: {
      updatedAt: 'Magento stamps its own modification date when an order is saved.',
      completedAt: 'Magento keeps no completion date.',
      customerUserAgent: "Magento does not keep the buyer's browser.",
      createdVia: 'Magento does not record how an order was created.',
      pricesIncludeTax:
        'Whether prices included tax is a store setting in Magento, not kept per order.',
      'lines.taxClass': 'Magento order lines keep the tax amount and rate, not the tax class.',
      'fees.tax': 'Magento order fees carry no tax of their own.',
      'fees.taxClass': 'Magento order fees carry no tax class.',
      'fees.taxStatus': 'Magento order fees carry no tax status.',
      'discounts.tax': 'Magento keeps the tax of a discount in the order totals only.',
      'notes.author': 'Magento order comments have no author.',
    },
    comparable: {
      paymentMethod: paymentMethodKept,
      'billingAddress.email': addressEmailKept,
      'shippingAddress.email': addressEmailKept,
      'lines.sku': lineSkuKept,
      'lines.meta': lineMetaKept,
    },
    converted: {
      'billingAddress.email':
        "Magento gives an order address without an e-mail address of its own the order's e-mail address.",
      'shippingAddress.email':
        "Magento gives an order address without an e-mail address of its own the order's e-mail address.",
      'lines.sku': `Magento requires a SKU on every order line: a line without one is written with '${NO_SKU}'.`,
      discounts: 'Several discounts are combined into one coupon code and amount.',
      paymentMethod:
        "Payment methods Magento has are kept (bank transfer, cash on delivery and cheque under Magento's codes); others are recorded as 'checkmo' (Check / Money order) with the original method's title and code in the payment's information, since Magento cannot show an order whose method it does not know. An order without a payment method is written with 'checkmo', which Magento requires.",
      'notes.customerNote':
        'A customer note is written as sent to the customer and visible on the storefront (nothing is e-mailed).',
      'lines.meta':
        "The values of a configurable product's options are written as the item's options when the destination's product has them; other entries as the item's description, one 'name: value' line each.",
      paidAt: 'Written as the date of an invoice of the whole order.',
      fees: 'Written as custom fees (Adobe Commerce Admin UI SDK), positive or negative.',
      metafields:
        "Magento's own order fields (magento.*) are written back to them; other custom fields are reported (Magento orders have no custom fields).",
    },
  },
  pages: {
    comparable: {
      status: pageStatusKept,
      seoKeywords: keywordsKept,
      metafields: pageMetafieldsKept,
    },
    converted: {
      status:
        "A Magento CMS page is active or not: 'published' is an active page; 'draft', 'pending', 'private' and 'scheduled' are inactive pages (Magento has no review state, no staff-only pages and no publication date, so a scheduled page must be switched on by hand).",
      seoKeywords:
        'Magento keeps meta keywords as one text: the keywords are joined with commas (a keyword holding a comma comes back as two).',
      metafields:
        "Magento's own page settings (magento.content_heading, page_layout, layout updates, custom theme and its dates) are written back to them; a CMS page has no other custom fields (each is reported on its page).",
    },
    unsupported: {
      parentId:
        'Magento CMS pages are flat (no parent page): the page is written as a top page with its own URL key.',
      excerpt: 'A Magento CMS page has no excerpt.',
      authorName: 'A Magento CMS page has no author.',
      featuredImageUrl:
        'A Magento CMS page has no featured image (images sit in its content, at their own addresses).',
      featuredImageAlt: 'A Magento CMS page has no featured image, so no alternative text.',
      publishedAt: 'A Magento CMS page has no publication date (it is active or not).',
      createdAt: 'Magento stamps its own creation time when a CMS page is saved.',
      updatedAt: 'Magento stamps its own update time when a CMS page is saved.',
    },
  },
};
