import { crc32, deflateSync } from 'node:zlib';
import { Random } from './random.ts';

/**
 * A platform-neutral sample store, generated deterministically from a seed. Every emulator seeds
 * itself from this (in its own platform's shape), so sandbox stores of all four platforms hold
 * equivalent, realistic data: nested categories, simple products and products with options,
 * customers with addresses, and orders that reference real products and customers.
 *
 * Amounts are decimal strings in the store currency ('19.99'), as platforms' APIs carry them.
 * Image paths are relative ('/media/...'): each emulator serves them under its own base URL.
 */

export interface SampleAddress {
  firstName: string;
  lastName: string;
  company: string;
  address1: string;
  address2: string;
  city: string;
  province: string;
  postalCode: string;
  countryCode: string;
  phone: string;
}

export interface SampleCategory {
  key: string;
  name: string;
  slug: string;
  parentKey: string | null;
  description: string;
  position: number;
}

export interface SampleVariant {
  sku: string;
  optionValues: Record<string, string>;
  price: string;
  compareAtPrice: string | null;
  stock: number;
  weightKg: number;
}

export interface SampleProduct {
  key: string;
  name: string;
  slug: string;
  sku: string;
  descriptionHtml: string;
  shortDescriptionHtml: string;
  status: 'active' | 'draft';
  vendor: string;
  tags: string[];
  categoryKeys: string[];
  images: { path: string; alt: string }[];
  /** Empty for a simple product. */
  options: { name: string; values: string[] }[];
  /** One per option combination; exactly one for a simple product. */
  variants: SampleVariant[];
  seoTitle: string;
  seoDescription: string;
  attributes: Record<string, string>;
  dimensionsCm: { length: number; width: number; height: number };
  createdAt: string;
}

export interface SampleCustomer {
  key: string;
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  acceptsMarketing: boolean;
  note: string;
  tags: string[];
  createdAt: string;
  addresses: (SampleAddress & { defaultBilling: boolean; defaultShipping: boolean })[];
}

export interface SampleOrderLine {
  productKey: string;
  variantSku: string;
  sku: string;
  name: string;
  quantity: number;
  unitPrice: string;
  tax: string;
}

export interface SampleOrder {
  key: string;
  number: string;
  createdAt: string;
  currency: string;
  customerKey: string | null;
  email: string;
  status: 'pending' | 'processing' | 'on-hold' | 'completed' | 'cancelled' | 'refunded';
  lines: SampleOrderLine[];
  shipping: { title: string; code: string; price: string };
  discount: { code: string; amount: string } | null;
  billing: SampleAddress;
  shippingAddress: SampleAddress;
  note: string;
}

/** A discount code of the sample store; amounts are decimals in the store's currency. */
export interface SampleCoupon {
  key: string;
  code: string;
  description: string;
  discountType: 'percent' | 'fixed_cart' | 'fixed_product';
  /** Percent off for 'percent', an amount otherwise ('0.00' for a free-shipping-only code). */
  amount: string;
  freeShipping: boolean;
  enabled: boolean;
  startsAt: string | null;
  expiresAt: string | null;
  minimumSpend: string | null;
  maximumSpend: string | null;
  usageLimit: number | null;
  usageLimitPerCustomer: number | null;
  /** Orders of the sample store that used the code. */
  usageCount: number;
  itemLimit: number | null;
  individualUse: boolean;
  excludeSaleItems: boolean;
  productKeys: string[];
  excludedProductKeys: string[];
  categoryKeys: string[];
  excludedCategoryKeys: string[];
  allowedEmails: string[];
  createdAt: string;
}

/**
 * A brand of the sample store. Its name is what its products give as their vendor; each has a
 * page at /brand/<slug>/ where the platform gives brands pages.
 */
export interface SampleBrand {
  key: string;
  name: string;
  slug: string;
  /** HTML; '' for a brand the merchant wrote nothing about. */
  description: string;
  /** Path of the logo on the store's media host, or null for a brand without one. */
  logoPath: string | null;
  /** '' when the brand has no SEO title of its own. */
  seoTitle: string;
  seoDescription: string;
  /** Position in the store's brand list (0-based). */
  position: number;
}

