import { z } from 'zod';
import type { Brand } from '@replatform/canonical/brand';
import type { IdMap, WriteOutcome } from '../kit/contract.ts';
import { mapLimit } from '../kit/concurrency.ts';
import { ConnectorError } from '../kit/errors.ts';
import { createOnce, errorText, type BcAnswer } from './client.ts';
import { brandToBc, holdsBrand, type BrandBody } from './map-brand.ts';
import type { MetafieldInput } from './metafields.ts';
import { brandFullSchema, type BcBrandFull } from './payloads.ts';
import { allPages, nameKey, parseAnswer, type BcSession } from './session.ts';
import { linked, skipped } from './write-catalog.ts';
import { addMetafields } from './write-metafields.ts';

/**
 * Brands go one per POST /v3/catalog/brands (brands_catalog.v3.yml createBrand). Names are unique
 * in a store (a repeat answers 409) and are what products find their brand by (session.brandFor),
 * so the brand list of the connection is shared with the product writer: a brand written here is
 * in it at once, and both match names alike (nameKey).
 *
 * Each brand this service creates carries the source-id marker metafield (namespace 'replatform')
 * that categories, products and customers carry, so a re-run finds it whatever its name became:
 *
 * - a brand the id map or a marker knows is compared with its copy: left alone when the copy holds
 *   what would be written (skipped), written again otherwise (updated); a copy deleted at the
 *   destination since is written anew;
 * - a brand of the same name without our marker is the merchant's (or one the product writer made
 *   for a vendor): it is linked and skipped, never changed, and gets no marker;
 * - a create whose answer was lost is looked for by its name before it is sent again.
 *
 * A brand BigCommerce refuses fails with its reason; what BigCommerce has no field for is declared
 * in destinationFields and reported by the run.
 */

const linkedReason =
  'a brand with this name already existed at the destination; linked to it, not changed';

const failed = (sourceId: string, reason: string, warnings: string[] = []): WriteOutcome => ({
  sourceId,
  outcome: 'failed',
  reason,
  ...(warnings.length ? { warnings } : {}),
});

const withWarnings = (outcome: WriteOutcome, warnings: string[]): WriteOutcome =>
  warnings.length ? { ...outcome, warnings: [...(outcome.warnings ?? []), ...warnings] } : outcome;

const brandAnswer = z.object({ data: brandFullSchema });

/** The destination's brand of this id, or undefined when it is gone. */
async function brandById(session: BcSession, id: number): Promise<BcBrandFull | undefined> {
  const answer = await session.client.request('GET', `/v3/catalog/brands/${id}`);
  if (answer.status === 404) return undefined;
  if (answer.status !== 200)
    throw new ConnectorError(
      'system',
      'unexpected_answer',
      `Reading brand ${id} answered ${answer.status}: ${errorText(answer.body)}`,
      { status: answer.status },
    );
  return parseAnswer(brandAnswer, answer.body, 'GET /v3/catalog/brands/{brand_id}').data;
}

/** The destination's brand of this name (names are unique, compared as nameKey does). */
async function brandByName(session: BcSession, name: string): Promise<number | undefined> {
  const found = await allPages(
    session.client,
    '/v3/catalog/brands',
    { name },
    z.object({ id: z.number().int(), name: z.string() }),
  );
  const brands = await session.brands();
  for (const b of found) brands.set(b.id, b);
  return found.find((b) => nameKey(b.name) === nameKey(name))?.id;
}

/** What the answer of a refused write says, and whether it was the storefront path. */
function refusal(answer: BcAnswer): { text: string; path: boolean } {
  const text = errorText(answer.body) || `status ${answer.status}`;
  return { text, path: /custom_url|url/i.test(text) && !/name/i.test(text) };
}

type Result = { outcome: WriteOutcome; mark?: number; metafields?: MetafieldInput[] };

