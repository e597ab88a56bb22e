import { z } from 'zod';
import type { Coupon } from '@replatform/canonical/coupon';
import type { IdMap, WriteOutcome } from '../kit/contract.ts';
import { mapLimit } from '../kit/concurrency.ts';
import { ConnectorError } from '../kit/errors.ts';
import { createOnce, errorText, type BcAnswer } from './client.ts';
import { couponToBc, distinctName } from './map-coupon.ts';
import type { Json } from './native.ts';
import { parseAnswer, type BcSession } from './session.ts';
import { linked, skipped } from './write-catalog.ts';

/**
 * Coupons go one per POST /v2/coupons (marketing.v2.yml createCoupon). v2 coupons have no
 * custom fields to carry a marker, but their code is unique in a store, so the code is the key:
 *
 * - a coupon the id map knows is already migrated and is left as it is;
 * - a coupon whose code the store already has, and that the id map does not know, is the
 *   merchant's: it is linked and skipped, never changed (a run that lost its id map links its
 *   own coupons the same way);
 * - a create whose answer was lost is found again by its code before it is sent again.
 *
 * Two source coupons of one code (codes differ only in case) cannot both be written: the second
 * fails naming the first. Fields BigCommerce has no place for are declared in destinationFields,
 * which the run reports for each coupon that had a value; the warnings here name what the
 * mapping itself gave up (map-coupon.ts).
 */

const found = z.array(z.object({ id: z.number().int(), code: z.string() }).loose());

async function byCode(session: BcSession, code: string): Promise<number | undefined> {
  const answer = await session.client.ok('GET', '/v2/coupons', { query: { code } });
  const list =
    answer.body === undefined ? [] : parseAnswer(found, answer.body, 'GET /v2/coupons?code');
  return list.find((c) => c.code.toLowerCase() === code.toLowerCase())?.id;
}

const failed = (sourceId: string, reason: string, warnings: string[] = []): WriteOutcome => ({
  sourceId,
  outcome: 'failed',
  reason,
  ...(warnings.length ? { warnings } : {}),
});

/** A 403 on a coupon write: the API account's Marketing scope is not at modify. */
function scopeError(error: ConnectorError): ConnectorError {
  return new ConnectorError(
    'config',
    'read_only_credentials',
    'This BigCommerce API account may not change coupons: its Marketing scope is not set to modify. Edit the account (or create a new one) under Settings > API > Store-level API accounts.',
    { status: error.status ?? 403 },
  );
}

export async function writeCoupons(
  session: BcSession,
  records: Coupon[],
  idMap: IdMap,
): Promise<WriteOutcome[]> {
  const { client } = session;
  const { units } = await session.store();
  const refs = {
    currency: units.currency,
    productId: (id: string) =>
      idMap.get('products', id) ?? session.markers.products.find(id)?.toString(),
    categoryId: (id: string) =>
      idMap.get('categories', id) ?? session.markers.categories.find(id)?.toString(),
  };
  // A restriction may name records of an earlier run that only their markers know.
  const restricted = records.some((r) => r.productIds.length + r.categoryIds.length > 0);
  if (restricted)
    await Promise.all([session.markers.products.ensure(), session.markers.categories.ensure()]);

  return mapLimit(records, 3, async (coupon): Promise<WriteOutcome> => {
    const known = idMap.get('coupons', coupon.id);
    if (known !== undefined) return skipped(coupon.id, Number(known), 'already migrated');
    const write = couponToBc(coupon, refs);
    if (!write.ok) return failed(coupon.id, write.reason);
    const warnings = [...write.warnings];
    const withWarnings = (outcome: WriteOutcome): WriteOutcome =>
      warnings.length ? { ...outcome, warnings } : outcome;

    const key = coupon.code.toLowerCase();
    const claimed = session.couponCodes.get(key);
    if (claimed !== undefined && claimed !== coupon.id)
      return failed(coupon.id, `another migrated coupon (${claimed}) has the same code`);
    session.couponCodes.set(key, coupon.id);

    const existing = await byCode(session, coupon.code);
    if (existing !== undefined)
      return linked(
        coupon.id,
        existing,
        'a coupon with this code already existed at the destination; linked to it, not changed',
      );

    let body: Json = write.body;
    for (let attempt = 0; attempt < 2; attempt++) {
      const sent = await createOnce<{ answer?: BcAnswer; recoveredId?: number }>(
        client,
        async () => ({
          answer: await client
            .request('POST', '/v2/coupons', { body, idempotent: false })
            .catch((error: unknown) => {
              throw error instanceof ConnectorError && error.status === 403
                ? scopeError(error)
                : error;
            }),
        }),
        async () => {
          // The create may have gone through before its answer was lost: the code is ours then.
          const id = await byCode(session, coupon.code);
          return id === undefined ? undefined : { recoveredId: id };
        },
      );
      if (sent.recoveredId !== undefined)
        return withWarnings({
          sourceId: coupon.id,
          outcome: 'created',
          destinationId: String(sent.recoveredId),
        });
      const answer = sent.answer as BcAnswer;
      if (answer.status === 200 || answer.status === 201) {
        const created = parseAnswer(
          z.object({ id: z.number().int() }).loose(),
          answer.body,
          'POST /v2/coupons',
        );
        return withWarnings({
          sourceId: coupon.id,
          outcome: 'created',
          destinationId: String(created.id),
        });
      }
      if (answer.status === 409) {
        // Made meanwhile by someone else: the merchant's, as above.
        const id = await byCode(session, coupon.code);
        if (id !== undefined)
          return linked(
            coupon.id,
            id,
            'a coupon with this code already existed at the destination; linked to it, not changed',
          );
        // Names are unique too: another coupon has this one's description as its name.
        if (attempt === 0) {
          const name = distinctName(String(body.name), coupon.code);
          warnings.push(
            `renamed to '${name}': another coupon of the store already has this name (description)`,
          );
          body = { ...body, name };
          continue;
        }
      }
      return failed(
        coupon.id,
        `BigCommerce refused the coupon (${answer.status}): ${errorText(answer.body)}`,
        warnings,
      );
    }
    return failed(coupon.id, 'the coupon name stayed in conflict', warnings);
  });
}
