import { seedContent } from './content.ts';
import type { SampleAddress, SampleCoupon, SampleStore } from '../framework/sample-store.ts';
import { normalisePhone } from './mutations.ts';
import {
  decimalOf,
  handleize,
  shopifyTags,
  toMinorUnits,
  type AddressRec,
  type CollectionRec,
  type CustomerRec,
  type DiscountRec,
  type DisplayFulfillmentStatus,
  type FinancialStatus,
  type FulfillmentOrderRec,
  type LineItemRec,
  type MediaRec,
  type MetafieldRec,
  type OrderRec,
  type RefundLineRec,
  type ProductRec,
  type ShopStore,
} from './store.ts';
import { seedReviews } from './reviews.ts';
import { orderTotals, type ViewContext } from './views.ts';

/**
 * Seeds a shop from the platform-neutral sample store, in Shopify's shapes:
 * - categories become manual collections. Shopify has no category tree, so the sample's parent
 *   links are dropped (every collection is top-level) and sibling positions are not kept;
 * - a product without options gets Shopify's implicit "Title / Default Title" option;
 * - sample attributes become `custom.*` metafields; the leaf category name is the product type;
 * - product images are MediaImage records served by the emulator under /media/...;
 * - a customer's default address is its default shipping address (Shopify has one default);
 * - sample order statuses become financial/fulfilment statuses (see `orderStatuses`);
 * - coupons become code discounts (see `discountOf`);
 * - reviews become entries of their product's replatform.reviews list, with the star rating and
 *   count of its approved ones in reviews.rating and reviews.rating_count (see reviews.ts).
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
        unitCost: null,
        harmonizedSystemCode: null,
        countryCodeOfOrigin: null,
        provinceCodeOfOrigin: null,
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
      categoryId: null,
      isGiftCard: false,
      giftCardTemplateSuffix: null,
      requiresSellingPlan: false,
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
      sms: null,
      addresses,
      defaultAddressId: addresses[defaultIndex]?.id ?? null,
      metafields: [],
      taxExempt: false,
      taxExemptions: [],
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
        customAttributes: [],
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
      customAttributes: [],
      poNumber: null,
      clientIp: null,
      transactions: [],
      refunds: [],
      additionalFees: [],
      metafields: [],
      taxesIncluded: false,
      test: false,
      sourceName: 'web',
      buyerAcceptsMarketing: false,
    };
    store.orders.set(order.id, order);
    store.nextOrderNumber = Math.max(store.nextOrderNumber, number + 1);
  }
  for (const coupon of sample.coupons) {
    const discount = discountOf(store, coupon, {
      products: (key) => productByKey.get(key)?.id,
      collections: (key) => collectionByKey.get(key)?.id,
    });
    store.discounts.set(discount.id, discount);
  }
  seedReviews(store, sample.reviews, (key) => productByKey.get(key));
  enrichShop(store);
  seedContent(store, sample.pages, sample.posts, (path, alt, at) => imageAt(store, path, alt, at));
}

/**
 * A sample coupon as Shopify holds it: a free-shipping-only coupon is a free shipping discount,
 * any other an amount off discount; its description is the discount's title (the code when it has
 * none); minimum spend, usage limit, one use per customer, dates and product or collection
 * restrictions are kept. What Shopify has no place for (maximum spend, excluded items, sale items,
 * item limit, e-mail patterns) is left out, and a coupon switched off is one that ended when it was
 * switched off (Shopify's deactivation).
 */
