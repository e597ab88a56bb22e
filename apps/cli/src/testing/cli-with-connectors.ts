import { connectorRegistry } from '@replatform/connectors/registry';
import type { Connector } from '@replatform/connectors/kit/contract';
import { magentoConnector } from '@replatform/connectors/magento2/magento-connector';
import { wooCommerceConnector } from '@replatform/connectors/woocommerce/woocommerce';
import { runCli } from '../cli.ts';

/**
 * The CLI as main.ts runs it, with the WooCommerce and Magento connectors present whether or not
 * the registry lists them yet: the crash test drives this as a real child process.
 */
const registry = {
  woocommerce: wooCommerceConnector as Connector<unknown>,
  magento2: magentoConnector as Connector<unknown>,
  ...connectorRegistry,
};
const controller = new AbortController();
process.on('SIGTERM', () => controller.abort());
process.on('SIGINT', () => controller.abort());
process.exitCode = await runCli(process.argv.slice(2), {
  registry,
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
  cwd: process.cwd(),
  signal: controller.signal,
});
