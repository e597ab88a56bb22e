import type { EntityType } from '@replatform/canonical/entities';
import type { DestinationFields, NativeCatalogue, SourceField } from '../kit/fields.ts';
import { contentComparable, shopifyComparable } from './comparable.ts';
import { DEFAULT_BLOG_TITLE } from './content.ts';
import { couponLimitsShopifyLacks } from './from-canonical.ts';

/**
 * Shopify's own fields, as the connector's read queries (documents.ts) answer them, and what a
 * migration from Shopify does with each (kit/fields.ts). A native record is the GraphQL node the
 * read query answers, its nested connections completed, without the migration's own marker
 * metafield (replatform.source_id), which is not the store's data. A product's native record also
 * leaves out its reviews list (replatform.reviews, read as reviews) and the star rating worked out
 * from it (reviews.rating and reviews.rating_count; a Shopify destination works it out again):
 * see reviews.ts. A review's native record is an entry of that list with the product holding it.
 *
 * "as its own field" means: kept as a custom field of the record in the namespace 'shopify'
 * (own-fields.ts), which a Shopify destination writes back into the field.
 */

const own = (what: string): SourceField => ({
  converted: 'metafields',
  how: `Kept as the record's custom field shopify.${what} (Shopify's own field, which other platforms do not have).`,
});
const connection = 'Position in the list Shopify answered; not data.';
const shopifyId = 'Shopify numbers its records itself.';
const metafields = (carried: readonly string[] = []): Record<string, SourceField> => ({
  pageInfo: { assigned: connection },
  'nodes[]': {
    converted: ['metafields', ...carried],
    how: `Metafields are carried with their namespace ('custom' becomes the custom field namespace 'shopify.custom'), key, type and value${carried.length ? "; those of the namespace 'replatform' hold fields of the model" : ''}.`,
    unordered: true,
  },
});
const prefixed = (prefix: string, fields: Record<string, SourceField>) =>
  Object.fromEntries(Object.entries(fields).map(([k, v]) => [`${prefix}.${k}`, v]));

const money = (to: string | readonly string[], how?: string): SourceField =>
  how
    ? { converted: to, how }
    : { converted: to, how: 'An amount in the shop currency, kept in minor units.' };

const address = (to: string): Record<string, SourceField> => ({
  id: { assigned: shopifyId },
  firstName: { carried: `${to}.firstName` },
  lastName: { carried: `${to}.lastName` },
  company: { carried: `${to}.company` },
  address1: { carried: `${to}.address1` },
  address2: { carried: `${to}.address2` },
  city: { carried: `${to}.city` },
  province: {
    converted: `${to}.province`,
    how: 'The province code where Shopify has one, else its name.',
  },
  provinceCode: { carried: `${to}.province` },
  zip: { carried: `${to}.postalCode` },
  countryCodeV2: { carried: `${to}.countryCode` },
  phone: { carried: `${to}.phone` },
});

const taxLines = (to: string): Record<string, SourceField> => ({
  'taxLines[]': { converted: to, how: 'The taxes of the line are added up into one amount.' },
  'taxLines[].priceSet': money(to, 'The taxes of the line are added up into one amount.'),
  'taxLines[].title': {
    notCarried: 'The model keeps the tax amount of a line, not the names of the taxes in it.',
  },
  'taxLines[].rate': {
    notCarried: 'The model keeps the tax amount of a line, not the rates of the taxes in it.',
  },
});

const allocations = (to: string): Record<string, SourceField> => ({
  'discountAllocations[]': {
    converted: [to, 'discounts.amount'],
    how: "An order-wide discount's share is part of the order discount; a discount of the line itself lowers the line total.",
  },
});

