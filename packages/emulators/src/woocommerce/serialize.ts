import type { Customer, Order, WcAddress, WooStore, Coupon } from './shop.ts';
import { emailTemplates } from './shop.ts';
import { wcDate, type Meta, type Product, type Term, type Variation } from './store.ts';
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

  image(id: number): Record<string, unknown> | null {
    const a = this.store.attachments.get(id);
    if (!a) return null;
    return {
      id: a.id,
      date_created: wcDate(a.created),
      date_created_gmt: wcDate(a.created),
      date_modified: wcDate(a.created),
      date_modified_gmt: wcDate(a.created),
      src: `${this.home}${a.path}`,
      name: a.name,
      alt: a.alt,
    };
  }

  private termRefs(ids: number[]): Record<string, unknown>[] {
    // wp_get_object_terms() sorts by name.
    return ids
      .map((id) => this.store.terms.get(id))
      .filter((t): t is Term => t !== undefined)
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((t) => ({ id: t.id, name: t.name, slug: t.slug }));
  }

  private priceOf(p: { regularPrice: string; salePrice: string }): {
    price: string;
    onSale: boolean;
  } {
    const onSale =
      p.salePrice !== '' && p.regularPrice !== '' && Number(p.salePrice) < Number(p.regularPrice);
    return { price: onSale ? p.salePrice : p.regularPrice, onSale };
  }

  product(p: Product, context: Context, meta: { include?: string[]; exclude?: string[] } = {}) {
    const variations = this.store
      .variationsOf(p.id)
      .sort((a, b) => a.menuOrder - b.menuOrder || a.id - b.id);
    let { price, onSale } = this.priceOf(p);
    let regular = p.regularPrice;
    let sale = p.salePrice;
    if (p.type === 'variable') {
      const prices = variations.map((v) => this.priceOf(v)).filter((x) => x.price !== '');
      price = prices.length ? String(Math.min(...prices.map((x) => Number(x.price)))) : '';
      onSale = prices.some((x) => x.onSale);
      regular = '';
      sale = '';
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
      regular_price: regular,
      sale_price: sale,
      date_on_sale_from: null,
      date_on_sale_from_gmt: null,
      date_on_sale_to: null,
      date_on_sale_to_gmt: null,
      on_sale: onSale,
      purchasable: price !== '' && published,
      total_sales: p.totalSales,
      virtual: p.virtual,
      downloadable: p.downloadable,
      downloads: [],
      download_limit: -1,
      download_expiry: -1,
      external_url: p.externalUrl,
      button_text: p.buttonText,
      tax_status: p.taxStatus,
      tax_class: p.taxClass,
      manage_stock: p.manageStock,
      stock_quantity: p.stockQuantity,
      backorders: p.backorders,
      backorders_allowed: p.backorders !== 'no',
      backordered: false,
      low_stock_amount: p.lowStockAmount,
      sold_individually: p.soldIndividually,
      weight: p.weight,
      dimensions: { ...p.dimensions },
      shipping_required: !p.virtual,
      shipping_taxable: p.taxStatus === 'taxable',
      shipping_class: '',
      shipping_class_id: '0',
      reviews_allowed: p.reviewsAllowed,
      average_rating: '0.00',
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
        .map((a) => ({ ...a, slug: sanitizeTitle(a.name) })),
      default_attributes: p.defaultAttributes,
      variations: variations.map((v) => v.id),
      grouped_products: p.groupedIds,
      menu_order: p.menuOrder,
      price_html:
        price === '' ? '' : `<span class="woocommerce-Price-amount amount">${price}</span>`,
      related_ids: [],
      meta_data: this.meta(p.meta, meta.include, meta.exclude),
      stock_status: p.stockStatus,
      has_options: p.type === 'variable',
      post_password: '',
      global_unique_id: p.globalUniqueId,
      permalink_template: `${this.home}/product/%pagename%/`,
      generated_slug: sanitizeTitle(p.name),
      _links: this.links(`products/${p.id}`, 'products'),
    };
  }

  /** Variation attribute names come from the parent; a name with non-ASCII letters stays a slug. */
  variationAttributes(v: Variation, parent: Product | undefined) {
    return Object.entries(v.attributes)
      .filter(([, option]) => option !== '')
      .map(([slug, option]) => {
        const attribute = parent?.attributes.find((a) => sanitizeTitle(a.name) === slug);
        const name = attribute && /^[\x20-\x7e]*$/.test(attribute.name) ? attribute.name : slug;
        return { id: 0, name, slug, option };
      });
  }

  variation(v: Variation, context: Context, meta: { include?: string[]; exclude?: string[] } = {}) {
    const parent = this.store.products.get(v.parentId);
    const { price, onSale } = this.priceOf(v);
    const manageStock = v.manageStock;
    return {
      id: v.id,
      type: 'variation',
      date_created: wcDate(v.created),
      date_created_gmt: wcDate(v.created),
      date_modified: wcDate(v.modified),
      date_modified_gmt: wcDate(v.modified),
      description: context === 'view' ? renderForView(v.description) : v.description,
      permalink: `${this.home}/product/${parent?.slug ?? ''}/?${Object.entries(v.attributes)
        .map(([k, o]) => `attribute_${k}=${encodeURIComponent(o)}`)
        .join('&')}`,
      sku: v.sku,
      global_unique_id: v.globalUniqueId,
      price,
      regular_price: v.regularPrice,
      sale_price: v.salePrice,
      date_on_sale_from: null,
      date_on_sale_from_gmt: null,
      date_on_sale_to: null,
      date_on_sale_to_gmt: null,
      on_sale: onSale,
      status: v.status,
      purchasable: price !== '',
      virtual: v.virtual,
      downloadable: v.downloadable,
      downloads: [],
      download_limit: -1,
      download_expiry: -1,
      tax_status: v.taxStatus,
      tax_class: v.taxClass,
      manage_stock: manageStock,
      stock_quantity: manageStock === 'parent' ? (parent?.stockQuantity ?? null) : v.stockQuantity,
      stock_status: v.stockStatus,
      backorders: v.backorders,
      backorders_allowed: v.backorders !== 'no',
      backordered: false,
      low_stock_amount: v.lowStockAmount,
      weight: v.weight,
      dimensions: { ...v.dimensions },
      shipping_class: '',
      shipping_class_id: '0',
      image: this.image(v.imageId),
      attributes: this.variationAttributes(v, parent).map(({ id, name, option }) => ({
        id,
        name,
        option,
      })),
      menu_order: v.menuOrder,
      meta_data: this.meta(v.meta, meta.include, meta.exclude),
      name: parent?.name ?? '',
      parent_id: v.parentId,
      _links: this.links(
        `products/${v.parentId}/variations/${v.id}`,
        `products/${v.parentId}/variations`,
      ),
    };
  }

  term(t: Term) {
    const base = { id: t.id, name: t.name, slug: t.slug };
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
      image: t.imageId ? this.image(t.imageId) : null,
      menu_order: t.menuOrder,
      count: this.store.termCount(t),
      _links: this.links(`${collection}/${t.id}`, collection),
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
      meta_data: this.meta(c.meta),
      _links: this.links(`customers/${c.id}`, 'customers'),
    };
  }

  order(o: Order, meta: { include?: string[]; exclude?: string[] } = {}) {
    const lineMeta = (item: { productId: number; meta: Meta[] }) => {
      const product = this.store.products.get(item.productId);
      return item.meta.map((m) => {
        const attribute = product?.attributes.find((a) => sanitizeTitle(a.name) === m.key);
        return {
          id: m.id,
          key: m.key,
          value: m.value,
          display_key: attribute?.name ?? m.key,
          display_value: String(m.value ?? ''),
        };
      });
    };
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
      customer_ip_address: '',
      customer_user_agent: '',
      created_via: o.createdVia,
      customer_note: o.customerNote,
      date_completed: wcDate(o.dateCompleted),
      date_paid: wcDate(o.datePaid),
      cart_hash: '',
      number: String(o.id),
      meta_data: this.meta(o.meta, meta.include, meta.exclude),
      line_items: o.lineItems.map((i) => {
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
          meta_data: lineMeta(i),
          sku: sellable ? sellable.sku : null,
          global_unique_id: sellable?.globalUniqueId ?? '',
          price: i.quantity ? Math.round((i.total / i.quantity) * 1e6) / 1e6 : 0,
          image: {
            id: imageId,
            src: imageId ? `${this.home}${this.store.attachments.get(imageId)?.path ?? ''}` : '',
          },
          parent_name: variation ? (product?.name ?? null) : null,
        };
      }),
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
        amount: dp(f.total),
        total: dp(f.total),
        total_tax: dp(f.totalTax),
        taxes: [],
        meta_data: this.meta(f.meta),
      })),
      coupon_lines: o.couponLines.map((c) => ({
        id: c.id,
        code: c.code,
        discount: dp(c.discount),
        discount_tax: dp(c.discountTax),
        discount_type: c.discountType,
        nominal_amount: c.nominalAmount,
        free_shipping: c.freeShipping,
        meta_data: this.meta(c.meta),
      })),
      refunds: o.refunds.map((r) => ({
        id: r.id,
        reason: r.reason,
        total: dp(-Math.abs(r.total)),
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

  coupon(c: Coupon) {
    return {
      id: c.id,
      code: c.code,
      amount: Number(c.amount).toFixed(2),
      status: c.status,
      date_created: wcDate(c.created),
      date_created_gmt: wcDate(c.created),
      date_modified: wcDate(c.modified),
      date_modified_gmt: wcDate(c.modified),
      discount_type: c.discountType,
      description: c.description,
      date_expires: wcDate(c.dateExpires),
      date_expires_gmt: wcDate(c.dateExpires),
      usage_count: 0,
      individual_use: false,
      product_ids: [],
      excluded_product_ids: [],
      usage_limit: null,
      usage_limit_per_user: null,
      limit_usage_to_x_items: null,
      free_shipping: c.freeShipping,
      product_categories: [],
      excluded_product_categories: [],
      exclude_sale_items: false,
      minimum_amount: '0.00',
      maximum_amount: '0.00',
      email_restrictions: [],
      used_by: [],
      meta_data: this.meta(c.meta),
      _links: this.links(`coupons/${c.id}`, 'coupons'),
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
