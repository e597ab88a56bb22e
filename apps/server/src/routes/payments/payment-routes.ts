import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { paymentInfoSchema } from '@replatform/contracts/migration';
import {
  checkoutSessionResponseSchema,
  createCheckoutSessionRequestSchema,
  demoPaymentRequestSchema,
  paymentRecordedResponseSchema,
  paymentSuccessRequestSchema,
  paymentsConfigSchema,
  paymentSummarySchema,
  receiptResponseSchema,
} from '@replatform/contracts/payments';
import { optionalUser, requireUser } from '../../auth/require-user.ts';
import { ApiError } from '../../http/errors.ts';

const migrationIdParams = z.object({ migrationId: z.string().min(1).max(64) });

/**
 * Step 3 (Payment): spec.md section 7's Stripe paths, the Stripe webhook, demo payments, the
 * payment mode for the UI, and our own PDF receipts.
 */
export const paymentRoutes: FastifyPluginAsyncZod = async (app) => {
  const { auth, payments } = app.services;
  // Payment records are kept for the books; the deleted owner's e-mail is removed from them.
  auth.onUserDeleted(async (userId) => {
    await payments.quotes.forgetCustomerEmails(userId);
  });

  // The browser's `entriesCount` is accepted for compatibility and never used.
  app.post(
    '/api/stripe/create-checkout-session',
    {
      schema: {
        body: createCheckoutSessionRequestSchema,
        response: { 200: checkoutSessionResponseSchema },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      return payments.createCheckout(user, request.body.migrationId);
    },
  );

  app.post(
    '/api/stripe/payment-success',
    {
      schema: {
        body: paymentSuccessRequestSchema,
        response: { 200: paymentRecordedResponseSchema },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      const { migrationId, sessionId } = request.body;
      const paymentInfo = await payments.confirmReturn(user, migrationId, sessionId);
      return { paymentStatus: 'paid' as const, paymentInfo };
    },
  );

  app.get(
    '/api/stripe/receipt/:migrationId',
    { schema: { params: migrationIdParams, response: { 200: receiptResponseSchema } } },
    async (request) => {
      const user = await requireUser(request);
      return { receiptUrl: await payments.receiptUrl(user, request.params.migrationId) };
    },
  );

  app.get(
    '/api/receipts/:file',
    { schema: { params: z.object({ file: z.string().max(80) }) } },
    async (request, reply) => {
      const user = await requireUser(request);
      const match = /^([A-Za-z0-9_-]{1,64})\.pdf$/.exec(request.params.file);
      if (!match?.[1]) throw new ApiError(404, 'not_found', 'Receipt not available');
      const pdf = await payments.receiptDocument(user, match[1]);
      return reply
        .type('application/pdf')
        .header('content-disposition', `inline; filename="replatform-receipt-${match[1]}.pdf"`)
        .header('cache-control', 'private, no-store')
        .send(pdf);
    },
  );

  // With `migrationId`, whether demo payments apply to that migration (its stores may be sandboxes).
  app.get(
    '/api/payments/config',
    {
      schema: {
        querystring: z.object({ migrationId: z.string().min(1).max(64).optional() }),
        response: { 200: paymentsConfigSchema },
      },
    },
    async (request) =>
      payments.paymentsConfig(await optionalUser(request), request.query.migrationId),
  );

  app.get(
    '/api/payments/summary',
    {
      schema: {
        querystring: z.object({ migrationId: z.string().min(1).max(64) }),
        response: { 200: paymentSummarySchema },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      return payments.summary(user, request.query.migrationId);
    },
  );

  app.post(
    '/api/payments/demo',
    {
      schema: {
        body: demoPaymentRequestSchema,
        response: { 200: paymentRecordedResponseSchema },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      const paymentInfo = paymentInfoSchema.parse(await payments.demoPay(user, request.body));
      return { paymentStatus: 'paid' as const, paymentInfo };
    },
  );

  // Stripe signs the exact bytes it sent, so this one route keeps the body raw: its own
  // content-type parsers live only inside this encapsulated scope.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => {
      done(null, body);
    });
    scope.post(
      '/api/stripe/webhook',
      {
        schema: {
          response: {
            200: z.object({ received: z.literal(true), duplicate: z.literal(true).optional() }),
          },
        },
      },
      async (request) => {
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const signature = request.headers['stripe-signature'];
        return payments.handleWebhook(body, Array.isArray(signature) ? signature[0] : signature);
      },
    );
  });
};
