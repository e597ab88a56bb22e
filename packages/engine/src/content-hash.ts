import { createHash } from 'node:crypto';

/** JSON with object keys sorted, so equal records give equal text whatever their key order. */
export function stableStringify(value: unknown): string {
  return write(value, '');
}

// Appends to one string (V8 joins such strings cheaply) instead of building and joining an
// array per object: hashing runs for every record the engine sees.
function write(value: unknown, out: string): string {
  if (value === null || typeof value !== 'object') return out + (JSON.stringify(value) ?? 'null');
  if (Array.isArray(value)) {
    out += '[';
    for (let i = 0; i < value.length; i++) {
      if (i) out += ',';
      out = write(value[i] === undefined ? null : value[i], out);
    }
    return `${out}]`;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  out += '{';
  let first = true;
  for (const key of keys) {
    const item = record[key];
    if (item === undefined) continue;
    if (!first) out += ',';
    first = false;
    out = write(item, `${out}${JSON.stringify(key)}:`);
  }
  return `${out}}`;
}

/**
 * Hash of a canonical record as read from the source. Equal hash and an earlier successful write
 * mean the record is unchanged and need not be sent again.
 */
export function contentHash(record: unknown): string {
  return createHash('sha256').update(stableStringify(record)).digest('base64url');
}

/** Short hash of each top-level field, so a verification mismatch can name the fields. */
export function fieldHashes(record: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of Object.keys(record).sort()) {
    out[key] = createHash('sha256')
      .update(stableStringify(record[key]))
      .digest('base64url')
      .slice(0, 16);
  }
  return out;
}
