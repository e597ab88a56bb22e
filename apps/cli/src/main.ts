import type { Connector } from '@replatform/connectors/kit/contract';
import { runCli, type CliDeps } from './cli.ts';

// The platforms of @replatform/connectors/registry, each loaded only when a command names it:
// a run needs two of the four, and loading the others would only delay every start.
const load =
  <T>(connector: () => Promise<T>) =>
  async () =>
    (await connector()) as Connector<unknown>;
const registry: CliDeps['registry'] = {
  bigcommerce: load(
    async () =>
      (await import('@replatform/connectors/bigcommerce/bigcommerce-connector'))
        .bigCommerceConnector,
  ),
  magento2: load(
    async () =>
      (await import('@replatform/connectors/magento2/magento-connector')).magentoConnector,
  ),
  shopify: load(
    async () => (await import('@replatform/connectors/shopify/shopify-connector')).shopifyConnector,
  ),
  woocommerce: load(
    async () =>
      (await import('@replatform/connectors/woocommerce/woocommerce')).wooCommerceConnector,
  ),
};

// Ctrl-C stops the run at a batch boundary (nothing is lost; run again to continue); a second
// Ctrl-C quits at once, which loses nothing either, since every batch is committed atomically.
const controller = new AbortController();
let stopping = false;
const stop = () => {
  if (stopping) process.exit(130);
  stopping = true;
  process.stderr.write('\nStopping after the batches in flight (Ctrl-C again to quit now)...\n');
  controller.abort();
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

const code = await runCli(process.argv.slice(2), {
  registry,
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
  cwd: process.cwd(),
  signal: controller.signal,
});
process.exitCode = code;
// Nothing should be left running; if a socket lingers, do not keep the shell waiting.
setTimeout(() => process.exit(code), 2_000).unref();
