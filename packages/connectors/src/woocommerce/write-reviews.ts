import { z } from 'zod';
import type { Review } from '@replatform/canonical/review';
import type { IdMap, WriteOutcome } from '../kit/contract.ts';
import { runBatch, type BatchOp } from './batch.ts';
import type { WooClient } from './client.ts';
import {
  keptOnUpdate,
  reviewerNameOf,
  reviewTextForm,
  storedReviewerName,
} from './comment-text.ts';
import { reviewBody, type Json } from './from-canonical.ts';
import type { ImportState } from './import-state.ts';
import { sourceIdOf } from './markers.ts';
import { pageSize, readAllReviews, readReviewPage, reviewLists } from './read.ts';
import { decodeEntities } from './to-canonical.ts';
import { wcMetaSchema, wcReviewSchema, type WcError, type WcReview } from './wc-schemas.ts';

/** A product's id and meta data (`_fields=id,meta_data`). */
const productMarkerSchema = z.object({
  id: z.number(),
  meta_data: z.array(wcMetaSchema).catch([]),
});

/**
 * Product reviews into WooCommerce (products/reviews/batch). wc/v3 gives reviews no meta data, so
 * nothing marks a review as written by a migration. What tells them apart is their product: a
 * product the migration wrote (it carries `_replatform_source_id`) had no reviews before the
 * migration, so every review on it that matches a source review is the migration's; on a product
 * that was the merchant's already (linked), a matching review may be the merchant's own.
 *
 * Every write lists the reviews of its products first (every status) and finds each source review
 * by the id map, else by its natural key: the reviewer's name and address, its date and its text,
 * in the form WordPress saves them. Then:
 *
 * - a review of ours that holds what the source holds is skipped; one whose status, stars or
 *   verified flag changed is updated in place when its saved text is plain (WordPress passes the
 *   whole text of a review through its comment filter on every update, which would strip
 *   paragraphs and other markup); otherwise it is written anew: the old copy goes to the bin
 *   first (WordPress refuses a review repeating one outside the bin), the new one is created, and
 *   the old one deleted (given back its status if the new one was refused). Ours: the id map's on
 *   a product the migration wrote, or made by this connection; found by its natural key on such a
 *   product (an earlier run wrote it and its id map was lost); or found by its natural key after
 *   this connection sent its create without an answer, made since (counted as created);
 * - a review found on a merchant's product by its natural key is linked and never changed; one the
 *   id map names there (linked, or written by an earlier run: the two cannot be told apart) is
 *   left as it is too, its differences from the source named;
 * - the rest are created. After a lost answer the products' reviews are listed again and what the
 *   batch made is found by natural key, among the reviews that were not there before.
 */

const errorText = (e: WcError) =>
  `${decodeEntities(e.message).replace(/<[^>]*>/g, '')} (${e.code})`;

interface Planned {
  body: Json;
  key: string;
}

/** What identifies a review at the destination, in the form WordPress saves each part in. */
function naturalKey(
  productId: number,
  name: string,
  email: string,
  date: string,
  text: string,
): string {
  return JSON.stringify([
    productId,
    decodeEntities(name),
    email.trim().toLowerCase(),
    date.slice(0, 19),
    reviewTextForm(text),
  ]);
}

const keyOfBody = (b: Json) =>
  naturalKey(
    Number(b.product_id),
    storedReviewerName(String(b.reviewer)),
    String(b.reviewer_email),
    String(b.date_created_gmt),
    String(b.review),
  );
const keyOfReview = (r: WcReview) =>
  naturalKey(r.product_id, r.reviewer, r.reviewer_email, r.date_created_gmt ?? '', r.review);

/** WordPress's duplicate check: same name, same address when one is given, same text, any case. */
const repeats = (b: Json, r: WcReview) => {
  const same = (x: string, y: string) => x.trim().toLowerCase() === y.trim().toLowerCase();
  const email = String(b.reviewer_email);
  return (
    r.product_id === Number(b.product_id) &&
    r.status !== 'trash' &&
    same(reviewerNameOf(r.reviewer), storedReviewerName(String(b.reviewer))) &&
    (email === '' || same(r.reviewer_email, email)) &&
    same(reviewTextForm(r.review), reviewTextForm(String(b.review)))
  );
};

