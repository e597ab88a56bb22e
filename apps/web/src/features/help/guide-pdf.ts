/**
 * A small PDF 1.4 writer for the downloadable migration guide: text in the standard Helvetica
 * fonts (every reader has them, nothing to embed), wrapped to the page width and flowed over as
 * many US Letter pages as it needs. Built in the browser from the same text as the help pages, so
 * the PDF never drifts from them.
 */

export type PdfBlock =
  | { kind: 'title'; text: string }
  | { kind: 'subtitle'; text: string }
  | { kind: 'heading'; text: string }
  | { kind: 'paragraph'; text: string }
  | { kind: 'bullet'; text: string };

const PAGE_WIDTH = 612;
const PAGE_HEIGHT = 792;
const MARGIN_X = 60;
const MARGIN_TOP = 64;
const MARGIN_BOTTOM = 64;
const TEXT_WIDTH = PAGE_WIDTH - MARGIN_X * 2;

/** Helvetica advance widths (1/1000 em) of printable ASCII, from the font's published metrics. */
const asciiWidths = [
  278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556,
  556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, 1015, 667, 667, 722, 722, 667,
  611, 778, 722, 278, 500, 667, 556, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667,
  667, 611, 278, 278, 278, 469, 556, 333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500,
  222, 833, 556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
];

/** Width in points; bold Helvetica runs about 6% wider, close enough for line breaking. */
export function textWidth(text: string, size: number, bold = false): number {
  let units = 0;
  for (const ch of text) {
    const code = ch.charCodeAt(0);
    units += code >= 32 && code <= 126 ? (asciiWidths[code - 32] ?? 556) : 556;
  }
  return (units * size * (bold ? 1.06 : 1)) / 1000;
}

const winAnsiExtras: Record<string, number> = {
  '€': 0x80,
  '…': 0x85,
  '‘': 0x91,
  '’': 0x92,
  '“': 0x93,
  '”': 0x94,
  '•': 0x95,
  '–': 0x96,
  '—': 0x97,
  '™': 0x99,
};

/** Text as WinAnsi bytes (one char per byte) inside a PDF string literal. */
export function pdfString(text: string): string {
  let out = '';
  for (const ch of text.replace(/→/g, '->').replace(/\u00a0/g, ' ')) {
    const code = ch.codePointAt(0) ?? 63;
    let byte: number;
    if (code >= 32 && code <= 126) byte = code;
    else if (code >= 160 && code <= 255) byte = code;
    else byte = winAnsiExtras[ch] ?? 63;
    const c = String.fromCharCode(byte);
    out += c === '(' || c === ')' || c === '\\' ? `\\${c}` : c;
  }
  return `(${out})`;
}

/** Greedy word wrap to `width` points. A word longer than a line is put on a line of its own. */
export function wrap(text: string, size: number, width: number, bold = false): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const candidate = line ? `${line} ${word}` : word;
    if (line && textWidth(candidate, size, bold) > width) {
      lines.push(line);
      line = word;
    } else line = candidate;
  }
  if (line) lines.push(line);
  return lines;
}

interface Style {
  size: number;
  bold: boolean;
  leading: number;
  before: number;
  indent: number;
  color: string;
}

const styles: Record<PdfBlock['kind'], Style> = {
  title: { size: 24, bold: true, leading: 30, before: 0, indent: 0, color: '0.118 0.106 0.294' },
  subtitle: {
    size: 12,
    bold: false,
    leading: 17,
    before: 6,
    indent: 0,
    color: '0.278 0.333 0.412',
  },
  heading: { size: 15, bold: true, leading: 20, before: 18, indent: 0, color: '0.263 0.220 0.792' },
  paragraph: {
    size: 11,
    bold: false,
    leading: 15.5,
    before: 8,
    indent: 0,
    color: '0.059 0.09 0.165',
  },
  bullet: {
    size: 11,
    bold: false,
    leading: 15.5,
    before: 4,
    indent: 16,
    color: '0.059 0.09 0.165',
  },
};

