import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  GRAPHQL_PATH,
  startShopifyEmulator,
  type ShopifyEmulator,
  type ShopifyEmulatorOptions,
} from './shopify-emulator.ts';

interface GraphqlAnswer {
  data?: Record<string, any> | null; // eslint-disable-line @typescript-eslint/no-explicit-any -- answers are navigated freely in assertions
  errors?: { message: string; extensions?: Record<string, unknown> }[];
}

const emulators: ShopifyEmulator[] = [];
afterAll(async () => {
  await Promise.all(emulators.map((e) => e.close()));
});

async function start(options: ShopifyEmulatorOptions = {}): Promise<ShopifyEmulator> {
  const emulator = await startShopifyEmulator({ plan: 'plus', bulkDelayMs: 0, ...options });
  emulators.push(emulator);
  return emulator;
}

async function gql(
  emulator: ShopifyEmulator,
  query: string,
  variables: Record<string, unknown> = {},
  token?: string,
): Promise<GraphqlAnswer> {
  const response = await fetch(`${emulator.url}${GRAPHQL_PATH}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-shopify-access-token': token ?? emulator.accessToken,
    },
    body: JSON.stringify({ query, variables }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as GraphqlAnswer;
}

const small = { seed: 3, products: 4, customers: 1, orders: 1 };
const clock = () => Date.parse('2026-10-15T12:00:00Z');

describe('pages, blogs and articles', () => {
  let emulator: ShopifyEmulator;
  beforeAll(async () => {
    emulator = await start({ seed: small, clock });
  });

  it('seeds the sample pages and the posts into one blog, News, and counts them', async () => {
    expect(emulator.countStored('pages')).toBe(5);
    expect(emulator.countStored('posts')).toBe(4);
    const answer = await gql(
      emulator,
      `{ pagesCount { count precision } blogsCount { count }
         pages(first: 10) { nodes { title handle isPublished publishedAt
           seo: metafield(namespace: "global", key: "title_tag") { value } } }
         blogs(first: 5) { nodes { title handle articlesCount { count } } }
         articles(first: 10, query: "handle:caring-for-your-linen") { nodes { title summary tags
           author { name } image { url altText } blog { title } } } }`,
    );
    expect(answer.errors).toBeUndefined();
    expect(answer.data?.pagesCount).toEqual({ count: 5, precision: 'EXACT' });
    expect(answer.data?.blogsCount.count).toBe(1);
    expect(answer.data?.blogs.nodes).toEqual([
      { title: 'News', handle: 'news', articlesCount: { count: 4 } },
    ]);
    const about = answer.data?.pages.nodes.find((p: { title: string }) => p.title === 'About us');
    expect(about).toEqual({
      title: 'About us',
      handle: 'about-us',
      isPublished: true,
      publishedAt: '2024-02-01T09:00:00Z',
      seo: { value: 'About the Sample Store' },
    });
    const draft = answer.data?.pages.nodes.find(
      (p: { title: string }) => p.title === 'Spring sale',
    );
    expect(draft).toMatchObject({ isPublished: false, publishedAt: null });
    const [linen] = answer.data?.articles.nodes ?? [];
    expect(linen).toMatchObject({
      title: 'Caring for your linen',
      summary: '<p>Three rules that keep linen soft for years.</p>',
      tags: ['care', 'linen'],
      author: { name: 'Maja Lind' },
      image: { altText: 'Folded linen on a shelf' },
      blog: { title: 'News' },
    });
    expect(linen.image.url).toMatch(/\/media\/blog\/caring-for-your-linen\.png$/);
  });

  it('creates, schedules and updates a page, with its metafields', async () => {
    const created = await gql(
      emulator,
      `mutation($p: PageCreateInput!) { pageCreate(page: $p) {
         page { id handle title body isPublished publishedAt templateSuffix
           metafields(first: 5) { nodes { namespace key value } } }
         userErrors { field message code } } }`,
      {
        p: {
          title: 'Size guide',
          body: '<p>Sizes</p>',
          publishDate: '2027-01-01T00:00:00Z',
          templateSuffix: 'wide',
          metafields: [
            { namespace: 'global', key: 'title_tag', type: 'single_line_text_field', value: 'S' },
          ],
        },
      },
    );
    expect(created.data?.pageCreate.userErrors).toEqual([]);
    const page = created.data?.pageCreate.page;
    expect(page).toMatchObject({
      handle: 'size-guide',
      isPublished: false,
      publishedAt: '2027-01-01T00:00:00Z',
      templateSuffix: 'wide',
      metafields: { nodes: [{ namespace: 'global', key: 'title_tag', value: 'S' }] },
    });
    const updated = await gql(
      emulator,
      `mutation($id: ID!, $p: PageUpdateInput!) { pageUpdate(id: $id, page: $p) {
         page { title isPublished publishedAt } userErrors { field message code } } }`,
      {
        id: page.id,
        p: { title: 'Sizes', isPublished: true, publishDate: '2026-01-01T00:00:00Z' },
      },
    );
    expect(updated.data?.pageUpdate).toEqual({
      page: { title: 'Sizes', isPublished: true, publishedAt: '2026-01-01T00:00:00Z' },
      userErrors: [],
    });
  });

  it('refuses a blank title and a taken handle, and makes a derived handle unique', async () => {
    const blank = await gql(
      emulator,
      'mutation { pageCreate(page: { title: " " }) { page { id } userErrors { field message code } } }',
    );
    expect(blank.data?.pageCreate).toEqual({
      page: null,
      userErrors: [{ field: ['title'], message: "Title can't be blank", code: 'BLANK' }],
    });
    const taken = await gql(
      emulator,
      'mutation { pageCreate(page: { title: "About", handle: "about-us" }) { page { id } userErrors { field message code } } }',
    );
    expect(taken.data?.pageCreate.userErrors).toEqual([
      { field: ['handle'], message: 'Handle has already been taken', code: 'TAKEN' },
    ]);
    const derived = await gql(
      emulator,
      'mutation { pageCreate(page: { title: "About us" }) { page { handle } userErrors { code } } }',
    );
    expect(derived.data?.pageCreate.page.handle).toBe('about-us-1');
  });

  it('creates a blog and articles in it, with image, author, tags and summary', async () => {
    const blog = await gql(
      emulator,
      'mutation { blogCreate(blog: { title: "Recipes" }) { blog { id handle } userErrors { code } } }',
    );
    const blogId = blog.data?.blogCreate.blog.id;
    expect(blog.data?.blogCreate.blog.handle).toBe('recipes');
    const create = (article: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
      gql(
        emulator,
        `mutation($a: ArticleCreateInput!, $b: ArticleBlogInput) { articleCreate(article: $a, blog: $b) {
           article { id handle title summary tags author { name } image { url altText }
             blog { title } isPublished }
           userErrors { field message code } } }`,
        { a: article, ...extra },
      );
    const unreachable = await create({
      blogId,
      title: 'Broken',
      author: { name: 'Ann' },
      image: { url: 'http://images.invalid/x.png' },
    });
    expect(unreachable.data?.articleCreate).toMatchObject({
      article: null,
      userErrors: [{ field: ['image', 'url'], code: 'UPLOAD_FAILED' }],
    });
    const ok = await create({
      blogId,
      title: 'Bread',
      body: '<p>Flour</p>',
      summary: '<p>Short</p>',
      author: { name: 'Ann' },
      tags: ['b', 'a'],
      image: { url: `${emulator.url}/media/blog/caring-for-your-linen.png`, altText: 'A loaf' },
    });
    expect(ok.data?.articleCreate.userErrors).toEqual([]);
    expect(ok.data?.articleCreate.article).toMatchObject({
      handle: 'bread',
      summary: '<p>Short</p>',
      tags: ['a', 'b'],
      author: { name: 'Ann' },
      image: { altText: 'A loaf' },
      blog: { title: 'Recipes' },
      isPublished: true,
    });
    const noBlog = await create({ title: 'X', author: { name: 'Ann' } });
    expect(noBlog.data?.articleCreate.userErrors[0].code).toBe('BLOG_REFERENCE_REQUIRED');
    const noAuthor = await create({ blogId, title: 'X', author: {} });
    expect(noAuthor.data?.articleCreate.userErrors[0].code).toBe('AUTHOR_FIELD_REQUIRED');
    const taken = await create({ blogId, title: 'X', handle: 'bread', author: { name: 'A' } });
    expect(taken.data?.articleCreate.userErrors).toEqual([
      { field: ['handle'], message: 'Handle has already been taken', code: 'TAKEN' },
    ]);
    const newBlog = await create(
      { title: 'Hello', author: { name: 'A' } },
      { b: { title: 'Journal' } },
    );
    expect(newBlog.data?.articleCreate.article.blog.title).toBe('Journal');
    const updated = await gql(
      emulator,
      `mutation($id: ID!) { articleUpdate(id: $id, article: { tags: ["c"], isPublished: false }) {
         article { tags isPublished publishedAt } userErrors { code } } }`,
      { id: ok.data?.articleCreate.article.id },
    );
    expect(updated.data?.articleUpdate.article).toEqual({
      tags: ['c'],
      isPublished: false,
      publishedAt: null,
    });
  });

  it('keeps metafields set on pages and articles, and finds them by id', async () => {
    const { data } = await gql(emulator, '{ pages(first: 1) { nodes { id } } }');
    const id = data?.pages.nodes[0].id;
    const set = await gql(
      emulator,
      `mutation($m: [MetafieldsSetInput!]!) { metafieldsSet(metafields: $m) {
         metafields { key } userErrors { message } } }`,
      {
        m: [
          {
            ownerId: id,
            namespace: 'custom',
            key: 'note',
            type: 'single_line_text_field',
            value: 'x',
          },
        ],
      },
    );
    expect(set.data?.metafieldsSet.userErrors).toEqual([]);
    const read = await gql(
      emulator,
      `{ node(id: "${id}") { ... on Page { metafield(namespace: "custom", key: "note") { value } } } }`,
    );
    expect(read.data?.node.metafield.value).toBe('x');
  });

  it('needs the content scopes', async () => {
    const limited = await start({ seed: 'empty', tokens: { 'read-products': ['read_products'] } });
    const answer = await gql(limited, '{ pages(first: 1) { nodes { id } } }', {}, 'read-products');
    expect(answer.errors?.[0]?.message).toMatch(/read_content/);
    const write = await gql(
      limited,
      'mutation { pageCreate(page: { title: "A" }) { page { id } } }',
      {},
      'read-products',
    );
    expect(write.errors?.[0]?.message).toMatch(/write_content/);
  });

  it('seeds no pages or posts for a store without content', async () => {
    const bare = await start({ seed: { ...small, content: false } });
    expect(bare.countStored('pages')).toBe(0);
    expect(bare.countStored('posts')).toBe(0);
  });
});
