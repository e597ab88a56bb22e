import { z } from 'zod';
import {
  currencyMappingSchema,
  currencyText,
  valueChanges,
  valueListNames,
  valueListTexts,
  valueMapSchema,
  valueText,
} from './value-mappings.ts';

/** The four platforms, each usable as source and as destination. */
export const platforms = ['magento2', 'shopify', 'woocommerce', 'bigcommerce'] as const;
export const platformSchema = z.enum(platforms);
export type Platform = z.infer<typeof platformSchema>;

export const platformLabels: Record<Platform, string> = {
  magento2: 'Magento 2',
  shopify: 'Shopify',
  woocommerce: 'WooCommerce',
  bigcommerce: 'BigCommerce',
};

export const migrationStatuses = ['pending', 'in-progress', 'completed', 'failed'] as const;
export const migrationStatusSchema = z.enum(migrationStatuses);
export type MigrationStatus = z.infer<typeof migrationStatusSchema>;

/** spec.md section 4: any other stored value is treated as pending. */
export function normaliseStatus(value: string): MigrationStatus {
  return (migrationStatuses as readonly string[]).includes(value)
    ? (value as MigrationStatus)
    : 'pending';
}

/** The data types an owner selects and pays for: the sketch's three, then what we add. */
export const dataTypeNames = [
  'products',
  'customers',
  'orders',
  'coupons',
  'reviews',
  'brands',
  'pages',
  'posts',
] as const;
export type DataTypeName = (typeof dataTypeNames)[number];

export const dataTypeLabels: Record<DataTypeName, string> = {
  products: 'Products',
  customers: 'Customers',
  orders: 'Orders',
  coupons: 'Coupons',
  reviews: 'Product reviews',
  brands: 'Brands',
  pages: 'Pages',
  posts: 'Blog posts',
};

export const dataTypesSchema = z.object({
  products: z.boolean().optional(),
  customers: z.boolean().optional(),
  orders: z.boolean().optional(),
  coupons: z.boolean().optional(),
  reviews: z.boolean().optional(),
  brands: z.boolean().optional(),
  pages: z.boolean().optional(),
  posts: z.boolean().optional(),
});
export type DataTypes = z.infer<typeof dataTypesSchema>;

/**
 * Data types a platform has no way to hold or to give out, with the reason the owner is shown.
 * A type named here for either store of a migration cannot be selected for it; every
 * connector's read and write capabilities agree with this table (its tests hold them equal).
 */
export const unsupportedDataTypes: Record<Platform, Partial<Record<DataTypeName, string>>> = {
  magento2: {
    reviews:
      "Magento 2's web API has no product reviews to read or write, so reviews cannot move to or from a Magento store.",
    posts:
      'Core Magento 2 has no blog, so blog posts cannot move to or from a Magento store (its CMS pages can: choose Pages).',
  },
  shopify: {},
  woocommerce: {},
  bigcommerce: {},
};

/**
 * Data types a platform gives out as a source but cannot hold as a destination, with the reason
 * the owner is shown. Shopify's brands are the vendor names its products carry: they can be read
 * as brands, but a brand's own page (description, logo, SEO) has no place to go there, and the
 * products moved to Shopify keep their brand as their vendor anyway.
 */
export const unwritableDataTypes: Record<Platform, Partial<Record<DataTypeName, string>>> = {
  magento2: {},
  shopify: {
    brands:
      'Shopify has no brand records: each product keeps its brand’s name as its vendor, but a brand’s own description, logo and page have nowhere to go.',
  },
  woocommerce: {},
  bigcommerce: {},
};

/**
 * Whether each store's connection opens its web pages and blog posts: a WooCommerce store's are
 * WordPress's, which its REST keys do not open (a WordPress application password does). False
 * when the connection lacks it; absent when not known (or not needed by the platform).
 */
export interface ContentAccess {
  source?: boolean;
  destination?: boolean;
}

/** Data types that a WooCommerce connection moves only with a WordPress application password. */
export const wordpressContentTypes: readonly DataTypeName[] = ['pages', 'posts'];

/**
 * Why one side's connection cannot move a data type, or null when it can: a WooCommerce store
 * connected without a WordPress application password (`access` false) for pages and posts.
 */
export function wordpressAccessMissing(
  type: DataTypeName,
  side: 'source' | 'destination',
  platform: string,
  access: ContentAccess,
): string | null {
  return platform === 'woocommerce' &&
    access[side] === false &&
    wordpressContentTypes.includes(type)
    ? `The ${side} WooCommerce store was connected without a WordPress application password, which its pages and blog posts need: add one on Connect Stores.`
    : null;
}

