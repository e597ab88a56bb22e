import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { Agent, buildConnector } from 'undici';
import { checkAddress } from './address-policy.ts';
import { HttpError, redactUrl } from './errors.ts';

/**
 * The egress guard: decides which URLs may be requested and makes sure the socket is only ever
 * opened to an address that passed checkAddress. Checking a URL's host name up front is not
 * enough (DNS can answer differently a moment later), so the real decision is taken inside the
 * connector, on the addresses the connection actually uses.
 */

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export interface EgressPolicy {
  /** Admit plain http for every host (the operator's choice); https is always admitted. */
  allowHttp?: boolean;
  /** Exact origins (scheme://host:port) admitted even when they resolve to loopback. */
  allowlist?: readonly string[];
}

export interface EgressTarget {
  url: URL;
  /** scheme://host[:port], as WHATWG URL serialises it (default port omitted). */
  origin: string;
  /** Host without IPv6 brackets. */
  hostname: string;
  allowlisted: boolean;
}

export const systemResolver: Resolver = async (hostname) => {
  const found = await dnsLookup(hostname, { all: true, order: 'verbatim' });
  return found.map((entry) => ({ address: entry.address, family: entry.family === 6 ? 6 : 4 }));
};

function refused(url: string | URL, reason: string): HttpError {
  return new HttpError('config', 'egress_refused', `Refused ${redactUrl(url)}: ${reason}`, {
    url: redactUrl(url),
  });
}

/** Reads an EGRESS_ALLOWLIST-style value: origins separated by commas or whitespace. */
export function parseAllowlist(value: string | undefined): string[] {
  return (value ?? '').split(/[\s,]+/).filter((entry) => entry !== '');
}

/** Canonical origins; an entry that is more than an http(s) origin is a configuration bug. */
export function normaliseAllowlist(entries: readonly string[]): ReadonlySet<string> {
  const origins = new Set<string>();
  for (const entry of entries) {
    let url: URL;
    try {
      url = new URL(entry);
    } catch {
      throw new TypeError(`Allow-list entry is not a URL: ${entry}`);
    }
    const bare =
      (url.protocol === 'http:' || url.protocol === 'https:') &&
      url.username === '' &&
      url.password === '' &&
      url.pathname === '/' &&
      url.search === '' &&
      url.hash === '' &&
      // Wildcards would read as "any host" to whoever writes the configuration; they match none.
      !url.hostname.includes('*') &&
      /^https?:\/\/[^/?#]+\/?$/i.test(entry.trim());
    if (!bare) throw new TypeError(`Allow-list entry must be a bare http(s) origin: ${entry}`);
    origins.add(url.origin);
  }
  return origins;
}

// Names that only ever mean "this machine" or "this network", or name a metadata service.
const BLOCKED_NAMES = new Set(['localhost', 'metadata.google.internal', 'metadata.goog']);
const BLOCKED_SUFFIXES = ['.localhost', '.local', '.internal', '.home.arpa', '.localdomain'];

function hostNameProblem(hostname: string): string | undefined {
  const name = hostname.replace(/\.+$/, '');
  if (name === '') return 'empty host';
  if (BLOCKED_NAMES.has(name)) return `host name ${name} is reserved for local use or metadata`;
  if (BLOCKED_SUFFIXES.some((suffix) => name.endsWith(suffix))) {
    return `host name ${name} is in a local-only domain`;
  }
  // Single labels resolve through search domains to internal hosts; no store lives there.
  if (!name.includes('.')) return `single-label host name ${name}`;
  return undefined;
}

export function targetFor(
  input: string | URL,
  allowHttp: boolean,
  allowlist: ReadonlySet<string>,
): EgressTarget {
  let url: URL;
  try {
    // WHATWG parsing canonicalises decimal, octal, hex and short IPv4 forms, IDNA and full-width
    // characters, so every check below sees one spelling of the host.
    url = new URL(input);
  } catch {
    throw new HttpError('config', 'invalid_url', 'The store address is not a valid URL', {
      url: '(invalid URL)',
    });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw refused(url, `scheme ${url.protocol} is not allowed`);
  }
  if (url.username !== '' || url.password !== '') {
    throw refused(url, 'credentials in the URL are not accepted');
  }
  const origin = url.origin;
  const allowlisted = allowlist.has(origin);
  const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (allowlisted) return { url, origin, hostname, allowlisted };
  if (url.protocol === 'http:' && !allowHttp) throw refused(url, 'plain http is not allowed');
  if (isIP(hostname) !== 0) {
    const verdict = checkAddress(hostname);
    if (!verdict.allowed) throw refused(url, verdict.reason ?? 'address refused');
  } else {
    const problem = hostNameProblem(hostname);
    if (problem) throw refused(url, problem);
  }
  return { url, origin, hostname, allowlisted };
}

/**
 * Parses and checks a URL without touching the network. Throws HttpError (config) when the URL
 * may not be requested; host names still get their resolved addresses checked at connect time.
 */
export function parseTarget(input: string | URL, policy: EgressPolicy = {}): EgressTarget {
  return targetFor(input, policy.allowHttp ?? false, normaliseAllowlist(policy.allowlist ?? []));
}

function lookupFailure(hostname: string, cause?: unknown): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(`Host not found: ${hostname}`, { cause });
  error.code = 'ENOTFOUND';
  return error;
}

