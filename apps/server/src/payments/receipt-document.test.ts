import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { describe, expect, it } from 'vitest';
import type { StoredMigration } from '@replatform/db/migrations-repository';
import type { StoredQuote } from '@replatform/db/payments-repository';
import { readPdf } from '../testing/pdf-text.ts';
import { receiptPdf } from './receipt-document.ts';

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

describe('receipt document', () => {
  it('renders a demo receipt with every payment of the migration', async () => {
    const pdf = await receiptPdf({
      migration: {
        id: 'm1',
        storeName: 'Café Ünïcode — Магазин 東京ストア',
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
    const { title, pages, lines } = await readPdf(pdf);
    expect(title).toBe('Replatform receipt RP-X3');
    expect(pages).toBe(1);
    for (const expected of [
      'Replatform Receipt',
      'DEMO PAYMENT — simulated in demo mode, no money was charged',
      'Migration Café Ünïcode — Магазин 東京ストア',
      'From Magento 2',
      'To Shopify',
      'Migration base fee (2026-01-02) $99.00',
      'Records: 1,000 × $0.01 $10.00',
      'Additional records (2026-01-03): 50 × $0.01 $0.50',
      'Re-migration 2 (2026-01-03): base fee $99.00',
      'Re-migration 2: 1,100 records × $0.01 $11.00',
      'Tax (8%) $0.00',
      'Total paid $219.50 USD',
      'Records covered 1,100',
      'Payment method Visa •••• 4242',
      'Receipt number RP-X3',
    ]) {
      expect(lines).toContain(expected);
    }
    // The store name's scripts are drawn with the embedded Noto fonts, not a standard PDF font.
    const raw = pdf.toString('latin1');
    expect(raw).toMatch(/\/BaseFont \/[A-Z]{6}\+NotoSans-Regular/);
    expect(raw).toMatch(/\/BaseFont \/[A-Z]{6}\+NotoSansHans-Bold/);
    expect(raw).not.toMatch(/\/BaseFont \/Helvetica/);
  });

  it('aligns amounts at the right margin, whatever their width', async () => {
    const pdf = await receiptPdf({
      migration: {
        id: 'm1',
        storeName: 'Store',
        sourceStore: '',
        destinationStore: '',
      } as StoredMigration,
      paidQuotes: [quote({})],
      publicUrl: 'http://localhost:4001',
      now: new Date('2026-01-04T00:00:00Z'),
    });
    const document = await getDocument({ data: new Uint8Array(pdf), verbosity: 0 }).promise;
    const items = (await (await document.getPage(1)).getTextContent()).items.filter(
      (item) => 'str' in item && /^\$\d/.test(item.str),
    );
    expect(items.length).toBeGreaterThanOrEqual(4);
    for (const item of items) {
      if (!('str' in item)) continue;
      expect((item.transform[4] as number) + item.width).toBeCloseTo(552, 0);
    }
  });
});
