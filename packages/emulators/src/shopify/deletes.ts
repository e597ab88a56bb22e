import { parseGid, type ShopStore } from './store.ts';

/**
 * The delete mutations of the records and files a migration writes (2026-10 schema): productDelete,
 * collectionDelete, customerDelete, orderDelete, discountCodeDelete, pageDelete, articleDelete,
 * blogDelete and fileDelete. Each answers its own payload type; a mutation with an error changes
 * nothing. Shopify's rules:
 *
 * - productDelete takes the product's variants, options and the media no other product shows, and
 *   takes the product out of its collections; orders keep their lines as they were;
 * - customerDelete refuses a customer who has orders ("You can only delete customers who haven't
 *   placed any orders");
 * - orderDelete deletes only "specific order types": here an order an app created (orderCreate),
 *   or one cancelled or closed (archived); an order the shop's own checkout took is refused with
 *   INVALID, to be cancelled or archived instead;
 * - blogDelete takes the blog's articles with it;
 * - fileDelete deletes media files wherever products show them (and the variants showing them no
 *   longer do); an id the shop has no file of is FILE_DOES_NOT_EXIST and nothing is deleted.
 */

type Args = Record<string, unknown>;
type Input = Record<string, unknown>;

interface DeleteContext {
  store: ShopStore;
}

const idOf = (value: unknown, type: string): number | undefined => {
  const parsed = parseGid(value);
  return parsed?.type === type ? parsed.id : undefined;
};

const userError = (field: string[], message: string) => ({ field, message });

function productDelete({ store }: DeleteContext, args: Args) {
  const id = idOf((args.input as Input | undefined)?.id, 'Product');
  const product = id === undefined ? undefined : store.products.get(id);
  if (!product)
    return {
      deletedProductId: null,
      productDeleteOperation: null,
      shop: {},
      userErrors: [userError(['id'], 'Product does not exist')],
    };
  store.products.delete(product.id);
  for (const c of store.collections.values())
    c.productIds = c.productIds.filter((p) => p !== product.id);
  // Media other products still show stay in the library; the rest goes with the product.
  for (const m of product.media)
    if (m.path && !pathInUse(store, m.path)) store.files.delete(m.path);
  return {
    deletedProductId: `gid://shopify/Product/${product.id}`,
    productDeleteOperation: null,
    shop: {},
    userErrors: [],
  };
}

function pathInUse(store: ShopStore, path: string): boolean {
  for (const p of store.products.values()) if (p.media.some((m) => m.path === path)) return true;
  for (const c of store.collections.values()) if (c.image?.path === path) return true;
  return false;
}

function collectionDelete({ store }: DeleteContext, args: Args) {
  const id = idOf((args.input as Input | undefined)?.id, 'Collection');
  if (id === undefined || !store.collections.delete(id))
    return {
      deletedCollectionId: null,
      shop: {},
      userErrors: [userError(['id'], 'Collection does not exist')],
    };
  return { deletedCollectionId: `gid://shopify/Collection/${id}`, shop: {}, userErrors: [] };
}

function customerDelete({ store }: DeleteContext, args: Args) {
  const id = idOf((args.input as Input | undefined)?.id, 'Customer');
  const customer = id === undefined ? undefined : store.customers.get(id);
  if (!customer)
    return {
      deletedCustomerId: null,
      shop: {},
      userErrors: [userError(['id'], "Customer can't be found")],
    };
  if ([...store.orders.values()].some((o) => o.customerId === customer.id))
    return {
      deletedCustomerId: null,
      shop: {},
      userErrors: [
        userError(['id'], 'Customer can’t be deleted because they have associated orders'),
      ],
    };
  store.customers.delete(customer.id);
  return { deletedCustomerId: `gid://shopify/Customer/${customer.id}`, shop: {}, userErrors: [] };
}

