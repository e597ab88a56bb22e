import { z } from 'zod';
import { BcHttpError, countryName, v3Date } from './http.ts';
import type {
  BcCustomer,
  BcCustomerAddress,
  BcFormFieldValue,
  BcState,
  ConsentCategory,
} from './state.ts';

/** Customer rules of customers.v3.yml: batches of at most 10, unique e-mail, ≤ 10 addresses. */

export const maxCustomersPerCall = 10;

/** formFieldValue: a text, a number or a list of texts. */
export const formFieldInputSchema = z.object({
  name: z.string().min(1),
  value: z.union([z.string(), z.number(), z.array(z.string())]),
});

export const addressInputSchema = z.object({
  first_name: z.string().min(1).max(255),
  last_name: z.string().min(1).max(255),
  company: z.string().max(255).optional(),
  address1: z.string().min(1),
  address2: z.string().optional(),
  city: z.string().min(1).max(100),
  state_or_province: z.string().max(100).optional(),
  postal_code: z.string().max(30).optional(),
  country_code: z.string().length(2),
  phone: z.string().max(50).optional(),
  address_type: z.enum(['residential', 'commercial']).optional(),
  form_fields: z.array(formFieldInputSchema).optional(),
});

/** attribute_Post of POST /customers/attributes. */
export const attributeCreateSchema = z.object({
  name: z.string().min(1).max(255),
  type: z.enum(['string', 'number', 'date']),
});

export const customerCreateSchema = z.object({
  email: z.email().max(250),
  first_name: z.string().min(1).max(100),
  last_name: z.string().min(1).max(100),
  company: z.string().max(255).optional(),
  phone: z.string().max(50).optional(),
  notes: z.string().optional(),
  tax_exempt_category: z.string().max(255).optional(),
  customer_group_id: z.number().int().optional(),
  addresses: z.array(addressInputSchema).max(10).optional(),
  attributes: z
    .array(z.object({ attribute_id: z.number().int(), attribute_value: z.string().max(255) }))
    .max(10)
    .optional(),
  authentication: z
    .object({ force_password_reset: z.boolean().optional(), new_password: z.string().optional() })
    .optional(),
  accepts_product_review_abandoned_cart_emails: z.boolean().optional(),
  store_credit_amounts: z.array(z.object({ amount: z.number() })).optional(),
  origin_channel_id: z.number().int().optional(),
  channel_ids: z.array(z.number().int()).min(1).nullable().optional(),
  form_fields: z.array(formFieldInputSchema).optional(),
  trigger_account_created_notification: z.boolean().optional(),
});
export type CustomerCreate = z.infer<typeof customerCreateSchema>;

export const customerUpdateSchema = customerCreateSchema
  .omit({ addresses: true, trigger_account_created_notification: true })
  .partial()
  .extend({
    id: z.number().int().min(1),
    registration_ip_address: z.string().max(30).optional(),
  });

export const consentSchema = z.object({
  allow: z.array(z.enum(['essential', 'functional', 'analytics', 'targeting'])).optional(),
  deny: z.array(z.enum(['essential', 'functional', 'analytics', 'targeting'])).optional(),
});

export function newAddress(
  state: BcState,
  customerId: number,
  input: z.infer<typeof addressInputSchema>,
): BcCustomerAddress {
  return {
    id: state.nextId('address', 1),
    customer_id: customerId,
    first_name: input.first_name,
    last_name: input.last_name,
    company: input.company ?? '',
    address1: input.address1,
    address2: input.address2 ?? '',
    city: input.city,
    state_or_province: input.state_or_province ?? '',
    postal_code: input.postal_code ?? '',
    country_code: input.country_code.toUpperCase(),
    phone: input.phone ?? '',
    address_type: input.address_type ?? 'residential',
    form_fields: (input.form_fields ?? []).map((f) => ({ ...f })),
  };
}

type AttributeInput = NonNullable<CustomerCreate['attributes']>[number];

/**
 * Checks customer attribute values against the store's attributes: the attribute must exist and
 * the value must read as its type (customers.v3.yml attribute_Post: string, number or date).
 */
function checkAttributes(state: BcState, inputs: AttributeInput[], at: string): string[] {
  const problems: string[] = [];
  for (const input of inputs) {
    const attribute = state.customerAttributes.find((a) => a.id === input.attribute_id);
    if (!attribute) problems.push(`${at}: attribute ${input.attribute_id} does not exist`);
    else if (attribute.type === 'number' && !/^-?\d+(\.\d+)?$/.test(input.attribute_value))
      problems.push(`${at}: attribute ${attribute.name} takes a number`);
    else if (attribute.type === 'date' && !Number.isFinite(Date.parse(input.attribute_value)))
      problems.push(`${at}: attribute ${attribute.name} takes a date`);
  }
  return problems;
}

