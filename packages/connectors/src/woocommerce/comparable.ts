import { sortMetafields, type Metafield } from '@replatform/canonical/metafield';
import { reviewTextForm } from './comment-text.ts';
import { createdVia } from './markers.ts';
import { metafieldsToMeta, metaToMetafields } from './metafields.ts';
import { termSlug } from './slugs.ts';

/**
 * Custom fields as a WooCommerce destination keeps them (DestinationFields.comparable): written
 * as meta data (another platform's key prefixed with its namespace) and read back, so a
 * verification compares the meta data WooCommerce holds.
 */
export function asWooKeeps(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  return sortMetafields(metaToMetafields(metafieldsToMeta(value as Metafield[])));
}

/** WooCommerce has no archived status: an archived product is written as private. */
export const statusKept = (value: unknown): unknown => (value === 'archived' ? 'private' : value);

/**
 * WooCommerce gives every account a username: one the source had is written as it was, an
 * account without one gets the one WooCommerce derives from the e-mail (the part before '@',
 * without '+' and what WordPress refuses in a username, lower-cased, with '-2', '-3'... when it is
 * taken). Such a derived name stands for "none".
 */
export function usernameKept(value: unknown, record: Readonly<Record<string, unknown>>): unknown {
  if (typeof value !== 'string' || value === '' || typeof record.email !== 'string') return value;
  const local = record.email.split('@')[0] ?? '';
  const clean = (text: string) => text.replace(/[^A-Za-z0-9_.@ -]/g, '').toLowerCase();
  const derived = new Set([clean(local.replace(/\+.*$/, '')), clean(local)]);
  const base = value.replace(/-\d+$/, '');
  return derived.has(value) || derived.has(base) ? '' : value;
}

/** WooCommerce lower-cases coupon codes (wc_format_coupon_code). */
export const couponCodeKept = (value: unknown): unknown =>
  typeof value === 'string' ? value.toLowerCase() : value;

/** WooCommerce keeps a coupon's e-mail restrictions lower case (WC_Coupon::set_email_restrictions). */
export const allowedEmailsKept = (value: unknown): unknown =>
  Array.isArray(value) ? value.map((e) => (typeof e === 'string' ? e.toLowerCase() : e)) : value;

/**
 * WooCommerce keeps one e-mail on an order, the billing address's: an order's e-mail is written
 * there when the billing address has none. A billing e-mail that is the order's own stands for
 * "none" (the order's e-mail is compared on its own).
 */
export function billingEmailKept(
  value: unknown,
  record: Readonly<Record<string, unknown>>,
): unknown {
  return typeof value === 'string' && value === record.email ? '' : value;
}

/**
 * WooCommerce always names where an order was created; an order whose source did not is written
 * as created by the import (the marker), which stands for "none".
 */
export const createdViaKept = (value: unknown): unknown => (value === createdVia ? '' : value);

interface SharedTerm {
  name: string;
  slug: string;
  description: string;
  position: number;
}
interface SharedDefinition {
  archives: boolean;
  termOrder: string;
  terms: SharedTerm[];
}

/**
 * A store-wide attribute written for a source that kept nothing beyond its slug is created with
 * WooCommerce's defaults (no archives, terms sorted by hand, unsorted or in the order of the product's values,
 * slugs made from the names, no descriptions): such a definition says nothing the product's
 * options and attributes do not, and stands for "none". A definition with anything of its own
 * (archives, another order, a slug or description of a term) stays.
 */
export function sharedAttributesKept(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  return (value as SharedDefinition[]).filter(
    (d) =>
      d.archives ||
      d.termOrder !== 'position' ||
      d.terms.some(
        (t, i) =>
          t.description !== '' ||
          (t.position !== i && t.position !== 0) ||
          t.slug !== termSlug(t.name),
      ),
  );
}

/**
 * The values of an option from a store-wide attribute (pa_*), which WooCommerce lists in the
 * attribute's own term order, not in the order they were sent: compared as a set. The values of a
 * product's own option keep their order.
 */
export function sharedOptionsKept(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  return (value as { values?: unknown; shared?: unknown }[]).map((o) =>
    o.shared && Array.isArray(o.values)
      ? { ...o, values: [...(o.values as string[])].sort((a, b) => a.localeCompare(b)) }
      : o,
  );
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * A product with a single variant (a simple product) has one weight in WooCommerce: a product
 * without a weight of its own whose variant has one is kept with the variant's.
 */
export function productWeightKept(
  value: unknown,
  record: Readonly<Record<string, unknown>>,
): unknown {
  const variants = record.variants;
  if (value !== null || !Array.isArray(variants) || variants.length !== 1) return value;
  return (variants[0] as { weight?: unknown }).weight ?? null;
}

/**
 * A variation whose weight or dimensions are its product's leaves them empty in WooCommerce and
 * inherits them: the same value as the product's stands for "the product's" (null, or no
 * dimensions of its own).
 */
export const variantWeightKept = (value: unknown, record: Readonly<Record<string, unknown>>) =>
  value !== null && same(value, record.weight) ? null : value;
export const variantDimensionsKept = (
  value: unknown,
  record: Readonly<Record<string, unknown>>,
): unknown => (value !== null && same(value, record.dimensions) ? undefined : value);

const single = (record: Readonly<Record<string, unknown>>) =>
  (record.type === 'simple' || record.type === 'external') &&
  Array.isArray(record.variants) &&
  record.variants.length === 1
    ? (record.variants[0] as { metafields?: unknown })
    : undefined;

/**
 * A product's custom fields as WooCommerce keeps them (see asWooKeeps); a simple product is its
 * only variant, so that variant's custom fields are kept with the product's.
 */
export function productMetafieldsKept(
  value: unknown,
  record: Readonly<Record<string, unknown>>,
): unknown {
  const variant = single(record);
  if (!Array.isArray(value)) return value;
  return asWooKeeps(
    variant && Array.isArray(variant.metafields) ? [...value, ...variant.metafields] : value,
  );
}

/** A variant's custom fields as WooCommerce keeps them: a simple product's go to the product. */
export function variantMetafieldsKept(
  value: unknown,
  record: Readonly<Record<string, unknown>>,
): unknown {
  return single(record) ? [] : asWooKeeps(value);
}

/** A line entry's key and value as WooCommerce's attribute slugs ('pa_color'/'Black' -> 'color'/'black'). */
const optionForm = (entry: { key: string; value: string }) =>
  `${entry.key.replace(/^pa_/, '').trim().toLowerCase().replace(/\s+/g, '-')}\u0000${entry.value
    .trim()
    .toLowerCase()
    .replace(/\s+/g, '-')}`;

/**
 * A line that points at a variation gets the variation's attributes added to its details by
 * WooCommerce (WC_Order_Item_Product::set_variation: `pa_color: black` for a store-wide
 * attribute, `color: Black` for the product's own), beside the entries the source line had
 * (`Color: Black`). An entry that is the same option as another one on the line, in slug form,
 * counts once (the source's own, written last, is kept). Every other entry stays as it is, so
 * a detail that did not arrive still differs.
 */
export function lineMetaKept(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  const entries = value as { key: string; value: string }[];
  const last = new Map(entries.map((entry, i) => [optionForm(entry), i]));
  return entries.filter((entry, i) => last.get(optionForm(entry)) === i);
}

/** WordPress adds rel "nofollow ugc" to the links of a review's text when it saves it. */
export const reviewTextKept = (value: unknown): unknown =>
  typeof value === 'string' ? reviewTextForm(value) : value;