/** Why a data type cannot be selected between two platforms, or null when it can. */
export function dataTypeUnavailable(
  type: DataTypeName,
  source: Platform,
  destination: Platform,
  access: ContentAccess = {},
): string | null {
  return (
    unsupportedDataTypes[source][type] ??
    unsupportedDataTypes[destination][type] ??
    unwritableDataTypes[destination][type] ??
    wordpressAccessMissing(type, 'source', source, access) ??
    wordpressAccessMissing(type, 'destination', destination, access) ??
    null
  );
}

/**
 * What the owner's migration says of each side's WordPress access: a WooCommerce side opens its
 * pages and posts when it was connected with an application password (shown masked).
 */
export function contentAccessOf(
  migration: Pick<
    Migration,
    | 'sourceStore'
    | 'destinationStore'
    | 'wordpressApplicationPassword'
    | 'destinationWordpressApplicationPassword'
  >,
): ContentAccess {
  return {
    source:
      migration.sourceStore === 'woocommerce'
        ? Boolean(migration.wordpressApplicationPassword)
        : undefined,
    destination:
      migration.destinationStore === 'woocommerce'
        ? Boolean(migration.destinationWordpressApplicationPassword)
        : undefined,
  };
}

/**
 * Where an order stands, in the platform-neutral words every connector maps its own statuses to
 * (the canonical model's order statuses; the engine's tests hold the two lists equal).
 */
export const orderStatusNames = [
  'pending',
  'processing',
  'on-hold',
  'completed',
  'cancelled',
  'refunded',
  'failed',
] as const;
export type OrderStatusName = (typeof orderStatusNames)[number];

export const orderStatusLabels: Record<OrderStatusName, string> = {
  pending: 'Pending payment',
  processing: 'Processing',
  'on-hold': 'On hold',
  completed: 'Completed',
  cancelled: 'Cancelled',
  refunded: 'Refunded',
  failed: 'Failed',
};

/**
 * The owner's mappings of values between the stores, chosen on Select Data's "Map fields" panel:
 * each order status to the one its orders get at the destination, each customer group and tax
 * class of the source to the destination's (a value not named keeps its own), and what happens to
 * amounts when the destination sells in another currency (value-mappings.ts).
 */
export const fieldMappingsSchema = z.strictObject({
  orderStatuses: z.partialRecord(z.enum(orderStatusNames), z.enum(orderStatusNames)).optional(),
  customerGroups: valueMapSchema.optional(),
  taxClasses: valueMapSchema.optional(),
  currency: currencyMappingSchema.optional(),
});
export type FieldMappings = z.infer<typeof fieldMappingsSchema>;

/** The order-status changes a mapping makes, without the statuses it keeps. */
export function orderStatusChanges(
  mappings: FieldMappings,
): { from: OrderStatusName; to: OrderStatusName }[] {
  return orderStatusNames.flatMap((from) => {
    const to = mappings.orderStatuses?.[from];
    return to && to !== from ? [{ from, to }] : [];
  });
}

/**
 * The owner's mappings as lines of a summary (payment summary, detail page): only what changes
 * something, the currency choice whenever one was made.
 */
export function mappingSummary(
  mappings: FieldMappings | undefined,
): { label: string; text: string }[] {
  if (!mappings) return [];
  const lines: { label: string; text: string }[] = [];
  const statuses = orderStatusChanges(mappings);
  if (statuses.length)
    lines.push({
      label: 'Order statuses mapped',
      text: statuses
        .map(({ from, to }) => `${orderStatusLabels[from]} → ${orderStatusLabels[to]}`)
        .join(', '),
    });
  for (const list of valueListNames) {
    const changes = valueChanges(mappings[list]);
    const { heading } = valueListTexts[list];
    if (changes.length)
      lines.push({
        label: `${heading} mapped`,
        text: changes
          .map(({ from, to }) => `${valueText(list, from)} → ${valueText(list, to)}`)
          .join(', '),
      });
  }
  if (mappings.currency) lines.push({ label: 'Currency', text: currencyText(mappings.currency) });
  return lines;
}

/**
 * The owner's additional options of Select Data (beyond the sketch), each explained in one line
 * on the page. Unset ones are as `defaultMigrationOptions`.
 */
