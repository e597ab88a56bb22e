import type { Page } from '@replatform/canonical/content';
import { pageDefaults } from '@replatform/canonical/defaults';
import type { Metafield } from '@replatform/canonical/metafield';
import { magentoFields, magentoMetafield, metafieldValue } from './metafields.ts';
import type { Json } from './native.ts';

/**
 * A web page is a Magento CMS page (cms-data-page-interface, admin-schema-2.4.9.yaml):
 * identifier <-> slug, title, content <-> body, meta_title / meta_description / meta_keywords
 * <-> the SEO fields (keywords as Magento keeps them: one comma-separated text), sort_order <->
 * position, active <-> status ('published' when active; every other status is an inactive page,
 * the nearest Magento has), creation_time / update_time -> createdAt / updatedAt (Magento stamps
 * its own on a write). The page's design settings (content heading, layout, layout updates,
 * custom theme and its dates) have no field in the model: they travel as 'magento' metafields
 * and a Magento destination writes them back. A CMS page has no parent, author, excerpt,
 * featured image or publication date (declared in native-fields.ts).
 */

/** Magento's page settings carried as `magento` metafields, by their field name. */
export const pageSettings = [
  'content_heading',
  'page_layout',
  'layout_update_xml',
  'custom_theme',
  'custom_root_template',
  'custom_layout_update_xml',
  'custom_theme_from',
  'custom_theme_to',
] as const;

const settingSet: ReadonlySet<string> = new Set(pageSettings);

/** Magento keeps a page identifier in a varchar(100) column (cms_page.identifier). */
export const maxIdentifierLength = 100;

const text = (value: unknown): string =>
  value === undefined || value === null ? '' : String(value);

/** '2024-02-01 09:00:00' (Magento's UTC) as ISO-8601; null when absent or unreadable. */
export function isoOf(value: unknown): string | null {
  const match = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})$/.exec(text(value));
  return match ? `${match[1]}T${match[2]}Z` : null;
}

/** Meta keywords as a list: Magento keeps them as one text, separated by commas. */
export function keywordsOf(value: unknown): string[] {
  return text(value)
    .split(',')
    .map((k) => k.trim())
    .filter((k) => k !== '');
}

/** A CMS page as GET /V1/cmsPage/search answers it, in the model. */
export function pageToCanonical(native: Json): Page {
  const active = native.active === true || native.active === 1 || native.active === '1';
  const identifier = text(native.identifier);
  const order = Number(native.sort_order);
  const metafields: Metafield[] = pageSettings
    .filter((key) => text(native[key]) !== '')
    .map((key) => magentoMetafield(key, text(native[key])));
  return {
    ...pageDefaults(),
    id: String(native.id),
    title: text(native.title),
    slug: identifier,
    body: text(native.content),
    status: active ? 'published' : 'draft',
    createdAt: isoOf(native.creation_time),
    updatedAt: isoOf(native.update_time),
    seoTitle: text(native.meta_title),
    seoDescription: text(native.meta_description),
    seoKeywords: keywordsOf(native.meta_keywords),
    metafields,
    // An inactive page answers 404 on the storefront: it has no address there.
    sourceUrlPath: active && identifier ? `/${identifier}` : null,
    parentId: null,
    position: Number.isInteger(order) && order >= 0 ? order : 0,
  };
}

/** The cms-data-page-interface body of a page (without its id). */
export function pagePayload(page: Page): Json {
  const body: Json = {
    identifier: page.slug,
    title: page.title,
    content: page.body,
    meta_title: page.seoTitle,
    meta_description: page.seoDescription,
    meta_keywords: page.seoKeywords.join(', '),
    sort_order: String(page.position),
    active: page.status === 'published',
  };
  const own = magentoFields(page.metafields);
  for (const key of pageSettings) {
    const field = own.get(key);
    if (field) body[key] = String(metafieldValue(field));
  }
  return body;
}

/** The SEO fields a new page is created without when they are empty (Magento keeps them unset). */
const optionalOnCreate = ['meta_title', 'meta_description', 'meta_keywords'] as const;

/** The body of a create: as `pagePayload`, without empty SEO fields. */
export function createPayload(page: Page): Json {
  const body = pagePayload(page);
  for (const key of optionalOnCreate) if (body[key] === '') delete body[key];
  return body;
}

/**
 * Whether the stored page already holds what `payload` would write: every field sent compared
 * as Magento answers it (a field without a value is left out of an answer).
 */
export function samePage(stored: Json, payload: Json): boolean {
  return Object.entries(payload).every(([key, value]) =>
    key === 'active' ? stored.active === value : text(stored[key]) === text(value),
  );
}

/** Why a page cannot be a CMS page, before anything is sent; undefined when it can. */
export function unwritable(page: Page): string | undefined {
  if (page.slug === '')
    return 'the page has no URL key (slug), which Magento requires as the page identifier';
  if (page.slug.length > maxIdentifierLength)
    return `the URL key is longer than the ${maxIdentifierLength} characters Magento keeps for a page identifier`;
  return undefined;
}

/** Custom fields a CMS page has no place for, as report lines. */
export function fieldsNotKept(page: Page): string[] {
  return page.metafields
    .filter((m) => !(m.namespace === 'magento' && settingSet.has(m.key)))
    .map(
      (m) =>
        `custom field ${m.namespace}.${m.key} not kept: a Magento CMS page has no custom fields`,
    );
}

/** The metafields a Magento page keeps: its own settings; other custom fields have no place. */
export function pageMetafieldsKept(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  return (value as Metafield[]).filter((m) => m.namespace === 'magento' && settingSet.has(m.key));
}

/** Magento pages are active or not: every status but 'published' is an inactive page. */
export const pageStatusKept = (value: unknown): unknown =>
  typeof value === 'string' && value !== 'published' ? 'draft' : value;

/** Keywords as Magento keeps them: one text split on commas, so a comma inside one splits it. */
export const keywordsKept = (value: unknown): unknown =>
  Array.isArray(value) ? keywordsOf((value as string[]).join(',')) : value;
