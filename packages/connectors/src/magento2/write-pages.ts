import type { Page } from '@replatform/canonical/content';
import { z } from 'zod';
import type { IdMap, WriteOutcome } from '../kit/contract.ts';
import { MagentoApiError } from './client.ts';
import { searchResults } from './magento-schemas.ts';
import type { Json } from './native.ts';
import {
  createPayload,
  fieldsNotKept,
  maxIdentifierLength,
  pagePayload,
  samePage,
  unwritable,
} from './page-mapping.ts';
import { criteria, type MagentoSession } from './session.ts';
import { createOnce, isStoreWide, leftUnchanged, reasonOf, slugify } from './write-support.ts';

/**
 * Web pages are written as CMS pages (POST /V1/cmsPage, PUT /V1/cmsPage/{id}) in the global
 * scope, so they show on every store view (store id 0).
 *
 * A CMS page has no field to hold a marker, so a page is found by its identifier (the slug,
 * GET /V1/cmsPage/search): the page the id map names is ours, updated when what it holds differs
 * from what would be written and left alone otherwise; a page of that identifier the id map does
 * not name is the merchant's (or was linked as such before): linked and never changed. A page of
 * ours whose slug changed at the source is found by the id map and renamed. A create whose answer
 * was lost is found again by its identifier before it is sent again. Magento pages are flat, so
 * the engine's parent-first order needs nothing here.
 *
 * Without the source's URL keys (session.choices.keepSlugs false) a page's identifier is made
 * from its title as Magento's URL key generator makes it (CmsPageUrlPathGenerator: transliterated,
 * lower case, other characters as '-'); a page without a title keeps its source URL key, and
 * says so. The page the id map names is then found by its id and updated under the identifier it
 * has, so a changed title never moves a page; other pages are found by the identifier made, as
 * above.
 */

const json = z.record(z.string(), z.unknown());
const pageList = searchResults(json);

/**
 * Magento refuses a page identifier equal to a storefront route's front name (PageRepository's
 * route check: 'contact', 'checkout', 'customer'...), which a store's own pages often use. Such a
 * page is written under its URL key with this added, and its report row says so (the redirect map
 * pairs the old address with the new one).
 */
const routeSuffix = '-page';
const routeTaken = (error: unknown) =>
  error instanceof MagentoApiError &&
  /would generate a URL that already exists/i.test(error.magentoMessage);
const movedFrom = (slug: string) =>
  `slug: Magento keeps /${slug} for a storefront route of its own, so the page is at /${slug}${routeSuffix}`;

export async function writePages(
  session: MagentoSession,
  records: Page[],
  idMap: IdMap,
): Promise<WriteOutcome[]> {
  const outcomes: WriteOutcome[] = [];
  const seen = new Set<string>();
  const { keepSlugs } = session.choices;
  for (const source of records) {
    const keyed = keepSlugs ? { record: source } : titleKeyed(source);
    if ('reason' in keyed) {
      outcomes.push({ sourceId: source.id, outcome: 'failed', reason: keyed.reason });
      continue;
    }
    const record = keyed.record;
    const problem =
      unwritable(record) ??
      (seen.has(record.slug)
        ? `another page in this batch has the URL key '${record.slug}' (Magento page identifiers are unique)`
        : undefined);
    if (problem) {
      outcomes.push({ sourceId: record.id, outcome: 'failed', reason: problem });
      continue;
    }
    seen.add(record.slug);
    try {
      const outcome = await writeOne(session, record, idMap.get('pages', record.id), keepSlugs);
      const warnings = outcome.linked
        ? []
        : [...(outcome.warnings ?? []), ...(keyed.warning ?? []), ...fieldsNotKept(record)];
      outcomes.push(warnings.length ? { ...outcome, warnings } : outcome);
    } catch (error) {
      if (isStoreWide(error)) throw error;
      outcomes.push({ sourceId: record.id, outcome: 'failed', reason: reasonOf(error) });
    }
  }
  return outcomes;
}

/**
 * The page with the identifier Magento makes from its title (the owner chose not to keep the
 * source's URL keys), or why it cannot have one.
 */