function setAttributes(
  state: BcState,
  customer: BcCustomer,
  inputs: AttributeInput[],
  now: number,
): void {
  for (const input of inputs) {
    const existing = customer.attributes.find((a) => a.attribute_id === input.attribute_id);
    if (existing) {
      existing.attribute_value = input.attribute_value;
      existing.date_modified = now;
    } else {
      customer.attributes.push({
        id: state.nextId('attribute_value', 1),
        attribute_id: input.attribute_id,
        attribute_value: input.attribute_value,
        date_created: now,
        date_modified: now,
      });
    }
  }
}

/** Form field values replace those of the same name. */
function setFormFields(target: BcFormFieldValue[], inputs: BcFormFieldValue[]): void {
  for (const input of inputs) {
    const index = target.findIndex((f) => f.name === input.name);
    if (index >= 0) target[index] = { ...input };
    else target.push({ ...input });
  }
}

/**
 * Creates the whole batch or nothing: a duplicate e-mail (against the store or inside the batch)
 * refuses the request with 422 and names every offending item.
 */
export function createCustomers(
  state: BcState,
  inputs: CustomerCreate[],
  now: number,
): BcCustomer[] {
  if (inputs.length > maxCustomersPerCall) {
    throw new BcHttpError(413, `At most ${maxCustomersPerCall} customers can be created per call`);
  }
  const errors: Record<string, string> = {};
  const seen = new Set<string>();
  inputs.forEach((input, i) => {
    const email = input.email.toLowerCase();
    if (seen.has(email) || state.customers.some((c) => c.email.toLowerCase() === email)) {
      errors[`[${i}].email`] = `Email ${input.email} is already in use`;
    }
    seen.add(email);
    for (const problem of checkAttributes(state, input.attributes ?? [], `[${i}].attributes`))
      errors[`[${i}].attributes`] = problem;
  });
  if (Object.keys(errors).length > 0) {
    throw new BcHttpError(422, 'Error creating customers', errors);
  }
  return inputs.map((input) => {
    const id = state.nextId('customer', 1);
    const customer: BcCustomer = {
      id,
      email: input.email,
      first_name: input.first_name,
      last_name: input.last_name,
      company: input.company ?? '',
      phone: input.phone ?? '',
      registration_ip_address: '',
      notes: input.notes ?? '',
      tax_exempt_category: input.tax_exempt_category ?? '',
      customer_group_id: input.customer_group_id ?? 0,
      date_created: now,
      date_modified: now,
      force_password_reset: input.authentication?.force_password_reset ?? false,
      accepts_product_review_abandoned_cart_emails:
        input.accepts_product_review_abandoned_cart_emails ?? false,
      origin_channel_id: input.origin_channel_id ?? 1,
      channel_ids: input.channel_ids ?? [1],
      store_credit_amounts: (input.store_credit_amounts ?? []).map((a) => ({ amount: a.amount })),
      addresses: (input.addresses ?? []).map((a) => newAddress(state, id, a)),
      attributes: [],
      form_fields: [],
      consent: { allow: ['essential'], deny: [], updated_at: now },
    };
    setAttributes(state, customer, input.attributes ?? [], now);
    setFormFields(customer.form_fields, input.form_fields ?? []);
    state.customers.push(customer);
    if (input.trigger_account_created_notification)
      state.emails.push({ kind: 'account_created', to: customer.email, customerId: id });
    return customer;
  });
}

export function updateCustomers(
  state: BcState,
  inputs: z.infer<typeof customerUpdateSchema>[],
  now: number,
): BcCustomer[] {
  if (inputs.length > maxCustomersPerCall) {
    throw new BcHttpError(413, `At most ${maxCustomersPerCall} customers can be updated per call`);
  }
  const errors: Record<string, string> = {};
  inputs.forEach((input, i) => {
    if (!state.customers.some((c) => c.id === input.id)) errors[`[${i}].id`] = 'not found';
    const email = input.email?.toLowerCase();
    if (
      email &&
      state.customers.some((c) => c.id !== input.id && c.email.toLowerCase() === email)
    ) {
      errors[`[${i}].email`] = `Email ${input.email} is already in use`;
    }
    for (const problem of checkAttributes(state, input.attributes ?? [], `[${i}].attributes`))
      errors[`[${i}].attributes`] = problem;
  });
  if (Object.keys(errors).length > 0) {
    throw new BcHttpError(422, 'Error updating customers', errors);
  }
  return inputs.map((input) => {
    const customer = state.customers.find((c) => c.id === input.id) as BcCustomer;
    const {
      id: _id,
      authentication,
      store_credit_amounts: credits,
      attributes,
      form_fields: formFields,
      ...rest
    } = input;
    Object.assign(
      customer,
      Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)),
    );
    if (authentication?.force_password_reset !== undefined) {
      customer.force_password_reset = authentication.force_password_reset;
    }
    if (credits) customer.store_credit_amounts = credits.map((a) => ({ amount: a.amount }));
    setAttributes(state, customer, attributes ?? [], now);
    setFormFields(customer.form_fields, formFields ?? []);
    customer.date_modified = now;
    return customer;
  });
}

