import type { Category } from '@replatform/canonical/category';
import type { IdMap, WriteOutcome } from '../kit/contract.ts';
import { categorySchema, searchResults, type MagentoCategory } from './magento-schemas.ts';
import { customValue } from './mapping.ts';
import { foreignAttributeCode, isMagento, magentoFields, metafieldValue } from './metafields.ts';
import { criteria, type MagentoSession } from './session.ts';
import { createOnce, isStoreWide, leftUnchanged, reasonOf, slugify } from './write-support.ts';

/**
 * Categories, saved in the 'all' store scope (/rest/all/V1/...) so values land on the global
 * level. Magento's REST API cannot add category attributes, so categories carry no marker: a
 * category is created once and never changed afterwards. One with the same name (compared
 * Unicode-normalised, case-insensitively) or the same URL key under the same parent is the same
 * category: it is linked and left unchanged, as is one the id map already names. Without the
 * source's URL keys (session.choices.keepSlugs false) no url_key is sent and Magento makes one from
 * the name; the id map and the name find the category again.
 */

/** Category fields the API takes at the top level rather than as custom attributes. */
const topLevel = new Set(['is_active', 'include_in_menu', 'available_sort_by']);

const sameName = (a: string, b: string) =>
  a.normalize('NFC').trim().toLowerCase() === b.normalize('NFC').trim().toLowerCase();

async function findCategory(
  session: MagentoSession,
  parentId: number,
  name: string,
  urlKey: string,
): Promise<MagentoCategory | undefined> {
  const siblings = await session.client.get(
    '/V1/categories/list',
    searchResults(categorySchema),
    criteria({ filters: [[['parent_id', parentId]]], pageSize: 300, currentPage: 1 }),
  );
  return (
    siblings.items.find((c) => sameName(c.name, name)) ??
    siblings.items.find((c) => customValue(c.custom_attributes, 'url_key') === urlKey)
  );
}

export async function writeCategories(
  session: MagentoSession,
  records: Category[],
  idMap: IdMap,
): Promise<WriteOutcome[]> {
  const roots = await session.roots();
  const written = new Map<string, string>();
  const outcomes = new Map<string, WriteOutcome>();
  for (const record of parentsFirst(records)) {
    try {
      outcomes.set(
        record.id,
        await writeCategory(session, record, idMap, written, roots.storeRoot),
      );
    } catch (error) {
      if (isStoreWide(error)) throw error;
      outcomes.set(record.id, { sourceId: record.id, outcome: 'failed', reason: reasonOf(error) });
    }
  }
  return records.map(
    (r) => outcomes.get(r.id) ?? { sourceId: r.id, outcome: 'failed', reason: 'not processed' },
  );
}

/** The batch in an order where a parent in the same batch is written before its children. */
function parentsFirst(records: Category[]): Category[] {
  const byId = new Map(records.map((r) => [r.id, r]));
  const ordered: Category[] = [];
  const placed = new Set<string>();
  const place = (record: Category, path: Set<string>) => {
    if (placed.has(record.id) || path.has(record.id)) return;
    const parent = record.parentId ? byId.get(record.parentId) : undefined;
    if (parent) place(parent, new Set([...path, record.id]));
    placed.add(record.id);
    ordered.push(record);
  };
  for (const record of records) place(record, new Set());
  return ordered;
}

