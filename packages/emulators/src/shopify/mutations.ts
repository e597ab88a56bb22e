import { getDirectiveValues, GraphQLError, type GraphQLResolveInfo } from 'graphql';
import { contentMutations, contentMutationScopes, contentOwner } from './content.ts';
import { deleteMutationScopes, deleteMutations } from './deletes.ts';
import { discountMutations } from './discounts.ts';
import { ingestImage, type MediaHostPolicy } from './media.ts';
import {
  APP_NAMESPACE,
  checkMetafields,
  metafieldTypes,
  type MetafieldInputValue,
} from './metafields.ts';
import {
  compareDigest,
  dateTime,
  decimalOf,
  gid,
  handleize,
  parseGid,
  shopifyTags,
  toMinorUnits,
  type AddressRec,
  type AllocationRec,
  type CollectionRec,
  type CustomerRec,
  type DiscountApplicationRec,
  type EmailMarketingState,
  type FinancialStatus,
  type LineItemRec,
  type MediaRec,
  type MetafieldOwnerType,
  type MetafieldRec,
  type OptInLevel,
  type OptionRec,
  type SmsMarketingState,
  type OrderRec,
  type ProductRec,
  type ProductStatus,
  type RefundRec,
  type ShippingLineRec,
  type ShopStore,
  type TaxLineRec,
  type TransactionKind,
  type TransactionRec,
  type VariantRec,
} from './store.ts';
import {
  TAXONOMY_ID,
  collectionView,
  customerView,
  metafieldDefinitionView,
  metafieldView,
  orderTotals,
  orderView,
  productView,
  refundView,
  redirectView,
  variantView,
  type ViewContext,
} from './views.ts';

/**
 * Write side of the emulated Admin API. Every mutation validates its whole input first and
 * answers `userErrors` (in the payload's own error type and codes) without changing anything when
 * something is wrong, as Shopify does; only then does it apply the change.
 */

type Args = Record<string, unknown>;
type Input = Record<string, unknown>;

export interface MutationContext extends ViewContext {
  mediaHosts: MediaHostPolicy;
  /** Registers a bulk query operation (implemented in bulk.ts). */
  runBulkQuery: (query: string) => Record<string, unknown>;
}

interface UserError {
  field: (string | number)[] | null;
  message: string;
  code?: string | null;
}

const list = (value: unknown): Input[] => (Array.isArray(value) ? (value as Input[]) : []);
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const fieldPath = (path: (string | number)[]): string[] => path.map(String);

/** Shopify's input array limit (limits.json shopify.input_array_max_items). */
export const MAX_INPUT_ARRAY = 250;

function checkArraySize(value: unknown, path: string[]): void {
  if (Array.isArray(value) && value.length > MAX_INPUT_ARRAY)
    throw new GraphQLError(
      `The input array size of ${value.length} is greater than the maximum allowed of ${MAX_INPUT_ARRAY}.`,
      { path, extensions: { code: 'MAX_INPUT_SIZE_EXCEEDED' } },
    );
}

function uniqueHandle(taken: (handle: string) => boolean, base: string): string {
  const root = base || 'untitled';
  if (!taken(root)) return root;
  for (let i = 1; ; i++) if (!taken(`${root}-${i}`)) return `${root}-${i}`;
}

function addressFromInput(store: ShopStore, input: Input | null | undefined): AddressRec | null {
  if (!input) return null;
  const text = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);
  return {
    id: store.nextId(),
    firstName: text(input.firstName),
    lastName: text(input.lastName),
    company: text(input.company),
    address1: text(input.address1),
    address2: text(input.address2),
    city: text(input.city),
    provinceCode: text(input.provinceCode) ?? text(input.province),
    countryCode: text(input.countryCode),
    zip: text(input.zip),
    phone: text(input.phone),
  };
}

/**
 * Country calling codes, and whether the country dials a leading 0 (trunk prefix) before national
 * numbers that is dropped in international form.
 */
const callingCodes: Record<string, { code: string; trunk: boolean }> = {
  US: { code: '1', trunk: false },
  CA: { code: '1', trunk: false },
  GB: { code: '44', trunk: true },
  IE: { code: '353', trunk: true },
  DE: { code: '49', trunk: true },
  AT: { code: '43', trunk: true },
  CH: { code: '41', trunk: true },
  FR: { code: '33', trunk: true },
  BE: { code: '32', trunk: true },
  NL: { code: '31', trunk: true },
  IT: { code: '39', trunk: false },
  ES: { code: '34', trunk: false },
  PT: { code: '351', trunk: false },
  SE: { code: '46', trunk: true },
  NO: { code: '47', trunk: false },
  DK: { code: '45', trunk: false },
  FI: { code: '358', trunk: true },
  PL: { code: '48', trunk: false },
  AU: { code: '61', trunk: true },
  NZ: { code: '64', trunk: true },
  JP: { code: '81', trunk: true },
  IN: { code: '91', trunk: true },
  MX: { code: '52', trunk: false },
  BR: { code: '55', trunk: true },
  ZA: { code: '27', trunk: true },
};

/**
 * A phone number as Shopify stores a customer's: E.164. A number written with its country code
 * ('+44 20 7946 0958', '0044 …') is taken as it is; a national one is read in the country given
 * (the customer's first address, else the shop's). Undefined when it cannot be made E.164, which
 * customerCreate refuses with "Phone is invalid".
 */
export function normalisePhone(raw: string, country = 'US'): string | undefined {
  const compact = raw.trim().replace(/[\s().-]/g, '');
  if (!/^\+?\d+$/.test(compact)) return undefined;
  let e164: string;
  if (compact.startsWith('+')) e164 = compact;
  else if (compact.startsWith('00')) e164 = `+${compact.slice(2)}`;
  else {
    const region = callingCodes[country.toUpperCase()];
    if (!region) return undefined;
    let national = compact;
    if (region.code === '1' && national.length === 11 && national.startsWith('1'))
      national = national.slice(1);
    else if (region.trunk && national.startsWith('0')) national = national.slice(1);
    if (region.code === '1' ? national.length !== 10 : national.length < 6) return undefined;
    e164 = `+${region.code}${national}`;
  }
  // E.164: a country code that does not start with 0, at most 15 digits in all.
  return /^\+[1-9]\d{7,14}$/.test(e164) ? e164 : undefined;
}

function metafieldErrors(
  store: ShopStore,
  ownerType: MetafieldOwnerType,
  ownerId: number | null,
  inputs: unknown,
  path: (string | number)[],
  code: (problem: string) => string | null,
): { errors: UserError[]; apply: (existing: MetafieldRec[], replace?: boolean) => MetafieldRec[] } {
  const checked = checkMetafields(store, ownerType, ownerId, list(inputs) as MetafieldInputValue[]);
  return {
    errors: checked.problems.map((p) => ({
      field: fieldPath([...path, p.index, p.field]),
      message: p.message,
      code: code(p.code),
    })),
    apply: checked.apply,
  };
}

// ------------------------------------------------------------------ productSet

/** The customs and cost fields of an InventoryItemInput, over what the variant had. */
function inventoryItemFields(
  input: Input,
  previous: VariantRec | undefined,
): Pick<
  VariantRec,
  'unitCost' | 'harmonizedSystemCode' | 'countryCodeOfOrigin' | 'provinceCodeOfOrigin'
> {
  const given = (key: string, before: string | null | undefined): string | null =>
    input[key] === undefined
      ? (before ?? null)
      : input[key] === null
        ? null
        : String(input[key] as string | number);
  return {
    unitCost: given('cost', previous?.unitCost),
    harmonizedSystemCode: given('harmonizedSystemCode', previous?.harmonizedSystemCode),
    countryCodeOfOrigin: given('countryCodeOfOrigin', previous?.countryCodeOfOrigin),
    provinceCodeOfOrigin: given('provinceCodeOfOrigin', previous?.provinceCodeOfOrigin),
  };
}

interface PlannedVariant {
  input: Input;
  optionValues: { name: string; value: string }[];
  existing: VariantRec | undefined;
  fileSource: string | null;
  fileId: number | null;
}