export function addressJson(a: BcCustomerAddress, withFormFields = false): Record<string, unknown> {
  return {
    id: a.id,
    customer_id: a.customer_id,
    first_name: a.first_name,
    last_name: a.last_name,
    company: a.company,
    address1: a.address1,
    address2: a.address2,
    city: a.city,
    state_or_province: a.state_or_province,
    postal_code: a.postal_code,
    country: countryName(a.country_code),
    country_code: a.country_code,
    phone: a.phone,
    address_type: a.address_type,
    form_fields: withFormFields ? a.form_fields.map((f) => ({ ...f })) : [],
  };
}

export function customerJson(c: BcCustomer, include: ReadonlySet<string>): Record<string, unknown> {
  const json: Record<string, unknown> = {
    id: c.id,
    email: c.email,
    first_name: c.first_name,
    last_name: c.last_name,
    company: c.company,
    phone: c.phone,
    registration_ip_address: c.registration_ip_address,
    notes: c.notes,
    tax_exempt_category: c.tax_exempt_category,
    customer_group_id: c.customer_group_id,
    date_created: v3Date(c.date_created),
    date_modified: v3Date(c.date_modified),
    address_count: c.addresses.length,
    attribute_count: c.attributes.length,
    authentication: { force_password_reset: c.force_password_reset },
    accepts_product_review_abandoned_cart_emails: c.accepts_product_review_abandoned_cart_emails,
    origin_channel_id: c.origin_channel_id,
    channel_ids: c.channel_ids,
  };
  const formFields = include.has('formfields');
  if (include.has('addresses')) json.addresses = c.addresses.map((a) => addressJson(a, formFields));
  if (include.has('attributes'))
    json.attributes = c.attributes.map((a) => ({
      id: a.id,
      attribute_id: a.attribute_id,
      attribute_value: a.attribute_value,
      customer_id: c.id,
      date_created: v3Date(a.date_created),
      date_modified: v3Date(a.date_modified),
    }));
  if (formFields)
    json.form_fields = c.form_fields.map((f) => ({
      name: f.name,
      value: f.value,
      customer_id: c.id,
    }));
  if (include.has('storecredit'))
    json.store_credit_amounts = c.store_credit_amounts.map((a) => ({ ...a }));
  return json;
}

/** POST /customers/attributes: names are unique in the store. */
export function createAttributes(
  state: BcState,
  inputs: z.infer<typeof attributeCreateSchema>[],
  now: number,
): BcState['customerAttributes'] {
  const errors: Record<string, string> = {};
  inputs.forEach((input, i) => {
    const taken = state.customerAttributes.some(
      (a) => a.name.toLowerCase() === input.name.toLowerCase(),
    );
    if (taken || inputs.slice(0, i).some((x) => x.name.toLowerCase() === input.name.toLowerCase()))
      errors[`[${i}].name`] = `An attribute named ${input.name} already exists`;
  });
  if (Object.keys(errors).length) throw new BcHttpError(422, 'Error creating attributes', errors);
  return inputs.map((input) => {
    const attribute = {
      id: state.nextId('customer_attribute', 1),
      name: input.name,
      type: input.type,
      date_created: now,
      date_modified: now,
    };
    state.customerAttributes.push(attribute);
    return attribute;
  });
}

export function attributeJson(a: BcState['customerAttributes'][number]): Record<string, unknown> {
  return {
    id: a.id,
    name: a.name,
    type: a.type,
    date_created: v3Date(a.date_created),
    date_modified: v3Date(a.date_modified),
  };
}

export function consentJson(c: BcCustomer): Record<string, unknown> {
  return {
    allow: c.consent.allow,
    deny: c.consent.deny,
    updated_at: v3Date(c.consent.updated_at),
  };
}

export function setConsent(c: BcCustomer, input: z.infer<typeof consentSchema>, now: number): void {
  const allow = new Set<ConsentCategory>(input.allow ?? c.consent.allow);
  const deny = new Set<ConsentCategory>(input.deny ?? []);
  for (const d of deny) allow.delete(d);
  // Essential cookies cannot be refused on a BigCommerce storefront.
  allow.add('essential');
  deny.delete('essential');
  c.consent = { allow: [...allow], deny: [...deny], updated_at: now };
}
