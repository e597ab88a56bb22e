import { GraphQLError } from 'graphql';
import {
  dateTime,
  decimalOf,
  parseGid,
  shopifyTags,
  toMinorUnits,
  type DiscountItemsRec,
  type DiscountRec,
  type DiscountValueRec,
  type ShopStore,
} from './store.ts';
import { codeDiscountNodeView, type ViewContext } from './views.ts';

/**
 * The code discount mutations (discountCodeBasicCreate / Update, discountCodeFreeShippingCreate /
 * Update, discountCodeDeactivate). Each checks its whole input first and answers DiscountUserError
 * (field, message, code of DiscountErrorCode) without changing anything when something is wrong;
 * only then is the discount written. Required on create, as the input types' descriptions say:
 * code, context (or the deprecated customerSelection), customerGets (amount off discounts),
 * startsAt and title.
 */

type Args = Record<string, unknown>;
type Input = Record<string, unknown>;

interface DiscountUserError {
  field: string[] | null;
  message: string;
  code: string;
  extraInfo: null;
}

type Kind = 'basic' | 'freeShipping';

const argumentOf: Record<Kind, string> = {
  basic: 'basicCodeDiscount',
  freeShipping: 'freeShippingCodeDiscount',
};

/** Longest code Shopify takes (a DiscountRedeemCode's code: 255 characters). */
export const MAX_CODE_LENGTH = 255;

/** How Shopify answers a code another discount of the shop already has. */
export const CODE_TAKEN_MESSAGE = 'Code must be unique. Please try a different code.';

/** Shopify's input array limit (limits.json shopify.input_array_max_items). */
export const MAX_DISCOUNT_INPUT_ARRAY = 250;

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const ids = (value: unknown): unknown[] => {
  if (!Array.isArray(value)) return [];
  if (value.length > MAX_DISCOUNT_INPUT_ARRAY)
    throw new GraphQLError(
      `The input array size of ${value.length} is greater than the maximum allowed of ${MAX_DISCOUNT_INPUT_ARRAY}.`,
      { extensions: { code: 'MAX_INPUT_SIZE_EXCEEDED' } },
    );
  return value;
};
const has = (input: Input, key: string) => key in input;

class Problems {
  readonly list: DiscountUserError[] = [];
  readonly root: string;
  constructor(root: string) {
    this.root = root;
  }
  add(path: string[], code: string, message: string): void {
    this.list.push({ field: [this.root, ...path], message, code, extraInfo: null });
  }
}

function decimalInput(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN;
  return Number.isFinite(n) ? n : undefined;
}

/** Global ids of one type, each checked to exist; answers the numeric ids. */
function existing(
  problems: Problems,
  path: string[],
  values: unknown[],
  type: string,
  exists: (id: number) => boolean,
): number[] {
  const out: number[] = [];
  values.forEach((value, index) => {
    const parsed = parseGid(value);
    if (!parsed || parsed.type !== type || !exists(parsed.id)) {
      problems.add([...path, String(index)], 'INVALID', `${type} ${String(value)} does not exist`);
      return;
    }
    if (!out.includes(parsed.id)) out.push(parsed.id);
  });
  return out;
}

function valueOf(
  problems: Problems,
  input: Input | null | undefined,
  currency: string,
): DiscountValueRec | undefined {
  const path = ['customerGets', 'value'];
  if (!input) {
    problems.add(path, 'BLANK', "Value can't be blank");
    return undefined;
  }
  const given = ['percentage', 'discountAmount', 'discountOnQuantity'].filter(
    (k) => input[k] !== undefined && input[k] !== null,
  );
  if (given.length !== 1) {
    problems.add(
      path,
      given.length ? 'TOO_MANY_ARGUMENTS' : 'BLANK',
      'Only one of percentage, discountAmount or discountOnQuantity must be given',
    );
    return undefined;
  }
  if (given[0] === 'discountOnQuantity') {
    problems.add(
      [...path, 'discountOnQuantity'],
      'INVALID',
      'Discount on quantity is only available for buy X get Y discounts',
    );
    return undefined;
  }
  if (given[0] === 'percentage') {
    const percentage = decimalInput(input.percentage);
    if (percentage === undefined || percentage <= 0 || percentage > 1) {
      problems.add(
        [...path, 'percentage'],
        'VALUE_OUTSIDE_RANGE',
        'Value must be greater than 0 and at most 1.0',
      );
      return undefined;
    }
    return { percentage };
  }
  const amountInput = input.discountAmount as Input;
  const amount = decimalInput(amountInput.amount);
  if (amount === undefined || amount <= 0) {
    problems.add(
      [...path, 'discountAmount', 'amount'],
      'GREATER_THAN',
      'Value must be greater than 0',
    );
    return undefined;
  }
  return {
    amount: decimalOf(toMinorUnits(amount, currency), currency),
    appliesOnEachItem: amountInput.appliesOnEachItem === true,
  };
}

