// Fills an empty real WooCommerce store with the hard data of issue 14, through its REST API
// (wc/v3, Basic auth over https): non-Latin names and emoji in every text, HTML descriptions, a
// product with 100 variations, three-level categories, shared images, scheduled sales,
// backorders, refunds (full and partial, several per order), coupons of every kind (limits,
// product and category restrictions, e-mail patterns, a draft) and on orders, fees (positive and
// negative), notes, guest orders, an order in another currency, a line whose product was deleted
// afterwards, custom meta on products, variations, customers and orders, a grouped and an
// external product, downloadable and virtual products, global and local attributes, product
// reviews in every status, brands in two levels (with an HTML description and a logo, bare, a name
// with an ampersand) that the products name, and WordPress's own pages (a parent with a child,
// block HTML, a draft, a private one) and blog posts (nested categories, tags, a featured image, an
// excerpt, a scheduled one) through wp/v2 with an application password the script makes by HTTP
// (real-store/wordpress-password.ts).
//
//   node scripts/seed-woocommerce-store.ts <store.json>
//
// store.json is the file the WooCommerce test-store kit writes for each store (url_https,
// consumer_key, consumer_secret, ca_cert). Images are served to the store from a small http
// server on 127.0.0.1 that this script runs while it seeds; the store downloads them into its
// media library. The last record written is the coupon `replatform-seed-v3` (v2 added brands, v3
// pages and posts): a
// store holding it is complete, and the script leaves it alone. A store with other data (one
// seeded by an earlier version included) is refused, and CI makes that store again.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { StoreFile } from '@replatform/connectors/woocommerce/real-store/real-stores';
import { WooRest } from '@replatform/connectors/woocommerce/real-store/store-rest';
import { loadStore } from '@replatform/connectors/woocommerce/real-store/real-stores';
import { withWordPress } from '@replatform/connectors/woocommerce/real-store/wordpress-password';
import { png } from '@replatform/connectors/woocommerce/real-store/test-image';

type Json = Record<string, unknown>;
type WcRecord = Json & { id: number };

const COMPLETE = 'replatform-seed-v3';

/** Ten colours by ten sizes: the 100 variations of one product. */
const colours = [
  'Rot ❤️',
  'Grün 💚',
  'Blau 💙',
  '黒',
  'Weiß',
  'Gelb 💛',
  'Rosa',
  'Оранжевый',
  'Lila 💜',
  'Türkis',
];
const sizes = ['XS', 'S', 'M', 'L', 'XL', 'XXL', '3XL', '4XL', '5XL', '6XL'];
const imageFiles = [
  'kategorie-kleidung.png',
  'kategorie-tassen.png',
  'geteilt-becher.png',
  'becher-seite.png',
  'tshirt-vorne.png',
  'marke-toepferei.png',
];

/** Serves the seed images on 127.0.0.1 while the store downloads them. */
async function imageServer(): Promise<{ server: Server; url: (name: string) => string }> {
  const files = new Map<string, Buffer>();
  for (const [i, name] of imageFiles.entries())
    files.set(
      name,
      png(96 + i * 8, 96, [(i * 53) % 256, (i * 97 + 80) % 256, (i * 29 + 160) % 256]),
    );
  const server = createServer((request, response) => {
    const file = files.get(
      decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname.slice(1)),
    );
    if (!file) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'image/png', 'content-length': file.length });
    response.end(file);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: (name) => `http://127.0.0.1:${port}/${encodeURIComponent(name)}` };
}

const meta = (entries: Record<string, unknown>) =>
  Object.entries(entries).map(([key, value]) => ({ key, value }));