/** What a sample web page and blog post share. */
export interface SampleContent {
  key: string;
  title: string;
  slug: string;
  /** HTML. */
  body: string;
  /** HTML summary; '' when none. */
  excerpt: string;
  status: 'published' | 'draft';
  /** Null for a draft never published. */
  publishedAt: string | null;
  createdAt: string;
  updatedAt: string;
  authorName: string;
  /** Path of the featured image on the store's media host, or null. */
  imagePath: string | null;
  imageAlt: string;
  /** '' when it has no SEO title or description of its own. */
  seoTitle: string;
  seoDescription: string;
}

/** A web page of the sample store (about, shipping, contact), in a tree. */
export interface SamplePage extends SampleContent {
  /** Key of the parent page, or null for a top page. */
  parentKey: string | null;
  /** Position among its siblings (0-based). */
  position: number;
}

/** A blog post of the sample store. */
export interface SamplePost extends SampleContent {
  categories: string[];
  tags: string[];
}

/** A customer's review of a sample product. */
export interface SampleReview {
  key: string;
  productKey: string;
  reviewerName: string;
  /** '' for a reviewer who left no address. */
  reviewerEmail: string;
  /** 1 to 5 stars; null for a review given without stars. */
  rating: number | null;
  /** '' when the reviewer gave no headline. */
  title: string;
  /** HTML, as WooCommerce keeps a review's text. */
  body: string;
  status: 'approved' | 'pending' | 'rejected' | 'spam';
  /** The reviewer is a customer who ordered the product. */
  verified: boolean;
  createdAt: string;
}

export interface SampleStore {
  currency: string;
  categories: SampleCategory[];
  products: SampleProduct[];
  customers: SampleCustomer[];
  orders: SampleOrder[];
  coupons: SampleCoupon[];
  reviews: SampleReview[];
  /** Every vendor the products name, as a brand record (none with `brands: false`). */
  brands: SampleBrand[];
  /** The website's pages and blog posts (none with `content: false`). */
  pages: SamplePage[];
  posts: SamplePost[];
}

export interface SampleStoreOptions {
  seed?: number;
  products?: number;
  customers?: number;
  orders?: number;
  /** False for a store without coupons; otherwise it has the six sample coupons. */
  coupons?: boolean;
  /** False for a store without reviews; otherwise its first products have the sample reviews. */
  reviews?: boolean;
  /** False for a store without brand records (its products still name their vendor). */
  brands?: boolean;
  /** False for a store without web pages and blog posts. */
  content?: boolean;
  currency?: string;
  /** Share of products that have options (0..1), default 0.3. */
  variableShare?: number;
}

/** The sketch's mock counts: 1,500 products, 750 customers, 250 orders. */
export const sandboxCounts = { products: 1500, customers: 750, orders: 250 } as const;

/**
 * The sample store's coupons: one of each kind a store owner uses, with the limits and
 * restrictions platforms differ on. The first three are the codes the sample orders use.
 */
function sampleCoupons(
  categories: readonly SampleCategory[],
  products: readonly SampleProduct[],
  orders: readonly SampleOrder[],
): SampleCoupon[] {
  const base = {
    description: '',
    freeShipping: false,
    enabled: true,
    startsAt: null,
    expiresAt: null,
    minimumSpend: null,
    maximumSpend: null,
    usageLimit: null,
    usageLimitPerCustomer: null,
    itemLimit: null,
    individualUse: false,
    excludeSaleItems: false,
    productKeys: [],
    excludedProductKeys: [],
    categoryKeys: [],
    excludedCategoryKeys: [],
    allowedEmails: [],
  };
  const leaf = categories.find((c) => c.parentKey !== null);
  const coupons: Omit<SampleCoupon, 'usageCount'>[] = [
    {
      ...base,
      key: 'coupon-welcome10',
      code: 'WELCOME10',
      description: 'Ten percent off a first order.',
      discountType: 'percent',
      amount: '10',
      usageLimitPerCustomer: 1,
      individualUse: true,
      createdAt: '2022-01-10T09:00:00.000Z',
    },
    {
      ...base,
      key: 'coupon-spring15',
      code: 'SPRING15',
      description: '15.00 off orders over 75.00 in spring.',
      discountType: 'fixed_cart',
      amount: '15.00',
      minimumSpend: '75.00',
      startsAt: '2023-03-01T00:00:00.000Z',
      expiresAt: '2023-05-31T23:59:59.000Z',
      usageLimit: 500,
      createdAt: '2023-02-20T12:30:00.000Z',
    },
    {
      ...base,
      key: 'coupon-vip20',
      code: 'VIP20',
      description: 'Twenty percent off for our regulars.',
      discountType: 'percent',
      amount: '20',
      excludeSaleItems: true,
      maximumSpend: '500.00',
      createdAt: '2022-06-01T08:00:00.000Z',
    },
    {
      ...base,
      key: 'coupon-shipfree',
      code: 'SHIPFREE',
      description: 'Free shipping on orders over 50.00.',
      discountType: 'fixed_cart',
      amount: '0.00',
      freeShipping: true,
      minimumSpend: '50.00',
      createdAt: '2022-09-15T10:00:00.000Z',
    },
    {
      ...base,
      key: 'coupon-five-off-each',
      code: 'FIVEOFFEACH',
      description: leaf ? `5.00 off each item in ${leaf.name}.` : '5.00 off each item.',
      discountType: 'fixed_product',
      amount: '5.00',
      itemLimit: 3,
      categoryKeys: leaf ? [leaf.key] : [],
      createdAt: '2024-04-02T14:00:00.000Z',
    },
    {
      ...base,
      key: 'coupon-staff',
      code: 'STAFF-ONLY',
      description: 'Staff discount on two products, for staff addresses only.',
      discountType: 'percent',
      amount: '30',
      enabled: false,
      productKeys: products.slice(0, 2).map((p) => p.key),
      allowedEmails: ['*@staff.example.com'],
      usageLimit: 50,
      createdAt: '2024-11-20T16:45:00.000Z',
    },
  ];
  return coupons.map((coupon) => ({
    ...coupon,
    usageCount: orders.filter((o) => o.discount?.code === coupon.code).length,
  }));
}

