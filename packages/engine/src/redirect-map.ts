import type { EngineRepository, StorefrontPath } from '@replatform/db/engine-repository';
import { stringify } from 'csv-stringify';
import { pipeline, Readable } from 'node:stream';
import { singular } from './report.ts';

/** Records that have a page of their own on a storefront, whose old address should redirect. */
export const redirectedEntities = ['categories', 'brands', 'products', 'pages', 'posts'] as const;

export const redirectFormats = ['csv', 'nginx', 'apache'] as const;
export type RedirectFormat = (typeof redirectFormats)[number];

export const redirectMapHeader = [
  'type',
  'source_id',
  'destination_id',
  'old_path',
  'new_path',
  'redirect',
] as const;

/** Whether a record's old address needs a redirect, and why not when it does not. */
export function redirectNeed(row: Pick<StorefrontPath, 'sourcePath' | 'destinationPath'>): string {
  if (row.sourcePath === null) return 'no: the source store gives it no address (not published)';
  if (row.destinationPath === null)
    return 'no: its address at the destination is not known yet (verify the migration again)';
  if (!isRedirectable(row.sourcePath) || !isRedirectable(row.destinationPath))
    return 'no: an address holds characters a server rule cannot take';
  // A Shopify vendor's page is a search (/collections/vendors?q=...): nginx's location and
  // Apache's Redirect match the path alone.
  if (row.sourcePath.includes('?'))
    return 'no: the old address has a query (?...), which these rules cannot match; a rewrite rule of your server can';
  return row.sourcePath === row.destinationPath ? 'no: same address' : 'yes';
}

/**
 * A path a server rule can hold: absolute, without control characters, and without '$', which
 * nginx would read as a variable in the target (it has no way to escape it).
 */
function isRedirectable(path: string): boolean {
  // eslint-disable-next-line no-control-regex -- control characters are what is refused
  return path.startsWith('/') && !/[\u0000-\u001f\u007f$]/.test(path);
}

/**
 * The path a web server matches a request against: servers compare the decoded path (nginx's
 * `location`, Apache's `Redirect`), so '/caf%C3%A9/' is matched as '/café/'.
 */
function matchedPath(path: string): string {
  try {
    return decodeURI(path);
  } catch {
    return path;
  }
}

/** A double-quoted string for nginx and Apache configuration, backslash-escaped. */
function quoted(value: string): string {
  return `"${value.replace(/["\\]/g, (c) => `\\${c}`)}"`;
}

/** One server rule for a redirect (the old path matched exactly, sent on with 301). */
export function redirectRule(
  format: 'nginx' | 'apache',
  row: Pick<StorefrontPath, 'sourcePath' | 'destinationPath'>,
): string | null {
  if (redirectNeed(row) !== 'yes') return null;
  const from = matchedPath(row.sourcePath as string);
  const to = row.destinationPath as string;
  return format === 'nginx'
    ? `location = ${quoted(from)} { return 301 ${quoted(to)}; }`
    : `Redirect 301 ${quoted(from)} ${quoted(to)}`;
}

const ruleHeaders: Record<'nginx' | 'apache', string[]> = {
  nginx: [
    '# Permanent (301) redirects from the old store’s product, category and brand addresses to the',
    '# new store’s, made by Replatform. Paste these lines inside the server { } block of the old',
    '# domain (or of the new one, if the domain stays), then reload nginx.',
  ],
  apache: [
    '# Permanent (301) redirects from the old store’s product, category and brand addresses to the',
    '# new store’s, made by Replatform (mod_alias). Paste these lines into the site’s configuration',
    '# or its .htaccess file.',
  ],
};

async function* mapRows(
  repository: EngineRepository,
  migrationId: string,
  pageSize: number,
): AsyncGenerator<StorefrontPath> {
  let after: { entity: string; sourceId: string } | null = null;
  for (;;) {
    const rows = await repository.storefrontPaths(migrationId, redirectedEntities, after, pageSize);
    yield* rows;
    const last = rows[rows.length - 1];
    if (!last || rows.length < pageSize) return;
    after = { entity: last.entity, sourceId: last.sourceId };
  }
}

async function* csvRows(
  repository: EngineRepository,
  migrationId: string,
  pageSize: number,
): AsyncGenerator<(string | null)[]> {
  yield [...redirectMapHeader];
  for await (const row of mapRows(repository, migrationId, pageSize)) {
    yield [
      singular[row.entity] ?? row.entity,
      row.sourceId,
      row.destinationId,
      row.sourcePath,
      row.destinationPath,
      redirectNeed(row),
    ];
  }
}

async function* ruleLines(
  format: 'nginx' | 'apache',
  repository: EngineRepository,
  migrationId: string,
  pageSize: number,
): AsyncGenerator<string> {
  for (const line of ruleHeaders[format]) yield `${line}\n`;
  let rules = 0;
  for await (const row of mapRows(repository, migrationId, pageSize)) {
    const rule = redirectRule(format, row);
    if (!rule) continue;
    rules += 1;
    yield `${rule}\n`;
  }
  if (rules === 0) yield '# No address changed: nothing to redirect.\n';
}

/**
 * The migration's redirect map, streamed from the id map: every migrated product and category
 * with its old and new storefront path as CSV (whether each needs a redirect, and why not), or
 * the permanent redirects as ready-to-paste nginx or Apache rules.
 */
export function redirectMap(
  repository: EngineRepository,
  migrationId: string,
  format: RedirectFormat,
  pageSize = 1000,
): Readable {
  if (format === 'csv') {
    const csv = stringify({ record_delimiter: 'windows', escape_formulas: true });
    pipeline(Readable.from(csvRows(repository, migrationId, pageSize)), csv, () => {});
    return csv;
  }
  return Readable.from(ruleLines(format, repository, migrationId, pageSize));
}
