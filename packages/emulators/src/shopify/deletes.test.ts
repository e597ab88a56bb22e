import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GRAPHQL_PATH, startShopifyEmulator, type ShopifyEmulator } from './shopify-emulator.ts';

interface GraphqlAnswer {
  data?: Record<string, any> | null; // eslint-disable-line @typescript-eslint/no-explicit-any -- answers are navigated freely in assertions
  errors?: { message: string; extensions?: Record<string, unknown> }[];
}

let emulator: ShopifyEmulator;
beforeAll(async () => {
  emulator = await startShopifyEmulator({
    plan: 'plus',
    bulkDelayMs: 0,
    seed: { seed: 3, products: 4, customers: 2, orders: 2 },
  });
});
afterAll(() => emulator.close());

async function gql(query: string, variables: Record<string, unknown> = {}): Promise<GraphqlAnswer> {
  const response = await fetch(`${emulator.url}${GRAPHQL_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-shopify-access-token': emulator.accessToken },
    body: JSON.stringify({ query, variables }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as GraphqlAnswer;
}

const ids = async (field: string, extra = '') =>
  ((await gql(`{ ${field}(first: 50) { nodes { id ${extra} } } }`)).data?.[field].nodes ??
    []) as Record<string, any>[]; // eslint-disable-line @typescript-eslint/no-explicit-any -- test answers

describe('delete mutations', () => {
  it('productDelete takes the variants and media with the product and leaves its collections', async () => {
    const [product] = await ids(
      'products',
      'media(first: 5) { nodes { id } } collections(first: 5) { nodes { id } }',
    );
    const before = emulator.countStored('products');
    const answer = await gql(
      `mutation($id: ID!) { productDelete(input: { id: $id }) { deletedProductId userErrors { field message } } }`,
      { id: product!.id },
    );
    expect(answer.data?.productDelete).toEqual({ deletedProductId: product!.id, userErrors: [] });
    expect(emulator.countStored('products')).toBe(before - 1);
    const again = await gql(
      `mutation($id: ID!) { productDelete(input: { id: $id }) { deletedProductId userErrors { field message } } }`,
      { id: product!.id },
    );
    expect(again.data?.productDelete).toEqual({
      deletedProductId: null,
      userErrors: [{ field: ['id'], message: 'Product does not exist' }],
    });
    const collections = await ids('collections', 'products(first: 50) { nodes { id } }');
    for (const c of collections)
      expect(c.products.nodes.map((p: { id: string }) => p.id)).not.toContain(product!.id);
  });

  it('customerDelete refuses a customer with orders, and deletes one once the orders are gone', async () => {
    const orders = await ids('orders', 'customer { id }');
    const order = orders.find((o) => o.customer);
    const customerId = order!.customer.id as string;
    const refused = await gql(
      `mutation($id: ID!) { customerDelete(input: { id: $id }) { deletedCustomerId userErrors { field message } } }`,
      { id: customerId },
    );
    expect(refused.data?.customerDelete.deletedCustomerId).toBeNull();
    expect(refused.data?.customerDelete.userErrors[0].message).toMatch(/associated orders/);
    // An order the shop's checkout took is refused; one cancelled may go.
    const orderDelete = `mutation($id: ID!) { orderDelete(orderId: $id) { deletedId userErrors { code field message } } }`;
    const open = await gql(orderDelete, { id: order!.id });
    expect(open.data?.orderDelete.userErrors[0].code).toBe('INVALID');
    await gql(
      `mutation($id: ID!) { orderCancel(orderId: $id, reason: OTHER, refund: false, restock: false) { userErrors { message } } }`,
      { id: order!.id },
    );
    for (const o of orders.filter((x) => x.customer?.id === customerId)) {
      await gql(
        `mutation($id: ID!) { orderCancel(orderId: $id, reason: OTHER, refund: false, restock: false) { userErrors { message } } }`,
        { id: o.id },
      );
      expect((await gql(orderDelete, { id: o.id })).data?.orderDelete).toEqual({
        deletedId: o.id,
        userErrors: [],
      });
    }
    expect((await gql(orderDelete, { id: order!.id })).data?.orderDelete.userErrors[0].code).toBe(
      'NOT_FOUND',
    );
    const deleted = await gql(
      `mutation($id: ID!) { customerDelete(input: { id: $id }) { deletedCustomerId userErrors { field message } } }`,
      { id: customerId },
    );
    expect(deleted.data?.customerDelete).toEqual({ deletedCustomerId: customerId, userErrors: [] });
  });

  it('deletes collections, discounts, pages and articles, and a blog with its articles', async () => {
    const [collection] = await ids('collections');
    const [discount] = await ids('codeDiscountNodes');
    const [page] = await ids('pages');
    const [article] = await ids('articles');
    const answer = await gql(
      `mutation($c: ID!, $d: ID!, $p: ID!, $a: ID!) {
        c: collectionDelete(input: { id: $c }) { deletedCollectionId userErrors { field message } }
        d: discountCodeDelete(id: $d) { deletedCodeDiscountId userErrors { field message code } }
        p: pageDelete(id: $p) { deletedPageId userErrors { code field message } }
        a: articleDelete(id: $a) { deletedArticleId userErrors { code field message } }
      }`,
      { c: collection!.id, d: discount!.id, p: page!.id, a: article!.id },
    );
    expect(answer.errors).toBeUndefined();
    expect(answer.data).toEqual({
      c: { deletedCollectionId: collection!.id, userErrors: [] },
      d: { deletedCodeDiscountId: discount!.id, userErrors: [] },
      p: { deletedPageId: page!.id, userErrors: [] },
      a: { deletedArticleId: article!.id, userErrors: [] },
    });
    const missing = await gql(
      `mutation($p: ID!) { pageDelete(id: $p) { deletedPageId userErrors { code field message } } }`,
      { p: page!.id },
    );
    expect(missing.data?.pageDelete.userErrors[0].code).toBe('NOT_FOUND');
    const [blog] = await ids('blogs');
    const gone = await gql(
      `mutation($id: ID!) { blogDelete(id: $id) { deletedBlogId userErrors { code message } } }`,
      { id: blog!.id },
    );
    expect(gone.data?.blogDelete).toEqual({ deletedBlogId: blog!.id, userErrors: [] });
    expect(emulator.countStored('posts')).toBe(0);
  });

  it('fileDelete removes a file wherever it is shown, and refuses an id it does not have', async () => {
    const products = await ids('products', 'media(first: 5) { nodes { id } }');
    const withMedia = products.find((p) => p.media.nodes.length);
    const fileId = withMedia!.media.nodes[0].id as string;
    const fileDelete = `mutation($ids: [ID!]!) { fileDelete(fileIds: $ids) { deletedFileIds userErrors { code field message } } }`;
    const refused = await gql(fileDelete, { ids: [fileId, 'gid://shopify/MediaImage/987654321'] });
    expect(refused.data?.fileDelete.deletedFileIds).toBeNull();
    expect(refused.data?.fileDelete.userErrors[0]).toMatchObject({
      code: 'FILE_DOES_NOT_EXIST',
      field: ['fileIds', '1'],
    });
    const answer = await gql(fileDelete, { ids: [fileId] });
    expect(answer.data?.fileDelete).toEqual({ deletedFileIds: [fileId], userErrors: [] });
    const after = await ids('products', 'media(first: 5) { nodes { id } }');
    expect(after.flatMap((p) => p.media.nodes.map((m: { id: string }) => m.id))).not.toContain(
      fileId,
    );
  });
});
