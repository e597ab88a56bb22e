import { neutralValue } from '@replatform/canonical/defaults';
import type { EntityType } from '@replatform/canonical/entities';

/**
 * What happens to one of a platform's own fields when its store is a migration's source. Every
 * field the platform's API answers with is declared here, so a field nobody thought about is a
 * failing test (see undeclaredFields), never a silent loss.
 *
 * - carried: read into the canonical path(s) named and written from there by destinations;
 * - converted: the same, with a change of form that keeps the meaning (`how` says which);
 * - assigned: the platform decides it (ids, dates it stamps, links to its own copies, totals it
 *   computes from other fields); a migration neither reads nor compares it;
 * - notCarried: the model has no place for it; every record with a value for it reports it as a
 *   known difference with `why`.
 *
 * `ref` names what an id field points at (its value is mapped through the id map when two stores
 * are compared); `unordered` marks a list whose order carries no meaning.
 */
export type SourceField = (
  | { carried: string | readonly string[] }
  | {
      converted: string | readonly string[];
      how: string;
      /**
       * The value's meaning, for comparing two stores of this platform on their own fields: two
       * notations of one value ('12.00' and '12') must compare equal, two values must not.
       */
      meaning?: (value: unknown) => unknown;
    }
  | { assigned: string }
  | { notCarried: string }
) & { ref?: EntityType | 'variants'; unordered?: boolean };

/**
 * A platform's own fields per entity, as its API names them: dotted paths, `[]` for the items of
 * a list ('images[].alt', 'meta_data[].key'). A declared path covers everything beneath it
 * unless a deeper path is declared too.
 */
export type NativeCatalogue = Partial<Record<EntityType, Readonly<Record<string, SourceField>>>>;

/** Canonical paths a destination writes differently, or cannot write, with the reason. */
export interface DestinationFields {
  /** Canonical path -> why this platform cannot hold it (reported per record that had a value). */
  unsupported?: Readonly<Record<string, string>>;
  /** Canonical path -> how it is written in another form that keeps the meaning. */
  converted?: Readonly<Record<string, string>>;
  /**
   * Canonical path (declared in `converted`) -> the form this destination keeps a value of it in.
   * A verification passes the source's value and the destination's through it alike, so a
   * conversion is compared by what it keeps (the same custom field under a namespace of the
   * destination's), never waved through. A value already in the destination's form must come
   * back unchanged, and a value the conversion would lose must not be made equal.
   */
  comparable?: Readonly<
    Record<string, (value: unknown, record: Readonly<Record<string, unknown>>) => unknown>
  >;
}

/**
 * Rewrites, in place, the fields of a record's comparable form that the destination keeps in
 * another form (DestinationFields.comparable), in their order of declaration; lists along a path
 * are walked item by item, and each conversion also sees the whole record.
 */
export function inDestinationForm(
  form: Record<string, unknown>,
  destination: DestinationFields | undefined,
): Record<string, unknown> {
  const apply = (
    value: unknown,
    parts: string[],
    convert: (value: unknown, record: Readonly<Record<string, unknown>>) => unknown,
  ): void => {
    if (Array.isArray(value)) {
      for (const item of value) apply(item, parts, convert);
      return;
    }
    if (value === null || typeof value !== 'object') return;
    const record = value as Record<string, unknown>;
    const [head, ...rest] = parts;
    if (head === undefined || !(head in record)) return;
    if (rest.length === 0) record[head] = convert(record[head], form);
    else apply(record[head], rest, convert);
  };
  for (const [path, convert] of Object.entries(destination?.comparable ?? {}))
    apply(form, path.split('.'), convert);
  return form;
}

export type FieldFate =
  | { fate: 'carried' }
  | { fate: 'converted'; how: string }
  | { fate: 'not representable'; why: string }
  | { fate: 'assigned'; why: string };

export function canonicalPathsOf(field: SourceField): readonly string[] {
  if ('carried' in field)
    return typeof field.carried === 'string' ? [field.carried] : field.carried;
  if ('converted' in field)
    return typeof field.converted === 'string' ? [field.converted] : field.converted;
  return [];
}

