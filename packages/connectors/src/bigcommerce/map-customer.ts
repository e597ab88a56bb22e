import type { Customer, CustomerAddress } from '@replatform/canonical/customer';
import { customerDefaults } from '@replatform/canonical/defaults';
import type { Metafield } from '@replatform/canonical/metafield';
import { customerExtras, readExtras, writeExtras } from './extras.ts';
import { isoDate } from './map-catalog.ts';
import { metafieldsToBc, metafieldsToCanonical, type MetafieldInput } from './metafields.ts';
import type { Json } from './native.ts';
import type { BcCustomer, BcCustomerAttribute } from './payloads.ts';
import { nameKey } from './session.ts';

/**
 * BigCommerce customers (customers.v3.yml) <-> canonical customers.
 *
 * - Marketing consent is `accepts_product_review_abandoned_cart_emails`, the customer's e-mail
 *   opt-in on the customer record. The /consent resource holds storefront cookie-tracking
 *   preferences (essential/functional/analytics/targeting), which is not e-mail consent and has
 *   no canonical field, so it is not read or written.
 * - BigCommerce addresses have no default flags: the first address is read as the default billing
 *   and shipping address; written addresses keep their source order.
 * - Customer attributes (the store's own typed fields) are the custom fields of namespace
 *   'bigcommerce', keyed by the attribute's name; values of the store's sign-up form fields are
 *   those of namespace 'bigcommerce_form_fields'. Company, tax exemption, store credit and the
 *   sign-up IP address travel as BigCommerce's own fields (extras.ts).
 */

export const attributeNamespace = 'bigcommerce';
export const formFieldNamespace = 'bigcommerce_form_fields';

const attributeTypes: Record<BcCustomerAttribute['type'], string> = {
  string: 'single_line_text_field',
  number: 'number_decimal',
  date: 'date',
};

/** The attribute type a custom field's type asks for when the destination makes the attribute. */
export function attributeTypeOf(type: string): BcCustomerAttribute['type'] {
  if (type.startsWith('number')) return 'number';
  if (type.startsWith('date')) return 'date';
  return 'string';
}

const countryCode = (value: string) => {
  const code = value.trim().toUpperCase();
  return /^[A-Z]{2}$/.test(code) ? code : '';
};

export function customerToCanonical(
  c: BcCustomer,
  raw: Json,
  attributes: ReadonlyMap<number, BcCustomerAttribute>,
): Customer {
  const createdAt = isoDate(c.date_created);
  if (!createdAt) throw new Error(`customer ${c.id} has no readable date_created`);
  const metafields: Metafield[] = [
    ...metafieldsToCanonical(c.metafields),
    ...readExtras(raw, customerExtras),
  ];
  for (const value of c.attributes) {
    const attribute = attributes.get(value.attribute_id);
    if (!attribute) continue;
    metafields.push({
      namespace: attributeNamespace,
      key: attribute.name,
      value: value.attribute_value,
      type: attributeTypes[attribute.type],
    });
  }
  for (const field of c.form_fields) {
    metafields.push({
      namespace: formFieldNamespace,
      key: field.name,
      value: typeof field.value === 'string' ? field.value : JSON.stringify(field.value),
      type:
        typeof field.value === 'string'
          ? 'single_line_text_field'
          : typeof field.value === 'number'
            ? 'number_decimal'
            : 'json',
    });
  }
  const group = Number(raw.customer_group_id ?? 0);
  return {
    ...customerDefaults(),
    id: String(c.id),
    email: c.email.trim().toLowerCase(),
    firstName: c.first_name,
    lastName: c.last_name,
    phone: c.phone,
    acceptsMarketing: c.accepts_product_review_abandoned_cart_emails ?? false,
    addresses: c.addresses.map((a, index): CustomerAddress => ({
      firstName: a.first_name,
      lastName: a.last_name,
      company: a.company,
      address1: a.address1,
      address2: a.address2,
      city: a.city,
      province: a.state_or_province,
      postalCode: a.postal_code,
      countryCode: countryCode(a.country_code),
      phone: a.phone,
      email: '',
      isDefaultBilling: index === 0,
      isDefaultShipping: index === 0,
    })),
    note: c.notes,
    tags: [],
    group: group > 0 ? String(group) : '',
    metafields,
    createdAt,
  };
}

