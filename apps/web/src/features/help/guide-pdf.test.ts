import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { describe, expect, it } from 'vitest';
import { faqItems } from './faq.ts';
import { buildGuidePdf, type PdfBlock } from './guide-pdf.ts';
import { guideBlocks } from './migration-guide.ts';

interface Placed {
  text: string;
  x: number;
  y: number;
}

/** What a PDF reader (Mozilla's pdf.js) finds: the title and each page's pieces of text. */
async function read(bytes: Uint8Array): Promise<{ title: string; pages: Placed[][] }> {
  const document = await getDocument({ data: bytes.slice(), verbosity: 0 }).promise;
  const { info } = (await document.getMetadata()) as { info: { Title?: string } };
  const pages: Placed[][] = [];
  for (let n = 1; n <= document.numPages; n++) {
    const content = await (await document.getPage(n)).getTextContent();
    pages.push(
      content.items.flatMap((item) =>
        'str' in item && item.str.trim()
          ? [{ text: item.str, x: item.transform[4] as number, y: item.transform[5] as number }]
          : [],
      ),
    );
  }
  return { title: info.Title ?? '', pages };
}

describe('guide PDF', () => {
  it('writes the title and blocks, and shows characters Helvetica lacks as best it can', async () => {
    const { title, pages } = await read(
      await buildGuidePdf(
        [
          { kind: 'title', text: 'Hello (world)' },
          { kind: 'paragraph', text: 'it’s – “ok” → 你' },
        ],
        { title: 'The title', footer: 'F' },
      ),
    );
    expect(title).toBe('The title');
    expect(pages).toHaveLength(1);
    expect(pages[0]?.map((p) => p.text)).toEqual([
      'Hello (world)',
      'it’s – “ok” -> ?',
      'F - page 1 of 1',
    ]);
  });

  it('wraps long text inside the margins', async () => {
    const long = 'one two three four five six seven eight nine ten '.repeat(12).trim();
    const { pages } = await read(
      await buildGuidePdf([{ kind: 'paragraph', text: long }], { title: 'T', footer: 'F' }),
    );
    const lines = pages[0]?.filter((p) => p.text !== 'F - page 1 of 1') ?? [];
    expect(lines.length).toBeGreaterThan(3);
    expect(lines.map((l) => l.text).join(' ')).toBe(long);
    for (const line of lines) expect(line.x).toBe(60);
  });

  it('flows long content over several pages, numbering them, never into the bottom margin', async () => {
    const blocks: PdfBlock[] = faqItems.flatMap((item) => [
      { kind: 'heading', text: item.question } as const,
      { kind: 'paragraph', text: item.answer } as const,
    ]);
    const { pages } = await read(await buildGuidePdf(blocks, { title: 'FAQ', footer: 'FAQ' }));
    expect(pages.length).toBeGreaterThan(2);
    pages.forEach((page, index) => {
      expect(page.map((p) => p.text)).toContain(`FAQ - page ${index + 1} of ${pages.length}`);
      for (const piece of page) expect(piece.y === 36 || piece.y >= 64).toBe(true);
    });
  });

  it('holds the guide: every step, the prices and the support contacts', async () => {
    const { pages } = await read(
      await buildGuidePdf(guideBlocks(new Date(2025, 0, 2)), { title: 'G', footer: 'G' }),
    );
    const text = pages.flat().map((p) => p.text);
    for (const heading of ['Step 1: Connect Stores', 'Step 5: Complete', 'Getting help'])
      expect(text).toContain(heading);
    const all = text.join(' ');
    expect(all).toContain('$99.00 per migration plus $0.01 per record.');
    expect(all).toContain('support@replatform.example');
    expect(all).toContain('January 2, 2025');
  });
});
