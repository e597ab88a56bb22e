import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiErrorSchema } from '@replatform/contracts/api-error';
import {
  enterpriseQuoteRequestSchema,
  enterpriseQuoteResponseSchema,
  storeSizeLabels,
} from '@replatform/contracts/forms';
import { EnterpriseQuotesRepository } from '@replatform/db/forms-repository';
import { RateLimitEventsRepository } from '@replatform/db/rate-limit-events-repository';
import { SlidingWindowCounter, type Limit } from '../../auth/rate-limit.ts';
import { limitAddress } from '../../http/client-address.ts';
import {
  mailOperatorInBackground,
  operatorMail,
  operatorMailsSettled,
} from '../contact/operator-mail.ts';

/** Anyone may ask for a quote, so requests are limited per client address. */
export const enterpriseQuoteLimits = {
  perAddress: { max: 5, windowMs: 60 * 60 * 1000 },
} satisfies Record<string, Limit>;

/**
 * POST /api/enterprise-quotes (public): the enterprise page's quote request, stored and, when
 * OPERATOR_EMAIL is configured, mailed to the operator. Cross-site posts are refused by the
 * app-wide origin check; a request that filled the hidden `website` field is answered like any
 * other, so an automated submitter learns nothing, but is not kept.
 */
export const enterpriseRoutes: FastifyPluginAsyncZod = async (app) => {
  const quotes = new EnterpriseQuotesRepository(app.services.db);
  // Counted in the database, so the limit holds over every server.
  const counter = new SlidingWindowCounter(
    undefined,
    new RateLimitEventsRepository(app.services.db),
  );
  app.addHook('preClose', () => operatorMailsSettled(app));

  app.post(
    '/api/enterprise-quotes',
    {
      schema: {
        body: enterpriseQuoteRequestSchema,
        response: { 201: enterpriseQuoteResponseSchema, 429: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const key = `quote:${limitAddress(request, app.services.config.trustProxy)}`;
      const wait = await counter.take(key, enterpriseQuoteLimits.perAddress);
      if (wait > 0) {
        const minutes = Math.max(1, Math.ceil(wait / 60_000));
        return reply
          .status(429)
          .header('retry-after', String(Math.ceil(wait / 1000)))
          .type('application/json; charset=utf-8')
          .send({
            error: {
              code: 'rate_limited',
              message: `Too many quote requests from your network. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
            },
          });
      }

      const { website, ...quote } = request.body;
      if (website?.trim()) {
        request.log.info('enterprise quote request dropped: hidden field filled');
        return reply.status(201).send({ received: true });
      }
      const stored = await quotes.create(quote);
      request.log.info({ enterpriseQuoteId: stored.id }, 'enterprise quote request stored');
      mailOperatorInBackground(
        app,
        (to) =>
          operatorMail({
            to,
            subject: `[Enterprise quote] ${quote.storeName} (${quote.storeSize})`,
            intro: 'A quote was requested from the enterprise page.',
            fields: [
              ['Name', quote.name],
              ['Email', quote.email],
              ['Store', quote.storeName],
              ['Store size', storeSizeLabels[quote.storeSize]],
              ['Reference', stored.id],
            ],
            body: quote.comments,
          }),
        () => quotes.markEmailed(stored.id),
        { kind: 'enterprise-quote', id: stored.id },
      );
      return reply.status(201).send({ received: true });
    },
  );
};
