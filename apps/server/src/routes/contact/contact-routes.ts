import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiErrorSchema } from '@replatform/contracts/api-error';
import {
  contactMessageListSchema,
  contactMessageRequestSchema,
  contactPriorities,
  contactMessageResponseSchema,
  contactPriorityLabels,
} from '@replatform/contracts/forms';
import { ContactMessagesRepository } from '@replatform/db/forms-repository';
import { RateLimitEventsRepository } from '@replatform/db/rate-limit-events-repository';
import { SlidingWindowCounter, type Limit } from '../../auth/rate-limit.ts';
import { requireUser } from '../../auth/require-user.ts';
import { mailOperatorInBackground, operatorMail, operatorMailsSettled } from './operator-mail.ts';

/** A person writes a handful of messages an hour at most; more is a script or a stuck button. */
export const contactLimits = {
  perUser: { max: 10, windowMs: 60 * 60 * 1000 },
} satisfies Record<string, Limit>;

/**
 * POST /api/contact-messages (signed-in users): the contact page's message form. The message is
 * stored (decisions.md section 5) and, when OPERATOR_EMAIL is configured, a copy is mailed to the
 * operator. GET lists the user's own messages (their data export includes them). Account
 * deletion removes the user's messages with the rest of their data.
 */
export const contactRoutes: FastifyPluginAsyncZod = async (app) => {
  const messages = new ContactMessagesRepository(app.services.db);
  // Counted in the database, so the limit holds over every server.
  const counter = new SlidingWindowCounter(
    undefined,
    new RateLimitEventsRepository(app.services.db),
  );
  app.services.auth.onUserDeleted(async (userId) => {
    await messages.deleteAllForUser(userId);
  });
  app.addHook('preClose', () => operatorMailsSettled(app));

  app.get(
    '/api/contact-messages',
    { schema: { response: { 200: contactMessageListSchema } } },
    async (request) => {
      const user = await requireUser(request);
      const own = await messages.listForUser(user.id, 100);
      return {
        messages: own.map((m) => ({
          id: m.id,
          name: m.name,
          email: m.email,
          company: m.company,
          phone: m.phone,
          subject: m.subject,
          message: m.message,
          priority: (contactPriorities as readonly string[]).includes(m.priority)
            ? (m.priority as (typeof contactPriorities)[number])
            : 'medium',
          createdAt: m.createdAt,
        })),
      };
    },
  );

  app.post(
    '/api/contact-messages',
    {
      schema: {
        body: contactMessageRequestSchema,
        response: { 201: contactMessageResponseSchema, 429: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const key = `contact:${user.id}`;
      const wait = await counter.take(key, contactLimits.perUser);
      if (wait > 0) {
        const minutes = Math.max(1, Math.ceil(wait / 60_000));
        return reply
          .status(429)
          .header('retry-after', String(Math.ceil(wait / 1000)))
          .type('application/json; charset=utf-8')
          .send({
            error: {
              code: 'rate_limited',
              message: `You have sent several messages in a short time. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}, or call or e-mail us.`,
            },
          });
      }

      const body = request.body;
      const stored = await messages.create({ userId: user.id, ...body });
      request.log.info({ contactMessageId: stored.id }, 'contact message stored');
      mailOperatorInBackground(
        app,
        (to) =>
          operatorMail({
            to,
            subject: `[Contact, ${contactPriorityLabels[body.priority]} priority] ${body.subject}`,
            intro: 'A message was sent from the contact page.',
            fields: [
              ['Name', body.name],
              ['Email', body.email],
              ['Company', body.company],
              ['Phone', body.phone],
              ['Priority', contactPriorityLabels[body.priority]],
              ['Subject', body.subject],
              ['Account', `${user.email} (${user.id})`],
              ['Reference', stored.id],
            ],
            body: body.message,
          }),
        () => messages.markEmailed(stored.id),
        { kind: 'contact-message', id: stored.id },
      );
      return reply.status(201).send({ id: stored.id, createdAt: stored.createdAt });
    },
  );
};
