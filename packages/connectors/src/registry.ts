import type { Platform } from '@replatform/contracts/migration';
import type { Connector } from './kit/contract.ts';
import { bigCommerceConnector } from './bigcommerce/bigcommerce-connector.ts';
import { magentoConnector } from './magento2/magento-connector.ts';
import { shopifyConnector } from './shopify/shopify-connector.ts';
import { wooCommerceConnector } from './woocommerce/woocommerce.ts';

/**
 * The explicit list of connectors (no folder scanning). A platform missing here cannot be
 * connected to; the server answers 'unsupported_platform'.
 */
export const connectorRegistry: Partial<Record<Platform, Connector<unknown>>> = {
  bigcommerce: bigCommerceConnector as Connector<unknown>,
  magento2: magentoConnector as Connector<unknown>,
  shopify: shopifyConnector as Connector<unknown>,
  woocommerce: wooCommerceConnector as Connector<unknown>,
};
