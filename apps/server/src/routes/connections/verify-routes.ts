import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Platform } from '@replatform/contracts/migration';
import { countsByType, dataTypeNames, entityCountsSchema } from '@replatform/contracts/migration';
import type { MigrationChanges } from '@replatform/db/migrations-repository';
import { countable } from '../../migrations/countable.ts';
import { requireUser } from '../../auth/require-user.ts';
import {
  connectionFailure,
  connectorCredentials,
  credentialFieldsSchema,
  displayAddress,
  type CredentialFields,
} from '../../connections/store-connections.ts';
import { ApiError, notFound } from '../../http/errors.ts';
import { assertDemoMayConnect, assertStoreMayChange } from '../../migrations/store-changes.ts';
import { sealCredentials, sideSchema } from '../../migrations/store-credentials.ts';

const verifyBodySchema = credentialFieldsSchema.extend({
  migrationId: z.string().min(1).max(64),
  side: sideSchema.default('source'),
});

const verifyResponseSchema = z.object({
  status: z.literal('connected'),
  message: z.string(),
  storeName: z.string(),
});

const fieldLabels: Record<string, string> = {
  sourceStoreUrl: 'Store URL',
  storeHash: 'Store hash',
  shopDomain: 'Store URL',
  consumerKey: 'Consumer key',
  consumerSecret: 'Consumer secret',
  accessToken: 'Access token',
  accessTokenSecret: 'Access token secret',
  wordpressUser: 'WordPress user name',
  wordpressApplicationPassword: 'WordPress application password',
};

/**
 * The request field a connector's credential field came from (connectorCredentials maps them the
 * other way) and its label, so a refusal names what the caller sent.
 */
function verifyField(field: string, sent: CredentialFields): { name: string; label: string } {
  const name =
    field === 'storeUrl'
      ? 'sourceStoreUrl'
      : field === 'storeHash' || field === 'shopDomain'
        ? sent[field]
          ? field
          : 'sourceStoreUrl'
        : field;
  return { name, label: fieldLabels[name] ?? name };
}

/** spec.md section 8's success text for Magento; the other platforms answer alike. */
const successText: Record<Platform, string> = {
  magento2: 'Magento store connected successfully!',
  woocommerce: 'WooCommerce store connected successfully!',
  bigcommerce: 'BigCommerce store connected successfully!',
  shopify: 'Shopify store connected successfully!',
};

/**
 * POST /verify-<platform>-connection: checks the credentials against the real store (through the
 * egress guard) and only then stores them, sealed, on that side of the owner's migration.
 * Nothing is stored when verification fails.
 */
export const verifyRoutes: FastifyPluginAsyncZod = async (app) => {
  const { migrations, vault, connections } = app.services;

  const routes: [string, Platform][] = [
    ['/verify-woocommerce-connection', 'woocommerce'],
    ['/verify-magento-connection', 'magento2'],
    ['/verify-bigcommerce-connection', 'bigcommerce'],
    ['/verify-shopify-connection', 'shopify'],
  ];
  for (const [path, platform] of routes) {
    app.post(
      path,
      { schema: { body: verifyBodySchema, response: { 200: verifyResponseSchema } } },
      async (request) => {
        const user = await requireUser(request);
        const { migrationId, side, ...fields } = request.body;
        const migration = await migrations.findForUser(migrationId, user.id);
        if (!migration) throw notFound('The requested migration could not be found.');
        await assertStoreMayChange(app.services, migration, side);
        const credentials = connections.parseCredentials(
          platform,
          connectorCredentials(platform, fields),
          (field) => verifyField(field, fields),
        );
        assertDemoMayConnect(app.services.engine, user, {
          platform,
          address: displayAddress(platform, credentials as Record<string, unknown>),
        });

        let storeName: string;
        try {
          storeName = (
            await connections
              .connect(platform, credentials)
              .check({ write: side === 'destination' })
          ).storeName;
        } catch (error) {
          request.log.info(
            { platform, side, code: (error as { code?: string }).code },
            'store verification failed',
          );
          throw connectionFailure(error);
        }

        const sealed = sealCredentials(vault, migration.id, side, {
          platform,
          secrets: credentials as Record<string, string>,
        });
        const address = displayAddress(platform, credentials as Record<string, unknown>);
        const changes: MigrationChanges =
          side === 'source'
            ? {
                sourceStore: platform,
                sourceStoreUrl: address,
                sourceCredentials: sealed,
                sourceVerified: true,
              }
            : {
                destinationStore: platform,
                destinationStoreUrl: address,
                destinationCredentials: sealed,
                destinationVerified: true,
              };
        const updated = await migrations.update(migration.id, user.id, changes, migration.version);
        if (!updated)
          throw new ApiError(409, 'conflict', 'The migration changed meanwhile. Please try again.');
        return { status: 'connected' as const, message: successText[platform], storeName };
      },
    );
  }

  const flag = z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => v !== 'false');
  // A type added beyond the sketch's three is counted only when asked for, so a client that
  // knows only those three costs the source no more requests than before.
  const askedFlag = z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => v === 'true');

  /**
   * Real counts from the verified source, only for the requested data types (others are 0). A
   * read changes nothing: the counts a migration keeps are stored by the payment that was priced
   * on them and by the start that checks them.
   */
  app.get(
    '/get-total-migration-entities',
    {
      schema: {
        querystring: z.object({
          migrationId: z.string().min(1).max(64),
          products: flag,
          customers: flag,
          orders: flag,
          coupons: askedFlag,
          reviews: askedFlag,
          brands: askedFlag,
          pages: askedFlag,
          posts: askedFlag,
        }),
        response: { 200: entityCountsSchema },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      const { migrationId, ...wanted } = request.query;
      const migration = await migrations.findForUser(migrationId, user.id);
      if (!migration) throw notFound('The requested migration could not be found.');
      const source = connections.connectSide(migration, 'source');
      try {
        const access = connections.contentAccess(migration);
        const found = await Promise.all(
          dataTypeNames.map((entity) =>
            wanted[entity] && countable(migration, entity, access) ? source.count(entity) : 0,
          ),
        );
        return countsByType(found);
      } catch (error) {
        throw connectionFailure(error);
      }
    },
  );
};
