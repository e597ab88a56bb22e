import { z } from 'zod';
import type { EntityType } from '@replatform/canonical/entities';
import type { AssetRecord, RemoveOutcome } from '../kit/contract.ts';
import { ConnectorError } from '../kit/errors.ts';
import { productRatingDelete, productReviewsSet, productReviewsState } from './documents.ts';
import type { Operation, ShopifyGraphqlClient } from './graphql-client.ts';
import {
  parseReviewList,
  RATING_COUNT_KEY,
  RATING_KEY,
  RATING_NAMESPACE,
  ratingOf,
  ratingValue,
  REVIEWS_KEY,
  REVIEWS_NAMESPACE,
  sameRating,
  serializeReviewList,
  shownRating,
} from './reviews.ts';

/**
 * Undo: deleting what a migration created, by destination id. Each record type has its own
 * delete mutation (2026-10); several are sent as aliases of one request (at most
 * DELETES_PER_REQUEST, 10 points each, well under the 1,000 a query may cost). A delete is
 * safe to repeat: one whose answer was lost and that is sent again finds nothing, which is
 * 'gone'. Reviews are entries of their product's reviews list, taken out of it.
 */

type UserErrors = { field: string[] | null; message: string; code?: string | null }[];

interface DeleteKind {
  /** What it deletes, in words. */
  what: string;
  /** The id's type in its gid (gid://shopify/<type>/<n>). */
  type: string;
  mutation: string;
  /** The argument list, with $id standing for the id variable. */
  args: string;
  /** The payload field holding the deleted id. */
  deleted: string;
  /** Whether the payload's user error type has a code. */
  coded: boolean;
  /** What the owner can do when Shopify refuses. */
  advice: string;
}

const kinds: Partial<Record<EntityType, DeleteKind>> = {
  categories: {
    what: 'collection',
    type: 'Collection',
    mutation: 'collectionDelete',
    args: 'input: { id: $id }',
    deleted: 'deletedCollectionId',
    coded: false,
    advice: 'Delete it in the Shopify admin (Products > Collections) if it is no longer wanted.',
  },
  products: {
    what: 'product',
    type: 'Product',
    mutation: 'productDelete',
    args: 'input: { id: $id }',
    deleted: 'deletedProductId',
    coded: false,
    advice: 'Delete or archive it in the Shopify admin (Products).',
  },
  customers: {
    what: 'customer',
    type: 'Customer',
    mutation: 'customerDelete',
    args: 'input: { id: $id }',
    deleted: 'deletedCustomerId',
    coded: false,
    advice:
      'Shopify deletes only customers without orders: delete or keep their orders first, then delete the customer in the Shopify admin (Customers).',
  },
  orders: {
    what: 'order',
    type: 'Order',
    mutation: 'orderDelete',
    args: 'orderId: $id',
    deleted: 'deletedId',
    coded: true,
    advice:
      'Shopify deletes only some orders: cancel or archive it in the Shopify admin (Orders) instead.',
  },
  coupons: {
    what: 'discount',
    type: 'DiscountCodeNode',
    mutation: 'discountCodeDelete',
    args: 'id: $id',
    deleted: 'deletedCodeDiscountId',
    coded: true,
    advice: 'Delete or deactivate it in the Shopify admin (Discounts).',
  },
  pages: {
    what: 'page',
    type: 'Page',
    mutation: 'pageDelete',
    args: 'id: $id',
    deleted: 'deletedPageId',
    coded: true,
    advice: 'Delete it in the Shopify admin (Online Store > Pages).',
  },
  posts: {
    what: 'blog article',
    type: 'Article',
    mutation: 'articleDelete',
    args: 'id: $id',
    deleted: 'deletedArticleId',
    coded: true,
    advice: 'Delete it in the Shopify admin (Content > Blog posts).',
  },
};

