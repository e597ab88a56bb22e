import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authConfigSchema } from '@replatform/contracts/session';

/**
 * Which sign-in methods this instance offers, so the auth screen shows only working buttons, and
 * whether mail really leaves (the screen says where a confirmation link went).
 */
export const authConfigRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/api/auth-config', { schema: { response: { 200: authConfigSchema } } }, async () => ({
    providers: { google: app.services.auth.providers.google, demo: true },
    passwordMinLength: 8,
    mail: app.services.auth.mailer.transport,
  }));
};