/**
 * The sample store's product reviews: every rating and every moderation state, a verified buyer
 * (a customer whose order holds the product), a guest without an address who gave no stars, a
 * headline, a name and text beyond ASCII, and HTML in the text. Reviews go to the first products.
 */
function sampleReviews(
  products: readonly SampleProduct[],
  customers: readonly SampleCustomer[],
  orders: readonly SampleOrder[],
): SampleReview[] {
  if (products.length === 0) return [];
  const product = (i: number) => products[i % products.length]!;
  const buyer = orders.find((o) => o.customerKey !== null && o.lines.length > 0);
  const buyerCustomer = buyer ? customers.find((c) => c.key === buyer.customerKey) : undefined;
  const reviews: SampleReview[] = [
    {
      key: 'review-1',
      productKey: product(0).key,
      reviewerName: 'Maya Lindqvist',
      reviewerEmail: 'maya.lindqvist@example.com',
      rating: 5,
      title: 'Exactly as described',
      body: '<p>Fits well and the colour is <strong>exactly</strong> as in the photos.</p>',
      status: 'approved',
      verified: false,
      createdAt: '2023-04-12T10:15:00.000Z',
    },
    {
      key: 'review-2',
      productKey: product(0).key,
      reviewerName: 'Zoë Ångström',
      reviewerEmail: 'zoe.angstrom@example.com',
      rating: 4,
      title: '',
      body: '<p>Très bien. Shipping took a week, though.</p>\n<p>Would buy again.</p>',
      status: 'approved',
      verified: false,
      createdAt: '2023-05-02T18:40:00.000Z',
    },
    {
      key: 'review-3',
      productKey: product(1).key,
      reviewerName: 'Sam Okafor',
      reviewerEmail: 'sam.okafor@example.com',
      rating: 3,
      title: 'Fine for the price',
      body: '<p>Does the job. The stitching on one side came loose after a month.</p>',
      status: 'approved',
      verified: false,
      createdAt: '2023-08-21T07:05:00.000Z',
    },
    {
      key: 'review-4',
      productKey: product(1).key,
      reviewerName: 'Guest shopper',
      reviewerEmail: '',
      rating: null,
      title: '',
      body: '<p>Smaller than I expected.</p>',
      status: 'pending',
      verified: false,
      createdAt: '2024-01-09T21:30:00.000Z',
    },
    {
      key: 'review-5',
      productKey: product(2).key,
      reviewerName: 'Priya Raman',
      reviewerEmail: 'priya.raman@example.com',
      rating: 1,
      title: 'Arrived broken',
      body: '<p>The box was crushed and the item was broken. Support replaced it quickly.</p>',
      status: 'rejected',
      verified: false,
      createdAt: '2024-02-14T12:00:00.000Z',
    },
    {
      key: 'review-6',
      productKey: product(2).key,
      reviewerName: 'Cheap Pills',
      reviewerEmail: 'offers@spam.example.com',
      rating: 5,
      title: 'Great deals',
      body: '<p>Visit our site for great deals!!!</p>',
      status: 'spam',
      verified: false,
      createdAt: '2024-03-01T03:33:00.000Z',
    },
  ];
  if (buyer && buyerCustomer) {
    const line = buyer.lines[0]!;
    reviews.push({
      key: 'review-7',
      productKey: line.productKey,
      reviewerName: `${buyerCustomer.firstName} ${buyerCustomer.lastName}`,
      reviewerEmail: buyerCustomer.email,
      rating: 5,
      title: 'Bought it twice',
      body: '<p>Second one for my brother &amp; he loves it too.</p>',
      status: 'approved',
      verified: true,
      createdAt: '2024-06-30T16:20:00.000Z',
    });
  }
  return reviews;
}

