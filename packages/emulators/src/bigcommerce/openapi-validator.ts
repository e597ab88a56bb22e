import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2019, type ErrorObject, type ValidateFunction } from 'ajv/dist/2019.js';
import ajvFormats from 'ajv-formats';
import { JSON_SCHEMA, load } from 'js-yaml';
import { platformSpecsDir } from '../framework/platform-specs.ts';
import { projectSpecFiles, projectSpecsDir } from './project-specs.ts';

/**
 * Checks HTTP traffic against BigCommerce's own OpenAPI 3 descriptions
 * (platform-specs/bigcommerce/*.yml, from bigcommerce/docs `reference/`, and the marketing API
 * kept with the project in specs/bigcommerce, project-specs.ts). Tests run every request
 * the connector sent and the emulator's answers through it, so neither side is checked against
 * anyone's memory of the API.
 *
 * OpenAPI 3.0 is not plain JSON Schema: `nullable` is turned into a `null` type, boolean
 * `exclusiveMinimum`/`exclusiveMaximum` into bounds, `examples` maps are
 * left alone (schema validation of the documents themselves is off), and the numeric formats
 * (int32, double, ...) are declared so that Ajv knows them.
 *
 * Request bodies are checked closed: an object may carry only the properties its schema (with its
 * allOf/anyOf/oneOf parts) declares, as BigCommerce answers 422 for fields it does not know.
 * Answers are checked open (the platform adds fields over time). See `closedDocument`.
 */

export interface SpecRequest {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
}

export interface SpecResponse {
  status: number;
  /** Parsed JSON body. */
  body: unknown;
}

interface Parameter {
  name: string;
  in: 'query' | 'header' | 'path' | 'cookie';
  required?: boolean;
  schema?: Record<string, unknown>;
}

interface Operation {
  file: string;
  version: 'v2' | 'v3';
  template: string;
  method: string;
  pattern: RegExp;
  literalSegments: number;
  parameters: Parameter[];
  pointer: string;
  hasBody: boolean;
  bodyRequired: boolean;
  responses: Record<string, { pointer: string; hasJson: boolean }>;
}

const specFiles = [
  'brands_catalog.v3.yml',
  'categories_catalog.v3.yml',
  'category-trees_catalog.v3.yml',
  'customers.v3.yml',
  'orders.v2.oas2.yml',
  'product-variant-options_catalog.v3.yml',
  'product-variants_catalog.v3.yml',
  'products_catalog.v3.yml',
  'store_information.v2.yml',
];

/** OpenAPI 3.0 schema dialect -> JSON Schema that Ajv understands, applied to the whole document. */
function toJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (node === null || typeof node !== 'object') return node;
  const source = node as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(source)) {
    // `example`/`examples` hold sample payloads, not schemas: copy them untouched.
    out[key] = key === 'example' || key === 'examples' ? value : toJsonSchema(value);
  }
  // OpenAPI 3.0's boolean exclusiveMinimum/exclusiveMaximum qualify minimum/maximum; JSON
  // Schema's take the bound itself.
  for (const [flag, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof out[flag] !== 'boolean') continue;
    if (out[flag] && out[bound] !== undefined) {
      out[flag] = out[bound];
      delete out[bound];
    } else delete out[flag];
  }
  if (typeof out.nullable === 'boolean') {
    const nullable = out.nullable;
    delete out.nullable;
    if (nullable) {
      if (typeof out.type === 'string') {
        out.type = [out.type, 'null'];
        if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
      } else if (out.type === undefined) {
        return { anyOf: [out, { type: 'null' }] };
      }
    }
  }
  return out;
}

const escapePointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

function templateToPattern(template: string): { pattern: RegExp; literalSegments: number } {
  let literalSegments = 0;
  const source = template
    .split('/')
    .map((segment) => {
      if (/^\{[^}]+\}$/.test(segment)) return '([^/]+)';
      if (segment) literalSegments += 1;
      return segment.replace(/[.*+?^$()[\]|\\-]/g, '\\$&');
    })
    .join('/');
  return { pattern: new RegExp(`^${source}/?$`), literalSegments };
}

export class BigCommerceSpec {
  readonly #ajv: Ajv2019;
  readonly #operations: Operation[] = [];
  readonly #compiled = new Map<string, ValidateFunction>();