function discountOf(
  store: ShopStore,
  coupon: SampleCoupon,
  keys: {
    products: (key: string) => number | undefined;
    collections: (key: string) => number | undefined;
  },
): DiscountRec {
  const currency = store.config.currency;
  const amount = (text: string) => decimalOf(toMinorUnits(text, currency), currency);
  const freeShippingOnly =
    coupon.freeShipping && coupon.discountType === 'fixed_cart' && Number(coupon.amount) === 0;
  const productIds = coupon.productKeys.flatMap((k) => keys.products(k) ?? []);
  const collectionIds = coupon.categoryKeys.flatMap((k) => keys.collections(k) ?? []);
  const createdAt = seconds(coupon.createdAt);
  const startsAt = seconds(coupon.startsAt ?? coupon.createdAt);
  let endsAt = coupon.expiresAt ? seconds(coupon.expiresAt) : null;
  if (!coupon.enabled) {
    const switchedOff = later(createdAt, 24);
    endsAt = endsAt && endsAt < switchedOff ? endsAt : switchedOff;
  }
  return {
    id: store.nextId(),
    kind: freeShippingOnly ? 'freeShipping' : 'basic',
    title: coupon.description || coupon.code,
    codes: [{ id: store.nextId(), code: coupon.code, asyncUsageCount: coupon.usageCount }],
    startsAt,
    endsAt,
    usageLimit: coupon.usageLimit,
    appliesOncePerCustomer: coupon.usageLimitPerCustomer === 1,
    combinesWith: {
      orderDiscounts: !coupon.individualUse,
      productDiscounts: !coupon.individualUse,
      // Shipping discounts do not combine with one another.
      shippingDiscounts: !coupon.individualUse && !freeShippingOnly,
    },
    minimumRequirement: coupon.minimumSpend ? { subtotal: amount(coupon.minimumSpend) } : null,
    value: freeShippingOnly
      ? null
      : coupon.discountType === 'percent'
        ? { percentage: Number(coupon.amount) / 100 }
        : {
            amount: amount(coupon.amount),
            appliesOnEachItem: coupon.discountType === 'fixed_product',
          },
    items: freeShippingOnly
      ? { all: true }
      : collectionIds.length
        ? { collectionIds }
        : productIds.length
          ? { productIds, variantIds: [] }
          : { all: true },
    customerIds: null,
    maximumShippingPrice: null,
    countries: null,
    appliesOnOneTimePurchase: true,
    appliesOnSubscription: false,
    recurringCycleLimit: null,
    tags: [],
    metafields: [],
    createdAt,
    updatedAt: createdAt,
  };
}

const later = (iso: string, hours: number) =>
  seconds(new Date(Date.parse(iso) + hours * 3_600_000).toISOString());

function metafield(
  store: ShopStore,
  key: string,
  type: string,
  value: string,
  at: string,
): MetafieldRec {
  return {
    id: store.nextId(),
    namespace: 'custom',
    key,
    type,
    value,
    createdAt: at,
    updatedAt: at,
  };
}

function imageAt(store: ShopStore, path: string, alt: string, at: string): MediaRec {
  return {
    id: store.nextId(),
    imageId: store.nextId(),
    alt,
    status: 'READY',
    path,
    originalSource: path,
    mimeType: 'image/png',
    fileSize: null,
    width: 8,
    height: 8,
    errors: [],
    createdAt: at,
    updatedAt: at,
  };
}

/**
 * What the platform-neutral sample has no notion of, added in Shopify's own shapes so that copying
 * the shop exercises every field the connector reads (indices pick records deterministically, so a
 * small store gets a few of each):
 * - products: theme templates, a taxonomy category, a gift card, a subscription-only product,
 *   unlisted and archived ones, non-Latin text and emoji, unit costs and customs data, "continue
 *   selling when out of stock", untracked, untaxed and shipping-free variants, barcodes, variant
 *   images and metafields, typed metafields, and one image shared by two products;
 * - collections: SEO, images with alt text, sort orders, templates and metafields;
 * - customers: locales, tax exemptions, SMS and e-mail consent states, metafields;
 * - orders: payment transactions, full and partial refunds (several on one order), order and line
 *   attributes, tags, PO numbers, phones, closing dates, cancellation reasons, prices with tax
 *   included, an order in another currency and a line whose product no longer exists.
 * Additional fees are left out: they come only from checkouts and no API call can create them, so
 * no copy of a shop could hold them.
 */