const productFields: Record<string, SourceField> = {
  id: { assigned: shopifyId },
  handle: { carried: 'slug' },
  title: { carried: 'name' },
  descriptionHtml: { carried: 'descriptionHtml' },
  status: {
    converted: ['status', 'visibility'],
    how: "ACTIVE, DRAFT and ARCHIVED are kept; UNLISTED (reachable only by its address) is an active product with visibility 'hidden'.",
  },
  vendor: { carried: 'vendor' },
  productType: own('product_type'),
  tags: { carried: 'tags', unordered: true },
  templateSuffix: own('template_suffix'),
  isGiftCard: own('gift_card'),
  giftCardTemplateSuffix: own('gift_card_template_suffix'),
  requiresSellingPlan: own('requires_selling_plan'),
  createdAt: { carried: 'createdAt' },
  updatedAt: { carried: 'updatedAt' },
  hasOnlyDefaultVariant: {
    converted: 'type',
    how: "A product with only Shopify's default variant is a simple product; one with options is variable.",
  },
  category: own('category'),
  'seo.title': { carried: 'seoTitle' },
  'seo.description': { carried: 'seoDescription' },
  'options[].name': { carried: 'options.name' },
  'options[].position': {
    converted: 'options.position',
    how: 'Options keep their order (Shopify counts from 1, the model from 0).',
  },
  'options[].values': { carried: 'options.values' },
  'variants.pageInfo': { assigned: connection },
  'variants.nodes[].id': { assigned: shopifyId },
  'variants.nodes[].sku': { carried: 'variants.sku' },
  'variants.nodes[].barcode': { carried: 'variants.barcode' },
  'variants.nodes[].price': {
    converted: ['variants.price', 'variants.salePrice'],
    how: 'The price, or the sale price when the compare-at price is above it.',
  },
  'variants.nodes[].compareAtPrice': {
    converted: ['variants.price', 'variants.metafields'],
    how: 'A compare-at price above the price is the regular price (the price being the sale price); one that is not above it is kept as the variant field shopify.compare_at_price.',
  },
  'variants.nodes[].position': {
    converted: 'variants.position',
    how: 'Variants keep their order (Shopify counts from 1, the model from 0).',
  },
  'variants.nodes[].taxable': {
    converted: 'taxStatus',
    how: "Variants that are not taxed make the product's tax status 'none'.",
  },
  'variants.nodes[].inventoryPolicy': {
    converted: ['variants.inventory.backorders', 'variants.inventory.stockStatus'],
    how: "CONTINUE (keep selling when out of stock) is backorders 'yes'; DENY is 'no'.",
  },
  'variants.nodes[].inventoryQuantity': {
    converted: ['variants.inventory.quantity', 'variants.inventory.stockStatus'],
    how: 'The quantity of a tracked variant; the stock status follows from it.',
  },
  'variants.nodes[].selectedOptions': {
    converted: 'variants.optionValues',
    how: "The option values of the variant; a simple product's 'Default Title' is none.",
  },
  'variants.nodes[].inventoryItem.tracked': { carried: 'variants.inventory.tracked' },
  'variants.nodes[].inventoryItem.requiresShipping': {
    converted: 'variants.virtual',
    how: 'A variant that needs no shipping is virtual.',
  },
  'variants.nodes[].inventoryItem.harmonizedSystemCode': own('harmonized_system_code'),
  'variants.nodes[].inventoryItem.countryCodeOfOrigin': own('country_code_of_origin'),
  'variants.nodes[].inventoryItem.provinceCodeOfOrigin': own('province_code_of_origin'),
  'variants.nodes[].inventoryItem.unitCost': own('unit_cost'),
  'variants.nodes[].inventoryItem.measurement.weight': {
    converted: 'variants.weight',
    how: 'Grams, kilograms, ounces or pounds; a weight of 0 is none.',
  },
  'variants.nodes[].media.nodes[].id': {
    converted: 'variants.imageUrl',
    how: "The variant's image, by the product image it shows.",
  },
  ...prefixed(
    'variants.nodes[].metafields',
    metafields(['variants.descriptionHtml', 'variants.dimensions']),
  ),
  'media.pageInfo': { assigned: connection },
  'media.nodes[].id': { assigned: shopifyId },
  'media.nodes[].alt': { carried: 'images.alt' },
  'media.nodes[].mediaContentType': {
    converted: 'images',
    how: 'Images are carried; videos and 3D models are not (each product that has some says so).',
  },
  'media.nodes[].image.url': {
    converted: 'images.url',
    how: "The image is copied from Shopify's file; a destination serves its own copy.",
  },
  ...prefixed(
    'metafields',
    metafields([
      'shortDescriptionHtml',
      'purchaseNote',
      'externalUrl',
      'buttonText',
      'sku',
      'dimensions',
      'attributes',
      'options',
      'type',
    ]),
  ),
  'collections.pageInfo': { assigned: connection },
  'collections.nodes[].id': { carried: 'categoryIds', ref: 'categories', unordered: true },
};

const collectionFields: Record<string, SourceField> = {
  id: { assigned: shopifyId },
  handle: { carried: 'slug' },
  title: { carried: 'name' },
  descriptionHtml: { carried: 'description' },
  sortOrder: own('sort_order'),
  templateSuffix: own('template_suffix'),
  updatedAt: { assigned: 'Shopify stamps the time of every change itself.' },
  'seo.title': { carried: 'seoTitle' },
  'seo.description': { carried: 'seoDescription' },
  image: {
    converted: ['imageUrl', 'imageAlt'],
    how: 'The collection image and its alternative text.',
  },
  'image.url': {
    converted: 'imageUrl',
    how: "The image is copied from Shopify's file; a destination serves its own copy.",
  },
  'image.altText': { carried: 'imageAlt' },
  ...prefixed('metafields', metafields()),
};

const customerFields: Record<string, SourceField> = {
  id: { assigned: shopifyId },
  firstName: { carried: 'firstName' },
  lastName: { carried: 'lastName' },
  note: { carried: 'note' },
  tags: { carried: 'tags', unordered: true },
  locale: own('locale'),
  taxExempt: own('tax_exempt'),
  taxExemptions: own('tax_exemptions'),
  createdAt: { carried: 'createdAt' },
  updatedAt: { assigned: 'Shopify stamps the time of every change itself.' },
  defaultEmailAddress: {
    converted: ['email', 'acceptsMarketing'],
    how: 'A customer without an e-mail address is not migrated (it identifies the customer).',
  },
  'defaultEmailAddress.emailAddress': {
    converted: 'email',
    how: 'Lower-cased: the e-mail address identifies the customer.',
  },
  'defaultEmailAddress.marketingState': {
    converted: ['acceptsMarketing', 'metafields'],
    how: 'SUBSCRIBED accepts marketing; a state other than subscribed or not subscribed (pending, unsubscribed, ...) is kept as the custom field shopify.email_marketing_state.',
  },
  'defaultEmailAddress.marketingOptInLevel': own('email_marketing_opt_in_level'),
  'defaultEmailAddress.marketingUpdatedAt': own('email_marketing_updated_at'),
  defaultPhoneNumber: { converted: 'phone', how: 'The phone number and its SMS consent.' },
  'defaultPhoneNumber.phoneNumber': { carried: 'phone' },
  'defaultPhoneNumber.smsMarketingConsent.state': own('sms_marketing_state'),
  'defaultPhoneNumber.smsMarketingConsent.optInLevel': own('sms_marketing_opt_in_level'),
  'defaultPhoneNumber.smsMarketingConsent.updatedAt': own('sms_marketing_updated_at'),
  defaultAddress: {
    converted: ['addresses.isDefaultShipping', 'addresses.isDefaultBilling'],
    how: "Shopify's one default address is the default for billing and shipping.",
  },
  'defaultAddress.id': { assigned: shopifyId },
  'addressesV2.pageInfo': { assigned: connection },
  ...prefixed('addressesV2.nodes[]', address('addresses')),
  ...prefixed('metafields', metafields()),
};