/** WordPress's pages and blog posts (wp/v2), the hard cases of each. */
async function seedContent(
  wp: WooRest,
  imageUrl: (name: string) => string,
  say: (line: string) => void,
): Promise<void> {
  const about = await wp.post('pages', {
    title: 'Über uns – who we are',
    slug: 'ueber-uns',
    status: 'publish',
    date_gmt: '2024-02-01T09:00:00',
    menu_order: 1,
    content:
      '<!-- wp:heading -->\n<h2 class="wp-block-heading">Wer wir sind 🌿</h2>\n<!-- /wp:heading -->\n\n<!-- wp:paragraph -->\n<p>Ein kleines Team in <strong>Köln</strong> &amp; Kyoto.</p>\n<!-- /wp:paragraph -->\n\n<!-- wp:list -->\n<ul class="wp-block-list"><!-- wp:list-item -->\n<li>Seit 2019</li>\n<!-- /wp:list-item --></ul>\n<!-- /wp:list -->',
  });
  await wp.post('pages', {
    title: '日本の店舗',
    slug: 'japan',
    parent: about.id,
    status: 'publish',
    menu_order: 0,
    content: '<!-- wp:paragraph -->\n<p>京都の店舗は月曜日休みです。</p>\n<!-- /wp:paragraph -->',
  });
  await wp.post('pages', {
    title: 'Sommerschlussverkauf (Entwurf)',
    status: 'draft',
    content: '<p>Noch nicht angekündigt.</p>',
  });
  await wp.post('pages', {
    title: 'Intern: Lieferanten',
    status: 'private',
    content: '<p>Nur für das Team.</p>',
  });
  say('pages: 4 (a parent with a child, block HTML, a draft, a private one)');

  const guides = await wp.post('categories', { name: 'Ratgeber & Pflege' });
  const linen = await wp.post('categories', { name: 'Leinen', parent: guides.id });
  const stories = await wp.post('categories', { name: 'Geschichten' });
  const tag = async (name: string) => (await wp.post('tags', { name })).id;
  const [care, kyoto] = [await tag('pflege'), await tag('京都')];
  const image = await wp.post('media', { url: imageUrl(imageFiles[0] ?? '') });
  await wp.post(`media/${image.id}`, { alt_text: 'Gefaltetes Leinen im Regal' });
  await wp.post('posts', {
    title: 'Leinen richtig pflegen',
    status: 'publish',
    date_gmt: '2024-05-02T08:00:00',
    categories: [linen.id],
    tags: [care],
    featured_media: image.id,
    excerpt: '<p>Drei Regeln für weiches Leinen – jahrelang.</p>',
    content:
      '<!-- wp:paragraph -->\n<p>Bei 40° waschen, flach trocknen, feucht bügeln.</p>\n<!-- /wp:paragraph -->',
  });
  await wp.post('posts', {
    title: 'Besuch in Kyoto',
    status: 'future',
    date_gmt: '2099-06-10T10:00:00',
    categories: [stories.id, guides.id],
    tags: [kyoto, care],
    content: '<p>Ein Besuch in der Werkstatt.</p>',
  });
  await wp.post('posts', {
    title: 'Feiertage (Entwurf)',
    status: 'draft',
    content: '<p>24.–26. Dezember geschlossen.</p>',
  });
  say(
    'posts: 3 (a nested category, tags, a featured image with alt text, an excerpt, a scheduled one, a draft)',
  );
}

