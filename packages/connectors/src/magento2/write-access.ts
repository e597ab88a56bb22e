import { z } from 'zod';
import { ConnectorError } from '../kit/errors.ts';
import { listInWords } from '../kit/words.ts';
import { MagentoApiError, type MagentoClient } from './client.ts';
import { criteria } from './session.ts';

/**
 * Proves that an integration may do what a migration into this store does. Magento's web API
 * authorises a request by the one ACL resource its route names (etc/webapi.xml), whatever the
 * method, and checks it before the request's input is even read; a refusal is a 401 "The consumer
 * isn't authorized to access %resources." There is no route that lists an integration's
 * resources, so each resource the writes need is tried with one request that changes nothing:
 * - the catalogue, CMS page, tax, customer group, invoice and credit memo resources guard reading and
 *   writing alike (GET and POST /V1/products both need Magento_Catalog::products), so a read of
 *   each proves it;
 * - Magento_Customer::manage: PUT /V1/customers/validate, which only validates a customer;
 * - Magento_Sales::create: PUT /V1/orders/{parent_id} with an order address that has neither an
 *   order nor e-mail nor street, which Magento's address validator refuses before anything is
 *   stored (400 "The order address couldn't be saved.");
 * - the bulk-operations log (customers are imported in bulk): the status of a bulk that does not
 *   exist (404);
 * - Magento_Sales::emails, only when the owner lets the store e-mail customers (new orders are
 *   then sent their confirmation): POST /V1/orders/0/emails, for an order that does not exist
 *   (404, nothing sent).
 * Any answer other than 401 shows the resource was granted.
 */

interface Probe {
  resource: string;
  /** Where the resource is ticked on the integration's API tab. */
  label: string;
  /** What the migration could not do without it. */
  needed: string;
  send(client: MagentoClient): Promise<unknown>;
}

const anything = z.unknown();
const first = criteria({ pageSize: 1, currentPage: 1 });

const probes: Probe[] = [
  {
    resource: 'Magento_Catalog::categories',
    label: 'Catalog > Inventory > Categories',
    needed: 'create categories',
    send: (client) => client.get('/V1/categories/list', anything, first),
  },
  {
    resource: 'Magento_Catalog::products',
    label: 'Catalog > Inventory > Products',
    needed: 'create products',
    send: (client) => client.get('/V1/products', anything, first),
  },
  {
    resource: 'Magento_Catalog::catalog',
    label: 'Catalog',
    needed: 'upload product images',
    send: (client) => client.get('/V1/products/replatform-write-check/media', anything),
  },
  {
    resource: 'Magento_Catalog::attributes_attributes',
    label: 'Stores > Attributes > Product',
    needed: 'create product attributes',
    send: (client) => client.get('/V1/products/attributes/sku', anything),
  },
  {
    resource: 'Magento_Catalog::sets',
    label: 'Stores > Attributes > Attribute Set',
    needed: 'add attributes to the attribute set',
    send: (client) => client.get('/V1/products/attribute-sets/sets/list', anything, first),
  },
  {
    resource: 'Magento_SalesRule::quote',
    label: 'Marketing > Cart Price Rules',
    needed: 'create coupons',
    send: (client) => client.get('/V1/salesRules/search', anything, first),
  },
  {
    resource: 'Magento_Cms::page',
    label: 'Content > Elements > Pages',
    needed: 'create CMS pages',
    send: (client) => client.get('/V1/cmsPage/search', anything, first),
  },
  {
    resource: 'Magento_Customer::manage',
    label: 'Customers > All Customers',
    needed: 'create or change customers',
    send: (client) =>
      client.request('PUT', '/V1/customers/validate', anything, {
        body: {
          customer: {
            email: 'write-check@replatform.example',
            firstname: 'Replatform',
            lastname: 'Check',
          },
        },
      }),
  },
  {
    resource: 'Magento_Sales::create',
    label: 'Sales > Operations > Orders > Actions > Create',
    needed: 'create orders',
    // Order 0 does not exist, and the address names no order (parent_id), e-mail or street.
    send: (client) =>
      client.request('PUT', '/V1/orders/0', anything, {
        body: {
          entity: {
            address_type: 'billing',
            firstname: 'Replatform',
            lastname: 'Check',
            city: 'Check',
            postcode: '00000',
            country_id: 'US',
            telephone: '0',
          },
        },
      }),
  },
  {
    resource: 'Magento_Tax::manage_tax',
    label: 'Stores > Taxes > Tax Rules',
    needed: 'create tax classes',
    send: (client) => client.get('/V1/taxClasses/search', anything, first),
  },
  {
    resource: 'Magento_Customer::group',
    label: 'Customers > Customer Groups',
    needed: 'create customer groups',
    send: (client) => client.get('/V1/customerGroups/search', anything, first),
  },
  {
    resource: 'Magento_Sales::sales_invoice',
    label: 'Sales > Operations > Invoices',
    needed: 'record when orders were paid',
    send: (client) => client.get('/V1/invoices', anything, first),
  },
  {
    resource: 'Magento_Sales::sales_creditmemo',
    label: 'Sales > Operations > Credit Memos',
    needed: 'record refunds',
    send: (client) => client.get('/V1/creditmemos', anything, first),
  },
  {
    resource: 'Magento_Logging::system_magento_logging_bulk_operations',
    label: 'System > Action Logs > Bulk Actions',
    needed: 'follow the bulk imports of customers',
    send: (client) => client.get('/V1/bulk/00000000-0000-0000-0000-000000000000/status', anything),
  },
];

/** Asked for only when the owner lets the store e-mail customers. */
const orderEmails: Probe = {
  resource: 'Magento_Sales::emails',
  label: 'Sales > Operations > Orders > Actions > Send Sales Emails',
  needed: 'send order confirmations',
  send: (client) => client.request('POST', '/V1/orders/0/emails', anything),
};

export async function checkWriteAccess(
  client: MagentoClient,
  choices: { notifyCustomers: boolean } = { notifyCustomers: false },
): Promise<void> {
  const missing: Probe[] = [];
  for (const probe of choices.notifyCustomers ? [...probes, orderEmails] : probes) {
    try {
      await probe.send(client);
    } catch (error) {
      if (!(error instanceof MagentoApiError)) throw error;
      if (error.status === 401) missing.push(probe);
      // Refused or not found after the ACL check: the resource was granted.
      else if (error.status !== 400 && error.status !== 404) throw error;
    }
  }
  if (missing.length === 0) return;
  throw new ConnectorError(
    'config',
    'read_only_credentials',
    `This Magento integration may not ${listInWords(missing.map((p) => p.needed))}: it lacks the API resource${missing.length > 1 ? 's' : ''} ${listInWords(missing.map((p) => `${p.label} (${p.resource})`))}. A destination store needs them: tick them on the integration's API tab under System > Extensions > Integrations, save it and reauthorize it.`,
    { status: 401 },
  );
}