const firstNames = [
  'Olivia',
  'Liam',
  'Emma',
  'Noah',
  'Ava',
  'Elijah',
  'Sophia',
  'Mateo',
  'Isabella',
  'Lucas',
  'Mia',
  'Amelia',
  'Hiroshi',
  'Priya',
  'Chloé',
  'Søren',
  'Zoë',
  'Aisha',
  'Diego',
  'Fatima',
  'Grace',
  'Henry',
  'Ivy',
  'Jack',
  'Kai',
  'Leah',
  'Marco',
  'Nina',
  'Oscar',
  'Paula',
];
const lastNames = [
  'Smith',
  'Johnson',
  'Williams',
  'Brown',
  'Garcia',
  'Miller',
  'Davis',
  'Martinez',
  'Nguyen',
  'Kim',
  "O'Brien",
  'Müller',
  'Rossi',
  'Dubois',
  'Kowalski',
  'Patel',
  'Silva',
  'Andersen',
  'Tanaka',
  'López',
  'Clarke',
  'Evans',
  'Fischer',
  'Haddad',
];
const cities: { city: string; province: string; countryCode: string; zip: () => string }[] = [
  { city: 'Austin', province: 'TX', countryCode: 'US', zip: () => '78701' },
  { city: 'Portland', province: 'OR', countryCode: 'US', zip: () => '97205' },
  { city: 'Brooklyn', province: 'NY', countryCode: 'US', zip: () => '11201' },
  { city: 'Denver', province: 'CO', countryCode: 'US', zip: () => '80202' },
  { city: 'Toronto', province: 'ON', countryCode: 'CA', zip: () => 'M5V 2T6' },
  { city: 'Vancouver', province: 'BC', countryCode: 'CA', zip: () => 'V6B 1A1' },
  { city: 'Manchester', province: '', countryCode: 'GB', zip: () => 'M1 1AE' },
  { city: 'Berlin', province: '', countryCode: 'DE', zip: () => '10115' },
  { city: 'Melbourne', province: 'VIC', countryCode: 'AU', zip: () => '3000' },
  { city: 'Lyon', province: '', countryCode: 'FR', zip: () => '69002' },
];
const streets = [
  'Main St',
  'Oak Avenue',
  'Maple Road',
  'High Street',
  'Elm Court',
  'Cedar Lane',
  'Harbour Way',
  'Station Road',
  'Park Blvd',
  'Rue de la République',
];
const vendors = [
  'Northwind Outfitters',
  'Luma',
  'Acme Goods',
  'Fjällbo',
  'Copper & Pine',
  'Blue Harbor',
];

/**
 * The sample store's brands, one per vendor: with a description (HTML), a logo and SEO fields,
 * except the last, which the merchant left bare; names beyond ASCII and with an ampersand.
 */
function sampleBrands(): SampleBrand[] {
  const told: Record<string, string> = {
    'Northwind Outfitters':
      '<p>Outdoor clothing <strong>tested in the Pacific Northwest</strong>.</p>',
    Luma: '<p>Sportswear and yoga gear.</p>',
    'Acme Goods': '<p>Everyday goods, built to last.</p>',
    Fjällbo: '<p>Scandinavian design for the home, made in Småland.</p>',
    'Copper & Pine': '<p>Handmade copper and pine pieces.</p>',
  };
  return vendors.map((name, position) => {
    const slug = slugify(name);
    const description = told[name] ?? '';
    return {
      key: `brand-${slug}`,
      name,
      slug,
      description,
      logoPath: description ? `/media/brands/${slug}.png` : null,
      seoTitle: description ? `${name} | Sample Store` : '',
      seoDescription: description ? `Shop ${name} at the Sample Store.` : '',
      position,
    };
  });
}