async function productSet(ctx: MutationContext, args: Args): Promise<Record<string, unknown>> {
  const { store } = ctx;
  const input = (args.input ?? {}) as Input;
  const identifier = (args.identifier ?? (input.id ? { id: input.id } : null)) as Input | null;
  const errors: UserError[] = [];
  const fail = (code: string, field: (string | number)[] | null, message: string) =>
    errors.push({ code, field: field ? fieldPath(field) : null, message });

  let existing: ProductRec | undefined;
  let identifierHandle: string | undefined;
  if (identifier?.id) {
    existing = store.products.get(parseGid(identifier.id)?.id ?? -1);
    if (!existing) fail('PRODUCT_DOES_NOT_EXIST', ['identifier', 'id'], 'Product does not exist');
  } else if (typeof identifier?.handle === 'string') {
    identifierHandle = handleize(identifier.handle);
    existing = store.productByHandle(identifierHandle);
  } else if (identifier?.customId) {
    const customId = identifier.customId as Input;
    try {
      const id = store.findByCustomId(
        'PRODUCT',
        str(customId.namespace) ?? APP_NAMESPACE,
        String(customId.key),
        String(customId.value),
      );
      existing = id === undefined ? undefined : store.products.get(id);
    } catch (error) {
      fail('INVALID_INPUT', ['identifier', 'customId'], (error as Error).message);
    }
  }
  if (errors.length) return { product: null, productSetOperation: null, userErrors: errors };
  const creating = !existing;

  const title = str(input.title)?.trim() ?? existing?.title ?? '';
  if (!title) fail('MISSING_FIELD_REQUIRED', ['input', 'title'], "Title can't be blank");

  // Handle: an explicit handle must be free; a derived one gets a numeric suffix.
  const otherHandle = (h: string) =>
    [...store.products.values()].some((p) => p.handle === h && p !== existing);
  let handle = existing?.handle ?? '';
  if (typeof input.handle === 'string' || identifierHandle) {
    handle = handleize(str(input.handle) ?? identifierHandle ?? '');
    if (!handle) fail('INVALID_INPUT', ['input', 'handle'], 'Handle is invalid');
    else if (otherHandle(handle))
      fail(
        'HANDLE_NOT_UNIQUE',
        ['input', 'handle'],
        `Handle '${handle}' already in use. Please provide a new handle.`,
      );
  } else if (creating) {
    handle = uniqueHandle(otherHandle, handleize(title));
  }

  // Options.
  const optionInputs = Array.isArray(input.productOptions) ? list(input.productOptions) : null;
  let options: { name: string; values: string[] }[] =
    existing?.options.map((o) => ({ name: o.name, values: o.values.map((v) => v.name) })) ?? [];
  if (optionInputs) {
    if (optionInputs.length > 3)
      fail(
        'OPTIONS_OVER_LIMIT',
        ['input', 'productOptions'],
        'Can only specify a maximum of 3 options',
      );
    const names = new Set<string>();
    options = optionInputs.map((o, i) => {
      const name = str(o.name)?.trim() ?? '';
      if (!name)
        fail('INVALID_INPUT', ['input', 'productOptions', i, 'name'], "Option name can't be blank");
      if (names.has(name.toLowerCase()))
        fail(
          'DUPLICATED_OPTION_NAME',
          ['input', 'productOptions', i, 'name'],
          `Duplicated option name '${name}'`,
        );
      names.add(name.toLowerCase());
      const values = list(o.values).map((v) => str(v.name)?.trim() ?? '');
      if (values.length === 0 || values.some((v) => !v))
        fail(
          'OPTION_VALUES_MISSING',
          ['input', 'productOptions', i, 'values'],
          `Option '${name}' must have values`,
        );
      if (new Set(values.map((v) => v.toLowerCase())).size !== values.length)
        fail(
          'DUPLICATED_OPTION_VALUE',
          ['input', 'productOptions', i, 'values'],
          `Option '${name}' has duplicated values`,
        );
      return { name, values };
    });
  }

  // Input arrays hold at most 250 items; variants are the exception (up to 2,048 per product).
  checkArraySize(input.files, ['productSet', 'input', 'files']);
  checkArraySize(input.metafields, ['productSet', 'input', 'metafields']);
  checkArraySize(input.collections, ['productSet', 'input', 'collections']);

  // Files (product media).
  const fileInputs = Array.isArray(input.files) ? list(input.files) : null;
  fileInputs?.forEach((f, i) => {
    if (f.id) {
      // A file of the shop's library may be shown by several products.
      if (!store.mediaById(parseGid(f.id)?.id ?? -1))
        fail('INVALID_INPUT', ['input', 'files', i, 'id'], 'File does not exist');
    } else if (!str(f.originalSource)) {
      fail(
        'INVALID_INPUT',
        ['input', 'files', i, 'originalSource'],
        'File must have an original source or an id',
      );
    }
    if (f.contentType && f.contentType !== 'IMAGE')
      fail(
        'INVALID_INPUT',
        ['input', 'files', i, 'contentType'],
        'Only images are supported by this sandbox',
      );
  });

  // Variants.
  const variantInputs = Array.isArray(input.variants) ? list(input.variants) : null;
  const planned: PlannedVariant[] = [];
  if (variantInputs) {
    if (variantInputs.length > 2048)
      fail(
        'VARIANTS_OVER_LIMIT',
        ['input', 'variants'],
        'Exceeded the maximum number of variants allowed (2048)',
      );
    if (creating && !optionInputs)
      fail(
        'PRODUCT_OPTIONS_INPUT_MISSING',
        ['input', 'productOptions'],
        'Product options input is required when variants are given',
      );
    const combos = new Set<string>();
    variantInputs.forEach((v, i) => {
      const values: { name: string; value: string }[] = [];
      list(v.optionValues).forEach((ov, j) => {
        const optionName = str(ov.optionName);
        const option =
          options.find((o) => o.name === optionName) ??
          (optionName === undefined && options.length === 1 ? options[0] : undefined);
        if (!option) {
          fail(
            'OPTION_DOES_NOT_EXIST',
            ['input', 'variants', i, 'optionValues', j],
            `Option '${optionName ?? ''}' does not exist`,
          );
          return;
        }
        const name = str(ov.name) ?? '';
        if (!option.values.includes(name)) {
          fail(
            'OPTION_VALUE_DOES_NOT_EXIST',
            ['input', 'variants', i, 'optionValues', j],
            `Option value '${name}' does not exist on option '${option.name}'`,
          );
          return;
        }
        values.push({ name: option.name, value: name });
      });
      const ordered = options
        .map((o) => values.find((x) => x.name === o.name))
        .filter((x): x is { name: string; value: string } => x !== undefined);
      if (ordered.length !== options.length || values.length !== options.length)
        fail(
          'INVALID_VARIANT',
          ['input', 'variants', i, 'optionValues'],
          'A variant must have exactly one value for each option',
        );
      const combo = ordered.map((o) => o.value).join(' / ');
      if (combos.has(combo))
        fail('INVALID_VARIANT', ['input', 'variants', i], `The variant '${combo}' already exists.`);
      combos.add(combo);
      const price = v.price ?? null;
      if (price !== null && !(Number(price) >= 0))
        fail(
          'INVALID_VARIANT',
          ['input', 'variants', i, 'price'],
          'Price must be greater than or equal to 0',
        );
      if (
        v.compareAtPrice !== undefined &&
        v.compareAtPrice !== null &&
        !(Number(v.compareAtPrice) >= 0)
      )
        fail(
          'INVALID_VARIANT',
          ['input', 'variants', i, 'compareAtPrice'],
          'Compare at price must be greater than or equal to 0',
        );
      list(v.inventoryQuantities).forEach((q, k) => {
        if (parseGid(q.locationId)?.id !== store.location.id)
          fail(
            'INVALID_INPUT',
            ['input', 'variants', i, 'inventoryQuantities', k, 'locationId'],
            'Location does not exist',
          );
        if (q.name !== 'available' && q.name !== 'on_hand')
          fail(
            'INVALID_INPUT',
            ['input', 'variants', i, 'inventoryQuantities', k, 'name'],
            "Quantity name must be 'available' or 'on_hand'",
          );
      });
      const weight = ((v.inventoryItem as Input | undefined)?.measurement as Input | undefined)
        ?.weight as Input | undefined;
      if (weight && !(Number(weight.value) >= 0))
        fail(
          'INVALID_VARIANT',
          ['input', 'variants', i, 'inventoryItem', 'measurement', 'weight'],
          'Weight must be greater than or equal to 0',
        );
      const file = (v.file ?? null) as Input | null;
      let fileSource: string | null = null;
      let fileId: number | null = null;
      if (file) {
        fileSource = str(file.originalSource) ?? null;
        fileId = file.id ? (parseGid(file.id)?.id ?? null) : null;
        const inFiles =
          (fileSource !== null &&
            (fileInputs ?? []).some((f) => f.originalSource === fileSource)) ||
          (fileId !== null &&
            ((fileInputs ?? []).some((f) => parseGid(f.id)?.id === fileId) ||
              (!fileInputs && existing?.media.some((m) => m.id === fileId)))) ||
          (fileSource !== null &&
            !fileInputs &&
            existing?.media.some((m) => m.originalSource === fileSource));
        if (!inFiles)
          fail(
            'INVALID_VARIANT',
            ['input', 'variants', i, 'file'],
            "A variant's file must also be specified in the product's files",
          );
      }
      const existingVariant =
        (v.id ? existing?.variants.find((x) => x.id === parseGid(v.id)?.id) : undefined) ??
        existing?.variants.find((x) => x.optionValues.map((o) => o.value).join(' / ') === combo);
      if (v.id && !existingVariant)
        fail(
          'PRODUCT_VARIANT_DOES_NOT_EXIST',
          ['input', 'variants', i, 'id'],
          'Product variant does not exist',
        );
      planned.push({
        input: v,
        optionValues: ordered,
        existing: existingVariant,
        fileSource,
        fileId,
      });
    });
  } else if (creating && optionInputs) {
    fail(
      'VARIANTS_INPUT_MISSING',
      ['input', 'variants'],
      'Variants input is required when product options are given',
    );
  }

  const productMetafields = metafieldErrors(
    store,
    'PRODUCT',
    existing?.id ?? null,
    input.metafields,
    ['input', 'metafields'],
    (c) => (c === 'CAPABILITY_VIOLATION' ? 'CAPABILITY_VIOLATION' : 'INVALID_METAFIELD'),
  );
  errors.push(...productMetafields.errors);
  const variantMetafields = planned.map((p, i) =>
    metafieldErrors(
      store,
      'PRODUCTVARIANT',
      p.existing?.id ?? null,
      p.input.metafields,
      ['input', 'variants', i, 'metafields'],
      (c) => (c === 'CAPABILITY_VIOLATION' ? 'CAPABILITY_VIOLATION' : 'INVALID_METAFIELD'),
    ),
  );
  for (const v of variantMetafields) errors.push(...v.errors);

  if (typeof input.category === 'string' && !TAXONOMY_ID.test(input.category))
    fail('INVALID_INPUT', ['input', 'category'], 'Category does not exist');
  const collectionIds = Array.isArray(input.collections)
    ? (input.collections as unknown[]).map((id) => parseGid(id)?.id ?? -1)
    : null;
  collectionIds?.forEach((id, i) => {
    if (!store.collections.has(id))
      fail('INVALID_INPUT', ['input', 'collections', i], 'Collection does not exist');
  });

  if (errors.length) return { product: null, productSetOperation: null, userErrors: errors };

  // Apply.
  const now = store.timestamp();
  let media = existing?.media ?? [];
  if (fileInputs) {
    const next: MediaRec[] = [];
    for (const f of fileInputs) {
      const byId = f.id ? store.mediaById(parseGid(f.id)?.id ?? -1) : undefined;
      // A file Shopify failed to process is fetched again when its source is given again.
      const bySource = str(f.originalSource)
        ? media.find(
            (m) =>
              m.originalSource === f.originalSource && m.status !== 'FAILED' && !next.includes(m),
          )
        : undefined;
      const reuse = byId ?? bySource;
      if (reuse) {
        if (typeof f.alt === 'string') reuse.alt = f.alt;
        next.push(reuse);
      } else {
        next.push(
          await ingestImage(store, String(f.originalSource), str(f.alt) ?? '', ctx.mediaHosts),
        );
      }
    }
    media = next;
  }

  const product: ProductRec = existing ?? {
    id: store.nextId(),
    handle,
    title,
    descriptionHtml: '',
    status: 'ACTIVE',
    vendor: '',
    productType: '',
    tags: [],
    options: [],
    variants: [],
    media: [],
    seoTitle: null,
    seoDescription: null,
    metafields: [],
    templateSuffix: null,
    categoryId: null,
    isGiftCard: false,
    giftCardTemplateSuffix: null,
    requiresSellingPlan: false,
    createdAt: now,
    updatedAt: now,
    publishedAt: now,
  };
  product.handle = handle;
  product.title = title;
  if (typeof input.descriptionHtml === 'string') product.descriptionHtml = input.descriptionHtml;
  if (typeof input.status === 'string') product.status = input.status as ProductStatus;
  if (typeof input.vendor === 'string') product.vendor = input.vendor;
  if (typeof input.productType === 'string') product.productType = input.productType;
  if (Array.isArray(input.tags)) product.tags = shopifyTags(input.tags);
  if (input.templateSuffix !== undefined)
    product.templateSuffix = str(input.templateSuffix) ?? null;
  if (input.category !== undefined) product.categoryId = str(input.category) ?? null;
  if (typeof input.giftCard === 'boolean') product.isGiftCard = input.giftCard;
  if (input.giftCardTemplateSuffix !== undefined)
    product.giftCardTemplateSuffix = str(input.giftCardTemplateSuffix) ?? null;
  if (typeof input.requiresSellingPlan === 'boolean')
    product.requiresSellingPlan = input.requiresSellingPlan;
  const seo = input.seo as Input | undefined;
  if (seo) {
    if (seo.title !== undefined) product.seoTitle = str(seo.title) ?? null;
    if (seo.description !== undefined) product.seoDescription = str(seo.description) ?? null;
  }
  product.media = media;

  if (optionInputs || creating) {
    const effective = optionInputs ? options : [{ name: 'Title', values: ['Default Title'] }];
    product.options = effective.map((o, i): OptionRec => {
      const previous = existing?.options.find((x) => x.name === o.name);
      return {
        id: previous?.id ?? store.nextId(),
        name: o.name,
        position: i + 1,
        values: o.values.map((name) => ({
          id: previous?.values.find((v) => v.name === name)?.id ?? store.nextId(),
          name,
        })),
      };
    });
  }

  if (variantInputs) {
    product.variants = planned.map((p, i): VariantRec => {
      const v = p.input;
      const previous = p.existing;
      const inventoryItem = (v.inventoryItem ?? {}) as Input;
      const weight = ((inventoryItem.measurement as Input | undefined)?.weight ??
        null) as Input | null;
      const quantities = list(v.inventoryQuantities);
      const mediaForVariant =
        p.fileId !== null
          ? media.find((m) => m.id === p.fileId)
          : p.fileSource !== null
            ? media.find((m) => m.originalSource === p.fileSource)
            : undefined;
      return {
        id: previous?.id ?? store.nextId(),
        inventoryItemId: previous?.inventoryItemId ?? store.nextId(),
        sku: str(v.sku) ?? str(inventoryItem.sku) ?? previous?.sku ?? null,
        price:
          v.price !== undefined && v.price !== null ? String(v.price) : (previous?.price ?? '0.00'),
        compareAtPrice:
          v.compareAtPrice !== undefined
            ? v.compareAtPrice === null
              ? null
              : String(v.compareAtPrice)
            : (previous?.compareAtPrice ?? null),
        barcode: v.barcode !== undefined ? (str(v.barcode) ?? null) : (previous?.barcode ?? null),
        position: i + 1,
        optionValues: p.optionValues,
        tracked:
          typeof inventoryItem.tracked === 'boolean'
            ? inventoryItem.tracked
            : (previous?.tracked ?? false),
        quantity: quantities.length
          ? quantities.reduce((n, q) => n + Number(q.quantity), 0)
          : (previous?.quantity ?? 0),
        weight: weight
          ? { unit: weight.unit as 'GRAMS', value: Number(weight.value) }
          : (previous?.weight ?? null),
        mediaId: mediaForVariant?.id ?? (v.file === undefined ? (previous?.mediaId ?? null) : null),
        taxable: typeof v.taxable === 'boolean' ? v.taxable : (previous?.taxable ?? true),
        ...inventoryItemFields(inventoryItem, previous),
        inventoryPolicy:
          (str(v.inventoryPolicy) as 'DENY' | 'CONTINUE' | undefined) ??
          previous?.inventoryPolicy ??
          'DENY',
        requiresShipping:
          typeof inventoryItem.requiresShipping === 'boolean'
            ? inventoryItem.requiresShipping
            : (previous?.requiresShipping ?? true),
        metafields:
          variantMetafields[i]?.apply(previous?.metafields ?? [], Array.isArray(v.metafields)) ??
          [],
        createdAt: previous?.createdAt ?? now,
        updatedAt: now,
      };
    });
  } else if (creating) {
    product.variants = [
      {
        id: store.nextId(),
        inventoryItemId: store.nextId(),
        sku: null,
        price: '0.00',
        compareAtPrice: null,
        barcode: null,
        position: 1,
        optionValues: [{ name: 'Title', value: 'Default Title' }],
        tracked: false,
        quantity: 0,
        weight: null,
        mediaId: null,
        taxable: true,
        ...inventoryItemFields({}, undefined),
        inventoryPolicy: 'DENY',
        requiresShipping: true,
        metafields: [],
        createdAt: now,
        updatedAt: now,
      },
    ];
  }
  if (Array.isArray(input.metafields))
    product.metafields = productMetafields.apply(product.metafields, true);
  product.updatedAt = now;
  store.products.set(product.id, product);
  if (collectionIds) {
    for (const c of store.collections.values()) {
      const member = c.productIds.includes(product.id);
      const wanted = collectionIds.includes(c.id);
      if (wanted && !member) c.productIds.push(product.id);
      if (!wanted && member) c.productIds = c.productIds.filter((id) => id !== product.id);
    }
  }
  const view = productView(ctx, product);
  if (args.synchronous === false)
    return {
      product: null,
      productSetOperation: {
        id: gid('ProductSetOperation', store.nextId()),
        status: 'COMPLETE',
        product: view,
        userErrors: [],
      },
      userErrors: [],
    };
  return { product: view, productSetOperation: null, userErrors: [] };
}

