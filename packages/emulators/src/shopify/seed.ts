import type { SampleAddress, SampleStore } from '../framework/sample-store.ts';
import { normalisePhone } from './mutations.ts';
import {
  decimalOf,
  handleize,
  shopifyTags,
  toMinorUnits,
  type AddressRec,
  type CollectionRec,
  type CustomerRec,
  type DisplayFulfillmentStatus,
  type FinancialStatus,
  type FulfillmentOrderRec,
  type LineItemRec,
  type MediaRec,
  type OrderRec,
  type ProductRec,
  type ShopStore,
} from './store.ts';

/**
 * Seeds a shop from the platform-neutral sample store, in Shopify's shapes:
 * - categories become manual collections. Shopify has no category tree, so the sample's parent
 *   links are dropped (every collection is top-level) and sibling positions are not kept;
 * - a product without options gets Shopify's implicit "Title / Default Title" option;
 * - sample attributes become `custom.*` metafields; the leaf category name is the product type;
 * - product images are MediaImage records served by the emulator under /media/...;
 * - a customer's default address is its default shipping address (Shopify has one default);
 * - sample order statuses become financial/fulfilment statuses (see `orderStatuses`).
 */

const orderStatuses: Record<
  SampleStore['orders'][number]['status'],
  { financial: FinancialStatus; fulfillment: DisplayFulfillmentStatus; cancelled: boolean }
> = {
  completed: { financial: 'PAID', fulfillment: 'FULFILLED', cancelled: false },
  processing: { financial: 'PAID', fulfillment: 'UNFULFILLED', cancelled: false },
  pending: { financial: 'PENDING', fulfillment: 'UNFULFILLED', cancelled: false },
  'on-hold': { financial: 'AUTHORIZED', fulfillment: 'ON_HOLD', cancelled: false },
  cancelled: { financial: 'VOIDED', fulfillment: 'UNFULFILLED', cancelled: true },
  refunded: { financial: 'REFUNDED', fulfillment: 'FULFILLED', cancelled: false },
};

function address(store: ShopStore, a: SampleAddress): AddressRec {
  const text = (v: string) => (v === '' ? null : v);
  return {
    id: store.nextId(),
    firstName: text(a.firstName),
    lastName: text(a.lastName),
    company: text(a.company),
    address1: text(a.address1),
    address2: text(a.address2),
    city: text(a.city),
    provinceCode: text(a.province),
    countryCode: text(a.countryCode),
    zip: text(a.postalCode),
    phone: text(a.phone),
  };
}

const seconds = (iso: string) => iso.replace(/\.\d{3}Z$/, 'Z');

