import { sortMetafields, type Metafield } from '@replatform/canonical/metafield';
import type { Order } from '@replatform/canonical/order';
import { fieldMetafield, fieldsNamespace } from './extras.ts';
import { noteText } from './map-order.ts';

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
