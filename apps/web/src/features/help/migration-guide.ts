import { BASE_FEE_CENTS, formatUsd, PER_RECORD_CENTS } from '@replatform/contracts/pricing';
import { support, typicalDurations } from '@replatform/contracts/support';
import type { PdfBlock } from './guide-pdf.ts';

/** The five steps as the walkthrough shows them and the PDF guide explains them. */
export const guideSteps = [
  {
    title: 'Connect Stores',
    summary: 'Choose your source and destination platforms and verify both connections.',
    details: [
      'Magento 2: store URL plus the consumer key, consumer secret, access token and access token secret of an integration (System > Extensions > Integrations).',
      'Shopify: your your-store.myshopify.com address, then Install Shopify App and approve the access in Shopify.',
      'WooCommerce: store URL plus a REST API consumer key and secret with Read/Write permission.',
      'BigCommerce: store hash and the access token of an API account with products, customers and orders access.',
      'Verify Connection checks the keys against your store before they are saved, encrypted.',
    ],
  },
  {
    title: 'Select Data',
    summary:
      'Pick products, customers, orders, coupons, reviews, brands, pages and blog posts, in any combination.',
    details: [
      'Products move with categories, images, variants, options, prices, inventory and URL keys.',
      'Customers move with their addresses. Passwords cannot move between platforms.',
      'Orders move with line items, totals and mapped statuses, without e-mailing your customers.',
      'Coupons move with their amounts, dates and limits, and stay limited to the same products and categories.',
      'Product reviews move with the reviewer, rating, text, date and status, onto the same products (not to or from Magento 2, which has no reviews API).',
      'Brands move with their description, logo and SEO fields, and products keep their brand (into Shopify, only as each product’s vendor).',
      'Web pages and blog posts move with their text, status, dates, author, featured image and, for posts, categories and tags (Magento 2 has pages but no blog). A WooCommerce store needs a WordPress application password on Connect Stores for them.',
      'Try a free demo migration first: up to 10 records of each type move into your destination store, to be checked there before you pay.',
    ],
  },
  {
    title: 'Payment',
    summary: 'See the price for the records counted in your store and pay by card.',
    details: [
      `${formatUsd(BASE_FEE_CENTS)} per migration plus ${formatUsd(PER_RECORD_CENTS)} per record.`,
      'Payment runs through Stripe Checkout; your receipt is ready to download afterwards.',
      '30-day money-back guarantee, and your first re-migration is free.',
    ],
  },
  {
    title: 'Migrate',
    summary: 'Start the migration and follow products, customers and orders live.',
    details: [
      'Progress refreshes every 5 seconds; you can close the browser while it runs.',
      'Interrupted runs resume where they stopped, without duplicates.',
      ...typicalDurations.map((d) => `${d.size}: typically ${d.duration}.`),
    ],
  },
  {
    title: 'Complete',
    summary: 'Review the summary, the verification result and the per-record report.',
    details: [
      'Every record is migrated, skipped or failed with a reason.',
      'Source and destination are compared record by record after the run.',
      'Download Report gives every outcome as a CSV file.',
      'The redirect map pairs every product’s and category’s old address with its new one, with nginx and Apache rules.',
    ],
  },
] as const;

const beforeYouStart = [
  'Count what you are moving: connecting your source store shows the exact counts and price.',
  'Tidy the source first: discontinued products and test orders are better deleted than moved.',
  'Set up payments, shipping and taxes on the new platform: they are settings, not data we move.',
  'Try the whole flow with Try the Demo, which uses built-in sandbox stores and charges nothing.',
];

const afterTheMove = [
  'Run the migration again just before you switch, to bring over new orders and changes.',
  'Put the redirect map’s 301 rules in place, then check your most visited pages redirect from their old URLs.',
  'Tell your customers to choose a new password on the new store.',
  'Submit the new sitemap to search engines.',
];

/** The PDF migration guide's content. */
export function guideBlocks(generatedOn: Date): PdfBlock[] {
  const blocks: PdfBlock[] = [
    { kind: 'title', text: 'Replatform migration guide' },
    {
      kind: 'subtitle',
      text: `Moving products, customers and orders between Magento 2, Shopify, WooCommerce and BigCommerce. Generated ${generatedOn.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' })}.`,
    },
    { kind: 'heading', text: 'Before you start' },
    ...beforeYouStart.map((text): PdfBlock => ({ kind: 'bullet', text })),
  ];
  guideSteps.forEach((step, index) => {
    blocks.push({ kind: 'heading', text: `Step ${index + 1}: ${step.title}` });
    blocks.push({ kind: 'paragraph', text: step.summary });
    for (const text of step.details) blocks.push({ kind: 'bullet', text });
  });
  blocks.push(
    { kind: 'heading', text: 'After the move' },
    ...afterTheMove.map((text): PdfBlock => ({ kind: 'bullet', text })),
    { kind: 'heading', text: 'Getting help' },
    {
      kind: 'paragraph',
      text: `E-mail ${support.email} or call ${support.phoneDisplay}. We answer ${support.responseTime} and resolve failed migrations ${support.failureResolution}.`,
    },
    { kind: 'bullet', text: support.hours.weekdays },
    { kind: 'bullet', text: support.hours.weekend },
  );
  return blocks;
}