const orderFields: Record<string, SourceField> = {
  id: { assigned: shopifyId },
  name: { converted: 'number', how: "The order name without its '#'." },
  email: { carried: 'email' },
  phone: own('phone'),
  note: { carried: 'note' },
  tags: own('tags'),
  poNumber: own('po_number'),
  processedAt: { carried: 'createdAt' },
  updatedAt: { carried: 'updatedAt' },
  closedAt: {
    converted: 'completedAt',
    how: 'When the order was closed (completed); the closing Shopify stamps when an order is cancelled is not a completion.',
  },
  cancelledAt: { converted: 'status', how: 'A cancelled order has the status cancelled.' },
  cancelReason: own('cancel_reason'),
  currencyCode: { carried: 'currency' },
  taxesIncluded: { carried: 'pricesIncludeTax' },
  test: own('test'),
  sourceName: { carried: 'createdVia' },
  clientIp: { carried: 'customerIpAddress' },
  customerAcceptsMarketing: own('buyer_accepts_marketing'),
  displayFinancialStatus: {
    converted: ['paymentStatus', 'status'],
    how: 'See the status table of to-canonical.ts.',
  },
  displayFulfillmentStatus: {
    converted: ['fulfillmentStatus', 'status'],
    how: 'See the status table of to-canonical.ts.',
  },
  'customAttributes[]': own('note_attributes'),
  customer: { carried: 'customerId', ref: 'customers' },
  subtotalPriceSet: money(
    'subtotal',
    'Worked out from the lines (the line totals after their own discounts).',
  ),
  totalTaxSet: money('taxTotal'),
  totalShippingPriceSet: money('shippingTotal'),
  totalDiscountsSet: money('discountTotal', 'Worked out from the order-wide discounts.'),
  totalPriceSet: money('grandTotal'),
  totalRefundedSet: money('refundTotal'),
  billingAddress: { carried: 'billingAddress' },
  ...prefixed('billingAddress', address('billingAddress')),
  shippingAddress: { carried: 'shippingAddress' },
  ...prefixed('shippingAddress', address('shippingAddress')),
  'transactions[]': {
    converted: ['paymentMethod', 'paymentMethodTitle', 'transactionId', 'paidAt', 'paymentStatus'],
    how: "The first successful payment gives the payment method (its gateway), its title, the transaction's authorisation code and the payment date; refunds are carried as refunds.",
  },
  'transactions[].kind': {
    converted: 'paymentStatus',
    how: 'Sales, captures and authorisations are the payment; refund transactions are the refunds.',
  },
  'transactions[].status': {
    converted: 'paymentStatus',
    how: 'Only successful transactions count.',
  },
  'transactions[].gateway': { carried: 'paymentMethod' },
  'transactions[].formattedGateway': { carried: 'paymentMethodTitle' },
  'transactions[].paymentId': {
    converted: 'transactionId',
    how: "The payment's id at its gateway (the authorisation code it was recorded with).",
  },
  'transactions[].processedAt': {
    converted: ['paidAt', 'refunds.createdAt'],
    how: 'When the payment was made; an authorisation is written at the date of the order.',
  },
  'transactions[].test': own('test'),
  'transactions[].amountSet': money(
    ['grandTotal', 'refunds.amount'],
    'The payment is the order total; refund transactions are the refunds.',
  ),
  'additionalFees[].name': { carried: 'fees.name' },
  'additionalFees[].price': money('fees.amount'),
  ...prefixed('additionalFees[]', taxLines('fees.tax')),
  'refunds[].id': { assigned: shopifyId },
  'refunds[].note': { carried: 'refunds.reason' },
  'refunds[].createdAt': {
    assigned: 'Shopify stamps when it recorded the refund; processedAt is when it was made.',
  },
  'refunds[].processedAt': { carried: 'refunds.createdAt' },
  'refunds[].totalRefundedSet': money('refunds.amount'),
  'refunds[].refundLineItems.pageInfo': { assigned: connection },
  'refunds[].refundLineItems.nodes[].quantity': { carried: 'refunds.lines.quantity' },
  'refunds[].refundLineItems.nodes[].lineItem.id': {
    converted: 'refunds.lines.lineId',
    how: 'The order line given back (compared by its place among the lines).',
  },
  'refunds[].refundLineItems.nodes[].subtotalSet': money('refunds.lines.amount'),
  'refunds[].refundLineItems.nodes[].totalTaxSet': money('refunds.lines.tax'),
  'lineItems.pageInfo': { assigned: connection },
  'lineItems.nodes[].id': { assigned: shopifyId },
  'lineItems.nodes[].name': { carried: 'lines.name' },
  'lineItems.nodes[].sku': { carried: 'lines.sku' },
  'lineItems.nodes[].quantity': { carried: 'lines.quantity' },
  'lineItems.nodes[].originalUnitPriceSet': money('lines.unitPrice'),
  ...prefixed('lineItems.nodes[]', taxLines('lines.tax')),
  ...prefixed('lineItems.nodes[]', allocations('lines.total')),
  'lineItems.nodes[].customAttributes[]': {
    converted: ['lines.meta', 'fees'],
    how: "The line's properties (personalisation); a custom line marked _replatform_fee is a fee of the source store.",
  },
  'lineItems.nodes[].variant': {
    converted: 'lines.variantId',
    how: 'None when the variant no longer exists.',
  },
  'lineItems.nodes[].variant.id': { carried: 'lines.variantId', ref: 'variants' },
  'lineItems.nodes[].variant.selectedOptions': {
    converted: 'lines.meta',
    how: "The variant's chosen options, first in the line's meta; a simple product's 'Default Title' is none.",
  },
  'lineItems.nodes[].variant.title': {
    converted: 'lines.variantId',
    how: "The only variant of a simple product (titled 'Default Title') is no variant in the model.",
  },
  'lineItems.nodes[].product': {
    converted: 'lines.productId',
    how: 'None when the product no longer exists: the line keeps its name, SKU and price.',
    ref: 'products',
  },
  'shippingLines.pageInfo': { assigned: connection },
  'shippingLines.nodes[].title': { carried: 'shippingLines.title' },
  'shippingLines.nodes[].code': { carried: 'shippingLines.code' },
  'shippingLines.nodes[].originalPriceSet': money('shippingLines.price'),
  ...prefixed('shippingLines.nodes[]', taxLines('shippingLines.tax')),
  ...prefixed('shippingLines.nodes[]', allocations('discounts.amount')),
  'discountApplications.pageInfo': { assigned: connection },
  'discountApplications.nodes[].index': {
    converted: 'discounts.amount',
    how: "Links the discount to its shares in the lines' allocations, which add up to its amount.",
  },
  'discountApplications.nodes[].targetSelection': {
    converted: ['discounts', 'lines.total'],
    how: 'A discount of all lines is an order discount; one of some lines lowers those lines.',
  },
  'discountApplications.nodes[].targetType': {
    converted: 'discounts',
    how: 'A discount of the lines or of shipping, carried by its amount.',
  },
  'discountApplications.nodes[].allocationMethod': {
    converted: 'discounts.amount',
    how: 'How the discount was spread over the lines; its amount is carried.',
  },
  'discountApplications.nodes[].code': { carried: 'discounts.code' },
  'discountApplications.nodes[].title': {
    converted: 'discounts.code',
    how: 'A discount without a code is named by its title.',
  },
  ...prefixed('metafields', metafields(['notes'])),
};

