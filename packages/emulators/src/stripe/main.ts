import { parseArgs } from 'node:util';
import { startStripeEmulator } from './stripe-emulator.ts';

/**
 * Runs the Stripe emulator on its own for local runs:
 *
 *   npx node packages/emulators/src/stripe/main.ts --port 12111 \
 *     --webhook-url http://127.0.0.1:4001/api/stripe/webhook --webhook-secret whsec_local
 *
 * then start the server with STRIPE_API_BASE=http://127.0.0.1:12111, STRIPE_SECRET_KEY=sk_test_…
 * and STRIPE_WEBHOOK_SECRET=whsec_local (NODE_ENV development or test).
 */
const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '12111' },
    'webhook-url': { type: 'string' },
    'webhook-secret': { type: 'string', default: 'whsec_local' },
  },
});

const emulator = await startStripeEmulator({
  port: Number(values.port),
  webhooks: values['webhook-url']
    ? [{ url: values['webhook-url'], secret: values['webhook-secret'] ?? 'whsec_local' }]
    : [],
});
console.log(`Stripe emulator on ${emulator.url} (API version 2023-08-16)`);
console.log(`  STRIPE_API_BASE=${emulator.url} STRIPE_SECRET_KEY=sk_test_local`);
if (values['webhook-url']) {
  console.log(
    `  webhooks to ${values['webhook-url']}, STRIPE_WEBHOOK_SECRET=${values['webhook-secret']}`,
  );
}
const stop = () => {
  void emulator.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