const fixed = (n: number) => Number(n.toFixed(2)).toString();

/** Lays the blocks out over pages; each page is a content stream. */
function layout(blocks: PdfBlock[], footer: string): string[] {
  const pages: string[][] = [[]];
  let y = PAGE_HEIGHT - MARGIN_TOP;
  const current = () => pages[pages.length - 1] as string[];
  const newPage = () => {
    pages.push([]);
    y = PAGE_HEIGHT - MARGIN_TOP;
  };

  for (const block of blocks) {
    const style = styles[block.kind];
    const font = style.bold ? '/F2' : '/F1';
    const lines = wrap(block.text, style.size, TEXT_WIDTH - style.indent, style.bold);
    // A heading never ends a page alone: keep it with two lines of what follows.
    const keep = block.kind === 'heading' ? style.leading + 2 * styles.paragraph.leading : 0;
    if (current().length && y - style.before - style.leading - keep < MARGIN_BOTTOM) newPage();
    else if (current().length) y -= style.before;
    lines.forEach((line, index) => {
      if (y - style.leading < MARGIN_BOTTOM) newPage();
      y -= style.leading;
      const x = MARGIN_X + style.indent;
      if (block.kind === 'bullet' && index === 0) {
        current().push(
          `BT ${font} ${style.size} Tf ${style.color} rg 1 0 0 1 ${fixed(MARGIN_X + 4)} ${fixed(y)} Tm ${pdfString('•')} Tj ET`,
        );
      }
      current().push(
        `BT ${font} ${style.size} Tf ${style.color} rg 1 0 0 1 ${fixed(x)} ${fixed(y)} Tm ${pdfString(line)} Tj ET`,
      );
    });
    if (block.kind === 'title') {
      y -= 10;
      current().push(`0.263 0.220 0.792 rg ${MARGIN_X} ${fixed(y)} ${TEXT_WIDTH} 2 re f`);
    }
  }

  return pages.map((ops, index) => {
    const label = `${footer} - page ${index + 1} of ${pages.length}`;
    const footerOp = `BT /F1 9 Tf 0.392 0.455 0.545 rg 1 0 0 1 ${MARGIN_X} 36 Tm ${pdfString(label)} Tj ET`;
    return [...ops, footerOp].join('\n');
  });
}

/** The PDF file's bytes. */
export function buildPdf(
  blocks: PdfBlock[],
  info: { title: string; footer: string },
): Uint8Array<ArrayBuffer> {
  const streams = layout(blocks, info.footer);
  const objects: string[] = [];
  const pageIds = streams.map((_, i) => 6 + i * 2);
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pageIds.length} >>`;
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';
  objects[4] =
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>';
  objects[5] = `<< /Title ${pdfString(info.title)} /Producer (Replatform) >>`;
  streams.forEach((stream, i) => {
    const pageId = 6 + i * 2;
    objects[pageId] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${PAGE_WIDTH} ${PAGE_HEIGHT}] ` +
      `/Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents ${pageId + 1} 0 R >>`;
    objects[pageId + 1] = `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`;
  });

  // Every character is one byte (WinAnsi), so string lengths are byte offsets.
  let out = '%PDF-1.4\n%\u00e2\u00e3\u00cf\u00d3\n';
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = out.length;
    out += `${id} 0 obj\n${objects[id]}\nendobj\n`;
  }
  const xref = out.length;
  out += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
  for (let id = 1; id < objects.length; id++) {
    out += `${String(offsets[id]).padStart(10, '0')} 00000 n \n`;
  }
  out += `trailer\n<< /Size ${objects.length} /Root 1 0 R /Info 5 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  const bytes = new Uint8Array(out.length);
  for (let i = 0; i < out.length; i++) bytes[i] = out.charCodeAt(i) & 0xff;
  return bytes;
}
