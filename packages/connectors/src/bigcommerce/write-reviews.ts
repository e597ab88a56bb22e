import { z } from 'zod';
import type { Review } from '@replatform/canonical/review';
import type { IdMap, WriteOutcome } from '../kit/contract.ts';
import { mapLimit } from '../kit/concurrency.ts';
import { ConnectorError } from '../kit/errors.ts';
import { createOnce, errorText, type BcAnswer } from './client.ts';
import { naturalKey, reviewToBc, sameReview, type ReviewFields } from './map-review.ts';
import { allProductReviews, type Json } from './native.ts';
import { reviewSchema } from './payloads.ts';
import { parseAnswer, type BcSession } from './session.ts';
import { skipped } from './write-catalog.ts';

/**
 * Reviews go one per POST /v3/catalog/products/{product_id}/reviews (products_catalog.v3.yml
 * createProductReview), on the destination's copy of their product. Reviews have no custom
 * fields to carry a marker, so a review is known by its natural key on its product: the
 * reviewer's name and e-mail, the second it was reviewed and its text (map-review.ts naturalKey).
 * Each product's reviews are listed once per connection and kept up to date as reviews are
 * written; the reviews of one product are written one at a time.
 *
 * - A review the id map knows is compared with its copy: left alone when it holds what would be
 *   written (skipped), written again whole otherwise (updated). A copy deleted at the destination
 *   since is written anew.
 * - A review the id map does not know, whose natural key a review of the product already has, is
 *   linked to it and skipped, never changed: it is the merchant's, or one an earlier run wrote
 *   before it could record it.
 * - A create whose answer was lost is looked for by its natural key before it is sent again.
 *
 * What BigCommerce has no place for (whether the reviewer bought the product) is declared in
 * destinationFields and reported by the run; the warnings here name what the mapping changed.
 */

const linkedReason =
  'a review by the same reviewer, of the same date and text, was already on the product at the destination; linked to it, not changed';

const failed = (sourceId: string, reason: string, warnings: string[] = []): WriteOutcome => ({
  sourceId,
  outcome: 'failed',
  reason,
  ...(warnings.length ? { warnings } : {}),
});

const withWarnings = (outcome: WriteOutcome, warnings: string[]): WriteOutcome =>
  warnings.length ? { ...outcome, warnings } : outcome;

/** A 403 on a review write: the API account's Products scope is not at modify. */
function scopeError(error: ConnectorError): ConnectorError {
  return new ConnectorError(
    'config',
    'read_only_credentials',
    'This BigCommerce API account may not change product reviews: its Products scope is not set to modify. Edit the account (or create a new one) under Settings > API > Store-level API accounts.',
    { status: error.status ?? 403 },
  );
}

const asScopeError = (error: unknown): never => {
  throw error instanceof ConnectorError && error.status === 403 ? scopeError(error) : error;
};

/** A destination review in the form reviews are compared in. */
function fieldsOf(raw: Json): (ReviewFields & { id: number }) | undefined {
  const parsed = reviewSchema.safeParse(raw);
  return parsed.success ? parsed.data : undefined;
}

export async function writeReviews(
  session: BcSession,
  records: Review[],
  idMap: IdMap,
): Promise<WriteOutcome[]> {
  // One product's reviews one after the other; products side by side.
  const byProduct = new Map<string, number[]>();
  records.forEach((review, i) => {
    const list = byProduct.get(review.productId) ?? [];
    list.push(i);
    byProduct.set(review.productId, list);
  });
  const outcomes: WriteOutcome[] = new Array<WriteOutcome>(records.length);
  await mapLimit([...byProduct], 3, async ([sourceProductId, indexes]) => {
    const destination = idMap.get('products', sourceProductId);
    const productId = destination === undefined ? Number.NaN : Number(destination);
    if (!Number.isInteger(productId) || productId <= 0) {
      for (const i of indexes)
        outcomes[i] = failed(
          records[i]?.id ?? '',
          `its product (source id ${sourceProductId}) is not at the destination: migrate Products first`,
        );
      return;
    }
    await session.reviews.serial(productId, async () => {
      for (const i of indexes) {
        const review = records[i];
        if (review) outcomes[i] = await writeReview(session, review, productId, idMap);
      }
    });
  });
  return outcomes;
}

/** The destination product's reviews as this connection knows them (listed once). */
function listed(session: BcSession, productId: number): Promise<Json[]> {
  const memory = session.reviews.listed;
  let list = memory.get(productId);
  if (!list) {
    list = allProductReviews(session, productId).catch((error: unknown) => {
      memory.delete(productId);
      throw error;
    });
    memory.set(productId, list);
  }
  return list;
}