/** The declaration that applies to a canonical path: its own, or that of the nearest parent. */
export function declaredFor<T>(
  table: Readonly<Record<string, T>> | undefined,
  path: string,
): T | undefined {
  if (!table) return undefined;
  const parts = path.split('.');
  for (let i = parts.length; i > 0; i -= 1) {
    const found = table[parts.slice(0, i).join('.')];
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * The fate of one source field at one destination: carried, converted (by the source's reading
 * or the destination's writing), not representable (with the destination's reason), or assigned
 * by the source platform.
 */
export function fieldFate(field: SourceField, destination: DestinationFields): FieldFate {
  if ('assigned' in field) return { fate: 'assigned', why: field.assigned };
  if ('notCarried' in field) return { fate: 'not representable', why: field.notCarried };
  const paths = canonicalPathsOf(field);
  const lost = paths
    .map((p) => declaredFor(destination.unsupported, p))
    .filter((why): why is string => why !== undefined);
  if (lost.length === paths.length && lost.length > 0)
    return { fate: 'not representable', why: [...new Set(lost)].join(' ') };
  const hows = [
    ...('how' in field ? [field.how] : []),
    ...paths
      .map((p) => declaredFor(destination.converted, p))
      .filter((how): how is string => how !== undefined),
    ...lost.map((why) => `partly: ${why}`),
  ];
  return hows.length > 0
    ? { fate: 'converted', how: [...new Set(hows)].join(' ') }
    : { fate: 'carried' };
}

/** A canonical field a destination could not hold, for one record. */
export interface KnownDifference {
  field: string;
  reason: string;
}

/** '', 0, false, null, nothing, and lists or objects made only of those. */
export function isEmptyValue(value: unknown): boolean {
  if (value === undefined || value === null || value === '' || value === 0 || value === false)
    return true;
  if (Array.isArray(value)) return value.every(isEmptyValue);
  if (typeof value === 'object') return Object.values(value).every(isEmptyValue);
  return false;
}

/** The value at a dotted canonical path; lists along the way give the list of their items' values. */
export function valueAt(value: unknown, path: string): unknown {
  let current: unknown = value;
  const parts = path.split('.');
  for (const [i, key] of parts.entries()) {
    if (Array.isArray(current))
      return current.map((item) => valueAt(item, parts.slice(i).join('.')));
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/**
 * Whether a record has something to carry in a field: a value that is neither empty nor the
 * field's neutral value (a product that is not featured has nothing to carry in `featured`, one
 * that is 'visible' nothing in `visibility`).
 */
export function hasValue(entity: EntityType, record: unknown, path: string): boolean {
  const neutral = JSON.stringify(neutralValue(entity, path));
  const meaningful = (value: unknown): boolean =>
    Array.isArray(value) && path.includes('.') && !Array.isArray(neutralValue(entity, path))
      ? value.some(meaningful)
      : !isEmptyValue(value) && JSON.stringify(value) !== neutral;
  return meaningful(valueAt(record, path));
}

/**
 * The canonical fields of a record that a destination declares it cannot hold and that the
 * record has a value for: each is a known difference the record's report line names.
 */
export function knownDifferences(
  entity: EntityType,
  record: unknown,
  destination: DestinationFields,
): KnownDifference[] {
  const out: KnownDifference[] = [];
  for (const [field, reason] of Object.entries(destination.unsupported ?? {})) {
    if (hasValue(entity, record, field)) out.push({ field, reason });
  }
  return out;
}

interface DeclNode {
  field?: SourceField;
  children: Map<string, DeclNode>;
}

function treeOf(catalogue: Readonly<Record<string, SourceField>>): DeclNode {
  const root: DeclNode = { children: new Map() };
  for (const [path, field] of Object.entries(catalogue)) {
    let node = root;
    for (const part of splitNativePath(path)) {
      let next = node.children.get(part);
      if (!next) {
        next = { children: new Map() };
        node.children.set(part, next);
      }
      node = next;
    }
    node.field = field;
  }
  return root;
}

/** 'images[].alt' -> ['images', '[]', 'alt']. */
export function splitNativePath(path: string): string[] {
  return path
    .split('.')
    .flatMap((part) => (part.endsWith('[]') ? [part.slice(0, -2), '[]'] : [part]))
    .filter((part) => part !== '');
}

/**
 * Paths (in catalogue form) of every field a native record holds that the catalogue does not
 * declare, themselves or through a declared parent. Empty objects and lists count as present:
 * a platform that answers a field at all has it.
 */
export function undeclaredFields(
  record: unknown,
  catalogue: Readonly<Record<string, SourceField>>,
): string[] {
  const out = new Set<string>();
  const walk = (value: unknown, node: DeclNode, path: string[]) => {
    if (node.field) return;
    if (Array.isArray(value)) {
      const items = node.children.get('[]');
      if (!items) {
        if (path.length > 0) out.add(joinNativePath(path));
        return;
      }
      for (const item of value) walk(item, items, [...path, '[]']);
      return;
    }
    if (value !== null && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) {
        const next = node.children.get(key);
        if (!next) out.add(joinNativePath([...path, key]));
        else walk(child, next, [...path, key]);
      }
      return;
    }
    if (path.length > 0) out.add(joinNativePath(path));
  };
  walk(record, treeOf(catalogue), []);
  return [...out].sort();
}

function joinNativePath(parts: string[]): string {
  return parts.reduce(
    (acc, part) => (part === '[]' ? `${acc}[]` : acc ? `${acc}.${part}` : part),
    '',
  );
}

/** Maps an id found in a destination record back to the source id it was migrated from. */
export type RefMapper = (kind: EntityType | 'variants', id: string) => string | undefined;

/**
 * The comparable form of a native record: only the fields the catalogue carries (converted ones
 * included), ids in `ref` fields mapped (destination ids through `toSource`, source ids kept),
 * unordered lists sorted. Two stores of the same platform hold the same data exactly when the
 * comparable forms of their records are equal.
 */
export function comparableNative(
  record: unknown,
  catalogue: Readonly<Record<string, SourceField>>,
  toSource?: RefMapper,
): unknown {
  const kept = (field: SourceField | undefined) =>
    field !== undefined && !('assigned' in field) && !('notCarried' in field);
  // Whether anything at or below a node is compared.
  const compared = (node: DeclNode, inherited: SourceField | undefined): boolean => {
    const own = node.field ?? inherited;
    if (kept(own)) return true;
    return [...node.children.values()].some((child) => compared(child, undefined));
  };
  const empty: DeclNode = { children: new Map() };
  const project = (value: unknown, node: DeclNode, inherited: SourceField | undefined): unknown => {
    const own = node.field ?? inherited;
    if (!compared(node, inherited)) return undefined;
    if (Array.isArray(value)) {
      const items = node.children.get('[]') ?? empty;
      const list = value
        .map((item) => project(item, items, own))
        .filter((item) => item !== undefined);
      return own?.unordered || items.field?.unordered
        ? list.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))
        : list;
    }
    if (value !== null && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [key, child] of Object.entries(value)) {
        const next = node.children.get(key);
        if (!next && !kept(own)) continue;
        const projected = project(child, next ?? empty, own);
        if (projected !== undefined) out[key] = projected;
      }
      return out;
    }
    if (!kept(own)) return undefined;
    if (own && 'meaning' in own && own.meaning) return own.meaning(value);
    // Ids are positive: 0, '' and negative numbers in an id field are values, not ids (BigCommerce
    // answers related_products [-1] for "chosen automatically").
    const id =
      typeof value === 'number' ? value > 0 : value !== null && value !== undefined && value !== '';
    if (own?.ref && id) {
      const id = String(value);
      return toSource ? (toSource(own.ref, id) ?? `unmapped:${id}`) : id;
    }
    return value;
  };
  return project(record, treeOf(catalogue), undefined);
}

/** Dotted paths where two comparable forms differ ('images[2].alt'), at most `limit` of them. */
export function differingPaths(a: unknown, b: unknown, limit = 50): string[] {
  const out: string[] = [];
  const walk = (x: unknown, y: unknown, path: string) => {
    if (out.length >= limit) return;
    if (Array.isArray(x) && Array.isArray(y)) {
      if (x.length !== y.length) out.push(`${path}.length (${x.length} vs ${y.length})`);
      for (let i = 0; i < Math.min(x.length, y.length); i += 1) walk(x[i], y[i], `${path}[${i}]`);
      return;
    }
    if (
      x &&
      y &&
      typeof x === 'object' &&
      typeof y === 'object' &&
      !Array.isArray(x) &&
      !Array.isArray(y)
    ) {
      for (const key of new Set([...Object.keys(x), ...Object.keys(y)]))
        walk(
          (x as Record<string, unknown>)[key],
          (y as Record<string, unknown>)[key],
          path ? `${path}.${key}` : key,
        );
      return;
    }
    if (JSON.stringify(x) !== JSON.stringify(y)) out.push(path || '(record)');
  };
  walk(a, b, '');
  return out;
}
