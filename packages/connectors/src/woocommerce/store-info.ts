import { z } from 'zod';
import type { WooClient } from './client.ts';
import type { StoreUnits } from './to-canonical.ts';
import { wcSettingSchema, wcSystemStatusSchema, wcTermSchema } from './wc-schemas.ts';

/**
 * What the connector needs to know about a store before mapping anything: its currency
 * (settings/general), its weight and dimension units (settings/products; product weights and
 * dimensions are plain numbers in these units), its default "Uncategorized" category, and its
 * WooCommerce version (system_status), where the REST API differs between versions.
 */

export interface StoreInfo {
  currency: string;
  units: StoreUnits;
  defaultCategoryId: number | null;
  /** WooCommerce version ('11.0.1'), '' when the store does not say. */
  version: string;
}

/**
 * Whether a category's menu_order may be written: it is a writable argument of the categories
 * route in WooCommerce 9.9.5 and read-only from 11 (wc-v3-index of each version); a store that
 * does not tell its version is taken as a current one.
 */
export function writesCategoryOrder(info: Pick<StoreInfo, 'version'>): boolean {
  const major = Number(/^(\d+)\./.exec(info.version)?.[1] ?? Number.NaN);
  return Number.isFinite(major) && major < 11;
}

export async function loadStoreInfo(client: WooClient): Promise<StoreInfo> {
  const [general, products, uncategorized, status] = await Promise.all([
    client.get('/settings/general', {}, z.array(wcSettingSchema)),
    client.get('/settings/products', {}, z.array(wcSettingSchema)),
    client.get(
      '/products/categories',
      { slug: 'uncategorized', per_page: 1 },
      z.array(wcTermSchema),
    ),
    client.get('/system_status', {}, wcSystemStatusSchema).catch(() => undefined),
  ]);
  const setting = (list: { id: string; value: unknown }[], id: string, fallback: string) => {
    const value = list.find((s) => s.id === id)?.value;
    return typeof value === 'string' && value !== '' ? value : fallback;
  };
  return {
    currency: setting(general.data, 'woocommerce_currency', 'USD').toUpperCase(),
    units: {
      weight: setting(products.data, 'woocommerce_weight_unit', 'kg'),
      dimension: setting(products.data, 'woocommerce_dimension_unit', 'cm'),
    },
    defaultCategoryId: uncategorized.data[0]?.id ?? null,
    version: status?.data.environment.version ?? '',
  };
}
