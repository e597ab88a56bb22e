import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  preferencesResponseSchema,
  updatePreferencesRequestSchema,
  withPreferenceDefaults,
  type PreferencesResponse,
} from '@replatform/contracts/forms';
import { UserPreferencesRepository, type StoredPreferences } from '@replatform/db/forms-repository';
import { requireUser } from '../../auth/require-user.ts';

function present(stored: StoredPreferences | null): PreferencesResponse {
  return {
    ...withPreferenceDefaults(stored ?? {}),
    updatedAt: stored?.updatedAt ?? null,
  };
}

/**
 * GET /api/preferences and PUT /api/preferences (signed-in): the notification and display
 * preferences of the settings page (spec.md section 3), with the spec's defaults for anything
 * never saved. A PUT replaces the group(s) it sends and leaves the other as it was.
 */
export const preferencesRoutes: FastifyPluginAsyncZod = async (app) => {
  const repo = new UserPreferencesRepository(app.services.db);
  app.services.auth.onUserDeleted(async (userId) => {
    await repo.delete(userId);
  });

  app.get(
    '/api/preferences',
    { schema: { response: { 200: preferencesResponseSchema } } },
    async (request) => {
      const user = await requireUser(request);
      return present(await repo.find(user.id));
    },
  );

  app.put(
    '/api/preferences',
    {
      schema: {
        body: updatePreferencesRequestSchema,
        response: { 200: preferencesResponseSchema },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      const saved = await repo.save(user.id, request.body);
      return present(saved);
    },
  );
};