/** What a category's display type and its own settings become in Magento's fields. */
async function categoryFields(
  session: MagentoSession,
  record: Category,
  warnings: string[],
): Promise<{ top: Record<string, unknown>; custom: { attribute_code: string; value: string }[] }> {
  const own = magentoFields(record.metafields);
  const top: Record<string, unknown> = {};
  const custom: { attribute_code: string; value: string }[] = [];
  const mode = own.get('display_mode');
  if (mode) custom.push({ attribute_code: 'display_mode', value: mode.value });
  else if (record.displayType !== 'default') {
    custom.push({ attribute_code: 'display_mode', value: 'PRODUCTS' });
    // Products of the subcategories too: the closest to showing the subcategories.
    if (record.displayType !== 'products' && !own.has('is_anchor'))
      custom.push({ attribute_code: 'is_anchor', value: '1' });
    if (record.displayType !== 'products')
      warnings.push(
        `Magento cannot show the subcategories on a category page: the category shows its products and those of its subcategories (display type '${record.displayType}').`,
      );
  }
  for (const field of record.metafields) {
    if (isMagento(field) && field.key === 'display_mode') continue;
    const value = metafieldValue(field);
    if (isMagento(field) && topLevel.has(field.key)) {
      top[field.key] = value;
      continue;
    }
    const code = isMagento(field) ? field.key : foreignAttributeCode(field);
    if (!(await session.categoryAttribute(code))) {
      warnings.push(
        `custom field ${field.namespace}.${field.key} not migrated: the store has no category attribute '${code}', and Magento's REST API cannot create one (metafields)`,
      );
      continue;
    }
    custom.push({
      attribute_code: code,
      value: typeof value === 'string' ? value : JSON.stringify(value),
    });
  }
  return { top, custom };
}

async function writeCategory(
  session: MagentoSession,
  record: Category,
  idMap: IdMap,
  written: Map<string, string>,
  storeRoot: number,
): Promise<WriteOutcome> {
  let parentId = storeRoot;
  if (record.parentId !== null) {
    const mapped = written.get(record.parentId) ?? idMap.get('categories', record.parentId);
    if (!mapped) {
      return {
        sourceId: record.id,
        outcome: 'failed',
        reason: `its parent category ${record.parentId} was not migrated`,
      };
    }
    parentId = Number(mapped);
  }
  const mapped = idMap.get('categories', record.id);
  if (mapped) {
    written.set(record.id, mapped);
    return {
      sourceId: record.id,
      outcome: 'skipped',
      destinationId: mapped,
      reason: 'already migrated (categories are written once: they carry no migration marker)',
    };
  }
  // Without the source's URL key (the owner's choice), none is sent: Magento makes one from the
  // name, the key looked for here.
  const keepSlug = session.choices.keepSlugs;
  const urlKey = slugify((keepSlug && record.slug) || record.name);
  const existing = await findCategory(session, parentId, record.name, urlKey);
  if (existing) {
    // The merchant's own category, or one an interrupted run created from this same record:
    // either way it is linked, not rewritten.
    written.set(record.id, String(existing.id));
    return {
      sourceId: record.id,
      outcome: 'skipped',
      destinationId: String(existing.id),
      reason: leftUnchanged,
      linked: true,
    };
  }
  const warnings: string[] = [];
  const { top, custom } = await categoryFields(session, record, warnings);
  const payload = {
    category: {
      parent_id: parentId,
      name: record.name,
      is_active: true,
      include_in_menu: true,
      position: record.position + 1,
      ...top,
      custom_attributes: [
        ...(keepSlug ? [{ attribute_code: 'url_key', value: urlKey }] : []),
        { attribute_code: 'description', value: record.description },
        ...(record.seoTitle ? [{ attribute_code: 'meta_title', value: record.seoTitle }] : []),
        ...(record.seoDescription
          ? [{ attribute_code: 'meta_description', value: record.seoDescription }]
          : []),
        ...custom,
      ],
    },
  };
  // POST /V1/categories (admin-schema-2.4.9.yaml PostV1Categories)
  const created = await createOnce(
    () =>
      session.client.request('POST', '/V1/categories', categorySchema, {
        body: payload,
        scope: 'all',
      }),
    () => findCategory(session, parentId, record.name, urlKey),
  );
  written.set(record.id, String(created.id));
  return {
    sourceId: record.id,
    outcome: 'created',
    destinationId: String(created.id),
    ...(warnings.length ? { warnings } : {}),
  };
}