// ------------------------------------------------------------------ productVariantsBulk*

interface BulkVariantPlan {
  input: Input;
  optionValues: { name: string; value: string }[];
  existing: VariantRec | undefined;
  mediaSource: string | null;
  mediaId: number | null;
}

/**
 * productVariantsBulkCreate and productVariantsBulkUpdate: variants of one product, with option
 * values by option name or id (a value the option does not have yet is added to it on create),
 * media by id or by source (new media come in `media`), inventory at the shop's location. The whole
 * input is checked first; nothing changes when something is wrong.
 */
async function productVariantsBulk(
  ctx: MutationContext,
  args: Args,
  mode: 'create' | 'update',
): Promise<Record<string, unknown>> {
  const { store } = ctx;
  const errors: UserError[] = [];
  const fail = (code: string, field: (string | number)[] | null, message: string) =>
    errors.push({ code, field: field ? fieldPath(field) : null, message });
  const refused = () => ({ product: null, productVariants: null, userErrors: errors });
  checkArraySize(args.media, [
    `productVariantsBulk${mode === 'create' ? 'Create' : 'Update'}`,
    'media',
  ]);
  const product = store.products.get(parseGid(args.productId)?.id ?? -1);
  if (!product) {
    fail('PRODUCT_DOES_NOT_EXIST', ['productId'], 'Product does not exist');
    return refused();
  }
  const inputs = list(args.variants);
  if (product.variants.length + (mode === 'create' ? inputs.length : 0) > 2048)
    fail('INVALID', ['variants'], 'Exceeded the maximum number of variants allowed (2048)');
  const mediaInputs = list(args.media);
  mediaInputs.forEach((m, i) => {
    if (!str(m.originalSource))
      fail('INVALID_INPUT', ['media', i, 'originalSource'], 'Media source is required');
    if (m.mediaContentType !== 'IMAGE')
      fail(
        'INVALID_INPUT',
        ['media', i, 'mediaContentType'],
        'Only images are supported by this sandbox',
      );
  });
  if (product.media.length + mediaInputs.length > 250)
    fail('INVALID_INPUT', ['media'], 'Exceeded the limit of media per product (250)');

  // Option values added by this call, per option name (create only).
  const added = new Map<string, string[]>();
  const combos = new Set(
    product.variants.map((v) => v.optionValues.map((o) => o.value).join(' / ')),
  );
  const plans: BulkVariantPlan[] = inputs.map((v, i) => {
    const path = ['variants', i];
    const existing =
      mode === 'update' ? product.variants.find((x) => x.id === parseGid(v.id)?.id) : undefined;
    if (mode === 'update' && !existing)
      fail('PRODUCT_VARIANT_DOES_NOT_EXIST', [...path, 'id'], 'Product variant does not exist');
    if (mode === 'create' && v.id)
      fail('INVALID', [...path, 'id'], 'A new variant cannot have an id');
    let optionValues = existing?.optionValues ?? [];
    if (mode === 'create' || v.optionValues !== undefined) {
      const given = list(v.optionValues);
      const values: { name: string; value: string }[] = [];
      given.forEach((ov, j) => {
        const option =
          product.options.find((o) => o.name === str(ov.optionName)) ??
          product.options.find((o) => o.id === parseGid(ov.optionId)?.id);
        if (!option) {
          fail(
            'OPTION_VALUES_FOR_NUMBER_OF_UNKNOWN_OPTIONS',
            [...path, 'optionValues', j],
            `Option '${str(ov.optionName) ?? str(ov.optionId) ?? ''}' does not exist`,
          );
          return;
        }
        const byId = ov.id ? option.values.find((x) => x.id === parseGid(ov.id)?.id) : undefined;
        const name = byId?.name ?? str(ov.name)?.trim() ?? '';
        if (!name) {
          fail('INVALID_INPUT', [...path, 'optionValues', j], 'Option value name is required');
          return;
        }
        if (!option.values.some((x) => x.name === name)) {
          if (mode === 'update') {
            fail(
              'INVALID_INPUT',
              [...path, 'optionValues', j],
              `Option value '${name}' does not exist`,
            );
            return;
          }
          const list = added.get(option.name) ?? [];
          if (!list.includes(name)) list.push(name);
          added.set(option.name, list);
        }
        values.push({ name: option.name, value: name });
      });
      const ordered = product.options
        .map((o) => values.find((x) => x.name === o.name))
        .filter((x): x is { name: string; value: string } => x !== undefined);
      if (ordered.length !== product.options.length || values.length !== product.options.length)
        fail(
          'NEED_TO_ADD_OPTION_VALUES',
          [...path, 'optionValues'],
          'A variant must have exactly one value for each option',
        );
      const combo = ordered.map((o) => o.value).join(' / ');
      const own = existing?.optionValues.map((o) => o.value).join(' / ');
      if (combo !== own && combos.has(combo))
        fail(
          'VARIANT_ALREADY_EXISTS',
          [...path, 'optionValues'],
          `The variant '${combo}' already exists.`,
        );
      combos.add(combo);
      optionValues = ordered;
    }
    for (const key of ['price', 'compareAtPrice'] as const)
      if (v[key] !== undefined && v[key] !== null && !(Number(v[key]) >= 0))
        fail(
          'GREATER_THAN_OR_EQUAL_TO',
          [...path, key],
          `${key === 'price' ? 'Price' : 'Compare at price'} must be greater than or equal to 0`,
        );
    list(v.inventoryQuantities).forEach((q, k) => {
      if (mode === 'update')
        fail(
          'INVALID_INPUT',
          [...path, 'inventoryQuantities'],
          'Inventory quantities can only be set when creating variants',
        );
      else if (parseGid(q.locationId)?.id !== store.location.id)
        fail(
          'TRACKED_VARIANT_LOCATION_NOT_FOUND',
          [...path, 'inventoryQuantities', k, 'locationId'],
          'Location does not exist',
        );
    });
    let mediaId: number | null = null;
    let mediaSource: string | null = null;
    if (v.mediaId) {
      mediaId = parseGid(v.mediaId)?.id ?? -1;
      if (!product.media.some((m) => m.id === mediaId))
        fail('INVALID_INPUT', [...path, 'mediaId'], 'Media does not exist on the product');
    } else if (Array.isArray(v.mediaSrc) && v.mediaSrc.length) {
      mediaSource = String(v.mediaSrc[0]);
      if (
        !mediaInputs.some((m) => m.originalSource === mediaSource) &&
        !product.media.some((m) => m.originalSource === mediaSource)
      )
        fail(
          'INVALID_INPUT',
          [...path, 'mediaSrc'],
          "A variant's media must be one of the product's media",
        );
    }
    return { input: v, optionValues, existing, mediaSource, mediaId };
  });
  const metafields = plans.map((p, i) =>
    metafieldErrors(
      store,
      'PRODUCTVARIANT',
      p.existing?.id ?? null,
      p.input.metafields,
      ['variants', i, 'metafields'],
      (c) => (c === 'CAPABILITY_VIOLATION' ? 'INVALID' : 'INVALID_INPUT'),
    ),
  );
  for (const m of metafields) errors.push(...m.errors);
  if (errors.length) return refused();

  // Apply.
  const now = store.timestamp();
  for (const m of mediaInputs)
    product.media.push(
      await ingestImage(store, String(m.originalSource), str(m.alt) ?? '', ctx.mediaHosts),
    );
  for (const [name, values] of added) {
    const option = product.options.find((o) => o.name === name);
    for (const value of values) option?.values.push({ id: store.nextId(), name: value });
  }
  const strategy = str(args.strategy) ?? 'DEFAULT';
  const standalone = product.variants.length === 1 ? product.variants[0] : undefined;
  const isDefault = standalone?.optionValues.every((o) => o.name === 'Title') ?? false;
  const touched: VariantRec[] = [];
  for (const [i, plan] of plans.entries()) {
    const v = plan.input;
    const inventoryItem = (v.inventoryItem ?? {}) as Input;
    const weight = ((inventoryItem.measurement as Input | undefined)?.weight ??
      null) as Input | null;
    const media =
      plan.mediaId !== null
        ? product.media.find((m) => m.id === plan.mediaId)
        : plan.mediaSource !== null
          ? product.media.find((m) => m.originalSource === plan.mediaSource)
          : undefined;
    const previous = plan.existing;
    const variant: VariantRec = previous ?? {
      id: store.nextId(),
      inventoryItemId: store.nextId(),
      sku: null,
      price: '0.00',
      compareAtPrice: null,
      barcode: null,
      position: product.variants.length + 1,
      optionValues: plan.optionValues,
      tracked: false,
      quantity: 0,
      weight: null,
      mediaId: null,
      taxable: true,
      ...inventoryItemFields({}, undefined),
      inventoryPolicy: 'DENY',
      requiresShipping: true,
      metafields: [],
      createdAt: now,
      updatedAt: now,
    };
    variant.optionValues = plan.optionValues;
    Object.assign(variant, inventoryItemFields(inventoryItem, variant));
    if (v.price !== undefined && v.price !== null) variant.price = String(v.price);
    if (v.compareAtPrice !== undefined)
      variant.compareAtPrice = v.compareAtPrice === null ? null : String(v.compareAtPrice);
    if (v.barcode !== undefined) variant.barcode = str(v.barcode) ?? null;
    if (inventoryItem.sku !== undefined) variant.sku = str(inventoryItem.sku) ?? null;
    if (typeof inventoryItem.tracked === 'boolean') variant.tracked = inventoryItem.tracked;
    if (typeof inventoryItem.requiresShipping === 'boolean')
      variant.requiresShipping = inventoryItem.requiresShipping;
    if (weight) variant.weight = { unit: weight.unit as 'GRAMS', value: Number(weight.value) };
    if (typeof v.taxable === 'boolean') variant.taxable = v.taxable;
    const policy = str(v.inventoryPolicy);
    if (policy === 'DENY' || policy === 'CONTINUE') variant.inventoryPolicy = policy;
    const quantities = list(v.inventoryQuantities);
    if (quantities.length)
      variant.quantity = quantities.reduce((n, q) => n + Number(q.availableQuantity), 0);
    if (media) variant.mediaId = media.id;
    variant.metafields = metafields[i]?.apply(variant.metafields) ?? variant.metafields;
    variant.updatedAt = now;
    if (!previous) product.variants.push(variant);
    touched.push(variant);
  }
  if (
    mode === 'create' &&
    standalone &&
    touched.length > 0 &&
    ((strategy === 'DEFAULT' && isDefault) || strategy === 'REMOVE_STANDALONE_VARIANT')
  ) {
    product.variants = product.variants.filter((v) => v !== standalone);
    if (isDefault) product.options = product.options.filter((o) => o.name !== 'Title');
  }
  product.variants.forEach((v, i) => (v.position = i + 1));
  product.updatedAt = now;
  return {
    product: productView(ctx, product),
    productVariants: touched.map((v) => variantView(ctx, product, v)),
    userErrors: [],
  };
}

