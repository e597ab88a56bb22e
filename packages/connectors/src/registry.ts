import type { Platform } from '@replatform/contracts/migration';
import type { Connector } from './kit/contract.ts';
import { magentoConnector } from './magento2/magento-connector.ts';
import { wooCommerceConnector } from './woocommerce/woocommerce.ts';

/**
 * The explicit list of connectors (no folder scanning). A platform missing here cannot be
 * connected to; the server answers 'unsupported_platform'.
 */
export const connectorRegistry: Partial<Record<Platform, Connector<unknown>>> = {
  magento2: magentoConnector as Connector<unknown>,
  woocommerce: wooCommerceConnector as Connector<unknown>,
};