/**
 * A net/tls `lookup` that resolves through `resolver` and, when `enforce` is set, fails unless
 * every resolved address passes checkAddress. All must pass: connecting to "the good one" would
 * let a record set mixing public and private addresses steer a retry to the private one.
 */
export function guardedLookup(resolver: Resolver, enforce: boolean): LookupFunction {
  return (hostname, options, callback) => {
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
    resolver(hostname).then(
      (addresses) => {
        const usable = addresses.filter(
          (entry) => !family || entry.family === family, // 0/undefined means either family
        );
        if (usable.length === 0) return callback(lookupFailure(hostname), '', 0);
        if (enforce) {
          for (const entry of usable) {
            const verdict = checkAddress(entry.address);
            if (!verdict.allowed) {
              const reason = `${hostname} resolves to a ${verdict.reason ?? 'refused address'}`;
              return callback(
                new HttpError('config', 'egress_refused', `Refused: ${reason}`, { url: hostname }),
                '',
                0,
              );
            }
          }
        }
        if (options.all) {
          const all: LookupAddress[] = usable.map((e) => ({
            address: e.address,
            family: e.family,
          }));
          return callback(null, all);
        }
        const first = usable[0] as ResolvedAddress;
        return callback(null, first.address, first.family);
      },
      (error: unknown) => callback(lookupFailure(hostname, error), '', 0),
    );
  };
}

export interface EgressAgentOptions {
  allowlist: ReadonlySet<string>;
  resolver: Resolver;
  connectTimeoutMs: number;
  /** Trusted certificates (PEM) replacing the system roots; see HttpClientOptions.ca. */
  ca?: string | readonly string[];
  /**
   * The name lookup of connections that are not allow-listed; the guarded lookup by default.
   * Tests replace it to hand the socket an address other than the one that was checked, which is
   * what a resolver changing its answer between check and connect amounts to.
   */
  lookup?: LookupFunction;
}

/**
 * Why a connection that is already open must not be used, or undefined when its peer address is
 * a public one. The last line of defence: whatever the lookup said, this is where the socket went.
 */
export function connectedPeerProblem(remoteAddress: string | undefined): string | undefined {
  if (!remoteAddress) return 'connection with an unknown peer address';
  const verdict = checkAddress(remoteAddress);
  return verdict.allowed ? undefined : `connected to a ${verdict.reason ?? 'refused address'}`;
}

/**
 * An undici Agent whose every new connection goes through the guard. Allow-listed origins
 * (matched on scheme, host and port of the connection itself) skip the address check; every
 * other connection is refused before the socket exists when the host is an IP literal, resolved
 * through the guarded lookup otherwise, and finally checked on the peer address it really got.
 */
export function createEgressAgent(options: EgressAgentOptions): Agent {
  const tls = options.ca === undefined ? {} : { ca: [options.ca].flat() };
  const guarded = buildConnector({
    timeout: options.connectTimeoutMs,
    lookup: options.lookup ?? guardedLookup(options.resolver, true),
    ...tls,
  });
  const trusted = buildConnector({
    timeout: options.connectTimeoutMs,
    lookup: guardedLookup(options.resolver, false),
    ...tls,
  });
  const connect: buildConnector.connector = (connectOptions, callback) => {
    const { protocol, hostname, port } = connectOptions;
    const bracketed = hostname.includes(':') ? `[${hostname}]` : hostname;
    const host = connectOptions.host ?? (port ? `${bracketed}:${port}` : bracketed);
    const origin = `${protocol}//${host}`;
    if (options.allowlist.has(origin)) return trusted(connectOptions, callback);
    if (protocol !== 'http:' && protocol !== 'https:') {
      return callback(refused(`${origin}/`, `scheme ${protocol} is not allowed`), null);
    }
    if (isIP(hostname) !== 0) {
      const verdict = checkAddress(hostname);
      if (!verdict.allowed) {
        return callback(refused(`${origin}/`, verdict.reason ?? 'address refused'), null);
      }
    }
    guarded(connectOptions, (error, socket) => {
      if (error || !socket) return callback(error ?? new Error('connect failed'), null);
      const problem = connectedPeerProblem(socket.remoteAddress);
      if (problem) {
        socket.destroy();
        return callback(refused(`${origin}/`, problem), null);
      }
      callback(null, socket);
    });
  };
  return new Agent({ connect });
}
