import type { WooStore } from './shop.ts';
import type { Json, Product } from './store.ts';
import { findOrCreateTerm } from './seed.ts';
import { parse } from 'csv-parse/sync';

/**
 * Seeds a store from WooCommerce's own sample products (sample-data/sample_products.csv, the
 * product CSV importer format): simple, variable with variations, grouped and external products,
 * nested categories, tags, attributes and images. Image URLs point at the emulator's /media/.
 */

/** The importer reads measures as numbers: '.5' becomes '0.5'. */
const measure = (cell: string | undefined) =>
  cell === undefined || cell.trim() === '' ? '' : String(Number(cell));

const list = (cell: string | undefined) =>
  (cell ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** The importer's image cell: the path after /uploads/ is served under /media/. */
function mediaPath(url: string): string {
  const after = url.split('/wp-content/uploads/')[1] ?? url.split('/').pop() ?? url;
  return `/media/${after}`;
}

export async function seedFromWooSamples(store: WooStore, csv: string): Promise<void> {
  const rows = parse<Record<string, string>>(csv, {
    columns: true,
    bom: true,
    skip_empty_lines: true,
  });
  // The sample file's columns are "Weight (lbs)" and "Length (in)".
  store.settings.weightUnit = 'lbs';
  store.settings.dimensionUnit = 'in';

  const categoryId = (path: string): number => {
    let parent = 0;
    for (const name of path.split('>').map((s) => s.trim())) {
      const existing = store
        .termsOf('product_cat')
        .find((t) => t.parent === parent && t.name === name);
      parent = existing ? existing.id : store.insertTerm('product_cat', { name, parent }).id;
    }
    return parent;
  };
  // "Attribute N global" makes a store-wide attribute (pa_<name>), as the importer does.
  const globalId = (name: string) => {
    const slug = `pa_${name.toLowerCase()}`;
    return (store.attributeByTaxonomy(slug) ?? store.createAttribute({ name, slug: name })).id;
  };
  const attributes = (row: Record<string, string>, variation: boolean) => {
    const out: Json[] = [];
    for (let n = 1; row[`Attribute ${n} name`] !== undefined; n++) {
      const name = row[`Attribute ${n} name`];
      if (!name) continue;
      const global = row[`Attribute ${n} global`] === '1';
      out.push({
        ...(global ? { id: globalId(name) } : { name }),
        position: n - 1,
        visible: row[`Attribute ${n} visible`] === '1',
        variation,
        options: list(row[`Attribute ${n} value(s)`]),
      });
    }
    return out;
  };

  // The importer titles each image by its file name.
  const attach = (url: string) => {
    const path = mediaPath(url);
    const existing = [...store.attachments.values()].find((a) => a.path === path);
    return (existing ?? store.addAttachment(path, '', Date.UTC(2017, 11, 1), path.split('/').pop()))
      .id;
  };
  const downloads = (row: Record<string, string>) => {
    const out: Json[] = [];
    for (let n = 1; row[`Download ${n} URL`] !== undefined; n++)
      if (row[`Download ${n} URL`])
        out.push({ name: row[`Download ${n} name`] ?? '', file: row[`Download ${n} URL`] });
    return out;
  };
  const bySku = new Map<string, Product>();
  const isVariation = (row: Record<string, string>) => row.Type === 'variation';
  const grouped: [Product, string[]][] = [];
  for (const row of rows.filter((r) => !isVariation(r))) {
    const types = list(row.Type);
    const type =
      types.find((t) => ['simple', 'variable', 'grouped', 'external'].includes(t)) ?? 'simple';
    const images = list(row.Images).map((url) => ({ id: attach(url) }));
    const published =
      row.Published === '1' ? 'publish' : row.Published === '-1' ? 'private' : 'draft';
    const stock = row.Stock ?? '';
    const input: Json = {
      name: row.Name,
      type,
      status: published,
      featured: row['Is featured?'] === '1',
      catalog_visibility: row['Visibility in catalog'] || 'visible',
      description: row.Description,
      short_description: row['Short description'],
      sku: row.SKU,
      virtual: types.includes('virtual'),
      downloadable: types.includes('downloadable'),
      tax_status: row['Tax status'] || 'taxable',
      manage_stock: stock !== '',
      ...(stock !== '' ? { stock_quantity: Number(stock) } : {}),
      stock_status: row['In stock?'] === '0' ? 'outofstock' : 'instock',
      weight: measure(row['Weight (lbs)']),
      dimensions: {
        length: measure(row['Length (in)']),
        width: measure(row['Width (in)']),
        height: measure(row['Height (in)']),
      },
      reviews_allowed: row['Allow customer reviews?'] === '1',
      regular_price: type === 'variable' ? '' : row['Regular price'],
      sale_price: type === 'variable' ? '' : row['Sale price'],
      categories: list(row.Categories).map((path) => ({ id: categoryId(path) })),
      tags: list(row.Tags).map((name) => ({ id: findOrCreateTerm(store, 'product_tag', name) })),
      images,
      attributes: attributes(row, type === 'variable'),
      menu_order: Number(row.Position || 0),
      external_url: row['External URL'],
      button_text: row['Button text'],
      downloads: downloads(row),
      download_limit: Number(row['Download limit'] || -1),
      download_expiry: Number(row['Download expiry days'] || -1),
      meta_data: [
        { key: '_original_id', value: row.ID },
        ...Object.entries(row)
          .filter(([k, v]) => k.startsWith('Meta: ') && v !== '')
          .map(([k, v]) => ({ key: k.slice('Meta: '.length), value: v })),
      ],
    };
    const product = await store.saveProduct(input);
    if (row.SKU) bySku.set(row.SKU, product);
    if (type === 'grouped') grouped.push([product, list(row['Grouped products'])]);
  }
  for (const [product, skus] of grouped)
    product.groupedIds = skus.map((s) => bySku.get(s)?.id ?? 0).filter(Boolean);

  for (const row of rows.filter(isVariation)) {
    const parent = bySku.get(row.Parent ?? '');
    if (!parent) continue;
    const [image] = list(row.Images);
    const stock = row.Stock ?? '';
    await store.saveVariation(parent, {
      sku: row.SKU,
      description: row.Description,
      regular_price: row['Regular price'],
      sale_price: row['Sale price'],
      manage_stock: stock !== '',
      ...(stock !== '' ? { stock_quantity: Number(stock) } : {}),
      weight: measure(row['Weight (lbs)']),
      menu_order: Number(row.Position || 0),
      image: image ? { id: attach(image) } : {},
      attributes: attributes(row, true).map((a) => ({
        ...(a.id ? { id: a.id } : { name: a.name }),
        option: (a.options as string[])[0] ?? '',
      })),
      meta_data: [{ key: '_original_id', value: row.ID }],
    });
  }
}
