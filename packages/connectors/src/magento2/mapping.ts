import type { Address } from '@replatform/canonical/address';
import { toMinor, type Money } from '@replatform/canonical/money';
import type { CustomAttribute } from './magento-schemas.ts';
import type { MagentoSession } from './session.ts';

/**
 * Mapping helpers shared by the readers and writers: Magento dates, amounts, custom attributes
 * and addresses.
 *
 * Addresses: Magento requires street, city, postcode and telephone on customer and order
 * addresses. When the source has none, '-' is written (Magento accepts it; the admin shows it as
 * "not given"), and '-' reads back as ''. A second address line holds the further street lines,
 * one per line. Regions: for countries where Magento lists regions
 * (US, CA, AU, ...), the region id is looked up by code or name in the destination's directory.
 */

export const PLACEHOLDER = '-';

/** Magento stores UTC 'YYYY-MM-DD HH:MM:SS'; canonical dates are ISO-8601 with offset. */
export function isoFromMagento(value: string | null | undefined): string | null {
  if (!value) return null;
  const text = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(value)
    ? `${value.replace(' ', 'T')}Z`
    : value;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

export function magentoFromIso(value: string): string {
  return new Date(value).toISOString().slice(0, 19).replace('T', ' ');
}

export function moneyOf(value: number | string | null | undefined, currency: string): Money {
  return {
    amount: value === null || value === undefined || value === '' ? 0 : toMinor(value, currency),
    currency,
  };
}

export function customValue(
  attributes: CustomAttribute[] | undefined,
  code: string,
): string | undefined {
  const found = attributes?.find((a) => a.attribute_code === code);
  if (!found || found.value === null) return undefined;
  return Array.isArray(found.value) ? found.value.join(',') : String(found.value);
}

const orPlaceholder = (value: string) => (value.trim() ? value : PLACEHOLDER);

interface RegionFields {
  regionId: number;
  regionCode: string;
  regionName: string;
}

/** Resolves a canonical province against the destination's region directory. */
export async function resolveRegion(
  session: MagentoSession,
  countryCode: string,
  province: string,
): Promise<RegionFields | { error: string }> {
  const regions = countryCode ? await session.regions(countryCode) : [];
  if (!regions.length) return { regionId: 0, regionCode: province, regionName: province };
  const wanted = province.trim().toLowerCase();
  const found = regions.find(
    (r) => r.code.toLowerCase() === wanted || r.name.toLowerCase() === wanted,
  );
  if (!found) {
    return { error: `region '${province}' is not one of Magento's regions for ${countryCode}` };
  }
  return { regionId: found.id, regionCode: found.code, regionName: found.name };
}

/** Street lines: the first, then the second address line's own lines (Magento keeps up to 4). */
function streetOf(a: Address): string[] {
  return [orPlaceholder(a.address1), ...a.address2.split('\n').filter((l) => l.trim())];
}

export async function customerAddressPayload(
  session: MagentoSession,
  a: Address & { isDefaultBilling: boolean; isDefaultShipping: boolean },
): Promise<{ address: Record<string, unknown> } | { error: string }> {
  const region = await resolveRegion(session, a.countryCode, a.province);
  if ('error' in region) return region;
  const address = {
    firstname: orPlaceholder(a.firstName),
    lastname: orPlaceholder(a.lastName),
    company: a.company,
    street: streetOf(a),
    city: orPlaceholder(a.city),
    postcode: orPlaceholder(a.postalCode),
    country_id: a.countryCode || 'US',
    telephone: orPlaceholder(a.phone),
    region: {
      region_code: region.regionCode,
      region: region.regionName,
      region_id: region.regionId,
    },
    ...(region.regionId ? { region_id: region.regionId } : {}),
    default_billing: a.isDefaultBilling,
    default_shipping: a.isDefaultShipping,
  };
  return { address };
}

export async function orderAddressPayload(
  session: MagentoSession,
  a: Address,
  type: 'billing' | 'shipping',
): Promise<Record<string, unknown>> {
  const region = await resolveRegion(session, a.countryCode, a.province);
  // A historical order keeps the address as it was, even with a region the directory lacks.
  const regionFields =
    'error' in region
      ? { region: a.province, region_code: a.province }
      : {
          ...(region.regionName ? { region: region.regionName } : {}),
          ...(region.regionCode ? { region_code: region.regionCode } : {}),
          ...(region.regionId ? { region_id: region.regionId } : {}),
        };
  return {
    address_type: type,
    firstname: orPlaceholder(a.firstName),
    lastname: orPlaceholder(a.lastName),
    company: a.company,
    street: streetOf(a),
    city: orPlaceholder(a.city),
    postcode: orPlaceholder(a.postalCode),
    country_id: a.countryCode || 'US',
    telephone: orPlaceholder(a.phone),
    // An address without an e-mail of its own gets the order's from Magento, not from us.
    ...(a.email ? { email: a.email } : {}),
    ...regionFields,
  };
}