const individualUse: SourceField = {
  converted: 'individualUse',
  how: 'A discount that combines with no other discount is for individual use.',
};
const couponFields: Record<string, SourceField> = {
  id: { assigned: shopifyId },
  'discount.__typename': {
    converted: ['discountType', 'freeShipping'],
    how: 'A free shipping discount is a free-shipping-only coupon; an amount off discount takes a share or an amount off. Buy X get Y and app discounts are not read (each is reported).',
  },
  'discount.title': {
    converted: 'description',
    how: "The discount's name; a discount named by its code has no description.",
  },
  'discount.startsAt': { carried: 'startsAt' },
  'discount.endsAt': {
    converted: 'expiresAt',
    how: 'A code switched off in Shopify is one that ended when it was switched off.',
  },
  'discount.createdAt': { carried: 'createdAt' },
  'discount.usageLimit': { carried: 'usageLimit' },
  'discount.appliesOncePerCustomer': {
    converted: 'usageLimitPerCustomer',
    how: 'Once per customer is a limit of 1 use per customer; otherwise none.',
  },
  'discount.asyncUsageCount': { carried: 'usageCount' },
  'discount.tags': own('tags'),
  'discount.codes.nodes[].code': { carried: 'code' },
  'discount.codesCount.count': {
    converted: 'code',
    how: 'A coupon has one code: of a discount with several, the first is read and the others are reported.',
  },
  'discount.combinesWith.orderDiscounts': individualUse,
  'discount.combinesWith.productDiscounts': individualUse,
  'discount.combinesWith.shippingDiscounts': individualUse,
  'discount.context.__typename': {
    converted: 'allowedEmails',
    how: 'A discount for all buyers is open to everyone; one for chosen customers is limited to their e-mail addresses.',
  },
  'discount.context.customers[].defaultEmailAddress.emailAddress': {
    carried: 'allowedEmails',
    unordered: true,
  },
  'discount.context.segments[].name': {
    notCarried: 'Coupons cannot be limited to customer segments.',
  },
  'discount.context.marketsCount': { notCarried: 'Coupons cannot be limited to markets.' },
  'discount.minimumRequirement': {
    converted: 'minimumSpend',
    how: 'A discount without a minimum requirement has no minimum spend.',
  },
  'discount.minimumRequirement.__typename': {
    converted: 'minimumSpend',
    how: 'A minimum subtotal is the minimum spend.',
  },
  'discount.minimumRequirement.greaterThanOrEqualToSubtotal': money('minimumSpend'),
  'discount.minimumRequirement.greaterThanOrEqualToQuantity': {
    notCarried: 'Coupons have no minimum quantity of items.',
  },
  'discount.customerGets.value.__typename': {
    converted: ['discountType', 'percentOff', 'amountOff'],
    how: 'A percentage is a percent coupon; an amount is a fixed one.',
  },
  'discount.customerGets.value.percentage': {
    converted: 'percentOff',
    how: 'Shopify keeps a share (0.1); the coupon a percentage (10).',
  },
  'discount.customerGets.value.amount': money('amountOff'),
  'discount.customerGets.value.appliesOnEachItem': {
    converted: 'discountType',
    how: "An amount off each item is 'fixed_product', an amount off the order 'fixed_cart'.",
  },
  'discount.customerGets.items.__typename': {
    converted: ['productIds', 'categoryIds'],
    how: 'A discount on all items has no restriction; one on products or collections is limited to them.',
  },
  'discount.customerGets.items.products.pageInfo': { assigned: connection },
  'discount.customerGets.items.products.nodes[].id': {
    carried: 'productIds',
    ref: 'products',
    unordered: true,
  },
  'discount.customerGets.items.productVariants.pageInfo': { assigned: connection },
  'discount.customerGets.items.productVariants.nodes[].id': {
    notCarried:
      'Coupons are limited to whole products: a discount limited to single variants is not read (it is reported).',
  },
  'discount.customerGets.items.collections.pageInfo': { assigned: connection },
  'discount.customerGets.items.collections.nodes[].id': {
    carried: 'categoryIds',
    ref: 'categories',
    unordered: true,
  },
  'discount.maximumShippingPrice': {
    notCarried: 'Coupons have no limit on the shipping rate they make free.',
  },
  'discount.destinationSelection.__typename': {
    converted: 'freeShipping',
    how: 'Free shipping to every country, or to some (reported).',
  },
  'discount.destinationSelection.allCountries': {
    converted: 'freeShipping',
    how: 'Free shipping to every country.',
  },
  'discount.destinationSelection.countries': {
    notCarried: 'Coupons make shipping free to every country, not to chosen ones.',
  },
  'discount.destinationSelection.includeRestOfWorld': {
    notCarried: 'Coupons make shipping free to every country, not to chosen ones.',
  },
  ...prefixed('metafields', metafields()),
};

