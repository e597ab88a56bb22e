import { entityTypes, type EntityType } from '@replatform/canonical/entities';
import { customerMarkers } from '@replatform/connectors/woocommerce/markers';
import { refusedByWooCommerce } from '@replatform/connectors/woocommerce/real-store/assigned';
import { termOrderedOptions } from '@replatform/connectors/woocommerce/real-store/native';
import type {
  NativeEntity,
  NativeRecord,
  NativeSnapshot,
} from '@replatform/connectors/woocommerce/real-store/native';

/**
 * Compares two WooCommerce stores field by field on WooCommerce's own fields (the records as its
 * REST API answers them), after a migration from one into the other. Independent of what any
 * connector declares: every field is compared unless the rules below say WooCommerce assigns it
 * itself, so a field the migration dropped cannot hide behind a declaration.
 *
 * - internal: the store's own bookkeeping, never the merchant's data (ids, stamps of the last
 *   change, order keys, links to its own copies): left out, each with its reason.
 * - refused: the merchant's data that WooCommerce will not take through its API and replaces with
 *   its own (order numbers, creation dates it stamps): compared, and a difference is expected
 *   only where the run's report names it for that record.
 * - ref: an id of another record, compared as the source id it stands for (destination ids are
 *   mapped back through the migration's id map, variations by SKU or options, attributes by
 *   slug, order lines by position).
 * - key: list items matched by a natural key instead of by position.
 *
 * Both stores' addresses in any text are replaced by `{store}`, and uploads folders (dated by
 * month) by `{uploads}`, so links and image files compare by what they point at.
 */

export type RefKind =
  | 'categories'
  | 'brands'
  | 'products'
  | 'customers'
  | 'orders'
  | 'variations'
  | 'attributes'
  | 'orderLines'
  | 'pages'
  | 'posts'
  | 'media'
  | 'postCategories'
  | 'postTags';

export interface Rule {
  internal?: string;
  refused?: string;
  /** Names the run's report may give a refused field (canonical fields), besides its own path. */
  reportAs?: readonly string[];
  ref?: RefKind;
  key?: (item: unknown) => string;
  /** Items only the destination holds that WooCommerce adds itself (its own order notes). */
  added?: { test: (item: unknown) => boolean; refused: string; reportAs: readonly string[] };
  /** List order carries no meaning: items are sorted before they are compared by position. */
  unordered?: boolean;
  /**
   * A link that names a product by id (a draft's permalink, `?post_type=product&p=19`): the id
   * is compared as the source id it stands for.
   */
  linksTo?: RefKind;
  /** Meta entries whose value is an id: the entry's key, and what the id names. */
  valueRef?: { key: string; kind: RefKind };
  /** Items only the destination holds that the migration itself keeps there, with why. */
  ours?: { test: (item: unknown) => boolean; reason: string };
  /** Brings an object to the form its store defines it by, on both sides, before comparing. */
  normalise?: (item: Json) => Json;
}

export type Rules = Readonly<Record<string, Rule>>;

export interface Difference {
  entity: NativeEntity;
  /** Source id of the record (slug or file name for terms and media), '' for the store. */
  record: string;
  /** The record's name, for people reading the list. */
  label: string;
  /** Concrete path: `variations[HARD-TEE-1-2].sale_price`, `line_items[0].total`. */
  field: string;
  /** The rule path it falls under: `variations[].sale_price`. */
  rulePath: string;
  source: unknown;
  destination: unknown;
  /** Set for a refused field: why WooCommerce differs, and the names the report may give it. */
  refused?: { reason: string; reportAs: readonly string[] };
  /**
   * The destination's own record, which the migration linked and left as it was (a WordPress
   * page every store is installed with): it differs where the two stores' own copies do.
   */
  linked?: boolean;
}

export interface EntityFigures {
  records: number;
  /** Field values compared (leaves, list lengths and list items matched by key). */
  compared: number;
  equal: number;
}

export interface StoreComparison {
  differences: Difference[];
  figures: Record<NativeEntity, EntityFigures>;
}

/** Destination id -> source id, per kind of record, from the migration's id map. */
export type IdMaps = Record<EntityType, Map<string, string>>;

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