/**
 * The sample store's web pages: a tree of two levels, HTML with headings, lists, links and an
 * ampersand, SEO fields on some, and a draft never published.
 */
function samplePages(): SamplePage[] {
  const page = (
    key: string,
    title: string,
    body: string,
    more: Partial<SamplePage> & { position: number },
  ): SamplePage => ({
    key,
    title,
    slug: slugify(title),
    body,
    excerpt: '',
    status: 'published',
    publishedAt: '2024-02-01T09:00:00Z',
    createdAt: '2024-02-01T09:00:00Z',
    updatedAt: '2024-03-15T12:30:00Z',
    authorName: 'Store Admin',
    imagePath: null,
    imageAlt: '',
    seoTitle: '',
    seoDescription: '',
    parentKey: null,
    ...more,
  });
  return [
    page(
      'page-about',
      'About us',
      '<h2>Who we are</h2>\n<p>A small team in <strong>Portland</strong> selling goods made to last.</p>',
      {
        position: 0,
        seoTitle: 'About the Sample Store',
        seoDescription: 'Who runs the Sample Store, and why.',
      },
    ),
    page(
      'page-shipping',
      'Shipping & returns',
      '<h2>Shipping</h2>\n<ul><li>Free over $50</li><li>2–4 working days</li></ul>\n<p>Returns within 30 days: see <a href="/contact/">Contact</a>.</p>',
      { position: 1 },
    ),
    page(
      'page-international',
      'International shipping',
      '<p>We ship to Canada, the UK and the EU. Duties are paid on delivery.</p>',
      { position: 0, parentKey: 'page-shipping' },
    ),
    page('page-contact', 'Contact', '<p>Write to hello@example.com, Monday to Friday.</p>', {
      position: 2,
      imagePath: '/media/pages/contact.png',
      imageAlt: 'Our shop front',
    }),
    page(
      'page-spring-sale',
      'Spring sale',
      '<p>Everything 20% off from 1 April. <em>Not announced yet.</em></p>',
      { position: 3, status: 'draft', publishedAt: null, authorName: 'Maja Lind' },
    ),
  ];
}

/** The sample store's blog posts: categories and tags, featured images, an excerpt, a draft. */
function samplePosts(): SamplePost[] {
  const post = (
    key: string,
    title: string,
    body: string,
    more: Partial<SamplePost>,
  ): SamplePost => ({
    key,
    title,
    slug: slugify(title),
    body,
    excerpt: '',
    status: 'published',
    publishedAt: '2024-05-02T08:00:00Z',
    createdAt: '2024-05-01T16:20:00Z',
    updatedAt: '2024-05-02T08:00:00Z',
    authorName: 'Maja Lind',
    imagePath: null,
    imageAlt: '',
    seoTitle: '',
    seoDescription: '',
    categories: ['News'],
    tags: [],
    ...more,
  });
  return [
    post(
      'post-linen',
      'Caring for your linen',
      '<p>Wash at 40°, dry flat, and iron while damp.</p>\n<h3>Stains</h3>\n<p>Cold water first.</p>',
      {
        excerpt: '<p>Three rules that keep linen soft for years.</p>',
        categories: ['Guides'],
        tags: ['linen', 'care'],
        imagePath: '/media/blog/caring-for-your-linen.png',
        imageAlt: 'Folded linen on a shelf',
        seoTitle: 'Linen care guide',
        seoDescription: 'How to wash, dry and iron linen.',
      },
    ),
    post(
      'post-fjallbo',
      'Behind the brand: Fjällbo',
      '<p>A visit to the workshop in Småland where Fjällbo’s pieces are made.</p>',
      {
        publishedAt: '2024-06-10T10:00:00Z',
        createdAt: '2024-06-09T10:00:00Z',
        updatedAt: '2024-06-10T10:00:00Z',
        authorName: 'Tom Reyes',
        categories: ['Stories'],
        tags: ['Fjällbo', 'makers'],
        imagePath: '/media/blog/behind-the-brand-fjallbo.png',
        imageAlt: 'The Fjällbo workshop',
      },
    ),
    post('post-lookbook', 'Our summer lookbook', '<p>Light layers & bright colours.</p>', {
      publishedAt: '2024-07-01T07:30:00Z',
      createdAt: '2024-06-28T15:00:00Z',
      updatedAt: '2024-07-01T07:30:00Z',
      categories: ['News', 'Guides'],
    }),
    post('post-holidays', 'Holiday opening hours', '<p>Closed 24–26 December.</p>', {
      status: 'draft',
      publishedAt: null,
      createdAt: '2024-11-20T09:00:00Z',
      updatedAt: '2024-11-21T09:00:00Z',
      tags: ['holidays'],
    }),
  ];
}

