import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

/**
 * What a PDF reader (Mozilla's pdf.js) finds in a file: its title, page count, and the text of
 * each line of the first page, top to bottom (pieces on one baseline joined by a space).
 */
export async function readPdf(
  pdf: Uint8Array,
): Promise<{ title: string; pages: number; lines: string[] }> {
  const document = await getDocument({ data: new Uint8Array(pdf), verbosity: 0 }).promise;
  const { info } = (await document.getMetadata()) as { info: { Title?: string } };
  const page = await document.getPage(1);
  const lines = new Map<number, string[]>();
  for (const item of (await page.getTextContent()).items) {
    if (!('str' in item) || item.str.trim() === '') continue;
    const baseline = Math.round(item.transform[5] as number);
    lines.set(baseline, [...(lines.get(baseline) ?? []), item.str]);
  }
  const ordered = [...lines.entries()].sort((a, b) => b[0] - a[0]);
  return {
    title: info.Title ?? '',
    pages: document.numPages,
    lines: ordered.map(([, pieces]) => pieces.join(' ')),
  };
}