const blank = (v: unknown) => v === null || v === undefined || v === '';

const str = (v: unknown) => (v === null || v === undefined ? '' : String(v));

/** A meta_data list keyed by meta key (a key repeated gets its occurrence number). */
const metaKey = (item: unknown) => (isObject(item) ? str(item.key) : str(item));

/** Options of a variation: 'Farbe=Rot|Größe=M'. */
const variationOptions = (item: Json) =>
  (Array.isArray(item.attributes) ? item.attributes : [])
    .map((a) => (isObject(a) ? `${str(a.name)}=${str(a.option)}` : ''))
    .join('|');

/** A variation's natural key: its SKU, else its options. */
export const variationKey = (item: unknown) =>
  isObject(item) ? (str(item.sku) !== '' ? str(item.sku) : variationOptions(item)) : str(item);

const noteKey = (item: unknown) =>
  isObject(item) ? `${item.customer_note ? 'customer' : 'private'}: ${str(item.note)}` : str(item);

const slugKey = (item: unknown) => (isObject(item) ? str(item.slug) : str(item));

const internalId = 'WooCommerce numbers its records itself; the id map links them';
const modified = 'the time of the last change, stamped by WooCommerce on every save';
const itemId = 'WooCommerce numbers order items itself';
const metaId = 'WooCommerce numbers meta entries itself';
const mediaCopy =
  'the destination’s own copy of the image (its media id and upload time); the file, title and alt are compared';

const imageRules = (at: string): Record<string, Rule> => ({
  [`${at}.id`]: { internal: mediaCopy },
  [`${at}.date_created`]: { internal: mediaCopy },
  [`${at}.date_created_gmt`]: { internal: mediaCopy },
  [`${at}.date_modified`]: { internal: mediaCopy },
  [`${at}.date_modified_gmt`]: { internal: mediaCopy },
});

const markers =
  'the migration’s own markers (`_replatform_*` meta, and on customers `replatform_source_id` and `replatform_hash`, since WooCommerce’s customers route neither takes nor answers meta keys with a leading underscore: the source id and content hash that find a record again on a later run, and what it converted)';
const isMarker = (item: unknown) => isObject(item) && str(item.key).startsWith('_replatform_');
const customerMarkerKeys: readonly string[] = Object.values(customerMarkers);
const isCustomerMarker = (item: unknown) =>
  isMarker(item) || (isObject(item) && customerMarkerKeys.includes(str(item.key)));

const metaRules = (at: string, ours = isMarker): Record<string, Rule> => ({
  [at]: { key: metaKey, ours: { test: ours, reason: markers } },
  [`${at}[].id`]: { internal: metaId },
});

const lineRules = (at: string): Record<string, Rule> => ({
  [`${at}[].id`]: { internal: itemId },
  ...metaRules(`${at}[].meta_data`),
});

/** WordPress's own of a page or post (wp/v2, edit context). */
const contentRules = (kind: 'pages' | 'posts'): Rules => ({
  id: { internal: internalId },
  guid: {
    internal: 'WordPress’s own permanent name of the record, made of its id when it is created',
  },
  modified: { internal: modified },
  link: { linksTo: kind },
  class_list: {
    internal: 'classes WordPress derives for themes from the record’s id, type, status and terms',
  },
  // The file the featured image shows, compared by the media library's own rules.
  featured_media: { ref: 'media' },
  ...(kind === 'pages' ? { parent: { ref: 'pages' } } : {}),
});