const blogKind: DeleteKind = {
  what: 'blog',
  type: 'Blog',
  mutation: 'blogDelete',
  args: 'id: $id',
  deleted: 'deletedBlogId',
  coded: true,
  advice: 'Delete it in the Shopify admin (Content > Blog posts > Manage blogs).',
};

const redirectKind: DeleteKind = {
  what: 'URL redirect',
  type: 'UrlRedirect',
  mutation: 'urlRedirectDelete',
  args: 'id: $id',
  deleted: 'deletedUrlRedirectId',
  coded: true,
  advice: 'Delete it in the Shopify admin (Online Store > Navigation > URL redirects).',
};

/** Aliased deletes in one request: 10 points each. */
export const DELETES_PER_REQUEST = 25;
/** fileDelete ids per call. */
export const FILES_PER_REQUEST = 25;

const userErrorSchema = z.object({
  field: z.array(z.string()).nullable(),
  message: z.string(),
  code: z.string().nullable().optional(),
});

const messages = (errors: UserErrors) =>
  errors
    .map((e) => (e.field?.length ? `${e.field.join('.')}: ${e.message}` : e.message))
    .join('; ');

/** A user error saying the record is not there (Shopify words it per type). */
const NOT_THERE = /does ?n[o']t exist|not found|can[’']t be found|could not be found/i;
const isNotThere = (errors: UserErrors) =>
  errors.length > 0 &&
  errors.every(
    (e) => e.code === 'NOT_FOUND' || e.code === 'FILE_DOES_NOT_EXIST' || NOT_THERE.test(e.message),
  );

const gidOf = (type: string, id: string) =>
  new RegExp(`^gid://shopify/${type}/\\d+$`).test(id) ? id : undefined;

type DeletePayload = { userErrors: UserErrors; [field: string]: unknown } | null;

function deleteOperation(
  kind: DeleteKind,
  count: number,
): Operation<Record<string, DeletePayload>> {
  const vars = Array.from({ length: count }, (_, i) => `$id${i}: ID!`).join(', ');
  const fields = Array.from(
    { length: count },
    (_, i) =>
      `d${i}: ${kind.mutation}(${kind.args.replace('$id', `$id${i}`)}) { ${kind.deleted} userErrors { field message${kind.coded ? ' code' : ''} } }`,
  ).join('\n');
  const name = `Remove${kind.type}s`;
  return {
    name,
    document: `mutation ${name}(${vars}) {\n${fields}\n}`,
    cost: () => 10 * count,
    data: z.record(
      z.string(),
      z
        .object({ userErrors: z.array(userErrorSchema) })
        .catchall(z.unknown())
        .nullable(),
    ) as z.ZodType<Record<string, DeletePayload>>,
  };
}

const fileDelete: Operation<{
  fileDelete: { deletedFileIds: string[] | null; userErrors: UserErrors } | null;
}> = {
  name: 'RemoveFiles',
  document: /* GraphQL */ `
    mutation RemoveFiles($fileIds: [ID!]!) {
      fileDelete(fileIds: $fileIds) {
        deletedFileIds
        userErrors {
          field
          message
          code
        }
      }
    }
  `,
  cost: () => 10,
  data: z.object({
    fileDelete: z
      .object({
        deletedFileIds: z.array(z.string()).nullable(),
        userErrors: z.array(userErrorSchema),
      })
      .nullable(),
  }),
};

const blogArticles: Operation<{ blog: { articlesCount: { count: number } | null } | null }> = {
  name: 'RemoveBlogState',
  document: /* GraphQL */ `
    query RemoveBlogState($id: ID!) {
      blog(id: $id) {
        articlesCount {
          count
        }
      }
    }
  `,
  cost: () => 2,
  data: z.object({
    blog: z.object({ articlesCount: z.object({ count: z.number() }).nullable() }).nullable(),
  }),
};

/** A blog recorded as a term asset: 'blog:<gid>'. */
export const BLOG_TERM = 'blog';

export class ShopifyRemover {
  readonly #client: ShopifyGraphqlClient;

