import type { Customer, CustomerAddress } from '@replatform/canonical/customer';
import { isoDate } from './map-catalog.ts';
import type { BcCustomer } from './payloads.ts';

/**
 * BigCommerce customers (customers.v3.yml) <-> canonical customers.
 *
 * - Marketing consent is `accepts_product_review_abandoned_cart_emails`, the customer's e-mail
 *   opt-in on the customer record. The /consent resource holds storefront cookie-tracking
 *   preferences (essential/functional/analytics/targeting), which is not e-mail consent and has
 *   no canonical field, so it is not read or written.
 * - BigCommerce addresses have no default flags: the first address is read as the default billing
 *   and shipping address; written addresses keep their source order.
 * - Tags and the creation date cannot be written (no such fields on create).
 */

const countryCode = (value: string) => {
  const code = value.trim().toUpperCase();
  return /^[A-Z]{2}$/.test(code) ? code : '';
};

export function customerToCanonical(c: BcCustomer): Customer {
  const createdAt = isoDate(c.date_created);
  if (!createdAt) throw new Error(`customer ${c.id} has no readable date_created`);
  return {
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
      isDefaultBilling: index === 0,
      isDefaultShipping: index === 0,
    })),
    note: c.notes,
    tags: [],
    createdAt,
  };
}

export function customerToBc(customer: Customer): {
  body: Record<string, unknown>;
  warnings: string[];
} {
  const warnings: string[] = [];
  const name = (value: string, fallback: string, field: string, key: string) => {
    const trimmed = value.trim().slice(0, 100);
    if (trimmed) return trimmed;
    warnings.push(`${field} was empty; BigCommerce requires one, '${fallback}' was used (${key})`);
    return fallback;
  };
  // BigCommerce keeps the addresses in the order they are given and has no default flags (the
  // storefront has no default address either), so the order is kept as it was and the flags are
  // lost; the reader takes the first address as the default.
  const [first] = customer.addresses;
  if (
    first &&
    customer.addresses.some((a) => a.isDefaultBilling || a.isDefaultShipping) &&
    !(first.isDefaultBilling && first.isDefaultShipping)
  ) {
    warnings.push(
      'which address is the default is not kept: BigCommerce addresses have no default flag (addresses.isDefaultBilling, addresses.isDefaultShipping)',
    );
  }
  const addresses = customer.addresses.flatMap((a) => {
    if (!a.address1 || !a.city || !a.countryCode) {
      warnings.push('an address without street, city or country was left out (addresses)');
      return [];
    }
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
    warnings.push('only the first 10 addresses were kept (BigCommerce limit) (addresses)');
  if (customer.tags.length)
    warnings.push('customer tags have no place in BigCommerce and were left out (tags)');
  warnings.push('account creation date not kept: BigCommerce sets its own (createdAt)');
  return {
    body: {
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
    },
    warnings,
  };
}