/** The canonical fields in which a review at the destination differs from what is written. */
function differences(r: Review, b: Json, found: WcReview): string[] {
  const fields: string[] = [];
  if (found.product_id !== Number(b.product_id)) fields.push('productId');
  if (reviewerNameOf(found.reviewer) !== decodeEntities(storedReviewerName(String(b.reviewer))))
    fields.push('reviewerName');
  if (found.reviewer_email.toLowerCase() !== String(b.reviewer_email).toLowerCase())
    fields.push('reviewerEmail');
  if ((found.date_created_gmt ?? '').slice(0, 19) !== String(b.date_created_gmt))
    fields.push('createdAt');
  if (reviewTextForm(found.review) !== reviewTextForm(String(b.review))) fields.push('body');
  if (found.rating !== b.rating) fields.push('rating');
  if (found.status !== b.status) fields.push('status');
  if (found.verified !== r.verified) fields.push('verified');
  return fields;
}

/**
 * How a review of ours at the destination differs from what is to be written: not at all, in
 * what an update may change without touching the text (status, stars, the verified flag, which
 * can only be set), or in the rest.
 */
function change(b: Json, r: WcReview): 'none' | 'inPlace' | 'replace' {
  // The key holds the product, name, address, date and text.
  const rest = keyOfReview(r) !== keyOfBody(b);
  const small =
    r.status !== b.status || r.rating !== b.rating || (b.verified === true && !r.verified);
  if (rest) return 'replace';
  if (!small) return 'none';
  return keptOnUpdate(r.review) ? 'inPlace' : 'replace';
}

export class ReviewWriter {
  private readonly client: WooClient;
  private readonly state: ImportState;
  /** The newest review id the store had when this connection first wrote reviews. */
  private newest: Promise<number> | undefined;
  /** Reviews this connection made. */
  private readonly made = new Set<number>();

  constructor(client: WooClient, state: ImportState) {
    this.client = client;
    this.state = state;
  }

  private newestBefore(): Promise<number> {
    this.newest ??= Promise.all(
      reviewLists.map(async (status) => {
        const { items } = await readReviewPage(this.client, status, 1, {
          order: 'desc',
          per_page: 1,
          _fields: 'id',
        });
        return items[0]?.id ?? 0;
      }),
    )
      .then((ids) => Math.max(0, ...ids))
      .catch((error: unknown) => {
        this.newest = undefined;
        throw error;
      });
    return this.newest;
  }

