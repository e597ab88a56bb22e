import { z } from 'zod';

/** A postal address as customers and orders carry it. Every field is free text from the store. */
export const addressSchema = z.strictObject({
  /** Given name of the addressee. */
  firstName: z.string(),
  /** Family name of the addressee. */
  lastName: z.string(),
  /** Company name, '' when none. */
  company: z.string(),
  /** First street line. */
  address1: z.string(),
  /** Second street line (suite, floor), '' when none. */
  address2: z.string(),
  /** City, town or locality, '' when none. */
  city: z.string(),
  /** Region/state/province code or name as the store keeps it ('CA', 'Texas'), '' when none. */
  province: z.string(),
  /** Postal or ZIP code, '' when none. */
  postalCode: z.string(),
  /** ISO 3166-1 alpha-2 country code, upper case ('US'); '' when the store had none. */
  countryCode: z.string().regex(/^([A-Z]{2})?$/),
  /** Phone number as entered, '' when none (never copied from another address). */
  phone: z.string(),
  /**
   * E-mail address kept on the address itself (WooCommerce's billing e-mail), '' when the source
   * had none. Never filled in from the account's e-mail: a destination that demands one says so.
   */
  email: z.string(),
});
export type Address = z.infer<typeof addressSchema>;

export function emptyAddress(): Address {
  return {
    firstName: '',
    lastName: '',
    company: '',
    address1: '',
    address2: '',
    city: '',
    province: '',
    postalCode: '',
    countryCode: '',
    phone: '',
    email: '',
  };
}
