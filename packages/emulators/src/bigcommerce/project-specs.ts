import { resolve } from 'node:path';

/**
 * BigCommerce descriptions the shared platform specs lack (the marketing API with its coupons),
 * kept unchanged in the emulators package's `specs/bigcommerce` folder with their provenance
 * (see the README there).
 */
export function projectSpecsDir(): string {
  return resolve(import.meta.dirname, '../../specs/bigcommerce');
}

/** The descriptions kept there, by file name. */
export const projectSpecFiles = [
  'marketing.v2.yml',
  'pages.v3.yml',
  'redirects.v3.yml',
  'store_content.v2.yml',
];
