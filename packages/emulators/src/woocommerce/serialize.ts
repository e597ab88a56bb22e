import type {
  Coupon,
  Customer,
  LineItem,
  Order,
  OrderNote,
  Refund,
  WcAddress,
  WooStore,
} from './shop.ts';
import { emailTemplates } from './shop.ts';
import {
  wcDate,
  type GlobalAttribute,
  type Meta,
  type Product,
  type Taxonomy,
  type Term,
  type Variation,
} from './store.ts';
import { createHash } from 'node:crypto';
import { reviewStatusOf, type Review } from './reviews.ts';
import { renderForView, sanitizeTitle } from './wp-text.ts';

/**
 * Turns stored records into the JSON the wc/v3 controllers answer with (prepare_object_for_response),
 * property for property as the resource schemas of the 11.0.1 index list them.
 */

export type Context = 'view' | 'edit';

const dp = (n: number) => n.toFixed(2);

export class Serializer {
  readonly store: WooStore;
  readonly home: string;
  constructor(store: WooStore, home: string) {
    this.store = store;
    this.home = home;
  }

  private links(path: string, collection: string): Record<string, unknown> {
    return {
      self: [
        {
          href: `${this.home}/wp-json/wc/v3/${path}`,
          targetHints: { allow: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] },
        },
      ],
      collection: [{ href: `${this.home}/wp-json/wc/v3/${collection}` }],
    };
  }

  meta(list: Meta[], include: string[] = [], exclude: string[] = []): Record<string, unknown>[] {
    return list
      .filter((m) => (include.length ? include.includes(m.key) : true) && !exclude.includes(m.key))
      .map((m) => ({ id: m.id, key: m.key, value: m.value }));
  }

  /** An image as products and variations answer it (with the sizes WordPress made). */
  image(id: number): Record<string, unknown> | null {
    const a = this.store.attachments.get(id);
    if (!a) return null;
    const src = `${this.home}${a.path}`;
    const sized = (size: number) => src.replace(/(\.[a-z0-9]+)$/i, `-${size}x${size}$1`);
    return {
      id: a.id,
      date_created: wcDate(a.created),
      date_created_gmt: wcDate(a.created),
      date_modified: wcDate(a.created),
      date_modified_gmt: wcDate(a.created),
      src,
      name: a.name,
      alt: a.alt,
      srcset: `${src} 800w, ${sized(300)} 300w, ${sized(150)} 150w`,
      sizes: '(max-width: 800px) 100vw, 800px',
      thumbnail: sized(300),
    };
  }

  /** An image as categories and variations answer it (no sizes). */
  plainImage(id: number): Record<string, unknown> | null {
    const image = this.image(id);
    if (!image) return null;
    const { srcset: _srcset, sizes: _sizes, thumbnail: _thumbnail, ...plain } = image;
    return plain;
  }

  private termRefs(ids: number[]): Record<string, unknown>[] {
    // wp_get_object_terms() sorts by name.
    return ids
      .map((id) => this.store.terms.get(id))
      .filter((t): t is Term => t !== undefined)
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((t) => ({ id: t.id, name: t.name, slug: t.slug }));
  }

  /** WC_Product::is_on_sale(): a sale price below the regular one, within its schedule. */
  private onSale(p: {
    regularPrice: string;
    salePrice: string;
    saleFrom: number | null;
    saleTo: number | null;
  }): boolean {
    const now = this.store.now();
    return (
      p.salePrice !== '' &&
      p.regularPrice !== '' &&
      Number(p.salePrice) < Number(p.regularPrice) &&
      !(p.saleFrom !== null && p.saleFrom > now) &&
      !(p.saleTo !== null && p.saleTo < now)
    );
  }

  private priceOf(p: {
    regularPrice: string;
    salePrice: string;
    saleFrom: number | null;
    saleTo: number | null;
  }): { price: string; onSale: boolean } {
    const onSale = this.onSale(p);
    return { price: onSale ? p.salePrice : p.regularPrice, onSale };
  }

  private shippingClassSlug(id: number): string {
    return id ? (this.store.terms.get(id)?.slug ?? '') : '';
  }

  /** The name an attribute key (pa_color, or a sanitised name) shows as on a product. */
  private attributeLabel(key: string, parent: Product | undefined): string {
    const global = this.store.attributeByTaxonomy(key);
    if (global) return global.name;
    const own = parent?.attributes.find((a) => a.id === 0 && sanitizeTitle(a.name) === key);
    // A name with non-ASCII letters appears under its sanitised slug.
    return own && /^[\x20-\x7e]*$/.test(own.name) ? own.name : key;
  }

  product(p: Product, context: Context, meta: { include?: string[]; exclude?: string[] } = {}) {
    const variations = this.store
      .variationsOf(p.id)
      .sort((a, b) => a.menuOrder - b.menuOrder || a.id - b.id);
    let { price, onSale } = this.priceOf(p);
    if (p.type === 'variable') {
      const prices = variations.map((v) => this.priceOf(v)).filter((x) => x.price !== '');
      price = prices.length ? String(Math.min(...prices.map((x) => Number(x.price)))) : '';
      onSale = prices.some((x) => x.onSale);
    } else if (p.type === 'grouped') {
      const prices = p.groupedIds
        .map((id) => this.store.products.get(id))
        .filter((x): x is Product => x !== undefined)
        .map((x) => this.priceOf(x).price)
        .filter((x) => x !== '');
      price = prices.length ? String(Math.min(...prices.map(Number))) : '';
      onSale = false;
    }
    const render = (html: string) => (context === 'view' ? renderForView(html) : html);
    const published = p.status === 'publish';
    return {
      id: p.id,
      name: p.name,
      slug: p.slug,
      permalink: published
        ? `${this.home}/product/${p.slug}/`
        : `${this.home}/?post_type=product&p=${p.id}`,
      date_created: wcDate(p.created),
      date_created_gmt: wcDate(p.created),
      date_modified: wcDate(p.modified),
      date_modified_gmt: wcDate(p.modified),
      type: p.type,
      status: p.status,
      featured: p.featured,
      catalog_visibility: p.catalogVisibility,
      description: render(p.description),
      short_description: render(p.shortDescription),
      sku: p.sku,
      price,
      regular_price: p.regularPrice,
      sale_price: p.salePrice,
      date_on_sale_from: wcDate(p.saleFrom),
      date_on_sale_from_gmt: wcDate(p.saleFrom),
      date_on_sale_to: wcDate(p.saleTo),
      date_on_sale_to_gmt: wcDate(p.saleTo),
      on_sale: onSale,
      purchasable: p.type !== 'external' && p.type !== 'grouped' && price !== '' && published,
      total_sales: p.totalSales,
      virtual: p.virtual,
      downloadable: p.downloadable,
      downloads: p.downloads.map((d) => ({ ...d })),
      download_limit: p.downloadLimit,
      download_expiry: p.downloadExpiry,
      external_url: p.externalUrl,
      button_text: p.buttonText,
      tax_status: p.taxStatus,
      tax_class: p.taxClass,
      manage_stock: p.manageStock,
      stock_quantity: p.stockQuantity,
      backorders: p.backorders,
      backorders_allowed: p.backorders !== 'no',
      backordered: p.manageStock && (p.stockQuantity ?? 0) < 0 && p.backorders !== 'no',
      low_stock_amount: p.lowStockAmount,
      sold_individually: p.soldIndividually,
      weight: p.weight,
      dimensions: { ...p.dimensions },
      shipping_required: !p.virtual,
      shipping_taxable: p.taxStatus === 'taxable',
      shipping_class: this.shippingClassSlug(p.shippingClassId),
      shipping_class_id: p.shippingClassId,
      reviews_allowed: p.reviewsAllowed,
      average_rating: '0',
      rating_count: 0,
      upsell_ids: p.upsellIds,
      cross_sell_ids: p.crossSellIds,
      parent_id: p.parentId,
      purchase_note: p.purchaseNote,
      categories: this.termRefs(p.categoryIds),
      brands: this.termRefs(p.brandIds),
      tags: this.termRefs(p.tagIds),
      images: p.imageIds.map((id) => this.image(id)).filter((i) => i !== null),
      attributes: [...p.attributes]
        .sort((a, b) => a.position - b.position)
        .map((a) => ({
          id: a.id,
          name: a.id ? this.attributeLabel(a.name, p) : a.name,
          slug: a.name,
          position: a.position,
          visible: a.visible,
          variation: a.variation,
          options: this.store.attributeOptions(a),
        })),
      default_attributes: Object.entries(p.defaultAttributes).map(([key, option]) => ({
        id: this.store.attributeByTaxonomy(key)?.id ?? 0,
        name: this.attributeLabel(key, p),
        option,
      })),
      variations: variations.map((v) => v.id),
      grouped_products: p.groupedIds,
      menu_order: p.menuOrder,
      price_html:
        price === '' ? '' : `<span class="woocommerce-Price-amount amount">${price}</span>`,
      related_ids: [],
      meta_data: this.meta(p.meta, meta.include, meta.exclude),
      stock_status: p.stockStatus,
      has_options: p.type === 'variable',
      post_password: p.postPassword,
      global_unique_id: p.globalUniqueId,
      permalink_template: `${this.home}/product/%pagename%/`,
      generated_slug: sanitizeTitle(p.name),
      _links: this.links(`products/${p.id}`, 'products'),
    };
  }

  /** A variation's attribute values, named as on its product (global ones by term name). */
  variationAttributes(v: Variation, parent: Product | undefined) {
    return Object.entries(v.attributes)
      .filter(([, option]) => option !== '')
      .map(([key, option]) => {
        const global = this.store.attributeByTaxonomy(key);
        const term = global
          ? this.store.termsOf(key as Taxonomy).find((t) => t.slug === option)
          : undefined;
        return {
          id: global?.id ?? 0,
          name: this.attributeLabel(key, parent),
          slug: key,
          option: term ? term.name : option,
        };
      });
  }

  /**
   * A variation as the REST API answers it: its weight, dimensions and shipping class are its
   * product's when it has none of its own (the 'view' getters), its description is formatted
   * (wc_format_content) whatever the context, and its image is its own with `context=edit`.
   */
  variation(v: Variation, context: Context, meta: { include?: string[]; exclude?: string[] } = {}) {
    const parent = this.store.products.get(v.parentId);
    const { price, onSale } = this.priceOf(v);
    const manageStock = v.manageStock;
    const inherit = (own: string, theirs: string | undefined) =>
      own !== '' ? own : (theirs ?? '');
    const attributes = this.variationAttributes(v, parent);
    const imageId = v.imageId || (context === 'view' ? (parent?.imageIds[0] ?? 0) : 0);
    return {
      id: v.id,
      type: 'variation',
      date_created: wcDate(v.created),
      date_created_gmt: wcDate(v.created),
      date_modified: wcDate(v.modified),
      date_modified_gmt: wcDate(v.modified),
      description: renderForView(v.description),
      permalink: `${this.home}/product/${parent?.slug ?? ''}/?${Object.entries(v.attributes)
        .map(([k, o]) => `attribute_${k}=${encodeURIComponent(o)}`)
        .join('&')}`,
      sku: v.sku,
      global_unique_id: v.globalUniqueId,
      price,
      regular_price: v.regularPrice,
      sale_price: v.salePrice,
      date_on_sale_from: wcDate(v.saleFrom),
      date_on_sale_from_gmt: wcDate(v.saleFrom),
      date_on_sale_to: wcDate(v.saleTo),
      date_on_sale_to_gmt: wcDate(v.saleTo),
      on_sale: onSale,
      status: v.status,
      purchasable: price !== '' && v.status === 'publish',
      virtual: v.virtual,
      downloadable: v.downloadable,
      downloads: v.downloads.map((d) => ({ ...d })),
      download_limit: v.downloadLimit,
      download_expiry: v.downloadExpiry,
      tax_status: v.taxStatus,
      tax_class:
        context === 'edit'
          ? v.taxClass
          : v.taxClass === 'parent'
            ? (parent?.taxClass ?? '')
            : v.taxClass,
      manage_stock: manageStock,
      stock_quantity: manageStock === 'parent' ? (parent?.stockQuantity ?? null) : v.stockQuantity,
      stock_status: v.stockStatus,
      backorders: v.backorders,
      backorders_allowed: v.backorders !== 'no',
      backordered: manageStock === true && (v.stockQuantity ?? 0) < 0 && v.backorders !== 'no',
      low_stock_amount: v.lowStockAmount,
      weight: inherit(v.weight, parent?.weight),
      dimensions: {
        length: inherit(v.dimensions.length, parent?.dimensions.length),
        width: inherit(v.dimensions.width, parent?.dimensions.width),
        height: inherit(v.dimensions.height, parent?.dimensions.height),
      },
      shipping_class: this.shippingClassSlug(v.shippingClassId || (parent?.shippingClassId ?? 0)),
      shipping_class_id: v.shippingClassId || (parent?.shippingClassId ?? 0),
      image: imageId ? this.plainImage(imageId) : null,
      gallery_image_ids: [],
      attributes,
      menu_order: v.menuOrder,
      meta_data: this.meta(v.meta, meta.include, meta.exclude),
      name: attributes.map((a) => a.option).join(', '),
      parent_id: v.parentId,
      _links: this.links(
        `products/${v.parentId}/variations/${v.id}`,
        `products/${v.parentId}/variations`,
      ),
    };
  }

  term(t: Term) {
    const base = { id: t.id, name: t.name, slug: t.slug };
    if (t.taxonomy.startsWith('pa_')) {
      const attribute = this.store.attributeByTaxonomy(t.taxonomy);
      const collection = `products/attributes/${attribute?.id ?? 0}/terms`;
      return {
        ...base,
        description: t.description,
        menu_order: t.menuOrder,
        count: this.store.termCount(t),
        _links: this.links(`${collection}/${t.id}`, collection),
      };
    }
    if (t.taxonomy === 'product_shipping_class')
      return {
        ...base,
        description: t.description,
        count: this.store.termCount(t),
        _links: this.links(`products/shipping_classes/${t.id}`, 'products/shipping_classes'),
      };
    const collection =
      t.taxonomy === 'product_cat'
        ? 'products/categories'
        : t.taxonomy === 'product_tag'
          ? 'products/tags'
          : 'products/brands';
    if (t.taxonomy === 'product_tag')
      return {
        ...base,
        description: t.description,
        count: this.store.termCount(t),
        _links: this.links(`${collection}/${t.id}`, collection),
      };
    return {
      ...base,
      parent: t.parent,
      description: t.description,
      display: t.display,
      image: t.imageId ? this.plainImage(t.imageId) : null,
      menu_order: t.menuOrder,
      count: this.store.termCount(t),
      _links: this.links(`${collection}/${t.id}`, collection),
    };
  }

  attribute(a: GlobalAttribute) {
    return {
      id: a.id,
      name: a.name,
      slug: a.slug,
      type: a.type,
      order_by: a.orderBy,
      has_archives: a.hasArchives,
      _links: this.links(`products/attributes/${a.id}`, 'products/attributes'),
    };
  }

  private address(a: WcAddress, withEmail: boolean) {
    const out: Record<string, string> = {
      first_name: a.first_name,
      last_name: a.last_name,
      company: a.company,
      address_1: a.address_1,
      address_2: a.address_2,
      city: a.city,
      state: a.state,
      postcode: a.postcode,
      country: a.country,
    };
    if (withEmail) out.email = a.email ?? '';
    out.phone = a.phone;
    return out;
  }

  customer(c: Customer) {
    return {
      id: c.id,
      date_created: wcDate(c.created),
      date_created_gmt: wcDate(c.created),
      date_modified: wcDate(c.modified),
      date_modified_gmt: wcDate(c.modified),
      email: c.email,
      first_name: c.firstName,
      last_name: c.lastName,
      role: c.role,
      username: c.username,
      billing: this.address(c.billing, true),
      shipping: this.address(c.shipping, false),
      is_paying_customer: c.isPayingCustomer,
      avatar_url: `https://secure.gravatar.com/avatar/${c.id.toString(16).padStart(32, '0')}?s=96&d=mm&r=g`,
      // Protected user meta (a leading _) is not answered.
      meta_data: this.meta(c.meta.filter((m) => !m.key.startsWith('_'))),
      _links: this.links(`customers/${c.id}`, 'customers'),
    };
  }

  /** Order item meta with the label and value WooCommerce shows for each entry. */
  private itemMeta(item: { productId: number; meta: Meta[] }) {
    const product = this.store.products.get(item.productId);
    return item.meta.map((m) => {
      const global = this.store.attributeByTaxonomy(m.key);
      const own = product?.attributes.find((a) => a.id === 0 && sanitizeTitle(a.name) === m.key);
      const term = global
        ? this.store.termsOf(m.key as Taxonomy).find((t) => t.slug === m.value)
        : undefined;
      return {
        id: m.id,
        key: m.key,
        value: m.value,
        display_key: global?.name ?? own?.name ?? m.key,
        display_value: term
          ? term.name
          : typeof m.value === 'string'
            ? m.value
            : JSON.stringify(m.value),
      };
    });
  }

  /** An order's product line (also a refund's, with negative amounts). */
  private lineItem(i: LineItem) {
    const variation = i.variationId ? this.store.variations.get(i.variationId) : undefined;
    const product = this.store.products.get(i.productId);
    const sellable = variation ?? product;
    const imageId = variation?.imageId || product?.imageIds[0] || 0;
    return {
      id: i.id,
      name: i.name,
      product_id: product ? i.productId : 0,
      variation_id: variation ? i.variationId : 0,
      quantity: i.quantity,
      tax_class: i.taxClass,
      subtotal: dp(i.subtotal),
      subtotal_tax: dp(i.subtotalTax),
      total: dp(i.total),
      total_tax: dp(i.totalTax),
      taxes: i.taxes,
      meta_data: this.itemMeta(i),
      sku: sellable ? sellable.sku : null,
      global_unique_id: sellable?.globalUniqueId ?? '',
      price: i.quantity ? Math.round((i.total / i.quantity) * 1e6) / 1e6 : 0,
      image: {
        id: imageId,
        src: imageId ? `${this.home}${this.store.attachments.get(imageId)?.path ?? ''}` : '',
      },
      parent_name: variation ? (product?.name ?? null) : null,
    };
  }

  order(o: Order, meta: { include?: string[]; exclude?: string[] } = {}) {
    // The order's shipping phone (WooCommerce 5.6+) comes back although the schema omits it.
    const shipping = this.address(o.shipping, false);
    return {
      id: o.id,
      parent_id: o.parentId,
      status: o.status,
      currency: o.currency,
      version: o.version,
      prices_include_tax: o.pricesIncludeTax,
      date_created: wcDate(o.created),
      date_modified: wcDate(o.modified),
      discount_total: dp(o.discountTotal),
      discount_tax: dp(o.discountTax),
      shipping_total: dp(o.shippingTotal),
      shipping_tax: dp(o.shippingTax),
      cart_tax: dp(o.cartTax),
      total: dp(o.total),
      total_tax: dp(o.totalTax),
      customer_id: o.customerId,
      order_key: o.orderKey,
      billing: this.address(o.billing, true),
      shipping,
      payment_method: o.paymentMethod,
      payment_method_title: o.paymentMethodTitle,
      transaction_id: o.transactionId,
      customer_ip_address: o.customerIpAddress,
      customer_user_agent: o.customerUserAgent,
      created_via: o.createdVia,
      customer_note: o.customerNote,
      date_completed: wcDate(o.dateCompleted),
      date_paid: wcDate(o.datePaid),
      cart_hash: '',
      number: String(o.id),
      meta_data: this.meta(o.meta, meta.include, meta.exclude),
      line_items: o.lineItems.map((i) => this.lineItem(i)),
      tax_lines: o.taxLines.map((t) => ({
        id: t.id,
        rate_code: t.rateCode,
        rate_id: t.rateId,
        label: t.label,
        compound: t.compound,
        tax_total: dp(t.taxTotal),
        shipping_tax_total: dp(t.shippingTaxTotal),
        rate_percent: 8,
        meta_data: [],
      })),
      shipping_lines: o.shippingLines.map((l) => ({
        id: l.id,
        method_title: l.methodTitle,
        method_id: l.methodId,
        instance_id: l.instanceId,
        total: dp(l.total),
        total_tax: dp(l.totalTax),
        taxes: l.taxes,
        tax_status: 'taxable',
        meta_data: this.meta(l.meta),
      })),
      fee_lines: o.feeLines.map((f) => ({
        id: f.id,
        name: f.name,
        tax_class: f.taxClass,
        tax_status: f.taxStatus,
        // The fee's amount as entered at checkout; a fee the REST API added has none.
        amount: '',
        total: dp(f.total),
        total_tax: dp(f.totalTax),
        taxes: [],
        meta_data: this.meta(f.meta),
      })),
      coupon_lines: o.couponLines.map((c) => {
        const info = JSON.stringify([
          c.couponId,
          c.code,
          c.discountType === 'fixed_cart' ? null : c.discountType,
          c.nominalAmount,
        ]);
        return {
          id: c.id,
          code: c.code,
          discount: String(c.discount),
          discount_tax: String(c.discountTax),
          meta_data: [
            ...this.itemMeta({ productId: 0, meta: c.meta }),
            {
              id: c.id,
              key: 'coupon_info',
              value: info,
              display_key: 'coupon_info',
              display_value: info,
            },
          ],
          discount_type: c.discountType,
          nominal_amount: c.nominalAmount,
          free_shipping: c.freeShipping,
        };
      }),
      refunds: this.store
        .refundsOf(o)
        .sort((a, b) => b.id - a.id)
        .map((r) => ({
          id: r.id,
          reason: r.reason,
          total: dp(-Math.abs(r.amount)),
          total_tax: dp(0),
        })),
      payment_url: `${this.home}/checkout/order-pay/${o.id}/?pay_for_order=true&key=${o.orderKey}`,
      is_editable: ['pending', 'on-hold', 'auto-draft'].includes(o.status),
      needs_payment: ['pending', 'failed'].includes(o.status) && o.total > 0,
      needs_processing: true,
      date_created_gmt: wcDate(o.created),
      date_modified_gmt: wcDate(o.modified),
      date_completed_gmt: wcDate(o.dateCompleted),
      date_paid_gmt: wcDate(o.datePaid),
      currency_symbol: o.currency === 'USD' ? '$' : o.currency,
      _links: this.links(`orders/${o.id}`, 'orders'),
    };
  }

  refund(r: Refund) {
    return {
      id: r.id,
      date_created: wcDate(r.created),
      date_created_gmt: wcDate(r.created),
      amount: dp(r.amount),
      reason: r.reason,
      refunded_by: r.refundedBy,
      refunded_payment: r.refundedPayment,
      meta_data: this.meta(r.meta),
      line_items: r.lineItems.map((i) => this.lineItem(i)),
      shipping_lines: [],
      tax_lines: [],
      fee_lines: [],
      _links: {
        ...this.links(`orders/${r.parentId}/refunds/${r.id}`, `orders/${r.parentId}/refunds`),
        up: [{ href: `${this.home}/wp-json/wc/v3/orders/${r.parentId}` }],
      },
    };
  }

  note(o: Order, n: OrderNote) {
    return {
      id: n.id,
      author: n.author,
      date_created: wcDate(n.created),
      date_created_gmt: wcDate(n.created),
      note: n.content,
      customer_note: n.customerNote,
      _links: {
        ...this.links(`orders/${o.id}/notes/${n.id}`, `orders/${o.id}/notes`),
        up: [{ href: `${this.home}/wp-json/wc/v3/orders/${o.id}` }],
      },
    };
  }

  coupon(c: Coupon) {
    const decimal = (value: string) => Number(value || 0).toFixed(2);
    const limit = (value: number) => (value > 0 ? value : null);
    // PHP answers a list that lost entries (array_filter keeps the others' keys) as an object.
    const emails = c.emailRestrictions.every((e) => e !== null)
      ? c.emailRestrictions
      : Object.fromEntries(c.emailRestrictions.flatMap((e, i) => (e === null ? [] : [[i, e]])));
    return {
      id: c.id,
      code: c.code,
      amount: decimal(c.amount),
      status: c.status,
      date_created: wcDate(c.created),
      date_created_gmt: wcDate(c.created),
      date_modified: wcDate(c.modified),
      date_modified_gmt: wcDate(c.modified),
      discount_type: c.discountType,
      description: c.description,
      date_expires: wcDate(c.dateExpires),
      date_expires_gmt: wcDate(c.dateExpires),
      usage_count: c.usageCount,
      individual_use: c.individualUse,
      product_ids: c.productIds,
      excluded_product_ids: c.excludedProductIds,
      usage_limit: limit(c.usageLimit),
      usage_limit_per_user: limit(c.usageLimitPerUser),
      limit_usage_to_x_items: limit(c.limitUsageToXItems),
      free_shipping: c.freeShipping,
      product_categories: c.productCategories,
      excluded_product_categories: c.excludedProductCategories,
      exclude_sale_items: c.excludeSaleItems,
      minimum_amount: decimal(c.minimumAmount),
      maximum_amount: decimal(c.maximumAmount),
      email_restrictions: emails,
      used_by: c.usedBy,
      meta_data: this.meta(c.meta),
      _links: this.links(`coupons/${c.id}`, 'coupons'),
    };
  }

  /** WC_REST_Product_Reviews_Controller::prepare_item_for_response(). */
  review(r: Review, context: Context = 'view') {
    const product = this.store.products.get(r.productId);
    const permalink = !product
      ? ''
      : product.status === 'publish'
        ? `${this.home}/product/${product.slug}/`
        : `${this.home}/?post_type=product&p=${product.id}`;
    // get_avatar_url(): Gravatar by the SHA-256 of the trimmed, lower-case address.
    const hash = r.email
      ? createHash('sha256').update(r.email.trim().toLowerCase()).digest('hex')
      : '';
    const avatar = (size: number) =>
      `https://secure.gravatar.com/avatar/${hash}?s=${size}&d=mm&r=g`;
    const links = this.links(`products/reviews/${r.id}`, 'products/reviews');
    return {
      id: r.id,
      date_created: wcDate(r.created),
      date_created_gmt: wcDate(r.created),
      product_id: r.productId,
      product_name: product?.name ?? '',
      product_permalink: permalink,
      status: reviewStatusOf[r.approved],
      reviewer: r.author,
      reviewer_email: r.email,
      review: context === 'view' ? autop(r.content) : r.content,
      rating: r.rating,
      verified: this.store.reviews.verifiedOf(r),
      reviewer_avatar_urls: { '24': avatar(24), '48': avatar(48), '96': avatar(96) },
      _links: { ...links, up: [{ href: `${this.home}/wp-json/wc/v3/products/${r.productId}` }] },
    };
  }

  emailSettings(templateId: string): Record<string, unknown>[] | undefined {
    const setting = this.store.emails.get(templateId);
    if (!setting) return undefined;
    const group = `email_${templateId}`;
    const title = emailTemplates[templateId] ?? templateId;
    const out: Record<string, unknown>[] = [
      {
        id: 'enabled',
        label: 'Enable/Disable',
        description: 'Enable this email notification',
        type: 'checkbox',
        default: 'yes',
        tip: '',
        value: setting.enabled,
      },
    ];
    if (setting.recipient !== undefined)
      out.push({
        id: 'recipient',
        label: 'Recipient(s)',
        description: `Enter recipients (comma separated) for this email. Defaults to ${this.store.adminEmail}.`,
        type: 'text',
        default: '',
        tip: `Enter recipients (comma separated) for this email. Defaults to ${this.store.adminEmail}.`,
        value: setting.recipient,
      });
    out.push(
      {
        id: 'subject',
        label: 'Subject',
        description: '',
        type: 'text',
        default: '',
        tip: '',
        value: setting.subject,
        placeholder: `[{site_title}]: ${title}`,
      },
      {
        id: 'heading',
        label: 'Email heading',
        description: '',
        type: 'text',
        default: '',
        tip: '',
        value: setting.heading,
        placeholder: title,
      },
      {
        id: 'additional_content',
        label: 'Additional content',
        description: '',
        type: 'textarea',
        default: '',
        tip: '',
        value: setting.additional_content,
      },
      {
        id: 'email_type',
        label: 'Email type',
        description: 'Choose which format of email to send.',
        type: 'select',
        default: 'html',
        options: { plain: 'Plain text', html: 'HTML', multipart: 'Multipart' },
        tip: 'Choose which format of email to send.',
        value: setting.email_type,
      },
    );
    return out.map((s) => ({
      ...s,
      group_id: group,
      _links: {
        self: [{ href: `${this.home}/wp-json/wc/v3/settings/${group}/${String(s.id)}` }],
        collection: [{ href: `${this.home}/wp-json/wc/v3/settings/${group}` }],
      },
    }));
  }
}

const blockTag = /^<(p|div|ul|ol|h[1-6]|table|blockquote|pre|figure|section)[\s>]/i;

/** wpautop(), reduced to what a review's `context=view` answer shows: paragraphs and breaks. */
function autop(text: string): string {
  if (text.trim() === '') return '';
  return `${text
    .trim()
    .split(/\n\s*\n/)
    .map((chunk) => (blockTag.test(chunk) ? chunk : `<p>${chunk.replace(/\n/g, '<br />\n')}</p>`))
    .join('\n')}\n`;
}