  constructor(dir = join(platformSpecsDir(), 'bigcommerce'), projectDir = projectSpecsDir()) {
    // Draft 2019-09 for `unevaluatedProperties`, which sees through allOf/anyOf/oneOf and $ref.
    this.#ajv = new Ajv2019({
      strict: false,
      allErrors: true,
      validateSchema: false,
      logger: false,
    });
    // ajv-formats is CommonJS; its plugin is the module's `default` export under nodenext typing.
    ajvFormats.default(this.#ajv);
    for (const name of ['int32', 'int64', 'float', 'double', 'byte', 'binary', 'password']) {
      this.#ajv.addFormat(name, true);
    }
    const files = [
      ...readdirSync(dir)
        .filter((f) => specFiles.includes(f))
        .map((f) => ({ file: f, path: join(dir, f) })),
      ...readdirSync(projectDir)
        .filter((f) => projectSpecFiles.includes(f))
        .map((f) => ({ file: f, path: join(projectDir, f) })),
    ];
    for (const { file, path } of files) {
      const doc = toJsonSchema(load(readFileSync(path, 'utf8'), { schema: JSON_SCHEMA })) as {
        servers?: { url: string }[];
        paths: Record<string, Record<string, unknown>>;
      };
      patchKnownDefects(file, doc);
      const id = `https://specs.replatform.invalid/bigcommerce/${file}`;
      this.#ajv.addSchema({ ...doc, $id: id });
      const strictId = `https://specs.replatform.invalid/bigcommerce/closed/${file}`;
      this.#ajv.addSchema({ ...closedDocument(doc), $id: strictId });
      const version = doc.servers?.[0]?.url.endsWith('/v2') ? 'v2' : 'v3';
      for (const [template, item] of Object.entries(doc.paths)) {
        const shared = (item.parameters as unknown[] | undefined) ?? [];
        for (const method of ['get', 'post', 'put', 'delete', 'patch']) {
          const op = item[method] as Record<string, unknown> | undefined;
          if (!op) continue;
          const pointer = `${id}#/paths/${escapePointer(template)}/${method}`;
          const parameters = [...shared, ...((op.parameters as unknown[]) ?? [])].map((p) =>
            inline(doc, this.#resolve(doc, p), 0),
          ) as Parameter[];
          const body = op.requestBody
            ? (this.#resolve(doc, op.requestBody) as {
                required?: boolean;
                content?: Record<string, unknown>;
              })
            : undefined;
          const responses: Operation['responses'] = {};
          for (const [code, response] of Object.entries(
            (op.responses as Record<string, unknown>) ?? {},
          )) {
            const resolved = this.#resolve(doc, response) as { content?: Record<string, unknown> };
            const refPath = (response as { $ref?: string }).$ref;
            const base = refPath
              ? `${id}#${refPath.slice(1)}`
              : `${pointer}/responses/${escapePointer(code)}`;
            responses[code] = {
              pointer: `${base}/content/application~1json/schema`,
              hasJson: Boolean(resolved.content?.['application/json']),
            };
          }
          const bodyRef = (op.requestBody as { $ref?: string } | undefined)?.$ref;
          // Bodies are validated against the closed copy of the document.
          const bodyPointer = bodyRef
            ? `${strictId}#${bodyRef.slice(1)}/content/application~1json/schema`
            : `${strictId}#/paths/${escapePointer(template)}/${method}/requestBody/content/application~1json/schema`;
          this.#operations.push({
            file,
            version,
            template,
            method: method.toUpperCase(),
            ...templateToPattern(template),
            parameters,
            pointer: bodyPointer,
            hasBody: Boolean(body?.content?.['application/json']),
            bodyRequired: Boolean(body?.required),
            responses,
          });
        }
      }
    }
  }

  #resolve(doc: unknown, node: unknown): unknown {
    let current = node as { $ref?: string };
    for (let depth = 0; current && typeof current === 'object' && current.$ref; depth++) {
      if (depth > 20) throw new Error(`reference loop at ${current.$ref}`);
      let target: unknown = doc;
      for (const part of current.$ref.slice(2).split('/')) {
        target = (target as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
      }
      current = target as { $ref?: string };
    }
    return current;
  }

  #validator(ref: string): ValidateFunction {
    let fn = this.#compiled.get(ref);
    if (!fn) {
      fn = this.#ajv.compile({ $ref: ref });
      this.#compiled.set(ref, fn);
    }
    return fn;
  }

  #schemaValidator(key: string, schema: Record<string, unknown>): ValidateFunction {
    let fn = this.#compiled.get(key);
    if (!fn) {
      fn = this.#ajv.compile(schema);
      this.#compiled.set(key, fn);
    }
    return fn;
  }

  /** Finds the operation for a method and URL (/stores/{hash}/v2|v3/...); prefers literal paths. */
  find(method: string, url: string): Operation | undefined {
    const { pathname } = new URL(url);
    const match = /\/stores\/([^/]+)\/(v2|v3)(\/.*)$/.exec(pathname);
    if (!match) return undefined;
    const [, , version, rest] = match;
    const candidates = this.#operations.filter(
      (op) =>
        op.method === method.toUpperCase() &&
        op.version === version &&
        op.pattern.test(decodeURIComponent(rest ?? '')),
    );
    candidates.sort((a, b) => b.literalSegments - a.literalSegments);
    return candidates[0];
  }

  /** Every way the request departs from the spec; [] when it conforms. */
  validateRequest(request: SpecRequest): string[] {
    const problems: string[] = [];
    const url = new URL(request.url);
    const label = `${request.method} ${url.pathname}`;
    if (!/^\/stores\/[a-z0-9]+\/v[23]\//.test(url.pathname)) {
      return [`${label}: not under /stores/{store_hash}/v2|v3 with a valid store hash`];
    }
    const op = this.find(request.method, request.url);
    if (!op) return [`${label}: no such operation in the BigCommerce spec`];
    const headers = Object.fromEntries(
      Object.entries(request.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]),
    );
    if (!headers['x-auth-token']) problems.push(`${label}: X-Auth-Token header missing`);

    const declared = new Map(op.parameters.map((p) => [`${p.in}:${p.name}`, p]));
    const queryKeys = new Set<string>();
    for (const [key, raw] of url.searchParams) {
      queryKeys.add(key);
      const param = declared.get(`query:${key}`);
      if (!param) {
        problems.push(`${label}: query parameter '${key}' is not declared for ${op.template}`);
        continue;
      }
      const value = coerce(raw, param.schema ?? {});
      const check = this.#schemaValidator(
        `${op.file}:${op.method}:${op.template}:query:${key}`,
        param.schema ?? {},
      );
      if (!check(value)) {
        problems.push(`${label}: query '${key}=${raw}' ${this.#ajv.errorsText(check.errors)}`);
      }
    }
    for (const param of op.parameters) {
      if (!param.required) continue;
      if (param.in === 'query' && !queryKeys.has(param.name)) {
        problems.push(`${label}: required query parameter '${param.name}' missing`);
      }
      if (param.in === 'header' && headers[param.name.toLowerCase()] === undefined) {
        problems.push(`${label}: required header '${param.name}' missing`);
      }
    }
    const pathMatch = op.pattern.exec(
      decodeURIComponent(url.pathname.replace(/^\/stores\/[^/]+\/v[23]/, '')),
    );
    const pathNames = [...op.template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] ?? '');
    pathNames.forEach((name, i) => {
      const param = declared.get(`path:${name}`);
      const raw = pathMatch?.[i + 1] ?? '';
      if (param?.schema) {
        const check = this.#schemaValidator(
          `${op.file}:${op.method}:${op.template}:path:${name}`,
          param.schema,
        );
        if (!check(coerce(raw, param.schema))) {
          problems.push(`${label}: path '${name}=${raw}' ${this.#ajv.errorsText(check.errors)}`);
        }
      }
    });

    const bodyText =
      request.body === undefined
        ? undefined
        : typeof request.body === 'string'
          ? request.body
          : new TextDecoder().decode(request.body);
    if (bodyText !== undefined && bodyText.length > 0) {
      if (!op.hasBody) {
        problems.push(`${label}: sends a body, but the operation takes none`);
      } else {
        let parsed: unknown;
        try {
          parsed = JSON.parse(bodyText);
        } catch {
          problems.push(`${label}: body is not JSON`);
        }
        if (parsed !== undefined) {
          const check = this.#validator(op.pointer);
          if (!check(parsed)) {
            problems.push(`${label}: body ${errorsText(check.errors)}`);
          }
        }
      }
    } else if (op.bodyRequired) {
      problems.push(`${label}: request body required`);
    }
    return problems;
  }

  /** Every way a JSON response departs from the response schema of its status code. */
  validateResponse(method: string, url: string, response: SpecResponse): string[] {
    const op = this.find(method, url);
    const label = `${method} ${new URL(url).pathname} -> ${response.status}`;
    if (!op) return [`${label}: no such operation in the BigCommerce spec`];
    const declared = op.responses[String(response.status)] ?? op.responses.default;
    if (!declared) return [`${label}: status not declared for ${op.template}`];
    if (!declared.hasJson) return [];
    const check = this.#validator(declared.pointer);
    return check(response.body)
      ? []
      : [`${label}: ${this.#ajv.errorsText(check.errors, { separator: '; ' })}`];
  }
}