function orderDelete({ store }: DeleteContext, args: Args) {
  const id = idOf(args.orderId, 'Order');
  const order = id === undefined ? undefined : store.orders.get(id);
  if (!order)
    return {
      deletedId: null,
      userErrors: [{ code: 'NOT_FOUND', field: ['orderId'], message: 'Order does not exist' }],
    };
  if (!order.createdByApp && !order.cancelledAt && !order.closedAt)
    return {
      deletedId: null,
      userErrors: [
        {
          code: 'INVALID',
          field: ['orderId'],
          message: 'This order can’t be deleted. Cancel or archive it instead.',
        },
      ],
    };
  store.orders.delete(order.id);
  return { deletedId: `gid://shopify/Order/${order.id}`, userErrors: [] };
}

function discountCodeDelete({ store }: DeleteContext, args: Args) {
  const id = idOf(args.id, 'DiscountCodeNode');
  if (id === undefined || !store.discounts.delete(id))
    return {
      deletedCodeDiscountId: null,
      userErrors: [
        { field: ['id'], message: 'Discount does not exist', code: 'INVALID', extraInfo: null },
      ],
    };
  return { deletedCodeDiscountId: `gid://shopify/DiscountCodeNode/${id}`, userErrors: [] };
}

function contentDelete(
  { store }: DeleteContext,
  args: Args,
  type: 'Page' | 'Article' | 'Blog',
): Record<string, unknown> {
  const id = idOf(args.id, type);
  const field = `deleted${type}Id`;
  const map = type === 'Page' ? store.pages : type === 'Article' ? store.articles : store.blogs;
  if (id === undefined || !map.has(id))
    return {
      [field]: null,
      userErrors: [{ code: 'NOT_FOUND', field: ['id'], message: `${type} does not exist` }],
    };
  map.delete(id);
  if (type === 'Blog')
    for (const a of [...store.articles.values()]) if (a.blogId === id) store.articles.delete(a.id);
  return { [field]: `gid://shopify/${type}/${id}`, userErrors: [] };
}

function fileDelete({ store }: DeleteContext, args: Args) {
  const ids = Array.isArray(args.fileIds) ? args.fileIds : [];
  const wanted: number[] = [];
  for (const [i, value] of ids.entries()) {
    const parsed = parseGid(value);
    const id =
      parsed && ['MediaImage', 'GenericFile', 'Video'].includes(parsed.type)
        ? parsed.id
        : undefined;
    if (id === undefined || !store.mediaById(id))
      return {
        deletedFileIds: null,
        userErrors: [
          {
            code: 'FILE_DOES_NOT_EXIST',
            field: ['fileIds', String(i)],
            message: `File id ${String(value)} does not exist.`,
          },
        ],
      };
    wanted.push(id);
  }
  for (const product of store.products.values()) {
    const gone = product.media.filter((m) => wanted.includes(m.id));
    if (!gone.length) continue;
    product.media = product.media.filter((m) => !wanted.includes(m.id));
    for (const v of product.variants)
      if (v.mediaId !== null && wanted.includes(v.mediaId)) v.mediaId = null;
    for (const m of gone) if (m.path && !pathInUse(store, m.path)) store.files.delete(m.path);
  }
  return { deletedFileIds: wanted.map((id) => `gid://shopify/MediaImage/${id}`), userErrors: [] };
}

export function deleteMutations(ctx: DeleteContext): Record<string, (args: Args) => unknown> {
  return {
    productDelete: (args) => productDelete(ctx, args),
    collectionDelete: (args) => collectionDelete(ctx, args),
    customerDelete: (args) => customerDelete(ctx, args),
    orderDelete: (args) => orderDelete(ctx, args),
    discountCodeDelete: (args) => discountCodeDelete(ctx, args),
    pageDelete: (args) => contentDelete(ctx, args, 'Page'),
    articleDelete: (args) => contentDelete(ctx, args, 'Article'),
    blogDelete: (args) => contentDelete(ctx, args, 'Blog'),
    fileDelete: (args) => fileDelete(ctx, args),
  };
}

/** The scope each delete needs (the fields' requiredAccess in 2026-10). */
export const deleteMutationScopes: Record<string, string> = {
  productDelete: 'write_products',
  collectionDelete: 'write_products',
  customerDelete: 'write_customers',
  orderDelete: 'write_orders',
  discountCodeDelete: 'write_discounts',
  pageDelete: 'write_content',
  articleDelete: 'write_content',
  blogDelete: 'write_content',
  fileDelete: 'write_files',
};