  async write(records: Review[], idMap: IdMap): Promise<WriteOutcome[]> {
    const outcomes: (WriteOutcome | undefined)[] = new Array(records.length);
    const warnings = records.map(() => [] as string[]);
    const planned = new Map<number, Planned>();
    records.forEach((r, i) => {
      const product = idMap.get('products', r.productId);
      if (product === undefined) {
        outcomes[i] = {
          sourceId: r.id,
          outcome: 'failed',
          reason: `Its product (source id ${r.productId}) is not at the destination, so the review has nothing to belong to.`,
        };
        return;
      }
      const written = reviewBody(r, Number(product));
      if (!written.ok) {
        outcomes[i] = { sourceId: r.id, outcome: 'failed', reason: written.reason };
        return;
      }
      warnings[i]?.push(...written.warnings);
      planned.set(i, { body: written.body, key: keyOfBody(written.body) });
    });
    if (planned.size === 0) return this.finish(records, outcomes, warnings);

    const newest = await this.newestBefore();
    const products = [...new Set([...planned.values()].map((p) => Number(p.body.product_id)))];
    const migrated = await this.migratedProducts(products);
    const existing = await readAllReviews(this.client, { product: products.join(',') });
    const mappedIds = [...planned.keys()]
      .map((i) => Number(idMap.get('reviews', (records[i] as Review).id)))
      .filter((id) => id > 0 && !existing.some((r) => r.id === id));
    // A review of ours that is no longer on its product's list (moved to another product).
    if (mappedIds.length)
      existing.push(...(await readAllReviews(this.client, { include: mappedIds.join(',') })));
    const before = new Set(existing.map((r) => r.id));
    const byId = new Map(existing.map((r) => [r.id, r]));
    const claimed = new Set<number>();

    const create: BatchOp[] = [];
    const update: BatchOp[] = [];
    /** Reviews written anew: the old copy's id and status, by the record's index. */
    const replaced = new Map<number, WcReview>();
    const verifiedHere = (i: number, answer: { verified: boolean }) => {
      if (answer.verified && !(records[i] as Review).verified)
        warnings[i]?.push(
          'WooCommerce marked the review verified itself: its reviewer has a paid order of this product at the destination.',
        );
    };
    /** A review of ours: skipped when up to date, else updated in place or written anew. */
    const decide = (i: number, found: WcReview, created: boolean) => {
      const r = records[i] as Review;
      const { body } = planned.get(i) as Planned;
      claimed.add(found.id);
      const how = change(body, found);
      if (how === 'none') {
        verifiedHere(i, found);
        outcomes[i] = created
          ? { sourceId: r.id, outcome: 'created', destinationId: String(found.id) }
          : {
              sourceId: r.id,
              outcome: 'skipped',
              destinationId: String(found.id),
              reason: 'Already up to date.',
            };
      } else if (how === 'inPlace') {
        update.push({
          key: i,
          body: {
            id: found.id,
            ...(found.status === body.status ? {} : { status: body.status }),
            ...(found.rating === body.rating ? {} : { rating: body.rating }),
            ...(body.verified === true && !found.verified ? { verified: true } : {}),
          },
        });
      } else {
        replaced.set(i, found);
        create.push({ key: i, body });
      }
    };
    /** A review that may be the merchant's: linked and left as it is, its differences named. */
    const keep = (i: number, found: WcReview, why: string) => {
      const r = records[i] as Review;
      claimed.add(found.id);
      // Nothing of the source's review was written.
      warnings[i] = [];
      const fields = differences(r, (planned.get(i) as Planned).body, found);
      outcomes[i] = {
        sourceId: r.id,
        outcome: 'skipped',
        destinationId: String(found.id),
        reason:
          why === '' && fields.length === 0
            ? 'Already up to date.'
            : `${why}${fields.length ? ` Its ${fields.join(', ')} differ from the source's.` : ''}`,
        // Never the migration's to change (the engine leaves it alone on later runs too).
        linked: true,
      };
    };

    for (const [i, plan] of planned) {
      const r = records[i] as Review;
      const mapped = byId.get(Number(idMap.get('reviews', r.id)));
      if (mapped && !claimed.has(mapped.id)) {
        // On a product the migration wrote, or made by this connection: ours.
        if (migrated.has(mapped.product_id) || this.made.has(mapped.id)) decide(i, mapped, false);
        else
          keep(
            i,
            mapped,
            change(plan.body, mapped) === 'none'
              ? ''
              : "The review is on a product that was already at the destination, where the migration cannot tell the reviews it wrote from the merchant's own (WooCommerce keeps no marker on a review), so it was left as it is.",
          );
        continue;
      }
      const same = existing.find((e) => !claimed.has(e.id) && keyOfReview(e) === plan.key);
      if (!same) {
        create.push({ key: i, body: plan.body });
        continue;
      }
      // Sent by this connection without an answer, and made by the store since: ours.
      if (this.state.unanswered.reviews.has(r.id) && same.id > newest) {
        decide(i, same, true);
        continue;
      }
      // On a product the migration made, a review of the source review's name, address, date
      // (to the second) and text was written by an earlier run whose id map was lost.
      if (migrated.has(same.product_id)) {
        decide(i, same, false);
        continue;
      }
      keep(
        i,
        same,
        `A review of this product by ${r.reviewerName}, of the same date and text, was already at the destination (the merchant's own, or written by an earlier run); it was linked, not changed.`,
      );
    }

    // The old copies of reviews written anew leave WordPress's duplicate check first.
    const binned = [...replaced].filter(([, old]) => old.status !== 'trash');
    if (binned.length) {
      const results = await runBatch(
        this.client,
        '/products/reviews/batch',
        {
          create: [],
          update: binned.map(([i, old]) => ({ key: i, body: { id: old.id, status: 'trash' } })),
        },
        async () => new Map(),
      );
      for (const [key, result] of results)
        if (!result.ok) {
          outcomes[key] = this.failed(records[key] as Review, result.error);
          const at = create.findIndex((op) => op.key === key);
          if (at >= 0) create.splice(at, 1);
          replaced.delete(key);
        }
    }

    const recover = async (ops: BatchOp[]) => {
      const found = new Map<number, unknown>();
      const ids = [...new Set(ops.map((op) => Number(op.body.product_id)))];
      const now = await readAllReviews(this.client, { product: ids.join(',') });
      for (const op of ops) {
        const match = now.find(
          (r) => !before.has(r.id) && !claimed.has(r.id) && keyOfReview(r) === keyOfBody(op.body),
        );
        if (match) {
          claimed.add(match.id);
          this.made.add(match.id);
          found.set(op.key, match);
        } else this.state.unanswered.reviews.add((records[op.key] as Review).id);
      }
      return found;
    };
    const results = await runBatch(
      this.client,
      '/products/reviews/batch',
      { create, update },
      recover,
    );
    const restore: BatchOp[] = [];
    const remove: BatchOp[] = [];
    for (const [key, result] of results) {
      const r = records[key] as Review;
      const old = replaced.get(key);
      if (!result.ok) {
        outcomes[key] =
          result.error.code.endsWith('comment_duplicate') && result.op === 'create'
            ? this.duplicate(r, (planned.get(key) as Planned).body, existing, result.error)
            : this.failed(r, result.error);
        if (old) restore.push({ key, body: { id: old.id, status: old.status } });
        continue;
      }
      const review = wcReviewSchema.safeParse(result.item);
      if (!review.success) {
        outcomes[key] = {
          sourceId: r.id,
          outcome: 'failed',
          reason: 'The store answered with something that is not a review.',
        };
        continue;
      }
      verifiedHere(key, review.data);
      if (result.op === 'create') this.made.add(review.data.id);
      const id = String(review.data.id);
      if (old) remove.push({ key, body: { id: old.id } });
      outcomes[key] = {
        sourceId: r.id,
        outcome: result.op === 'create' && !old ? 'created' : 'updated',
        destinationId: id,
      };
    }
    if (remove.length)
      this.client.note('woocommerce: reviews written anew, their old copies deleted', {
        reviews: remove.length,
      });
    if (remove.length || restore.length) {
      // A delete answered 'invalid id' was carried out by an earlier attempt.
      await runBatch(
        this.client,
        '/products/reviews/batch',
        { create: [], update: restore, delete: remove },
        async () => new Map(),
      );
      for (const op of restore) {
        const outcome = outcomes[op.key];
        if (outcome?.outcome === 'failed')
          outcome.reason = `${outcome.reason ?? ''} The review already at the destination was left in place.`;
      }
    }
    return this.finish(records, outcomes, warnings);
  }