  constructor(client: ShopifyGraphqlClient) {
    this.#client = client;
  }

  async remove(entity: EntityType, ids: readonly string[]): Promise<RemoveOutcome[]> {
    if (entity === 'reviews') return this.#removeReviews(ids);
    const kind = kinds[entity];
    if (!kind)
      throw new ConnectorError(
        'config',
        'remove_unsupported',
        `Shopify keeps no ${entity} records to remove.`,
      );
    return this.#deleteAll(kind, ids);
  }

  async #deleteAll(kind: DeleteKind, ids: readonly string[]): Promise<RemoveOutcome[]> {
    const outcomes = new Map<number, RemoveOutcome>();
    const asked: number[] = [];
    ids.forEach((id, i) => {
      // An id that is not one of this type's is none the shop could hold.
      if (gidOf(kind.type, id)) asked.push(i);
      else outcomes.set(i, { destinationId: id, outcome: 'gone' });
    });
    const chunks: number[][] = [];
    for (let i = 0; i < asked.length; i += DELETES_PER_REQUEST)
      chunks.push(asked.slice(i, i + DELETES_PER_REQUEST));
    await Promise.all(
      chunks.map(async (chunk) => {
        const variables = Object.fromEntries(chunk.map((index, i) => [`id${i}`, ids[index]]));
        const answer = await this.#client.request(deleteOperation(kind, chunk.length), variables);
        chunk.forEach((index, i) => {
          const id = ids[index]!;
          const payload = answer[`d${i}`];
          outcomes.set(index, this.#outcomeOf(kind, id, payload));
        });
      }),
    );
    return ids.map((id, i) => outcomes.get(i) ?? { destinationId: id, outcome: 'gone' });
  }