export interface CustomerWrite {
  body: Json;
  warnings: string[];
  /** Fields BigCommerce takes on an update only (PUT /v3/customers), written after the create. */
  update: Json | undefined;
  metafields: MetafieldInput[];
}

/**
 * The body of one customer of POST /v3/customers. `attributes` are the store's customer
 * attributes by name (nameKey), made beforehand for every 'bigcommerce' custom field.
 */
export function customerToBc(
  customer: Customer,
  attributes: ReadonlyMap<string, BcCustomerAttribute>,
): CustomerWrite {
  const warnings = new Set<string>();
  const name = (value: string, fallback: string, field: string, key: string) => {
    const trimmed = value.trim().slice(0, 100);
    if (trimmed) return trimmed;
    warnings.add(`${field} was empty; BigCommerce requires one, '${fallback}' was used (${key})`);
    return fallback;
  };
  // BigCommerce keeps the addresses in the order they are given and has no default flags (the
  // storefront has no default address either), so the order is kept as it was and the flags are
  // lost; the reader takes the first address as the default.
  const addresses = customer.addresses.flatMap((a) => {
    if (!a.address1 || !a.city || !a.countryCode) {
      warnings.add('an address without street, city or country was left out (addresses)');
      return [];
    }
    if (!a.firstName || !a.lastName)
      warnings.add(
        "an address without a name was given the customer's (BigCommerce requires one) (addresses.firstName)",
      );
    return [
      {
        first_name: (a.firstName || customer.firstName || '-').slice(0, 255),
        last_name: (a.lastName || customer.lastName || '-').slice(0, 255),
        company: a.company.slice(0, 255),
        address1: a.address1,
        address2: a.address2,
        city: a.city.slice(0, 100),
        state_or_province: a.province.slice(0, 100),
        postal_code: a.postalCode.slice(0, 30),
        country_code: a.countryCode,
        phone: a.phone.slice(0, 50),
        address_type: a.company ? 'commercial' : 'residential',
      },
    ];
  });
  if (addresses.length > 10)
    warnings.add('only the first 10 addresses were kept (BigCommerce limit) (addresses)');
  const body: Json = {
    email: customer.email,
    first_name: name(customer.firstName, '-', 'first name', 'firstName'),
    last_name: name(customer.lastName, '-', 'last name', 'lastName'),
    phone: customer.phone.slice(0, 50),
    notes: customer.note,
    accepts_product_review_abandoned_cart_emails: customer.acceptsMarketing,
    addresses: addresses.slice(0, 10),
    // Passwords never travel: the customer sets a new one at the first sign-in.
    authentication: { force_password_reset: true },
    trigger_account_created_notification: false,
  };
  const extras = writeExtras(customer.metafields, customerExtras);
  let update: Json | undefined;
  for (const [field, value] of extras.fields) {
    // customers.v3.yml customer_Post has no registration_ip_address; customer_Put has.
    if (field === 'registration_ip_address') update = { registration_ip_address: value };
    else body[field] = value;
  }
  if (extras.unknown.length)
    warnings.add(
      `BigCommerce customer fields it does not know were left out: ${extras.unknown.join(', ')} (metafields)`,
    );
  const values = customer.metafields
    .filter((m) => m.namespace === attributeNamespace)
    .flatMap((m) => {
      const attribute = attributes.get(nameKey(m.key));
      if (!attribute || !m.value) return [];
      return [{ attribute_id: attribute.id, attribute_value: m.value.slice(0, 255) }];
    });
  if (values.length > 10)
    warnings.add(
      'only the first 10 customer attributes were kept (BigCommerce limit) (metafields)',
    );
  if (values.length) body.attributes = values.slice(0, 10);
  const formFields = customer.metafields
    .filter((m) => m.namespace === formFieldNamespace)
    .map((m) => {
      let value: unknown = m.value;
      if (m.type === 'json' || m.type.startsWith('number')) {
        try {
          value = JSON.parse(m.value) as unknown;
        } catch {
          value = m.value;
        }
      }
      return { name: m.key, value };
    });
  if (formFields.length) body.form_fields = formFields;
  const metafields = metafieldsToBc(
    customer.metafields,
    [attributeNamespace, formFieldNamespace],
    warnings,
    'metafields',
  );
  return { body, warnings: [...warnings], update, metafields };
}