/**
 * A review: an entry of its product's replatform.reviews list (reviews.ts) and the product that
 * holds it. The list is Replatform's own shape, so each field is carried as it is; Shopify has
 * no reviews of its own.
 */
const reviewFields: Record<string, SourceField> = {
  'product.id': { carried: 'productId', ref: 'products' },
  key: {
    assigned:
      "The entry's own key in the product's list, half of the review's id at this shop ('<product number>:<key>'); a destination gives the review its own id.",
  },
  source_id: {
    assigned:
      "The migration's marker: the id the review had in the store an earlier migration took it from, not the shop's data; a migration from this shop marks its copies with this shop's ids.",
  },
  reviewer_name: { carried: 'reviewerName' },
  reviewer_email: { carried: 'reviewerEmail' },
  rating: { carried: 'rating' },
  title: { carried: 'title' },
  body_html: { carried: 'body' },
  status: { carried: 'status' },
  verified: { carried: 'verified' },
  created_at: {
    converted: 'createdAt',
    how: 'A date and time, kept in UTC to the millisecond.',
    meaning: (value) => (typeof value === 'string' ? Date.parse(value) : value),
  },
};

/**
 * A brand: a vendor the shop's products name (QueryRoot.productVendors answers the distinct
 * vendors as strings; the native record holds one as { vendor }). Shopify has no brand records:
 * a vendor has no description, logo, page settings, SEO or custom fields, so nothing of a brand is
 * lost at reading; the model's other brand fields are left neutral, and its storefront path is the
 * vendor collection (/collections/vendors?q=<vendor>).
 */
const brandFields: Record<string, SourceField> = {
  vendor: { carried: 'name' },
};

const contentMetafields: Record<string, SourceField> = {
  'metafields.pageInfo': { assigned: connection },
  'metafields.nodes[]': {
    converted: ['metafields', 'seoTitle', 'seoDescription'],
    how: "The metafields global.title_tag and global.description_tag (the admin's search engine listing) are the SEO title and description; the others are carried as custom fields 'shopify.<namespace>' with their key, type and value.",
    unordered: true,
  },
};

const visibility = {
  isPublished: {
    converted: 'status',
    how: "Shown ('published'), or hidden: 'scheduled' when a publish date is still to come, else 'draft'.",
  },
  publishedAt: {
    converted: ['publishedAt', 'status'],
    how: 'The publish date; a date still to come makes the record scheduled. Shopify keeps no date for a hidden page or article.',
  },
} satisfies Record<string, SourceField>;

const pageFields: Record<string, SourceField> = {
  id: { assigned: shopifyId },
  handle: {
    converted: ['slug', 'sourceUrlPath'],
    how: 'The handle, and the page’s address /pages/<handle> while it is shown.',
  },
  title: { carried: 'title' },
  body: { carried: 'body' },
  ...visibility,
  templateSuffix: own('template_suffix'),
  createdAt: { carried: 'createdAt' },
  updatedAt: { carried: 'updatedAt' },
  ...contentMetafields,
};

const articleFields: Record<string, SourceField> = {
  id: { assigned: shopifyId },
  handle: {
    converted: ['slug', 'sourceUrlPath'],
    how: 'The handle, and the article’s address /blogs/<blog handle>/<handle> while it is shown.',
  },
  title: { carried: 'title' },
  body: { carried: 'body' },
  summary: { carried: 'excerpt' },
  author: { converted: 'authorName', how: "The author's name as the storefront shows it." },
  'author.name': { carried: 'authorName' },
  image: {
    converted: ['featuredImageUrl', 'featuredImageAlt'],
    how: 'The article image and its alternative text are the featured image.',
  },
  'image.url': {
    converted: 'featuredImageUrl',
    how: "The image is copied from Shopify's file; a destination serves its own copy.",
  },
  'image.altText': { carried: 'featuredImageAlt' },
  tags: { carried: 'tags', unordered: true },
  ...visibility,
  templateSuffix: own('template_suffix'),
  createdAt: { carried: 'createdAt' },
  updatedAt: { carried: 'updatedAt' },
  'blog.id': { assigned: 'The blog is named by its title; Shopify numbers its blogs itself.' },
  'blog.title': { carried: 'blog' },
  'blog.handle': {
    converted: 'sourceUrlPath',
    how: 'Part of the article’s address /blogs/<blog handle>/<handle>.',
  },
  ...contentMetafields,
};

