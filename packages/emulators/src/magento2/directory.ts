/**
 * The part of Magento's directory (GET /V1/directory/countries/{countryId}) that addresses need:
 * countries whose regions Magento lists and requires (US, CA, AU here) and every other country
 * with free-text regions. Region ids are this emulator's own; clients must look them up, as they
 * must on a real store, where ids differ between installations.
 */

export interface Region {
  id: number;
  code: string;
  name: string;
}

const regionLists: Record<string, [string, string][]> = {
  US: [
    ['AL', 'Alabama'],
    ['AK', 'Alaska'],
    ['AZ', 'Arizona'],
    ['AR', 'Arkansas'],
    ['CA', 'California'],
    ['CO', 'Colorado'],
    ['CT', 'Connecticut'],
    ['DE', 'Delaware'],
    ['DC', 'District of Columbia'],
    ['FL', 'Florida'],
    ['GA', 'Georgia'],
    ['HI', 'Hawaii'],
    ['ID', 'Idaho'],
    ['IL', 'Illinois'],
    ['IN', 'Indiana'],
    ['IA', 'Iowa'],
    ['KS', 'Kansas'],
    ['KY', 'Kentucky'],
    ['LA', 'Louisiana'],
    ['ME', 'Maine'],
    ['MD', 'Maryland'],
    ['MA', 'Massachusetts'],
    ['MI', 'Michigan'],
    ['MN', 'Minnesota'],
    ['MS', 'Mississippi'],
    ['MO', 'Missouri'],
    ['MT', 'Montana'],
    ['NE', 'Nebraska'],
    ['NV', 'Nevada'],
    ['NH', 'New Hampshire'],
    ['NJ', 'New Jersey'],
    ['NM', 'New Mexico'],
    ['NY', 'New York'],
    ['NC', 'North Carolina'],
    ['ND', 'North Dakota'],
    ['OH', 'Ohio'],
    ['OK', 'Oklahoma'],
    ['OR', 'Oregon'],
    ['PA', 'Pennsylvania'],
    ['RI', 'Rhode Island'],
    ['SC', 'South Carolina'],
    ['SD', 'South Dakota'],
    ['TN', 'Tennessee'],
    ['TX', 'Texas'],
    ['UT', 'Utah'],
    ['VT', 'Vermont'],
    ['VA', 'Virginia'],
    ['WA', 'Washington'],
    ['WV', 'West Virginia'],
    ['WI', 'Wisconsin'],
    ['WY', 'Wyoming'],
  ],
  CA: [
    ['AB', 'Alberta'],
    ['BC', 'British Columbia'],
    ['MB', 'Manitoba'],
    ['NB', 'New Brunswick'],
    ['NL', 'Newfoundland and Labrador'],
    ['NS', 'Nova Scotia'],
    ['NT', 'Northwest Territories'],
    ['NU', 'Nunavut'],
    ['ON', 'Ontario'],
    ['PE', 'Prince Edward Island'],
    ['QC', 'Quebec'],
    ['SK', 'Saskatchewan'],
    ['YT', 'Yukon Territory'],
  ],
  AU: [
    ['ACT', 'Australian Capital Territory'],
    ['NSW', 'New South Wales'],
    ['NT', 'Northern Territory'],
    ['QLD', 'Queensland'],
    ['SA', 'South Australia'],
    ['TAS', 'Tasmania'],
    ['VIC', 'Victoria'],
    ['WA', 'Western Australia'],
  ],
};

const countryNames: Record<string, [string, string]> = {
  US: ['USA', 'United States'],
  CA: ['CAN', 'Canada'],
  AU: ['AUS', 'Australia'],
  GB: ['GBR', 'United Kingdom'],
  DE: ['DEU', 'Germany'],
  FR: ['FRA', 'France'],
  NL: ['NLD', 'Netherlands'],
  IT: ['ITA', 'Italy'],
  ES: ['ESP', 'Spain'],
  IE: ['IRL', 'Ireland'],
  JP: ['JPN', 'Japan'],
  NZ: ['NZL', 'New Zealand'],
  SE: ['SWE', 'Sweden'],
  DK: ['DNK', 'Denmark'],
  BE: ['BEL', 'Belgium'],
  CH: ['CHE', 'Switzerland'],
  AT: ['AUT', 'Austria'],
  PL: ['POL', 'Poland'],
  MX: ['MEX', 'Mexico'],
  BR: ['BRA', 'Brazil'],
};

const regions = new Map<string, Region[]>();
let nextRegionId = 1;
for (const [country, list] of Object.entries(regionLists)) {
  regions.set(
    country,
    list.map(([code, name]) => ({ id: nextRegionId++, code, name })),
  );
}

export function isKnownCountry(countryId: string): boolean {
  return countryId in countryNames;
}

/** Regions of a country that requires one (Magento's "State Options"), or [] when free text. */
export function regionsOf(countryId: string): Region[] {
  return regions.get(countryId) ?? [];
}

export function regionById(countryId: string, id: number): Region | undefined {
  return regionsOf(countryId).find((r) => r.id === id);
}

export function regionByCodeOrName(countryId: string, text: string): Region | undefined {
  const wanted = text.trim().toLowerCase();
  return regionsOf(countryId).find(
    (r) => r.code.toLowerCase() === wanted || r.name.toLowerCase() === wanted,
  );
}

export function countryJson(countryId: string): Record<string, unknown> | undefined {
  const names = countryNames[countryId];
  if (!names) return undefined;
  const list = regionsOf(countryId);
  return {
    id: countryId,
    two_letter_abbreviation: countryId,
    three_letter_abbreviation: names[0],
    full_name_locale: names[1],
    full_name_english: names[1],
    ...(list.length
      ? { available_regions: list.map((r) => ({ id: String(r.id), code: r.code, name: r.name })) }
      : {}),
  };
}
