import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

/**
 * What a PDF reader (Mozilla's pdf.js) finds in a file: its title, page count, and the text of
 * each line, page by page and top to bottom (pieces on one baseline joined by a space).
 */
export async function readPdf(
  pdf: Uint8Array,
): Promise<{ title: string; pages: number; lines: string[] }> {
  const document = await getDocument({ data: new Uint8Array(pdf), verbosity: 0 }).promise;
  const { info } = (await document.getMetadata()) as { info: { Title?: string } };
  const lines: string[] = [];
  for (let number = 1; number <= document.numPages; number++) {
    const page = await document.getPage(number);
    const baselines = new Map<number, string[]>();
    for (const item of (await page.getTextContent()).items) {
      if (!('str' in item) || item.str.trim() === '') continue;
      const baseline = Math.round(item.transform[5] as number);
      baselines.set(baseline, [...(baselines.get(baseline) ?? []), item.str]);
    }
    const ordered = [...baselines.entries()].sort((a, b) => b[0] - a[0]);
    lines.push(...ordered.map(([, pieces]) => pieces.join(' ')));
  }
  return { title: info.Title ?? '', pages: document.numPages, lines };
}