export const shopifyNativeFields: NativeCatalogue = {
  categories: collectionFields,
  brands: brandFields,
  products: productFields,
  coupons: couponFields,
  customers: customerFields,
  orders: orderFields,
  reviews: reviewFields,
  pages: pageFields,
  posts: articleFields,
};

/**
 * Native fields that Shopify assigns itself when a record is written, so a copy of a shop differs
 * from it there: left out of the same-platform comparison (see the conformance harness).
 */
export const shopifyAssignedOnWrite: Partial<Record<EntityType, Record<string, string>>> = {
  products: {
    createdAt: 'productSet takes no creation date: Shopify stamps it.',
    updatedAt: 'Shopify stamps the time of every change itself.',
    'media.nodes[].image.url': 'Shopify downloads each image and serves its own copy from its CDN.',
    'variants.nodes[].media.nodes[].id': "The id of the shop's own copy of the variant's image.",
  },
  categories: {
    'image.url': 'Shopify downloads the collection image and serves its own copy from its CDN.',
  },
  coupons: {
    'discount.createdAt': 'The discount mutations take no creation date: Shopify stamps it.',
    'discount.asyncUsageCount': 'Shopify counts the uses of a code from its own orders.',
  },
  customers: {
    createdAt: 'customerCreate takes no creation date: Shopify stamps it.',
  },
  pages: {
    createdAt: 'pageCreate takes no creation date: Shopify stamps it.',
    updatedAt: 'Shopify stamps the time of every change itself.',
  },
  posts: {
    createdAt: 'articleCreate takes no creation date: Shopify stamps it.',
    updatedAt: 'Shopify stamps the time of every change itself.',
    'blog.id': 'Shopify numbers the blog it creates itself.',
    'image.url': 'Shopify downloads the article image and serves its own copy from its CDN.',
  },
  orders: {
    updatedAt: 'Shopify stamps the time of every change itself.',
    cancelledAt: 'orderCancel takes no date: Shopify stamps when the order was cancelled.',
    clientIp: 'orderCreate takes no buyer IP address: Shopify knows it only from a checkout.',
    'refunds[].refundLineItems.nodes[].lineItem.id':
      "The id of the copy's own line; which line it is, is compared by the canonical round trip.",
  },
};

function contentConverted(what: 'page' | 'article'): Record<string, string> {
  return {
    status: `Shopify ${what}s are shown or hidden: 'draft', 'pending' and 'private' are written hidden (a pending or private ${what} reads back as a draft), 'scheduled' is written with its publish date (without one it is written hidden, with a warning).`,
    publishedAt: `Written as the publish date of a shown or scheduled ${what}; Shopify keeps no date for a hidden one.`,
    seoTitle:
      "Written as the metafield global.title_tag (the admin's search engine listing title).",
    seoDescription:
      "Written as the metafield global.description_tag (the admin's search engine listing description).",
    metafields:
      "Written as metafields under their namespace ('shopify.custom' becomes 'custom'; others keep theirs, with characters Shopify refuses replaced), and the theme template (shopify.template_suffix) into its field.",
    slug: `Written as the handle; a ${what} without one gets the handle Shopify makes from its title.`,
  };
}

/**
 * What a Shopify store cannot hold of the model, with the reason, and what it holds in another
 * form. Fields held in 'replatform' metafields are described in own-fields.ts.
 */