// ------------------------------------------------------------------ collections

async function collectionCreate(
  ctx: MutationContext,
  args: Args,
): Promise<Record<string, unknown>> {
  const { store } = ctx;
  const input = (args.collection ?? args.input ?? {}) as Input;
  const errors: UserError[] = [];
  const title = str(input.title)?.trim() ?? '';
  if (!title) errors.push({ field: ['title'], message: "Title can't be blank" });
  const taken = (h: string) => store.collectionByHandle(h) !== undefined;
  let handle = '';
  if (typeof input.handle === 'string') {
    handle = handleize(input.handle);
    if (!handle) errors.push({ field: ['handle'], message: 'Handle is invalid' });
    else if (taken(handle))
      errors.push({ field: ['handle'], message: 'Handle has already been taken' });
  } else {
    handle = uniqueHandle(taken, handleize(title));
  }
  if (
    input.ruleSet ||
    list(input.sources).some(
      (s) =>
        (
          ((s.source as Input | undefined)?.inclusion as Input | undefined)?.conditions as
            unknown[] | undefined
        )?.length,
    )
  )
    errors.push({
      field: ['ruleSet'],
      message:
        'Automated (smart) collections are not supported by this sandbox; create a manual collection',
    });
  const productIds = [
    ...(Array.isArray(input.products) ? (input.products as unknown[]) : []),
    ...list(input.sources).flatMap((s) =>
      list(((s.source as Input | undefined)?.inclusion as Input | undefined)?.selections).map(
        (sel) => sel.productId,
      ),
    ),
  ].map((id) => parseGid(id)?.id ?? -1);
  checkArraySize(productIds, ['collectionCreate', 'products']);
  productIds.forEach((id, i) => {
    if (!store.products.has(id))
      errors.push({ field: ['products', String(i)], message: 'Product does not exist' });
  });
  const image = input.image as Input | undefined;
  if (image && !str(image.src))
    errors.push({ field: ['image', 'src'], message: 'Image source is required' });
  const metafields = metafieldErrors(
    store,
    'COLLECTION',
    null,
    input.metafields,
    ['metafields'],
    () => null,
  );
  errors.push(...metafields.errors);
  if (errors.length) return { collection: null, userErrors: errors };

  const now = store.timestamp();
  const seo = (input.seo ?? {}) as Input;
  const collection: CollectionRec = {
    id: store.nextId(),
    handle,
    title,
    descriptionHtml: str(input.descriptionHtml) ?? '',
    image: image
      ? await ingestImage(store, String(image.src), str(image.altText) ?? '', ctx.mediaHosts, false)
      : null,
    seoTitle: str(seo.title) ?? null,
    seoDescription: str(seo.description) ?? null,
    productIds: [...new Set(productIds)],
    metafields: metafields.apply([]),
    sortOrder: str(input.sortOrder) ?? 'MANUAL',
    templateSuffix: str(input.templateSuffix) ?? null,
    createdAt: now,
    updatedAt: now,
  };
  store.collections.set(collection.id, collection);
  return { collection: collectionView(ctx, collection), userErrors: [] };
}

/** collectionUpdate: title, description, handle, SEO and image of a manual collection. */
async function collectionUpdate(
  ctx: MutationContext,
  args: Args,
): Promise<Record<string, unknown>> {
  const { store } = ctx;
  const input = (args.collection ?? args.input ?? {}) as Input;
  const collection = store.collections.get(parseGid(input.id)?.id ?? -1);
  if (!collection)
    return {
      collection: null,
      job: null,
      userErrors: [{ field: ['id'], message: 'Collection does not exist' }],
    };
  const errors: UserError[] = [];
  if (input.title !== undefined && !str(input.title)?.trim())
    errors.push({ field: ['title'], message: "Title can't be blank" });
  let handle = collection.handle;
  if (typeof input.handle === 'string') {
    handle = handleize(input.handle);
    const other = store.collectionByHandle(handle);
    if (!handle) errors.push({ field: ['handle'], message: 'Handle is invalid' });
    else if (other && other !== collection)
      errors.push({ field: ['handle'], message: 'Handle has already been taken' });
  }
  const image = input.image as Input | null | undefined;
  if (image && !str(image.src))
    errors.push({ field: ['image', 'src'], message: 'Image source is required' });
  const metafields = metafieldErrors(
    store,
    'COLLECTION',
    collection.id,
    input.metafields,
    ['metafields'],
    () => null,
  );
  errors.push(...metafields.errors);
  if (errors.length) return { collection: null, job: null, userErrors: errors };

  if (typeof input.title === 'string') collection.title = input.title.trim();
  if (typeof input.descriptionHtml === 'string') collection.descriptionHtml = input.descriptionHtml;
  collection.handle = handle;
  const seo = input.seo as Input | undefined;
  if (seo?.title !== undefined) collection.seoTitle = str(seo.title) ?? null;
  if (seo?.description !== undefined) collection.seoDescription = str(seo.description) ?? null;
  if (image === null) collection.image = null;
  else if (image)
    collection.image = await ingestImage(
      store,
      String(image.src),
      str(image.altText) ?? '',
      ctx.mediaHosts,
      false,
    );
  if (Array.isArray(input.metafields))
    collection.metafields = metafields.apply(collection.metafields);
  collection.updatedAt = store.timestamp();
  return { collection: collectionView(ctx, collection), job: null, userErrors: [] };
}

function collectionAddProducts(ctx: MutationContext, args: Args): Record<string, unknown> {
  const { store } = ctx;
  checkArraySize(args.productIds, ['collectionAddProducts', 'productIds']);
  const collection = store.collections.get(parseGid(args.id)?.id ?? -1);
  if (!collection)
    return {
      collection: null,
      userErrors: [{ field: ['id'], message: 'Collection does not exist' }],
    };
  const ids = (args.productIds as unknown[]).map((id) => parseGid(id)?.id ?? -1);
  const missing = ids.findIndex((id) => !store.products.has(id));
  if (missing !== -1)
    return {
      collection: null,
      userErrors: [{ field: ['productIds', String(missing)], message: 'Product does not exist' }],
    };
  // "If any of the products is already present in the input collection, then an error is raised
  // and no products are added." (collectionAddProducts, 2026-10 schema)
  if (ids.some((id) => collection.productIds.includes(id)))
    return {
      collection: null,
      userErrors: [
        {
          field: ['productIds'],
          message: 'Error adding products: one or more products are already in the collection',
        },
      ],
    };
  collection.productIds.push(...new Set(ids));
  collection.updatedAt = store.timestamp();
  return { collection: collectionView(ctx, collection), userErrors: [] };
}

// ------------------------------------------------------------------ customers

interface CustomerFields {
  email: string | null;
  phone: string | null;
  errors: UserError[];
}

function checkContact(
  store: ShopStore,
  input: Input,
  self: CustomerRec | undefined,
): CustomerFields {
  const errors: UserError[] = [];
  let email: string | null = null;
  let phone: string | null = null;
  if (typeof input.email === 'string' && input.email.trim()) {
    email = input.email.trim();
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
      errors.push({ field: ['email'], message: 'Email is invalid' });
    else {
      const other = store.customerByEmail(email);
      if (other && other !== self)
        errors.push({ field: ['email'], message: 'Email has already been taken' });
    }
  }
  if (typeof input.phone === 'string' && input.phone.trim()) {
    const country =
      str(list(input.addresses)[0]?.countryCode) ?? str(self?.addresses[0]?.countryCode);
    const normalised = normalisePhone(input.phone, country ?? undefined);
    if (!normalised) errors.push({ field: ['phone'], message: 'Phone is invalid' });
    else {
      phone = normalised;
      const other = store.customerByPhone(normalised);
      if (other && other !== self)
        errors.push({ field: ['phone'], message: 'Phone has already been taken' });
    }
  }
  return { email, phone, errors };
}

function customerCreate(ctx: MutationContext, args: Args): Record<string, unknown> {
  const { store } = ctx;
  const input = (args.input ?? {}) as Input;
  const { email, phone, errors } = checkContact(store, input, undefined);
  const firstName = str(input.firstName)?.trim() || null;
  const lastName = str(input.lastName)?.trim() || null;
  if (!email && !phone && !firstName && !lastName)
    errors.push({ field: null, message: 'A name, phone number, or email address must be present' });
  const consent = input.emailMarketingConsent as Input | undefined;
  if (consent && !email)
    errors.push({
      field: ['emailMarketingConsent'],
      message: 'An email address is required to set the email marketing consent state',
    });
  const sms = input.smsMarketingConsent as Input | undefined;
  if (sms && !phone)
    errors.push({
      field: ['smsMarketingConsent'],
      message: 'A phone number is required to set the SMS consent state',
    });
  checkArraySize(input.addresses, ['customerCreate', 'input', 'addresses']);
  const metafields = metafieldErrors(
    store,
    'CUSTOMER',
    null,
    input.metafields,
    ['metafields'],
    () => null,
  );
  errors.push(...metafields.errors);
  if (errors.length) return { customer: null, userErrors: errors };

  const now = store.timestamp();
  const addresses = list(input.addresses).map((a) => addressFromInput(store, a) as AddressRec);
  const customer: CustomerRec = {
    id: store.nextId(),
    firstName,
    lastName,
    email,
    phone,
    note: str(input.note) ?? null,
    tags: shopifyTags(input.tags),
    locale: str(input.locale) ?? 'en',
    marketingState:
      (consent?.marketingState as EmailMarketingState | undefined) ?? 'NOT_SUBSCRIBED',
    marketingOptInLevel:
      (consent?.marketingOptInLevel as CustomerRec['marketingOptInLevel'] | undefined) ??
      (consent ? 'SINGLE_OPT_IN' : null),
    marketingUpdatedAt: consent ? dateTime(str(consent.consentUpdatedAt) ?? now) : null,
    sms: phone
      ? {
          state: (str(sms?.marketingState) as SmsMarketingState | undefined) ?? 'NOT_SUBSCRIBED',
          optInLevel: (str(sms?.marketingOptInLevel) as OptInLevel | undefined) ?? null,
          updatedAt: sms ? dateTime(str(sms.consentUpdatedAt) ?? now) : null,
        }
      : null,
    addresses,
    // Shopify makes the first address of a new customer its default address.
    defaultAddressId: addresses[0]?.id ?? null,
    metafields: metafields.apply([]),
    taxExempt: input.taxExempt === true,
    taxExemptions: Array.isArray(input.taxExemptions) ? (input.taxExemptions as string[]) : [],
    createdAt: now,
    updatedAt: now,
  };
  store.customers.set(customer.id, customer);
  return { customer: customerView(ctx, customer), userErrors: [] };
}

