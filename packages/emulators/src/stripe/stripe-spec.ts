import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { JSON_SCHEMA, load } from 'js-yaml';
import { paramName } from './form-encoding.ts';
import { platformSpecsDir } from '../framework/platform-specs.ts';

/**
 * Stripe's own OpenAPI description (stripe/openapi spec3.yaml at API version 2023-08-16, in
 * platform-specs/stripe/). The emulator checks every request it serves against it, and tests
 * check the emulator's objects against it, so the client, the emulator and Stripe agree.
 */
export const stripeApiVersion = '2023-08-16';

export function stripeSpecPath(): string {
  const dir = platformSpecsDir();
  return join(dir, 'stripe', `spec3.${stripeApiVersion}.yaml`);
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: unknown;
}

interface Operation {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: unknown }> };
}

interface SpecDocument {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown> };
}

export interface ParamProblem {
  /** Stripe's name of the parameter, e.g. `line_items[0][price_data][unit_amount]`. */
  param: string;
  message: string;
}

/**
 * OpenAPI 3.0 -> JSON Schema for Ajv: `nullable` becomes a null alternative and local references
 * point into the one registered document. Descriptions are dropped to keep the compiled
 * validators small.
 */
function toJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (node === null || typeof node !== 'object') return node;
  const source = node as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(source)) {
    if (key === 'description' || key === 'nullable' || key.startsWith('x-')) continue;
    if (key === '$ref' && typeof value === 'string' && value.startsWith('#/')) {
      out.$ref = `stripe${value}`;
    } else if (key === 'properties' && value && typeof value === 'object') {
      // Keys here are property names (a property may be called `description`), not keywords.
      out.properties = namedSchemas(value as Record<string, unknown>);
    } else {
      out[key] = toJsonSchema(value);
    }
  }
  if (source.nullable === true) {
    if (Array.isArray(out.anyOf)) return { ...out, anyOf: [...out.anyOf, { type: 'null' }] };
    if (typeof out.type === 'string') {
      const withNull: Record<string, unknown> = { ...out, type: [out.type, 'null'] };
      if (Array.isArray(out.enum)) withNull.enum = [...out.enum, null];
      return withNull;
    }
    if (out.$ref) return { anyOf: [{ $ref: out.$ref }, { type: 'null' }] };
  }
  return out;
}

function namedSchemas(map: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(map).map(([name, schema]) => [name, toJsonSchema(schema)]),
  );
}

function problemsOf(errors: ErrorObject[] | null | undefined): ParamProblem[] {
  return (errors ?? []).map((error) => {
    const path = error.instancePath
      .split('/')
      .slice(1)
      .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
    if (error.keyword === 'additionalProperties') {
      const extra = String((error.params as { additionalProperty?: string }).additionalProperty);
      const param = paramName([...path, extra]);
      return { param, message: `Received unknown parameter: ${param}` };
    }
    if (error.keyword === 'required') {
      const missing = String((error.params as { missingProperty?: string }).missingProperty);
      const param = paramName([...path, missing]);
      return { param, message: `Missing required param: ${param}.` };
    }
    const param = paramName(path);
    return { param, message: `Invalid ${param}: ${error.message ?? 'invalid value'}` };
  });
}

/**
 * Loaded once per process (the YAML is 4 MB) and compiled per operation on first use. Form values
 * arrive as strings; Ajv coerces them to the integers and booleans the schema asks for, in place,
 * so a handler reads typed params after validation.
 */
export class StripeSpec {
  static #shared: StripeSpec | undefined;

  static shared(): StripeSpec {
    StripeSpec.#shared ??= new StripeSpec(stripeSpecPath());
    return StripeSpec.#shared;
  }

  readonly #document: SpecDocument;
  readonly #coercing: Ajv;
  readonly #strict: Ajv;
  readonly #validators = new Map<string, ValidateFunction>();

  constructor(path: string) {
    const raw = load(readFileSync(path, 'utf8'), { schema: JSON_SCHEMA }) as SpecDocument;
    this.#document = raw;
    const components = { components: { schemas: namedSchemas(raw.components.schemas) } };
    const make = (coerceTypes: boolean) => {
      const ajv = new Ajv({
        strict: false,
        allErrors: true,
        validateSchema: false,
        logger: false,
        coerceTypes,
      });
      for (const format of ['unix-time', 'decimal', 'binary']) ajv.addFormat(format, true);
      ajv.addSchema({ $id: 'stripe', ...components });
      return ajv;
    };
    this.#coercing = make(true);
    this.#strict = make(false);
  }

  #operation(method: string, template: string): Operation {
    const operation = this.#document.paths[template]?.[method.toLowerCase()];
    if (!operation) throw new Error(`The Stripe spec has no ${method} ${template}`);
    return operation;
  }

  /** The JSON Schema of an operation's params: the form body for POST, the query for GET. */
  paramsSchema(method: string, template: string): Record<string, unknown> {
    const operation = this.#operation(method, template);
    if (method.toUpperCase() === 'GET' || method.toUpperCase() === 'DELETE') {
      const query = (operation.parameters ?? []).filter((p) => p.in === 'query');
      return {
        type: 'object',
        additionalProperties: false,
        properties: Object.fromEntries(query.map((p) => [p.name, toJsonSchema(p.schema ?? {})])),
        required: query.filter((p) => p.required).map((p) => p.name),
      };
    }
    const schema = operation.requestBody?.content?.['application/x-www-form-urlencoded']?.schema;
    return (toJsonSchema(schema ?? { type: 'object', additionalProperties: false }) ??
      {}) as Record<string, unknown>;
  }

  /**
   * Checks (and coerces, in place) the params of a request to `template`, e.g.
   * ('POST', '/v1/checkout/sessions'). Answers the problems, none when valid.
   */
  validateParams(
    method: string,
    template: string,
    params: Record<string, unknown>,
  ): ParamProblem[] {
    const key = `params ${method.toUpperCase()} ${template}`;
    let validate = this.#validators.get(key);
    if (!validate) {
      validate = this.#coercing.compile(this.paramsSchema(method, template));
      this.#validators.set(key, validate);
    }
    return validate(params) ? [] : problemsOf(validate.errors);
  }

  /** Checks an API object (e.g. 'checkout.session') against its component schema, uncoerced. */
  validateObject(schemaName: string, value: unknown): ParamProblem[] {
    const key = `object ${schemaName}`;
    let validate = this.#validators.get(key);
    if (!validate) {
      if (!(schemaName in this.#document.components.schemas)) {
        throw new Error(`The Stripe spec has no schema ${schemaName}`);
      }
      validate = this.#strict.compile({
        $ref: `stripe#/components/schemas/${schemaName.replace(/~/g, '~0').replace(/\//g, '~1')}`,
      });
      this.#validators.set(key, validate);
    }
    return validate(value) ? [] : problemsOf(validate.errors);
  }

  /** Event types the spec's webhook endpoints accept (enabled_events enum). */
  eventTypes(): string[] {
    const schema = this.paramsSchema('POST', '/v1/webhook_endpoints') as {
      properties?: { enabled_events?: { items?: { enum?: string[] } } };
    };
    return schema.properties?.enabled_events?.items?.enum ?? [];
  }
}
