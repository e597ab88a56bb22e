import Stripe from 'stripe';
import type { Config } from '../config.ts';

/**
 * The API version every request pins. The OpenAPI description the Stripe emulator checks against
 * (platform-specs/stripe) is of this version, and the fields fulfilment reads (payment_status,
 * amount_total, payment_intent.latest_charge.receipt_url) mean the same in it. The SDK's types
 * describe its own newer version; the fields we use are alike in both.
 */
export const STRIPE_API_VERSION = '2023-08-16';

/** The server's Stripe client, or undefined when no STRIPE_SECRET_KEY is configured (demo only). */
export function createStripeClient(settings: Config['stripe']): Stripe | undefined {
  if (!settings.secretKey) return undefined;
  const base = settings.apiBase ? new URL(settings.apiBase) : undefined;
  const protocol = base?.protocol === 'http:' ? 'http' : 'https';
  return new Stripe(settings.secretKey, {
    apiVersion: STRIPE_API_VERSION as unknown as Stripe.LatestApiVersion,
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    appInfo: { name: 'Replatform' },
    // Tests and local runs only (config refuses it in production): the Stripe emulator.
    ...(base
      ? {
          host: base.hostname,
          port: Number(base.port || (protocol === 'http' ? 80 : 443)),
          protocol,
        }
      : {}),
  });
}
