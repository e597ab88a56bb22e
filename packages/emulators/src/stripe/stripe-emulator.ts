import { createHash } from 'node:crypto';
import {
  Router,
  startEmulator,
  type EmulatorOptions,
  type EmulatorRequest,
  type EmulatorResponse,
  type RunningEmulator,
} from '../framework/server.ts';
import { FormEncodingError, parseStripeForm, type FormObject } from './form-encoding.ts';
import { checkoutPage, receiptPage, type CheckoutFormValues } from './hosted-pages.ts';
import {
  StripeApiError,
  StripeState,
  stripeId,
  type CardDetails,
  type CustomerInput,
  type PaymentOutcome,
  type StripeObject,
} from './state.ts';
import { StripeSpec, stripeApiVersion } from './stripe-spec.ts';
import { WebhookDispatcher, type WebhookEndpoint } from './webhooks.ts';

/**
 * A stateful local Stripe for tests and local runs. The official `stripe` SDK talks to it through
 * its host/port/protocol options; it serves the v1 API the product uses (Checkout Sessions,
 * PaymentIntents, Charges, Events), Checkout's hosted page and receipts, and signs and delivers
 * webhooks. Every API request is checked against Stripe's OpenAPI description of 2023-08-16.
 */

export interface StripeEmulatorOptions extends EmulatorOptions {
  /** The one secret key accepted; by default any `sk_test_…` key. */
  apiKey?: string;
  webhooks?: WebhookEndpoint[];
  /** Delays before each webhook retry (default 0.2 s, 1 s, 5 s). */
  webhookRetryDelaysMs?: number[];
  /** Check requests against the OpenAPI spec (default true). */
  validateRequests?: boolean;
  /** Unix time in seconds (default the real clock). */
  now?: () => number;
  /** Merchant name on the hosted pages. */
  accountName?: string;
}

export interface RecordedRequest {
  method: string;
  path: string;
  /** The form body (POST) or query string (GET) exactly as sent. */
  rawParams: string;
  /** The params decoded, and coerced to the spec's types when validation is on. */
  params: FormObject;
  stripeVersion: string | undefined;
  idempotencyKey: string | undefined;
}

export interface RunningStripeEmulator extends RunningEmulator {
  state: StripeState;
  webhooks: WebhookDispatcher;
  /** Every /v1 request, as parsed (and coerced) params. */
  requests: RecordedRequest[];
  setWebhookEndpoints(endpoints: WebhookEndpoint[]): void;
  /** Pays a session as the hosted page would (default: the 4242 Visa test card). */
  completeSession(
    id: string,
    options?: {
      card?: Partial<CardDetails>;
      customer?: Partial<CustomerInput>;
      outcome?: PaymentOutcome;
    },
  ): StripeObject;
  settleAsyncPayment(id: string, succeeded: boolean): StripeObject;
  /** Resolves when every webhook delivery started so far has finished. */
  webhooksSettled(): Promise<void>;
}

interface StoredIdempotent {
  fingerprint: string;
  response: EmulatorResponse;
}

const expandable: Record<string, readonly string[]> = {
  'checkout.session': ['payment_intent', 'customer', 'invoice', 'setup_intent', 'subscription'],
  payment_intent: ['latest_charge', 'customer', 'invoice'],
  charge: ['payment_intent', 'customer', 'invoice'],
};

function json(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): EmulatorResponse {
  return {
    status,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'request-id': stripeId('req', 14),
      'stripe-version': stripeApiVersion,
      ...headers,
    },
    body: JSON.stringify(body, null, 2),
  };
}

function html(status: number, body: string): EmulatorResponse {
  return { status, headers: { 'content-type': 'text/html; charset=utf-8' }, body };
}

