import {
  breakTextIntoLines,
  PDFDocument,
  rgb,
  StandardFonts,
  type PDFFont,
  type PDFPage,
  type RGB,
} from 'pdf-lib';

/**
 * The downloadable migration guide, written with pdf-lib in the browser from the same text as the
 * help pages, so the PDF never drifts from them: the standard Helvetica fonts (every reader has
 * them, nothing to embed), text wrapped to the page width and flowed over as many US Letter pages
 * as it needs, each with a numbered footer. Loaded only when someone asks for the guide.
 */

export type PdfBlock =
  | { kind: 'title'; text: string }
  | { kind: 'subtitle'; text: string }
  | { kind: 'heading'; text: string }
  | { kind: 'paragraph'; text: string }
  | { kind: 'bullet'; text: string };

const pageSize: [number, number] = [612, 792];
const marginX = 60;
const marginTop = 64;
const marginBottom = 64;
const textWidth = pageSize[0] - marginX * 2;
const accent = rgb(0.263, 0.22, 0.792);

interface Style {
  size: number;
  bold: boolean;
  leading: number;
  before: number;
  indent: number;
  color: RGB;
}

const styles: Record<PdfBlock['kind'], Style> = {
  title: {
    size: 24,
    bold: true,
    leading: 30,
    before: 0,
    indent: 0,
    color: rgb(0.118, 0.106, 0.294),
  },
  subtitle: {
    size: 12,
    bold: false,
    leading: 17,
    before: 6,
    indent: 0,
    color: rgb(0.278, 0.333, 0.412),
  },
  heading: {
    size: 15,
    bold: true,
    leading: 20,
    before: 18,
    indent: 0,
    color: rgb(0.263, 0.22, 0.792),
  },
  paragraph: {
    size: 11,
    bold: false,
    leading: 15.5,
    before: 8,
    indent: 0,
    color: rgb(0.059, 0.09, 0.165),
  },
  bullet: {
    size: 11,
    bold: false,
    leading: 15.5,
    before: 4,
    indent: 16,
    color: rgb(0.059, 0.09, 0.165),
  },
};

/** The text as Helvetica can draw it: an arrow becomes '->', anything else it lacks a '?'. */
function drawable(font: PDFFont, text: string): string {
  const known = new Set(font.getCharacterSet());
  return [...text.replaceAll('→', '->').replaceAll('\u00a0', ' ')]
    .map((char) => (known.has(char.codePointAt(0) ?? 0) ? char : '?'))
    .join('');
}

/** The PDF file's bytes. */
export async function buildGuidePdf(
  blocks: PdfBlock[],
  info: { title: string; footer: string },
): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(info.title);
  doc.setProducer('Replatform');
  doc.setCreator('Replatform');
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);

  let page: PDFPage = doc.addPage(pageSize);
  let y = pageSize[1] - marginTop;
  let empty = true;
  const newPage = () => {
    page = doc.addPage(pageSize);
    y = pageSize[1] - marginTop;
    empty = true;
  };

  for (const block of blocks) {
    const style = styles[block.kind];
    const font = style.bold ? bold : regular;
    const width = textWidth - style.indent;
    const lines = breakTextIntoLines(drawable(font, block.text), [' '], width, (text) =>
      font.widthOfTextAtSize(text, style.size),
    );
    // A heading never ends a page alone: keep it with two lines of what follows.
    const keep = block.kind === 'heading' ? style.leading + 2 * styles.paragraph.leading : 0;
    if (!empty && y - style.before - style.leading - keep < marginBottom) newPage();
    else if (!empty) y -= style.before;
    lines.forEach((line, index) => {
      if (y - style.leading < marginBottom) newPage();
      y -= style.leading;
      empty = false;
      const options = { size: style.size, font, color: style.color };
      if (block.kind === 'bullet' && index === 0)
        page.drawText('•', { ...options, x: marginX + 4, y });
      page.drawText(line, { ...options, x: marginX + style.indent, y });
    });
    if (block.kind === 'title') {
      y -= 10;
      page.drawRectangle({ x: marginX, y, width: textWidth, height: 2, color: accent });
    }
  }

  const pages = doc.getPages();
  pages.forEach((each, index) => {
    each.drawText(drawable(regular, `${info.footer} - page ${index + 1} of ${pages.length}`), {
      x: marginX,
      y: 36,
      size: 9,
      font: regular,
      color: rgb(0.392, 0.455, 0.545),
    });
  });
  return doc.save();
}
