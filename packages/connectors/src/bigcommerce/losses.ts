import { isEmptyValue, splitNativePath, type SourceField } from '../kit/fields.ts';

/**
 * The native fields of a record that the model cannot carry (declared notCarried) and that hold
 * something: each is a known difference of the record (Page.losses). A field holding what
 * BigCommerce gives a new record (`neutral`, by path; a function of the object holding the
 * field when it depends on its neighbours) holds nothing to carry.
 */
export type Neutral = unknown | ((holder: Record<string, unknown>) => unknown);

export interface Loss {
  field: string;
  reason: string;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Empty, or an amount of nothing as v2 writes it ('0.0000'). */
const nothing = (value: unknown) =>
  isEmptyValue(value) || (typeof value === 'string' && /^-?0+(\.0+)?$/.test(value));

/** Every (value, object holding it) at a catalogue path, through lists. */
function valuesAt(
  record: unknown,
  parts: string[],
): { value: unknown; holder: Record<string, unknown> }[] {
  let current: { value: unknown; holder: Record<string, unknown> }[] = [
    { value: record, holder: {} },
  ];
  for (const part of parts) {
    const next: typeof current = [];
    for (const { value } of current) {
      if (part === '[]') {
        if (Array.isArray(value)) for (const item of value) next.push({ value: item, holder: {} });
        continue;
      }
      if (value === null || typeof value !== 'object' || Array.isArray(value)) continue;
      const holder = value as Record<string, unknown>;
      if (part in holder) next.push({ value: holder[part], holder });
    }
    current = next;
  }
  return current;
}

export function nativeLosses(
  record: unknown,
  catalogue: Readonly<Record<string, SourceField>>,
  neutral: Readonly<Record<string, Neutral>> = {},
): Loss[] {
  const out: Loss[] = [];
  for (const [path, field] of Object.entries(catalogue)) {
    if (!('notCarried' in field)) continue;
    const rule = neutral[path];
    const meaningful = valuesAt(record, splitNativePath(path)).some(({ value, holder }) => {
      if (nothing(value)) return false;
      if (rule === undefined) return true;
      const expected =
        typeof rule === 'function' ? (rule as (h: typeof holder) => unknown)(holder) : rule;
      return !same(value, expected);
    });
    if (meaningful) out.push({ field: path, reason: field.notCarried });
  }
  return out;
}
