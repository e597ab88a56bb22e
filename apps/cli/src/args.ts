import { platforms, type Platform } from '@replatform/contracts/migration';

/** Options that take no value. */
const booleanFlags = new Set(['allow-http', 'no-verify', 'quiet', 'verbose', 'help']);
/** Options that may be given several times. */
const repeatable = new Set(['allow']);

export interface ParsedArgs {
  command: string | undefined;
  positionals: string[];
  flags: Map<string, string[]>;
  booleans: Set<string>;
}

export class UsageError extends Error {}

/**
 * `--name value`, `--name=value` and boolean `--flag`. Store credential flags depend on the
 * platform (`--from-consumer-key`, `--to-access-token`), so unknown names are kept, not refused.
 */
export function parseArgs(args: readonly string[]): ParsedArgs {
  const parsed: ParsedArgs = {
    command: undefined,
    positionals: [],
    flags: new Map(),
    booleans: new Set(),
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '-h') {
      parsed.booleans.add('help');
      continue;
    }
    if (!arg.startsWith('--')) {
      if (parsed.command === undefined) parsed.command = arg;
      else parsed.positionals.push(arg);
      continue;
    }
    const body = arg.slice(2);
    const eq = body.indexOf('=');
    const name = eq === -1 ? body : body.slice(0, eq);
    if (!/^[a-z][a-z0-9-]*$/.test(name))
      throw new UsageError(`Unknown option ${arg.split('=')[0]}`);
    if (booleanFlags.has(name)) {
      parsed.booleans.add(name);
      continue;
    }
    let value: string;
    if (eq !== -1) value = body.slice(eq + 1);
    else {
      const next = args[i + 1];
      if (next === undefined || next.startsWith('--'))
        throw new UsageError(`--${name} needs a value`);
      value = next;
      i += 1;
    }
    const values = parsed.flags.get(name) ?? [];
    if (values.length && !repeatable.has(name)) throw new UsageError(`--${name} was given twice`);
    parsed.flags.set(name, [...values, value]);
  }
  return parsed;
}

export function flag(parsed: ParsedArgs, name: string): string | undefined {
  return parsed.flags.get(name)?.[0];
}

export function platformFlag(parsed: ParsedArgs, name: 'from' | 'to'): Platform {
  const value = flag(parsed, name);
  if (!value) throw new UsageError(`--${name} <platform> is required (${platforms.join(', ')})`);
  const platform = value === 'magento' ? 'magento2' : value;
  if (!(platforms as readonly string[]).includes(platform))
    throw new UsageError(`--${name} must be one of ${platforms.join(', ')}`);
  return platform as Platform;
}

const camel = (kebab: string) => kebab.replace(/-([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

/** Where each platform's connector expects the store's address. */
const addressField: Record<Platform, string> = {
  woocommerce: 'storeUrl',
  magento2: 'storeUrl',
  bigcommerce: 'storeHash',
  shopify: 'shopDomain',
};

/**
 * The credentials of one side: `--from-url`/`--to-url` plus every other `--from-<field>` flag,
 * and `REPLATFORM_FROM_<FIELD>` environment variables (flags win), with the field names turned
 * into the connector's camelCase keys. The connector's strict schema then checks them.
 */
export function sideCredentials(
  parsed: ParsedArgs,
  side: 'from' | 'to',
  platform: Platform,
  env: Record<string, string | undefined>,
): Record<string, string> {
  const credentials: Record<string, string> = {};
  const prefix = `REPLATFORM_${side.toUpperCase()}_`;
  for (const [key, value] of Object.entries(env)) {
    if (!key.startsWith(prefix) || value === undefined || value === '') continue;
    const field = key.slice(prefix.length).toLowerCase().replaceAll('_', '-');
    credentials[field === 'url' ? addressField[platform] : camel(field)] = value;
  }
  for (const [name, values] of parsed.flags) {
    if (!name.startsWith(`${side}-`)) continue;
    const field = name.slice(side.length + 1);
    credentials[field === 'url' ? addressField[platform] : camel(field)] = values[0] as string;
  }
  return credentials;
}

/** The address of a side for display: origin and path only, never credentials. */
export function displayAddress(credentials: Record<string, string>, platform: Platform): string {
  const value = credentials[addressField[platform]] ?? '';
  try {
    const url = new URL(value);
    return `${url.protocol}//${url.host}${url.pathname === '/' ? '' : url.pathname}`;
  } catch {
    return value;
  }
}
