import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import {
  buildSchema,
  getNamedType,
  Kind,
  NoDeprecatedCustomRule,
  parse,
  specifiedRules,
  TypeInfo,
  validate,
  visit,
  visitWithTypeInfo,
  type DocumentNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { platformSpecsDir } from '@replatform/emulators/framework/platform-specs';
import { isConnectionType, requestedQueryCost } from '@replatform/emulators/shopify/query-cost';
import {
  allOperations,
  ARTICLE_PAGE_SIZE,
  BLOG_PAGE_SIZE,
  COLLECTION_PAGE_SIZE,
  PAGE_PAGE_SIZE,
  CUSTOMER_PAGE_SIZE,
  ORDER_PAGE_SIZE,
  PRODUCT_PAGE_SIZE,
  COUPON_PAGE_SIZE,
  REVIEW_PRODUCTS_PAGE,
  VENDOR_PAGE_SIZE,
  bulkCollectionsQuery,
  bulkCustomersQuery,
  bulkOrdersQuery,
  bulkProductsQuery,
  bulkVariantExtrasQuery,
} from './documents.ts';
import { SHOPIFY_SCOPES } from './oauth.ts';

/**
 * Every document the connector can send, checked statically against Shopify's official Admin API
 * 2026-10 schema (platform-specs/shopify): valid, no deprecated fields, within the single-query
 * cost, covered by the app's access scopes, and bulk queries within Shopify's bulk rules.
 */

const specs = join(platformSpecsDir(), 'shopify');
const schema: GraphQLSchema = buildSchema(
  readFileSync(join(specs, 'admin-graphql-2026-10.graphql'), 'utf8'),
);

interface IntrospectionField {
  name: string;
  requiredAccess?: string | null;
}
const introspection = JSON.parse(
  gunzipSync(readFileSync(join(specs, 'admin-graphql-2026-10.introspection.json.gz'))).toString(
    'utf8',
  ),
) as { data: { __schema: { types: { name: string; fields: IntrospectionField[] | null }[] } } };
const mutationAccess = new Map(
  (introspection.data.__schema.types.find((t) => t.name === 'Mutation')?.fields ?? []).map((f) => [
    f.name,
    f.requiredAccess ?? null,
  ]),
);

const operationOf = (document: DocumentNode): OperationDefinitionNode | undefined =>
  document.definitions.find(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );

/** Variables a page or lookup query is sent with, so its cost can be worked out. */
const pageSizes: Record<string, number> = {
  ProductsPage: PRODUCT_PAGE_SIZE,
  CollectionsPage: COLLECTION_PAGE_SIZE,
  CustomersPage: CUSTOMER_PAGE_SIZE,
  OrdersPage: ORDER_PAGE_SIZE,
  CouponsPage: COUPON_PAGE_SIZE,
  ProductReviewsPage: REVIEW_PRODUCTS_PAGE,
  ProductVendorsPage: VENDOR_PAGE_SIZE,
  PagesPage: PAGE_PAGE_SIZE,
  ArticlesPage: ARTICLE_PAGE_SIZE,
  BlogsPage: BLOG_PAGE_SIZE,
  // As many as a product can have.
  ProductMediaState: 250,
};
const sampleVariable = (operation: string, name: string): unknown =>
  ({
    first: pageSizes[operation],
    after: null,
    id: 'gid://shopify/Product/1',
    query: 'id:>1',
    code: 'WELCOME10',
    metafields: [],
  })[name];

const bulkQueries = {
  products: bulkProductsQuery('id:>1'),
  variantExtras: bulkVariantExtrasQuery('product_id:>1'),
  customers: bulkCustomersQuery(''),
  orders: bulkOrdersQuery('id:>1'),
  collections: bulkCollectionsQuery(''),
};

describe('GraphQL documents against the official 2026-10 schema', () => {
  it(`validates all ${allOperations.length} operations, without deprecated fields`, () => {
    expect(allOperations.length).toBeGreaterThan(30);
    const names = new Set<string>();
    for (const op of allOperations) {
      const document = parse(op.document);
      expect(
        validate(schema, document).map((e) => e.message),
        op.name,
      ).toEqual([]);
      expect(
        validate(schema, document, [NoDeprecatedCustomRule]).map((e) => e.message),
        op.name,
      ).toEqual([]);
      const operations = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
      // The client sends operationName, and learns costs by it: one operation of that name.
      expect(operations, op.name).toHaveLength(1);
      expect(operationOf(document)?.name?.value, op.name).toBe(op.name);
      expect(names.has(op.name), `${op.name} twice`).toBe(false);
      names.add(op.name);
    }
  });

  it('keeps every query within the single-query cost and estimates its cost as Shopify does', () => {
    for (const op of allOperations) {
      const document = parse(op.document);
      const operation = operationOf(document);
      if (!operation || operation.operation !== 'query') continue;
      const variables = Object.fromEntries(
        (operation.variableDefinitions ?? []).map((v) => [
          v.variable.name.value,
          sampleVariable(op.name, v.variable.name.value),
        ]),
      );
      const requested = requestedQueryCost({ schema, document, operation, variables });
      expect(requested, op.name).toBeLessThanOrEqual(1000);
      // The estimate paces the first call; the client learns the real cost after it.
      expect(op.cost(variables), op.name).toBe(requested);
    }
  });

  it('uses only mutations the app’s access scopes allow', () => {
    const granted = new Set<string>(SHOPIFY_SCOPES);
    for (const op of allOperations) {
      const operation = operationOf(parse(op.document));
      if (operation?.operation !== 'mutation') continue;
      for (const selection of operation.selectionSet.selections) {
        if (selection.kind !== Kind.FIELD) continue;
        const access = mutationAccess.get(selection.name.value);
        expect(access, `${selection.name.value} is in the schema`).not.toBeUndefined();
        // "`x` access scope." or "Any of `x`, `y` access scopes.".
        const scopes = [...(access ?? '').matchAll(/`([a-z_]+)`/g)].map((m) => m[1] ?? '');
        if (scopes.length === 0) continue;
        // A scope named without read_ or write_ ("`orders` access scope") is held with either;
        // a write scope includes its read scope.
        const held = (s: string) =>
          granted.has(s) || (!/^(read|write)_/.test(s) && granted.has(`write_${s}`));
        expect(scopes.some(held), `${op.name} needs one of ${scopes.join(', ')}`).toBe(true);
      }
    }
  });

  it('writes bulk queries Shopify accepts: valid, at most five connections, two levels deep', () => {
    for (const [name, query] of Object.entries(bulkQueries)) {
      const document = parse(query);
      expect(
        validate(schema, document, specifiedRules).map((e) => e.message),
        name,
      ).toEqual([]);
      expect(
        validate(schema, document, [NoDeprecatedCustomRule]).map((e) => e.message),
        name,
      ).toEqual([]);
      const typeInfo = new TypeInfo(schema);
      let connections = 0;
      let depth = 0;
      let deepest = 0;
      const problems: string[] = [];
      visit(
        document,
        visitWithTypeInfo(typeInfo, {
          Field: {
            enter(node, _key, siblings) {
              const type = typeInfo.getType();
              const named = type ? getNamedType(type) : undefined;
              if (!named || !isConnectionType(named)) return;
              connections += 1;
              depth += 1;
              deepest = Math.max(deepest, depth);
              // Bulk queries page by themselves: no page sizes.
              if (node.arguments?.some((a) => a.name.value === 'first' || a.name.value === 'last'))
                problems.push(`${node.name.value} has a page size`);
              // The parent of a nested connection must select its id, for __parentId.
              const selectsId =
                Array.isArray(siblings) &&
                siblings.some(
                  (s: unknown) =>
                    (s as { kind?: string }).kind === Kind.FIELD &&
                    (s as { name: { value: string } }).name.value === 'id',
                );
              if (depth > 1 && !selectsId)
                problems.push(`${node.name.value} is nested under an object without its id`);
            },
            leave() {
              const type = typeInfo.getType();
              const named = type ? getNamedType(type) : undefined;
              if (named && isConnectionType(named)) depth -= 1;
            },
          },
        }),
      );
      expect(problems, name).toEqual([]);
      expect(connections, name).toBeGreaterThan(0);
      expect(connections, name).toBeLessThanOrEqual(5);
      expect(deepest, name).toBeLessThanOrEqual(2);
    }
  });
});
