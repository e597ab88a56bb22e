import { platformLabels, type Platform } from '@replatform/contracts/migration';
import { formatUsd, PER_RECORD_CENTS, TAX_RATE_LABEL } from '@replatform/contracts/pricing';
import type { StoredMigration } from '@replatform/db/migrations-repository';
import type { StoredQuote } from '@replatform/db/payments-repository';
import { PAGE_HEIGHT, PAGE_WIDTH, renderPdf, type PdfItem } from './pdf-writer.ts';

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

/**
 * Our own receipt (decisions.md section 5): used for demo payments, which have no Stripe receipt.
 * Lists every payment of the migration (the first and any top-ups), with the sketch's price
 * lines: base fee, records at $0.01, the 8% tax line at $0.00, and the total.
 */
export function receiptPdf(input: {
  migration: StoredMigration;
  paidQuotes: StoredQuote[];
  publicUrl: string;
  now: Date;
}): Buffer {
  const { migration, paidQuotes } = input;
  const latest = paidQuotes.at(-1);
  if (!latest) throw new Error('a receipt needs at least one payment');
  const demo = paidQuotes.some((q) => q.provider === 'demo');
  const items: PdfItem[] = [];
  const left = 60;
  const right = PAGE_WIDTH - 60;
  let y = PAGE_HEIGHT - 72;
  const grey: [number, number, number] = [0.4, 0.4, 0.45];
  const line = (label: string, value: string, options: { bold?: boolean; size?: number } = {}) => {
    items.push({
      kind: 'text',
      text: label,
      x: left,
      y,
      size: options.size ?? 11,
      bold: options.bold,
    });
    items.push({
      kind: 'text',
      text: value,
      x: right,
      y,
      size: options.size ?? 11,
      bold: options.bold,
      align: 'right',
    });
    y -= (options.size ?? 11) + 9;
  };
  const rule = () => {
    items.push({ kind: 'rule', x1: left, y1: y + 6, x2: right, y2: y + 6 });
    y -= 12;
  };

  items.push({
    kind: 'box',
    x: 0,
    y: PAGE_HEIGHT - 110,
    width: PAGE_WIDTH,
    height: 110,
    color: [0.2, 0.2, 0.55],
  });
  items.push({
    kind: 'text',
    text: 'Replatform',
    x: left,
    y,
    size: 24,
    bold: true,
    color: [1, 1, 1],
  });
  items.push({
    kind: 'text',
    text: 'Receipt',
    x: right,
    y,
    size: 18,
    bold: true,
    align: 'right',
    color: [1, 1, 1],
  });
  y -= 22;
  items.push({
    kind: 'text',
    text: 'Store data migration between e-commerce platforms',
    x: left,
    y,
    size: 10,
    color: [0.85, 0.85, 0.95],
  });
  y = PAGE_HEIGHT - 150;

  if (demo) {
    items.push({
      kind: 'box',
      x: left,
      y: y - 8,
      width: right - left,
      height: 26,
      color: [1, 0.93, 0.8],
    });
    items.push({
      kind: 'text',
      text: 'DEMO PAYMENT — simulated in demo mode, no money was charged',
      x: left + 10,
      y,
      size: 11,
      bold: true,
      color: [0.6, 0.3, 0],
    });
    y -= 40;
  }

  line('Receipt number', receiptNumber(latest));
  line('Date paid', usDate(latest.paidAt));
  line('Payment method', methodLabel(latest));
  if (latest.customerEmail) line('Billed to', latest.customerEmail);
  y -= 6;
  line('Migration', migration.storeName, { bold: true });
  line('Migration ID', migration.id);
  line('From', platformName(migration.sourceStore));
  line('To', platformName(migration.destinationStore));
  y -= 10;

  items.push({ kind: 'text', text: 'Description', x: left, y, size: 10, bold: true, color: grey });
  items.push({
    kind: 'text',
    text: 'Amount',
    x: right,
    y,
    size: 10,
    bold: true,
    align: 'right',
    color: grey,
  });
  y -= 8;
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

  y -= 24;
  items.push({
    kind: 'text',
    text: 'Thank you for migrating with Replatform.',
    x: left,
    y,
    size: 11,
  });
  y -= 16;
  items.push({
    kind: 'text',
    text: `Issued ${usDate(input.now.toISOString())} by ${input.publicUrl}`,
    x: left,
    y,
    size: 9,
    color: grey,
  });

  return renderPdf(items, {
    title: `Replatform receipt ${receiptNumber(latest)}`,
    author: 'Replatform',
    created: input.now,
  });
}