export function seedShop(store: ShopStore, sample: SampleStore): void {
  const currency = store.config.currency;
  const collectionByKey = new Map<string, CollectionRec>();
  for (const category of sample.categories) {
    const taken = (h: string) => store.collectionByHandle(h) !== undefined;
    let handle = handleize(category.slug) || 'collection';
    for (let i = 1; taken(handle); i++) handle = `${handleize(category.slug)}-${i}`;
    const collection: CollectionRec = {
      id: store.nextId(),
      handle,
      title: category.name,
      descriptionHtml: category.description,
      image: null,
      seoTitle: null,
      seoDescription: null,
      productIds: [],
      metafields: [],
      sortOrder: 'MANUAL',
      templateSuffix: null,
      createdAt: store.timestamp(),
      updatedAt: store.timestamp(),
    };
    store.collections.set(collection.id, collection);
    collectionByKey.set(category.key, collection);
  }

  const productByKey = new Map<string, ProductRec>();
  for (const sp of sample.products) {
    const createdAt = seconds(sp.createdAt);
    const options = sp.options.length ? sp.options : [{ name: 'Title', values: ['Default Title'] }];
    const media: MediaRec[] = sp.images.map((image) => ({
      id: store.nextId(),
      imageId: store.nextId(),
      alt: image.alt,
      status: 'READY',
      path: image.path,
      originalSource: image.path,
      mimeType: 'image/png',
      fileSize: null,
      width: 8,
      height: 8,
      errors: [],
      createdAt,
      updatedAt: createdAt,
    }));
    const leaf = sample.categories.find((c) => c.key === sp.categoryKeys[0]);
    const product: ProductRec = {
      id: store.nextId(),
      handle: sp.slug,
      title: sp.name,
      descriptionHtml: sp.descriptionHtml,
      status: sp.status === 'draft' ? 'DRAFT' : 'ACTIVE',
      vendor: sp.vendor,
      productType: leaf?.name ?? '',
      tags: shopifyTags(sp.tags),
      options: options.map((o, i) => ({
        id: store.nextId(),
        name: o.name,
        position: i + 1,
        values: o.values.map((name) => ({ id: store.nextId(), name })),
      })),
      variants: sp.variants.map((v, i) => ({
        id: store.nextId(),
        inventoryItemId: store.nextId(),
        sku: v.sku,
        price: v.price,
        compareAtPrice: v.compareAtPrice,
        barcode: null,
        position: i + 1,
        optionValues: sp.options.length
          ? sp.options.map((o) => ({ name: o.name, value: v.optionValues[o.name] ?? '' }))
          : [{ name: 'Title', value: 'Default Title' }],
        tracked: true,
        quantity: v.stock,
        weight: { unit: 'KILOGRAMS', value: v.weightKg },
        mediaId: null,
        taxable: true,
        inventoryPolicy: 'DENY',
        requiresShipping: true,
        metafields: [],
        createdAt,
        updatedAt: createdAt,
      })),
      media,
      seoTitle: sp.seoTitle,
      seoDescription: sp.seoDescription,
      metafields: Object.entries(sp.attributes).map(([name, value]) => ({
        id: store.nextId(),
        namespace: 'custom',
        key: handleize(name).replace(/-/g, '_'),
        type: 'single_line_text_field',
        value,
        createdAt,
        updatedAt: createdAt,
      })),
      templateSuffix: null,
      createdAt,
      updatedAt: createdAt,
      publishedAt: sp.status === 'draft' ? null : createdAt,
    };
    store.products.set(product.id, product);
    productByKey.set(sp.key, product);
    for (const key of sp.categoryKeys) {
      const collection = collectionByKey.get(key);
      if (collection && !collection.productIds.includes(product.id))
        collection.productIds.push(product.id);
    }
  }

  const customerByKey = new Map<string, CustomerRec>();
  for (const sc of sample.customers) {
    const createdAt = seconds(sc.createdAt);
    const addresses = sc.addresses.map((a) => address(store, a));
    const defaultIndex = Math.max(
      0,
      sc.addresses.findIndex((a) => a.defaultShipping),
    );
    const phone = normalisePhone(sc.phone, addresses[0]?.countryCode ?? undefined);
    const customer: CustomerRec = {
      id: store.nextId(),
      firstName: sc.firstName,
      lastName: sc.lastName,
      email: sc.email,
      // Shopify keeps customer phone numbers unique; a clash in the sample leaves the later one without.
      phone: phone && !store.customerByPhone(phone) ? phone : null,
      note: sc.note || null,
      tags: shopifyTags(sc.tags),
      locale: 'en',
      marketingState: sc.acceptsMarketing ? 'SUBSCRIBED' : 'NOT_SUBSCRIBED',
      marketingOptInLevel: 'SINGLE_OPT_IN',
      marketingUpdatedAt: createdAt,
      addresses,
      defaultAddressId: addresses[defaultIndex]?.id ?? null,
      metafields: [],
      taxExempt: false,
      createdAt,
      updatedAt: createdAt,
    };
    store.customers.set(customer.id, customer);
    customerByKey.set(sc.key, customer);
  }

  for (const so of sample.orders) {
    const status = orderStatuses[so.status];
    const createdAt = seconds(so.createdAt);
    const lines: LineItemRec[] = so.lines.map((l) => {
      const product = productByKey.get(l.productKey);
      const variant = product?.variants.find((v) => v.sku === l.variantSku);
      const variable = (product?.options[0]?.name ?? 'Title') !== 'Title';
      const tax = toMinorUnits(l.tax, currency);
      return {
        id: store.nextId(),
        title: product?.title ?? l.name,
        variantTitle:
          variable && variant ? variant.optionValues.map((o) => o.value).join(' / ') : null,
        sku: l.sku,
        vendor: product?.vendor ?? null,
        quantity: l.quantity,
        unitPrice: decimalOf(toMinorUnits(l.unitPrice, currency), currency),
        productId: product?.id ?? null,
        variantId: variant?.id ?? null,
        taxLines: tax ? [{ title: 'Tax', rate: 0.08, amount: decimalOf(tax, currency) }] : [],
        requiresShipping: true,
        taxable: true,
        discountAllocations: [],
      };
    });
    if (so.discount) {
      const amount = toMinorUnits(so.discount.amount, currency);
      const bases = lines.map((l) => toMinorUnits(l.unitPrice, currency) * l.quantity);
      const total = bases.reduce((n, b) => n + b, 0);
      const capped = Math.min(amount, total);
      let given = 0;
      lines.forEach((l, i) => {
        const share =
          i === lines.length - 1 ? capped - given : Math.floor((capped * (bases[i] ?? 0)) / total);
        given += share;
        l.discountAllocations.push({ index: 0, amount: decimalOf(share, currency) });
      });
    }
    const fulfillmentOrder: FulfillmentOrderRec = {
      id: store.nextId(),
      status: status.cancelled
        ? 'CANCELLED'
        : status.fulfillment === 'FULFILLED'
          ? 'CLOSED'
          : status.fulfillment === 'ON_HOLD'
            ? 'ON_HOLD'
            : 'OPEN',
      holdReason: status.fulfillment === 'ON_HOLD' ? 'AWAITING_PAYMENT' : null,
    };
    const number = Number(so.number);
    const order: OrderRec = {
      id: store.nextId(),
      number,
      name: `#${so.number}`,
      email: so.email || null,
      phone: null,
      customerId: so.customerKey ? (customerByKey.get(so.customerKey)?.id ?? null) : null,
      currency: so.currency,
      processedAt: createdAt,
      createdAt,
      updatedAt: createdAt,
      cancelledAt: status.cancelled ? createdAt : null,
      cancelReason: status.cancelled ? 'CUSTOMER' : null,
      closedAt: status.cancelled ? createdAt : null,
      financialStatus: status.financial,
      fulfillmentStatus: status.fulfillment,
      fulfillmentOrders: [fulfillmentOrder],
      lineItems: lines,
      shippingLines: [
        {
          id: store.nextId(),
          title: so.shipping.title,
          code: so.shipping.code || null,
          source: null,
          price: decimalOf(toMinorUnits(so.shipping.price, currency), currency),
          taxLines: [],
          discountAllocations: [],
        },
      ],
      discountApplications: so.discount
        ? [
            {
              index: 0,
              kind: 'code',
              code: so.discount.code,
              value: {
                kind: 'money',
                amount: decimalOf(toMinorUnits(so.discount.amount, currency), currency),
              },
              targetType: 'LINE_ITEM',
              targetSelection: 'ALL',
              allocationMethod: 'ACROSS',
            },
          ]
        : [],
      billingAddress: address(store, so.billing),
      shippingAddress: address(store, so.shippingAddress),
      note: so.note || null,
      tags: [],
      metafields: [],
      taxesIncluded: false,
      test: false,
      sourceName: 'web',
      buyerAcceptsMarketing: false,
    };
    store.orders.set(order.id, order);
    store.nextOrderNumber = Math.max(store.nextOrderNumber, number + 1);
  }
}