function enrichShop(store: ShopStore): void {
  // Discounts: tags and a custom field, which the admin adds to a discount.
  const [firstDiscount] = store.discounts.values();
  if (firstDiscount) {
    firstDiscount.tags = shopifyTags(['loyalty', 'newsletter']);
    firstDiscount.metafields.push(
      metafield(
        store,
        'campaign',
        'single_line_text_field',
        'Spring mailing',
        firstDiscount.createdAt,
      ),
    );
  }
  const products = [...store.products.values()];
  const external = products.slice(9).find((p) => p.options[0]?.name === 'Title');
  products.forEach((p, i) => {
    const at = p.createdAt;
    if (i % 4 === 1) p.templateSuffix = 'alternate';
    if (i % 5 === 2) p.categoryId = 'gid://shopify/TaxonomyCategory/aa-1';
    if (i === 3) p.requiresSellingPlan = true;
    if (i === 4) {
      p.isGiftCard = true;
      p.giftCardTemplateSuffix = 'festive';
    }
    if (i === 5 && p.status === 'ACTIVE') p.status = 'UNLISTED';
    if (i === 6) p.status = 'ARCHIVED';
    if (i === 7) {
      p.title = `${p.title} — Чай 🍵 茶`;
      p.tags = shopifyTags([...p.tags, 'été', '茶']);
    }
    if (i % 3 === 0)
      p.metafields.push(
        metafield(store, 'care_instructions', 'multi_line_text_field', 'Wash cold.\nDry flat.', at),
      );
    if (i % 4 === 0) p.metafields.push(metafield(store, 'specs', 'json', '{"fit":"regular"}', at));
    if (i % 5 === 0)
      p.metafields.push(metafield(store, 'warranty_years', 'number_integer', '2', at));
    if (i % 6 === 0) p.metafields.push(metafield(store, 'eco', 'boolean', 'true', at));
    // Fields of other platforms kept by an earlier migration into this shop.
    const carried = (key: string, type: string, value: string) => ({
      ...metafield(store, key, type, value, at),
      namespace: 'replatform',
    });
    if (i === 8)
      p.metafields.push(
        carried('short_description', 'multi_line_text_field', '<p>Short and sweet.</p>'),
        carried('purchase_note', 'multi_line_text_field', 'Thank you for your order!'),
      );
    if (p === external)
      p.metafields.push(
        carried('external_url', 'url', 'https://partner.example/item-9'),
        carried('button_text', 'single_line_text_field', 'Buy at our partner'),
      );
    const variable = p.options[0]?.name !== 'Title';
    p.variants.forEach((v, k) => {
      if (i % 3 === 0) {
        v.unitCost = decimalOf(
          Math.round(toMinorUnits(v.price, store.config.currency) * 0.4),
          store.config.currency,
        );
        v.harmonizedSystemCode = '610910';
        v.countryCodeOfOrigin = 'PT';
      }
      if (i % 7 === 1) {
        v.countryCodeOfOrigin = 'CA';
        v.provinceCodeOfOrigin = 'ON';
      }
      if (i % 6 === 1) v.inventoryPolicy = 'CONTINUE';
      if (i % 8 === 2) {
        v.tracked = false;
        v.quantity = 0;
      }
      if (i % 9 === 3) v.taxable = false;
      if (i % 10 === 4 || p.isGiftCard) v.requiresShipping = false;
      if (i % 4 === 0) v.barcode = String(4006381333900 + i * 10 + k);
      if (variable && p.media.length > 1) v.mediaId = p.media[k % p.media.length]?.id ?? null;
      if (i % 5 === 0 && k === 0)
        v.metafields.push(metafield(store, 'fabric_code', 'single_line_text_field', `F-${i}`, at));
      if (variable && k === 0 && !products.slice(0, i).some((q) => q.options[0]?.name !== 'Title'))
        v.metafields.push(
          carried(
            'description',
            'multi_line_text_field',
            `<p>${v.sku ?? 'This variant'} only.</p>`,
          ),
        );
    });
  });
  // One image shown by two products: Shopify keeps it once, as one file of the shop.
  const [, first, second] = products;
  const shared = first?.media[0];
  if (second && shared) second.media.push(shared);

  [...store.collections.values()].forEach((c, i) => {
    if (i % 2 === 0) {
      c.seoTitle = `${c.title} | Sample Store`;
      c.seoDescription = `Everything in ${c.title}.`;
    }
    if (i % 3 === 0)
      c.image = imageAt(
        store,
        `/media/collections/${c.handle}.png`,
        `${c.title} banner`,
        c.createdAt,
      );
    if (i === 1) c.sortOrder = 'BEST_SELLING';
    if (i === 2) c.sortOrder = 'ALPHA_ASC';
    if (i % 4 === 3) c.templateSuffix = 'wide';
    if (i % 2 === 1)
      c.metafields.push(
        metafield(store, 'banner_text', 'single_line_text_field', `New in ${c.title}`, c.createdAt),
      );
    if (i === 3) c.title = `${c.title} · Ёлки 🎄`;
  });

  [...store.customers.values()].forEach((c, i) => {
    const at = c.createdAt;
    if (i % 3 === 0) c.locale = 'fr';
    if (i % 4 === 1) c.locale = 'de';
    if (i === 2) {
      c.taxExempt = true;
      c.taxExemptions = ['CA_STATUS_CARD_EXEMPTION'];
    }
    if (c.phone && i % 2 === 0)
      c.sms = { state: 'SUBSCRIBED', optInLevel: 'SINGLE_OPT_IN', updatedAt: at };
    if (c.phone && i % 5 === 1)
      c.sms = { state: 'UNSUBSCRIBED', optInLevel: 'UNKNOWN', updatedAt: at };
    if (i % 7 === 3) c.marketingState = 'UNSUBSCRIBED';
    if (i % 11 === 5) {
      c.marketingState = 'PENDING';
      c.marketingOptInLevel = 'CONFIRMED_OPT_IN';
    }
    if (i % 3 === 1)
      c.metafields.push(metafield(store, 'loyalty_tier', 'single_line_text_field', 'gold', at));
    if (i % 4 === 2) c.metafields.push(metafield(store, 'birthday', 'date', '1990-05-17', at));
    if (i === 4) {
      c.firstName = 'Zoë';
      c.lastName = '山田';
    }
  });

  const view: ViewContext = { store, baseUrl: '', bulk: false, scopes: new Set() };
  // Every shop with a paid, fulfilled order has at least one partly refunded order.
  let partlyRefunded = false;
  [...store.orders.values()].forEach((o, i) => {
    if (i === 6 && !o.cancelledAt) {
      o.cancelledAt = later(o.processedAt, 2);
      o.cancelReason = 'CUSTOMER';
      o.closedAt = o.cancelledAt;
      o.financialStatus = 'VOIDED';
      o.fulfillmentStatus = 'UNFULFILLED';
      for (const f of o.fulfillmentOrders) {
        f.status = 'CANCELLED';
        f.holdReason = null;
      }
    }
    if (i === 7) o.test = true;
    if (i === 4) o.currency = 'EUR';
    if (i === 5) o.taxesIncluded = true;
    if (i === 1)
      // The product of this line was deleted after the order: only the order remembers it.
      o.lineItems.push({
        id: store.nextId(),
        title: 'Discontinued enamel mug',
        variantTitle: null,
        sku: 'OLD-MUG-1',
        vendor: null,
        quantity: 1,
        unitPrice: '12.0',
        productId: null,
        variantId: null,
        taxLines: [],
        requiresShipping: true,
        taxable: true,
        discountAllocations: [],
        customAttributes: [],
      });
    const firstLine = o.lineItems[0];
    if (i % 3 === 0 && firstLine)
      firstLine.customAttributes = [{ key: 'Engraving', value: 'For Ana ❤' }];
    if (i % 4 === 1) o.customAttributes = [{ key: 'gift_message', value: 'Happy birthday!' }];
    if (i % 3 === 1) o.tags = shopifyTags(['wholesale', 'priority']);
    if (i % 5 === 2) o.poNumber = `PO-${o.number}`;
    if (i % 4 === 3) o.phone = '+14155550100';
    o.buyerAcceptsMarketing = i % 2 === 0;
    if (i % 5 === 4) o.sourceName = 'pos';
    if (i % 3 === 2) o.clientIp = '203.0.113.7';
    const shipping = o.shippingLines[0];
    if (i % 3 === 0 && shipping && toMinorUnits(shipping.price, o.currency) > 0)
      shipping.taxLines = [
        {
          title: 'Tax',
          rate: 0.08,
          amount: decimalOf(
            Math.round(toMinorUnits(shipping.price, o.currency) * 0.08),
            o.currency,
          ),
        },
      ];
    if (i % 4 === 0)
      o.metafields.push(
        metafield(store, 'gift_wrap', 'single_line_text_field', 'Blue paper', o.processedAt),
      );
    if (i === 2)
      // Notes of an order migrated to this shop before, kept where the migration keeps them.
      o.metafields.push({
        ...metafield(
          store,
          'notes',
          'json',
          JSON.stringify([
            {
              content: 'Customer asked to ship after the holidays.',
              customerNote: false,
              author: 'Ana',
              createdAt: new Date(Date.parse(o.processedAt) + 3_600_000).toISOString(),
            },
          ]),
          o.processedAt,
        ),
        namespace: 'replatform',
      });
    if (o.cancelledAt && i % 2 === 1) o.cancelReason = 'INVENTORY';
    const total = orderTotals(view, o).total;
    const currency = o.currency;
    const money = (minor: number) => decimalOf(minor, currency);
    const paid = ['PAID', 'PARTIALLY_REFUNDED', 'REFUNDED'].includes(o.financialStatus);
    if (paid || o.financialStatus === 'AUTHORIZED')
      o.transactions.push({
        id: store.nextId(),
        kind: paid ? 'SALE' : 'AUTHORIZATION',
        status: 'SUCCESS',
        gateway: i % 2 === 0 ? 'manual' : 'bogus',
        amount: money(total),
        authorizationCode: `AUTH-${o.number}`,
        test: o.test,
        // An authorisation is taken at checkout; a sale is captured a little later.
        processedAt: paid ? later(o.processedAt, 1) : o.processedAt,
        createdAt: paid ? later(o.processedAt, 1) : o.processedAt,
        parentId: null,
      });
    const sale = o.transactions[0];
    const refund = (hours: number, amount: number, note: string, lines: RefundLineRec[]) => {
      if (!sale || amount <= 0) return;
      const when = later(o.processedAt, hours);
      const transaction = {
        id: store.nextId(),
        kind: 'REFUND' as const,
        status: 'SUCCESS' as const,
        gateway: sale.gateway,
        amount: money(amount),
        authorizationCode: null,
        processedAt: when,
        createdAt: when,
        parentId: sale.id,
        test: false,
      };
      o.transactions.push(transaction);
      o.refunds.push({
        id: store.nextId(),
        note: note || null,
        createdAt: when,
        processedAt: when,
        lines,
        transactionIds: [transaction.id],
        idempotencyKey: null,
      });
    };
    const allLines = (): RefundLineRec[] =>
      o.lineItems.map((l) => ({
        id: store.nextId(),
        lineItemId: l.id,
        quantity: l.quantity,
        restockType: 'NO_RESTOCK',
      }));
    if (o.financialStatus === 'REFUNDED') {
      if (i % 2 === 0) {
        // Two refunds: money for a late delivery first, the rest with the goods later.
        const part = Math.floor(total / 3);
        refund(48, part, 'Late delivery', []);
        refund(96, total - part, 'Customer returned the parcel', allLines());
      } else refund(72, total, 'Customer returned the parcel', allLines());
    } else if (
      o.financialStatus === 'PAID' &&
      o.fulfillmentStatus === 'FULFILLED' &&
      (i % 2 === 0 || !partlyRefunded)
    ) {
      const part = Math.min(500, Math.floor(total / 4));
      refund(50, part, 'Damaged box', []);
      if (i % 4 === 0) refund(60, part, '', []);
      if (o.refunds.length) {
        o.financialStatus = 'PARTIALLY_REFUNDED';
        partlyRefunded = true;
      }
    }
    if (o.fulfillmentStatus === 'FULFILLED' && !o.cancelledAt && o.financialStatus !== 'PENDING')
      o.closedAt = later(o.processedAt, 120);
  });
}