export const shopifyDestinationFields: Partial<Record<EntityType, DestinationFields>> = {
  categories: {
    comparable: shopifyComparable.categories,
    unsupported: {
      parentId:
        'Shopify collections are flat: the collection is created at the top level, without its parent category.',
      position: 'Shopify has no order among collections.',
      displayType: 'Shopify collection pages have no setting for showing subcategories.',
      imageTitle: 'Shopify collection images have alternative text but no title.',
    },
    converted: {
      metafields:
        "Written as metafields under their namespace ('shopify.custom' becomes 'custom'; others keep theirs, with characters Shopify refuses replaced), and Shopify's own fields (shopify.sort_order, ...) into those fields.",
    },
  },
  products: {
    comparable: shopifyComparable.products,
    unsupported: {
      featured:
        'Shopify has no featured flag: feature products by putting them in a collection your theme shows.',
      defaultOptionValues:
        'Shopify products have no default option values: the product page starts from a variant the theme chooses.',
      'images.title': 'Shopify images have alternative text but no title.',
      tagDefinitions: "Shopify tags are names only: a tag's slug and description have no place.",
      sharedAttributes:
        "Shopify options belong to each product: a store-wide attribute's settings, its values' descriptions and order, and the values no product uses have no place.",
      taxClass:
        "Shopify has no tax classes: taxes follow the store's regions and the product's category.",
      shippingClass:
        "Shopify has no shipping classes: shipping rates follow the store's shipping profiles.",
      soldIndividually: 'Shopify cannot limit a product to one per order.',
      reviewsAllowed: 'Shopify has no review setting per product (reviews come from apps).',
      menuOrder: 'Shopify has no sort position for a product outside its collections.',
      upsellIds: 'Shopify has no up-sells: product recommendations come from Shopify or an app.',
      crossSellIds:
        'Shopify has no cross-sells: product recommendations come from Shopify or an app.',
      groupedProductIds:
        'Shopify has no grouped products: the group is created as a product that cannot be bought, without links to its member products (they are migrated as products of their own).',
      createdAt: "Shopify stamps a product's creation date itself.",
      updatedAt: 'Shopify stamps the time of every change itself.',
      'variants.status':
        'Shopify variants have no status of their own: a private variant is for sale at Shopify like the others.',
      'variants.saleStartsAt':
        'Shopify has no sale schedule: a sale running now is written (price and compare-at price), a sale that starts later or has ended is not applied.',
      'variants.saleEndsAt':
        'Shopify has no sale schedule: a sale running now is written (price and compare-at price), a sale that starts later or has ended is not applied.',
      'variants.inventory.lowStockThreshold': 'Shopify has no low-stock threshold per product.',
      'variants.taxClass': 'Shopify has no tax classes.',
      'variants.shippingClass': 'Shopify has no shipping classes.',
      'variants.downloadable':
        'Shopify sells files only through a digital-downloads app: the files are not attached.',
      'variants.downloads':
        'Shopify sells files only through a digital-downloads app: the files are not attached.',
      'variants.downloadLimit':
        'Shopify sells files only through a digital-downloads app: download limits are not kept.',
      'variants.downloadExpiryDays':
        'Shopify sells files only through a digital-downloads app: download expiry is not kept.',
    },
    converted: {
      type: 'Shopify has no grouped or external products: a grouped product becomes a product that cannot be bought itself (Shopify needs a variant: it gets one priced 0 with no stock, not sold without stock), marked by the metafield replatform.grouped; an external product becomes an ordinary product whose link and button text are kept in the metafields replatform.external_url and replatform.button_text.',
      sku: "A simple product's SKU is its variant's; a variable product's own SKU is kept in the metafield replatform.sku.",
      shortDescriptionHtml:
        'Kept in the metafield replatform.short_description (Shopify has one description).',
      status: "'pending' and 'private' become draft (not for sale).",
      visibility:
        "'hidden' becomes Shopify's unlisted status; Shopify lists every other product in the shop and in search alike.",
      'options.shared':
        'Shopify options belong to each product; the store-wide attribute is kept in the metafield replatform.options.',
      'options.visible':
        'Shopify shows every option on the product page; the flag is kept in the metafield replatform.options.',
      'options.position':
        'Options are written in their order; their place among the attributes is kept in the metafield replatform.options.',
      attributes:
        'Shopify has no product attributes: they are kept in the metafield replatform.attributes.',
      weight:
        'Shopify weighs variants: the product weight is written on each variant that has none of its own.',
      'variants.weight':
        "A variant without a weight of its own is written with the product's weight (Shopify weighs variants only).",
      dimensions:
        'Shopify has no dimensions: they are kept in the metafield replatform.dimensions.',
      taxStatus:
        "'none' and 'shipping' make the variants not taxed (Shopify taxes shipping by the store's settings).",
      purchaseNote:
        'Kept in the metafield replatform.purchase_note (Shopify has no purchase note).',
      externalUrl:
        'Kept in the metafield replatform.external_url (Shopify has no external products).',
      buttonText: 'Kept in the metafield replatform.button_text.',
      metafields:
        "Written as metafields under their namespace ('shopify.custom' becomes 'custom'; others keep theirs, with characters Shopify refuses replaced), and Shopify's own fields (shopify.product_type, ...) into those fields.",
      'variants.salePrice':
        'The price while the sale runs, the regular price becoming the compare-at price.',
      'variants.inventory.stockStatus':
        'Shopify works out the stock status from the quantity and whether it keeps selling without stock; an item whose stock is not counted is always in stock.',
      'variants.inventory.backorders':
        "'notify' and 'yes' both become 'continue selling when out of stock' (Shopify does not tell the customer).",
      'variants.virtual': "Written as 'needs no shipping'.",
      'variants.dimensions': "Kept in the variant's metafield replatform.dimensions.",
      'variants.descriptionHtml': "Kept in the variant's metafield replatform.description.",
      'variants.metafields':
        "Written as the variant's metafields under their namespace, and Shopify's own fields (shopify.unit_cost, ...) into those fields.",
    },
  },
  coupons: {
    comparable: shopifyComparable.coupons,
    unsupported: {
      ...couponLimitsShopifyLacks,
      usageCount: 'Shopify counts the uses of a code itself, from its own orders.',
      createdAt: "Shopify stamps a discount's creation date itself.",
    },
    converted: {
      description: "Written as the discount's title (the code, for a coupon without one).",
      percentOff: 'Written as a share between 0 and 1 (10% is 0.1).',
      freeShipping:
        'A free-shipping-only coupon is a free shipping discount. A coupon that takes money off and also makes shipping free is written as the amount off discount alone, with a warning: codes are unique in a shop, so it cannot also be a second, free shipping discount.',
      usageLimitPerCustomer:
        'Shopify has one use per customer or no limit: a limit of 1 is kept; a higher one is not (with a warning).',
      individualUse:
        'A coupon for individual use combines with no other discount; any other combines with order, product and shipping discounts.',
      startsAt:
        'Shopify needs a start date: a coupon without one starts when it was created at the source. A start already past is compared as none.',
      enabled:
        'Shopify has no switch: a coupon switched off is written and then ended at once (deactivated), so it cannot be used. Whether a code can be used now is compared.',
      expiresAt:
        'Compared for codes that can be used; an ended or switched-off code ends either way.',
      categoryIds: 'Written as the collections the categories became.',
      metafields:
        "Written as metafields of the discount under their namespace, and Shopify's own field shopify.tags into the discount's tags.",
    },
  },
  customers: {
    comparable: shopifyComparable.customers,
    unsupported: {
      username: 'Shopify customers sign in with their e-mail address; they have no user name.',
      group: 'Shopify has no customer groups (segments are worked out from other data).',
      createdAt: "Shopify stamps an account's creation date itself.",
      'addresses.email': "Shopify addresses hold no e-mail address (the account's is kept).",
    },
    converted: {
      'addresses.isDefaultBilling':
        'Shopify has one default address: the default shipping address (else the billing one) becomes it.',
      phone: 'Shopify keeps phone numbers in international form (+14155550123).',
      metafields:
        "Written as metafields under their namespace, and Shopify's own fields (shopify.locale, ...) into those fields.",
    },
  },
  orders: {
    comparable: shopifyComparable.orders,
    unsupported: {
      updatedAt: 'Shopify stamps the time of every change itself.',
      'lines.taxClass': 'Shopify orders have no tax classes.',
      'fees.taxClass': 'Shopify orders have no tax classes.',
      'discounts.tax': "Shopify discounts carry no tax of their own (it is in the lines' tax).",
      customerIpAddress: "Shopify records the buyer's IP address at checkout only.",
      customerUserAgent: "Shopify records the buyer's browser at checkout only.",
      'billingAddress.email':
        "Shopify order addresses hold no e-mail address (the order's is kept).",
      'shippingAddress.email':
        "Shopify order addresses hold no e-mail address (the order's is kept).",
      'refunds.lines.amount':
        "Shopify works out what a returned line gives back from the line's price and discount share; the source's amount per line cannot be set (the refund's total is kept).",
    },
    converted: {
      number: "Written as the order name '#<number>'.",
      'lines.total':
        'orderCreate takes no discounts per line: line discounts are added to the order discount.',
      'lines.meta':
        "A line's chosen options are shown from the destination variant (Color: Black); the other entries are written as line properties.",
      discounts:
        'Shopify orders take one discount code: several are written as one, named by all their codes, with their total.',
      fees: 'Written as custom lines (no product) so the order total is kept; a credit (negative fee) is added to the discount.',
      discountTotal:
        "The order's one discount: its discounts (or its lines' discounts when they come to more) and its credits.",
      feeTotal: 'The fees written as custom lines; credits are in the discount.',
      'refunds.lines.tax': 'Shopify works out the tax given back for a line from the line itself.',
      notes:
        'Kept in the order metafield replatform.notes (the Admin API cannot add comments to the timeline).',
      paymentMethodTitle:
        "Shopify shows the name of the payment gateway; the source's title is kept in the order metafield replatform.payment.",
      completedAt: "Written as the order's closing date.",
      metafields:
        "Written as metafields under their namespace, and Shopify's own fields (shopify.tags, ...) into those fields.",
    },
  },
  reviews: {
    converted: {
      productId:
        "Shopify has no reviews of its own: a review is an entry of the list kept in its product's metafield replatform.reviews (json, at most 128 KB per product), which Shopify's own storefront does not show; a theme or app that reads the metafield shows it. Themes show the product's stars from Shopify's standard metafields reviews.rating and reviews.rating_count, which the migration keeps up to date.",
      status:
        "Kept as the entry's status: the list holds every review, pending, rejected and spam ones too, so a theme that shows the list must show the approved ones only. The stars (reviews.rating and reviews.rating_count) count the approved reviews only.",
      createdAt: 'Kept in UTC, to the millisecond.',
    },
  },
  pages: {
    comparable: contentComparable.pages,
    unsupported: {
      parentId:
        "Shopify pages are flat: the page is created at the top level (menus are the store's navigation, set up by hand).",
      position: 'Shopify pages have no order of their own: their order is that of the menus.',
      authorName: 'Shopify pages have no author.',
      excerpt: 'Shopify pages have no summary (only blog articles do).',
      featuredImageUrl: 'Shopify pages have no featured image (only blog articles do).',
      featuredImageAlt: 'Shopify pages have no featured image (only blog articles do).',
      seoKeywords: 'Shopify has no SEO keywords (search engines ignore them).',
      createdAt: "Shopify stamps a page's creation date itself.",
      updatedAt: 'Shopify stamps the time of every change itself.',
    },
    converted: contentConverted('page'),
  },
  posts: {
    comparable: contentComparable.posts,
    unsupported: {
      categories:
        'Shopify blog articles have tags only, no categories; the blog an article belongs to is kept from the blog field.',
      seoKeywords: 'Shopify has no SEO keywords (search engines ignore them).',
      createdAt: "Shopify stamps an article's creation date itself.",
      updatedAt: 'Shopify stamps the time of every change itself.',
    },
    converted: {
      ...contentConverted('article'),
      blog: `Written into the shop's blog of that title, created when the shop has none; a post without a blog goes into the shop's first blog (a new blog '${DEFAULT_BLOG_TITLE}' when it has none).`,
      excerpt: "Written as the article's summary.",
      featuredImageUrl:
        "Written as the article image, which Shopify downloads from the source's URL and serves from its CDN.",
      tags: 'Shopify keeps tags once each, in alphabetical order.',
      authorName:
        'Written as the author name; Shopify requires one, so a post without an author fails with the reason.',
    },
  },
};
