/**
 * Stripe's request encoding: `application/x-www-form-urlencoded` with bracketed keys for nesting
 * (`line_items[0][price_data][currency]=usd`, `metadata[key]=value`, `expand[]=x`), the same in
 * query strings. Keys made only of indexes become arrays, in index order.
 */

export type FormValue = string | FormValue[] | { [key: string]: FormValue };
export type FormObject = { [key: string]: FormValue };

/** Splits `a[b][0]` into ['a', 'b', '0']; an empty `[]` becomes '' (append). */
function keyPath(key: string): string[] | undefined {
  const first = /^[^[\]]+/.exec(key);
  if (!first) return undefined;
  const path = [first[0]];
  let rest = key.slice(first[0].length);
  while (rest.length > 0) {
    const segment = /^\[([^[\]]*)\]/.exec(rest);
    if (!segment) return undefined;
    path.push(segment[1] ?? '');
    rest = rest.slice(segment[0].length);
  }
  return path;
}

function insert(target: Record<string, unknown>, path: string[], value: string): void {
  let node: Record<string, unknown> = target;
  for (let i = 0; i < path.length; i++) {
    let segment = path[i] as string;
    const last = i === path.length - 1;
    if (segment === '') segment = String(Object.keys(node).length);
    if (last) {
      node[segment] = value;
      return;
    }
    const next = node[segment];
    if (next === undefined || typeof next === 'string') {
      const created: Record<string, unknown> = {};
      node[segment] = created;
      node = created;
    } else {
      node = next as Record<string, unknown>;
    }
  }
}

/** Objects whose keys are exactly 0..n-1 become arrays (recursively). */
function arraysFromIndexes(value: unknown): FormValue {
  if (typeof value === 'string') return value;
  const object = value as Record<string, unknown>;
  const keys = Object.keys(object);
  const indexed =
    keys.length > 0 &&
    keys.every((k) => /^\d+$/.test(k)) &&
    keys
      .map(Number)
      .sort((a, b) => a - b)
      .every((n, i) => n === i);
  if (indexed) {
    return keys
      .map(Number)
      .sort((a, b) => a - b)
      .map((k) => arraysFromIndexes(object[String(k)]));
  }
  const out: FormObject = {};
  for (const key of keys) out[key] = arraysFromIndexes(object[key]);
  return out;
}

export class FormEncodingError extends Error {
  readonly param: string;
  constructor(param: string) {
    super(`Invalid parameter name: ${param}`);
    this.param = param;
  }
}

/** Decodes a form body or query string (without the leading '?') into nested params. */
export function parseStripeForm(encoded: string): FormObject {
  const root: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(encoded)) {
    const path = keyPath(key);
    if (!path) throw new FormEncodingError(key);
    insert(root, path, value);
  }
  return arraysFromIndexes(root) as FormObject;
}

/** `['line_items', 0, 'quantity']` -> `line_items[0][quantity]`, as Stripe names params in errors. */
export function paramName(path: readonly (string | number)[]): string {
  const [head, ...rest] = path;
  return `${String(head ?? '')}${rest.map((p) => `[${String(p)}]`).join('')}`;
}
