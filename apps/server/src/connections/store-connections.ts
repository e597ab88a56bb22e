import type { ContentAccess } from '@replatform/contracts/migration';
import { z } from 'zod';
import type { Platform } from '@replatform/contracts/migration';
import { bigCommerceStoreHash } from '@replatform/connectors/bigcommerce/store-hash';
import {
  writeChoicesOf,
  type Connection,
  type Connector,
  type ConnectorHttp,
  type WriteChoices,
} from '@replatform/connectors/kit/contract';
import { ConnectorError } from '@replatform/connectors/kit/errors';
import { createAdaptiveLimiter } from '@replatform/connectors/kit/http/adaptive-limiter';
import { createHttpClient, type HttpClient } from '@replatform/connectors/kit/http/http-client';
import type { StoredMigration } from '@replatform/db/migrations-repository';
import { ApiError } from '../http/errors.ts';
import type { CredentialVault } from '../security/credential-vault.ts';
import { storedOptions } from '../migrations/present-migration.ts';
import { contentAccess, openCredentials, type Side } from '../migrations/store-credentials.ts';

export type ConnectorRegistry = Partial<Record<Platform, Connector<unknown>>>;

export interface StoreConnectionOptions {
  registry: ConnectorRegistry;
  vault: CredentialVault;
  /** Exact origins admitted by the egress guard although private (sandbox stores, local tests). */
  egressAllowlist: readonly string[];
  /** Whether plain-http store addresses are allowed at all (off by default). */
  egressAllowHttp: boolean;
  /**
   * The transport's deadline for one request. Connectors enforce their own, shorter deadlines
   * (WooCommerce: 60 s); this one must never be shorter, or a batch the store is still working on
   * is abandoned and sent again. Default 120 s.
   */
  timeoutMs?: number;
  /** Wraps the guarded client, e.g. to route sandbox shops to their emulators. */
  route?: (http: ConnectorHttp) => ConnectorHttp;
}

/**
 * Opens connections to the stores of a migration. Every connection's network traffic goes through
 * one egress-guarded HTTP client, so no connector can reach a private address.
 */
export class StoreConnections {
  readonly #options: StoreConnectionOptions;
  readonly #client: HttpClient;
  readonly #http: ConnectorHttp;

