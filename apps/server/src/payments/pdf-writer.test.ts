import { describe, expect, it } from 'vitest';
import type { StoredMigration } from '@replatform/db/migrations-repository';
import type { StoredQuote } from '@replatform/db/payments-repository';
import { pdfString, renderPdf, textWidth } from './pdf-writer.ts';
import { receiptPdf } from './receipt-document.ts';

/** Checks what a PDF reader relies on: header, object offsets in the xref, stream length, trailer. */
function checkStructure(pdf: Buffer): string {
  const text = pdf.toString('latin1');
  expect(text.startsWith('%PDF-1.4\n')).toBe(true);
  expect(text.endsWith('%%EOF\n')).toBe(true);
  const startxref = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(text)?.[1]);
  expect(text.slice(startxref, startxref + 5)).toBe('xref\n');
  const [, first, count] = /^xref\n(\d+) (\d+)\n/.exec(text.slice(startxref)) ?? [];
  expect(first).toBe('0');
  const entries = text
    .slice(startxref + `xref\n0 ${count}\n`.length)
    .split('\n')
    .slice(0, Number(count));
  for (const [index, entry] of entries.entries()) {
    expect(`${entry}\n`).toHaveLength(20);
    if (index === 0) continue;
    const offset = Number(entry.slice(0, 10));
    expect(text.slice(offset, offset + `${index} 0 obj`.length)).toBe(`${index} 0 obj`);
  }
  const length = Number(/\/Length (\d+) >>\nstream\n/.exec(text)?.[1]);
  const streamStart = text.indexOf('stream\n') + 'stream\n'.length;
  expect(text.slice(streamStart + length, streamStart + length + '\nendstream'.length)).toBe(
    '\nendstream',
  );
  expect(text).toMatch(new RegExp(`trailer\\n<< /Size ${count} /Root 1 0 R /Info \\d+ 0 R >>`));
  return text;
}

describe('PDF writer', () => {
  it('writes a well-formed one-page PDF', () => {
    const pdf = renderPdf(
      [
        { kind: 'text', text: 'Hello (world) \\ ok', x: 72, y: 700, size: 14, bold: true },
        { kind: 'text', text: '$109.00', x: 540, y: 680, align: 'right' },
        { kind: 'rule', x1: 72, y1: 670, x2: 540, y2: 670 },
        { kind: 'box', x: 0, y: 0, width: 10, height: 10, color: [1, 0, 0] },
      ],
      { title: 'Test', created: new Date('2026-01-02T03:04:05Z') },
    );
    const text = checkStructure(pdf);
    expect(text).toContain('(Hello \\(world\\) \\\\ ok) Tj');
    expect(text).toContain('/CreationDate (D:20260102030405Z)');
    // Right-aligned: the text ends at x = 540.
    const x = 540 - textWidth('$109.00', 11);
    expect(text).toContain(`${Math.round(x * 100) / 100} 680 Td ($109.00) Tj`);
  });

  it('encodes text in WinAnsi and replaces what it cannot show', () => {
    expect(pdfString('Café • 5 € — ok')).toBe('Caf\\351 \\225 5 \\200 \\227 ok');
    expect(pdfString('日本')).toBe('??');
  });

  it('renders a demo receipt with every payment of the migration', () => {
    const quote = (overrides: Partial<StoredQuote>): StoredQuote => ({
      id: 'AbCdEfGhIjKlMnOpQrSt',
      migrationId: 'm1',
      userId: 'u1',
      kind: 'initial',
      provider: 'demo',
      counts: { products: 1000, customers: 0, orders: 0 },
      recordsTotal: 1000,
      previouslyPaidRecords: 0,
      recordsBought: 1000,
      amountCents: 10_900,
      currency: 'usd',
      status: 'paid',
      checkoutSessionId: null,
      checkoutUrl: null,
      paymentIntentId: null,
      chargeId: null,
      receiptUrl: null,
      paymentMethod: { type: 'card', card: { brand: 'visa', last4: '4242' } },
      customerEmail: 'owner@example.com',
      createdAt: '2026-01-02T03:04:05.000Z',
      paidAt: '2026-01-02T03:04:05.000Z',
      remigrationNumber: null,
      ...overrides,
    });
    const pdf = receiptPdf({
      migration: {
        id: 'm1',
        storeName: 'Café (Main)',
        sourceStore: 'magento2',
        destinationStore: 'shopify',
      } as StoredMigration,
      paidQuotes: [
        quote({}),
        quote({
          id: 'x2',
          kind: 'top_up',
          recordsBought: 50,
          amountCents: 50,
          paidAt: '2026-01-03T00:00:00.000Z',
        }),
        quote({
          id: 'x3',
          kind: 'remigration',
          remigrationNumber: 2,
          recordsTotal: 1100,
          previouslyPaidRecords: 1050,
          recordsBought: 50,
          amountCents: 9900 + 1100,
          paidAt: '2026-01-03T12:00:00.000Z',
        }),
      ],
      publicUrl: 'http://localhost:4001',
      now: new Date('2026-01-04T00:00:00Z'),
    });
    const text = checkStructure(pdf);
    for (const expected of [
      '(DEMO PAYMENT \\227 simulated in demo mode, no money was charged)',
      '(Caf\\351 \\(Main\\))',
      '(Magento 2)',
      '(Shopify)',
      '(Migration base fee \\(2026-01-02\\))',
      '($99.00)',
      '(Records: 1,000 \\327 $0.01)',
      '($10.00)',
      '(Additional records \\(2026-01-03\\): 50 \\327 $0.01)',
      '($0.50)',
      '(Re-migration 2 \\(2026-01-03\\): base fee)',
      '(Re-migration 2: 1,100 records \\327 $0.01)',
      '($11.00)',
      '(Tax \\(8%\\))',
      '($0.00)',
      '($219.50 USD)',
      '(1,100)',
      '(Visa \\225\\225\\225\\225 4242)',
      '(RP-X3)',
    ]) {
      expect(text).toContain(expected);
    }
  });
});
