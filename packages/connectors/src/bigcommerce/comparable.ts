import { sortMetafields, type Metafield } from '@replatform/canonical/metafield';
import type { Order } from '@replatform/canonical/order';
import { fieldMetafield, fieldsNamespace } from './extras.ts';
import { bigCommerceOrderSource, noteText } from './map-order.ts';

/**
 * Another platform's custom fields as a BigCommerce destination keeps them
 * (DestinationFields.comparable): metafields under the same namespace, read back as
 * 'bigcommerce.<namespace>' with a text value. Fields BigCommerce refuses (empty, or a name or
 * value too long) stay as they were, so they still count as a difference.
 */
export function asBigCommerceKeeps(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  return sortMetafields(
    (value as Metafield[]).map((m) =>
      m.namespace.startsWith('bigcommerce') ||
      m.namespace.length > 64 ||
      m.key.length > 64 ||
      m.value === '' ||
      m.value.length > 65_535
        ? m
        : { namespace: `bigcommerce.${m.namespace}`, key: m.key, value: m.value, type: 'string' },
    ),
  );
}

/**
 * An order's notes as BigCommerce keeps them: appended to its staff notes (a BigCommerce field
 * read back as the custom field bigcommerce_fields.staff_notes), each with its date, its author
 * and whether the customer saw it. Declared before 'notes', which it reads.
 */
export function notesInStaffNotes(
  value: unknown,
  order: Readonly<Record<string, unknown>>,
): unknown {
  if (!Array.isArray(value)) return value;
  const notes = Array.isArray(order.notes) ? (order.notes as Order['notes']) : [];
  if (notes.length === 0) return value;
  const fields = value as Metafield[];
  const staff = fields.find((m) => m.namespace === fieldsNamespace && m.key === 'staff_notes');
  const text = [staff?.value, ...notes.map(noteText)]
    .filter((t): t is string => typeof t === 'string' && t !== '')
    .join('\n\n')
    .slice(0, 65_535);
  return sortMetafields([
    ...fields.filter((m) => m !== staff),
    fieldMetafield('staff_notes', 'html', text),
  ]);
}

/** The notes themselves are in the staff notes (see notesInStaffNotes). */
export const notesKept = (value: unknown): unknown => (Array.isArray(value) ? [] : value);

/**
 * A product's weight as BigCommerce keeps it: a product without options has one weight, its
 * variant's, so a source that kept it only on the variant compares by that weight.
 */
export function weightOfOneVariant(
  value: unknown,
  product: Readonly<Record<string, unknown>>,
): unknown {
  if (value !== null) return value;
  const variants = Array.isArray(product.variants) ? (product.variants as unknown[]) : [];
  const options = Array.isArray(product.options) ? product.options : [];
  if (variants.length !== 1 || options.length > 0) return value;
  const only = variants[0] as Record<string, unknown> | undefined;
  return only?.weight ?? value;
}

/**
 * Variants as BigCommerce keeps them: a product is physical or digital, and a digital one is
 * both virtual (nothing shipped) and downloadable. A physical variant stays physical.
 */
export function digitalAsBoth(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  return value.map((v: unknown) => {
    if (v === null || typeof v !== 'object') return v;
    const variant = v as Record<string, unknown>;
    const digital = variant.virtual === true || variant.downloadable === true;
    return digital ? { ...variant, virtual: true, downloadable: true } : variant;
  });
}

/** Where an order came from, in BigCommerce's words when it has them (see bigCommerceOrderSource). */
export function asOrderSource(value: unknown): unknown {
  return typeof value === 'string' ? (bigCommerceOrderSource(value) ?? value) : value;
}

/**
 * The billing address's e-mail as BigCommerce keeps it: the only e-mail of an order, so an
 * address without one holds the buyer's. An address with another e-mail than the buyer's keeps
 * it, and then the order's e-mail compares different.
 */
export function buyerEmailOnBilling(
  value: unknown,
  order: Readonly<Record<string, unknown>>,
): unknown {
  return value === '' && typeof order.email === 'string' ? order.email : value;
}

/**
 * A page's or post's status as BigCommerce keeps it: published, or hidden (read back as 'draft')
 * for every other status.
 */
export function hiddenAsDraft(value: unknown): unknown {
  return typeof value === 'string' && value !== 'published' ? 'draft' : value;
}