const catalogue: {
  root: string;
  children: { name: string; nouns: string[]; options?: { name: string; values: string[] }[] }[];
}[] = [
  {
    root: 'Apparel',
    children: [
      {
        name: 'T-Shirts',
        nouns: ['Crew Tee', 'V-Neck Tee', 'Pocket Tee', 'Graphic Tee'],
        options: [
          { name: 'Size', values: ['XS', 'S', 'M', 'L', 'XL'] },
          { name: 'Color', values: ['Black', 'White', 'Heather Grey', 'Navy'] },
        ],
      },
      {
        name: 'Hoodies & Sweatshirts',
        nouns: ['Pullover Hoodie', 'Zip Hoodie', 'Crewneck Sweatshirt'],
        options: [
          { name: 'Size', values: ['S', 'M', 'L', 'XL'] },
          { name: 'Color', values: ['Charcoal', 'Forest', 'Oatmeal'] },
        ],
      },
      {
        name: 'Jackets',
        nouns: ['Rain Jacket', 'Down Jacket', 'Denim Jacket', 'Fleece Jacket'],
        options: [{ name: 'Size', values: ['S', 'M', 'L'] }],
      },
    ],
  },
  {
    root: 'Gear',
    children: [
      {
        name: 'Bags',
        nouns: ['Backpack', 'Duffle Bag', 'Messenger Bag', 'Tote'],
        options: [{ name: 'Color', values: ['Black', 'Olive', 'Sand'] }],
      },
      {
        name: 'Fitness Equipment',
        nouns: ['Yoga Mat', 'Kettlebell', 'Resistance Band Set', 'Foam Roller', 'Jump Rope'],
      },
      { name: 'Watches', nouns: ['Field Watch', 'Dive Watch', 'Chronograph', 'Smart Band'] },
    ],
  },
  {
    root: 'Home',
    children: [
      {
        name: 'Kitchen',
        nouns: ['Chef Knife', 'Cast Iron Skillet', 'Pour-Over Kettle', 'Cutting Board'],
      },
      {
        name: 'Decor',
        nouns: ['Ceramic Vase', 'Linen Throw', 'Wall Print', 'Scented Candle'],
        options: [{ name: 'Scent', values: ['Cedar', 'Lavender', 'Citrus'] }],
      },
    ],
  },
];
const adjectives = [
  'Classic',
  'Essential',
  'Heritage',
  'Trail',
  'Urban',
  'Organic',
  'Premium',
  'Everyday',
  'Alpine',
  'Coastal',
  'Vintage',
  'Modern',
];
const materials = [
  'cotton',
  'recycled polyester',
  'merino wool',
  'stainless steel',
  'canvas',
  'oak',
  'ceramic',
  'leather',
];

function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

const decimal = (cents: number) => (cents / 100).toFixed(2);

function combinations(options: { name: string; values: string[] }[]): Record<string, string>[] {
  return options.reduce<Record<string, string>[]>(
    (acc, option) =>
      acc.flatMap((combo) => option.values.map((value) => ({ ...combo, [option.name]: value }))),
    [{}],
  );
}

function isoAt(random: Random, fromYear: number): string {
  const start = Date.UTC(fromYear, 0, 1);
  const end = Date.UTC(2026, 9, 1);
  return new Date(start + Math.floor((random.next() * (end - start)) / 1000) * 1000).toISOString();
}

function address(random: Random, firstName: string, lastName: string): SampleAddress {
  const place = random.pick(cities);
  return {
    firstName,
    lastName,
    company: random.chance(0.15) ? `${random.pick(lastNames)} & Co.` : '',
    address1: `${random.int(1, 9999)} ${random.pick(streets)}`,
    address2: random.chance(0.2) ? `Apt ${random.int(1, 40)}` : '',
    city: place.city,
    province: place.province,
    postalCode: place.zip(),
    countryCode: place.countryCode,
    phone: `+1-555-${String(random.int(100, 999))}-${String(random.int(1000, 9999))}`,
  };
}

