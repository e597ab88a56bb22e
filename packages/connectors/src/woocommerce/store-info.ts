import { z } from 'zod';
import type { WooClient } from './client.ts';
import type { StoreUnits } from './to-canonical.ts';
import { wcSettingSchema, wcTermSchema } from './wc-schemas.ts';

/**
 * What the connector needs to know about a store before mapping anything: its currency
 * (settings/general), its weight and dimension units (settings/products; product weights and
 * dimensions are plain numbers in these units), and its default "Uncategorized" category.
 */

export interface StoreInfo {
  currency: string;
  units: StoreUnits;
  defaultCategoryId: number | null;
}

export async function loadStoreInfo(client: WooClient): Promise<StoreInfo> {
  const [general, products, uncategorized] = await Promise.all([
    client.get('/settings/general', {}, z.array(wcSettingSchema)),
    client.get('/settings/products', {}, z.array(wcSettingSchema)),
    client.get(
      '/products/categories',
      { slug: 'uncategorized', per_page: 1 },
      z.array(wcTermSchema),
    ),
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
  };
}
