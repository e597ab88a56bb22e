import type { Brand } from '@replatform/canonical/brand';
import { brandDefaults } from '@replatform/canonical/defaults';
import type { Json } from './native.ts';

/**
 * A brand is an option of the product attribute `manufacturer` (Magento core has no brand
 * entity): the option's id is the brand's id, its admin label the name, its sort order the
 * position. Nothing else of a brand has a place on an option: no parent, page, description, logo
 * or SEO fields (declared in native-fields.ts, magentoDestinationFields.brands).
 */

/** The attribute that holds brands. */
export const brandAttribute = 'manufacturer';

/** Magento keeps an option label in a varchar(255) column. */
export const maxLabelLength = 255;

/** An option as the store answers it: value, label, sort_order (where given), store labels. */
export function brandToCanonical(option: Json, index: number): Brand {
  const order = Number(option.sort_order);
  return {
    ...brandDefaults(),
    id: String(option.value),
    name: String(option.label),
    // Options are listed by sort order: without one given, the place in the list is the order.
    position: Number.isInteger(order) && order >= 0 ? order : index,
    sourceUrlPath: null,
  };
}

/** The eav-data-attribute-option-interface body of a brand (admin label only). */
export function optionPayload(brand: Brand, value = ''): Json {
  return {
    label: brand.name,
    value,
    sort_order: brand.position,
    is_default: false,
    store_labels: [{ store_id: 0, label: brand.name }],
  };
}

/** Why a brand cannot be an option, before anything is sent; undefined when it can. */
export function unwritable(brand: Brand): string | undefined {
  if (brand.name.trim().length > maxLabelLength)
    return `the name is longer than the ${maxLabelLength} characters Magento keeps for an option label`;
  return undefined;
}