export function generateSampleStore(options: SampleStoreOptions = {}): SampleStore {
  const random = new Random(options.seed ?? 2020);
  const currency = options.currency ?? 'USD';
  const variableShare = options.variableShare ?? 0.3;

  const categories: SampleCategory[] = [];
  const leaves: { key: string; spec: (typeof catalogue)[number]['children'][number] }[] = [];
  catalogue.forEach((group, rootIndex) => {
    const rootKey = `cat-${slugify(group.root)}`;
    categories.push({
      key: rootKey,
      name: group.root,
      slug: slugify(group.root),
      parentKey: null,
      description: `<p>Shop our ${group.root.toLowerCase()} collection.</p>`,
      position: rootIndex,
    });
    group.children.forEach((child, childIndex) => {
      const key = `cat-${slugify(group.root)}-${slugify(child.name)}`;
      categories.push({
        key,
        name: child.name,
        slug: slugify(child.name),
        parentKey: rootKey,
        description: `<p>${child.name} built to last.</p>`,
        position: childIndex,
      });
      leaves.push({ key, spec: child });
    });
  });

  const products: SampleProduct[] = [];
  const usedSlugs = new Set<string>();
  for (let i = 1; i <= (options.products ?? sandboxCounts.products); i++) {
    const leaf = leaves[(i - 1) % leaves.length];
    if (!leaf) throw new Error('no leaf categories');
    const noun = random.pick(leaf.spec.nouns);
    const name = `${random.pick(adjectives)} ${noun} ${i}`;
    let slug = slugify(name);
    while (usedSlugs.has(slug)) slug = `${slug}-${i}`;
    usedSlugs.add(slug);
    const sku = `RP-${String(i).padStart(5, '0')}`;
    const priceCents = random.int(5, 400) * 100 - 1;
    const onSale = random.chance(0.2);
    const hasOptions = leaf.spec.options !== undefined && random.chance(variableShare / 0.55);
    const productOptions = hasOptions
      ? (leaf.spec.options ?? []).map((o) => ({
          name: o.name,
          values: o.values.slice(0, Math.max(2, random.int(2, o.values.length))),
        }))
      : [];
    const combos = hasOptions ? combinations(productOptions) : [{}];
    const variants: SampleVariant[] = combos.map((combo, v) => ({
      sku: hasOptions
        ? `${sku}-${Object.values(combo)
            .map((x) => slugify(x).toUpperCase())
            .join('-')}`
        : sku,
      optionValues: combo,
      price: decimal(priceCents + (hasOptions && v % 3 === 2 ? 500 : 0)),
      compareAtPrice: onSale ? decimal(Math.round(priceCents * 1.25)) : null,
      stock: random.chance(0.1) ? 0 : random.int(1, 250),
      weightKg: Math.round(random.int(50, 5000)) / 1000,
    }));
    const imageCount = random.int(1, 3);
    products.push({
      key: `prod-${i}`,
      name,
      slug,
      sku,
      descriptionHtml: `<p>The ${name} is made from ${random.pick(materials)} for everyday use.</p><ul><li>Designed in-house</li><li>Free returns within 30 days</li></ul>`,
      shortDescriptionHtml: `<p>${noun} in ${random.pick(materials)}.</p>`,
      status: random.chance(0.05) ? 'draft' : 'active',
      vendor: random.pick(vendors),
      tags: Array.from(
        new Set([slugify(noun), random.pick(['new', 'bestseller', 'gift', 'eco', 'sale'])]),
      ),
      categoryKeys: random.chance(0.3)
        ? [leaf.key, categories.find((c) => c.key === leaf.key)?.parentKey ?? leaf.key]
        : [leaf.key],
      images: Array.from({ length: imageCount }, (_v, k) => ({
        path: `/media/catalog/${slug}-${k + 1}.png`,
        alt: k === 0 ? name : `${name} view ${k + 1}`,
      })),
      options: productOptions,
      variants,
      seoTitle: `${name} | Sample Store`,
      seoDescription: `Buy the ${name} online. Free shipping over $50.`,
      attributes: { material: random.pick(materials) },
      dimensionsCm: {
        length: random.int(5, 80),
        width: random.int(5, 60),
        height: random.int(1, 40),
      },
      createdAt: isoAt(random, 2021),
    });
  }

  const customers: SampleCustomer[] = [];
  for (let i = 1; i <= (options.customers ?? sandboxCounts.customers); i++) {
    const firstName = random.pick(firstNames);
    const lastName = random.pick(lastNames);
    const primary = address(random, firstName, lastName);
    const addresses = [{ ...primary, defaultBilling: true, defaultShipping: true }];
    if (random.chance(0.25)) {
      addresses[0] = { ...primary, defaultBilling: true, defaultShipping: false };
      addresses.push({
        ...address(random, firstName, lastName),
        defaultBilling: false,
        defaultShipping: true,
      });
    }
    customers.push({
      key: `cust-${i}`,
      firstName,
      lastName,
      email: `${slugify(firstName)}.${slugify(lastName)}.${i}@example.com`,
      phone: primary.phone,
      acceptsMarketing: random.chance(0.4),
      note: random.chance(0.1) ? 'Prefers delivery after 5pm.' : '',
      tags: random.chance(0.2) ? ['vip'] : [],
      createdAt: isoAt(random, 2021),
      addresses,
    });
  }

  const orders: SampleOrder[] = [];
  const statuses: SampleOrder['status'][] = [
    'completed',
    'completed',
    'completed',
    'processing',
    'pending',
    'on-hold',
    'cancelled',
    'refunded',
  ];
  for (let i = 1; i <= (options.orders ?? sandboxCounts.orders); i++) {
    const customer = customers.length && random.chance(0.85) ? random.pick(customers) : null;
    const firstName = customer?.firstName ?? random.pick(firstNames);
    const lastName = customer?.lastName ?? random.pick(lastNames);
    const billing = customer?.addresses[0] ?? address(random, firstName, lastName);
    const {
      defaultBilling: _b,
      defaultShipping: _s,
      ...billingAddress
    } = { defaultBilling: false, defaultShipping: false, ...billing };
    const lines: SampleOrderLine[] = [];
    const lineCount = products.length ? random.int(1, 3) : 0;
    for (let l = 0; l < lineCount; l++) {
      const product = random.pick(products);
      const variant = random.pick(product.variants);
      const quantity = random.int(1, 3);
      const unitCents = Math.round(Number(variant.price) * 100);
      lines.push({
        productKey: product.key,
        variantSku: variant.sku,
        sku: variant.sku,
        name: product.options.length
          ? `${product.name} - ${Object.values(variant.optionValues).join(' / ')}`
          : product.name,
        quantity,
        unitPrice: variant.price,
        tax: decimal(Math.round(unitCents * quantity * 0.08)),
      });
    }
    const discount = random.chance(0.15)
      ? {
          code: random.pick(['WELCOME10', 'SPRING15', 'VIP20']),
          amount: decimal(random.int(5, 20) * 100),
        }
      : null;
    orders.push({
      key: `order-${i}`,
      number: String(1000 + i),
      createdAt: isoAt(random, 2023),
      currency,
      customerKey: customer?.key ?? null,
      email: customer?.email ?? `${slugify(firstName)}.guest${i}@example.com`,
      status: random.pick(statuses),
      lines,
      shipping: random.chance(0.3)
        ? { title: 'Free shipping', code: 'free_shipping', price: '0.00' }
        : { title: 'Flat rate', code: 'flat_rate', price: decimal(random.pick([499, 799, 1299])) },
      discount,
      billing: billingAddress,
      shippingAddress: customer?.addresses.find((a) => a.defaultShipping) ?? billingAddress,
      note: random.chance(0.1) ? 'Please gift wrap.' : '',
    });
  }

  const coupons = options.coupons === false ? [] : sampleCoupons(categories, products, orders);
  const reviews = options.reviews === false ? [] : sampleReviews(products, customers, orders);
  const brands = options.brands === false ? [] : sampleBrands();
  const pages = options.content === false ? [] : samplePages();
  const posts = options.content === false ? [] : samplePosts();
  return {
    currency,
    categories,
    products,
    customers,
    orders,
    coupons,
    reviews,
    brands,
    pages,
    posts,
  };
}

/**
 * A small valid PNG (solid colour derived from the path) so image URLs of sandbox stores really
 * serve images that destinations can download.
 */
export function samplePng(path: string): Buffer {
  let hash = 0;
  for (const ch of path) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  const [r, g, b] = [hash & 0xff, (hash >> 8) & 0xff, (hash >> 16) & 0xff];
  const size = 8;
  const raw = Buffer.alloc(size * (1 + size * 3));
  for (let y = 0; y < size; y++) {
    const row = y * (1 + size * 3);
    for (let x = 0; x < size; x++) raw.set([r, g, b], row + 1 + x * 3);
  }
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'ascii');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type, 'ascii'), data])), 0);
    return Buffer.concat([head, data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
