import { describe, expect, it } from 'vitest';
import { csvCell, csvRow } from './csv.ts';

describe('report CSV', () => {
  it('quotes what RFC 4180 requires and doubles quotes', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(' padded ')).toBe('" padded "');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell(42)).toBe('42');
  });

  it('defuses cells a spreadsheet would run as formulas', () => {
    expect(csvCell('=HYPERLINK("http://evil")')).toBe(`"'=HYPERLINK(""http://evil"")"`);
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-2')).toBe("'-2");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\t=1')).toBe(`'\t=1`);
    expect(csvCell('a=b')).toBe('a=b');
  });

  it('ends rows with CRLF', () => {
    expect(csvRow(['product', '1', null, 'failed', 'SKU, taken'])).toBe(
      'product,1,,failed,"SKU, taken"\r\n',
    );
  });
});
