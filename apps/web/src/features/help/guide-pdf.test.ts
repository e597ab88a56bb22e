import { describe, expect, it } from 'vitest';
import { faqItems } from './faq.ts';
import { buildPdf, pdfString, textWidth, wrap, type PdfBlock } from './guide-pdf.ts';
import { guideBlocks } from './migration-guide.ts';

const text = (bytes: Uint8Array) => String.fromCharCode(...bytes);

/** Checks the cross-reference table points at each object, as a PDF reader would. */
function checkStructure(pdf: string) {
  expect(pdf.startsWith('%PDF-1.4\n')).toBe(true);
  expect(pdf.endsWith('%%EOF\n')).toBe(true);
  const startxref = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(pdf)?.[1]);
  expect(pdf.slice(startxref, startxref + 4)).toBe('xref');
  const [, count] = /^xref\n0 (\d+)\n/.exec(pdf.slice(startxref)) ?? [];
  const entries = pdf
    .slice(startxref)
    .split('\n')
    .slice(3, 2 + Number(count));
  entries.forEach((entry, i) => {
    const offset = Number(entry.slice(0, 10));
    expect(pdf.slice(offset, offset + `${i + 1} 0 obj`.length)).toBe(`${i + 1} 0 obj`);
  });
  for (const match of pdf.matchAll(/<< \/Length (\d+) >>\nstream\n/g)) {
    const start = (match.index ?? 0) + match[0].length;
    expect(pdf.slice(start + Number(match[1]), start + Number(match[1]) + 10)).toBe('\nendstream');
  }
}

describe('guide PDF', () => {
  it('escapes string delimiters and maps typographic characters to WinAnsi', () => {
    expect(pdfString('a (b) \\ c')).toBe('(a \\(b\\) \\\\ c)');
    expect(pdfString('it’s – “ok” → 你')).toBe('(it\x92s \x96 \x93ok\x94 -> ?)');
  });

  it('wraps text to the width it is given', () => {
    const lines = wrap('one two three four five six seven eight nine ten', 12, 100);
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(textWidth(line, 12)).toBeLessThanOrEqual(100);
    expect(lines.join(' ')).toBe('one two three four five six seven eight nine ten');
    expect(wrap('supercalifragilistic', 12, 10)).toEqual(['supercalifragilistic']);
    expect(textWidth('W', 10)).toBeGreaterThan(textWidth('i', 10));
  });

  it('builds a well-formed file whose cross-references point at every object', () => {
    const pdf = text(
      buildPdf([{ kind: 'title', text: 'Hello (world)' }], { title: 'T', footer: 'F' }),
    );
    checkStructure(pdf);
    expect(pdf).toContain('/Count 1');
    expect(pdf).toContain('(Hello \\(world\\)) Tj');
    expect(pdf).toContain('(F - page 1 of 1) Tj');
  });

  it('flows long content over several pages, numbering them', () => {
    const blocks: PdfBlock[] = faqItems.flatMap((item) => [
      { kind: 'heading', text: item.question } as const,
      { kind: 'paragraph', text: item.answer } as const,
    ]);
    const pdf = text(buildPdf(blocks, { title: 'FAQ', footer: 'FAQ' }));
    checkStructure(pdf);
    const pages = Number(/\/Count (\d+)/.exec(pdf)?.[1]);
    expect(pages).toBeGreaterThan(2);
    expect(pdf).toContain(`(FAQ - page ${pages} of ${pages}) Tj`);
    // No line is placed in the bottom margin.
    for (const match of pdf.matchAll(/1 0 0 1 [\d.]+ ([\d.]+) Tm/g)) {
      const y = Number(match[1]);
      expect(y === 36 || y >= 64).toBe(true);
    }
  });

  it('holds the guide: every step, the prices and the support contacts', () => {
    const pdf = text(buildPdf(guideBlocks(new Date(2025, 0, 2)), { title: 'G', footer: 'G' }));
    checkStructure(pdf);
    for (const heading of ['Step 1: Connect Stores', 'Step 5: Complete', 'Getting help'])
      expect(pdf).toContain(`(${heading}) Tj`);
    expect(pdf).toContain('$99.00 per migration plus $0.01 per record.');
    expect(pdf).toContain('support@replatform.example');
    expect(pdf).toContain('January 2, 2025');
  });
});