  constructor(options: StoreConnectionOptions) {
    this.#options = options;
    this.#client = createHttpClient({
      allowlist: [...options.egressAllowlist],
      allowHttp: options.egressAllowHttp,
      timeoutMs: options.timeoutMs ?? 120_000,
    });
    this.#http = options.route ? options.route(this.#client) : this.#client;
  }

  connector(platform: string): Connector<unknown> {
    const connector = this.#options.registry[platform as Platform];
    if (!connector)
      throw new ApiError(
        400,
        'unsupported_platform',
        `Connections to ${platform} are not available.`,
      );
    return connector;
  }

  /**
   * Parses credentials for a platform with its connector's strict schema: 400 on bad input, each
   * problem in the details under the field name the caller sent and the first one as the message
   * under the field's label (`describe` maps the connector's field names to the caller's).
   */
  parseCredentials(
    platform: Platform,
    input: unknown,
    describe: (connectorField: string) => { name: string; label: string } = (field) => ({
      name: field,
      label: field,
    }),
  ): unknown {
    const parsed = this.connector(platform).credentialsSchema.safeParse(input);
    if (!parsed.success) {
      const named = parsed.error.issues.map((issue) => ({
        field: issue.path.length ? describe(issue.path.map(String).join('.')) : undefined,
        message: issue.message,
      }));
      const first = named[0];
      throw new ApiError(
        400,
        'invalid_credentials',
        first?.field
          ? `${first.field.label}: ${first.message}`
          : 'Some connection details are missing or malformed.',
        named.map((n) => `${n.field?.name ?? 'credentials'}: ${n.message}`),
      );
    }
    return parsed.data;
  }

  /**
   * A connection with a limiter of its own: requests in flight to the store start at 2 and follow
   * what the store can take (kit/http/adaptive-limiter.ts), shared by all the lanes of a run.
   */
  connect(platform: Platform, credentials: unknown, choices?: Partial<WriteChoices>): Connection {
    return this.connector(platform).connect(credentials, {
      http: this.#http,
      limiter: createAdaptiveLimiter({ initial: 2, max: 16 }),
      ...(choices ? { choices } : {}),
    });
  }

  /** Whether each side's connection opens its store's web pages and blog posts. */
  contentAccess(migration: StoredMigration): ContentAccess {
    return contentAccess(this.#options.vault, migration);
  }

  /** A connection to one verified side of a stored migration. */
  connectSide(migration: StoredMigration, side: Side): Connection {
    const sealed = openCredentials(this.#options.vault, migration, side);
    const verified = side === 'source' ? migration.sourceVerified : migration.destinationVerified;
    if (!sealed || !verified) {
      throw new ApiError(409, 'store_not_connected', `Connect the ${side} store first.`);
    }
    // The destination writes as the owner chose (order numbers, slugs, e-mails).
    const choices = side === 'destination' ? writeChoicesOf(storedOptions(migration)) : undefined;
    return this.connect(
      sealed.platform,
      this.parseCredentials(sealed.platform, sealed.secrets),
      choices,
    );
  }

  /**
   * The platform and address of the store whose credentials are sealed on one side of a migration
   * (what a run would really connect to), or undefined when nothing readable is sealed there.
   */
  sealedStore(
    migration: StoredMigration,
    side: Side,
  ): { platform: Platform; address: string } | undefined {
    let sealed: ReturnType<typeof openCredentials>;
    try {
      sealed = openCredentials(this.#options.vault, migration, side);
    } catch {
      return undefined;
    }
    if (!sealed) return undefined;
    return { platform: sealed.platform, address: displayAddress(sealed.platform, sealed.secrets) };
  }

  /** The guarded (and, with sandbox stores, routed) client, for calls outside a connector. */
  get http(): ConnectorHttp {
    return this.#http;
  }

  close(): Promise<void> {
    return this.#client.close();
  }
}

/**
 * Maps a connector failure to an API error whose message a store owner can act on. A store that
 * did not answer, or answered nonsense, is a failed dependency of the request (424), so every
 * failure of a store reaches the browser as a 4xx with a reason, never as a fault of ours.
 */
export function connectionFailure(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof ConnectorError) {
    if (error.errorClass === 'config') {
      return new ApiError(400, 'verification_failed', error.message);
    }
    if (error.errorClass === 'transient') {
      return new ApiError(
        424,
        'store_unreachable',
        'The store did not answer in time. Please try again.',
      );
    }
  }
  return new ApiError(
    424,
    'verification_failed',
    'The store gave an answer we could not understand.',
  );
}

export const credentialFieldsSchema = z.object({
  sourceStoreUrl: z.string().trim().max(500).optional(),
  storeHash: z.string().trim().max(100).optional(),
  shopDomain: z.string().trim().max(255).optional(),
  consumerKey: z.string().trim().max(500).optional(),
  consumerSecret: z.string().trim().max(500).optional(),
  accessToken: z.string().trim().max(2000).optional(),
  accessTokenSecret: z.string().trim().max(500).optional(),
  /** WooCommerce only, optional: what opens the store's WordPress pages and posts. */
  wordpressUser: z.string().trim().max(200).optional(),
  wordpressApplicationPassword: z.string().trim().max(200).optional(),
});
export type CredentialFields = z.infer<typeof credentialFieldsSchema>;

/**
 * The verify routes keep spec.md section 7's field names; each connector has its own credential
 * shape. This is the one place that translates between them.
 */
export function connectorCredentials(
  platform: Platform,
  fields: CredentialFields,
): Record<string, unknown> {
  const defined = (o: Record<string, string | undefined>) =>
    Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== ''));
  switch (platform) {
    case 'woocommerce':
      return defined({
        storeUrl: fields.sourceStoreUrl,
        consumerKey: fields.consumerKey,
        consumerSecret: fields.consumerSecret,
        wordpressUser: fields.wordpressUser,
        wordpressApplicationPassword: fields.wordpressApplicationPassword,
      });
    case 'magento2':
      return defined({
        storeUrl: fields.sourceStoreUrl,
        consumerKey: fields.consumerKey,
        consumerSecret: fields.consumerSecret,
        accessToken: fields.accessToken,
        accessTokenSecret: fields.accessTokenSecret,
      });
    case 'bigcommerce': {
      // Owners paste the API path or the control panel address as often as the bare hash; what
      // holds no hash is passed on unchanged for the credentials schema to refuse.
      const given = fields.storeHash || fields.sourceStoreUrl;
      return defined({
        storeHash: given === undefined ? undefined : (bigCommerceStoreHash(given) ?? given),
        accessToken: fields.accessToken,
      });
    }
    case 'shopify':
      return defined({
        shopDomain: fields.shopDomain ?? fields.sourceStoreUrl,
        accessToken: fields.accessToken,
      });
  }
}

/** What the migration row shows as the store's address for a platform's credentials. */
export function displayAddress(platform: Platform, credentials: Record<string, unknown>): string {
  const pick = (key: string) =>
    typeof credentials[key] === 'string' ? (credentials[key] as string) : '';
  switch (platform) {
    case 'bigcommerce':
      return pick('storeHash');
    case 'shopify':
      return pick('shopDomain');
    default:
      return pick('storeUrl');
  }
}
