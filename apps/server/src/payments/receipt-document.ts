import { platformLabels, type Platform } from '@replatform/contracts/migration';
import { formatUsd, PER_RECORD_CENTS, TAX_RATE_LABEL } from '@replatform/contracts/pricing';
import type { StoredMigration } from '@replatform/db/migrations-repository';
import type { StoredQuote } from '@replatform/db/payments-repository';
import { fileURLToPath } from 'node:url';

const brandNames: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
  diners: 'Diners Club',
  jcb: 'JCB',
  unionpay: 'UnionPay',
};

function methodLabel(quote: StoredQuote): string {
  const method = quote.paymentMethod;
  if (!method) return 'Card';
  if (method.card) {
    return `${brandNames[method.card.brand] ?? 'Card'} •••• ${method.card.last4}`;
  }
  return method.type === 'paypal' ? 'PayPal' : method.type;
}

const usDate = (iso: string | null) =>
  iso
    ? new Date(iso).toLocaleString('en-US', {
        year: 'numeric',
        month: 'long',
        day: 'numeric',
        hour: 'numeric',
        minute: '2-digit',
        timeZone: 'UTC',
        timeZoneName: 'short',
      })
    : 'Payment date unavailable';

const platformName = (value: string) =>
  value in platformLabels ? platformLabels[value as Platform] : value || 'Not specified';

export function receiptNumber(quote: StoredQuote): string {
  return `RP-${quote.id.slice(0, 10).toUpperCase()}`;
}

/** US Letter, in points. */
const pageWidth = 612;

type Rgb = [number, number, number];

/**
 * Noto Sans (Latin, Greek, Cyrillic, Vietnamese) and Noto Sans Hans (Chinese ideographs, kana),
 * shipped as npm packages under the SIL Open Font License 1.1, which allows embedding them in
 * documents. A store name in any of those scripts is drawn with real glyphs; pdfkit embeds only
 * the glyphs used, so a receipt stays small.
 */
const fontFile = (pkg: string, file: string) =>
  fileURLToPath(new URL(`../fonts/${file}`, import.meta.resolve(pkg)));
const fonts = {
  sans: fontFile('@embedpdf/fonts-latin', 'NotoSans-Regular.ttf'),
  sansBold: fontFile('@embedpdf/fonts-latin', 'NotoSans-Bold.ttf'),
  cjk: fontFile('@embedpdf/fonts-sc', 'NotoSansHans-Regular.otf'),
  cjkBold: fontFile('@embedpdf/fonts-sc', 'NotoSansHans-Bold.otf'),
};
const cjk =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Bopomofo}\u3000-\u303f\uff00-\uffef]/u;

/** The text cut into runs that one font draws, CJK apart from the rest. */
function fontRuns(text: string, bold: boolean): Array<{ font: string; text: string }> {
  const runs: Array<{ font: string; text: string }> = [];
  for (const char of text) {
    const font = cjk.test(char) ? (bold ? 'cjkBold' : 'cjk') : bold ? 'sansBold' : 'sans';
    const last = runs.at(-1);
    if (last?.font === font) last.text += char;
    else runs.push({ font, text: char });
  }
  return runs;
}

interface TextOptions {
  size?: number;
  bold?: boolean;
  align?: 'left' | 'right';
  color?: Rgb;
}

