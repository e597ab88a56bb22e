import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  notificationListQuerySchema,
  notificationListSchema,
  notificationReadResponseSchema,
} from '@replatform/contracts/notifications';
import { requireUser } from '../../auth/require-user.ts';
import { notFound } from '../../http/errors.ts';

/**
 * GET /api/notifications (newest first, with the unread count), POST /api/notifications/{id}/read
 * and POST /api/notifications/read-all. Only ever the signed-in user's own notifications.
 */
export const notificationRoutes: FastifyPluginAsyncZod = async (app) => {
  const { notifications, auth } = app.services;
  auth.onUserDeleted(async (userId) => {
    await notifications.deleteAllForUser(userId);
  });

  app.get(
    '/api/notifications',
    {
      schema: {
        querystring: notificationListQuerySchema,
        response: { 200: notificationListSchema },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      return notifications.list(user.id, request.query.limit);
    },
  );

  app.post(
    '/api/notifications/read-all',
    { schema: { response: { 200: notificationReadResponseSchema } } },
    async (request) => {
      const user = await requireUser(request);
      await notifications.markAllRead(user.id);
      return { unreadCount: await notifications.unreadCount(user.id) };
    },
  );

  app.post(
    '/api/notifications/:id/read',
    {
      schema: {
        params: z.object({ id: z.string().min(1).max(64) }),
        response: { 200: notificationReadResponseSchema },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      if (!(await notifications.markRead(request.params.id, user.id))) {
        throw notFound('The notification could not be found.');
      }
      return { unreadCount: await notifications.unreadCount(user.id) };
    },
  );
};
