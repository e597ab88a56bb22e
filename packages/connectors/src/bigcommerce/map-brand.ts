import type { Brand } from '@replatform/canonical/brand';
import { brandDefaults } from '@replatform/canonical/defaults';
import { brandExtras, readExtras, setPath, writeExtras } from './extras.ts';
import { slugFromPath, usablePath, validUrl } from './map-catalog.ts';
import { metafieldsToBc, metafieldsToCanonical, type MetafieldInput } from './metafields.ts';
import type { Json } from './native.ts';
import type { BcBrandFull } from './payloads.ts';

/**
 * BigCommerce brands (brands_catalog.v3.yml brand_Full) <-> canonical brands.
 *
 * A BigCommerce brand has a name, SEO page title, meta keywords and description, search keywords,
 * a logo and the path of its storefront page (custom_url). It has no description, no parent, no
 * sort position, no alternative text for its logo and no page layout: read, those are the model's
 * neutral values; written, a value there is declared unsupported (native-fields.ts) and reported
 * by the run. Whether the path was customised travels as bigcommerce_fields.custom_url.is_customized
 * when it was not.
 */

export function brandToCanonical(b: BcBrandFull, raw: Json): Brand {
  const path = b.custom_url?.url || null;
  return {
    ...brandDefaults(),
    id: String(b.id),
    name: b.name,
    slug: slugFromPath(path),
    imageUrl: validUrl(b.image_url),
    seoTitle: b.page_title,
    seoDescription: b.meta_description,
    seoKeywords: b.meta_keywords.filter((k) => k !== ''),
    searchKeywords: b.search_keywords,
    metafields: [...metafieldsToCanonical(b.metafields), ...readExtras(raw, brandExtras)],
    sourceUrlPath: path,
  };
}

/** The body of POST /v3/catalog/brands (and of PUT, which takes the same fields). */
export interface BrandBody {
  name: string;
  page_title: string;
  meta_keywords: string[];
  meta_description: string;
  search_keywords: string;
  image_url: string;
  custom_url?: { url: string; is_customized: boolean };
  [field: string]: unknown;
}

export type BrandWrite =
  | { ok: true; body: BrandBody; metafields: MetafieldInput[]; warnings: string[] }
  | { ok: false; reason: string };

/** The storefront path of a brand's page: the source's, else /brands/<slug>/, else none. */
export function brandPath(brand: Brand): string | undefined {
  const fromSlug = brand.slug
    ? `/brands/${encodeURIComponent(brand.slug).replace(/%2F/gi, '-')}/`
    : undefined;
  return usablePath(brand.sourceUrlPath) ?? usablePath(fromSlug);
}

/**
 * The BigCommerce brand of a canonical brand. A name longer than BigCommerce's 255 characters is
 * refused rather than shortened (it is the key products find their brand by); a page title or
 * search keywords beyond 255 characters are refused too, since shortening them would change what
 * the storefront shows. Every field is sent, so an update leaves nothing of an older copy behind.
 */
export function brandToBc(brand: Brand): BrandWrite {
  const name = brand.name.trim();
  if (!name) return { ok: false, reason: 'the brand has no name, which BigCommerce requires' };
  if (name.length > 255)
    return {
      ok: false,
      reason: `the brand name is ${name.length} characters long; BigCommerce allows 255`,
    };
  if (brand.seoTitle.length > 255)
    return {
      ok: false,
      reason: `the SEO title is ${brand.seoTitle.length} characters long; BigCommerce allows 255 (page_title)`,
    };
  if (brand.searchKeywords.length > 255)
    return {
      ok: false,
      reason: `the search keywords are ${brand.searchKeywords.length} characters long; BigCommerce allows 255 (search_keywords)`,
    };
  if (brand.seoDescription.length > 65_535)
    return {
      ok: false,
      reason: 'the SEO description is longer than the 65,535 characters BigCommerce allows',
    };
  const warnings = new Set<string>();
  const body: BrandBody = {
    name,
    page_title: brand.seoTitle,
    meta_keywords: brand.seoKeywords,
    meta_description: brand.seoDescription,
    search_keywords: brand.searchKeywords,
    image_url: brand.imageUrl ?? '',
  };
  const extras = writeExtras(brand.metafields, brandExtras);
  const path = brandPath(brand);
  if (path) {
    const customized = extras.fields.get('custom_url.is_customized');
    body.custom_url = { url: path, is_customized: customized === false ? false : true };
  } else if (brand.sourceUrlPath) {
    warnings.add(
      `the storefront path '${brand.sourceUrlPath}' is not one BigCommerce takes; BigCommerce made the brand a page from its name (sourceUrlPath, slug, and metafields: bigcommerce_fields.custom_url.is_customized false)`,
    );
  } else {
    warnings.add(
      'the source store gives this brand no page of its own; BigCommerce made it one from its name (slug, and metafields: bigcommerce_fields.custom_url.is_customized false)',
    );
  }
  for (const [field, value] of extras.fields)
    if (field !== 'custom_url.is_customized') setPath(body, field, value);
  if (extras.unknown.length)
    warnings.add(
      `BigCommerce brand fields it does not know were left out: ${extras.unknown.join(', ')} (metafields)`,
    );
  const metafields = metafieldsToBc(brand.metafields, [], warnings, 'metafields');
  return { ok: true, body, metafields, warnings: [...warnings] };
}

/**
 * Whether a destination brand already holds what `body` would write (the logo is BigCommerce's
 * own copy, so a logo counts as held when both have one or neither has).
 */
export function holdsBrand(current: BcBrandFull, body: BrandBody): boolean {
  return (
    current.name === body.name &&
    current.page_title === body.page_title &&
    JSON.stringify(current.meta_keywords.filter((k) => k !== '')) ===
      JSON.stringify(body.meta_keywords) &&
    current.meta_description === body.meta_description &&
    current.search_keywords === body.search_keywords &&
    Boolean(current.image_url) === Boolean(body.image_url) &&
    (body.custom_url === undefined ||
      (current.custom_url?.url === body.custom_url.url &&
        (current.custom_url.is_customized ?? true) === body.custom_url.is_customized))
  );
}