function customerAddressCreate(ctx: MutationContext, args: Args): Record<string, unknown> {
  const customer = ctx.store.customers.get(parseGid(args.customerId)?.id ?? -1);
  if (!customer)
    return {
      address: null,
      userErrors: [{ field: ['customerId'], message: 'Customer does not exist' }],
    };
  const address = addressFromInput(ctx.store, args.address as Input) as AddressRec;
  customer.addresses.push(address);
  if (args.setAsDefault === true || customer.defaultAddressId === null)
    customer.defaultAddressId = address.id;
  customer.updatedAt = ctx.store.timestamp();
  const view = customerView(ctx, customer);
  return { address: (view.addresses as (a: Args) => unknown[])({}).at(-1) ?? null, userErrors: [] };
}

function customerUpdateDefaultAddress(ctx: MutationContext, args: Args): Record<string, unknown> {
  const customer = ctx.store.customers.get(parseGid(args.customerId)?.id ?? -1);
  if (!customer)
    return {
      customer: null,
      userErrors: [{ field: ['customerId'], message: 'Customer does not exist' }],
    };
  const addressId = parseGid(args.addressId)?.id;
  if (!customer.addresses.some((a) => a.id === addressId))
    return {
      customer: null,
      userErrors: [{ field: ['addressId'], message: 'Address does not exist' }],
    };
  customer.defaultAddressId = addressId ?? null;
  customer.updatedAt = ctx.store.timestamp();
  return { customer: customerView(ctx, customer), userErrors: [] };
}

// ------------------------------------------------------------------ orders

/** The trial and development store limit of orderCreate (its 2026-10 description): 5 orders a minute. */
export const DEV_STORE_ORDERS_PER_MINUTE = 5;

function moneyOf(bag: unknown): { amount: string; currency: string } | undefined {
  const shop = (bag as Input | undefined)?.shopMoney as Input | undefined;
  if (!shop) return undefined;
  return { amount: String(shop.amount), currency: String(shop.currencyCode) };
}

function taxLinesOf(
  inputs: unknown,
  base: number,
  currency: string,
  path: (string | number)[],
  errors: UserError[],
): TaxLineRec[] {
  return list(inputs).map((t, i) => {
    const money = moneyOf(t.priceSet);
    if (money && money.currency !== currency)
      errors.push({
        code: 'INVALID',
        field: fieldPath([...path, i, 'priceSet']),
        message: 'Tax line currency must match the order currency',
      });
    const rate = Number(t.rate);
    const amount = money ? toMinorUnits(money.amount, currency) : Math.round(base * rate);
    return { title: String(t.title), rate, amount: decimalOf(amount, currency) };
  });
}

/**
 * The financial status the transactions of an order give (how Shopify recalculates it): refunds
 * against what was received, captured sales, or authorisations still open.
 */
export function statusOfTransactions(transactions: TransactionRec[]): FinancialStatus {
  const sum = (kinds: TransactionKind[]) =>
    transactions
      .filter((t) => t.status === 'SUCCESS' && kinds.includes(t.kind))
      .reduce((n, t) => n + Number(t.amount), 0);
  const received = sum(['SALE', 'CAPTURE']);
  const refunded = sum(['REFUND']);
  if (received > 0 && refunded >= received - 1e-9) return 'REFUNDED';
  if (refunded > 0) return 'PARTIALLY_REFUNDED';
  if (received > 0) return 'PAID';
  if (sum(['AUTHORIZATION']) > 0) return sum(['VOID']) > 0 ? 'VOIDED' : 'AUTHORIZED';
  return 'PENDING';
}

/** Spreads `amount` over `bases` in proportion (Shopify's ACROSS allocation), rounding on the last. */
function allocate(amount: number, bases: number[]): number[] {
  const total = bases.reduce((n, b) => n + b, 0);
  if (total <= 0) return bases.map((_b, i) => (i === bases.length - 1 ? amount : 0));
  let given = 0;
  return bases.map((b, i) => {
    if (i === bases.length - 1) return amount - given;
    const share = Math.floor((amount * b) / total);
    given += share;
    return share;
  });
}