/** Lists the product's reviews afresh (after a create whose answer was lost). */
async function relist(session: BcSession, productId: number): Promise<Json[]> {
  const fresh = await allProductReviews(session, productId);
  session.reviews.listed.set(productId, Promise.resolve(fresh));
  return fresh;
}

/** A review of the product with this natural key that no other source review has claimed. */
function byKey(
  session: BcSession,
  reviews: Json[],
  key: string,
  sourceId: string,
): (ReviewFields & { id: number }) | undefined {
  for (const raw of reviews) {
    const fields = fieldsOf(raw);
    if (!fields || naturalKey(fields) !== key) continue;
    const owner = session.reviews.claimed.get(fields.id);
    if (owner === undefined || owner === sourceId) return fields;
  }
  return undefined;
}

async function writeReview(
  session: BcSession,
  review: Review,
  productId: number,
  idMap: IdMap,
): Promise<WriteOutcome> {
  const { client } = session;
  const write = reviewToBc(review);
  if (!write.ok) return failed(review.id, write.reason);
  const { body, warnings } = write;
  const path = `/v3/catalog/products/${productId}/reviews`;
  const claim = (id: number) => session.reviews.claimed.set(id, review.id);
  const remember = async (raw: Json) => {
    const list = await listed(session, productId);
    const index = list.findIndex((r) => r.id === raw.id);
    if (index >= 0) list[index] = raw;
    else list.push(raw);
  };
  let reviews = await listed(session, productId);

  const mapped = idMap.get('reviews', review.id);
  const current = reviews.find((r) => mapped !== undefined && String(r.id) === mapped);
  const known = current ? fieldsOf(current) : undefined;
  if (known) {
    claim(known.id);
    if (sameReview(known, body))
      return withWarnings(skipped(review.id, known.id, 'already migrated'), warnings);
    const answer = await client.request('PUT', `${path}/${known.id}`, { body }).catch(asScopeError);
    if (answer.status === 200) {
      await remember(written(answer, `PUT ${path}/${known.id}`));
      return withWarnings(
        { sourceId: review.id, outcome: 'updated', destinationId: String(known.id) },
        warnings,
      );
    }
    if (answer.status !== 404) return refused(review.id, answer, warnings);
    // Deleted at the destination meanwhile: written anew below.
    reviews = await relist(session, productId);
  }

  const key = naturalKey(body);
  const existing = byKey(session, reviews, key, review.id);
  if (existing) {
    claim(existing.id);
    return { ...skipped(review.id, existing.id, linkedReason), linked: true };
  }

  const sent = await createOnce<{ answer?: BcAnswer; recovered?: number }>(
    client,
    async () => ({
      answer: await client.request('POST', path, { body, idempotent: false }).catch(asScopeError),
    }),
    async () => {
      // The create may have gone through before its answer was lost: the review is ours then.
      const found = byKey(session, await relist(session, productId), key, review.id);
      return found ? { recovered: found.id } : undefined;
    },
  );
  if (sent.recovered !== undefined) {
    claim(sent.recovered);
    return withWarnings(
      { sourceId: review.id, outcome: 'created', destinationId: String(sent.recovered) },
      warnings,
    );
  }
  const answer = sent.answer as BcAnswer;
  if (answer.status !== 200 && answer.status !== 201) return refused(review.id, answer, warnings);
  const raw = written(answer, `POST ${path}`);
  claim(Number(raw.id));
  await remember(raw);
  return withWarnings(
    { sourceId: review.id, outcome: 'created', destinationId: String(raw.id) },
    warnings,
  );
}

const answered = z.object({ data: z.record(z.string(), z.unknown()) });

/** The review BigCommerce answered a create or update with. */
function written(answer: BcAnswer, what: string): Json {
  const { data } = parseAnswer(answered, answer.body, what);
  parseAnswer(reviewSchema, data, what);
  return data;
}

function refused(sourceId: string, answer: BcAnswer, warnings: string[]): WriteOutcome {
  const detail = errorText(answer.body);
  return failed(
    sourceId,
    answer.status === 404
      ? `its product is no longer at the destination (BigCommerce answered 404${detail ? `: ${detail}` : ''})`
      : `BigCommerce refused the review (${answer.status})${detail ? `: ${detail}` : ''}`,
    warnings,
  );
}
