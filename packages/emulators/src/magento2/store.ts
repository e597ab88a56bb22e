import type { EntityType } from '@replatform/canonical/entities';
import { BulkQueue } from './bulk.ts';
import { Catalog } from './catalog.ts';
import { CmsPages } from './cms-pages.ts';
import { Customers } from './customers.ts';
import { Sales } from './sales.ts';
import { SalesRules } from './sales-rules.ts';
import { SalesDocuments } from './sales-documents.ts';
import { TaxClasses } from './tax.ts';

export interface StoreSettings {
  /** Store group name ('Main Website Store'), shown by /V1/store/storeGroups. */
  storeName: string;
  /** Store view name ('Default Store View'). */
  storeViewName: string;
  baseCurrency: string;
  weightUnit: 'kgs' | 'lbs';
  timezone: string;
  locale: string;
}

export const defaultSettings: StoreSettings = {
  storeName: 'Main Website Store',
  storeViewName: 'Default Store View',
  baseCurrency: 'USD',
  weightUnit: 'kgs',
  timezone: 'America/Chicago',
  locale: 'en_US',
};

/** Everything one emulated Magento installation holds. */
export class MagentoStore {
  readonly settings: StoreSettings;
  readonly tax = new TaxClasses();
  readonly catalog = new Catalog(this.tax);
  readonly customers = new Customers(this.tax);
  readonly sales = new Sales(this.customers);
  readonly salesRules = new SalesRules(this.customers);
  readonly creditmemos = new SalesDocuments('creditmemo', this.sales);
  readonly invoices = new SalesDocuments('invoice', this.sales);
  readonly cmsPages = new CmsPages();
  readonly bulk: BulkQueue;

  constructor(
    settings: Partial<StoreSettings> = {},
    bulk: { tickMs?: number; perTick?: number } = {},
  ) {
    this.settings = { ...defaultSettings, ...settings };
    this.bulk = new BulkQueue(bulk);
  }

  /**
   * DELETE /V1/customers/{customerId}: Magento deletes a customer whatever they ordered; their
   * orders stay, no longer tied to an account (sales_order.customer_id is set to null).
   */
  deleteCustomer(id: number): boolean {
    this.customers.delete(id);
    for (const order of this.sales.orders.values()) {
      if (order.customer_id === id) delete order.customer_id;
    }
    return true;
  }

  /** Ids of simple products that are children of a configurable product. */
  childIds(): Set<number> {
    const ids = new Set<number>();
    for (const p of this.catalog.products.values()) {
      if (p.type_id === 'configurable') for (const id of p.links) ids.add(id);
    }
    return ids;
  }

  /**
   * Records as a migration counts them: categories below the store roots, products with
   * configurable children folded into their parent, cart price rules that take a coupon (a
   * specific code or a generated pool; automatic promotions are no coupons), customers, orders,
   * brands (the options of the manufacturer attribute; none without the attribute), CMS pages.
   * Reviews and blog posts: none, core Magento has neither.
   */
  countCanonical(entity: EntityType): number {
    switch (entity) {
      case 'categories':
        return [...this.catalog.categories.values()].filter((c) => c.level >= 2).length;
      case 'products': {
        const children = this.childIds();
        return [...this.catalog.products.values()].filter((p) => !children.has(p.id)).length;
      }
      case 'coupons':
        return [...this.salesRules.rules.values()].filter((r) => r.coupon_type !== 1).length;
      case 'customers':
        return this.customers.customers.size;
      case 'orders':
        return this.sales.orders.size;
      case 'brands':
        return this.catalog.attributes.get('manufacturer')?.options.length ?? 0;
      case 'pages':
        return this.cmsPages.pages.size;
      case 'reviews':
      case 'posts':
        return 0;
    }
  }
}
