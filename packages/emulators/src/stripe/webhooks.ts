import { createHmac } from 'node:crypto';

/**
 * Webhook delivery as Stripe does it: a POST of the event as JSON, signed in the
 * `Stripe-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<payload>" with the endpoint
 * secret>` header, with a fresh timestamp and signature on every attempt, retried with back-off
 * until the endpoint answers 2xx.
 */

export interface WebhookEndpoint {
  url: string;
  /** The endpoint's signing secret (`whsec_…`). */
  secret: string;
  /** Event types sent to this endpoint; all when absent (like `enabled_events: ['*']`). */
  enabledEvents?: string[];
}

export interface DeliveryAttempt {
  eventId: string;
  eventType: string;
  url: string;
  attempt: number;
  /** HTTP status, or undefined when the request failed before an answer. */
  status: number | undefined;
  error?: string;
}

export function signWebhookPayload(payload: string, secret: string, timestamp: number): string {
  const signature = createHmac('sha256', secret).update(`${timestamp}.${payload}`).digest('hex');
  return `t=${timestamp},v1=${signature}`;
}

export interface DeliveryOptions {
  /** Delays before each retry; their number is the number of retries. */
  retryDelaysMs: number[];
  timeoutMs: number;
  now: () => number;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

export class WebhookDispatcher {
  readonly attempts: DeliveryAttempt[] = [];
  #endpoints: WebhookEndpoint[] = [];
  readonly #inFlight = new Set<Promise<void>>();
  readonly #options: DeliveryOptions;
  #paused = false;
  readonly #held: Record<string, unknown>[] = [];
  readonly #stop = new AbortController();

  constructor(endpoints: WebhookEndpoint[], options: DeliveryOptions) {
    this.#endpoints = [...endpoints];
    this.#options = options;
  }

  setEndpoints(endpoints: WebhookEndpoint[]): void {
    this.#endpoints = [...endpoints];
  }

  get endpoints(): readonly WebhookEndpoint[] {
    return this.#endpoints;
  }

  /** Holds new events back (they are sent on resume), to test late or reordered delivery. */
  pause(): void {
    this.#paused = true;
  }

  resume(): void {
    this.#paused = false;
    for (const event of this.#held.splice(0)) this.dispatch(event);
  }

  /** Sends an event to every endpoint that wants it, in the background. */
  dispatch(event: Record<string, unknown>): void {
    if (this.#paused) {
      this.#held.push(event);
      return;
    }
    for (const endpoint of this.#endpoints) {
      if (endpoint.enabledEvents && !endpoint.enabledEvents.includes(String(event.type))) continue;
      const delivery = this.#deliver(endpoint, event).finally(() => {
        this.#inFlight.delete(delivery);
      });
      this.#inFlight.add(delivery);
    }
  }

  /** One signed POST of an event, answered with its status (no retries). */
  async send(
    endpoint: WebhookEndpoint,
    event: Record<string, unknown>,
    timestamp = this.#options.now(),
  ): Promise<number> {
    const payload = JSON.stringify(event, null, 2);
    const response = await fetch(endpoint.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
        'stripe-signature': signWebhookPayload(payload, endpoint.secret, timestamp),
      },
      body: payload,
      signal: AbortSignal.timeout(this.#options.timeoutMs),
    });
    await response.arrayBuffer();
    return response.status;
  }

  async #deliver(endpoint: WebhookEndpoint, event: Record<string, unknown>): Promise<void> {
    const delays = [0, ...this.#options.retryDelaysMs];
    for (let attempt = 1; attempt <= delays.length; attempt++) {
      const delay = delays[attempt - 1] ?? 0;
      if (delay > 0) await sleep(delay, this.#stop.signal);
      if (this.#stop.signal.aborted) return;
      const record: DeliveryAttempt = {
        eventId: String(event.id),
        eventType: String(event.type),
        url: endpoint.url,
        attempt,
        status: undefined,
      };
      try {
        record.status = await this.send(endpoint, event);
      } catch (error) {
        record.error = error instanceof Error ? error.message : String(error);
      }
      this.attempts.push(record);
      if (record.status !== undefined && record.status >= 200 && record.status < 300) return;
    }
  }

  /** Gives up pending retries (the emulator is closing). */
  async stop(): Promise<void> {
    this.#stop.abort();
    await this.settled();
  }

  /** Resolves when every delivery started so far (retries included) has finished. */
  async settled(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight]);
  }
}
