import type { StoreValue, StoreValueList, StoreValues } from '../kit/contract.ts';
import { searchResults, taxClassSchema } from './magento-schemas.ts';
import { criteria, type MagentoSession } from './session.ts';

/**
 * The store's customer groups and product tax classes for the "Map fields" panel, each value as
 * to-canonical.ts reads it and labelled with the name the admin shows. Both lists are read fresh
 * on every call (a group or class added in the admin since shows at once).
 */
export async function readStoreValues(session: MagentoSession): Promise<StoreValues> {
  const [customerGroups, taxClasses] = await Promise.all([
    customerGroupValues(session),
    taxClassValues(session),
  ]);
  return { customerGroups, taxClasses };
}

/** Customer groups asked for at once; page by page beyond. */
const pageSize = 300;

/**
 * Customer groups (Customers > Customer Groups) by id, each valued by its code, General as ''
 * (customerToCanonical). NOT LOGGED IN (id 0) is left out: Magento gives it to guest orders only,
 * and no customer account can be saved in it. A customer written with a group the store lacks gets
 * a new group of that code (write-customers.ts customerGroupId), hence createsMissing.
 */
async function customerGroupValues(session: MagentoSession): Promise<StoreValueList> {
  const groups = await session.searchCustomerGroups();
  const values = groups
    .filter((g) => g.id !== 0)
    .map((g) => ({ value: g.code === 'General' ? '' : g.code, label: g.code }));
  return { values: defaultFirst(values), createsMissing: true };
}

/**
 * Product tax classes (Stores > Tax Classes of type PRODUCT, which the product's Tax Class field
 * lists) by id, each valued by its name, the standard class as '': the name of class 2 ('Taxable
 * Goods' on a fresh store), as readContext and productToCanonical read it. Customer tax classes
 * go on customer groups, not on records, so they are left out. 'None' is not a class (a product
 * of tax_class_id 0 is not taxable, taxStatus 'none'): a class of that name would be read as
 * "not taxable" too, so it is never a value. A product written with a class the store lacks gets a
 * new product class of that name (write-attributes.ts productTaxClassId), hence createsMissing.
 */
async function taxClassValues(session: MagentoSession): Promise<StoreValueList> {
  const [standard, classes] = await Promise.all([
    session.taxClassName('2'),
    productTaxClasses(session),
  ]);
  const values = classes
    .filter((c) => c.class_name !== 'None')
    .map((c) => ({
      value: c.class_name === standard ? '' : c.class_name,
      label: c.class_name,
    }));
  return { values: defaultFirst(values), createsMissing: true };
}

/**
 * GET /V1/taxClasses/search (admin-schema-2.4.9.yaml GetV1TaxClassesSearch) for class_type
 * PRODUCT by class_id, paged by page number and bounded by total_count (Magento answers a page
 * past the end with the last one again).
 */
async function productTaxClasses(session: MagentoSession) {
  const classes = [];
  for (let page = 1; ; page++) {
    const result = await session.client.get(
      '/V1/taxClasses/search',
      searchResults(taxClassSchema),
      criteria({
        filters: [[['class_type', 'PRODUCT']]],
        sort: [['class_id', 'ASC']],
        pageSize,
        currentPage: page,
      }),
    );
    classes.push(...result.items);
    if (result.items.length < pageSize || classes.length >= result.total_count) return classes;
  }
}

/** The default value ('') first, the others in the store's order. */
function defaultFirst(values: StoreValue[]): StoreValue[] {
  return [...values.filter((v) => v.value === ''), ...values.filter((v) => v.value !== '')];
}
