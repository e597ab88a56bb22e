import { describe, expect, it } from 'vitest';
import { parseTerm } from './remove.ts';
import { termAsset } from './write-attributes.ts';

describe('Magento term assets', () => {
  it("records an attribute option as '<code>:<option id>', keyed by its label", () => {
    expect(termAsset('colour', 'Moss', '16')).toEqual({
      kind: 'term',
      key: 'colour:Moss',
      destinationId: 'colour:16',
    });
  });

  it('reads back what it records, and nothing else', () => {
    expect(parseTerm(termAsset('shoe_size', '42', '7'))).toEqual({
      code: 'shoe_size',
      optionId: '7',
    });
    expect(parseTerm({ kind: 'image', key: 'https://x.example/a.png', destinationId: 'a:1' })).toBe(
      undefined,
    );
    for (const destinationId of ['colour', 'colour:', 'colour:abc', 'Colour:1', ':1', 'a b:1'])
      expect(parseTerm({ kind: 'term', key: 'x', destinationId }), destinationId).toBeUndefined();
  });
});
