import { MagentoError } from './magento-error.ts';
import {
  checkKeys,
  magentoTime,
  objectField,
  optionalBool,
  optionalInt,
  optionalString,
  type Json,
} from './input.ts';
import type { FieldAccessor } from './search-criteria.ts';

/**
 * CMS pages as Magento_Cms keeps them (PageRepository, ResourceModel\Page), behind
 * GET/POST /V1/cmsPage, GET/PUT/DELETE /V1/cmsPage/{id} and GET /V1/cmsPage/search. What a REST
 * client meets:
 * - the body's fields are those of cms-data-page-interface, anything else is refused as the web
 *   API refuses an unknown property; `identifier` is required;
 * - ResourceModel\Page::_beforeSave refuses an identifier with capitals, spaces or other symbols
 *   (it must match ^[a-z0-9][a-z0-9_/-]+(\.[a-z0-9_-]+)?$), one made only of digits, and one a
 *   page of the same store view already has; PageRepository refuses one equal to a storefront
 *   route's front name (contact, checkout, customer…); each wrapped in "Could not save the page";
 * - a page belongs to the store views of the request's scope: /rest/all/V1 saves it for all
 *   store views (store id 0), /rest/default/V1 and /rest/V1 for the default view (1). The
 *   interface has no store field, so an answer never shows it;
 * - PUT /V1/cmsPage/{id} loads the stored page and sets the fields sent on it;
 * - creation_time and update_time are Magento's own (any sent are ignored);
 * - answers leave out fields that hold no value (null), as the web API's output processor does.
 */

export interface CmsPageRecord {
  page_id: number;
  identifier: string;
  title: string | null;
  page_layout: string | null;
  meta_title: string | null;
  meta_keywords: string | null;
  meta_description: string | null;
  content_heading: string | null;
  content: string | null;
  creation_time: string;
  update_time: string;
  sort_order: string;
  layout_update_xml: string | null;
  custom_theme: string | null;
  custom_root_template: string | null;
  custom_layout_update_xml: string | null;
  custom_theme_from: string | null;
  custom_theme_to: string | null;
  active: boolean;
  /** Store views it shows on (0: all). */
  store_ids: number[];
}

const pageClass = 'Magento\\Cms\\Api\\Data\\PageInterface';

const pageKeys = [
  'id',
  'identifier',
  'title',
  'page_layout',
  'meta_title',
  'meta_keywords',
  'meta_description',
  'content_heading',
  'content',
  'creation_time',
  'update_time',
  'sort_order',
  'layout_update_xml',
  'custom_theme',
  'custom_root_template',
  'custom_layout_update_xml',
  'custom_theme_from',
  'custom_theme_to',
  'active',
] as const;

type TextKey =
  | 'title'
  | 'page_layout'
  | 'meta_title'
  | 'meta_keywords'
  | 'meta_description'
  | 'content_heading'
  | 'content'
  | 'layout_update_xml'
  | 'custom_theme'
  | 'custom_root_template'
  | 'custom_layout_update_xml';

const textKeys: readonly TextKey[] = [
  'title',
  'page_layout',
  'meta_title',
  'meta_keywords',
  'meta_description',
  'content_heading',
  'content',
  'layout_update_xml',
  'custom_theme',
  'custom_root_template',
  'custom_layout_update_xml',
];

/** Page layouts of Magento_Theme (page_layouts.xml). */
const pageLayouts = new Set([
  'empty',
  '1column',
  '2columns-left',
  '2columns-right',
  '3columns',
  'cms-full-width',
  'category-full-width',
  'product-full-width',
]);

/**
 * Front names of the storefront routes of a Magento 2.4 installation (each module's
 * etc/frontend/routes.xml): a page of one of these identifiers would never be reached.
 */
export const routeFrontNames = new Set([
  'catalog',
  'catalogsearch',
  'checkout',
  'cms',
  'contact',
  'cookie',
  'customer',
  'directory',
  'downloadable',
  'multishipping',
  'newsletter',
  'paypal',
  'persistent',
  'review',
  'rss',
  'sales',
  'search',
  'sendfriend',
  'shipping',
  'swagger',
  'tag',
  'vault',
  'wishlist',
]);

const couldNotSave = (reason: string) =>
  new MagentoError(400, 'Could not save the page: %1', [reason]);

function dateOrNull(value: unknown, field: string): string | null {
  const text = optionalString(value)?.trim();
  if (!text) return null;
  const match = /^(\d{4}-\d{2}-\d{2})/.exec(text);
  if (!match?.[1] || Number.isNaN(new Date(`${match[1]}T00:00:00Z`).getTime()))
    throw new MagentoError(400, 'Invalid value of "%value" provided for the %fieldName field.', {
      fieldName: field,
      value: text,
    });
  return match[1];
}

export class CmsPages {
  readonly pages = new Map<number, CmsPageRecord>();
  private nextId = 1;

  /** Store ids a request of this scope saves a page for. */
  static storesOf(storeCode: string): number[] {
    return storeCode === 'all' ? [0] : [1];
  }

  get(id: number): CmsPageRecord {
    const page = this.pages.get(id);
    if (!page) throw new MagentoError(404, 'The CMS page with the "%1" ID doesn\'t exist.', [id]);
    return page;
  }

