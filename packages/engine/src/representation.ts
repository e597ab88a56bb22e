import type { EntityType } from '@replatform/canonical/entities';

/**
 * Values that platforms store in their own notation, brought to one form before source and
 * destination are compared, so a verification reports what was lost or changed, not how it is
 * written. Only notations that carry exactly the same information are folded together:
 * - phone numbers: by their digits, with the country calling code the number implies (Shopify
 *   stores E.164, '+15551234567', for '(555) 123-4567' in a US address); numbers holding letters
 *   (extensions) are compared as typed;
 * - timestamps: by the instant they name ('...:00Z' equals '...:00.000Z' and '...+00:00').
 */

/** Country calling codes of ISO 3166-1 countries (the ones a store is likely to hold). */
const callingCodes: Record<string, string> = {
  US: '1',
  CA: '1',
  PR: '1',
  GB: '44',
  IE: '353',
  DE: '49',
  AT: '43',
  CH: '41',
  FR: '33',
  BE: '32',
  NL: '31',
  LU: '352',
  ES: '34',
  PT: '351',
  IT: '39',
  SE: '46',
  NO: '47',
  DK: '45',
  FI: '358',
  PL: '48',
  CZ: '420',
  AU: '61',
  NZ: '64',
  JP: '81',
  CN: '86',
  HK: '852',
  SG: '65',
  IN: '91',
  BR: '55',
  MX: '52',
  ZA: '27',
};

/** Countries whose national numbers start with a trunk '0' that the international form drops. */
const trunkZero = new Set([
  'GB',
  'IE',
  'DE',
  'AT',
  'CH',
  'FR',
  'BE',
  'NL',
  'SE',
  'FI',
  'AU',
  'NZ',
  'JP',
  'CN',
  'IN',
  'ZA',
]);

/**
 * One notation of a phone number: '+<calling code><number>' when the number is international or
 * its country is known, its bare digits otherwise; '' for none.
 */
export function phoneForm(raw: string, countryCode: string): string {
  const typed = raw.trim();
  if (!typed) return '';
  if (/[a-z]/i.test(typed)) return typed;
  const digits = typed.replace(/\D/g, '');
  if (!digits) return typed;
  if (typed.startsWith('+')) return `+${digits}`;
  const code = callingCodes[countryCode];
  if (!code) return digits;
  if (digits.startsWith('00')) return `+${digits.slice(2)}`;
  // A NANP number may be written with its leading 1.
  if (code === '1' && digits.length === 11 && digits.startsWith('1')) return `+${digits}`;
  const national = trunkZero.has(countryCode) ? digits.replace(/^0/, '') : digits;
  return `+${code}${national}`;
}

/** The instant an ISO-8601 timestamp names, in one notation; anything else as it is. */
export function instantForm(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(value)) {
    return value;
  }
  const time = Date.parse(value);
  return Number.isNaN(time) ? value : new Date(time).toISOString();
}

type Loose = Record<string, unknown>;

const asRecord = (value: unknown): Loose | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Loose)
    : undefined;

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

function normaliseAddressPhone(address: unknown): void {
  const a = asRecord(address);
  if (a && typeof a.phone === 'string') a.phone = phoneForm(a.phone, text(a.countryCode));
}

const timestampFields: Partial<Record<EntityType, string[]>> = {
  products: ['createdAt', 'updatedAt'],
  coupons: ['createdAt', 'startsAt', 'expiresAt'],
  customers: ['createdAt'],
  orders: ['createdAt', 'updatedAt'],
  reviews: ['createdAt'],
  pages: ['publishedAt', 'createdAt', 'updatedAt'],
  posts: ['publishedAt', 'createdAt', 'updatedAt'],
};

/**
 * Rewrites, in place, the representation-only parts of a record in its comparable form (the
 * shape of `comparable()`: canonical fields, some maybe dropped). Both sides go through it.
 */
export function normaliseRepresentation(entity: EntityType, form: Loose): Loose {
  for (const field of timestampFields[entity] ?? []) {
    if (field in form) form[field] = instantForm(form[field]);
  }
  if (entity === 'customers') {
    const addresses = Array.isArray(form.addresses) ? form.addresses.map(asRecord) : [];
    // The customer's own number is read in the country of the address it most likely belongs to.
    const home =
      addresses.find((a) => a?.isDefaultBilling) ??
      addresses.find((a) => a?.isDefaultShipping) ??
      addresses[0];
    if (typeof form.phone === 'string') form.phone = phoneForm(form.phone, text(home?.countryCode));
    for (const address of addresses) normaliseAddressPhone(address);
  }
  if (entity === 'orders') {
    normaliseAddressPhone(form.billingAddress);
    normaliseAddressPhone(form.shippingAddress);
  }
  // A draft's date is each platform's own (when it was started, on WordPress and BigCommerce;
  // none on Shopify): it is no publication date, so it is not compared.
  if (
    (entity === 'pages' || entity === 'posts') &&
    (form.status === 'draft' || form.status === 'pending')
  )
    delete form.publishedAt;
  return form;
}