export async function writeBrands(
  session: BcSession,
  records: Brand[],
  idMap: IdMap,
): Promise<WriteOutcome[]> {
  const { client, markers } = session;
  const [brands] = await Promise.all([session.brands(), markers.brands.ensure()]);
  // Two records of one name in a batch: the second fails naming the first.
  const firstOfName = new Map<string, string>();
  for (const r of records)
    if (!firstOfName.has(nameKey(r.name.trim()))) firstOfName.set(nameKey(r.name.trim()), r.id);

  /** Sends a create or an update; a path already taken is given up for BigCommerce's own. */
  const send = async (
    method: 'POST' | 'PUT',
    path: string,
    body: BrandBody,
    warnings: string[],
  ): Promise<BcAnswer> => {
    const answer = await client.request(method, path, { body, idempotent: method === 'PUT' });
    if (answer.status === 409 || answer.status === 422) {
      const why = refusal(answer);
      if (why.path && body.custom_url) {
        const { custom_url: _url, ...rest } = body;
        warnings.push(
          `the storefront path ${body.custom_url.url} was taken or refused (${why.text}); BigCommerce chose one from the name (sourceUrlPath)`,
        );
        return client.request(method, path, { body: rest, idempotent: method === 'PUT' });
      }
    }
    return answer;
  };

  const writeOne = async (brand: Brand): Promise<Result> => {
    const write = brandToBc(brand);
    if (!write.ok) return { outcome: failed(brand.id, write.reason) };
    // keepSlugs false: BigCommerce makes the brand's page path from its name.
    if (!session.choices.keepSlugs) delete write.body.custom_url;
    const warnings = [...write.warnings];
    const first = firstOfName.get(nameKey(write.body.name));
    if (first !== undefined && first !== brand.id)
      return {
        outcome: failed(
          brand.id,
          `another brand of this migration (${first}) has the same name, and BigCommerce brand names are unique`,
        ),
      };

    const mapped = idMap.get('brands', brand.id);
    const known = mapped !== undefined ? Number(mapped) : markers.brands.find(brand.id);
    if (known !== undefined) {
      const current = await brandById(session, known);
      if (current) {
        if (holdsBrand(current, write.body))
          return {
            outcome: withWarnings(skipped(brand.id, known, 'unchanged'), warnings),
            mark: known,
            metafields: write.metafields,
          };
        const answer = await send('PUT', `/v3/catalog/brands/${known}`, write.body, warnings);
        if (answer.status !== 200)
          return {
            outcome: failed(
              brand.id,
              `BigCommerce refused the brand (${answer.status}): ${refusal(answer).text}`,
              warnings,
            ),
          };
        const updated = parseAnswer(brandAnswer, answer.body, 'PUT /v3/catalog/brands').data;
        brands.set(updated.id, { id: updated.id, name: updated.name });
        return {
          outcome: withWarnings(
            { sourceId: brand.id, outcome: 'updated', destinationId: String(known) },
            warnings,
          ),
          mark: known,
          metafields: write.metafields,
        };
      }
      // Deleted at the destination since: written anew below.
      brands.delete(known);
    }

    const sameName = [...brands.values()].find((b) => nameKey(b.name) === nameKey(write.body.name));
    if (sameName) {
      const owner = markers.brands.sourceOf(sameName.id);
      if (owner !== undefined && owner !== brand.id)
        return {
          outcome: failed(
            brand.id,
            `the destination's brand '${sameName.name}' is another migrated brand's (${owner})`,
          ),
        };
      return { outcome: linked(brand.id, sameName.id, linkedReason) };
    }

    const sent = await createOnce<{ answer?: BcAnswer; recoveredId?: number }>(
      client,
      async () => ({
        answer: await send('POST', '/v3/catalog/brands', write.body, warnings),
      }),
      async () => {
        // The create may have gone through before its answer was lost: the name is ours then.
        const id = await brandByName(session, write.body.name);
        return id === undefined ? undefined : { recoveredId: id };
      },
    );
    let created: number | undefined = sent.recoveredId;
    const answer = sent.answer;
    if (created === undefined && answer) {
      if (answer.status === 200) {
        const data = parseAnswer(brandAnswer, answer.body, 'POST /v3/catalog/brands').data;
        created = data.id;
        brands.set(data.id, { id: data.id, name: data.name });
      } else if (answer.status === 409) {
        // Made meanwhile by someone else (names are unique): the merchant's, as above.
        const id = await brandByName(session, write.body.name);
        if (id !== undefined) return { outcome: linked(brand.id, id, linkedReason) };
      }
    }
    if (created === undefined)
      return {
        outcome: failed(
          brand.id,
          answer
            ? `BigCommerce refused the brand (${answer.status}): ${refusal(answer).text}`
            : 'BigCommerce did not confirm the brand',
          warnings,
        ),
      };
    markers.brands.claim(brand.id, created);
    return {
      outcome: withWarnings(
        { sourceId: brand.id, outcome: 'created', destinationId: String(created) },
        warnings,
      ),
      mark: created,
      metafields: write.metafields,
    };
  };

  const results = await mapLimit(records, 3, writeOne);
  await markers.brands.add(
    results.flatMap((r, i) =>
      r.mark === undefined ? [] : [{ sourceId: records[i]?.id ?? '', resourceId: r.mark }],
    ),
  );
  const withFields = results.flatMap((r) =>
    r.mark !== undefined && r.metafields?.length
      ? [{ resourceId: r.mark, metafields: r.metafields }]
      : [],
  );
  const refused = await addMetafields(session, '/v3/catalog/brands/metafields', withFields);
  return results.map((r) => {
    const problems = r.mark === undefined ? undefined : refused.get(r.mark);
    return problems ? withWarnings(r.outcome, problems) : r.outcome;
  });
}