/**
 * Narrow, documented corrections of the published descriptions, applied before validation.
 *
 * products_catalog.v3.yml: `product_Base_POST.variants.items` points at `productVariant_Full`,
 * whose `required` lists the read-only `id` and `product_id`. Those ids cannot exist before the
 * product does, and the operation's own text says "you can create multiple product variants using
 * the `variants` array" (option values need `option_display_name` and `label`, marked
 * `x-required: post`). Nested variants are therefore checked with `sku` required instead.
 *
 * marketing.v2.yml: `coupon_Base.code` has the pattern `[a-zA-Z0-9_\ -]`, which is no valid
 * Unicode regular expression (`\ ` is no escape there) and, unanchored, would take any code with
 * one such character. Its text says "Only letters, numbers, white space, underscores, and
 * hyphens are allowed", so codes are checked against `^[a-zA-Z0-9_ -]+$`.
 */
function patchKnownDefects(file: string, doc: unknown): void {
  if (file === 'marketing.v2.yml') {
    const code = (
      doc as {
        components: {
          schemas: Record<string, { properties?: Record<string, { pattern?: string }> }>;
        };
      }
    ).components.schemas.coupon_Base?.properties?.code;
    if (code?.pattern !== '[a-zA-Z0-9_\\ -]')
      throw new Error('marketing spec changed: revisit patchKnownDefects');
    code.pattern = '^[a-zA-Z0-9_ -]+$';
    return;
  }
  if (file !== 'products_catalog.v3.yml') return;
  const schemas = (doc as { components: { schemas: Record<string, Record<string, unknown>> } })
    .components.schemas;
  const post = schemas.product_Base_POST as { properties: Record<string, unknown> } | undefined;
  const full = schemas.productVariant_Full;
  if (!post || !full) throw new Error('products spec changed: revisit patchKnownDefects');
  schemas.productVariant_Post_Nested = { ...structuredClone(full), required: ['sku'] };
  post.properties.variants = {
    type: 'array',
    items: { $ref: '#/components/schemas/productVariant_Post_Nested' },
  };
}