/** What WooCommerce assigns itself, per entity (see the file comment). */
const ownRules: Record<NativeEntity, Rules> = {
  categories: {
    id: { internal: internalId },
    parent: { ref: 'categories' },
    ...imageRules('image'),
  },
  brands: {
    id: { internal: internalId },
    parent: { ref: 'brands' },
    ...imageRules('image'),
  },
  tags: { id: { internal: internalId } },
  attributes: {
    id: { internal: internalId },
    terms: { key: slugKey },
    'terms[].id': { internal: internalId },
  },
  products: {
    id: { internal: internalId },
    date_modified: { internal: modified },
    date_modified_gmt: { internal: modified },
    related_ids: { internal: 'products WooCommerce picks at random to show as related' },
    permalink: { linksTo: 'products' },
    categories: { unordered: true },
    'categories[].id': { ref: 'categories' },
    tags: { key: slugKey },
    'tags[].id': { internal: internalId },
    brands: { key: slugKey },
    'brands[].id': { internal: internalId },
    'attributes[]': { normalise: termOrderedOptions },
    'attributes[].id': { ref: 'attributes' },
    'default_attributes[].id': { ref: 'attributes' },
    shipping_class_id: { internal: 'the id of the shipping class named by shipping_class' },
    ...imageRules('images[]'),
    upsell_ids: { ref: 'products', unordered: true },
    cross_sell_ids: { ref: 'products', unordered: true },
    grouped_products: { ref: 'products' },
    parent_id: { ref: 'products' },
    ...metaRules('meta_data'),
    variations: { key: variationKey },
    'variations[].id': { internal: internalId },
    'variations[].parent_id': { ref: 'products' },
    'variations[].permalink': { linksTo: 'products' },
    'variations[].date_modified': { internal: modified },
    'variations[].shipping_class_id': {
      internal: 'the id of the shipping class named by shipping_class',
    },
    'variations[].attributes[].id': { ref: 'attributes' },
    ...imageRules('variations[].image'),
    ...metaRules('variations[].meta_data'),
  },
  coupons: {
    id: { internal: internalId },
    date_modified: { internal: modified },
    date_modified_gmt: { internal: modified },
    product_ids: { ref: 'products', unordered: true },
    excluded_product_ids: { ref: 'products', unordered: true },
    product_categories: { ref: 'categories', unordered: true },
    excluded_product_categories: { ref: 'categories', unordered: true },
    email_restrictions: { unordered: true },
    ...metaRules('meta_data'),
  },
  customers: {
    id: { internal: internalId },
    date_modified: { internal: modified },
    date_modified_gmt: { internal: modified },
    ...metaRules('meta_data', isCustomerMarker),
  },
  orders: {
    id: { internal: internalId },
    order_key: { internal: 'a random key WooCommerce makes for each order’s payment links' },
    payment_url: { internal: 'a link made of the order’s own id and key' },
    cart_hash: { internal: 'a fingerprint of a shopper’s cart at checkout' },
    date_modified: { internal: modified },
    date_modified_gmt: { internal: modified },
    customer_id: { ref: 'customers' },
    ...metaRules('meta_data'),
    ...lineRules('line_items'),
    'line_items[].product_id': { ref: 'products' },
    'line_items[].variation_id': { ref: 'variations' },
    ...imageRules('line_items[].image'),
    ...lineRules('shipping_lines'),
    ...lineRules('fee_lines'),
    ...lineRules('coupon_lines'),
    ...lineRules('tax_lines'),
    'refunds[].id': { internal: internalId },
    ...metaRules('refunds[].meta_data'),
    ...lineRules('refunds[].line_items'),
    // A refunded line names the order line it gives back.
    'refunds[].line_items[].meta_data[]': {
      valueRef: { key: '_refunded_item_id', kind: 'orderLines' },
    },
    'refunds[].line_items[].product_id': { ref: 'products' },
    'refunds[].line_items[].variation_id': { ref: 'variations' },
    ...imageRules('refunds[].line_items[].image'),
    ...lineRules('refunds[].shipping_lines'),
    ...lineRules('refunds[].fee_lines'),
    ...lineRules('refunds[].tax_lines'),
    notes: {
      key: noteKey,
      added: {
        test: (note) => isObject(note) && note.author === 'WooCommerce',
        refused:
          'WooCommerce writes its own notes on the orders a migration creates (status changes, e-mails)',
        reportAs: ['notes'],
      },
    },
    'notes[].id': { internal: internalId },
  },
  reviews: {
    id: { internal: internalId },
    product_id: { ref: 'products' },
    product_permalink: { linksTo: 'products' },
  },
  pages: contentRules('pages'),
  posts: {
    ...contentRules('posts'),
    categories: { ref: 'postCategories', unordered: true },
    tags: { ref: 'postTags', unordered: true },
  },
  postCategories: {
    id: { internal: internalId },
    parent: { ref: 'postCategories' },
  },
  postTags: { id: { internal: internalId } },
  media: {
    id: { internal: mediaCopy },
    post: {
      internal:
        'the record WordPress lists the file as uploaded to; each product’s images are compared on the product',
    },
  },
};

