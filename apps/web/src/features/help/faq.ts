import {
  BASE_FEE_CENTS,
  PER_RECORD_CENTS,
  formatUsd,
  priceFor,
} from '@replatform/contracts/pricing';
import { support, typicalDurations } from '@replatform/contracts/support';

/** Help topics of spec.md section 2, in the order of the filter. */
export const helpTopics = [
  { id: 'all', label: 'All topics' },
  { id: 'getting-started', label: 'Getting Started' },
  { id: 'platforms', label: 'Platforms' },
  { id: 'data', label: 'Data' },
  { id: 'timing', label: 'Timing' },
  { id: 'security', label: 'Security' },
  { id: 'troubleshooting', label: 'Troubleshooting' },
  { id: 'advanced', label: 'Advanced' },
  { id: 'pricing', label: 'Pricing' },
] as const;
export type HelpTopic = (typeof helpTopics)[number]['id'];
export type FaqCategory = Exclude<HelpTopic, 'all'>;

export interface FaqItem {
  question: string;
  answer: string;
  category: FaqCategory;
}

export function isHelpTopic(value: string | null | undefined): value is HelpTopic {
  return helpTopics.some((t) => t.id === value);
}

const baseFee = formatUsd(BASE_FEE_CENTS);
const perRecord = formatUsd(PER_RECORD_CENTS);
const thousandRecords = formatUsd(priceFor({ products: 1000 }).totalCents);
const durations = typicalDurations.map((d) => `${d.size.toLowerCase()}: ${d.duration}`).join('; ');

