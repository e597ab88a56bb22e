import { isEmptyValue, splitNativePath, type SourceField } from '../kit/fields.ts';
import { isJson, listOf, type Json } from './native.ts';

/**
 * What a read could not carry into the model, record by record: every field declared notCarried
 * in native-fields.ts that the record has a value for (Page.losses). A value counts as lost when
 * it is not empty and not what a record gets anyway (`unlessNeutral` says, per field, when a value
 * carries nothing: a link shared per the store's setting, a variant not visible on its own).
 */

export interface Loss {
  sourceId: string;
  field: string;
  reason: string;
}

/** A value found at a native path, with the object that holds it and the record itself. */
interface Found {
  value: unknown;
  holder: Json;
}

/** Every value at a native path ('items[].sku'); a list along the way gives each item's. */
export function valuesAt(record: Json, path: string): Found[] {
  let current: { value: unknown; holder: Json }[] = [{ value: record, holder: record }];
  for (const part of splitNativePath(path)) {
    const next: Found[] = [];
    for (const { value } of current) {
      if (part === '[]') {
        for (const item of Array.isArray(value) ? value : [])
          next.push({ value: item, holder: isJson(value) ? value : {} });
      } else if (isJson(value) && part in value) {
        next.push({ value: value[part], holder: value });
      }
    }
    current = next;
  }
  return current;
}

type Neutral = (value: unknown, holder: Json, record: Json) => boolean;

const standardRoles = (entries: unknown): boolean =>
  listOf(entries).every((entry, i) => {
    const roles = new Set(Array.isArray(entry.types) ? entry.types.map(String) : []);
    const expected = i === 0 ? ['image', 'small_image', 'thumbnail'] : [];
    return roles.size === expected.length && expected.every((r) => roles.has(r));
  });

const categoryIds = (product: Json): string =>
  valuesAt(product, 'extension_attributes.category_links[].category_id')
    .map((f) => String(f.value))
    .sort()
    .join(',');

/** Values of notCarried fields that carry nothing, by native path. */
const unlessNeutral: Record<string, Neutral> = {
  'extension_attributes.website_ids': (v) => !Array.isArray(v) || v.length <= 1,
  'children[].extension_attributes.website_ids': (v) => !Array.isArray(v) || v.length <= 1,
  // Judged on the whole gallery below.
  'media_gallery_entries[].types': () => true,
  'children[].media_gallery_entries[].types': () => true,
  'children[].attribute_set_id': (v, _h, record) => String(v) === String(record.attribute_set_id),
  'children[].visibility': (v) => Number(v) === 1,
  'children[].extension_attributes.category_links': (_v, child, record) =>
    categoryIds(child) === categoryIds(record),
  'extension_attributes.downloadable_product_links[].is_shareable': (v) => Number(v) === 2,
  'extension_attributes.downloadable_product_links[].sample_type': () => true,
  'items[].original_price': (v, item) => Number(v) === Number(item.price ?? 0),
  'status_histories[].status': (v, _h, order) => String(v) === String(order.status ?? ''),
  // Judged in read.ts against the store's own websites and customer groups.
  website_ids: () => true,
  customer_group_ids: () => true,
};

/** Losses of one native record under a catalogue. */
export function lossesOf(
  entity: string,
  sourceId: string,
  record: Json,
  catalogue: Readonly<Record<string, SourceField>>,
): Loss[] {
  const out: Loss[] = [];
  const add = (field: string, reason: string) => {
    if (!out.some((l) => l.field === field)) out.push({ sourceId, field, reason });
  };
  for (const [path, field] of Object.entries(catalogue)) {
    if (!('notCarried' in field)) continue;
    const neutral = unlessNeutral[path];
    const lost = valuesAt(record, path).some(
      ({ value, holder }) => !isEmptyValue(value) && !(neutral?.(value, holder, record) ?? false),
    );
    if (lost) add(path, field.notCarried);
  }
  for (const extra of partial(entity, record)) add(extra.field, extra.reason);
  return out;
}

/** Converted fields whose value this record does not fit into the model whole. */
function partial(entity: string, record: Json): { field: string; reason: string }[] {
  const out: { field: string; reason: string }[] = [];
  if (entity === 'products') {
    if (!standardRoles(record.media_gallery_entries))
      out.push({
        field: 'media_gallery_entries[].types',
        reason:
          "Magento's image roles: the first image arrives as the base, small and thumbnail image; this product gave roles to other images",
      });
    for (const child of listOf(record.children)) {
      const images = listOf(child.media_gallery_entries);
      if (images.length > 1)
        out.push({
          field: 'children[].media_gallery_entries',
          reason:
            'a variant has one image in the model; the others of this variant’s gallery are not carried',
        });
      if (!standardRoles(images.slice(0, 1)))
        out.push({
          field: 'children[].media_gallery_entries[].types',
          reason: "a variant's image arrives as its base, small and thumbnail image",
        });
    }
    const limits = new Set(
      valuesAt(record, 'extension_attributes.downloadable_product_links[].number_of_downloads').map(
        (f) => Number(f.value ?? 0),
      ),
    );
    if (limits.size > 1)
      out.push({
        field: 'extension_attributes.downloadable_product_links[].number_of_downloads',
        reason:
          'one download limit for all the files: the files of this product had different limits',
      });
    const positions = new Set(
      valuesAt(record, 'extension_attributes.category_links[].position').map((f) =>
        Number(f.value ?? 0),
      ),
    );
    if (positions.size > 1)
      out.push({
        field: 'extension_attributes.category_links[].position',
        reason:
          'one sort position for all categories: this product had different positions in its categories',
      });
    const bundle = record.extension_attributes;
    if (isJson(bundle) && listOf(bundle.bundle_product_options).length)
      out.push({
        field: 'extension_attributes.bundle_product_options',
        reason:
          'the model has no bundles: the bundle arrives as a grouped product of its parts, without its options, quantities and prices',
      });
  }
  if (entity === 'orders') {
    const mixed = listOf(record.status_histories).some(
      (h) => Number(h.is_customer_notified ?? 0) !== Number(h.is_visible_on_front ?? 0),
    );
    if (mixed)
      out.push({
        field: 'status_histories[].is_visible_on_front',
        reason:
          'a note is either a customer note or not: one the customer was sent but not shown, or shown but not sent, arrives as a customer note (sent and shown)',
      });
    if (listOf(record.creditmemos).some((m) => listOf(m.comments).length > 1))
      out.push({
        field: 'creditmemos[].comments[].comment',
        reason: 'a refund has one reason: the further comments of a credit memo are not carried',
      });
    if (listOf(record.invoices).length > 1)
      out.push({
        field: 'invoices',
        reason:
          'the order was invoiced in several parts: it arrives with one invoice, of the first date',
      });
  }
  return out;
}
