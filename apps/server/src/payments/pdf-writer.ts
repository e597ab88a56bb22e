/**
 * A minimal PDF 1.4 writer: one page of text in the standard Helvetica fonts (no embedding
 * needed, every PDF reader has them), plus lines and filled rectangles. Enough for a receipt, and
 * small enough to read in one sitting; no dependency for a single page.
 */

export interface PdfText {
  kind: 'text';
  text: string;
  /** Points from the left edge (or the right end of the text when align is 'right'). */
  x: number;
  /** Points from the bottom edge, to the text's baseline. */
  y: number;
  size?: number;
  bold?: boolean;
  align?: 'left' | 'right';
  /** RGB, each 0..1. */
  color?: [number, number, number];
}

export interface PdfRule {
  kind: 'rule';
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  width?: number;
  color?: [number, number, number];
}

export interface PdfBox {
  kind: 'box';
  x: number;
  y: number;
  width: number;
  height: number;
  color: [number, number, number];
}

export type PdfItem = PdfText | PdfRule | PdfBox;

export interface PdfDocumentInfo {
  title: string;
  author?: string;
  created: Date;
}

/** US Letter, in points. */
export const PAGE_WIDTH = 612;
export const PAGE_HEIGHT = 792;

// WinAnsiEncoding codes of the non-Latin-1 characters a receipt may hold.
const winAnsiExtras: Record<string, number> = {
  '€': 0x80,
  '‚': 0x82,
  '„': 0x84,
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

/** Text as a PDF literal string body in WinAnsiEncoding; characters it lacks become '?'. */
export function pdfString(text: string): string {
  let out = '';
  for (const char of text.normalize('NFC')) {
    const code = char.codePointAt(0) ?? 63;
    if (char === '(' || char === ')' || char === '\\') out += `\\${char}`;
    else if (code >= 0x20 && code < 0x7f) out += char;
    else if (winAnsiExtras[char] !== undefined) out += `\\${winAnsiExtras[char].toString(8)}`;
    else if (code >= 0xa0 && code <= 0xff) out += `\\${code.toString(8)}`;
    else out += '?';
  }
  return out;
}

// Advance widths (1/1000 em) of Helvetica and Helvetica-Bold from Adobe's core-font metrics
// (AFM), so right-aligned amounts line up; accented letters take their base letter's width.
function metrics(upper: number[], lower: number[], other: Record<string, number>) {
  const widths: Record<string, number> = { ...other };
  for (let i = 0; i < 26; i++) {
    widths[String.fromCharCode(65 + i)] = upper[i] ?? 556;
    widths[String.fromCharCode(97 + i)] = lower[i] ?? 556;
  }
  for (let d = 0; d < 10; d++) widths[String(d)] = 556;
  return widths;
}
const sharedPunctuation = {
  ' ': 278,
  '.': 278,
  ',': 278,
  '/': 278,
  '-': 333,
  '(': 333,
  ')': 333,
  $: 556,
  '#': 556,
  '%': 889,
  '*': 389,
  '+': 584,
  '<': 584,
  '=': 584,
  '>': 584,
  '×': 584,
  '•': 350,
  '–': 556,
  '—': 1000,
  '[': 278,
  ']': 278,
  _: 556,
};
const helvetica = metrics(
  [
    667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, 667, 778, 722, 667,
    611, 722, 667, 944, 667, 667, 611,
  ],
  [
    556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, 556, 556, 333, 500,
    278, 556, 500, 722, 500, 500, 500,
  ],
  {
    ...sharedPunctuation,
    ':': 278,
    ';': 278,
    '!': 278,
    '?': 556,
    '@': 1015,
    '&': 667,
    "'": 191,
    '"': 355,
  },
);
const helveticaBold = metrics(
  [
    722, 722, 722, 722, 667, 611, 778, 722, 278, 556, 722, 611, 833, 722, 778, 667, 778, 722, 667,
    611, 722, 667, 944, 667, 667, 611,
  ],
  [
    556, 611, 556, 611, 556, 333, 611, 611, 278, 278, 556, 278, 889, 611, 611, 611, 611, 389, 556,
    333, 611, 556, 778, 556, 556, 500,
  ],
  {
    ...sharedPunctuation,
    ':': 333,
    ';': 333,
    '!': 333,
    '?': 611,
    '@': 975,
    '&': 722,
    "'": 238,
    '"': 474,
  },
);

export function textWidth(text: string, size: number, bold = false): number {
  const widths = bold ? helveticaBold : helvetica;
  let units = 0;
  for (const char of text) {
    const base = char.normalize('NFD')[0] ?? char;
    units += widths[char] ?? widths[base] ?? 556;
  }
  return (units * size) / 1000;
}

const num = (n: number) => (Math.round(n * 100) / 100).toString();
const rgb = (c: [number, number, number]) => c.map(num).join(' ');

function contentStream(items: PdfItem[]): string {
  const ops: string[] = [];
  for (const item of items) {
    if (item.kind === 'text') {
      const size = item.size ?? 11;
      const x = item.align === 'right' ? item.x - textWidth(item.text, size, item.bold) : item.x;
      ops.push(
        `${rgb(item.color ?? [0, 0, 0])} rg`,
        `BT /${item.bold ? 'F2' : 'F1'} ${num(size)} Tf ${num(x)} ${num(item.y)} Td (${pdfString(item.text)}) Tj ET`,
      );
    } else if (item.kind === 'rule') {
      ops.push(
        `${rgb(item.color ?? [0.8, 0.8, 0.8])} RG ${num(item.width ?? 0.75)} w`,
        `${num(item.x1)} ${num(item.y1)} m ${num(item.x2)} ${num(item.y2)} l S`,
      );
    } else {
      ops.push(
        `${rgb(item.color)} rg ${num(item.x)} ${num(item.y)} ${num(item.width)} ${num(item.height)} re f`,
      );
    }
  }
  return ops.join('\n');
}

function pdfDate(date: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `D:${date.getUTCFullYear()}${p(date.getUTCMonth() + 1)}${p(date.getUTCDate())}${p(
    date.getUTCHours(),
  )}${p(date.getUTCMinutes())}${p(date.getUTCSeconds())}Z`;
}

/** One page with the given items, as the bytes of a complete PDF file. */
export function renderPdf(items: PdfItem[], info: PdfDocumentInfo): Buffer {
  const content = contentStream(items);
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${PAGE_WIDTH} ${PAGE_HEIGHT}] ` +
      '/Resources << /Font << /F1 4 0 R /F2 5 0 R >> >> /Contents 6 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>',
    `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
    `<< /Title (${pdfString(info.title)}) /Author (${pdfString(info.author ?? '')}) ` +
      `/Producer (Replatform) /CreationDate (${pdfDate(info.created)}) >>`,
  ];
  // The binary comment line tells transfer tools the file is not plain text.
  let body = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(Buffer.byteLength(body, 'latin1'));
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xrefAt = Buffer.byteLength(body, 'latin1');
  // Each cross-reference entry is exactly 20 bytes, its end of line included.
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body +=
    `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info ${objects.length} 0 R >>\n` +
    `startxref\n${xrefAt}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}
