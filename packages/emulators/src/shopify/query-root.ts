import { GraphQLError } from 'graphql';
import { contentNode, contentQueries } from './content.ts';
import { APP_NAMESPACE } from './metafields.ts';
import { matchesSearch, parseSearchQuery } from './search-query.ts';
import {
  gid,
  parseGid,
  type MetafieldOwnerType,
  type OrderRec,
  type ProductRec,
  type ShopStore,
} from './store.ts';
import {
  appInstallationView,
  bulkOperationView,
  collectionSearchValues,
  collectionSortKeys,
  collectionView,
  connection,
  countView,
  customerSearchValues,
  customerSortKeys,
  customerView,
  codeDiscountNodeView,
  discountNodeView,
  discountSortKeys,
  locationView,
  metafieldDefinitionView,
  orderSearchValues,
  orderSortKeys,
  orderView,
  productSortKeys,
  productView,
  redirectView,
  refundView,
  requireScope,
  searchDiscounts,
  searchProducts,
  shopView,
  variantView,
  type ViewContext,
} from './views.ts';

type Args = Record<string, unknown>;

/** Orders older than 60 days need the read_all_orders scope (Shopify's rule for apps). */
const SIXTY_DAYS_MS = 60 * 24 * 3600 * 1000;

function visibleOrders(ctx: ViewContext): OrderRec[] {
  const all = [...ctx.store.orders.values()];
  if (ctx.scopes.has('read_all_orders')) return all;
  const since = ctx.store.now() - SIXTY_DAYS_MS;
  return all.filter((o) => Date.parse(o.createdAt) >= since);
}

function sortKeyOf<T>(
  keys: Record<string, (item: T) => string | number>,
  args: Args,
  fallback: string,
): (item: T) => string | number {
  return keys[String(args.sortKey ?? fallback)] ?? keys[fallback] ?? (() => 0);
}

function customIdLookup(
  store: ShopStore,
  ownerType: MetafieldOwnerType,
  customId: Args,
): number | undefined {
  try {
    return store.findByCustomId(
      ownerType,
      typeof customId.namespace === 'string' ? customId.namespace : APP_NAMESPACE,
      String(customId.key),
      String(customId.value),
    );
  } catch (error) {
    throw new GraphQLError((error as Error).message, { extensions: { code: 'BAD_REQUEST' } });
  }
}

function idOf(value: unknown, type: string): number | undefined {
  const parsed = parseGid(value);
  return parsed && parsed.type === type ? parsed.id : undefined;
}

function refundOf(
  ctx: ViewContext,
  id: number,
): { order: OrderRec; refund: OrderRec['refunds'][number] } | undefined {
  for (const order of visibleOrders(ctx)) {
    const refund = order.refunds.find((r) => r.id === id);
    if (refund) return { order, refund };
  }
  return undefined;
}

/** productVendors' largest page (its description in the 2026-10 schema). */
export const MAX_VENDORS_PAGE = 1000;

/**
 * Vendors in alphabetical order, as the admin lists them: letters compared without case or
 * accents ('Äpfel' with the A's), ties broken by the name as written.
 */
function vendorKey(vendor: string): [string, string] {
  const folded = vendor.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  return [folded, vendor];
}

/** Resolves any supported global id to its view (QueryRoot.node / nodes). */
export function nodeView(ctx: ViewContext, id: unknown): unknown {
  const parsed = parseGid(id);
  if (!parsed) return null;
  const { store } = ctx;
  switch (parsed.type) {
    case 'Product': {
      const p = store.products.get(parsed.id);
      return p ? productView(ctx, p) : null;
    }
    case 'ProductVariant': {
      const found = store.findVariant(parsed.id);
      return found ? variantView(ctx, found.product, found.variant) : null;
    }
    case 'Collection': {
      const c = store.collections.get(parsed.id);
      return c ? collectionView(ctx, c) : null;
    }
    case 'Customer': {
      const c = store.customers.get(parsed.id);
      return c ? customerView(ctx, c) : null;
    }
    case 'Order': {
      const o = store.orders.get(parsed.id);
      return o && visibleOrders(ctx).includes(o) ? orderView(ctx, o) : null;
    }
    case 'Refund': {
      const found = refundOf(ctx, parsed.id);
      return found ? refundView(ctx, found.order, found.refund) : null;
    }
    case 'BulkOperation': {
      const b = store.bulkOperations.get(parsed.id);
      return b ? bulkOperationView(ctx, b) : null;
    }
    case 'DiscountCodeNode': {
      const d = store.discounts.get(parsed.id);
      return d ? codeDiscountNodeView(ctx, d) : null;
    }
    case 'Location':
      return parsed.id === store.location.id ? locationView(ctx) : null;
    case 'UrlRedirect': {
      const r = store.urlRedirects.find((x) => x.id === parsed.id);
      return r ? redirectView(r) : null;
    }
    default:
      return contentNode(ctx, parsed.type, parsed.id) ?? null;
  }
}