  #outcomeOf(kind: DeleteKind, id: string, payload: DeletePayload | undefined): RemoveOutcome {
    if (payload?.[kind.deleted]) return { destinationId: id, outcome: 'removed' };
    const errors = payload?.userErrors ?? [];
    if (!payload || errors.length === 0 || isNotThere(errors))
      return { destinationId: id, outcome: 'gone' };
    return {
      destinationId: id,
      outcome: 'failed',
      reason: `Shopify refused to delete the ${kind.what}: ${messages(errors)}. ${kind.advice}`,
    };
  }

  // ---------------------------------------------------------------- reviews

  /**
   * A review's id is '<product number>:<entry key>'. Each product's list is read with its digest,
   * the entries taken out, and the list set back with compareDigest (read again if it changed
   * meanwhile); an emptied list is deleted. The stars follow while they are the list's own.
   */
  async #removeReviews(ids: readonly string[]): Promise<RemoveOutcome[]> {
    const byProduct = new Map<string, Set<string>>();
    for (const id of ids) {
      const match = /^(\d+):(.+)$/.exec(id);
      if (!match) continue;
      const keys = byProduct.get(match[1]!) ?? new Set<string>();
      keys.add(match[2]!);
      byProduct.set(match[1]!, keys);
    }
    const results = new Map<string, RemoveOutcome>();
    await Promise.all(
      [...byProduct].map(async ([number, keys]) => {
        for (const o of await this.#removeProductReviews(number, keys))
          results.set(o.destinationId, o);
      }),
    );
    return ids.map((id) => results.get(id) ?? { destinationId: id, outcome: 'gone' });
  }

  async #removeProductReviews(number: string, keys: Set<string>): Promise<RemoveOutcome[]> {
    const productId = `gid://shopify/Product/${number}`;
    const all = (outcome: RemoveOutcome['outcome'], reason?: string) =>
      [...keys].map((key) => ({
        destinationId: `${number}:${key}`,
        outcome,
        ...(reason ? { reason } : {}),
      }));
    for (let round = 1; ; round++) {
      const state = (await this.#client.request(productReviewsState, { id: productId })).product;
      if (!state) return all('gone');
      const list = parseReviewList(state.reviews);
      if ('foreign' in list)
        return all(
          'failed',
          `The product's metafield ${REVIEWS_NAMESPACE}.${REVIEWS_KEY} now holds data Replatform did not write (${list.foreign}): it was left as it is. Remove the review in the app that keeps the product's reviews.`,
        );
      const present = new Set(list.entries.map((e) => e.key));
      const kept = list.entries.filter((e) => !keys.has(e.key));
      const outcomes = [...keys].map((key): RemoveOutcome => ({
        destinationId: `${number}:${key}`,
        outcome: present.has(key) ? 'removed' : 'gone',
      }));
      if (kept.length === list.entries.length) return outcomes;
      const shown = shownRating(state.rating, state.ratingCount);
      const ownStars = shown === null || sameRating(shown, ratingOf(list.entries));
      const stars = ratingOf(kept);
      const starsChange = ownStars && !sameRating(shown, stars);
      const deletions = [];
      if (starsChange && !stars)
        deletions.push(
          ...[RATING_KEY, RATING_COUNT_KEY].map((key) => ({
            ownerId: productId,
            namespace: RATING_NAMESPACE,
            key,
          })),
        );
      if (kept.length === 0 && state.reviews)
        deletions.push({ ownerId: productId, namespace: REVIEWS_NAMESPACE, key: REVIEWS_KEY });
      if (deletions.length) {
        const answer = (await this.#client.request(productRatingDelete, { metafields: deletions }))
          .metafieldsDelete;
        if (answer?.userErrors.length)
          return all(
            'failed',
            `Shopify refused to change the product's reviews: ${messages(answer.userErrors)}.`,
          );
      }
      const sets: Record<string, unknown>[] = [];
      if (kept.length)
        sets.push({
          ownerId: productId,
          namespace: REVIEWS_NAMESPACE,
          key: REVIEWS_KEY,
          type: 'json',
          value: serializeReviewList(kept),
          compareDigest: state.reviews?.compareDigest ?? null,
        });
      if (starsChange && stars)
        sets.push(
          {
            ownerId: productId,
            namespace: RATING_NAMESPACE,
            key: RATING_KEY,
            type: 'rating',
            value: ratingValue(stars),
          },
          {
            ownerId: productId,
            namespace: RATING_NAMESPACE,
            key: RATING_COUNT_KEY,
            type: 'number_integer',
            value: String(stars.count),
          },
        );
      if (!sets.length) return outcomes;
      const answer = (await this.#client.request(productReviewsSet, { metafields: sets }))
        .metafieldsSet;
      const errors = answer?.userErrors ?? [];
      if (errors.some((e) => e.code === 'STALE_OBJECT' || e.code === 'INVALID_COMPARE_DIGEST')) {
        if (round >= 5)
          throw new ConnectorError(
            'transient',
            'reviews_contended',
            `The reviews of product ${productId} kept changing while they were removed.`,
          );
        continue;
      }
      if (errors.length)
        return all(
          'failed',
          `Shopify refused to change the product's reviews: ${messages(errors)}.`,
        );
      return outcomes;
    }
  }

  // ---------------------------------------------------------------- assets

  async removeAssets(assets: readonly AssetRecord[]): Promise<RemoveOutcome[]> {
    const outcomes = new Map<number, RemoveOutcome>();
    const images: number[] = [];
    const blogs: number[] = [];
    const redirects: number[] = [];
    assets.forEach((a, i) => {
      if (a.kind === 'image' && gidOf('MediaImage', a.destinationId)) images.push(i);
      else if (a.kind === 'redirect' && gidOf('UrlRedirect', a.destinationId)) redirects.push(i);
      else if (a.kind === 'term' && a.destinationId.startsWith(`${BLOG_TERM}:`)) blogs.push(i);
      else outcomes.set(i, { destinationId: a.destinationId, outcome: 'gone' });
    });
    for (let i = 0; i < images.length; i += FILES_PER_REQUEST) {
      const chunk = images.slice(i, i + FILES_PER_REQUEST);
      const results = await this.#deleteFiles(chunk.map((index) => assets[index]!.destinationId));
      chunk.forEach((index, k) => outcomes.set(index, results[k]!));
    }
    for (const index of blogs) outcomes.set(index, await this.#deleteBlog(assets[index]!));
    if (redirects.length) {
      const results = await this.#deleteAll(
        redirectKind,
        redirects.map((index) => assets[index]!.destinationId),
      );
      redirects.forEach((index, k) => outcomes.set(index, results[k]!));
    }
    return assets.map(
      (a, i) => outcomes.get(i) ?? { destinationId: a.destinationId, outcome: 'gone' },
    );
  }

  /**
   * fileDelete is all or nothing: an id the shop no longer has (most often because its product
   * took it along) fails the call, so it is set aside as gone and the rest sent again.
   */
  async #deleteFiles(ids: string[]): Promise<RemoveOutcome[]> {
    const outcomes = new Map<string, RemoveOutcome>();
    let left = [...ids];
    while (left.length) {
      let answer;
      try {
        answer = (await this.#client.request(fileDelete, { fileIds: left })).fileDelete;
      } catch (error) {
        if (error instanceof ConnectorError && error.code === 'missing_scope') {
          for (const id of left)
            outcomes.set(id, {
              destinationId: id,
              outcome: 'failed',
              reason:
                'The image file was not deleted: the app lacks the write_files access scope. Grant it to the app, or delete the file in the Shopify admin (Content > Files).',
            });
          break;
        }
        throw error;
      }
      const errors = answer?.userErrors ?? [];
      if (!errors.length) {
        for (const id of left) outcomes.set(id, { destinationId: id, outcome: 'removed' });
        break;
      }
      const missing = new Set(
        errors
          .filter((e) => e.code === 'FILE_DOES_NOT_EXIST' || NOT_THERE.test(e.message))
          .map((e) => left[Number(e.field?.[1])] ?? left.find((id) => e.message.includes(id)))
          .filter((id): id is string => id !== undefined),
      );
      if (!missing.size) {
        // Refused for another reason: each file alone, so one refusal fails only itself.
        if (left.length > 1) {
          for (const id of left) outcomes.set(id, (await this.#deleteFiles([id]))[0]!);
        } else
          outcomes.set(left[0]!, {
            destinationId: left[0]!,
            outcome: 'failed',
            reason: `Shopify refused to delete the image file: ${messages(errors)}. Delete it in the Shopify admin (Content > Files) if it is no longer used.`,
          });
        break;
      }
      for (const id of missing) outcomes.set(id, { destinationId: id, outcome: 'gone' });
      left = left.filter((id) => !missing.has(id));
    }
    return ids.map((id) => outcomes.get(id) ?? { destinationId: id, outcome: 'gone' });
  }

  /** A blog the migration created goes only while it holds no articles (blogDelete takes them). */
  async #deleteBlog(asset: AssetRecord): Promise<RemoveOutcome> {
    const id = asset.destinationId.slice(BLOG_TERM.length + 1);
    if (!gidOf('Blog', id)) return { destinationId: asset.destinationId, outcome: 'gone' };
    const blog = (await this.#client.request(blogArticles, { id })).blog;
    if (!blog) return { destinationId: asset.destinationId, outcome: 'gone' };
    const count = blog.articlesCount?.count ?? 0;
    if (count > 0)
      return {
        destinationId: asset.destinationId,
        outcome: 'failed',
        reason: `The blog ${asset.key.slice(BLOG_TERM.length + 1)} still holds ${count} article${count === 1 ? '' : 's'} this migration did not create (or kept), which deleting the blog would delete too: it was left. Move or delete them, then delete the blog in the Shopify admin.`,
      };
    const [outcome] = await this.#deleteAll(blogKind, [id]);
    return { ...outcome!, destinationId: asset.destinationId };
  }
}
