import { describe, expect, it } from 'vitest';
import { contentHash, fieldHashes, stableStringify } from './content-hash.ts';

describe('content hash', () => {
  it('is the same JSON whatever the key order, and JSON.stringify otherwise', () => {
    const value = { b: [1, { y: 'é"', x: null }, undefined], a: true, skip: undefined, n: 1.5 };
    expect(stableStringify(value)).toBe('{"a":true,"b":[1,{"x":null,"y":"é\\""},null],"n":1.5}');
    expect(JSON.parse(stableStringify(value))).toEqual(JSON.parse(JSON.stringify(value)));
    expect(contentHash({ a: 1, b: 2 })).toBe(contentHash({ b: 2, a: 1 }));
    expect(contentHash({ a: 1 })).not.toBe(contentHash({ a: 2 }));
  });

  it('hashes each field, so a difference can be named', () => {
    const a = fieldHashes({ name: 'x', price: 1 });
    const b = fieldHashes({ price: 1, name: 'y' });
    expect(Object.keys(a)).toEqual(['name', 'price']);
    expect(a.price).toBe(b.price);
    expect(a.name).not.toBe(b.name);
  });
});