/**
 * Amounts and measures WooCommerce keeps as the text it was given ("15" or "15.00"): compared as
 * numbers when both sides are numbers.
 */
const numericFields = new Set([
  'price',
  'regular_price',
  'sale_price',
  'total',
  'subtotal',
  'total_tax',
  'subtotal_tax',
  'discount',
  'discount_tax',
  'discount_total',
  'shipping_total',
  'shipping_tax',
  'cart_tax',
  'amount',
  'weight',
  'length',
  'width',
  'height',
]);

const asNumber = (v: unknown) =>
  typeof v === 'number' || (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v))
    ? Number(v)
    : undefined;

/** The rule for a path; a `_gmt` twin of a date follows the date's rule. */
function ruleAt(rules: Rules, path: string): Rule | undefined {
  return rules[path] ?? (path.endsWith('_gmt') ? rules[path.slice(0, -4)] : undefined);
}

/** The markers the migration keeps at the destination, for printing what was left out. */
export const migrationMarkers = markers;

/** The rules: WooCommerce's own bookkeeping, and what it refuses to take (assigned.ts). */
export const wooCommerceRules: Record<NativeEntity, Rules> = Object.fromEntries(
  Object.entries(ownRules).map(([entity, rules]) => [
    entity,
    {
      ...rules,
      ...Object.fromEntries(
        Object.entries(refusedByWooCommerce[entity as keyof typeof refusedByWooCommerce] ?? {}).map(
          ([path, field]) => [path, { refused: field.reason, reportAs: field.reportAs }],
        ),
      ),
    },
  ]),
) as Record<NativeEntity, Rules>;

/** The internal rules, for printing what was left out and why. */
export function internalFields(): { entity: NativeEntity; field: string; reason: string }[] {
  return Object.entries(wooCommerceRules).flatMap(([entity, rules]) =>
    Object.entries(rules).flatMap(([field, rule]) =>
      rule.internal ? [{ entity: entity as NativeEntity, field, reason: rule.internal }] : [],
    ),
  );
}

interface Side {
  origin: string;
  /** Id of a record of a kind, as the source id it stands for. */
  ref(kind: RefKind, id: string, root: Json): string;
}

/** What a media item is compared on: the file and what a merchant gave it. */
function mediaView(item: NativeRecord): NativeRecord {
  const details = isObject(item.media_details) ? item.media_details : {};
  const rendered = (v: unknown) => (isObject(v) ? v.rendered : v);
  return {
    id: item.id,
    file: str(item.source_url).split('/').pop() ?? '',
    title: rendered(item.title),
    caption: rendered(item.caption),
    alt_text: item.alt_text,
    mime_type: item.mime_type,
    media_type: item.media_type,
    width: details.width,
    height: details.height,
    filesize: details.filesize,
    author: item.author,
    post: item.post,
  };
}

