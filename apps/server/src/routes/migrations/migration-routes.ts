import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { checkStepChange, hasSelectedData } from '@replatform/contracts/lifecycle';
import {
  dataTypeNames,
  dataTypeUnavailable,
  migrationSchema,
  normaliseStatus,
  platforms,
  type Platform,
} from '@replatform/contracts/migration';
import {
  createMigrationRequestSchema,
  migrationIdParamsSchema,
  migrationListSchema,
  updateMigrationRequestSchema,
} from '@replatform/contracts/migrations-api';
import type { MigrationChanges } from '@replatform/db/migrations-repository';
import { requireUser } from '../../auth/require-user.ts';
import { ApiError, notFound } from '../../http/errors.ts';
import { isPaid, presentMigration } from '../../migrations/present-migration.ts';
import { PAYMENT_IN_FLIGHT, sideLockedByPayment } from '../../migrations/store-changes.ts';
import { contentAccess } from '../../migrations/store-credentials.ts';

const migrationNotFound = () => notFound('The requested migration could not be found.');

/**
 * The migration resource (spec.md section 7 paths kept as they are, plus our own /api/migrations).
 * Every route resolves the signed-in user first and reads through the owner-scoped repository,
 * so someone else's migration is indistinguishable from one that does not exist (404).
 */
