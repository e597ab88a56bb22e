import { getVariableValues, Kind, parse, validate, type DocumentNode } from 'graphql';
import { findOperation } from './query-cost.ts';
import { ADMIN_API_VERSION, adminSchema } from './schema.ts';

/**
 * Checks requests a client sent to Shopify against the official 2026-10 schema: the endpoint and
 * headers, the document (graphql `validate`), the variables (coerced against the operation's
 * variable types, enums and @oneOf inputs included) and, for bulkOperationRunQuery, the bulk query
 * itself. Answers the problems found (empty when every request is valid).
 */

export interface RecordedRequest {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
}

function bodyText(body: RecordedRequest['body']): string {
  if (body === undefined) return '';
  return typeof body === 'string' ? body : new TextDecoder().decode(body);
}

function header(request: RecordedRequest, name: string): string | undefined {
  const entry = Object.entries(request.headers ?? {}).find(([k]) => k.toLowerCase() === name);
  return entry?.[1];
}

function checkDocument(text: string, where: string, problems: string[]): DocumentNode | undefined {
  let document: DocumentNode;
  try {
    document = parse(text);
  } catch (error) {
    problems.push(`${where}: syntax error: ${(error as Error).message}`);
    return undefined;
  }
  for (const error of validate(adminSchema(), document))
    problems.push(`${where}: ${error.message}`);
  return document;
}

export function validateShopifyRequest(request: RecordedRequest): string[] {
  const problems: string[] = [];
  const url = new URL(request.url);
  const where = `${request.method} ${url.pathname}`;
  if (url.pathname === '/admin/oauth/authorize') {
    if (request.method !== 'GET') problems.push(`${where}: must be GET`);
    for (const key of ['client_id', 'scope', 'redirect_uri', 'state'])
      if (!url.searchParams.get(key)) problems.push(`${where}: ${key} missing`);
    return problems;
  }
  if (url.pathname === '/admin/oauth/access_token') {
    if (request.method !== 'POST') problems.push(`${where}: must be POST`);
    try {
      const body = JSON.parse(bodyText(request.body)) as Record<string, unknown>;
      for (const key of ['client_id', 'client_secret', 'code'])
        if (typeof body[key] !== 'string') problems.push(`${where}: ${key} missing`);
    } catch {
      problems.push(`${where}: body is not JSON`);
    }
    return problems;
  }
  if (!url.pathname.startsWith('/admin/')) return problems;
  if (url.pathname !== `/admin/api/${ADMIN_API_VERSION}/graphql.json`) {
    problems.push(`${where}: not the Admin GraphQL endpoint of ${ADMIN_API_VERSION}`);
    return problems;
  }
  if (request.method !== 'POST') problems.push(`${where}: must be POST`);
  if (!header(request, 'x-shopify-access-token'))
    problems.push(`${where}: X-Shopify-Access-Token missing`);
  if (!header(request, 'content-type')?.includes('application/json'))
    problems.push(`${where}: content-type must be JSON`);
  let body: { query?: unknown; variables?: unknown; operationName?: unknown };
  try {
    body = JSON.parse(bodyText(request.body)) as typeof body;
  } catch {
    problems.push(`${where}: body is not JSON`);
    return problems;
  }
  if (typeof body.query !== 'string') {
    problems.push(`${where}: no query`);
    return problems;
  }
  const document = checkDocument(body.query, where, problems);
  if (!document) return problems;
  const operation = findOperation(
    document,
    typeof body.operationName === 'string' ? body.operationName : null,
  );
  if (!operation) {
    problems.push(`${where}: operation not found`);
    return problems;
  }
  const variables = (body.variables ?? {}) as Record<string, unknown>;
  const coerced = getVariableValues(adminSchema(), operation.variableDefinitions ?? [], variables);
  for (const error of coerced.errors ?? [])
    problems.push(`${where} ${operation.name?.value ?? ''}: ${error.message}`);
  const isBulk = operation.selectionSet.selections.some(
    (s) => s.kind === Kind.FIELD && s.name.value === 'bulkOperationRunQuery',
  );
  if (isBulk && typeof variables.query === 'string')
    checkDocument(variables.query, `${where} bulk query`, problems);
  return problems;
}

export function validateShopifyRequests(requests: RecordedRequest[]): string[] {
  return requests.flatMap((r) => validateShopifyRequest(r));
}