function normaliseText(text: string, origin: string): string {
  return text
    .replaceAll(origin, '{store}')
    .replace(/\{store\}\/wp-content\/uploads\/\d{4}\/\d{2}\//g, '{uploads}/');
}

class Comparer {
  readonly differences: Difference[] = [];
  readonly figures = {} as Record<NativeEntity, EntityFigures>;
  readonly #source: Side;
  readonly #destination: Side;

  constructor(source: Side, destination: Side) {
    this.#source = source;
    this.#destination = destination;
  }

  figuresOf(entity: NativeEntity): EntityFigures {
    this.figures[entity] ??= { records: 0, compared: 0, equal: 0 };
    return this.figures[entity];
  }

  record(
    entity: NativeEntity,
    id: string,
    label: string,
    a: Json | undefined,
    b: Json | undefined,
  ) {
    const figures = this.figuresOf(entity);
    figures.records += 1;
    const at = { entity, record: id, label, rules: wooCommerceRules[entity] };
    if (!a || !b) {
      figures.compared += 1;
      this.differences.push({
        entity,
        record: id,
        label,
        field: '(record)',
        rulePath: '(record)',
        source: a ? 'present' : 'absent',
        destination: b ? 'present' : 'absent',
      });
      return;
    }
    this.#walk(at, a, b, '', '', a, b, undefined);
  }

  #leaf(
    at: { entity: NativeEntity; record: string; label: string },
    field: string,
    rulePath: string,
    a: unknown,
    b: unknown,
    rule: Rule | undefined,
  ) {
    const figures = this.figuresOf(at.entity);
    figures.compared += 1;
    const leafName = field.slice(field.lastIndexOf('.') + 1);
    const numeric =
      numericFields.has(leafName) && asNumber(a) !== undefined && asNumber(a) === asNumber(b);
    if (numeric || JSON.stringify(a) === JSON.stringify(b)) {
      figures.equal += 1;
      return;
    }
    this.differences.push({
      ...at,
      field: field || '(record)',
      rulePath: rulePath || '(record)',
      source: a,
      destination: b,
      // A value the source did not have is never WooCommerce refusing the source's value: it
      // was made up on the way (an order marked paid that never was).
      ...(rule?.refused && !blank(a)
        ? { refused: { reason: rule.refused, reportAs: rule.reportAs ?? [] } }
        : {}),
    });
  }

  #walk(
    at: { entity: NativeEntity; record: string; label: string; rules: Rules },
    a: unknown,
    b: unknown,
    field: string,
    rulePath: string,
    rootA: Json,
    rootB: Json,
    inherited: Rule | undefined,
  ) {
    const rule = (rulePath ? ruleAt(at.rules, rulePath) : undefined) ?? inherited;
    if (rule?.internal) return;
    if (Array.isArray(a) && Array.isArray(b)) {
      this.#list(at, a, b, field, rulePath, rootA, rootB, rule);
      return;
    }
    if (isObject(a) && isObject(b)) {
      let left = rule?.normalise ? rule.normalise(a) : a;
      let right = rule?.normalise ? rule.normalise(b) : b;
      const valueRef = rule?.valueRef;
      if (valueRef && left.key === valueRef.key && right.key === valueRef.key) {
        const mapped = (item: Json, side: Side, root: Json) => ({
          ...item,
          value: side.ref(valueRef.kind, str(item.value), root),
          display_value: side.ref(valueRef.kind, str(item.display_value), root),
        });
        left = mapped(left, this.#source, rootA);
        right = mapped(right, this.#destination, rootB);
      }
      for (const key of new Set([...Object.keys(left), ...Object.keys(right)])) {
        const path = rulePath ? `${rulePath}.${key}` : key;
        this.#walk(
          at,
          left[key],
          right[key],
          field ? `${field}.${key}` : key,
          path,
          rootA,
          rootB,
          ruleAt(at.rules, path) ? undefined : rule?.refused ? rule : undefined,
        );
      }
      return;
    }
    const value = (v: unknown, side: Side, root: Json) => {
      const linksTo = rule?.linksTo;
      if (typeof v === 'string' && linksTo)
        return normaliseText(v, side.origin).replace(
          /([?&](?:p|page_id)=)(\d+)/,
          (_, key: string, id: string) => `${key}${side.ref(linksTo, id, root)}`,
        );
      if (typeof v === 'string' && !rule?.ref) return normaliseText(v, side.origin);
      if (!rule?.ref || v === null || v === undefined || v === 0 || v === '' || v === '0') return v;
      return side.ref(rule.ref, String(v), root);
    };
    this.#leaf(
      at,
      field,
      rulePath,
      value(a, this.#source, rootA),
      value(b, this.#destination, rootB),
      rule,
    );
  }

  #list(
    at: { entity: NativeEntity; record: string; label: string; rules: Rules },
    a: unknown[],
    b: unknown[],
    field: string,
    rulePath: string,
    rootA: Json,
    rootB: Json,
    rule: Rule | undefined,
  ) {
    const itemPath = `${rulePath}[]`;
    const itemRule = ruleAt(at.rules, itemPath);
    if (rule?.ref && a.every((v) => !isObject(v)) && b.every((v) => !isObject(v))) {
      // A list of ids: compared as the list of source ids they stand for.
      const ids = (list: unknown[], side: Side, root: Json) => {
        const mapped = list.map((v) => side.ref(rule.ref as RefKind, String(v), root));
        return rule.unordered ? mapped.sort() : mapped;
      };
      this.#leaf(
        at,
        field,
        rulePath,
        ids(a, this.#source, rootA),
        ids(b, this.#destination, rootB),
        rule,
      );
      return;
    }
    if (rule?.key) {
      const keyed = (list: unknown[]) => {
        const seen = new Map<string, number>();
        return new Map(
          list.map((item) => {
            const base = rule.key?.(item) ?? '';
            const n = (seen.get(base) ?? 0) + 1;
            seen.set(base, n);
            return [n === 1 ? base : `${base}#${n}`, item] as const;
          }),
        );
      };
      const left = keyed(a);
      const right = keyed(b);
      for (const [key, item] of left) {
        const other = right.get(key);
        if (other === undefined) {
          this.#leaf(at, `${field}[${key}]`, itemPath, shown(item), 'absent', undefined);
          continue;
        }
        this.#walk(at, item, other, `${field}[${key}]`, itemPath, rootA, rootB, itemRule);
      }
      for (const [key, item] of right) {
        if (left.has(key)) continue;
        if (rule.ours?.test(item)) continue;
        if (rule.added?.test(item)) {
          this.differences.push({
            entity: at.entity,
            record: at.record,
            label: at.label,
            field: `${field}[${key}]`,
            rulePath: itemPath,
            source: 'absent',
            destination: shown(item),
            refused: { reason: rule.added.refused, reportAs: rule.added.reportAs },
          });
          continue;
        }
        this.#leaf(at, `${field}[${key}]`, itemPath, 'absent', shown(item), undefined);
      }
      return;
    }
    const order = (list: unknown[], side: Side, root: Json) =>
      rule?.unordered
        ? [...list].sort((x, y) =>
            JSON.stringify(this.#plain(at.rules, x, itemPath, side, root)).localeCompare(
              JSON.stringify(this.#plain(at.rules, y, itemPath, side, root)),
            ),
          )
        : list;
    const left = order(a, this.#source, rootA);
    const right = order(b, this.#destination, rootB);
    // A list WooCommerce fills itself (a coupon's users) is refused as a whole: its length too.
    const refused = rule?.refused ? rule : undefined;
    if (left.length !== right.length)
      this.#leaf(at, `${field}.length`, `${rulePath}.length`, left.length, right.length, refused);
    for (let i = 0; i < Math.min(left.length, right.length); i += 1)
      this.#walk(
        at,
        left[i],
        right[i],
        `${field}[${i}]`,
        itemPath,
        rootA,
        rootB,
        itemRule ?? refused,
      );
  }

  /** An item as compared (refs mapped, internal fields out), to sort unordered lists by. */
  #plain(rules: Rules, value: unknown, rulePath: string, side: Side, root: Json): unknown {
    const rule = ruleAt(rules, rulePath);
    if (rule?.internal) return undefined;
    if (Array.isArray(value))
      return value.map((v) => this.#plain(rules, v, `${rulePath}[]`, side, root));
    if (isObject(value))
      return Object.fromEntries(
        Object.entries(value).map(([k, v]) => [
          k,
          this.#plain(rules, v, `${rulePath}.${k}`, side, root),
        ]),
      );
    if (rule?.ref && value !== null && value !== undefined && value !== 0 && value !== '')
      return side.ref(rule.ref, String(value), root);
    return typeof value === 'string' ? normaliseText(value, side.origin) : value;
  }
}

/** A list item as printed when the other store has nothing to match it: without its ids. */
function shown(item: unknown): unknown {
  if (!isObject(item)) return item;
  const { id: _, ...rest } = item;
  return rest;
}

const labelOf = (record: NativeRecord) =>
  str(record.name ?? record.number ?? record.email ?? record.slug ?? record.id);

/**
 * Compares the destination of a migration with its source. `idMaps` gives, per kind of record
 * the migration maps, destination id -> source id.
 */
export function compareStores(
  source: { origin: string; snapshot: NativeSnapshot },
  destination: { origin: string; snapshot: NativeSnapshot },
  idMaps: IdMaps,
  /** Destination ids of the records the migration linked rather than wrote, per entity. */
  linked: Partial<Record<EntityType, ReadonlySet<string>>> = {},
): StoreComparison {
  const src = source.snapshot;
  const dst = destination.snapshot;

  // Natural keys for what the id map does not hold.
  const attributeSlugs = (snapshot: NativeSnapshot) =>
    new Map(snapshot.attributes.map((a) => [String(a.id), str(a.slug)]));
  const sourceAttributes = attributeSlugs(src);
  const destinationAttributes = attributeSlugs(dst);
  const variationsBy = (snapshot: NativeSnapshot, parentKey: (id: string) => string) =>
    new Map(
      snapshot.products.flatMap((p) =>
        (Array.isArray(p.variations) ? p.variations : [])
          .filter(isObject)
          .map((v) => [String(v.id), `${parentKey(String(p.id))}/${variationKey(v)}`] as const),
      ),
    );
  const uncategorized = (snapshot: NativeSnapshot) =>
    String(snapshot.categories.find((c) => c.slug === 'uncategorized')?.id ?? '');
  const categoryMap = new Map(idMaps.categories);
  if (uncategorized(dst)) categoryMap.set(uncategorized(dst), uncategorized(src));
  const back = (kind: keyof IdMaps, id: string) =>
    (kind === 'categories' ? categoryMap : idMaps[kind]).get(id) ?? `unmapped ${kind} ${id}`;
  const sourceVariations = variationsBy(src, (id) => id);
  const destinationVariations = variationsBy(dst, (id) => back('products', id));
  const sourceVariationIds = new Map<string, string>(
    [...sourceVariations].map(([id, key]) => [key, id]),
  );

  /** An order line id as its position in the order's lines. */
  const linePosition = (id: string, root: Json) => {
    const lines = Array.isArray(root.line_items) ? root.line_items : [];
    const index = lines.findIndex((l) => isObject(l) && String(l.id) === id);
    return index < 0 ? `unknown line ${id}` : `line ${index}`;
  };

  // What the id map does not hold, by what each store knows it by: a media item by its file, a
  // post category or tag by its slug.
  const byKey = (records: NativeRecord[], key: (r: NativeRecord) => string) =>
    new Map(records.map((r) => [String(r.id), key(r)]));
  const namesOf = (snapshot: NativeSnapshot) => ({
    media: byKey(snapshot.media, (r) => String(mediaView(r).file)),
    postCategories: byKey(snapshot.postCategories, (r) => str(r.slug)),
    postTags: byKey(snapshot.postTags, (r) => str(r.slug)),
  });
  const sourceNames = namesOf(src);
  const destinationNames = namesOf(dst);
  const named = (names: ReturnType<typeof namesOf>, kind: RefKind, id: string) =>
    kind === 'media' || kind === 'postCategories' || kind === 'postTags'
      ? (names[kind].get(id) ?? `unknown ${kind} ${id}`)
      : undefined;

  const sourceSide: Side = {
    origin: source.origin,
    ref: (kind, id, root) => {
      const name = named(sourceNames, kind, id);
      if (name !== undefined) return name;
      if (kind === 'attributes') return sourceAttributes.get(id) ?? `unknown attribute ${id}`;
      if (kind === 'orderLines') return linePosition(id, root);
      if (kind === 'variations') return sourceVariations.has(id) ? id : `deleted variation ${id}`;
      return id;
    },
  };
  const destinationSide: Side = {
    origin: destination.origin,
    ref: (kind, id, root) => {
      const name = named(destinationNames, kind, id);
      if (name !== undefined) return name;
      if (kind === 'attributes') return destinationAttributes.get(id) ?? `unknown attribute ${id}`;
      if (kind === 'orderLines') return linePosition(id, root);
      if (kind === 'variations')
        return (
          sourceVariationIds.get(destinationVariations.get(id) ?? '') ?? `unmapped variation ${id}`
        );
      return back(kind as keyof IdMaps, id);
    },
  };

  const comparer = new Comparer(sourceSide, destinationSide);
  const byId = (records: NativeRecord[]) => new Map(records.map((r) => [String(r.id), r]));

  // Records the migration maps: matched through the id map; extra destination records are
  // duplicates or strays.
  const linkedRecords = new Set<string>();
  for (const entity of entityTypes) {
    const sourceRecords = byId(src[entity]);
    const matched = new Map<string, NativeRecord>();
    const extra: NativeRecord[] = [];
    for (const record of dst[entity]) {
      const sourceId =
        entity === 'categories'
          ? categoryMap.get(String(record.id))
          : idMaps[entity].get(String(record.id));
      if (sourceId && sourceRecords.has(sourceId) && !matched.has(sourceId))
        matched.set(sourceId, record);
      else extra.push(record);
    }
    for (const [id, record] of sourceRecords) {
      const copy = matched.get(id);
      if (copy && linked[entity]?.has(String(copy.id))) linkedRecords.add(`${entity}\u0000${id}`);
      comparer.record(entity, id, labelOf(record), record, copy);
    }
    for (const record of extra)
      comparer.record(entity, `destination ${record.id}`, labelOf(record), undefined, record);
  }

  // Terms and media: matched by their natural keys.
  const keyed = (
    entity: NativeEntity,
    key: (r: NativeRecord) => string,
    view: (r: NativeRecord) => NativeRecord = (r) => r,
  ) => {
    const index = (records: NativeRecord[]) => {
      const seen = new Map<string, number>();
      return new Map(
        records.map((r) => {
          const base = key(r);
          const n = (seen.get(base) ?? 0) + 1;
          seen.set(base, n);
          return [n === 1 ? base : `${base}#${n}`, view(r)] as const;
        }),
      );
    };
    const left = index(src[entity]);
    const right = index(dst[entity]);
    for (const [k, record] of left)
      comparer.record(entity, k, labelOf(record), record, right.get(k));
    for (const [k, record] of right)
      if (!left.has(k)) comparer.record(entity, k, labelOf(record), undefined, record);
  };
  keyed('tags', (r) => str(r.slug));
  keyed('postCategories', (r) => str(r.slug));
  keyed('postTags', (r) => str(r.slug));
  keyed('attributes', (r) => str(r.slug));
  keyed('media', (r) => mediaView(r).file as string, mediaView);

  for (const entity of Object.keys(wooCommerceRules) as NativeEntity[]) comparer.figuresOf(entity);
  const differences = comparer.differences.map((d) =>
    linkedRecords.has(`${d.entity}\u0000${d.record}`) ? { ...d, linked: true } : d,
  );
  return { differences, figures: comparer.figures };
}

/**
 * Dotted paths where two snapshots of the same store differ (every field, nothing mapped, but
 * related_ids, which WooCommerce picks anew at random on every read).
 */
export function changedFields(before: NativeSnapshot, after: NativeSnapshot): string[] {
  const out: string[] = [];
  const walk = (x: unknown, y: unknown, path: string) => {
    if (/^products [^.]+\.related_ids$/.test(path)) return;
    if (/^products [^.]+\.attributes\[\d+\]$/.test(path) && isObject(x) && isObject(y)) {
      x = termOrderedOptions(x);
      y = termOrderedOptions(y);
    }
    if (Array.isArray(x) && Array.isArray(y)) {
      if (x.length !== y.length) out.push(`${path}.length: ${x.length} -> ${y.length}`);
      for (let i = 0; i < Math.min(x.length, y.length); i += 1) walk(x[i], y[i], `${path}[${i}]`);
      return;
    }
    if (isObject(x) && isObject(y)) {
      for (const key of new Set([...Object.keys(x), ...Object.keys(y)]))
        walk(x[key], y[key], `${path}.${key}`);
      return;
    }
    if (JSON.stringify(x) !== JSON.stringify(y))
      out.push(`${path}: ${JSON.stringify(x)} -> ${JSON.stringify(y)}`);
  };
  for (const entity of Object.keys(before) as NativeEntity[]) {
    const a = byIdOf(before[entity]);
    const b = byIdOf(after[entity]);
    for (const id of new Set([...a.keys(), ...b.keys()]))
      walk(a.get(id), b.get(id), `${entity} ${id}`);
  }
  return out;
}

const byIdOf = (records: NativeRecord[]) => new Map(records.map((r) => [String(r.id), r]));