  delete(id: number): boolean {
    this.get(id);
    this.pages.delete(id);
    return true;
  }

  /** POST (no id) or PUT (`id` from the path) of `{page: {...}}`. */
  save(body: Json, storeIds: number[], id?: number): CmsPageRecord {
    if (body.page === undefined || body.page === null)
      throw new MagentoError(400, '"%fieldName" is required. Enter and try again.', {
        fieldName: 'page',
      });
    const input = objectField(body.page, pageClass);
    checkKeys(input, pageKeys, pageClass);
    const pageId = id ?? optionalInt(input.id);
    const existing = pageId !== undefined ? this.pages.get(pageId) : undefined;
    if (id !== undefined && !existing) this.get(id);
    const identifier = optionalString(input.identifier) ?? existing?.identifier;
    if (identifier === undefined || (!existing && identifier === ''))
      throw new MagentoError(400, '"%fieldName" is required. Enter and try again.', {
        fieldName: 'identifier',
      });
    const now = magentoTime();
    const page: CmsPageRecord = existing
      ? { ...existing }
      : {
          page_id: pageId ?? this.nextId,
          identifier,
          title: null,
          page_layout: null,
          meta_title: null,
          meta_keywords: null,
          meta_description: null,
          content_heading: null,
          content: null,
          creation_time: now,
          update_time: now,
          sort_order: '0',
          layout_update_xml: null,
          custom_theme: null,
          custom_root_template: null,
          custom_layout_update_xml: null,
          custom_theme_from: null,
          custom_theme_to: null,
          active: true,
          store_ids: storeIds,
        };
    page.identifier = identifier;
    for (const key of textKeys) {
      if (key in input) page[key] = optionalString(input[key]) ?? null;
    }
    if ('sort_order' in input) page.sort_order = String(optionalInt(input.sort_order) ?? 0);
    if ('active' in input) page.active = optionalBool(input.active) ?? true;
    if ('custom_theme_from' in input)
      page.custom_theme_from = dateOrNull(input.custom_theme_from, 'custom_theme_from');
    if ('custom_theme_to' in input)
      page.custom_theme_to = dateOrNull(input.custom_theme_to, 'custom_theme_to');
    this.check(page);
    page.update_time = now;
    if (page.page_id >= this.nextId) this.nextId = page.page_id + 1;
    this.pages.set(page.page_id, page);
    return page;
  }

  /** What PageRepository::save and ResourceModel\Page::_beforeSave refuse. */
  private check(page: CmsPageRecord): void {
    const id = page.identifier;
    if (!/^[a-z0-9][a-z0-9_/-]+(\.[a-z0-9_-]+)?$/.test(id))
      throw couldNotSave(
        "The page URL key can't use capital letters or disallowed symbols. Remove the letters and symbols and try again.",
      );
    if (/^[0-9]+$/.test(id))
      throw couldNotSave(
        "The page URL key can't use only numbers. Add letters or words and try again.",
      );
    if (routeFrontNames.has(id))
      throw couldNotSave(
        'The value specified in the URL Key field would generate a URL that already exists.',
      );
    if (page.page_layout !== null && page.page_layout !== '' && !pageLayouts.has(page.page_layout))
      throw couldNotSave(`Invalid page layout "${page.page_layout}".`);
    for (const other of this.pages.values()) {
      if (other.page_id === page.page_id || other.identifier !== id) continue;
      if (other.store_ids.some((s) => page.store_ids.includes(s)))
        throw couldNotSave(
          'The value specified in the URL Key field would generate a URL that already exists.',
        );
    }
  }

  json(page: CmsPageRecord): Json {
    const out: Json = { id: page.page_id, identifier: page.identifier };
    const rest: [string, unknown][] = [
      ['title', page.title],
      ['page_layout', page.page_layout],
      ['meta_title', page.meta_title],
      ['meta_keywords', page.meta_keywords],
      ['meta_description', page.meta_description],
      ['content_heading', page.content_heading],
      ['content', page.content],
      ['creation_time', page.creation_time],
      ['update_time', page.update_time],
      ['sort_order', page.sort_order],
      ['layout_update_xml', page.layout_update_xml],
      ['custom_theme', page.custom_theme],
      ['custom_root_template', page.custom_root_template],
      ['custom_layout_update_xml', page.custom_layout_update_xml],
      ['custom_theme_from', page.custom_theme_from],
      ['custom_theme_to', page.custom_theme_to],
      ['active', page.active],
    ];
    for (const [key, value] of rest) if (value !== null) out[key] = value;
    return out;
  }

  /** Search fields: the page table's columns (page_id or id, is_active or active, store_id). */
  readonly field: FieldAccessor<CmsPageRecord> = (page, field) => {
    switch (field) {
      case 'id':
      case 'page_id':
        return page.page_id;
      case 'active':
      case 'is_active':
        return page.active ? 1 : 0;
      case 'store_id':
        return page.store_ids;
      case 'sort_order':
        return Number(page.sort_order);
      case 'creation_time':
      case 'update_time':
        return page[field];
      default:
        if ((textKeys as readonly string[]).includes(field) || field === 'identifier')
          return page[field as TextKey | 'identifier'];
        throw new MagentoError(400, 'Invalid attribute name: %1', [field]);
    }
  };
}