  /**
   * Which of these destination products the migration wrote (they carry its marker); the others
   * were the merchant's already, and linked.
   */
  private async migratedProducts(ids: number[]): Promise<Set<number>> {
    const out = new Set<number>();
    for (let start = 0; start < ids.length; start += pageSize) {
      const chunk = ids.slice(start, start + pageSize);
      const { items } = await this.client.page(
        '/products',
        { include: chunk.join(','), per_page: chunk.length, _fields: 'id,meta_data' },
        productMarkerSchema,
      );
      for (const p of items) if (sourceIdOf(p.meta_data) !== undefined) out.add(p.id);
    }
    return out;
  }

  private failed(r: Review, error: WcError): WriteOutcome {
    return { sourceId: r.id, outcome: 'failed', reason: errorText(error) };
  }

  /** WordPress refused the review as repeating one the product has (see `repeats`). */
  private duplicate(r: Review, body: Json, existing: WcReview[], error: WcError): WriteOutcome {
    const other = existing.find((e) => repeats(body, e));
    return {
      sourceId: r.id,
      outcome: 'failed',
      reason: other
        ? `WooCommerce refuses a review that repeats one of the product's (same name, address and text, whatever the date): review ${other.id} of ${(other.date_created_gmt ?? '').slice(0, 10)} is the same (${error.code}).`
        : `WooCommerce refuses a review that repeats one of the product's (same name, address and text, whatever the date), and the destination has one already (${error.code}).`,
    };
  }

  private finish(
    records: Review[],
    outcomes: (WriteOutcome | undefined)[],
    warnings: string[][],
  ): WriteOutcome[] {
    return records.map((r, i) => {
      const current = outcomes[i] ?? {
        sourceId: r.id,
        outcome: 'failed',
        reason: 'The store did not answer for this review.',
      };
      const list = warnings[i] ?? [];
      return list.length && current.outcome !== 'failed' ? { ...current, warnings: list } : current;
    });
  }
}