async function seed(
  store: WooRest,
  wp: WooRest,
  imageUrl: (name: string) => string,
): Promise<string[]> {
  const log: string[] = [];
  const say = (line: string) => {
    log.push(line);
    console.log(line);
  };

  // Shipping classes and global attributes with their terms.
  await store.post('products/shipping_classes', {
    name: 'Sperrgut 📦',
    slug: 'sperrgut',
    description: 'Große Pakete – <em>zwei</em> Tage länger',
  });
  await store.post('products/shipping_classes', {
    name: 'Zerbrechlich ⚠️',
    slug: 'zerbrechlich',
    description: 'Glas & Porzellan',
  });
  const attribute = async (
    name: string,
    slug: string,
    orderBy: string,
    terms: readonly string[],
  ) => {
    const made = await store.post('products/attributes', {
      name,
      slug,
      type: 'select',
      order_by: orderBy,
      has_archives: slug === 'farbe',
    });
    const created = await store.post<{ create: WcRecord[] }>(
      `products/attributes/${made.id}/terms/batch`,
      {
        create: terms.map((term, i) => ({
          name: term,
          description: `${term} – ${name} (Begriff ${i + 1})`,
          menu_order: terms.length - i,
        })),
      },
    );
    return { id: made.id, name, slug: `pa_${slug}`, terms: created.create };
  };
  const colour = await attribute('Farbe 🎨', 'farbe', 'menu_order', colours);
  const size = await attribute('Größe', 'groesse', 'name', sizes);
  const material = await attribute('Материал', 'material', 'name_num', [
    'Хлопок',
    'Шерсть',
    'Лён 🌾',
  ]);
  say(
    `attributes: ${colour.name} (${colour.terms.length}), ${size.name} (${size.terms.length}), ${material.name} (${material.terms.length})`,
  );

  // Three-level categories; one with an image, one showing subcategories.
  const category = async (name: string, parent: number, extra: Json = {}) =>
    store.post('products/categories', {
      name,
      parent,
      description: `<strong>${name}</strong> – <a href="https://example.org/${encodeURIComponent(name)}">mehr</a> ✨`,
      ...extra,
    });
  const clothes = await category('Kleidung 👕', 0, {
    display: 'subcategories',
    image: {
      src: imageUrl('kategorie-kleidung.png'),
      alt: 'Kleiderstange 👗',
      name: 'Kleidung – Titelbild',
    },
  });
  const tops = await category('Oberteile', clothes.id, { display: 'both' });
  const tees = await category('T-Shirts 日本', tops.id, { display: 'products' });
  const home = await category('Küche & Haus 🏠', 0);
  const tableware = await category('Geschirr', home.id);
  const mugs = await category('Tassen ☕', tableware.id, {
    image: { src: imageUrl('kategorie-tassen.png'), alt: 'Tassen im Regal', name: 'Tassen' },
  });
  const digital = await category('Digitales 💾', 0, { slug: 'digitales' });
  say('categories: 7 in three levels');

  // Tags: two non-Latin tags each shared by several products.
  const tagMade = await store.post('products/tags', {
    name: '日本製',
    description: 'Made in Japan 🇯🇵',
  });
  const tagEco = await store.post('products/tags', { name: 'Öko 🌱', slug: 'oeko' });
  const tagSale = await store.post('products/tags', { name: 'Ausverkauf %' });

  // Brands: a maker with its own line under it, one with an ampersand and nothing else.
  const potter = await store.post('products/brands', {
    name: 'Töpferei Nord 🏺',
    description:
      '<strong>Handgemacht</strong> in Flensburg – <a href="https://example.org/toepferei">Werkstatt</a> ✨\n\nSeit 1987.',
    display: 'both',
    menu_order: 1,
    image: { src: imageUrl('marke-toepferei.png'), alt: 'Logo der Töpferei 🏺' },
  });
  const sakura = await store.post('products/brands', {
    name: 'Sakura Atelier 桜',
    parent: potter.id,
    description: 'Die <em>Frühlingslinie</em> der Töpferei.',
    display: 'products',
  });
  const glass = await store.post('products/brands', { name: 'Glas & Co' });
  say('brands: 3 (one under another, one with a logo, one bare)');

  const html = (title: string) =>
    `<h2>${title}</h2>\n<p>Ein <strong>wunderbares</strong> Stück – «très chic» 😍. Привет, 世界!</p>\n<ul>\n<li>Pflege: 30 °C</li>\n<li>Größe: M–XL</li>\n</ul>\n<p><a href="https://example.org/pflege">Pflegehinweise</a> &amp; mehr.</p>`;

  // Simple products (some reuse one image: shared images).
  const simple = async (body: Json) =>
    store.post('products', { type: 'simple', status: 'publish', ...body });
  const shared = {
    src: imageUrl('geteilt-becher.png'),
    alt: 'Becher 🍵 – geteilt',
    name: 'Geteiltes Bild „Becher“',
  };
  const mug = await simple({
    name: 'Becher „Sakura“ 🌸',
    sku: 'HARD-MUG-SAKURA',
    regular_price: '12.50',
    sale_price: '9.99',
    date_on_sale_from: '2025-01-01T00:00:00',
    date_on_sale_to: '2031-12-31T23:59:59',
    description: html('Becher „Sakura“'),
    short_description: '<p>Handbemalt – 手描き 🎨</p>',
    categories: [{ id: mugs.id }],
    tags: [{ id: tagMade.id }, { id: tagEco.id }],
    brands: [{ id: sakura.id }],
    images: [
      shared,
      { src: imageUrl('becher-seite.png'), alt: 'Von der Seite', name: 'Seitenansicht' },
    ],
    manage_stock: true,
    stock_quantity: 0,
    backorders: 'notify',
    low_stock_amount: 3,
    weight: '0.35',
    dimensions: { length: '9', width: '9', height: '11.5' },
    shipping_class: 'zerbrechlich',
    tax_status: 'taxable',
    tax_class: 'reduced-rate',
    purchase_note: '<p>Danke! Spülmaschinenfest 🍽️</p>',
    menu_order: 3,
    featured: true,
    date_created: '2024-02-14T09:30:00',
    attributes: [
      { id: material.id, options: ['Хлопок'], visible: true, variation: false, position: 0 },
      {
        name: 'Glasur ✨',
        options: ['Matt', 'Glänzend'],
        visible: true,
        variation: false,
        position: 1,
      },
    ],
    meta_data: meta({
      herkunft: 'Kyoto 京都',
      pflege_json: { spuelmaschine: true, grad: 60 },
      _intern_notiz: 'nur intern',
    }),
  });
  // The mug's first image is used again by other products and variations, stored once.
  const sharedImage = (mug.images as WcRecord[])[0]?.id;
  const teapot = await simple({
    name: 'Teekanne 茶壺',
    sku: 'HARD-TEAPOT',
    regular_price: '39.00',
    sale_price: '29.00',
    date_on_sale_from: '2031-06-01T00:00:00',
    date_on_sale_to: '2031-06-30T23:59:59',
    description: html('Teekanne'),
    categories: [{ id: tableware.id }, { id: mugs.id }],
    tags: [{ id: tagMade.id }],
    brands: [{ id: potter.id }],
    images: [{ id: sharedImage }],
    manage_stock: true,
    stock_quantity: 2,
    backorders: 'yes',
    low_stock_amount: 5,
    catalog_visibility: 'catalog',
    sold_individually: true,
    reviews_allowed: false,
    shipping_class: 'sperrgut',
    meta_data: meta({ 'glasur-farbe': 'Seladon 青磁' }),
  });
  const plate = await simple({
    name: 'Teller Ελληνικά 🍽️',
    sku: 'HARD-PLATE',
    regular_price: '18.00',
    description: html('Teller'),
    categories: [{ id: tableware.id }],
    brands: [{ id: glass.id }],
    tags: [{ id: tagEco.id }, { id: tagSale.id }],
    images: [{ id: sharedImage }],
    catalog_visibility: 'search',
    tax_status: 'shipping',
    stock_status: 'onbackorder',
    weight: '1.2',
  });
  await simple({
    name: 'Löffel (versteckt) 🥄',
    sku: 'HARD-SPOON',
    regular_price: '4.20',
    catalog_visibility: 'hidden',
    tax_status: 'none',
    tax_class: 'zero-rate',
    categories: [{ id: tableware.id }],
    stock_status: 'outofstock',
  });
  await simple({
    name: 'Entwurf: Untersetzer 🚧',
    status: 'draft',
    sku: 'HARD-COASTER-DRAFT',
    regular_price: '3.00',
    categories: [{ id: home.id }],
  });
  await simple({
    name: 'Schale (privat) 🔒',
    status: 'private',
    sku: 'HARD-BOWL-PRIVATE',
    regular_price: '22.00',
    categories: [{ id: tableware.id }],
    upsell_ids: [teapot.id],
    cross_sell_ids: [mug.id, plate.id],
  });
  await simple({
    name: 'Warte auf Prüfung – Krug 🫖',
    status: 'pending',
    sku: 'HARD-JUG-PENDING',
    regular_price: '27.00',
    categories: [{ id: home.id }],
  });
  const doomed = await simple({
    name: 'Ausverkauft – wird gelöscht 🗑️',
    sku: 'HARD-DELETED',
    regular_price: '7.77',
    categories: [{ id: home.id }],
  });
  say('simple products: 8 (sales running and scheduled, backorders, visibilities, statuses)');

  // Digital: downloadable and virtual.
  const ebook = await simple({
    name: 'E-Book „Teezeremonie“ 📖',
    sku: 'HARD-EBOOK',
    regular_price: '9.00',
    virtual: true,
    downloadable: true,
    downloads: [
      { name: 'Teezeremonie (PDF) 茶道', file: 'https://files.example.com/teezeremonie.pdf' },
      { name: 'Bonus – Rezepte', file: 'https://files.example.com/rezepte.zip' },
    ],
    download_limit: 5,
    download_expiry: 30,
    categories: [{ id: digital.id }],
    meta_data: meta({ seiten: '212' }),
  });
  const course = await simple({
    name: 'Online-Kurs: Kalligrafie ✍️',
    sku: 'HARD-COURSE',
    regular_price: '49.00',
    virtual: true,
    categories: [{ id: digital.id }],
    purchase_note: 'Der Link kommt per E-Mail 📧',
  });

  // Variable product with 100 variations (global Farbe × Größe), a descriptive global attribute
  // and a local one, defaults, and variations with their own images, sales, stock and meta.
  const tee = await store.post('products', {
    name: 'T-Shirt 「さくら」 🌸',
    type: 'variable',
    status: 'publish',
    sku: 'HARD-TEE',
    description: html('T-Shirt'),
    short_description: '<p>100 Varianten – <em>alle</em> Farben</p>',
    categories: [{ id: tees.id }, { id: clothes.id }],
    tags: [{ id: tagMade.id }, { id: tagEco.id }],
    images: [
      { src: imageUrl('tshirt-vorne.png'), alt: 'Vorderseite 前', name: 'T-Shirt vorne' },
      { id: sharedImage },
    ],
    weight: '0.2',
    dimensions: { length: '30', width: '20', height: '2' },
    shipping_class: 'sperrgut',
    attributes: [
      { id: colour.id, options: colours, visible: true, variation: true, position: 0 },
      { id: size.id, options: sizes, visible: true, variation: true, position: 1 },
      {
        id: material.id,
        options: ['Хлопок', 'Лён 🌾'],
        visible: false,
        variation: false,
        position: 2,
      },
      {
        name: 'Passform',
        options: ['Schmal', 'Weit'],
        visible: true,
        variation: false,
        position: 3,
      },
    ],
    default_attributes: [
      { id: colour.id, option: colours[1] },
      { id: size.id, option: 'M' },
    ],
    upsell_ids: [mug.id],
    cross_sell_ids: [teapot.id],
    meta_data: meta({ kollektion: 'Frühling 春 2025' }),
  });
  const variationImage = (tee.images as WcRecord[])[0]?.id;
  const variations: Json[] = [];
  for (const [c, colourName] of colours.entries()) {
    for (const [s, sizeName] of sizes.entries()) {
      const n = c * sizes.length + s;
      variations.push({
        sku: `HARD-TEE-${c}-${s}`,
        regular_price: (19 + s).toFixed(2),
        ...(n % 7 === 0 ? { sale_price: (15 + s).toFixed(2) } : {}),
        ...(n % 11 === 0
          ? {
              sale_price: (14 + s).toFixed(2),
              date_on_sale_from: '2031-03-01T00:00:00',
              date_on_sale_to: '2031-03-31T23:59:59',
            }
          : {}),
        ...(n % 5 === 0
          ? {
              manage_stock: true,
              stock_quantity: n % 10,
              backorders: n % 2 ? 'yes' : 'notify',
              low_stock_amount: 2,
            }
          : {}),
        ...(n % 13 === 0 ? { image: { id: n % 2 ? variationImage : sharedImage } } : {}),
        ...(n % 17 === 0 ? { status: 'private' } : {}),
        ...(n % 19 === 0
          ? { tax_class: 'reduced-rate' }
          : n % 23 === 0
            ? { tax_class: 'parent' }
            : {}),
        ...(n % 29 === 0
          ? { weight: '0.25', dimensions: { length: '31', width: '21', height: '3' } }
          : {}),
        ...(n % 31 === 0
          ? { description: `<p>Sonderfarbe ${colourName} – größe ${sizeName} 🎯</p>` }
          : {}),
        ...(n % 37 === 0 ? { shipping_class: 'zerbrechlich' } : {}),
        ...(n % 9 === 0 ? { meta_data: meta({ lieferant: `Nr. ${n} – 工場` }) } : {}),
        menu_order: n,
        attributes: [
          { id: colour.id, option: colourName },
          { id: size.id, option: sizeName },
        ],
      });
    }
  }
  const made = await store.post<{ create: WcRecord[] }>(`products/${tee.id}/variations/batch`, {
    create: variations,
  });
  const failed = made.create.filter((v) => 'error' in v);
  if (failed.length > 0) throw new Error(`variations refused: ${JSON.stringify(failed[0])}`);
  say(`variable product with ${made.create.length} variations`);

  // Variable product varying by a local attribute with a non-Latin name, one variation for "any".
  const jug = await store.post('products', {
    name: 'Kanne mit Füllmenge',
    type: 'variable',
    status: 'publish',
    sku: 'HARD-JUG',
    categories: [{ id: tableware.id }],
    attributes: [
      {
        name: 'Füllmenge',
        options: ['250 ml', '500 ml', '1 l'],
        visible: true,
        variation: true,
        position: 0,
      },
      { id: colour.id, options: colours.slice(0, 2), visible: true, variation: true, position: 1 },
    ],
    default_attributes: [{ name: 'Füllmenge', option: '500 ml' }],
  });
  const jugVariations = await store.post<{ create: WcRecord[] }>(
    `products/${jug.id}/variations/batch`,
    {
      create: [
        {
          sku: 'HARD-JUG-250',
          regular_price: '15.00',
          attributes: [
            { name: 'Füllmenge', option: '250 ml' },
            { id: colour.id, option: colours[0] },
          ],
          virtual: true,
          downloadable: true,
          downloads: [{ name: 'Anleitung 説明書', file: 'https://files.example.com/kanne.pdf' }],
          download_limit: 2,
          download_expiry: 7,
        },
        {
          sku: 'HARD-JUG-500',
          regular_price: '18.00',
          attributes: [{ name: 'Füllmenge', option: '500 ml' }],
          meta_data: meta({ hinweis: 'Jede Farbe – любой цвет' }),
        },
        {
          sku: 'HARD-JUG-1L',
          regular_price: '22.00',
          status: 'private',
          attributes: [
            { name: 'Füllmenge', option: '1 l' },
            { id: colour.id, option: colours[1] },
          ],
        },
      ],
    },
  );
  if (jugVariations.create.some((v) => 'error' in v))
    throw new Error(`variations refused: ${JSON.stringify(jugVariations.create)}`);

  // Grouped and external products.
  await store.post('products', {
    name: 'Teeset (Gruppe) 🍵',
    type: 'grouped',
    status: 'publish',
    sku: 'HARD-TEASET',
    grouped_products: [mug.id, teapot.id, plate.id],
    categories: [{ id: home.id }],
    description: html('Teeset'),
  });
  await store.post('products', {
    name: 'Poster bei Partner 🖼️',
    type: 'external',
    status: 'publish',
    sku: 'HARD-POSTER',
    external_url: 'https://partner.example.com/poster?ref=ü',
    button_text: 'Beim Partner kaufen →',
    regular_price: '25.00',
    sale_price: '20.00',
    categories: [{ id: home.id }],
    images: [{ id: sharedImage }],
  });
  say('grouped, external, downloadable, virtual products');

  // Coupons (used on orders).
  await store.post('coupons', {
    code: 'frühling10',
    discount_type: 'percent',
    amount: '10',
    description: 'Frühling – 10 % 🌷',
  });
  await store.post('coupons', { code: 'fix5', discount_type: 'fixed_cart', amount: '5.00' });
  // Coupons of every kind with the limits and restrictions a migration must keep: a code in
  // capitals (WooCommerce keeps it lower case), an expiry, spend and usage limits, product and
  // category restrictions and exclusions, e-mail patterns, a draft, custom meta.
  await store.post('coupons', {
    code: 'TASSEN-2€',
    discount_type: 'fixed_product',
    amount: '2.00',
    description: 'Zwei Euro auf jede Tasse ☕ – 最大3個',
    product_categories: [mugs.id],
    excluded_product_ids: [teapot.id],
    limit_usage_to_x_items: 3,
    exclude_sale_items: true,
    date_expires: '2031-12-31T23:59:59+01:00',
    meta_data: meta({ kampagne: 'Winter ❄️', regeln: { kanal: 'newsletter', stufe: 2 } }),
  });
  await store.post('coupons', {
    code: 'versandfrei',
    discount_type: 'fixed_cart',
    amount: '0',
    free_shipping: true,
    minimum_amount: '49.90',
    maximum_amount: '500',
    individual_use: true,
    excluded_product_categories: [digital.id],
  });
  await store.post('coupons', {
    code: 'personal-15',
    discount_type: 'percent',
    amount: '15',
    description: 'Nur für das Team und Yuki',
    product_ids: [mug.id, plate.id],
    email_restrictions: ['*@team.example.jp', 'Yuki.Billing@example.com'],
    usage_limit: 20,
    usage_limit_per_user: 1,
    status: 'draft',
  });

  // Customers with non-Latin names; addresses differ; one without a shipping address, one with
  // a shipping phone, one with an empty billing e-mail.
  const customer = async (i: number, body: Json) =>
    store.post('customers', {
      password: `Pw-${i}-hard-store!`,
      meta_data: meta({ kundennummer: `K-${1000 + i}`, vorlieben: { tee: 'grün', zucker: false } }),
      ...body,
    });
  const address = (
    first: string,
    last: string,
    city: string,
    country: string,
    extra: Json = {},
  ) => ({
    first_name: first,
    last_name: last,
    company: '',
    address_1: `${city}straße 1`,
    address_2: '',
    city,
    state: '',
    postcode: '10115',
    country,
    ...extra,
  });
  const yuki = await customer(1, {
    email: 'yuki.tanaka@example.com',
    first_name: '由紀',
    last_name: '田中',
    username: 'yuki.tanaka',
    billing: address('由紀', '田中', '東京', 'JP', {
      email: 'yuki.billing@example.com',
      phone: '+81 3 1234 5678',
      company: '株式会社 茶 🍵',
    }),
    shipping: address('由紀', '田中', '大阪', 'JP', { phone: '+81 6 9876 5432' }),
  });
  const olga = await customer(2, {
    email: 'olga.ivanova@example.com',
    first_name: 'Ольга',
    last_name: 'Иванова',
    username: 'olga.ivanova',
    billing: address('Ольга', 'Иванова', 'Москва', 'RU', {
      email: 'olga.ivanova@example.com',
      phone: '+7 495 000 00 00',
    }),
    shipping: address('Ольга', 'Иванова', 'Москва', 'RU'),
  });
  const nikos = await customer(3, {
    email: 'nikos@example.com',
    first_name: 'Νίκος',
    last_name: 'Παπαδόπουλος 😀',
    username: 'nikos',
    billing: address('Νίκος', 'Παπαδόπουλος', 'Αθήνα', 'GR'),
  });
  const amira = await customer(4, {
    email: 'amira@example.com',
    first_name: 'أميرة',
    last_name: 'حداد',
    username: 'amira',
    billing: address('أميرة', 'حداد', 'Berlin', 'DE', {
      email: 'amira@example.com',
      phone: '030 123456',
    }),
    shipping: address('Jörg', 'Müller', 'München', 'DE', { company: 'Müller & Söhne 🏭' }),
  });
  const zoe = await customer(5, {
    email: 'zoe.lefevre@example.com',
    first_name: 'Zoë',
    last_name: 'Lefèvre',
    username: 'zoe.lefevre',
    billing: address('Zoë', 'Lefèvre', 'Paris', 'FR', {
      email: 'zoe.lefevre@example.com',
      phone: '+33 1 23 45 67 89',
    }),
    shipping: address('Zoë', 'Lefèvre', 'Lyon', 'FR'),
  });
  say('customers: 5');

  // Orders. Lines refer to products, variations and the product deleted afterwards.
  const teeVariation = (n: number) => made.create[n] as WcRecord;
  const lineOf = (product: WcRecord, quantity: number, extra: Json = {}) => ({
    product_id: product.parent_id ? product.parent_id : product.id,
    ...(product.parent_id ? { variation_id: product.id } : {}),
    quantity,
    ...extra,
  });
  // An order refuses an empty billing e-mail (a customer account keeps one): it is left out.
  const partyOf = (c: WcRecord) => {
    const { email, ...billing } = c.billing as Json;
    return {
      customer_id: c.id,
      billing: email ? { ...billing, email } : billing,
      shipping: c.shipping,
    };
  };
  const guest = (first: string, last: string, email: string) => ({
    customer_id: 0,
    billing: address(first, last, 'Wien', 'AT', { email, phone: '+43 1 000' }),
    shipping: address(first, last, 'Graz', 'AT'),
  });
  const flat = { method_id: 'flat_rate', method_title: 'Versand – Standard 🚚', total: '7.00' };
  const order = async (body: Json) =>
    store.post('orders', {
      payment_method: 'bacs',
      payment_method_title: 'Überweisung 🏦',
      shipping_lines: [flat],
      ...body,
    });
  const refund = (id: number, body: Json) =>
    store.post(`orders/${id}/refunds`, { api_refund: false, ...body });
  // A note added "by user" is signed with the key's user (admin); otherwise by WooCommerce.
  const note = (id: number, text: string, customer_note: boolean, added_by_user = false) =>
    store.post(`orders/${id}/notes`, { note: text, customer_note, added_by_user });

  const o1 = await order({
    ...partyOf(yuki),
    status: 'completed',
    set_paid: true,
    payment_method: 'stripe',
    payment_method_title: 'Kreditkarte (Stripe) 💳',
    transaction_id: 'ch_hard_0001',
    line_items: [lineOf(mug, 2), lineOf(teeVariation(12), 1), lineOf(teeVariation(55), 3)],
    coupon_lines: [{ code: 'frühling10' }],
    fee_lines: [
      { name: 'Geschenkverpackung 🎁', total: '4.00', tax_status: 'none' },
      { name: 'Treuerabatt – 忠誠', total: '-2.50', tax_status: 'none' },
    ],
    customer_note: 'Bitte klingeln 🔔 – ベルを鳴らしてください',
    meta_data: meta({
      geschenk: 'ja',
      _intern: 'Lager B',
      lieferfenster: { von: '09:00', bis: '12:00' },
    }),
  });
  await note(o1.id, 'Kunde rief an: Lieferung nach 18 Uhr 📞', false, true);
  await note(o1.id, 'Ihre Bestellung wurde verpackt 📦 – 梱包済み', true);
  const o1lines = o1.line_items as WcRecord[];
  await refund(o1.id, {
    amount: '5.00',
    reason: 'Verspätung – Kulanz 🙏',
  });
  await refund(o1.id, {
    amount: (Number(o1lines[0]?.total) / 2).toFixed(2),
    reason: 'Ein Becher zerbrochen 💔',
    line_items: [
      { id: o1lines[0]?.id, quantity: 1, refund_total: (Number(o1lines[0]?.total) / 2).toFixed(2) },
    ],
  });

  const o2 = await order({
    ...guest('Jürgen', 'Öztürk', 'juergen.guest@example.net'),
    status: 'processing',
    set_paid: true,
    line_items: [
      lineOf(doomed, 1),
      lineOf(plate, 2, { meta_data: meta({ Gravur: 'Für Oma ❤️' }) }),
    ],
    coupon_lines: [{ code: 'fix5' }],
  });
  await note(o2.id, 'Gast-Bestellung geprüft ✅', false);

  const o3 = await order({
    ...partyOf(olga),
    currency: 'EUR',
    status: 'completed',
    set_paid: true,
    line_items: [lineOf(teapot, 1), lineOf(ebook, 1)],
    shipping_lines: [
      { method_id: 'flat_rate', method_title: 'Международная доставка', total: '30.00' },
    ],
    meta_data: meta({ waehrung_hinweis: 'Bezahlt in EUR €' }),
  });
  const o4 = await order({
    ...partyOf(nikos),
    status: 'completed',
    set_paid: true,
    payment_method: 'cod',
    payment_method_title: 'Nachnahme',
    line_items: [lineOf(teeVariation(99), 2), lineOf(course, 1)],
  });
  await refund(o4.id, {
    amount: o4.total as string,
    reason: 'Alles zurückgeschickt ↩️ – επιστροφή',
    line_items: (o4.line_items as WcRecord[]).map((l) => ({
      id: l.id,
      quantity: l.quantity,
      refund_total: l.total,
    })),
  });
  const o5 = await order({
    ...partyOf(amira),
    status: 'on-hold',
    line_items: [lineOf(jugVariations.create[0] as WcRecord, 1), lineOf(teeVariation(40), 1)],
    fee_lines: [{ name: 'Expresszuschlag ⚡', total: '9.90', tax_status: 'none' }],
  });
  await note(o5.id, 'Warte auf Zahlungseingang ⏳', false);
  const o6 = await order({
    ...partyOf(zoe),
    status: 'pending',
    line_items: [lineOf(mug, 1)],
    payment_method: 'cheque',
    payment_method_title: 'Scheck ✉️',
  });
  const o7 = await order({
    ...guest('Siobhán', 'Ní Bhriain', 'siobhan@example.net'),
    status: 'cancelled',
    line_items: [lineOf(plate, 1)],
    customer_note: 'Storniert – sorry 😅',
  });
  const o8 = await order({
    ...partyOf(yuki),
    status: 'failed',
    line_items: [lineOf(teeVariation(3), 1)],
    payment_method: 'stripe',
    payment_method_title: 'Kreditkarte (Stripe) 💳',
  });
  const o9 = await order({
    ...partyOf(olga),
    status: 'completed',
    set_paid: true,
    line_items: [lineOf(teeVariation(20), 4), lineOf(mug, 1), lineOf(ebook, 1)],
    fee_lines: [{ name: 'Geschenkverpackung 🎁', total: '4.00', tax_status: 'none' }],
    coupon_lines: [{ code: 'fix5' }],
  });
  const o9lines = o9.line_items as WcRecord[];
  await refund(o9.id, {
    amount: (Number(o9lines[0]?.total) / 4).toFixed(2),
    reason: 'Ein Shirt zu klein 👕',
    line_items: [
      { id: o9lines[0]?.id, quantity: 1, refund_total: (Number(o9lines[0]?.total) / 4).toFixed(2) },
    ],
  });
  await refund(o9.id, { amount: '4.00', reason: '' });
  await refund(o9.id, {
    amount: o9lines[2]?.total as string,
    reason: 'E-Book nicht geöffnet 📕',
    line_items: [{ id: o9lines[2]?.id, quantity: 1, refund_total: o9lines[2]?.total }],
  });
  await note(o9.id, 'Drei Erstattungen – 三回の返金', false, true);
  const o10 = await order({
    ...partyOf(amira),
    status: 'processing',
    set_paid: true,
    payment_method: 'ppcp-gateway',
    payment_method_title: 'PayPal',
    transaction_id: 'PAY-HARD-0010',
    line_items: [lineOf(teeVariation(77), 1), lineOf(jugVariations.create[1] as WcRecord, 2)],
    shipping_lines: [
      { method_id: 'free_shipping', method_title: 'Kostenloser Versand', total: '0.00' },
    ],
  });

  // The product on order 2 is deleted afterwards: its line keeps name, SKU and price only.
  await store.call('DELETE', `products/${doomed.id}?force=true`);
  say(
    `orders: 10 (${[o1, o2, o3, o4, o5, o6, o7, o8, o9, o10].map((o) => o.status).join(', ')}), refunds on 3, a line whose product was deleted`,
  );

  // Product reviews in every status, after the orders (WooCommerce marks a review verified when it
  // first answers it, from the paid orders of its reviewer's address): a buyer, a guest without
  // an address, HTML with paragraphs and a link, a name with markup characters, an address in
  // capitals, a review verified by an earlier store, the 100-variation tee, non-Latin text,
  // a rejected one in the bin, spam, and one given without stars.
  const reviewed = await store.batch('products/reviews/batch', {
    create: [
      {
        product_id: mug.id,
        reviewer: 'Yuki Tanaka',
        reviewer_email: 'yuki.billing@example.com',
        review: '毎朝使っています。とても良いマグです ☕',
        rating: 5,
        date_created_gmt: '2025-03-02T08:30:00',
      },
      {
        product_id: mug.id,
        reviewer: 'Gast 👤',
        reviewer_email: '',
        review: 'Etwas klein.\n\nAber hübsch 🌸',
        rating: 3,
        status: 'hold',
        date_created_gmt: '2025-03-05T19:45:10',
      },
      {
        product_id: teapot.id,
        reviewer: 'Tom & Jerry',
        reviewer_email: 'Tom.Jerry@Example.COM',
        review:
          '<p>Hält den Tee <strong>lange</strong> warm &amp; tropft nicht.</p>\n<p>Anleitung: <a href="https://example.org/tee">hier</a>.</p>',
        rating: 4,
        date_created_gmt: '2024-11-30T23:59:59',
      },
      {
        product_id: plate.id,
        reviewer: 'Ольга',
        reviewer_email: 'olga.ivanova@example.com',
        review: 'Пришла разбитой. 💔',
        rating: 1,
        status: 'trash',
        date_created_gmt: '2025-01-15T12:00:00',
      },
      {
        product_id: plate.id,
        reviewer: 'Billig Uhren',
        reviewer_email: 'angebote@spam.example.com',
        review: 'Beste Preise!!! <a href="https://spam.example.com/">klick</a>',
        rating: 5,
        status: 'spam',
        date_created_gmt: '2025-02-01T03:33:00',
      },
      {
        product_id: tee.id,
        reviewer: 'Amira',
        reviewer_email: 'amira@example.com',
        review: 'مقاس ممتاز — passt perfekt in L.',
        rating: 4,
        verified: true,
        date_created_gmt: '2025-04-01T10:00:00',
      },
      {
        // Given without stars: a store that does not require ratings keeps 0.
        product_id: teapot.id,
        reviewer: 'Noor',
        reviewer_email: 'noor@example.com',
        review: 'Schöne Farbe, Deckel etwas locker.',
        rating: 0,
        date_created_gmt: '2025-04-02T09:15:00',
      },
    ],
  });
  say(
    `reviews: ${reviewed.length} (approved, held, in the bin, spam; one verified buyer, one without stars)`,
  );

  await seedContent(wp, imageUrl, say);

  await store.post('coupons', {
    code: COMPLETE,
    discount_type: 'fixed_cart',
    amount: '0',
    description: 'Marks a store completely seeded by scripts/seed-woocommerce-store.ts',
    date_expires: '2000-01-01T00:00:00',
  });
  return log;
}