function itemsOf(
  problems: Problems,
  store: ShopStore,
  input: Input | null | undefined,
  previous: DiscountItemsRec | undefined,
): DiscountItemsRec | undefined {
  const path = ['customerGets', 'items'];
  if (!input) {
    if (previous) return previous;
    problems.add(path, 'BLANK', "Items can't be blank");
    return undefined;
  }
  const given = ['all', 'products', 'collections'].filter(
    (k) => input[k] !== undefined && input[k] !== null,
  );
  if (given.length !== 1) {
    problems.add(
      path,
      given.length ? 'TOO_MANY_ARGUMENTS' : 'BLANK',
      'Only one of all, products or collections must be given',
    );
    return undefined;
  }
  if (given[0] === 'all') {
    if (input.all !== true) {
      problems.add([...path, 'all'], 'APPLIES_ON_NOTHING', 'Discount applies on nothing');
      return undefined;
    }
    return { all: true };
  }
  if (given[0] === 'collections') {
    const c = input.collections as Input;
    const start = previous && 'collectionIds' in previous ? previous.collectionIds : [];
    const add = existing(
      problems,
      [...path, 'collections', 'add'],
      ids(c.add),
      'Collection',
      (id) => store.collections.has(id),
    );
    const remove = new Set(ids(c.remove).map((v) => parseGid(v)?.id));
    const collectionIds = [...new Set([...start, ...add])].filter((id) => !remove.has(id));
    if (!collectionIds.length)
      problems.add([...path, 'collections'], 'APPLIES_ON_NOTHING', 'Discount applies on nothing');
    return { collectionIds };
  }
  const p = input.products as Input;
  const before =
    previous && 'productIds' in previous ? previous : { productIds: [], variantIds: [] };
  const addProducts = existing(
    problems,
    [...path, 'products', 'productsToAdd'],
    ids(p.productsToAdd),
    'Product',
    (id) => store.products.has(id),
  );
  const addVariants = existing(
    problems,
    [...path, 'products', 'productVariantsToAdd'],
    ids(p.productVariantsToAdd),
    'ProductVariant',
    (id) => store.findVariant(id) !== undefined,
  );
  const removeProducts = new Set(ids(p.productsToRemove).map((v) => parseGid(v)?.id));
  const removeVariants = new Set(ids(p.productVariantsToRemove).map((v) => parseGid(v)?.id));
  const productIds = [...new Set([...before.productIds, ...addProducts])].filter(
    (id) => !removeProducts.has(id),
  );
  const variantIds = [...new Set([...before.variantIds, ...addVariants])].filter(
    (id) => !removeVariants.has(id),
  );
  if (!productIds.length && !variantIds.length)
    problems.add([...path, 'products'], 'APPLIES_ON_NOTHING', 'Discount applies on nothing');
  return { productIds, variantIds };
}

/** The buyers a discount is for: null for all, else customer ids (context or customerSelection). */
function buyersOf(
  problems: Problems,
  store: ShopStore,
  input: Input,
  previous: number[] | null | undefined,
  creating: boolean,
): number[] | null | undefined {
  const context = input.context as Input | null | undefined;
  const selection = input.customerSelection as Input | null | undefined;
  if (context && selection) {
    problems.add(
      ['context'],
      'TOO_MANY_ARGUMENTS',
      'Only one of context or customerSelection can be provided',
    );
    return undefined;
  }
  if (!context && !selection) {
    if (creating) problems.add(['context'], 'BLANK', "Context can't be blank");
    return previous;
  }
  if (context) {
    if (context.customerSegments || context.markets) {
      problems.add(['context'], 'INVALID', 'Only all buyers or a list of customers is supported');
      return undefined;
    }
    if (context.all === 'ALL') return null;
  } else if (selection?.all === true) return null;
  else if (selection?.customerSegments) {
    problems.add(['customerSelection'], 'INVALID', 'Customer segments are not supported');
    return undefined;
  }
  const customers = ((context ?? selection)?.customers ?? {}) as Input;
  const where = context ? 'context' : 'customerSelection';
  const add = existing(
    problems,
    [where, 'customers', 'add'],
    ids(customers.add),
    'Customer',
    (id) => store.customers.has(id),
  );
  const remove = new Set(ids(customers.remove).map((v) => parseGid(v)?.id));
  const list = [...new Set([...(previous ?? []), ...add])].filter((id) => !remove.has(id));
  if (!list.length) {
    problems.add([where, 'customers'], 'BLANK', "Customers can't be blank");
    return undefined;
  }
  return list;
}

