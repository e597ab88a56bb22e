import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { Random } from './random.ts';
import { createSelfSignedCertificate, type SelfSignedCertificate } from './self-signed.ts';

/**
 * Faults an emulator injects, each as a probability per request (0..1). They reproduce what real
 * stores do under load so connectors are tested against it: throttling with Retry-After, server
 * errors, requests that hang, connections reset mid-request and bodies cut short.
 */
export interface FaultPlan {
  rate429?: number;
  rate5xx?: number;
  timeoutRate?: number;
  resetRate?: number;
  truncateRate?: number;
  /** Seconds announced in Retry-After on injected 429s. */
  retryAfterSeconds?: number;
  /** Only requests whose path matches are eligible for faults. */
  pathPattern?: RegExp;
}

/**
 * A store with a fixed number of workers (PHP-FPM children on as many cores): each request holds
 * one for the time its work takes, and requests beyond them wait, so more requests in flight do
 * not make the store faster, only its answers slower.
 */
export interface CapacityModel {
  workers: number;
  /** Milliseconds of work a request costs (its body says how many items a batch holds). */
  costMs: (request: { method: string; path: string; body: Buffer }) => number;
}

export interface EmulatorOptions {
  /** Added to every response, in milliseconds. */
  latencyMs?: number;
  /** Work per request on a store with limited workers (none by default: no cost). */
  capacity?: CapacityModel;
  faults?: FaultPlan;
  /** Seed of the fault dice (data seeding has its own seed). */
  seed?: number;
  /** Port to listen on; 0 (default) picks a free one. Always bound to 127.0.0.1. */
  port?: number;
  /**
   * Serve https instead of plain http: true makes a self-signed certificate for 127.0.0.1 and
   * localhost at start (clients trust RunningEmulator.certificate); or pass a certificate.
   */
  tls?: boolean | SelfSignedCertificate;
}

export interface EmulatorRequest {
  method: string;
  url: URL;
  headers: IncomingMessage['headers'];
  body: Buffer;
  /** The raw request, for signature checks that need the exact target. */
  raw: IncomingMessage;
}

export interface EmulatorResponse {
  status: number;
  headers?: Record<string, string | number>;
  /** Objects are sent as JSON; strings and buffers as they are. */
  body?: unknown;
}

export type EmulatorHandler = (
  request: EmulatorRequest,
) => Promise<EmulatorResponse> | EmulatorResponse;

export interface EmulatorStats {
  requests: number;
  faultsInjected: number;
  byStatus: Record<number, number>;
}

export interface RunningEmulator {
  /** Base URL, e.g. http://127.0.0.1:43121 (https:// in TLS mode). */
  url: string;
  /** In TLS mode, the PEM certificate the emulator serves, for clients to trust. */
  certificate?: string;
  port: number;
  stats: EmulatorStats;
  setFaults(plan: FaultPlan | undefined): void;
  setLatency(ms: number): void;
  close(): Promise<void>;
}