function orderCreate(ctx: MutationContext, args: Args): Record<string, unknown> {
  const { store } = ctx;
  const input = (args.order ?? {}) as Input;
  const options = (args.options ?? {}) as Input;
  const nowMs = store.now();
  if (store.config.developmentStore || store.config.trialStore) {
    while (store.orderCreateTimes.length && (store.orderCreateTimes[0] ?? 0) <= nowMs - 60_000)
      store.orderCreateTimes.shift();
    if (store.orderCreateTimes.length >= DEV_STORE_ORDERS_PER_MINUTE) {
      store.stats.orderCreateRefused += 1;
      // The limit is documented; the GraphQL answer is not. The emulator refuses the field with a
      // top-level error in the words of the REST API's answer, saying when to try again.
      const retryAfter = Math.ceil(((store.orderCreateTimes[0] ?? nowMs) + 60_000 - nowMs) / 1000);
      throw new GraphQLError(
        'Exceeded order API rate limit, please try again in a minute. Upgrade to a paid account to remove this limit.',
        { extensions: { code: 'TOO_MANY_REQUESTS', retryAfterSeconds: retryAfter } },
      );
    }
  }
  const errors: UserError[] = [];
  const fail = (code: string, field: (string | number)[] | null, message: string) =>
    errors.push({ code, field: field ? fieldPath(field) : null, message });
  const currency = str(input.currency) ?? store.config.currency;
  if (input.presentmentCurrency && input.presentmentCurrency !== currency)
    fail(
      'INVALID',
      ['order', 'presentmentCurrency'],
      'Presentment currency must match the order currency in this sandbox',
    );
  const lineInputs = list(input.lineItems);
  checkArraySize(input.lineItems, ['orderCreate', 'order', 'lineItems']);
  if (lineInputs.length === 0)
    fail('INVALID', ['order', 'lineItems'], 'An order must have at least one line item');

  const lines: LineItemRec[] = lineInputs.map((l, i) => {
    const path = ['order', 'lineItems', i];
    const variantFound = l.variantId
      ? store.findVariant(parseGid(l.variantId)?.id ?? -1)
      : undefined;
    if (l.variantId && !variantFound)
      fail('INVALID', [...path, 'variantId'], 'Variant does not exist');
    const productId = l.productId
      ? (parseGid(l.productId)?.id ?? -1)
      : (variantFound?.product.id ?? null);
    if (l.productId && !store.products.has(productId ?? -1))
      fail('INVALID', [...path, 'productId'], 'Product does not exist');
    if (variantFound && productId !== null && variantFound.product.id !== productId)
      fail('INVALID', [...path, 'variantId'], 'Variant does not belong to the product');
    const product = productId === null ? undefined : store.products.get(productId);
    const title = str(l.title)?.trim() || product?.title || '';
    if (!title) fail('INVALID', [...path, 'title'], "Title can't be blank");
    const quantity = Number(l.quantity);
    if (!Number.isInteger(quantity) || quantity < 1)
      fail('INVALID', [...path, 'quantity'], 'Quantity must be greater than or equal to 1');
    const money = moneyOf(l.priceSet);
    if (money && money.currency !== currency)
      fail('INVALID', [...path, 'priceSet'], 'Price currency must match the order currency');
    const unitPrice = money?.amount ?? variantFound?.variant.price;
    if (unitPrice === undefined)
      fail(
        'INVALID',
        [...path, 'priceSet'],
        'A price is required for a line item without a variant',
      );
    else if (!(Number(unitPrice) >= 0))
      fail('INVALID', [...path, 'priceSet'], 'Price must be greater than or equal to 0');
    const unit = toMinorUnits(unitPrice ?? 0, currency);
    const defaultVariant =
      variantFound?.variant.optionValues.every((o) => o.name === 'Title') ?? true;
    return {
      id: store.nextId(),
      title,
      variantTitle:
        str(l.variantTitle) ??
        (variantFound && !defaultVariant && !str(l.title)
          ? variantFound.variant.optionValues.map((o) => o.value).join(' / ')
          : null),
      sku: str(l.sku) ?? variantFound?.variant.sku ?? null,
      vendor: str(l.vendor) ?? product?.vendor ?? null,
      quantity,
      unitPrice: decimalOf(unit, currency),
      productId,
      variantId: variantFound?.variant.id ?? null,
      taxLines: taxLinesOf(l.taxLines, unit * quantity, currency, [...path, 'taxLines'], errors),
      requiresShipping: typeof l.requiresShipping === 'boolean' ? l.requiresShipping : true,
      taxable: typeof l.taxable === 'boolean' ? l.taxable : true,
      discountAllocations: [],
      customAttributes: list(l.properties).map((p) => ({
        key: String(p.name),
        value: String(p.value),
      })),
    };
  });
  const shippingLines: ShippingLineRec[] = list(input.shippingLines).map((s, i) => {
    const money = moneyOf(s.priceSet);
    if (money && money.currency !== currency)
      fail(
        'INVALID',
        ['order', 'shippingLines', i, 'priceSet'],
        'Shipping price currency must match the order currency',
      );
    const price = toMinorUnits(money?.amount ?? 0, currency);
    return {
      id: store.nextId(),
      title: String(s.title),
      code: str(s.code) ?? null,
      source: str(s.source) ?? null,
      price: decimalOf(price, currency),
      taxLines: taxLinesOf(
        s.taxLines,
        price,
        currency,
        ['order', 'shippingLines', i, 'taxLines'],
        errors,
      ),
      discountAllocations: [],
    };
  });

  // Customer.
  if (input.customer && input.customerId)
    fail(
      'REDUNDANT_CUSTOMER_FIELDS',
      ['order', 'customerId'],
      'Provide either customer or customerId, not both',
    );
  let customer: CustomerRec | undefined;
  const customerInput = (input.customer ?? null) as Input | null;
  const associate = (customerInput?.toAssociate ?? null) as Input | null;
  if (associate?.id || input.customerId) {
    customer = store.customers.get(parseGid(associate?.id ?? input.customerId)?.id ?? -1);
    if (!customer)
      fail('INVALID', ['order', 'customer', 'toAssociate', 'id'], 'Customer does not exist');
  } else if (typeof associate?.email === 'string') {
    customer = store.customerByEmail(associate.email);
    if (!customer)
      fail('INVALID', ['order', 'customer', 'toAssociate', 'email'], 'Customer does not exist');
  } else if (customerInput?.toUpsert) {
    const upsert = customerInput.toUpsert as Input;
    customer =
      (upsert.id ? store.customers.get(parseGid(upsert.id)?.id ?? -1) : undefined) ??
      (typeof upsert.email === 'string' ? store.customerByEmail(upsert.email) : undefined);
    if (!customer) {
      const created = customerCreate(ctx, {
        input: { ...upsert, addresses: list(upsert.addresses).map((a) => a.address ?? a) },
      });
      const problems = created.userErrors as UserError[];
      problems.forEach((p) =>
        fail('INVALID', ['order', 'customer', 'toUpsert', ...(p.field ?? [])], p.message),
      );
      if (!problems.length)
        customer =
          store.customerByEmail(String(upsert.email ?? '')) ?? [...store.customers.values()].pop();
    }
  }

  const processedAt = dateTime(str(input.processedAt) ?? store.timestamp());
  if (Date.parse(processedAt) > nowMs + 60_000)
    fail(
      'PROCESSED_AT_INVALID',
      ['order', 'processedAt'],
      'Processed at must not be in the future',
    );

  // Discount code: one per order (orderCreate description), allocated across lines or shipping.
  const discounts: DiscountApplicationRec[] = [];
  const discountInput = (input.discountCode ?? null) as Input | null;
  if (discountInput) {
    const fixed = discountInput.itemFixedDiscountCode as Input | undefined;
    const percentage = discountInput.itemPercentageDiscountCode as Input | undefined;
    const freeShipping = discountInput.freeShippingDiscountCode as Input | undefined;
    const bases = lines.map((l) => toMinorUnits(l.unitPrice, currency) * l.quantity);
    const lineTotal = bases.reduce((n, b) => n + b, 0);
    if (fixed) {
      const money = moneyOf(fixed.amountSet);
      const amount = Math.min(lineTotal, toMinorUnits(money?.amount ?? 0, currency));
      discounts.push({
        index: 0,
        kind: 'code',
        code: String(fixed.code),
        value: { kind: 'money', amount: decimalOf(amount, currency) },
        targetType: 'LINE_ITEM',
        targetSelection: 'ALL',
        allocationMethod: 'ACROSS',
      });
      allocate(amount, bases).forEach((a, i) =>
        lines[i]?.discountAllocations.push({ index: 0, amount: decimalOf(a, currency) }),
      );
    } else if (percentage) {
      const pct = Number(percentage.percentage ?? 0);
      const amount = Math.round((lineTotal * pct) / 100);
      discounts.push({
        index: 0,
        kind: 'code',
        code: String(percentage.code),
        value: { kind: 'percentage', percentage: pct },
        targetType: 'LINE_ITEM',
        targetSelection: 'ALL',
        allocationMethod: 'ACROSS',
      });
      allocate(amount, bases).forEach((a, i) =>
        lines[i]?.discountAllocations.push({ index: 0, amount: decimalOf(a, currency) }),
      );
    } else if (freeShipping) {
      discounts.push({
        index: 0,
        kind: 'code',
        code: String(freeShipping.code),
        value: { kind: 'percentage', percentage: 100 },
        targetType: 'SHIPPING_LINE',
        targetSelection: 'ALL',
        allocationMethod: 'EACH',
      });
      shippingLines.forEach((s) =>
        s.discountAllocations.push({ index: 0, amount: s.price } satisfies AllocationRec),
      );
    }
  }

  const transactionInputs = list(input.transactions);
  transactionInputs.forEach((t, i) => {
    const money = moneyOf(t.amountSet);
    if (!money) fail('INVALID', ['order', 'transactions', i, 'amountSet'], 'Amount is required');
    else if (money.currency !== currency)
      fail(
        'INVALID',
        ['order', 'transactions', i, 'amountSet'],
        'Transaction currency must match the order currency',
      );
    else if (!(Number(money.amount) >= 0))
      fail(
        'INVALID',
        ['order', 'transactions', i, 'amountSet'],
        'Amount must be greater than or equal to 0',
      );
    const processed = str(t.processedAt);
    if (processed && Date.parse(processed) > nowMs + 60_000)
      fail(
        'PROCESSED_AT_INVALID',
        ['order', 'transactions', i, 'processedAt'],
        'Processed at must not be in the future',
      );
  });
  const metafields = metafieldErrors(
    store,
    'ORDER',
    null,
    input.metafields,
    ['order', 'metafields'],
    () => 'INVALID',
  );
  errors.push(...metafields.errors);

  const behaviour = str(options.inventoryBehaviour) ?? 'BYPASS';
  if (behaviour !== 'BYPASS') {
    lines.forEach((l, i) => {
      const found = l.variantId === null ? undefined : store.findVariant(l.variantId);
      if (
        behaviour === 'DECREMENT_OBEYING_POLICY' &&
        found?.variant.tracked &&
        found.variant.inventoryPolicy === 'DENY' &&
        found.variant.quantity < l.quantity
      )
        fail(
          'INVENTORY_CLAIM_FAILED',
          ['order', 'lineItems', i],
          'Not enough inventory to fulfil the line item',
        );
    });
  }
  if (errors.length) return { order: null, userErrors: errors };

  // Apply.
  store.orderCreateTimes.push(nowMs);
  if (behaviour !== 'BYPASS') {
    for (const l of lines) {
      const found = l.variantId === null ? undefined : store.findVariant(l.variantId);
      if (found?.variant.tracked) {
        found.variant.quantity -= l.quantity;
        store.stats.inventoryAdjustments += 1;
      }
    }
  }
  const fulfillment = str(input.fulfillmentStatus);
  const fulfilled =
    fulfillment === 'FULFILLED' || (input.fulfillment !== undefined && input.fulfillment !== null);
  const now = store.timestamp();
  const transactions: TransactionRec[] = [];
  for (const t of transactionInputs) {
    const kind = (str(t.kind) ?? 'SALE') as TransactionKind;
    const parent =
      kind === 'CAPTURE' || kind === 'VOID' || kind === 'REFUND'
        ? transactions.find((p) => p.kind === 'AUTHORIZATION' || p.kind === 'SALE')
        : undefined;
    transactions.push({
      id: store.nextId(),
      kind,
      status: (str(t.status) ?? 'SUCCESS') as TransactionRec['status'],
      gateway: str(t.gateway) ?? 'manual',
      amount: decimalOf(toMinorUnits(moneyOf(t.amountSet)?.amount ?? 0, currency), currency),
      authorizationCode: str(t.authorizationCode) ?? null,
      processedAt: dateTime(str(t.processedAt) ?? now),
      createdAt: now,
      parentId: parent?.id ?? null,
      test: t.test === true,
    });
  }
  const financialStatus: FinancialStatus =
    (str(input.financialStatus) as FinancialStatus | undefined) ??
    statusOfTransactions(transactions);
  const number = store.nextOrderNumber++;
  const order: OrderRec = {
    id: store.nextId(),
    number,
    name: str(input.name) ?? `#${number}`,
    email: str(input.email) ?? customer?.email ?? null,
    phone: str(input.phone) ?? null,
    customerId: customer?.id ?? null,
    currency,
    processedAt,
    createdAt: now,
    updatedAt: now,
    cancelledAt: null,
    cancelReason: null,
    closedAt: input.closedAt ? dateTime(String(input.closedAt)) : null,
    financialStatus,
    fulfillmentStatus: fulfilled
      ? 'FULFILLED'
      : fulfillment === 'PARTIAL'
        ? 'PARTIALLY_FULFILLED'
        : fulfillment === 'RESTOCKED'
          ? 'RESTOCKED'
          : 'UNFULFILLED',
    fulfillmentOrders: [
      { id: store.nextId(), status: fulfilled ? 'CLOSED' : 'OPEN', holdReason: null },
    ],
    lineItems: lines,
    shippingLines,
    discountApplications: discounts,
    billingAddress: addressFromInput(store, input.billingAddress as Input | undefined),
    shippingAddress: addressFromInput(store, input.shippingAddress as Input | undefined),
    note: str(input.note) ?? null,
    tags: shopifyTags(input.tags),
    customAttributes: list(input.customAttributes).map((a) => ({
      key: String(a.key),
      value: String(a.value),
    })),
    poNumber: str(input.poNumber) ?? null,
    // The buyer's IP address is known only to a checkout.
    clientIp: null,
    transactions,
    refunds: [],
    additionalFees: [],
    metafields: metafields.apply([]),
    taxesIncluded: input.taxesIncluded === true,
    test: input.test === true,
    sourceName: str(input.sourceName) ?? 'replatform-sandbox-app',
    createdByApp: true,
    buyerAcceptsMarketing: input.buyerAcceptsMarketing === true,
  };
  store.orders.set(order.id, order);
  if (options.sendReceipt === true) store.notify('order_receipt', order.name, order.email);
  if (options.sendFulfillmentReceipt === true && fulfilled)
    store.notify('fulfillment_receipt', order.name, order.email);
  return { order: orderView(ctx, order), userErrors: [] };
}

function orderCancel(ctx: MutationContext, args: Args): Record<string, unknown> {
  const { store } = ctx;
  const order = store.orders.get(parseGid(args.orderId)?.id ?? -1);
  const problem = (code: string, message: string) => {
    const e = { code, field: ['orderId'], message };
    return {
      job: null,
      jobResult: null,
      orderCancelUserErrors: [e],
      userErrors: [{ field: e.field, message }],
    };
  };
  if (!order) return problem('NOT_FOUND', 'Order does not exist');
  if (order.cancelledAt) return problem('INVALID', 'Order has already been cancelled');
  const now = store.timestamp();
  order.cancelledAt = now;
  order.cancelReason = String(args.reason);
  order.closedAt ??= now;
  order.updatedAt = now;
  if (order.financialStatus === 'AUTHORIZED' || order.financialStatus === 'PENDING')
    order.financialStatus = 'VOIDED';
  const refundMethod = args.refundMethod as Input | undefined;
  if (
    (args.refund === true || refundMethod?.originalPaymentMethodsRefund === true) &&
    order.financialStatus === 'PAID'
  )
    order.financialStatus = 'REFUNDED';
  for (const f of order.fulfillmentOrders) if (f.status !== 'CLOSED') f.status = 'CANCELLED';
  if (args.restock === true) {
    for (const l of order.lineItems) {
      const found = l.variantId === null ? undefined : store.findVariant(l.variantId);
      if (found?.variant.tracked) {
        found.variant.quantity += l.quantity;
        store.stats.inventoryAdjustments += 1;
      }
    }
  }
  if (args.notifyCustomer === true) store.notify('order_cancelled', order.name, order.email);
  const jobId = gid('Job', store.nextId());
  return {
    job: { id: jobId, done: true, query: null },
    jobResult: {
      __typename: 'OrderCancelJobResult',
      id: jobId,
      done: true,
      status: 'COMPLETED',
      errors: [],
      order: orderView(ctx, order),
    },
    orderCancelUserErrors: [],
    userErrors: [],
  };
}

/** The key of the @idempotent directive on the mutation field being resolved, if any. */
function idempotencyKey(info: GraphQLResolveInfo | undefined): string | undefined {
  const directive = info?.schema.getDirective('idempotent');
  const node = info?.fieldNodes[0];
  if (!directive || !node) return undefined;
  const values = getDirectiveValues(directive, node, info.variableValues);
  return typeof values?.key === 'string' && values.key ? values.key : undefined;
}

/**
 * refundCreate: gives money (and optionally line items) back on an order. As of 2026-04 the
 * mutation requires an idempotency key (@idempotent); repeating it with the same key answers the
 * refund made the first time. The refund's transactions are REFUND transactions of the order, and
 * the financial status is recalculated from the transactions.
 */