/** Answers say only what this product does (prices from the shared price rule). */
export const faqItems: FaqItem[] = [
  {
    category: 'getting-started',
    question: 'How does a migration work?',
    answer:
      'Every migration has five steps. Connect Stores: link your source and destination stores and verify both connections. Select Data: choose products, customers, orders or any combination. Payment: see the price for the records we counted and pay by card. Migrate: follow the progress of each data type live. Complete: review the summary, the verification result and the per-record report.',
  },
  {
    category: 'getting-started',
    question: 'Which platforms can I migrate between?',
    answer:
      'Magento 2, Shopify, WooCommerce and BigCommerce, in every direction: any of the four as the source and any of the four as the destination, including a copy between two stores on the same platform.',
  },
  {
    category: 'getting-started',
    question: 'Can I try it before I pay?',
    answer:
      'Yes, in two ways. Choose Try the Demo on the sign-in page: you get a demo account with sample migrations and built-in sandbox stores for all four platforms, and demo payments are clearly labelled and never charge a card. With your own stores connected, Select Data offers a free demo migration: up to 10 records of each type you chose (with the customers and products their orders need) are moved into your destination store through the same engine, checked record by record and listed with links to them, so you can look at them there before you pay. Each migration has 3 free demos, and the full migration never moves those records twice.',
  },
  {
    category: 'getting-started',
    question: 'Does my store keep selling while it is migrated?',
    answer:
      'Yes. We only read from your source store, so customers keep browsing and ordering there. When you are ready to switch, run the migration again to bring over what changed in the meantime.',
  },
  {
    category: 'platforms',
    question: 'What do I need to connect Magento 2?',
    answer:
      'Your store URL and the four values of an integration: consumer key, consumer secret, access token and access token secret. Create the integration in the Magento admin under System > Extensions > Integrations, give it access to the catalogue, customers and sales, and activate it to see the tokens.',
  },
  {
    category: 'platforms',
    question: 'How do I connect Shopify?',
    answer:
      'Enter your store address (your-store.myshopify.com) and choose Install Shopify App. Shopify asks you to approve the access our app needs; after you approve, you come back to your migration with the store connected. No password or key is typed into our site.',
  },
  {
    category: 'platforms',
    question: 'How do I connect WooCommerce?',
    answer:
      'In WordPress go to WooCommerce > Settings > Advanced > REST API, add a key with Read/Write permission, and enter your store URL with the consumer key and consumer secret it shows. The store must be reachable over https.',
  },
  {
    category: 'platforms',
    question: 'How do I connect BigCommerce?',
    answer:
      'Create an API account in your BigCommerce control panel with access to products, customers, orders and marketing (for coupons). Enter the store hash (the code in your store’s API path) and the access token.',
  },
  {
    category: 'data',
    question: 'What data can I migrate?',
    answer:
      'Products with their categories, images, variants, options, prices, inventory and SEO URL keys; customers with their addresses; orders with line items, totals and statuses; coupons with their amounts, dates, limits and the products or categories they apply to; product reviews with the reviewer, rating, text, date and status; brands with their description, logo and SEO fields; and the website’s pages and blog posts with their text, status, dates, author, featured image, categories and tags. You choose which of them to move. Where a platform cannot hold part of a record (a coupon’s start date, a review’s headline), the report names it for each record. Reviews cannot move to or from Magento 2, whose web API has none; on Shopify, which has no reviews of its own, they are kept on each product with its star rating, for your theme or a reviews app to show. Brands cannot move into Shopify, which keeps a brand only as the vendor name of its products (that name moves with each product). Blog posts cannot move to or from Magento 2, which has no blog. A WooCommerce store’s pages and posts belong to WordPress, whose REST API WooCommerce’s keys do not open: give a WordPress user name and application password (Users › Profile › Application Passwords) when you connect it.',
  },
  {
    category: 'data',
    question: 'Will links to my old product pages still work?',
    answer:
      'After the migration, its page in your history offers a redirect map: every product, category and brand page with its old address and its new one, as a list (CSV) and as permanent redirect rules ready to paste into nginx or Apache. Set them up on the domain your customers and search engines know, and old links lead to the new pages.',
  },
  {
    category: 'data',
    question: 'Are customer passwords migrated?',
    answer:
      'No. No platform lets another read its password hashes, so customers choose a new password on the new store the first time they sign in. We suggest telling them by e-mail after you switch.',
  },
  {
    category: 'data',
    question: 'Will my customers receive e-mails when their orders are imported?',
    answer:
      'No. Orders are imported without notifying customers, so nobody gets a second confirmation for an order they placed on your old store.',
  },
  {
    category: 'data',
    question: 'How do I know every record arrived?',
    answer:
      'Every record ends as migrated, skipped or failed, with a reason. After the run we compare source and destination record by record, and the migration’s history page shows the result. Download Report gives every record’s outcome as a CSV file.',
  },
  {
    category: 'timing',
    question: 'How long does a migration take?',
    answer: `It depends mostly on the size of your catalogue and on the platforms’ API limits. Typical times are ${durations}.`,
  },
  {
    category: 'timing',
    question: 'Can I follow the progress?',
    answer:
      'Yes. The Migrate step shows a progress bar for each data type you chose (products, customers, orders, coupons, reviews), refreshed every 5 seconds. You can close the browser: the migration keeps running on our servers, and a notification tells you when it is finished.',
  },
  {
    category: 'timing',
    question: 'What happens if a migration is interrupted?',
    answer:
      'It resumes where it stopped. Progress is saved after every batch, and records already written to the destination are recognised, so a restart never creates duplicates.',
  },
  {
    category: 'security',
    question: 'How are my store credentials protected?',
    answer:
      'Keys and tokens are encrypted at rest with AES-256-GCM, used only by our server to talk to your store, never written to logs, and never shown again in full: the app only displays their last characters.',
  },
  {
    category: 'security',
    question: 'Do you change anything in my source store?',
    answer:
      'No. The source store is only read. Records are written to the destination store only, and only after you have paid.',
  },
  {
    category: 'security',
    question: 'Who can see my migrations?',
    answer:
      'Only you. Every request is checked against your account on our server, and another user’s migration is treated as if it did not exist. Deleting your account deletes your migrations and their stored credentials.',
  },
  {
    category: 'troubleshooting',
    question: 'Why do I see “Connection Failed”?',
    answer:
      'Usually the store URL or a key is not quite right. Check the URL is your store’s exact https address, copy keys again without spaces, and check the key’s permissions: Read/Write for WooCommerce, catalogue, customers, sales and cart price rules for a Magento integration (which must be activated), and products, customers, orders and marketing for BigCommerce.',
  },
  {
    category: 'troubleshooting',
    question: 'Some records failed. What should I do?',
    answer: `Download the report from the migration’s history page: each failed record has its reason, such as a missing required field or a value the destination does not accept. Fix it in the source store and run the migration again; records already migrated are left alone. Our support team resolves failures ${support.failureResolution}.`,
  },
  {
    category: 'troubleshooting',
    question: 'The progress has not moved for a while. Is something wrong?',
    answer:
      'Platforms limit how fast their APIs may be called, and we slow down to stay within those limits rather than fail. Large catalogues with many images take longest. If nothing has moved for an hour, contact support with the migration’s name.',
  },
  {
    category: 'advanced',
    question: 'Can I bring over new orders after the first run?',
    answer:
      'Yes. Run the migration again before you switch: records that are new or changed since the last run are written, and the rest are recognised and skipped. Your first re-migration is free.',
  },
  {
    category: 'advanced',
    question: 'Are my URLs and search rankings kept?',
    answer:
      'Each product’s, category’s and brand’s URL key is carried across. Where the destination needs a different path, the old path goes into the redirect map on the migration’s page, as a list and as ready-to-paste 301 rules for nginx and Apache; add them to your old domain, or to your new platform’s redirect settings.',
  },
  {
    category: 'advanced',
    question: 'Can I run migrations from the command line?',
    answer:
      'Yes, on a self-hosted installation: npx replatform count, migrate and verify run the same engine from a terminal, which suits scripted or repeated migrations.',
  },
  {
    category: 'pricing',
    question: 'How much does a migration cost?',
    answer: `${baseFee} per migration plus ${perRecord} per record (products + customers + orders). For example, 1,000 records cost ${thousandRecords}. The price is based on the records we count in your source store, and you see it before you pay.`,
  },
  {
    category: 'pricing',
    question: 'What if my store grows after I have paid?',
    answer:
      'You only pay for the records you have not paid for yet. If the source has more records when the migration starts, we ask for a top-up for the difference before the extra records move.',
  },
  {
    category: 'pricing',
    question: 'Is there a money-back guarantee?',
    answer:
      'Yes: a 30-day money-back guarantee, and your money back if a migration fails. Your first re-migration is free.',
  },
  {
    category: 'pricing',
    question: 'How do I pay, and do I get a receipt?',
    answer:
      'By card through Stripe’s secure checkout; we never see your card number. After payment you can download the receipt from the Payment step or from the migration’s history page.',
  },
  {
    category: 'pricing',
    question: 'Do you offer quotes for very large stores?',
    answer:
      'Yes. For stores with more than 10,000 records, or several stores at once, request a quote on our Enterprise page and we reply within 2 hours during support hours.',
  },
];

/** Case-insensitive search over questions and answers, within a topic ('all' for every one). */
export function filterFaq(items: FaqItem[], search: string, topic: HelpTopic): FaqItem[] {
  const words = search.trim().toLowerCase().split(/\s+/).filter(Boolean);
  return items.filter((item) => {
    if (topic !== 'all' && item.category !== topic) return false;
    const text = `${item.question} ${item.answer}`.toLowerCase();
    return words.every((word) => text.includes(word));
  });
}

export function topicLabel(topic: HelpTopic): string {
  return helpTopics.find((t) => t.id === topic)?.label ?? topic;
}