function minimumOf(
  problems: Problems,
  input: Input | null,
  currency: string,
): DiscountRec['minimumRequirement'] | undefined {
  if (input === null) return null;
  const subtotal = (input.subtotal as Input | null | undefined)?.greaterThanOrEqualToSubtotal;
  const quantity = (input.quantity as Input | null | undefined)?.greaterThanOrEqualToQuantity;
  if (subtotal !== undefined && subtotal !== null && quantity !== undefined && quantity !== null) {
    problems.add(
      ['minimumRequirement'],
      'MINIMUM_SUBTOTAL_AND_QUANTITY_RANGE_BOTH_PRESENT',
      'Minimum subtotal cannot be defined when minimum quantity is.',
    );
    return undefined;
  }
  if (subtotal !== undefined && subtotal !== null) {
    const n = decimalInput(subtotal);
    if (n === undefined || n < 0) {
      problems.add(
        ['minimumRequirement', 'subtotal', 'greaterThanOrEqualToSubtotal'],
        'GREATER_THAN_OR_EQUAL_TO',
        'Minimum subtotal must be greater than or equal to 0',
      );
      return undefined;
    }
    return { subtotal: decimalOf(toMinorUnits(n, currency), currency) };
  }
  if (quantity !== undefined && quantity !== null) {
    if (!/^\d+$/.test(String(quantity)) || Number(quantity) < 1) {
      problems.add(
        ['minimumRequirement', 'quantity', 'greaterThanOrEqualToQuantity'],
        'GREATER_THAN',
        'Minimum quantity must be greater than 0',
      );
      return undefined;
    }
    return { quantity: String(quantity) };
  }
  return null;
}

function dateOf(problems: Problems, field: string, value: unknown): string | undefined {
  const text = str(value);
  if (text === undefined || Number.isNaN(Date.parse(text))) {
    problems.add(
      [field],
      'INVALID',
      `${field === 'startsAt' ? 'Starts at' : 'Ends at'} is invalid`,
    );
    return undefined;
  }
  return dateTime(text);
}

/**
 * Checks a create or update input against the shop and answers the discount as it would be after
 * the write, or the problems found.
 */