const hex = (color: Rgb) =>
  `#${color
    .map((c) =>
      Math.round(c * 255)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;

/** Draws one line of text with its baseline at y; right-aligned text ends at x. */
function drawText(
  doc: PDFKit.PDFDocument,
  text: string,
  x: number,
  y: number,
  options: TextOptions,
) {
  const size = options.size ?? 11;
  const runs = fontRuns(text, options.bold ?? false);
  const width = (run: { font: string; text: string }) =>
    doc.font(run.font).fontSize(size).widthOfString(run.text);
  let at = options.align === 'right' ? x - runs.reduce((sum, run) => sum + width(run), 0) : x;
  doc.fillColor(hex(options.color ?? [0, 0, 0]));
  for (const run of runs) {
    doc
      .font(run.font)
      .fontSize(size)
      .text(run.text, at, y, { lineBreak: false, baseline: 'alphabetic' });
    at += width(run);
  }
}

/** The document's bytes once pdfkit has written them all. */
function bytesOf(doc: PDFKit.PDFDocument): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.end();
  });
}

/**
 * Our own receipt (decisions.md section 5): used for demo payments, which have no Stripe receipt.
 * Lists every payment of the migration (the first and any top-ups), with the sketch's price
 * lines: base fee, records at $0.01, the 8% tax line at $0.00, and the total.
 */
export async function receiptPdf(input: {
  migration: StoredMigration;
  paidQuotes: StoredQuote[];
  publicUrl: string;
  now: Date;
}): Promise<Buffer> {
  const { migration, paidQuotes } = input;
  const latest = paidQuotes.at(-1);
  if (!latest) throw new Error('a receipt needs at least one payment');
  const demo = paidQuotes.some((q) => q.provider === 'demo');
  // Loaded with the first receipt, not at every server start.
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    size: 'LETTER',
    margin: 0,
    info: {
      Title: `Replatform receipt ${receiptNumber(latest)}`,
      Author: 'Replatform',
      Producer: 'Replatform',
      CreationDate: input.now,
    },
  });
  for (const [name, file] of Object.entries(fonts)) doc.registerFont(name, file);
  const left = 60;
  const right = pageWidth - 60;
  // Baselines, measured from the top of the page.
  let y = 72;
  const grey: Rgb = [0.4, 0.4, 0.45];
  const line = (label: string, value: string, options: { bold?: boolean; size?: number } = {}) => {
    drawText(doc, label, left, y, options);
    drawText(doc, value, right, y, { ...options, align: 'right' });
    y += (options.size ?? 11) + 9;
  };
  const rule = () => {
    doc
      .moveTo(left, y - 6)
      .lineTo(right, y - 6)
      .lineWidth(0.75)
      .strokeColor(hex([0.8, 0.8, 0.8]))
      .stroke();
    y += 12;
  };

  doc.rect(0, 0, pageWidth, 110).fill(hex([0.2, 0.2, 0.55]));
  drawText(doc, 'Replatform', left, y, { size: 24, bold: true, color: [1, 1, 1] });
  drawText(doc, 'Receipt', right, y, { size: 18, bold: true, align: 'right', color: [1, 1, 1] });
  y += 22;
  drawText(doc, 'Store data migration between e-commerce platforms', left, y, {
    size: 10,
    color: [0.85, 0.85, 0.95],
  });
  y = 150;

  if (demo) {
    doc.rect(left, y - 18, right - left, 26).fill(hex([1, 0.93, 0.8]));
    drawText(doc, 'DEMO PAYMENT — simulated in demo mode, no money was charged', left + 10, y, {
      bold: true,
      color: [0.6, 0.3, 0],
    });
    y += 40;
  }

  line('Receipt number', receiptNumber(latest));
  line('Date paid', usDate(latest.paidAt));
  line('Payment method', methodLabel(latest));
  if (latest.customerEmail) line('Billed to', latest.customerEmail);
  y += 6;
  line('Migration', migration.storeName, { bold: true });
  line('Migration ID', migration.id);
  line('From', platformName(migration.sourceStore));
  line('To', platformName(migration.destinationStore));
  y += 10;

  drawText(doc, 'Description', left, y, { size: 10, bold: true, color: grey });
  drawText(doc, 'Amount', right, y, { size: 10, bold: true, align: 'right', color: grey });
  y += 8;
  rule();
  const records = (n: number) => n.toLocaleString('en-US');
  for (const quote of paidQuotes) {
    const when = quote.paidAt ? ` (${quote.paidAt.slice(0, 10)})` : '';
    if (quote.kind === 'initial') {
      line(
        `Migration base fee${when}`,
        formatUsd(quote.amountCents - quote.recordsBought * PER_RECORD_CENTS),
      );
      line(
        `Records: ${records(quote.recordsBought)} × ${formatUsd(PER_RECORD_CENTS)}`,
        formatUsd(quote.recordsBought * PER_RECORD_CENTS),
      );
    } else if (quote.kind === 'remigration') {
      // Priced like a migration of every record counted when it was bought.
      const volume = quote.recordsTotal * PER_RECORD_CENTS;
      const label = `Re-migration ${quote.remigrationNumber ?? ''}`.trim();
      line(`${label}${when}: base fee`, formatUsd(quote.amountCents - volume));
      line(
        `${label}: ${records(quote.recordsTotal)} records × ${formatUsd(PER_RECORD_CENTS)}`,
        formatUsd(volume),
      );
    } else {
      line(
        `Additional records${when}: ${records(quote.recordsBought)} × ${formatUsd(PER_RECORD_CENTS)}`,
        formatUsd(quote.amountCents),
      );
    }
  }
  line(`Tax (${TAX_RATE_LABEL})`, formatUsd(0));
  rule();
  const total = paidQuotes.reduce((sum, q) => sum + q.amountCents, 0);
  line('Total paid', `${formatUsd(total)} ${latest.currency.toUpperCase()}`, {
    bold: true,
    size: 13,
  });
  line('Records covered', records(paidQuotes.reduce((sum, q) => sum + q.recordsBought, 0)));

  y += 24;
  drawText(doc, 'Thank you for migrating with Replatform.', left, y, {});
  y += 16;
  drawText(doc, `Issued ${usDate(input.now.toISOString())} by ${input.publicUrl}`, left, y, {
    size: 9,
    color: grey,
  });
  return bytesOf(doc);
}