export const migrationOptionsSchema = z.strictObject({
  /** Write 301 redirects from the old addresses into the destination, where it keeps them. */
  createRedirects: z.boolean().optional(),
  /** Keep the source's order numbers where the destination lets them be set. */
  keepOrderNumbers: z.boolean().optional(),
  /** Keep the source's product, category and brand URL slugs. */
  keepSlugs: z.boolean().optional(),
  /** Let the destination send its own e-mails to customers while records arrive. */
  notifyCustomers: z.boolean().optional(),
});
export type MigrationOptions = z.infer<typeof migrationOptionsSchema>;
export type MigrationOption = keyof MigrationOptions;

export const defaultMigrationOptions: Required<MigrationOptions> = {
  createRedirects: true,
  keepOrderNumbers: true,
  keepSlugs: true,
  notifyCustomers: false,
};

export const migrationOptionNames = [
  'createRedirects',
  'keepOrderNumbers',
  'keepSlugs',
  'notifyCustomers',
] as const satisfies readonly MigrationOption[];

/** The options with their defaults filled in. */
export function optionsOf(options: MigrationOptions | undefined): Required<MigrationOptions> {
  return { ...defaultMigrationOptions, ...options };
}

export const migrationOptionTexts: Record<MigrationOption, { label: string; explanation: string }> =
  {
    createRedirects: {
      label: 'Create 301 redirects from the old addresses',
      explanation:
        'Old product, category, brand, page and post links lead to the new ones, so search rankings and bookmarks keep working. The redirect list and ready-made nginx and Apache rules are always downloadable.',
    },
    keepOrderNumbers: {
      label: 'Keep order numbers',
      explanation:
        'Orders keep the numbers your customers know, where the destination lets them be set.',
    },
    keepSlugs: {
      label: 'Keep product and category URL slugs',
      explanation:
        'Products, categories and brands keep the last part of their web address; off, the destination makes its own from each name.',
    },
    notifyCustomers: {
      label: 'Notify customers',
      explanation:
        'Lets the destination send its own e-mails (order confirmations, account invitations) as records arrive. Off by default: customers hear nothing of the move.',
    },
  };

/**
 * What an option does on a destination platform where it differs from its one-line explanation:
 * where the platform cannot do it, and what is kept instead; null where it does as explained.
 */
export function optionNote(option: MigrationOption, destination: Platform): string | null {
  switch (option) {
    case 'createRedirects':
      if (destination === 'woocommerce')
        return 'WooCommerce keeps no redirects of its own: use the downloadable list or the nginx or Apache rules (or a redirect plugin).';
      if (destination === 'magento2')
        return "Magento's API cannot write URL rewrites: use the downloadable list or the nginx or Apache rules.";
      return null;
    case 'keepOrderNumbers':
      return {
        woocommerce:
          'WooCommerce gives orders numbers of its own either way; each order keeps the source number in its _replatform_source_number field (seen through the API and export tools).',
        bigcommerce:
          "BigCommerce gives orders numbers of its own either way; each order keeps its source order's id in its external order id.",
        shopify:
          'Off: Shopify numbers the orders from #1001 and keeps the source number in the order metafield replatform.source_number.',
        magento2:
          'Off: Magento numbers the orders itself and keeps the source number as a comment on each order. On: a number already taken gets -M added.',
      }[destination];
    case 'keepSlugs':
      return null;
    case 'notifyCustomers':
      return {
        woocommerce:
          'WooCommerce then sends its usual e-mails (new account, order received or completed, refunds, notes to the customer) where they are on in its e-mail settings, old orders included.',
        bigcommerce:
          'BigCommerce then sends its account-created e-mail; it sends no e-mail for orders created through its API.',
        shopify:
          'Shopify then sends order confirmations, shipping and cancellation e-mails, and account invitations.',
        magento2: "Magento then sends its welcome e-mail and each order's confirmation.",
      }[destination];
  }
}

/**
 * Records of each data type at the source. The sketch's three fields are always there; a type
 * added later is counted when selected, and a stored count made before it existed lacks it.
 */
export const entityCountsSchema = z.object({
  products: z.number().int().nonnegative(),
  customers: z.number().int().nonnegative(),
  orders: z.number().int().nonnegative(),
  coupons: z.number().int().nonnegative().optional(),
  reviews: z.number().int().nonnegative().optional(),
  brands: z.number().int().nonnegative().optional(),
  pages: z.number().int().nonnegative().optional(),
  posts: z.number().int().nonnegative().optional(),
});
export type EntityCounts = z.infer<typeof entityCountsSchema>;