function planWrite(
  ctx: ViewContext,
  kind: Kind,
  input: Input,
  previous: DiscountRec | undefined,
): { discount: DiscountRec } | { errors: DiscountUserError[] } {
  const { store } = ctx;
  const currency = store.config.currency;
  const problems = new Problems(argumentOf[kind]);
  const creating = previous === undefined;
  const given = (key: string) => has(input, key) && input[key] !== undefined;

  let code = previous?.codes[0]?.code;
  if (creating || given('code')) {
    code = str(input.code)?.trim() ?? '';
    if (!code) problems.add(['code'], 'BLANK', "Code can't be blank");
    else if (code.length > MAX_CODE_LENGTH)
      problems.add(
        ['code'],
        'TOO_LONG',
        `Code is too long (maximum is ${MAX_CODE_LENGTH} characters)`,
      );
    else if (/[\r\n]/.test(code))
      problems.add(['code'], 'INVALID', 'Code cannot contain newline characters.');
    else {
      const holder = store.discountByCode(code);
      if (holder && holder.id !== previous?.id) problems.add(['code'], 'TAKEN', CODE_TAKEN_MESSAGE);
    }
  }
  let title = previous?.title ?? '';
  if (creating || given('title')) {
    title = str(input.title)?.trim() ?? '';
    if (!title) problems.add(['title'], 'BLANK', "Title can't be blank");
    else if (title.length > 255)
      problems.add(['title'], 'TOO_LONG', 'Title is too long (maximum is 255 characters)');
  }
  let startsAt = previous?.startsAt ?? '';
  if (given('startsAt') && input.startsAt !== null)
    startsAt = dateOf(problems, 'startsAt', input.startsAt) ?? startsAt;
  else if (creating || given('startsAt'))
    problems.add(['startsAt'], 'BLANK', "Starts at can't be blank");
  let endsAt = previous?.endsAt ?? null;
  if (given('endsAt'))
    endsAt = input.endsAt === null ? null : (dateOf(problems, 'endsAt', input.endsAt) ?? endsAt);
  if (startsAt && endsAt && Date.parse(endsAt) < Date.parse(startsAt))
    problems.add(['endsAt'], 'END_DATE_BEFORE_START_DATE', 'Ends at needs to be after starts_at');
  let usageLimit = previous?.usageLimit ?? null;
  if (given('usageLimit')) {
    const limit = input.usageLimit;
    if (limit !== null && (typeof limit !== 'number' || limit < 1))
      problems.add(['usageLimit'], 'GREATER_THAN', 'Usage limit must be greater than 0');
    else usageLimit = limit;
  }
  const customerIds = buyersOf(problems, store, input, previous?.customerIds, creating);
  let minimumRequirement = previous?.minimumRequirement ?? null;
  if (given('minimumRequirement')) {
    const minimum = minimumOf(problems, input.minimumRequirement as Input | null, currency);
    if (minimum !== undefined) minimumRequirement = minimum;
  }
  const combines = (input.combinesWith ?? null) as Input | null;
  if (combines?.productDiscountsWithTagsOnSameCartLine)
    problems.add(
      ['combinesWith', 'productDiscountsWithTagsOnSameCartLine'],
      'INVALID',
      'Product discount tags are not supported',
    );
  const combinesWith = combines
    ? {
        orderDiscounts: combines.orderDiscounts === true,
        productDiscounts: combines.productDiscounts === true,
        shippingDiscounts: combines.shippingDiscounts === true,
      }
    : (previous?.combinesWith ?? {
        orderDiscounts: false,
        productDiscounts: false,
        shippingDiscounts: false,
      });
  if (kind === 'freeShipping' && combinesWith.shippingDiscounts)
    problems.add(
      ['combinesWith'],
      'INVALID_COMBINES_WITH_FOR_DISCOUNT_CLASS',
      'The combinesWith settings are not valid for the discount class.',
    );

  let value = previous?.value ?? null;
  let items: DiscountItemsRec = previous?.items ?? { all: true };
  let appliesOnOneTimePurchase = previous?.appliesOnOneTimePurchase ?? true;
  let appliesOnSubscription = previous?.appliesOnSubscription ?? false;
  let maximumShippingPrice = previous?.maximumShippingPrice ?? null;
  let countries = previous?.countries ?? null;
  if (kind === 'basic') {
    const gets = input.customerGets as Input | null | undefined;
    if (!gets) {
      if (creating) problems.add(['customerGets'], 'BLANK', "Customer gets can't be blank");
    } else {
      if (gets.value !== undefined || creating)
        value = valueOf(problems, gets.value as Input | null | undefined, currency) ?? value;
      if (gets.items !== undefined || creating)
        items =
          itemsOf(problems, store, gets.items as Input | null | undefined, previous?.items) ??
          items;
      if (typeof gets.appliesOnOneTimePurchase === 'boolean')
        appliesOnOneTimePurchase = gets.appliesOnOneTimePurchase;
      if (typeof gets.appliesOnSubscription === 'boolean')
        appliesOnSubscription = gets.appliesOnSubscription;
    }
  } else {
    if (given('maximumShippingPrice')) {
      const max = input.maximumShippingPrice;
      const n = max === null ? null : decimalInput(max);
      if (n === undefined || (n !== null && n < 0))
        problems.add(
          ['maximumShippingPrice'],
          'GREATER_THAN_OR_EQUAL_TO',
          'Maximum shipping price must be greater than or equal to 0',
        );
      else
        maximumShippingPrice = n === null ? null : decimalOf(toMinorUnits(n, currency), currency);
    }
    const destination = input.destination as Input | null | undefined;
    if (destination) {
      const list = (destination.countries as Input | undefined)?.add;
      if (destination.all === true) countries = null;
      else if (Array.isArray(list) && list.length) countries = list.map(String);
      else problems.add(['destination'], 'BLANK', "Destination can't be blank");
    }
    if (typeof input.appliesOnOneTimePurchase === 'boolean')
      appliesOnOneTimePurchase = input.appliesOnOneTimePurchase;
    if (typeof input.appliesOnSubscription === 'boolean')
      appliesOnSubscription = input.appliesOnSubscription;
  }
  if (given('recurringCycleLimit') && !appliesOnSubscription && input.recurringCycleLimit !== null)
    problems.add(
      ['recurringCycleLimit'],
      'MULTIPLE_RECURRING_CYCLE_LIMIT_FOR_NON_SUBSCRIPTION_ITEMS',
      'Recurring cycle limit can only be set for subscription items',
    );
  if (problems.list.length) return { errors: problems.list };

  const now = store.timestamp();
  const discount: DiscountRec = {
    id: previous?.id ?? store.nextId(),
    kind,
    title,
    codes:
      previous && previous.codes[0]?.code === code
        ? previous.codes
        : [
            {
              id: previous?.codes[0]?.id ?? store.nextId(),
              code: code ?? '',
              asyncUsageCount: previous?.codes[0]?.asyncUsageCount ?? 0,
            },
            ...(previous?.codes.slice(1) ?? []),
          ],
    startsAt,
    endsAt,
    usageLimit,
    appliesOncePerCustomer:
      typeof input.appliesOncePerCustomer === 'boolean'
        ? input.appliesOncePerCustomer
        : (previous?.appliesOncePerCustomer ?? false),
    combinesWith,
    minimumRequirement,
    value: kind === 'basic' ? value : null,
    items: kind === 'basic' ? items : { all: true },
    customerIds: customerIds === undefined ? (previous?.customerIds ?? null) : customerIds,
    maximumShippingPrice: kind === 'freeShipping' ? maximumShippingPrice : null,
    countries: kind === 'freeShipping' ? countries : null,
    appliesOnOneTimePurchase,
    appliesOnSubscription,
    recurringCycleLimit: given('recurringCycleLimit')
      ? ((input.recurringCycleLimit as number | null) ?? null)
      : (previous?.recurringCycleLimit ?? null),
    tags: given('tags') ? shopifyTags(input.tags) : (previous?.tags ?? []),
    metafields: previous?.metafields ?? [],
    createdAt: previous?.createdAt ?? now,
    updatedAt: now,
  };
  return { discount };
}

