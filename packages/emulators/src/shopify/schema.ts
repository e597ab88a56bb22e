import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { buildSchema, type GraphQLSchema } from 'graphql';

/**
 * The official Shopify Admin GraphQL schema, API version 2026-10, exactly as published (the SDL of
 * platform-specs/shopify/admin-graphql-2026-10.graphql, gzipped here so that the sandbox server can
 * load it at run time; a test checks its SHA-256 against platform-specs/SHA256SUMS).
 */
export const ADMIN_API_VERSION = '2026-10';

/** SHA-256 of the uncompressed SDL as listed in platform-specs/SHA256SUMS. */
export const ADMIN_SCHEMA_SHA256 =
  '4480810a750b54e516b2ab5312d0a3609526a07538e5688c1d179c05734097d0';

let cached: GraphQLSchema | undefined;

export function adminSchemaSdl(): string {
  const file = new URL('./admin-graphql-2026-10.graphql.gz', import.meta.url);
  return gunzipSync(readFileSync(file)).toString('utf8');
}

/** Builds the schema once per process (about a second: 3,500 types). */
export function adminSchema(): GraphQLSchema {
  cached ??= buildSchema(adminSchemaSdl());
  return cached;
}