/** Counts in `dataTypeNames` order as the counts object (a type without a figure counts 0). */
export function countsByType(figures: readonly (number | undefined)[]): Required<EntityCounts> {
  return Object.fromEntries(dataTypeNames.map((type, i) => [type, figures[i] ?? 0])) as Required<
    typeof entityCountsSchema._output
  >;
}

export const migrationStatSchema = z.object({
  total: z.number().int().nonnegative(),
  migrated: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
});
export type MigrationStat = z.infer<typeof migrationStatSchema>;

export const paymentInfoSchema = z.object({
  paymentStatus: z.string(),
  /** Minor units (cents). */
  amount: z.number().int().nonnegative(),
  currency: z.string(),
  paymentDate: z.string().nullable(),
  paymentMethod: z
    .object({
      type: z.string(),
      card: z.object({ brand: z.string(), last4: z.string() }).optional(),
    })
    .optional(),
  customerEmail: z.string().optional(),
  /** True for a simulated payment made in demo mode; never set for a real charge. */
  demo: z.boolean().optional(),
  /** Records (of every selected data type) paid for; a run never goes beyond them. */
  paidRecords: z.number().int().nonnegative().optional(),
});
export type PaymentInfo = z.infer<typeof paymentInfoSchema>;

/** Steps of spec.md section 2, 1-based. */
export const migrationSteps = [
  { step: 1, title: 'Connect Stores', description: 'Link your source and destination stores' },
  { step: 2, title: 'Select Data', description: 'Choose what data to migrate' },
  { step: 3, title: 'Payment', description: 'Complete your migration purchase' },
  { step: 4, title: 'Migrate', description: 'Start the migration process' },
  { step: 5, title: 'Complete', description: 'Review and finalize' },
] as const;
export const totalSteps = migrationSteps.length;

/** Overall progress of spec.md section 4: currentStep / 5 as a rounded percentage. */
export function stepProgressPercent(currentStep: number): number {
  return Math.round((Math.min(Math.max(currentStep, 0), totalSteps) / totalSteps) * 100);
}

/**
 * Migration as the API returns it: the field names of spec.md section 3. Store secrets are only
 * ever present masked (e.g. '••••••3f9a'), never in clear.
 */
export const migrationSchema = z.object({
  id: z.string(),
  storeName: z.string(),
  userId: z.string(),
  email: z.string(),
  sourceStore: z.union([platformSchema, z.literal('')]),
  destinationStore: z.union([platformSchema, z.literal('')]),
  sourceStoreUrl: z.string(),
  destinationStoreUrl: z.string(),
  consumerKey: z.string().optional(),
  consumerSecret: z.string().optional(),
  accessToken: z.string().optional(),
  accessTokenSecret: z.string().optional(),
  destinationConsumerKey: z.string().optional(),
  destinationConsumerSecret: z.string().optional(),
  destinationAccessToken: z.string().optional(),
  destinationAccessTokenSecret: z.string().optional(),
  apiKey: z.string().optional(),
  apiSecret: z.string().optional(),
  shopifyAccessToken: z.string().optional(),
  /**
   * Beyond the sketch: a WooCommerce store's WordPress user and application password (masked),
   * given to move its pages and blog posts; absent when the owner gave none.
   */
  wordpressUser: z.string().optional(),
  wordpressApplicationPassword: z.string().optional(),
  destinationWordpressUser: z.string().optional(),
  destinationWordpressApplicationPassword: z.string().optional(),
  sourceVerified: z.boolean(),
  destinationVerified: z.boolean(),
  currentStep: z.number().int().min(1).max(totalSteps),
  status: migrationStatusSchema,
  dataTypes: dataTypesSchema,
  /** Beyond the sketch: the owner's value mappings ({} when every value keeps its own). */
  fieldMappings: fieldMappingsSchema.optional(),
  /** Beyond the sketch: the owner's additional options, defaults filled in. */
  migrationOptions: migrationOptionsSchema.optional(),
  lastUpdated: z.string(),
  /** When the current run was started (a re-run starts anew); null before the first start. */
  startedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  totalEntities: z.number().int().nonnegative(),
  migratedEntities: z.number().int().nonnegative(),
  entityCounts: entityCountsSchema.partial(),
  migrationStats: z.record(z.string(), migrationStatSchema),
  paymentInfo: paymentInfoSchema.nullable(),
});
export type Migration = z.infer<typeof migrationSchema>;