function titleKeyed(record: Page): { record: Page; warning?: string[] } | { reason: string } {
  const key = slugify(record.title);
  if (!key) {
    if (!record.slug) return { record };
    return {
      record,
      warning: [
        `slug: the page has no title to make a URL key from, so its URL key '${record.slug}' was kept`,
      ],
    };
  }
  if (key.length > maxIdentifierLength)
    return {
      reason: `the URL key made from the title is longer than the ${maxIdentifierLength} characters Magento keeps for a page identifier; shorten the title`,
    };
  return { record: { ...record, slug: key } };
}

/** The store's pages of an identifier (one per store view at most). */
async function pagesOf(session: MagentoSession, identifier: string): Promise<Json[]> {
  const found = await session.client.get(
    '/V1/cmsPage/search',
    pageList,
    criteria({ filters: [[['identifier', identifier, 'eq']]] }),
  );
  return found.items.filter((p) => p.identifier === identifier);
}

/** The page of an id, or undefined when the store no longer has it. */
async function pageById(session: MagentoSession, id: string): Promise<Json | undefined> {
  try {
    return await session.client.get(`/V1/cmsPage/${encodeURIComponent(id)}`, json);
  } catch (error) {
    if (error instanceof MagentoApiError && error.status === 404) return undefined;
    throw error;
  }
}

async function writeOne(
  session: MagentoSession,
  record: Page,
  mapped: string | undefined,
  keepSlugs: boolean,
): Promise<WriteOutcome> {
  const payload = pagePayload(record);
  if (!keepSlugs && mapped) {
    // The identifier is the destination's own: the page keeps the one it has.
    const ours = await pageById(session, mapped);
    if (ours) return updatePage(session, record, ours, { ...payload, identifier: ours.identifier });
  }
  const same = await pagesOf(session, record.slug);
  const byMap = same.find((p) => String(p.id) === mapped);
  const theirs = same.find((p) => String(p.id) !== mapped);
  if (!byMap && theirs)
    return {
      sourceId: record.id,
      outcome: 'skipped',
      destinationId: String(theirs.id),
      reason: `${leftUnchanged}: the store's own CMS page '${record.slug}'`,
      linked: true,
    };
  const ours = byMap ?? (mapped ? await pageById(session, mapped) : undefined);
  if (ours) {
    // Written under the route-free URL key before: it stays there.
    const moved = ours.identifier === `${record.slug}${routeSuffix}`;
    const wanted = moved ? { ...payload, identifier: ours.identifier } : payload;
    const warnings = moved ? [movedFrom(record.slug)] : [];
    return updatePage(session, record, ours, wanted, warnings);
  }
  // POST /V1/cmsPage (admin-schema-2.4.9.yaml PostV1CmsPage)
  const create = (identifier: string) =>
    createOnce(
      () =>
        session.client.request('POST', '/V1/cmsPage', json, {
          body: { page: { ...createPayload(record), identifier } },
          scope: 'all',
        }),
      async () => (await pagesOf(session, identifier))[0],
    );
  try {
    const created = await create(record.slug);
    return { sourceId: record.id, outcome: 'created', destinationId: String(created.id) };
  } catch (error) {
    if (!routeTaken(error)) throw error;
  }
  const moved = `${record.slug}${routeSuffix}`;
  const warnings = [movedFrom(record.slug)];
  const there = (await pagesOf(session, moved))[0];
  if (there)
    return {
      sourceId: record.id,
      outcome: 'skipped',
      destinationId: String(there.id),
      reason: `${leftUnchanged}: the store's own CMS page '${moved}'`,
      linked: true,
    };
  const created = await create(moved);
  return { sourceId: record.id, outcome: 'created', destinationId: String(created.id), warnings };
}

/** Our page, left alone when it holds what would be written, updated otherwise. */
async function updatePage(
  session: MagentoSession,
  record: Page,
  ours: Json,
  wanted: Json,
  warnings: string[] = [],
): Promise<WriteOutcome> {
  const id = String(ours.id);
  if (samePage(ours, wanted))
    return {
      sourceId: record.id,
      outcome: 'skipped',
      destinationId: id,
      reason: leftUnchanged,
      ...(warnings.length ? { warnings } : {}),
    };
  // PUT /V1/cmsPage/{id} (admin-schema-2.4.9.yaml PutV1CmsPageId)
  await session.client.request('PUT', `/V1/cmsPage/${encodeURIComponent(id)}`, json, {
    body: { page: { ...wanted, id: Number(id) } },
    scope: 'all',
  });
  return {
    sourceId: record.id,
    outcome: 'updated',
    destinationId: id,
    ...(warnings.length ? { warnings } : {}),
  };
}