export const migrationRoutes: FastifyPluginAsyncZod = async (app) => {
  const { migrations, vault, engine } = app.services;

  // The `email` query parameter of the sketch is accepted but never widens the list.
  app.get(
    '/get-migrations',
    {
      schema: {
        querystring: z.object({ email: z.string().optional() }),
        response: { 200: migrationListSchema },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      return (await migrations.listForUser(user.id)).map((m) => presentMigration(m, vault));
    },
  );

  app.get(
    '/migration/:id',
    { schema: { params: migrationIdParamsSchema, response: { 200: migrationSchema } } },
    async (request) => {
      const user = await requireUser(request);
      const found = await migrations.findForUser(request.params.id, user.id);
      if (!found) throw migrationNotFound();
      return presentMigration(found, vault);
    },
  );

  app.post(
    '/api/migrations',
    { schema: { body: createMigrationRequestSchema, response: { 201: migrationSchema } } },
    async (request, reply) => {
      const user = await requireUser(request);
      const created = await migrations.create({
        userId: user.id,
        email: user.email,
        storeName: request.body.storeName,
      });
      return reply.status(201).send(presentMigration(created, vault));
    },
  );

  app.patch(
    '/api/migrations/:id',
    {
      schema: {
        params: migrationIdParamsSchema,
        body: updateMigrationRequestSchema,
        response: { 200: migrationSchema },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      const current = await migrations.findForUser(request.params.id, user.id);
      if (!current) throw migrationNotFound();
      const body = request.body;
      // A running job reads the stores, selection and step as they were when it started;
      // changing them under it (possible while unpaid: demo and sandbox runs) would mix two
      // migrations in one. Only the name may change meanwhile.
      const touchesRun = Object.entries(body).some(
        ([key, value]) => key !== 'storeName' && value !== undefined,
      );
      const live = touchesRun ? await engine.jobs.liveJob(current.id) : undefined;
      if (live) {
        throw new ApiError(
          409,
          'migration_running',
          live.kind === 'demo'
            ? 'A demo migration is running; the stores, data selection and step can change once it has finished.'
            : 'This migration is running; its stores, data selection and step cannot change until it ends.',
        );
      }
      const touchesPayment =
        body.dataTypes !== undefined ||
        [
          body.sourceStore,
          body.sourceStoreUrl,
          body.destinationStore,
          body.destinationStoreUrl,
        ].some((value) => value !== undefined);
      // A demo payment in flight was priced for these stores and this selection.
      if (touchesPayment && (await app.services.payments.demoPaymentInFlight(current.id))) {
        throw new ApiError(409, 'payment_in_flight', PAYMENT_IN_FLIGHT);
      }
      const paid = isPaid(current);
      const changes: MigrationChanges = {};
      if (body.storeName !== undefined) changes.storeName = body.storeName;

      // Changing a side's platform or address forgets that side's verified credentials.
      for (const side of ['source', 'destination'] as const) {
        const platform = side === 'source' ? body.sourceStore : body.destinationStore;
        const url = side === 'source' ? body.sourceStoreUrl : body.destinationStoreUrl;
        const platformChanged =
          platform !== undefined &&
          platform !== (side === 'source' ? current.sourceStore : current.destinationStore);
        const urlChanged =
          url !== undefined &&
          url !== (side === 'source' ? current.sourceStoreUrl : current.destinationStoreUrl);
        if (!platformChanged && !urlChanged) continue;
        if (sideLockedByPayment(current, side))
          throw new ApiError(
            409,
            'migration_paid',
            'This migration is paid for; its stores can no longer be changed.',
          );
        if (side === 'source') {
          if (platform !== undefined) changes.sourceStore = platform;
          if (url !== undefined) changes.sourceStoreUrl = url;
          changes.sourceCredentials = null;
          changes.sourceVerified = false;
        } else {
          if (platform !== undefined) changes.destinationStore = platform;
          if (url !== undefined) changes.destinationStoreUrl = url;
          changes.destinationCredentials = null;
          changes.destinationVerified = false;
        }
      }
      if (body.dataTypes !== undefined) {
        // A migration paid before anything was selected may still choose what to move.
        if (paid && hasSelectedData(current.dataTypes))
          throw new ApiError(
            409,
            'migration_paid',
            'This migration is paid for; its data selection can no longer be changed.',
          );
        changes.dataTypes = {
          products: false,
          customers: false,
          orders: false,
          coupons: false,
          reviews: false,
          brands: false,
          pages: false,
          posts: false,
          ...body.dataTypes,
        };
      }
      // Mappings change what the orders become, not what is paid for: they may change whenever
      // no run is live, and the next run writes again the orders they change.
      if (body.fieldMappings !== undefined) {
        changes.fieldMappings = { ...current.fieldMappings, ...body.fieldMappings };
      }
      // Options too: they change how the next run writes, not what is paid for.
      if (body.migrationOptions !== undefined) {
        changes.migrationOptions = { ...current.migrationOptions, ...body.migrationOptions };
      }
      // A data type one of the two platforms cannot carry (reviews and Magento, brands into
      // Shopify), or a WooCommerce connection does not open (pages and posts without a WordPress
      // application password), cannot be chosen;
      // a selection made before the platform changed to such a one is cleared while unpaid.
      {
        const merged = { ...current, ...changes };
        const isPlatform = (p: string): p is Platform =>
          (platforms as readonly string[]).includes(p);
        if (isPlatform(merged.sourceStore) && isPlatform(merged.destinationStore)) {
          for (const type of dataTypeNames) {
            if (merged.dataTypes[type] !== true) continue;
            const reason = dataTypeUnavailable(
              type,
              merged.sourceStore,
              merged.destinationStore,
              contentAccess(vault, merged),
            );
            if (!reason) continue;
            if (body.dataTypes?.[type] === true)
              throw new ApiError(400, 'data_type_unavailable', reason);
            if (!paid)
              changes.dataTypes = { ...(changes.dataTypes ?? merged.dataTypes), [type]: false };
          }
        }
      }
      if (body.currentStep !== undefined) {
        const merged = { ...current, ...changes };
        const check = checkStepChange(
          {
            currentStep: current.currentStep,
            status: normaliseStatus(current.status),
            sourceStore: merged.sourceStore,
            destinationStore: merged.destinationStore,
            sourceVerified: merged.sourceVerified,
            destinationVerified: merged.destinationVerified,
            dataTypes: merged.dataTypes,
            paid,
          },
          body.currentStep,
        );
        if (!check.ok) throw new ApiError(409, 'step_not_allowed', check.reason);
        changes.currentStep = body.currentStep;
        // Next Step of spec.md section 4: moving on sets a pending migration in progress.
        if (
          body.currentStep > current.currentStep &&
          normaliseStatus(current.status) === 'pending'
        ) {
          changes.status = 'in-progress';
        }
      }
      const updated = await migrations.update(current.id, user.id, changes, current.version);
      if (!updated)
        throw new ApiError(
          409,
          'conflict',
          'The migration changed meanwhile. Reload and try again.',
        );
      return presentMigration(updated, vault);
    },
  );

  app.delete(
    '/api/migrations/:id',
    { schema: { params: migrationIdParamsSchema } },
    async (request, reply) => {
      const user = await requireUser(request);
      const current = await migrations.findForUser(request.params.id, user.id);
      if (!current) throw migrationNotFound();
      if (normaliseStatus(current.status) === 'in-progress' && current.currentStep === 4) {
        throw new ApiError(409, 'migration_running', 'A running migration cannot be deleted.');
      }
      await migrations.delete(current.id, user.id);
      return reply.status(204).send();
    },
  );
};