async function main(): Promise<void> {
  const path = process.argv[2];
  if (!path) {
    console.error('usage: node scripts/seed-woocommerce-store.ts <store.json>');
    process.exit(2);
  }
  const file = JSON.parse(readFileSync(path, 'utf8')) as StoreFile;
  const store = new WooRest({
    url: file.url_https.replace(/\/+$/, ''),
    credentials: {
      storeUrl: file.url_https,
      consumerKey: file.consumer_key,
      consumerSecret: file.consumer_secret,
    },
    ca: readFileSync(file.ca_cert, 'utf8'),
  });
  try {
    const marker = await store.get<unknown[]>(`coupons?code=${COMPLETE}`);
    if (marker.length > 0) {
      console.log(`${file.url_https} already holds the hard data`);
      return;
    }
    const products = await store.total('products?per_page=1&status=any');
    if (products > 0) {
      console.error(
        `${file.url_https} already holds ${products} products but not the complete hard data: seed an empty store`,
      );
      process.exit(1);
    }
    const { server, url } = await imageServer();
    try {
      const started = Date.now();
      // Pages and posts are WordPress's: an application password made as an owner makes one.
      const wp = new WooRest(await withWordPress(loadStore(path)), 'wp/v2');
      try {
        await seed(store, wp, url);
      } finally {
        await wp.close();
      }
      console.log(`seeded ${file.url_https} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    } finally {
      server.close();
    }
  } finally {
    await store.close();
  }
}

await main();