/** Ajv's error text, naming the property an object refused. */
function errorsText(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? [])
    .map((e) => {
      const params = e.params as { unevaluatedProperty?: unknown; additionalProperty?: unknown };
      const extra = params.unevaluatedProperty ?? params.additionalProperty;
      return `data${e.instancePath} ${e.message ?? 'invalid'}${typeof extra === 'string' ? ` ('${extra}')` : ''}`;
    })
    .join('; ');
}

/**
 * Objects the published descriptions leave open on purpose, by `schema name` or `schema name.property`
 * (an inline request body has the name ''). Objects declared with only `type: object` (no
 * properties, no parts) are free-form in OpenAPI and stay open without being listed.
 *
 * - `value_data` of option values: declared `type: object, properties: {}`, with its content
 *   described in words ("an array of `colors`", "an `image_url`", "a `product_id`", "a boolean
 *   flag, called `checked_value`"), which no schema lists.
 */
const openSchemas = new Set<string>([
  '.option_values[].value_data',
  'productOptionOptionValue_Base.value_data',
]);

const schemaRef = '#/components/schemas/';

/**
 * A copy of an (already JSON-Schema-converted) description whose request-body objects refuse
 * undeclared properties. `unevaluatedProperties: false` goes on the outermost object of a
 * composition only: a part of an allOf/anyOf/oneOf declares some of the properties, so each
 * component schema also gets an open twin (`<name>__open`) that the parts point at.
 */
