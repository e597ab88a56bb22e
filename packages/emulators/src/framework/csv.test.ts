import { describe, expect, it } from 'vitest';
import { parseCsv } from './csv.ts';

describe('parseCsv', () => {
  it('reads quoted commas, doubled quotes, line breaks in quotes, CRLF, a BOM and blank rows', () => {
    const text =
      '\uFEFFsku,name,description\r\nA-1,"Shirt, blue","Says ""hi""\non two lines"\r\n\r\nB-2,Cap,\n';
    expect(parseCsv(text)).toEqual([
      { sku: 'A-1', name: 'Shirt, blue', description: 'Says "hi"\non two lines' },
      { sku: 'B-2', name: 'Cap', description: '' },
    ]);
  });

  it('fills missing trailing cells and answers nothing for an empty file', () => {
    expect(parseCsv('a,b,c\n1\n')).toEqual([{ a: '1', b: '', c: '' }]);
    expect(parseCsv('')).toEqual([]);
  });
});
