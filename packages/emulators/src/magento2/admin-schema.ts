import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import ajvFormats from 'ajv-formats';
import { JSON_SCHEMA, load } from 'js-yaml';
import { platformSpecsDir } from '../framework/platform-specs.ts';

/**
 * Checks HTTP traffic against Magento's own admin REST description, admin-schema-2.4.9.yaml
 * (Swagger 2.0, AdobeDocs/commerce-webapi). Connector tests run every request they recorded
 * through `checkRequest`, emulator tests run answers through `checkResponse`, so neither side is
 * checked against anyone's memory of the API.
 *
 * What is checked for a request: the /rest[/<store_code>][/async/bulk]/V1/... prefix; the path
 * against the spec's path templates (the most literal template wins, as Magento's router
 * prefers); that the operation exists for the method; every query parameter is one the operation
 * declares (searchCriteria indexes folded to the spec's [0]) with the declared type; the JSON
 * body against the body parameter's schema; OAuth 1.0a in the Authorization header.
 *
 * Async bulk routes are not in the file: Magento derives them from the synchronous routes
 * (limits.json magento2.async_bulk), so `/async/bulk/V1/products/bySku` matches
 * `/V1/products/{sku}` with an array body whose items are the synchronous body plus `sku`.
 *
 * Request bodies are checked closed: Magento's ServiceInputProcessor looks for a getter for every
 * property it is sent and refuses the request when a data interface has none ("Property ... does
 * not have accessor method ..."), so an object in a request may carry only the properties its
 * definition lists (an extension interface without properties accepts none). Answers are checked
 * open, since Magento adds fields of installed modules.
 *
 * Swagger 2.0 cannot say "nullable" and Magento leaves empty fields out or sends null, so nulls
 * in answers are dropped before validation.
 */

interface Parameter {
  name: string;
  in: 'query' | 'path' | 'body' | 'header' | 'formData';
  type?: string;
  required?: boolean;
  schema?: Record<string, unknown>;
}

interface Operation {
  parameters?: Parameter[];
  responses?: Record<string, { schema?: Record<string, unknown> }>;
}

interface Template {
  path: string;
  regex: RegExp;
  literals: number;
  params: string[];
  operations: Record<string, Operation>;
}

export interface CheckedRequest {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
}

/** Routes the spec merges with another that Magento keeps apart (etc/webapi.xml). */
const extraRoutes: Record<string, string> = {
  // Magento_Customer etc/webapi.xml declares POST /V1/customers/ (CustomerRepositoryInterface::save)
  // next to POST /V1/customers (createAccount); the generated spec lists one path for both.
  'POST /V1/customers/': '/V1/customers',
};

export const defaultAdminSchemaPath = resolve(
  platformSpecsDir(),
  'magento2/admin-schema-2.4.9.yaml',
);

const conditionTypes = new Set([
  'eq',
  'neq',
  'like',
  'nlike',
  'in',
  'nin',
  'gt',
  'gteq',
  'lt',
  'lteq',
  'null',
  'notnull',
  'finset',
  'from',
  'to',
  'moreq',
]);

/**
 * Definitions the spec itself leaves open, where any property is accepted: a generic data
 * container (framework-extensible-data-interface) and untyped arrays Magento passes through as
 * they come (unstructured-array).
 */
const openDefinitions = new Set(['framework-extensible-data-interface', 'unstructured-array']);

/**
 * A copy of a schema in which every object refuses properties it does not declare, except the
 * open definitions above. References stay references (the definitions are closed the same way).
 */
function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (!schema || typeof schema !== 'object') return schema;
  const node = schema as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties' && value && typeof value === 'object') {
      out.properties = Object.fromEntries(
        Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, closed(v)]),
      );
    } else if (key === 'items' || key === 'additionalProperties') {
      out[key] = closed(value);
    } else {
      out[key] = value;
    }
  }
  if (node.type === 'object' && node.additionalProperties === undefined) {
    out.additionalProperties = false;
  }
  return out;
}

function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([, v]) => v !== null)
        .map(([k, v]) => [k, withoutNulls(v)]),
    );
  }
  return value;
}

export class AdminSchema {
  readonly #templates: Template[];
  readonly #ajv: Ajv;
  readonly #compiled = new Map<object, ValidateFunction>();
  readonly #compiledRequests = new Map<object, ValidateFunction>();