function closedDocument(doc: object): Record<string, unknown> {
  const copy = structuredClone(doc) as {
    paths?: Record<string, Record<string, unknown>>;
    components?: { schemas?: Record<string, unknown>; requestBodies?: Record<string, unknown> };
  };
  const schemas = copy.components?.schemas;
  if (schemas) {
    for (const [name, schema] of Object.entries(schemas)) {
      schemas[name] = close(schema, true, name);
      schemas[`${name}__open`] = close(schema, false, name);
    }
  }
  const closeBody = (body: unknown) => {
    const content = (body as { content?: Record<string, { schema?: unknown }> } | undefined)
      ?.content;
    for (const media of Object.values(content ?? {})) {
      if (media.schema !== undefined) media.schema = close(media.schema, true, '');
    }
  };
  for (const body of Object.values(copy.components?.requestBodies ?? {})) closeBody(body);
  for (const item of Object.values(copy.paths ?? {})) {
    for (const operation of Object.values(item)) {
      if (operation && typeof operation === 'object' && 'requestBody' in operation) {
        closeBody((operation as { requestBody: unknown }).requestBody);
      }
    }
  }
  return copy as Record<string, unknown>;
}

function close(node: unknown, closed: boolean, name: string): unknown {
  if (Array.isArray(node) || node === null || typeof node !== 'object') return node;
  const source = node as Record<string, unknown>;
  const out: Record<string, unknown> = { ...source };
  if (typeof source.$ref === 'string' && source.$ref.startsWith(schemaRef) && !closed) {
    out.$ref = `${source.$ref}__open`;
  }
  if (source.properties && typeof source.properties === 'object') {
    out.properties = Object.fromEntries(
      Object.entries(source.properties as Record<string, unknown>).map(([key, value]) => [
        key,
        close(value, !openSchemas.has(`${name}.${key}`), `${name}.${key}`),
      ]),
    );
  }
  if (source.items !== undefined) out.items = close(source.items, true, `${name}[]`);
  if (source.additionalProperties && typeof source.additionalProperties === 'object') {
    out.additionalProperties = close(source.additionalProperties, true, `${name}{}`);
  }
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    const parts = source[key];
    if (Array.isArray(parts)) out[key] = parts.map((part) => close(part, false, name));
  }
  const composed = ['allOf', 'anyOf', 'oneOf'].some((key) => Array.isArray(source[key]));
  if (
    closed &&
    !openSchemas.has(name) &&
    (source.properties !== undefined || composed) &&
    source.additionalProperties === undefined &&
    source.unevaluatedProperties === undefined
  ) {
    out.unevaluatedProperties = false;
  }
  return out;
}

/** Copies a small schema with every $ref replaced by its target (parameter schemas only). */
function inline(doc: unknown, node: unknown, depth: number): unknown {
  if (depth > 30) throw new Error('schema too deep to inline');
  if (Array.isArray(node)) return node.map((n) => inline(doc, n, depth + 1));
  if (node === null || typeof node !== 'object') return node;
  const ref = (node as { $ref?: unknown }).$ref;
  if (typeof ref === 'string') {
    let target: unknown = doc;
    for (const part of ref.slice(2).split('/')) {
      target = (target as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
    }
    return inline(doc, target, depth + 1);
  }
  return Object.fromEntries(
    Object.entries(node).map(([k, v]) => [k, k === 'example' ? v : inline(doc, v, depth + 1)]),
  );
}

/** Query and path values arrive as text; turn them into what their schema describes. */
function coerce(raw: string, schema: Record<string, unknown>): unknown {
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'array') {
    const items = (schema.items as Record<string, unknown> | undefined) ?? {};
    return raw.split(',').map((part) => coerce(part, items));
  }
  if (type === 'integer' || type === 'number') {
    return /^-?\d+(\.\d+)?$/.test(raw) ? Number(raw) : raw;
  }
  if (type === 'boolean') return raw === 'true' ? true : raw === 'false' ? false : raw;
  return raw;
}