function refundCreate(
  ctx: MutationContext,
  args: Args,
  info: GraphQLResolveInfo | undefined,
): Record<string, unknown> {
  const { store } = ctx;
  const key = idempotencyKey(info);
  if (!key)
    throw new GraphQLError(
      'The @idempotent directive with a key is required for refundCreate as of API version 2026-04.',
      { extensions: { code: 'BAD_REQUEST' } },
    );
  const input = (args.input ?? {}) as Input;
  const errors: UserError[] = [];
  const refused = () => ({ refund: null, order: null, userErrors: errors });
  const order = store.orders.get(parseGid(input.orderId)?.id ?? -1);
  if (!order) {
    errors.push({ field: ['orderId'], message: 'Order does not exist' });
    return refused();
  }
  const repeat = order.refunds.find((r) => r.idempotencyKey === key);
  if (repeat)
    return {
      refund: refundView(ctx, order, repeat),
      order: orderView(ctx, order),
      userErrors: [],
    };
  const c = order.currency;
  const nowMs = store.now();
  const lineInputs = list(input.refundLineItems);
  checkArraySize(input.refundLineItems, ['refundCreate', 'input', 'refundLineItems']);
  lineInputs.forEach((l, i) => {
    const line = order.lineItems.find((x) => x.id === parseGid(l.lineItemId)?.id);
    const quantity = Number(l.quantity);
    if (!line) {
      errors.push({
        field: ['refundLineItems', String(i), 'lineItemId'],
        message: 'Line item does not exist',
      });
      return;
    }
    const given = order.refunds
      .flatMap((r) => r.lines)
      .filter((x) => x.lineItemId === line.id)
      .reduce((n, x) => n + x.quantity, 0);
    if (!Number.isInteger(quantity) || quantity < 1 || quantity > line.quantity - given)
      errors.push({
        field: ['refundLineItems', String(i), 'quantity'],
        message: `Quantity cannot refund more items than were purchased (${line.quantity - given} left)`,
      });
  });
  const transactionInputs = list(input.transactions);
  let amount = 0;
  transactionInputs.forEach((t, i) => {
    const path = ['transactions', String(i)];
    if (t.kind !== 'REFUND')
      errors.push({ field: [...path, 'kind'], message: 'Transaction kind must be REFUND' });
    if (parseGid(t.orderId)?.id !== order.id)
      errors.push({ field: [...path, 'orderId'], message: 'Transaction must belong to the order' });
    if (
      t.parentId !== undefined &&
      t.parentId !== null &&
      !order.transactions.some((x) => x.id === parseGid(t.parentId)?.id)
    )
      errors.push({ field: [...path, 'parentId'], message: 'Parent transaction does not exist' });
    const value = Number(t.amount);
    if (!(value > 0))
      errors.push({ field: [...path, 'amount'], message: 'Amount must be greater than 0' });
    else amount += toMinorUnits(value, c);
  });
  const totals = orderTotals(ctx, order);
  if (amount > totals.received - totals.refunded && input.allowOverRefunding !== true)
    errors.push({
      field: ['transactions'],
      message: `Refund amount exceeds the refundable amount of ${decimalOf(Math.max(0, totals.received - totals.refunded), c)}`,
    });
  const processedAt = str(input.processedAt);
  if (processedAt && Date.parse(processedAt) > nowMs + 60_000)
    errors.push({ field: ['processedAt'], message: 'Processed at must not be in the future' });
  if (lineInputs.length === 0 && transactionInputs.length === 0)
    errors.push({ field: null, message: 'A refund needs line items or transactions' });
  if (errors.length) return refused();

  const now = store.timestamp();
  const when = processedAt ? dateTime(processedAt) : now;
  const transactionIds: number[] = [];
  for (const t of transactionInputs) {
    const id = store.nextId();
    transactionIds.push(id);
    order.transactions.push({
      id,
      kind: 'REFUND',
      status: 'SUCCESS',
      gateway: str(t.gateway) ?? 'manual',
      amount: decimalOf(toMinorUnits(Number(t.amount), c), c),
      authorizationCode: null,
      processedAt: when,
      createdAt: now,
      parentId: t.parentId ? (parseGid(t.parentId)?.id ?? null) : null,
      test: false,
    });
  }
  const refund: RefundRec = {
    id: store.nextId(),
    note: str(input.note) ?? null,
    createdAt: now,
    processedAt: when,
    lines: lineInputs.map((l) => ({
      id: store.nextId(),
      lineItemId: parseGid(l.lineItemId)?.id ?? -1,
      quantity: Number(l.quantity),
      restockType: (str(l.restockType) ??
        'NO_RESTOCK') as RefundRec['lines'][number]['restockType'],
    })),
    transactionIds,
    idempotencyKey: key,
  };
  order.refunds.push(refund);
  if (order.transactions.length) order.financialStatus = statusOfTransactions(order.transactions);
  order.updatedAt = now;
  if (input.notify === true) store.notify('refund', order.name, order.email);
  return { refund: refundView(ctx, order, refund), order: orderView(ctx, order), userErrors: [] };
}

function fulfillmentOrderHold(ctx: MutationContext, args: Args): Record<string, unknown> {
  const id = parseGid(args.id)?.id;
  const hold = (args.fulfillmentHold ?? {}) as Input;
  for (const order of ctx.store.orders.values()) {
    const fo = order.fulfillmentOrders.find((f) => f.id === id);
    if (!fo) continue;
    if (fo.status !== 'OPEN' && fo.status !== 'SCHEDULED' && fo.status !== 'IN_PROGRESS')
      return {
        fulfillmentHold: null,
        fulfillmentOrder: null,
        remainingFulfillmentOrder: null,
        userErrors: [
          {
            code: null,
            field: ['id'],
            message: `The fulfillment order's status (${fo.status}) does not allow a hold`,
          },
        ],
      };
    fo.status = 'ON_HOLD';
    fo.holdReason = String(hold.reason);
    order.fulfillmentStatus = 'ON_HOLD';
    order.updatedAt = ctx.store.timestamp();
    return {
      fulfillmentHold: {
        id: gid('FulfillmentHold', ctx.store.nextId()),
        reason: hold.reason,
        reasonNotes: str(hold.reasonNotes) ?? null,
        displayReason: String(hold.reason),
        handle: str(hold.handle) ?? null,
        heldByRequestingApp: true,
        heldByApp: null,
      },
      fulfillmentOrder: { id: gid('FulfillmentOrder', fo.id), status: fo.status },
      remainingFulfillmentOrder: null,
      userErrors: [],
    };
  }
  return {
    fulfillmentHold: null,
    fulfillmentOrder: null,
    remainingFulfillmentOrder: null,
    userErrors: [
      {
        code: 'FULFILLMENT_ORDER_NOT_FOUND',
        field: ['id'],
        message: 'Fulfillment order does not exist',
      },
    ],
  };
}

// ------------------------------------------------------------------ metafields

function ownerOf(
  store: ShopStore,
  ownerId: unknown,
): { type: MetafieldOwnerType; owner: { id: number; metafields: MetafieldRec[] } } | undefined {
  const parsed = parseGid(ownerId);
  if (!parsed) return undefined;
  switch (parsed.type) {
    case 'Product': {
      const p = store.products.get(parsed.id);
      return p ? { type: 'PRODUCT', owner: p } : undefined;
    }
    case 'ProductVariant': {
      const found = store.findVariant(parsed.id);
      return found ? { type: 'PRODUCTVARIANT', owner: found.variant } : undefined;
    }
    case 'Collection': {
      const c = store.collections.get(parsed.id);
      return c ? { type: 'COLLECTION', owner: c } : undefined;
    }
    case 'Customer': {
      const c = store.customers.get(parsed.id);
      return c ? { type: 'CUSTOMER', owner: c } : undefined;
    }
    case 'Order': {
      const o = store.orders.get(parsed.id);
      return o ? { type: 'ORDER', owner: o } : undefined;
    }
    case 'DiscountCodeNode': {
      const d = store.discounts.get(parsed.id);
      return d ? { type: 'DISCOUNT', owner: d } : undefined;
    }
    default:
      return contentOwner(store, parsed.type, parsed.id);
  }
}

/** limits.json shopify.other.metafieldsSet_max_per_call */
export const METAFIELDS_SET_MAX = 25;

function metafieldsSet(ctx: MutationContext, args: Args): Record<string, unknown> {
  const { store } = ctx;
  const inputs = list(args.metafields);
  if (inputs.length > METAFIELDS_SET_MAX)
    return {
      metafields: null,
      userErrors: [
        {
          code: 'LESS_THAN_OR_EQUAL_TO',
          field: ['metafields'],
          message: `Exceeds the maximum input size of ${METAFIELDS_SET_MAX} metafields`,
          elementIndex: null,
        },
      ],
    };
  const errors: (UserError & { elementIndex: number | null })[] = [];
  const groups = new Map<
    string,
    {
      type: MetafieldOwnerType;
      owner: { id: number; metafields: MetafieldRec[] };
      entries: { index: number; input: Input }[];
    }
  >();
  inputs.forEach((input, index) => {
    const found = ownerOf(store, input.ownerId);
    if (!found) {
      errors.push({
        code: 'INVALID',
        field: ['metafields', String(index), 'ownerId'],
        message: 'Owner does not exist',
        elementIndex: index,
      });
      return;
    }
    const key = `${found.type}:${found.owner.id}`;
    const group = groups.get(key) ?? { ...found, entries: [] };
    group.entries.push({ index, input });
    groups.set(key, group);
  });
  const appliers: (() => { type: MetafieldOwnerType; list: MetafieldRec[] })[] = [];
  for (const group of groups.values()) {
    // Compare-and-set (2024-07 on): a metafield given with compareDigest is set only while its
    // value is the one the digest was read from; a null digest, only while it does not exist.
    for (const { index, input } of group.entries) {
      if (!('compareDigest' in input)) continue;
      const current = group.owner.metafields.find(
        (m) => m.namespace === (str(input.namespace) ?? APP_NAMESPACE) && m.key === input.key,
      );
      const expected = input.compareDigest;
      const stale =
        expected === null || expected === undefined
          ? current !== undefined
          : current === undefined || compareDigest(current.value) !== expected;
      if (stale)
        errors.push({
          code: 'STALE_OBJECT',
          field: ['metafields', String(index), 'compareDigest'],
          message: 'The metafield has been modified since it was loaded.',
          elementIndex: index,
        });
    }
    const checked = checkMetafields(
      store,
      group.type,
      group.owner.id,
      group.entries.map((e) => e.input) as MetafieldInputValue[],
    );
    for (const p of checked.problems) {
      const index = group.entries[p.index]?.index ?? 0;
      errors.push({
        code: p.code,
        field: ['metafields', String(index), p.field],
        message: p.message,
        elementIndex: index,
      });
    }
    appliers.push(() => {
      group.owner.metafields = checked.apply(group.owner.metafields);
      const list = group.owner.metafields.filter((m) =>
        group.entries.some(
          (e) => (e.input.namespace ?? APP_NAMESPACE) === m.namespace && e.input.key === m.key,
        ),
      );
      return { type: group.type, list };
    });
  }
  if (errors.length) return { metafields: null, userErrors: errors };
  const written = appliers.map((apply) => apply());
  return {
    metafields: written.flatMap((w) => w.list.map((m) => metafieldView(ctx, w.type, m))),
    userErrors: [],
  };
}

/**
 * metafieldsDelete: removes the metafields named by owner, namespace and key, answering for each
 * its identifier, or null when the owner has no such metafield (which is no error).
 */
function metafieldsDelete(ctx: MutationContext, args: Args): Record<string, unknown> {
  const { store } = ctx;
  const inputs = list(args.metafields);
  if (inputs.length === 0)
    return {
      deletedMetafields: null,
      userErrors: [
        { field: ['metafields'], message: 'At least one metafield identifier must be specified.' },
      ],
    };
  const errors: UserError[] = [];
  const owners = inputs.map((input, index) => {
    const found = ownerOf(store, input.ownerId);
    if (!found)
      errors.push({
        field: ['metafields', String(index), 'ownerId'],
        message: 'Owner does not exist',
      });
    return found;
  });
  if (errors.length) return { deletedMetafields: null, userErrors: errors };
  const deleted = inputs.map((input, index) => {
    const owner = owners[index]?.owner;
    const namespace = str(input.namespace) ?? APP_NAMESPACE;
    const key = str(input.key) ?? '';
    const at = owner?.metafields.findIndex((m) => m.namespace === namespace && m.key === key);
    if (!owner || at === undefined || at === -1) return null;
    owner.metafields.splice(at, 1);
    return { namespace, key, ownerId: input.ownerId };
  });
  return { deletedMetafields: deleted, userErrors: [] };
}

