import { z } from 'zod';
import { addressSchema } from './address.ts';
import { metafieldSchema } from './metafield.ts';

export const customerAddressSchema = z.strictObject({
  ...addressSchema.shape,
  /** True for the customer's default billing address (at most one). */
  isDefaultBilling: z.boolean(),
  /** True for the customer's default shipping address (at most one). */
  isDefaultShipping: z.boolean(),
});
export type CustomerAddress = z.infer<typeof customerAddressSchema>;

/** A registered customer account. Passwords are never readable and so never migrated. */
export const customerSchema = z.strictObject({
  /** The source platform's id, as a string. */
  id: z.string().min(1),
  /** E-mail address, lower-cased; the natural key used to find an existing customer. */
  email: z.email(),
  /** Log-in name where the platform has one apart from the e-mail ('' when it has none). */
  username: z.string(),
  /** Given name on the account, '' when the store has none. */
  firstName: z.string(),
  /** Family name on the account, '' when the store has none. */
  lastName: z.string(),
  /** Phone number as entered, '' when none. */
  phone: z.string(),
  /** Whether the customer agreed to receive marketing e-mail. */
  acceptsMarketing: z.boolean(),
  /**
   * Addresses, default billing/shipping flagged. An address the source did not have is not
   * made up: a store with an empty shipping address gives no shipping address here.
   */
  addresses: z.array(customerAddressSchema),
  /** Free-text note kept by the merchant, '' when none. */
  note: z.string(),
  /**
   * Merchant tags, without duplicates. Their order carries no meaning (platforms list tags
   * alphabetically), so comparisons sort them.
   */
  tags: z.array(z.string()),
  /**
   * The customer's group, role or segment as the store names it ('customer', 'Wholesale'), ''
   * when the platform has none or it is the default one.
   */
  group: z.string(),
  /** Custom fields of the account (see metafieldSchema). */
  metafields: z.array(metafieldSchema),
  /** When the account was created at the source (ISO-8601). */
  createdAt: z.iso.datetime({ offset: true }),
});
export type Customer = z.infer<typeof customerSchema>;