  constructor(file = defaultAdminSchemaPath) {
    const doc = load(readFileSync(file, 'utf8'), { schema: JSON_SCHEMA }) as {
      info: Record<string, unknown>;
      paths: Record<string, Record<string, Operation>>;
      definitions: Record<string, unknown>;
    };
    // info.description is {"$ref": "intro/redocly-intro.md"}, a file that is not shipped.
    delete doc.info.description;
    this.#ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false });
    ajvFormats.default(this.#ajv);
    this.#ajv.addSchema({ definitions: doc.definitions }, 'magento');
    const strict = Object.fromEntries(
      Object.entries(doc.definitions).map(([name, definition]) => [
        name,
        openDefinitions.has(name) ? definition : closed(definition),
      ]),
    );
    this.#ajv.addSchema({ definitions: strict }, 'magento-request');
    this.#templates = Object.entries(doc.paths).map(([path, operations]) => {
      const params: string[] = [];
      const source = path
        .split('/')
        .map((segment) => {
          const param = /^\{(\w+)\}$/.exec(segment)?.[1];
          if (param) {
            params.push(param);
            return '([^/]+)';
          }
          return segment.replace(/[.+*?^$()[\]{}|\\-]/g, '\\$&');
        })
        .join('/');
      return {
        path,
        regex: new RegExp(`^${source}$`),
        literals: path.split('/').filter((s) => s && !s.startsWith('{')).length,
        params,
        operations: Object.fromEntries(
          Object.entries(operations).map(([m, op]) => [m.toUpperCase(), op]),
        ),
      };
    });
  }

  #validator(schema: Record<string, unknown>, kind: 'request' | 'response'): ValidateFunction {
    const cache = kind === 'request' ? this.#compiledRequests : this.#compiled;
    let compiled = cache.get(schema);
    if (!compiled) {
      const id = kind === 'request' ? 'magento-request' : 'magento';
      const rewritten = JSON.parse(
        JSON.stringify(kind === 'request' ? closed(schema) : schema).replace(
          /"#\/definitions\//g,
          `"${id}#/definitions/`,
        ),
      ) as Record<string, unknown>;
      compiled = this.#ajv.compile(rewritten);
      cache.set(schema, compiled);
    }
    return compiled;
  }

  #errors(validate: ValidateFunction, value: unknown, where: string): string[] {
    if (validate(value)) return [];
    return (validate.errors ?? []).slice(0, 10).map((e) => {
      const extra = (e.params as { additionalProperty?: unknown }).additionalProperty;
      const detail = typeof extra === 'string' ? ` ('${extra}')` : '';
      return `${where}${e.instancePath} ${e.message ?? 'invalid'}${detail}`;
    });
  }

  /** The spec template and operation a V1 path (without /rest prefix) reaches. */
  match(
    method: string,
    v1Path: string,
  ): { template: Template; operation: Operation; values: Record<string, string> } | undefined {
    const extra = extraRoutes[`${method} ${v1Path}`];
    const path = extra ?? v1Path;
    const candidates = this.#templates
      .map((t) => ({ t, m: t.regex.exec(path) }))
      .filter(
        (c): c is { t: Template; m: RegExpExecArray } =>
          c.m !== null && c.t.operations[method] !== undefined,
      )
      .sort((a, b) => b.t.literals - a.t.literals);
    const best = candidates[0];
    if (!best) return undefined;
    const operation = best.t.operations[method];
    if (!operation) return undefined;
    const values = Object.fromEntries(
      best.t.params.map((p, i) => [p, decodeURIComponent(best.m[i + 1] ?? '')]),
    );
    return { template: best.t, operation, values };
  }

  /** Problems with one request; [] when it is one Magento's admin API accepts. */
  checkRequest(request: CheckedRequest): string[] {
    const url = new URL(request.url);
    const where = `${request.method} ${url.pathname}`;
    const prefix = /^\/rest(?:\/(?!V1\/)([a-z][a-z0-9_]*))?(\/async\/bulk)?(\/V1\/.*)$/.exec(
      url.pathname,
    );
    if (!prefix) return [`${where}: not under /rest[/<store_code>][/async/bulk]/V1/`];
    const isBulk = prefix[2] !== undefined;
    let v1Path = prefix[3] ?? '';
    const byParams: string[] = [];
    if (isBulk) {
      if (request.method === 'GET')
        return [`${where}: async bulk routes take POST, PUT or DELETE only`];
      v1Path = v1Path
        .split('/')
        .map((segment) => {
          const by = /^by([A-Z]\w*)$/.exec(segment)?.[1];
          if (!by) return segment;
          const name = (by[0]?.toLowerCase() ?? '') + by.slice(1);
          byParams.push(name);
          return `{${name}}`;
        })
        .join('/');
    }
    const found = isBulk
      ? this.#matchTemplate(request.method, v1Path)
      : this.match(request.method, v1Path);
    if (!found)
      return [`${where}: no ${request.method} operation for this path in admin-schema-2.4.9.yaml`];
    const { operation, template } = found;
    if (isBulk && byParams.some((p) => !template.params.includes(p))) {
      return [
        `${where}: by-parameter segments ${byParams.join(', ')} do not match ${template.path}`,
      ];
    }
    const problems: string[] = [];
    const auth = Object.entries(request.headers ?? {}).find(
      ([k]) => k.toLowerCase() === 'authorization',
    )?.[1];
    if (!auth || !/^OAuth\s/.test(auth) || !/oauth_signature_method="HMAC-SHA(1|256)"/.test(auth)) {
      problems.push(`${where}: no OAuth 1.0a HMAC Authorization header`);
    }
    const parameters = operation.parameters ?? [];
    for (const [key, value] of url.searchParams) {
      const folded = key
        .replace(
          /^searchCriteria\[filterGroups\]\[\d+\]\[filters\]\[\d+\]/,
          'searchCriteria[filterGroups][0][filters][0]',
        )
        .replace(/^searchCriteria\[sortOrders\]\[\d+\]/, 'searchCriteria[sortOrders][0]')
        .replace(/^(\w+)\[\d*\]$/, '$1');
      const declared = parameters.find((p) => p.in === 'query' && p.name === folded);
      if (!declared) {
        problems.push(`${where}: query parameter '${key}' is not declared for ${template.path}`);
        continue;
      }
      if (declared.type === 'integer' && !/^-?\d+$/.test(value))
        problems.push(`${where}: '${key}' must be an integer`);
      if (declared.type === 'boolean' && !/^(true|false|0|1)$/.test(value))
        problems.push(`${where}: '${key}' must be a boolean`);
      if (folded.endsWith('[conditionType]') && !conditionTypes.has(value))
        problems.push(`${where}: unknown conditionType '${value}'`);
    }
    const bodyParam = parameters.find((p) => p.in === 'body');
    const raw =
      request.body === undefined
        ? undefined
        : typeof request.body === 'string'
          ? request.body
          : new TextDecoder().decode(request.body);
    if (raw !== undefined && raw !== '') {
      const type = Object.entries(request.headers ?? {}).find(
        ([k]) => k.toLowerCase() === 'content-type',
      )?.[1];
      if (!type || !/^application\/json\b/.test(type))
        problems.push(`${where}: body without Content-Type application/json`);
      let body: unknown;
      try {
        body = JSON.parse(raw);
      } catch {
        return [...problems, `${where}: body is not JSON`];
      }
      if (!bodyParam?.schema) {
        problems.push(`${where}: ${template.path} takes no body`);
      } else if (isBulk) {
        if (!Array.isArray(body)) problems.push(`${where}: an async bulk body must be an array`);
        else {
          body.forEach((item: unknown, i) => {
            const rest = { ...(item as Record<string, unknown>) };
            for (const p of byParams) {
              if (rest[p] === undefined) problems.push(`${where}: item ${i} lacks '${p}'`);
              delete rest[p];
            }
            problems.push(
              ...this.#errors(
                this.#validator(bodyParam.schema ?? {}, 'request'),
                rest,
                `${where} body[${i}]`,
              ),
            );
          });
        }
      } else {
        problems.push(
          ...this.#errors(this.#validator(bodyParam.schema, 'request'), body, `${where} body`),
        );
      }
    } else if (
      bodyParam?.schema &&
      Array.isArray(bodyParam.schema.required) &&
      bodyParam.schema.required.length
    ) {
      problems.push(`${where}: body required`);
    }
    return problems;
  }

  #matchTemplate(method: string, templatePath: string) {
    const template = this.#templates.find((t) => t.path === templatePath && t.operations[method]);
    const operation = template?.operations[method];
    return template && operation
      ? { template, operation, values: {} }
      : this.match(method, templatePath);
  }

  /** Problems with a JSON answer of a (synchronous) route; [] when it fits the spec. */
  checkResponse(method: string, url: string, status: number, body: unknown): string[] {
    const pathname = new URL(url).pathname;
    const v1 = /^\/rest(?:\/(?!V1\/)[a-z][a-z0-9_]*)?(\/V1\/.*)$/.exec(pathname)?.[1];
    if (!v1) return [`${pathname}: not a REST path`];
    const found = this.match(method, v1);
    if (!found) return [`${method} ${pathname}: not in admin-schema-2.4.9.yaml`];
    const schema =
      found.operation.responses?.[String(status)]?.schema ??
      found.operation.responses?.default?.schema;
    if (!schema) return [`${method} ${pathname}: no schema for status ${status}`];
    return this.#errors(
      this.#validator(schema, 'response'),
      withoutNulls(body),
      `${method} ${found.template.path} ${status}`,
    );
  }
}

let shared: AdminSchema | undefined;

/** One parsed copy per process: the file is 1 MB of YAML. */
export function adminSchema(): AdminSchema {
  shared ??= new AdminSchema();
  return shared;
}