function header(request: EmulatorRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function expandObject(state: StripeState, object: StripeObject, paths: string[]): StripeObject {
  for (const path of paths) {
    let node: StripeObject = object;
    const segments = path.split('.');
    for (const [index, segment] of segments.entries()) {
      const allowed = expandable[String(node.object)] ?? [];
      if (!allowed.includes(segment)) {
        throw new StripeApiError(400, `This property cannot be expanded (${path}).`, {
          param: 'expand',
        });
      }
      const value = node[segment];
      // Expanding an empty field leaves it empty, and there is nothing further down to expand.
      if (value === null || value === undefined) break;
      if (typeof value === 'string') {
        const found = state.byId(value);
        if (!found) {
          throw new StripeApiError(400, `This emulator cannot expand ${segment} (${value}).`, {
            param: 'expand',
          });
        }
        node[segment] = structuredClone(found);
      }
      if (index < segments.length - 1) node = node[segment] as StripeObject;
    }
  }
  return object;
}

export async function startStripeEmulator(
  options: StripeEmulatorOptions = {},
): Promise<RunningStripeEmulator> {
  const now = options.now ?? (() => Math.floor(Date.now() / 1000));
  const accountName = options.accountName ?? 'Replatform';
  const validate = options.validateRequests ?? true;
  const spec = validate ? StripeSpec.shared() : undefined;
  let baseUrl = '';
  const dispatcher = new WebhookDispatcher(options.webhooks ?? [], {
    retryDelaysMs: options.webhookRetryDelaysMs ?? [200, 1000, 5000],
    timeoutMs: 10_000,
    now,
  });
  const state = new StripeState({
    baseUrl: () => baseUrl,
    now,
    onEvent: (event) => dispatcher.dispatch(event),
  });
  const requests: RecordedRequest[] = [];
  const idempotent = new Map<string, StoredIdempotent>();

  type ApiHandler = (params: FormObject, pathParams: Record<string, string>) => unknown;
  const api = new Router();

  /** One /v1 route: auth, version, params checked against `template` in the spec, expand. */
  const route = (method: 'GET' | 'POST', path: string, template: string, handler: ApiHandler) => {
    api.on(method, path, (request, pathParams) => {
      // Bearer, or HTTP Basic with the key as the user name (`curl -u sk_test_…:`), as Stripe takes.
      const auth = header(request, 'authorization') ?? '';
      const basic = /^Basic\s+(.+)$/i.exec(auth);
      const key = basic
        ? (Buffer.from(basic[1] ?? '', 'base64')
            .toString('utf8')
            .split(':')[0] ?? '')
        : auth.replace(/^Bearer\s+/i, '');
      if (!key) {
        throw new StripeApiError(
          401,
          "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').",
        );
      }
      if (options.apiKey ? key !== options.apiKey : !key.startsWith('sk_test_')) {
        throw new StripeApiError(
          401,
          `Invalid API Key provided: ${key.slice(0, 8)}****${key.slice(-4)}`,
        );
      }
      const version = header(request, 'stripe-version');
      if (version !== undefined && version !== stripeApiVersion) {
        throw new StripeApiError(
          400,
          `Invalid Stripe API version: ${version}. This emulator implements API version ${stripeApiVersion} only; pin it in the client.`,
        );
      }
      const rawParams =
        method === 'GET' ? request.url.search.slice(1) : request.body.toString('utf8');
      let params: FormObject;
      try {
        params = parseStripeForm(rawParams);
      } catch (error) {
        if (error instanceof FormEncodingError) {
          throw new StripeApiError(400, error.message, { param: error.param });
        }
        throw error;
      }
      const problems =
        spec?.validateParams(method, template, params as Record<string, unknown>) ?? [];
      if (problems[0]) {
        throw new StripeApiError(400, problems[0].message, { param: problems[0].param });
      }
      const idempotencyKey = header(request, 'idempotency-key');
      requests.push({
        method,
        path: request.url.pathname,
        rawParams,
        params,
        stripeVersion: version,
        idempotencyKey,
      });
      const run = () => {
        const result = handler(params, pathParams) as StripeObject;
        const expand = Array.isArray(params.expand) ? (params.expand as string[]) : [];
        return json(200, result.object === 'list' ? result : expandObject(state, result, expand));
      };
      if (method !== 'POST' || !idempotencyKey) return run();

      // Stripe replays the first answer to a repeated key, and refuses the key for other params.
      const fingerprint = createHash('sha256')
        .update(`${request.url.pathname}\n${request.body.toString('utf8')}`)
        .digest('hex');
      const seen = idempotent.get(idempotencyKey);
      if (seen) {
        if (seen.fingerprint !== fingerprint) {
          throw new StripeApiError(
            400,
            `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
            { type: 'idempotency_error' },
          );
        }
        return {
          ...seen.response,
          headers: { ...seen.response.headers, 'idempotent-replayed': 'true' },
        };
      }
      const response = run();
      idempotent.set(idempotencyKey, { fingerprint, response });
      return response;
    });
  };

  route('POST', '/v1/checkout/sessions', '/v1/checkout/sessions', (params) =>
    state.createCheckoutSession(params),
  );
  route(
    'GET',
    '/v1/checkout/sessions/:session',
    '/v1/checkout/sessions/{session}',
    (_p, { session }) => state.retrieveSession(session ?? ''),
  );
  route(
    'POST',
    '/v1/checkout/sessions/:session/expire',
    '/v1/checkout/sessions/{session}/expire',
    (_p, { session }) => state.expireSession(session ?? ''),
  );
  route(
    'GET',
    '/v1/checkout/sessions/:session/line_items',
    '/v1/checkout/sessions/{session}/line_items',
    (_p, { session }) => ({
      object: 'list',
      data: state.lineItems(session ?? ''),
      has_more: false,
      url: `/v1/checkout/sessions/${session}/line_items`,
    }),
  );
  route('GET', '/v1/payment_intents/:intent', '/v1/payment_intents/{intent}', (_p, { intent }) =>
    state.retrievePaymentIntent(intent ?? ''),
  );
  route('GET', '/v1/charges/:charge', '/v1/charges/{charge}', (_p, { charge }) =>
    state.retrieveCharge(charge ?? ''),
  );
  route('GET', '/v1/events/:id', '/v1/events/{id}', (_p, { id }) => state.retrieveEvent(id ?? ''));
  route('GET', '/v1/events', '/v1/events', (params) => {
    const limit = typeof params.limit === 'number' ? params.limit : 10;
    let events = [...state.events].reverse();
    if (typeof params.type === 'string') events = events.filter((e) => e.type === params.type);
    if (typeof params.starting_after === 'string') {
      const at = events.findIndex((e) => e.id === params.starting_after);
      events = at >= 0 ? events.slice(at + 1) : [];
    }
    return {
      object: 'list',
      data: events.slice(0, limit).map((e) => structuredClone(e)),
      has_more: events.length > limit,
      url: '/v1/events',
    };
  });

  const pages = new Router();
  pages.on('GET', '/c/pay/:session', (_request, { session }) => {
    const found = state.retrieveSession(session ?? '');
    return html(200, checkoutPage(found, state.lineItems(found.id as string), accountName));
  });
  pages.on('POST', '/c/pay/:session', (request, { session }) => {
    const id = session ?? '';
    const form = new URLSearchParams(request.body.toString('utf8'));
    const values: CheckoutFormValues = {
      email: form.get('email') ?? '',
      cardNumber: form.get('cardNumber') ?? '',
      expiry: form.get('expiry') ?? '',
      cvc: form.get('cvc') ?? '',
      name: form.get('name') ?? '',
      country: form.get('country') ?? 'US',
      postalCode: form.get('postalCode') ?? '',
    };
    const expiry = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(values.expiry ?? '');
    const found = state.retrieveSession(id);
    try {
      if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(values.email ?? '')) {
        throw new StripeApiError(400, 'Your email address is incomplete.');
      }
      if (!expiry) throw new StripeApiError(400, "Your card's expiration date is incomplete.");
      const year = Number(expiry[2]);
      const completed = state.completeSession(
        id,
        {
          number: values.cardNumber ?? '',
          expMonth: Number(expiry[1]),
          expYear: year < 100 ? 2000 + year : year,
          cvc: (values.cvc ?? '').trim(),
        },
        {
          email: values.email ?? '',
          name: values.name || undefined,
          country: values.country || undefined,
          postalCode: values.postalCode || undefined,
        },
      );
      const target = String(completed.success_url).replaceAll('{CHECKOUT_SESSION_ID}', id);
      return { status: 303, headers: { location: target }, body: '' };
    } catch (error) {
      if (!(error instanceof StripeApiError)) throw error;
      const { cardNumber: _omitted, ...kept } = values;
      return html(
        error.status === 404 ? 404 : 402,
        checkoutPage(found, state.lineItems(id), accountName, {
          error: error.message,
          values: kept,
        }),
      );
    }
  });
  pages.on('POST', '/c/pay/:session/cancel', (_request, { session }) => {
    const found = state.retrieveSession(session ?? '');
    if (!found.cancel_url) return html(400, 'This checkout has no cancel URL.');
    return { status: 303, headers: { location: String(found.cancel_url) }, body: '' };
  });
  pages.on('GET', '/receipts/payment/:token', (_request, { token }) => {
    const charge = state.chargeForReceipt(token ?? '');
    if (!charge) return html(404, '<h1>Receipt not found</h1>');
    return html(200, receiptPage(charge, accountName));
  });

  const running = await startEmulator(async (request) => {
    const apiMatch = api.match(request.method, request.url.pathname);
    const pageMatch = apiMatch ? undefined : pages.match(request.method, request.url.pathname);
    try {
      if (apiMatch) return await apiMatch.handler(request, apiMatch.params);
      if (pageMatch) return await pageMatch.handler(request, pageMatch.params);
    } catch (error) {
      if (!(error instanceof StripeApiError)) throw error;
      if (pageMatch)
        return html(error.status, `<h1>${error.status === 404 ? 'Not found' : 'Error'}</h1>`);
      return json(error.status, error.toBody());
    }
    if (request.url.pathname.startsWith('/v1/')) {
      return json(
        404,
        new StripeApiError(
          404,
          `Unrecognized request URL (${request.method}: ${request.url.pathname}).`,
        ).toBody(),
      );
    }
    return html(404, '<h1>Not found</h1>');
  }, options);
  baseUrl = running.url;

  return {
    ...running,
    state,
    webhooks: dispatcher,
    requests,
    setWebhookEndpoints: (endpoints) => dispatcher.setEndpoints(endpoints),
    completeSession: (id, pay = {}) =>
      state.completeSession(
        id,
        { number: '4242424242424242', expMonth: 12, expYear: 2034, cvc: '123', ...pay.card },
        { email: 'customer@example.com', ...pay.customer },
        pay.outcome,
      ),
    settleAsyncPayment: (id, succeeded) => state.settleAsyncPayment(id, succeeded),
    webhooksSettled: () => dispatcher.settled(),
    close: async () => {
      await dispatcher.stop();
      await running.close();
    },
  };
}