const uniqueEligibleTypes = new Set(['single_line_text_field', 'url', 'number_integer']);
const supportedOwnerTypes = new Set<MetafieldOwnerType>([
  'PRODUCT',
  'PRODUCTVARIANT',
  'COLLECTION',
  'CUSTOMER',
  'ORDER',
  'DISCOUNT',
  'PAGE',
  'BLOG',
  'ARTICLE',
]);

function metafieldDefinitionCreate(ctx: MutationContext, args: Args): Record<string, unknown> {
  const { store } = ctx;
  const d = (args.definition ?? {}) as Input;
  const namespace = str(d.namespace) ?? APP_NAMESPACE;
  const key = str(d.key) ?? '';
  const errors: UserError[] = [];
  const fail = (code: string, field: string, message: string) =>
    errors.push({ code, field: ['definition', field], message });
  if (!str(d.name)?.trim()) fail('BLANK', 'name', "Name can't be blank");
  if (key.length < 2 || key.length > 64 || !/^[A-Za-z0-9_-]+$/.test(key))
    fail('INVALID', 'key', 'Key must be 2-64 letters, digits, hyphens or underscores');
  if (namespace.length < 3 || !/^[A-Za-z0-9_$:-]+$/.test(namespace))
    fail(
      'INVALID',
      'namespace',
      'Namespace must be at least 3 letters, digits, hyphens or underscores',
    );
  const type = String(d.type ?? '');
  if (!metafieldTypes.has(type)) fail('INCLUSION', 'type', 'Type name is not included in the list');
  const ownerType = d.ownerType as MetafieldOwnerType;
  if (!supportedOwnerTypes.has(ownerType))
    fail(
      'INVALID',
      'ownerType',
      `Owner type ${String(d.ownerType)} is not supported by this sandbox`,
    );
  const unique =
    ((d.capabilities as Input | undefined)?.uniqueValues as Input | undefined)?.enabled === true;
  if (unique && !uniqueEligibleTypes.has(type))
    fail(
      'INVALID_CAPABILITY',
      'capabilities',
      'The unique values capability is not available for this type',
    );
  if (store.definitionFor(ownerType, namespace, key))
    fail(
      'TAKEN',
      'key',
      `Key is in use for ${ownerType} metafields on the '${namespace}' namespace.`,
    );
  if (!errors.length && unique) {
    const values = store
      .ownersOf(ownerType)
      .flatMap((o) =>
        o.metafields.filter((m) => m.namespace === namespace && m.key === key).map((m) => m.value),
      );
    if (new Set(values).size !== values.length)
      fail('INVALID_CAPABILITY', 'capabilities', 'Existing metafields have duplicate values');
  }
  if (errors.length) return { createdDefinition: null, userErrors: errors };
  const definition = {
    id: store.nextId(),
    namespace,
    key,
    name: String(d.name),
    description: str(d.description) ?? null,
    type,
    ownerType,
    uniqueValues: unique,
    createdAt: store.timestamp(),
  };
  store.metafieldDefinitions.push(definition);
  return { createdDefinition: metafieldDefinitionView(ctx, definition), userErrors: [] };
}

// ------------------------------------------------------------------ redirects, bulk

function urlRedirectCreate(ctx: MutationContext, args: Args): Record<string, unknown> {
  const { store } = ctx;
  const input = (args.urlRedirect ?? {}) as Input;
  const path = str(input.path)?.trim() ?? '';
  const target = str(input.target)?.trim() ?? '';
  const errors: UserError[] = [];
  if (!path)
    errors.push({
      code: 'CREATE_FAILED',
      field: ['urlRedirect', 'path'],
      message: "Path can't be blank",
    });
  else if (!path.startsWith('/'))
    errors.push({
      code: 'CREATE_FAILED',
      field: ['urlRedirect', 'path'],
      message: "Path must start with '/'",
    });
  if (!target)
    errors.push({
      code: 'CREATE_FAILED',
      field: ['urlRedirect', 'target'],
      message: "Target can't be blank",
    });
  if (path && path === target)
    errors.push({
      code: 'CREATE_FAILED',
      field: ['urlRedirect', 'target'],
      message: "Target can't be the same as path",
    });
  if (path && store.urlRedirects.some((r) => r.path.toLowerCase() === path.toLowerCase()))
    errors.push({
      code: 'CREATE_FAILED',
      field: ['urlRedirect', 'path'],
      message: 'Path has already been taken',
    });
  if (errors.length) return { urlRedirect: null, userErrors: errors };
  const redirect = { id: store.nextId(), path, target };
  store.urlRedirects.push(redirect);
  return { urlRedirect: redirectView(redirect), userErrors: [] };
}

/** urlRedirectDelete: the redirect by its id; one the shop does not have is DOES_NOT_EXIST. */
function urlRedirectDelete(ctx: MutationContext, args: Args): Record<string, unknown> {
  const { store } = ctx;
  const parsed = parseGid(args.id);
  const index =
    parsed?.type === 'UrlRedirect' ? store.urlRedirects.findIndex((r) => r.id === parsed.id) : -1;
  if (index < 0)
    return {
      deletedUrlRedirectId: null,
      userErrors: [{ code: 'DOES_NOT_EXIST', field: ['id'], message: 'Redirect does not exist' }],
    };
  store.urlRedirects.splice(index, 1);
  return { deletedUrlRedirectId: args.id, userErrors: [] };
}

/**
 * customerSendAccountInviteEmail: the shop's account invitation to the customer's address,
 * recorded as a notification; a customer without an e-mail address cannot be invited.
 */
function customerSendAccountInviteEmail(ctx: MutationContext, args: Args): Record<string, unknown> {
  const { store } = ctx;
  const parsed = parseGid(args.customerId);
  const customer = parsed?.type === 'Customer' ? store.customers.get(parsed.id) : undefined;
  const invalid = (message: string) => ({
    customer: null,
    userErrors: [{ code: 'INVALID', field: ['customerId'], message }],
  });
  if (!customer) return invalid('Customer does not exist');
  const email = (args.email as { to?: unknown } | undefined)?.to;
  const to = typeof email === 'string' && email ? email : customer.email;
  if (!to) return invalid('Customer has no email address');
  store.notify('account_invite', gid('Customer', customer.id), to);
  return { customer: customerView(ctx, customer), userErrors: [] };
}

/** The mutation fields this emulator implements, with the access scope each needs (their
 * requiredAccess in the 2026-10 introspection). */
export const mutationScopes: Record<string, string | null> = {
  productSet: 'write_products',
  productVariantsBulkCreate: 'write_products',
  productVariantsBulkUpdate: 'write_products',
  collectionCreate: 'write_products',
  collectionUpdate: 'write_products',
  collectionAddProducts: 'write_products',
  customerCreate: 'write_customers',
  customerAddressCreate: 'write_customers',
  customerUpdateDefaultAddress: 'write_customers',
  orderCreate: 'write_orders',
  orderCancel: 'write_orders',
  refundCreate: 'write_orders',
  fulfillmentOrderHold: 'write_merchant_managed_fulfillment_orders',
  metafieldsSet: null,
  metafieldsDelete: null,
  metafieldDefinitionCreate: null,
  urlRedirectCreate: 'write_online_store_navigation',
  urlRedirectDelete: 'write_online_store_navigation',
  customerSendAccountInviteEmail: 'write_customers',
  bulkOperationRunQuery: null,
  discountCodeBasicCreate: 'write_discounts',
  discountCodeBasicUpdate: 'write_discounts',
  discountCodeFreeShippingCreate: 'write_discounts',
  discountCodeFreeShippingUpdate: 'write_discounts',
  discountCodeDeactivate: 'write_discounts',
  ...contentMutationScopes,
  ...deleteMutationScopes,
};

export function mutationRoot(ctx: MutationContext): Record<string, unknown> {
  const guard =
    <T>(name: string, fn: (args: Args, info?: GraphQLResolveInfo) => T) =>
    (args: Args, _context: unknown, info?: GraphQLResolveInfo) => {
      const scope = mutationScopes[name];
      if (scope && !ctx.scopes.has(scope))
        throw new GraphQLError(
          `Access denied for ${name} field. Required access: \`${scope}\` access scope.`,
          {
            extensions: {
              code: 'ACCESS_DENIED',
              documentation: 'https://shopify.dev/api/usage/access-scopes',
              requiredAccess: `\`${scope}\` access scope.`,
            },
          },
        );
      return fn(args, info);
    };
  const discounts = Object.fromEntries(
    Object.entries(discountMutations(ctx)).map(([name, run]) => [name, guard(name, run)]),
  );
  const content = Object.fromEntries(
    Object.entries(contentMutations(ctx)).map(([name, run]) => [name, guard(name, run)]),
  );
  const deletes = Object.fromEntries(
    Object.entries(deleteMutations(ctx)).map(([name, run]) => [name, guard(name, run)]),
  );
  return {
    ...discounts,
    ...content,
    ...deletes,
    productSet: guard('productSet', (args) => productSet(ctx, args)),
    productVariantsBulkCreate: guard('productVariantsBulkCreate', (args) =>
      productVariantsBulk(ctx, args, 'create'),
    ),
    productVariantsBulkUpdate: guard('productVariantsBulkUpdate', (args) =>
      productVariantsBulk(ctx, args, 'update'),
    ),
    collectionUpdate: guard('collectionUpdate', (args) => collectionUpdate(ctx, args)),
    collectionCreate: guard('collectionCreate', (args) => collectionCreate(ctx, args)),
    collectionAddProducts: guard('collectionAddProducts', (args) =>
      collectionAddProducts(ctx, args),
    ),
    customerCreate: guard('customerCreate', (args) => customerCreate(ctx, args)),
    customerAddressCreate: guard('customerAddressCreate', (args) =>
      customerAddressCreate(ctx, args),
    ),
    customerUpdateDefaultAddress: guard('customerUpdateDefaultAddress', (args) =>
      customerUpdateDefaultAddress(ctx, args),
    ),
    orderCreate: guard('orderCreate', (args) => orderCreate(ctx, args)),
    orderCancel: guard('orderCancel', (args) => orderCancel(ctx, args)),
    refundCreate: guard('refundCreate', (args, info) => refundCreate(ctx, args, info)),
    fulfillmentOrderHold: guard('fulfillmentOrderHold', (args) => fulfillmentOrderHold(ctx, args)),
    metafieldsSet: guard('metafieldsSet', (args) => metafieldsSet(ctx, args)),
    metafieldsDelete: guard('metafieldsDelete', (args) => metafieldsDelete(ctx, args)),
    metafieldDefinitionCreate: guard('metafieldDefinitionCreate', (args) =>
      metafieldDefinitionCreate(ctx, args),
    ),
    urlRedirectCreate: guard('urlRedirectCreate', (args) => urlRedirectCreate(ctx, args)),
    urlRedirectDelete: guard('urlRedirectDelete', (args) => urlRedirectDelete(ctx, args)),
    customerSendAccountInviteEmail: guard('customerSendAccountInviteEmail', (args) =>
      customerSendAccountInviteEmail(ctx, args),
    ),
    bulkOperationRunQuery: guard('bulkOperationRunQuery', (args) =>
      ctx.runBulkQuery(String(args.query)),
    ),
  };
}