export function queryRoot(ctx: ViewContext): Record<string, unknown> {
  const { store } = ctx;
  const products = (field: string) => requireScope(ctx, 'read_products', field);
  const customers = (field: string) => requireScope(ctx, 'read_customers', field);
  const orders = (field: string) => requireScope(ctx, 'read_orders', field);
  const discounts = (field: string) => requireScope(ctx, 'read_discounts', field);

  return {
    ...contentQueries(ctx),
    shop: () => shopView(ctx),
    // No scope needed: any app may ask which scopes it was granted.
    currentAppInstallation: () => appInstallationView(ctx),
    location: (args: Args) =>
      args.id === undefined || args.id === null || idOf(args.id, 'Location') === store.location.id
        ? locationView(ctx)
        : null,
    locations: (args: Args) =>
      connection(
        ctx,
        [store.location],
        args,
        (l) => [l.id],
        () => locationView(ctx),
      ),

    products: (args: Args) => {
      products('products');
      const key = sortKeyOf(productSortKeys, args, 'ID');
      return connection(
        ctx,
        searchProducts(ctx, args.query),
        args,
        (p) => [key(p), p.id],
        (p) => productView(ctx, p),
      );
    },
    product: (args: Args) => {
      products('product');
      const p = store.products.get(idOf(args.id, 'Product') ?? -1);
      return p ? productView(ctx, p) : null;
    },
    productByHandle: (args: Args) => {
      products('productByHandle');
      const p = store.productByHandle(String(args.handle));
      return p ? productView(ctx, p) : null;
    },
    productByIdentifier: (args: Args) => {
      products('productByIdentifier');
      const identifier = (args.identifier ?? {}) as Args;
      let p: ProductRec | undefined;
      if (identifier.id) p = store.products.get(idOf(identifier.id, 'Product') ?? -1);
      else if (typeof identifier.handle === 'string') p = store.productByHandle(identifier.handle);
      else if (identifier.customId) {
        const id = customIdLookup(store, 'PRODUCT', identifier.customId as Args);
        p = id === undefined ? undefined : store.products.get(id);
      }
      return p ? productView(ctx, p) : null;
    },
    productsCount: (args: Args) => {
      products('productsCount');
      return countView(searchProducts(ctx, args.query).length, args);
    },
    productVendors: (args: Args) => {
      products('productVendors');
      return connection(
        ctx,
        store.productVendors(),
        args,
        vendorKey,
        (vendor) => vendor,
        MAX_VENDORS_PAGE,
      );
    },
    productVariants: (args: Args) => {
      products('productVariants');
      const node = parseSearchQuery(typeof args.query === 'string' ? args.query : null);
      const all = [...store.products.values()].flatMap((p) => p.variants.map((v) => ({ p, v })));
      const matching = all.filter(({ p, v }) =>
        matchesSearch(
          node,
          (field) => {
            if (field === 'product_id') return [p.id];
            if (field === 'sku') return [v.sku];
            if (field === 'id') return [v.id];
            if (field === 'barcode') return [v.barcode];
            return undefined;
          },
          [p.title, v.sku ?? ''],
        ),
      );
      return connection(
        ctx,
        matching,
        args,
        ({ v }) => [v.id],
        ({ p, v }) => variantView(ctx, p, v),
      );
    },
    productVariant: (args: Args) => {
      products('productVariant');
      const found = store.findVariant(idOf(args.id, 'ProductVariant') ?? -1);
      return found ? variantView(ctx, found.product, found.variant) : null;
    },

    collections: (args: Args) => {
      products('collections');
      const node = parseSearchQuery(typeof args.query === 'string' ? args.query : null);
      const key = sortKeyOf(collectionSortKeys, args, 'ID');
      const matching = [...store.collections.values()].filter((c) =>
        matchesSearch(node, collectionSearchValues(c), [c.title, c.handle]),
      );
      return connection(
        ctx,
        matching,
        args,
        (c) => [key(c), c.id],
        (c) => collectionView(ctx, c),
      );
    },
    collection: (args: Args) => {
      products('collection');
      const c = store.collections.get(idOf(args.id, 'Collection') ?? -1);
      return c ? collectionView(ctx, c) : null;
    },
    collectionByHandle: (args: Args) => {
      products('collectionByHandle');
      const c = store.collectionByHandle(String(args.handle));
      return c ? collectionView(ctx, c) : null;
    },
    collectionByIdentifier: (args: Args) => {
      products('collectionByIdentifier');
      const identifier = (args.identifier ?? {}) as Args;
      let id: number | undefined;
      if (identifier.id) id = idOf(identifier.id, 'Collection');
      else if (typeof identifier.handle === 'string')
        id = store.collectionByHandle(identifier.handle)?.id;
      else if (identifier.customId)
        id = customIdLookup(store, 'COLLECTION', identifier.customId as Args);
      const c = id === undefined ? undefined : store.collections.get(id);
      return c ? collectionView(ctx, c) : null;
    },
    collectionsCount: (args: Args) => {
      products('collectionsCount');
      const node = parseSearchQuery(typeof args.query === 'string' ? args.query : null);
      const n = [...store.collections.values()].filter((c) =>
        matchesSearch(node, collectionSearchValues(c), [c.title, c.handle]),
      ).length;
      return countView(n, args);
    },

    customers: (args: Args) => {
      customers('customers');
      const node = parseSearchQuery(typeof args.query === 'string' ? args.query : null);
      const key = sortKeyOf(customerSortKeys, args, 'ID');
      const matching = [...store.customers.values()].filter((c) =>
        matchesSearch(node, customerSearchValues(c), [
          c.firstName ?? '',
          c.lastName ?? '',
          c.email ?? '',
        ]),
      );
      return connection(
        ctx,
        matching,
        args,
        (c) => [key(c), c.id],
        (c) => customerView(ctx, c),
      );
    },
    customer: (args: Args) => {
      customers('customer');
      const c = store.customers.get(idOf(args.id, 'Customer') ?? -1);
      return c ? customerView(ctx, c) : null;
    },
    customerByIdentifier: (args: Args) => {
      customers('customerByIdentifier');
      const identifier = (args.identifier ?? {}) as Args;
      let id: number | undefined;
      if (identifier.id) id = idOf(identifier.id, 'Customer');
      else if (typeof identifier.emailAddress === 'string')
        id = store.customerByEmail(identifier.emailAddress)?.id;
      else if (typeof identifier.phoneNumber === 'string')
        id = store.customerByPhone(identifier.phoneNumber)?.id;
      else if (identifier.customId)
        id = customIdLookup(store, 'CUSTOMER', identifier.customId as Args);
      const c = id === undefined ? undefined : store.customers.get(id);
      return c ? customerView(ctx, c) : null;
    },
    customersCount: (args: Args) => {
      customers('customersCount');
      const node = parseSearchQuery(typeof args.query === 'string' ? args.query : null);
      const n = [...store.customers.values()].filter((c) =>
        matchesSearch(node, customerSearchValues(c), [
          c.firstName ?? '',
          c.lastName ?? '',
          c.email ?? '',
        ]),
      ).length;
      return countView(n, args);
    },

    codeDiscountNodes: (args: Args) => {
      discounts('codeDiscountNodes');
      const key = sortKeyOf(discountSortKeys, args, 'ID');
      return connection(
        ctx,
        searchDiscounts(ctx, args.query),
        args,
        (d) => [key(d), d.id],
        (d) => codeDiscountNodeView(ctx, d),
      );
    },
    codeDiscountNode: (args: Args) => {
      discounts('codeDiscountNode');
      const d = store.discounts.get(idOf(args.id, 'DiscountCodeNode') ?? -1);
      return d ? codeDiscountNodeView(ctx, d) : null;
    },
    codeDiscountNodeByCode: (args: Args) => {
      discounts('codeDiscountNodeByCode');
      const d = store.discountByCode(String(args.code));
      return d ? codeDiscountNodeView(ctx, d) : null;
    },
    // Code discounts only: automatic discounts are not kept by this emulator.
    discountNodes: (args: Args) => {
      discounts('discountNodes');
      const key = sortKeyOf(discountSortKeys, args, 'ID');
      return connection(
        ctx,
        searchDiscounts(ctx, args.query),
        args,
        (d) => [key(d), d.id],
        (d) => discountNodeView(ctx, d),
      );
    },
    discountNode: (args: Args) => {
      discounts('discountNode');
      const d = store.discounts.get(idOf(args.id, 'DiscountCodeNode') ?? -1);
      return d ? discountNodeView(ctx, d) : null;
    },
    discountNodesCount: (args: Args) => {
      discounts('discountNodesCount');
      return countView(searchDiscounts(ctx, args.query).length, args);
    },
    discountCodesCount: (args: Args) => {
      discounts('discountCodesCount');
      return countView(
        searchDiscounts(ctx, args.query).reduce((n, d) => n + d.codes.length, 0),
        args,
      );
    },

    orders: (args: Args) => {
      orders('orders');
      const node = parseSearchQuery(typeof args.query === 'string' ? args.query : null);
      const key = sortKeyOf(orderSortKeys, args, 'PROCESSED_AT');
      const matching = visibleOrders(ctx).filter((o) =>
        matchesSearch(node, orderSearchValues(o), [o.name, o.email ?? '']),
      );
      return connection(
        ctx,
        matching,
        args,
        (o) => [key(o), o.id],
        (o) => orderView(ctx, o),
      );
    },
    order: (args: Args) => {
      orders('order');
      const o = store.orders.get(idOf(args.id, 'Order') ?? -1);
      return o && visibleOrders(ctx).includes(o) ? orderView(ctx, o) : null;
    },
    orderByIdentifier: (args: Args) => {
      orders('orderByIdentifier');
      const identifier = (args.identifier ?? {}) as Args;
      let id: number | undefined;
      if (identifier.id) id = idOf(identifier.id, 'Order');
      else if (identifier.customId)
        id = customIdLookup(store, 'ORDER', identifier.customId as Args);
      const o = id === undefined ? undefined : store.orders.get(id);
      return o && visibleOrders(ctx).includes(o) ? orderView(ctx, o) : null;
    },
    refund: (args: Args) => {
      orders('refund');
      const found = refundOf(ctx, idOf(args.id, 'Refund') ?? -1);
      return found ? refundView(ctx, found.order, found.refund) : null;
    },
    ordersCount: (args: Args) => {
      orders('ordersCount');
      const node = parseSearchQuery(typeof args.query === 'string' ? args.query : null);
      const n = visibleOrders(ctx).filter((o) =>
        matchesSearch(node, orderSearchValues(o), [o.name, o.email ?? '']),
      ).length;
      return countView(n, args);
    },

    node: (args: Args) => nodeView(ctx, args.id),
    nodes: (args: Args) => (Array.isArray(args.ids) ? args.ids.map((id) => nodeView(ctx, id)) : []),

    metafieldDefinitions: (args: Args) => {
      const matching = store.metafieldDefinitions.filter(
        (d) =>
          d.ownerType === args.ownerType &&
          (typeof args.namespace !== 'string' || d.namespace === args.namespace) &&
          (typeof args.key !== 'string' || d.key === args.key),
      );
      return connection(
        ctx,
        matching,
        args,
        (d) => [d.id],
        (d) => metafieldDefinitionView(ctx, d),
      );
    },

    bulkOperation: (args: Args) => {
      const b = store.bulkOperations.get(idOf(args.id, 'BulkOperation') ?? -1);
      return b ? bulkOperationView(ctx, b) : null;
    },
    currentBulkOperation: (args: Args) => {
      const type = args.type ?? 'QUERY';
      const latest = [...store.bulkOperations.values()].filter((b) => b.type === type).pop();
      return latest ? bulkOperationView(ctx, latest) : null;
    },
    bulkOperations: (args: Args) =>
      connection(
        ctx,
        [...store.bulkOperations.values()],
        args,
        (b) => [b.createdAt, b.id],
        (b) => bulkOperationView(ctx, b),
      ),

    urlRedirects: (args: Args) => {
      const node = parseSearchQuery(typeof args.query === 'string' ? args.query : null);
      const matching = store.urlRedirects.filter((r) =>
        matchesSearch(
          node,
          (field) => (field === 'path' ? [r.path] : field === 'target' ? [r.target] : undefined),
          [r.path, r.target],
        ),
      );
      return connection(
        ctx,
        matching,
        args,
        (r) => [r.id],
        (r) => redirectView(r),
      );
    },
    urlRedirect: (args: Args) => {
      const r = store.urlRedirects.find((x) => gid('UrlRedirect', x.id) === args.id);
      return r ? redirectView(r) : null;
    },
    job: (args: Args) =>
      parseGid(args.id)?.type === 'Job' ? { id: args.id, done: true, query: null } : null,
  };
}