const MAX_BODY = 64 * 1024 * 1024;

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        reject(new Error('request body too large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function encode(body: unknown): { buffer: Buffer; type: string | undefined } {
  if (body === undefined) return { buffer: Buffer.alloc(0), type: undefined };
  if (Buffer.isBuffer(body)) return { buffer: body, type: undefined };
  if (typeof body === 'string')
    return { buffer: Buffer.from(body), type: 'text/plain; charset=utf-8' };
  return { buffer: Buffer.from(JSON.stringify(body)), type: 'application/json; charset=utf-8' };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Starts an emulator on 127.0.0.1 with fault injection and latency around its handler. */
export async function startEmulator(
  handler: EmulatorHandler,
  options: EmulatorOptions = {},
): Promise<RunningEmulator> {
  let faults = options.faults;
  let latencyMs = options.latencyMs ?? 0;
  const capacity = options.capacity;
  let busy = 0;
  const queue: (() => void)[] = [];
  const work = async (ms: number) => {
    if (!capacity || ms <= 0) return;
    if (busy >= capacity.workers) await new Promise<void>((resolve) => queue.push(resolve));
    else busy += 1;
    try {
      await sleep(ms);
    } finally {
      const next = queue.shift();
      if (next) next();
      else busy -= 1;
    }
  };
  const dice = new Random(options.seed ?? 1);
  const stats: EmulatorStats = { requests: 0, faultsInjected: 0, byStatus: {} };
  const sockets = new Set<Socket>();

  const tls =
    options.tls === true ? createSelfSignedCertificate() : options.tls ? options.tls : undefined;
  const listener = async (req: IncomingMessage, res: ServerResponse) => {
    stats.requests += 1;
    try {
      const body = await readBody(req);
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (latencyMs > 0) await sleep(latencyMs);

      const eligible = faults && (!faults.pathPattern || faults.pathPattern.test(url.pathname));
      if (eligible && faults) {
        if (dice.chance(faults.resetRate ?? 0)) {
          stats.faultsInjected += 1;
          req.socket.destroy();
          return;
        }
        if (dice.chance(faults.timeoutRate ?? 0)) {
          // Never answer: the client's own time-out must fire. The socket is destroyed on close.
          stats.faultsInjected += 1;
          return;
        }
        if (dice.chance(faults.rate429 ?? 0)) {
          stats.faultsInjected += 1;
          stats.byStatus[429] = (stats.byStatus[429] ?? 0) + 1;
          res.writeHead(429, {
            'content-type': 'application/json',
            'retry-after': String(faults.retryAfterSeconds ?? 1),
          });
          res.end(JSON.stringify({ message: 'Too Many Requests' }));
          return;
        }
        if (dice.chance(faults.rate5xx ?? 0)) {
          stats.faultsInjected += 1;
          const status = dice.pick([500, 502, 503, 504]);
          stats.byStatus[status] = (stats.byStatus[status] ?? 0) + 1;
          res.writeHead(status, { 'content-type': 'text/html' });
          res.end('<html><body>Temporarily unavailable</body></html>');
          return;
        }
      }

      if (capacity)
        await work(capacity.costMs({ method: req.method ?? 'GET', path: url.pathname, body }));
      const response = await handler({
        method: req.method ?? 'GET',
        url,
        headers: req.headers,
        body,
        raw: req,
      });
      const { buffer, type } = encode(response.body);
      const headers: Record<string, string | number> = { ...response.headers };
      if (type && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
        headers['content-type'] = type;
      }
      stats.byStatus[response.status] = (stats.byStatus[response.status] ?? 0) + 1;

      if (eligible && faults && dice.chance(faults.truncateRate ?? 0) && buffer.length > 2) {
        // Announce the full length, send half, then drop the connection.
        stats.faultsInjected += 1;
        res.writeHead(response.status, { ...headers, 'content-length': buffer.length });
        res.write(buffer.subarray(0, Math.floor(buffer.length / 2)));
        req.socket.destroy();
        return;
      }
      res.writeHead(response.status, { ...headers, 'content-length': buffer.length });
      res.end(buffer);
    } catch (error) {
      stats.byStatus[500] = (stats.byStatus[500] ?? 0) + 1;
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({ message: error instanceof Error ? error.message : 'internal error' }),
        );
      } else {
        res.destroy();
      }
    }
  };
  const server: Server = tls
    ? createTlsServer({ key: tls.key, cert: tls.cert }, listener)
    : createServer(listener);
  // A TLS server reports its raw sockets as 'connection' too, so closing destroys them all.
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.keepAliveTimeout = 5_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  return {
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    ...(tls ? { certificate: tls.cert } : {}),
    port,
    stats,
    setFaults: (plan) => {
      faults = plan;
    },
    setLatency: (ms) => {
      latencyMs = ms;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Minimal method + path router with `:param` segments, shared by the emulators. */
export type RouteHandler = (
  request: EmulatorRequest,
  params: Record<string, string>,
) => Promise<EmulatorResponse> | EmulatorResponse;

export class Router {
  readonly #routes: { method: string; pattern: RegExp; keys: string[]; handler: RouteHandler }[] =
    [];

  on(method: string, path: string, handler: RouteHandler): this {
    const keys: string[] = [];
    const pattern = new RegExp(
      `^${path.replace(/[.+*?^$()[\]{}|\\]/g, '\\$&').replace(/:(\w+)/g, (_m, key: string) => {
        keys.push(key);
        return '([^/]+)';
      })}/?$`,
    );
    this.#routes.push({ method, pattern, keys, handler });
    return this;
  }

  /** Finds the handler for a request, or undefined (caller answers 404 in its platform's shape). */
  match(
    method: string,
    pathname: string,
  ): { handler: RouteHandler; params: Record<string, string> } | undefined {
    for (const route of this.#routes) {
      if (route.method !== method) continue;
      const found = route.pattern.exec(pathname);
      if (!found) continue;
      const params: Record<string, string> = {};
      route.keys.forEach((key, i) => {
        params[key] = decodeURIComponent(found[i + 1] ?? '');
      });
      return { handler: route.handler, params };
    }
    return undefined;
  }
}