function notFound(root: string | null): DiscountUserError[] {
  return [
    {
      field: root ? [root] : ['id'],
      message: 'Discount does not exist',
      code: 'INVALID',
      extraInfo: null,
    },
  ];
}

function create(ctx: ViewContext, kind: Kind, args: Args): Record<string, unknown> {
  const planned = planWrite(ctx, kind, (args[argumentOf[kind]] ?? {}) as Input, undefined);
  if ('errors' in planned) return { codeDiscountNode: null, userErrors: planned.errors };
  ctx.store.discounts.set(planned.discount.id, planned.discount);
  return { codeDiscountNode: codeDiscountNodeView(ctx, planned.discount), userErrors: [] };
}

function update(ctx: ViewContext, kind: Kind, args: Args): Record<string, unknown> {
  const parsed = parseGid(args.id);
  const previous =
    parsed?.type === 'DiscountCodeNode' ? ctx.store.discounts.get(parsed.id) : undefined;
  if (!previous) return { codeDiscountNode: null, userErrors: notFound('id') };
  if (previous.kind !== kind)
    return {
      codeDiscountNode: null,
      userErrors: [
        {
          field: ['id'],
          message: `Discount is not a ${kind === 'basic' ? 'basic' : 'free shipping'} code discount`,
          code: 'INVALID',
          extraInfo: null,
        },
      ],
    };
  const planned = planWrite(ctx, kind, (args[argumentOf[kind]] ?? {}) as Input, previous);
  if ('errors' in planned) return { codeDiscountNode: null, userErrors: planned.errors };
  ctx.store.discounts.set(previous.id, planned.discount);
  return { codeDiscountNode: codeDiscountNodeView(ctx, planned.discount), userErrors: [] };
}

/** Ends a discount now: Shopify's deactivation sets its end date to the present moment. */
function deactivate(ctx: ViewContext, args: Args): Record<string, unknown> {
  const parsed = parseGid(args.id);
  const d = parsed?.type === 'DiscountCodeNode' ? ctx.store.discounts.get(parsed.id) : undefined;
  if (!d) return { codeDiscountNode: null, userErrors: notFound('id') };
  const now = ctx.store.timestamp();
  if (d.endsAt === null || Date.parse(d.endsAt) > ctx.store.now()) {
    // A discount that has not started yet ends when it would have started.
    d.endsAt = Date.parse(d.startsAt) > ctx.store.now() ? d.startsAt : now;
    d.updatedAt = now;
  }
  return { codeDiscountNode: codeDiscountNodeView(ctx, d), userErrors: [] };
}

/** The discount mutations by field name (all need write_discounts). */
export function discountMutations(ctx: ViewContext): Record<string, (args: Args) => unknown> {
  return {
    discountCodeBasicCreate: (args) => create(ctx, 'basic', args),
    discountCodeBasicUpdate: (args) => update(ctx, 'basic', args),
    discountCodeFreeShippingCreate: (args) => create(ctx, 'freeShipping', args),
    discountCodeFreeShippingUpdate: (args) => update(ctx, 'freeShipping', args),
    discountCodeDeactivate: (args) => deactivate(ctx, args),
  };
}
