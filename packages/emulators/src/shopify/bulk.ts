import {
  execute,
  getNamedType,
  isLeafType,
  isObjectType,
  parse,
  validate,
  Kind,
  type DocumentNode,
  type FieldNode,
  type GraphQLCompositeType,
  type GraphQLObjectType,
  type GraphQLSchema,
  type SelectionSetNode,
} from 'graphql';
import { findOperation, isConnectionType } from './query-cost.ts';
import { randomToken, type ShopStore } from './store.ts';
import { bulkOperationView, type ViewContext } from './views.ts';

/**
 * bulkOperationRunQuery (shopify.dev/docs/api/usage/bulk-operations/queries): the query runs
 * without page sizes and its result is a JSONL file in which every object of a connection is one
 * line and objects of nested connections are separate lines carrying `__parentId`, the id of the
 * object they belong to. Shopify's restrictions are enforced: one top-level connection, no
 * top-level node/nodes, at most 5 connections, at most 2 levels of connection nesting, and the
 * parent of a nested connection must select `id`. At most 5 operations run at once (2026-01+).
 */

export const MAX_BULK_CONNECTIONS = 5;
export const MAX_BULK_DEPTH = 2;
export const MAX_CONCURRENT_BULK = 5;

interface Problem {
  message: string;
}

function fieldsOf(selectionSet: SelectionSetNode | undefined, document: DocumentNode): FieldNode[] {
  const out: FieldNode[] = [];
  for (const s of selectionSet?.selections ?? []) {
    if (s.kind === Kind.FIELD) out.push(s);
    else if (s.kind === Kind.INLINE_FRAGMENT) out.push(...fieldsOf(s.selectionSet, document));
    else {
      const fragment = document.definitions.find(
        (d) => d.kind === Kind.FRAGMENT_DEFINITION && d.name.value === s.name.value,
      );
      if (fragment && fragment.kind === Kind.FRAGMENT_DEFINITION)
        out.push(...fieldsOf(fragment.selectionSet, document));
    }
  }
  return out;
}

function typeOfField(
  schema: GraphQLSchema,
  parent: GraphQLCompositeType,
  field: FieldNode,
): GraphQLCompositeType | undefined {
  const candidates: GraphQLCompositeType[] = isObjectType(parent)
    ? [parent]
    : [...schema.getPossibleTypes(parent)];
  if ('getFields' in parent) candidates.unshift(parent);
  for (const candidate of candidates) {
    if (!('getFields' in candidate)) continue;
    const definition = candidate.getFields()[field.name.value];
    if (definition) {
      const named = getNamedType(definition.type);
      return isLeafType(named) ? undefined : (named as GraphQLCompositeType);
    }
  }
  return undefined;
}

/** The node type and selection of one connection field (edges.node or nodes). */
function nodeSelections(
  connection: GraphQLObjectType,
  field: FieldNode,
  document: DocumentNode,
): { type: GraphQLCompositeType; selectionSet: SelectionSetNode }[] {
  const out: { type: GraphQLCompositeType; selectionSet: SelectionSetNode }[] = [];
  for (const child of fieldsOf(field.selectionSet, document)) {
    if (child.name.value === 'nodes' && child.selectionSet) {
      const type = getNamedType(connection.getFields().nodes?.type);
      if (type && !isLeafType(type))
        out.push({ type: type as GraphQLCompositeType, selectionSet: child.selectionSet });
    } else if (child.name.value === 'edges') {
      const edgeType = getNamedType(connection.getFields().edges?.type);
      if (!edgeType || !isObjectType(edgeType)) continue;
      for (const edgeField of fieldsOf(child.selectionSet, document)) {
        if (edgeField.name.value !== 'node' || !edgeField.selectionSet) continue;
        const type = getNamedType(edgeType.getFields().node?.type);
        if (type && !isLeafType(type))
          out.push({ type: type as GraphQLCompositeType, selectionSet: edgeField.selectionSet });
      }
    }
  }
  return out;
}

function checkRestrictions(schema: GraphQLSchema, document: DocumentNode): Problem | undefined {
  const operation = findOperation(document);
  if (!operation) return { message: 'Bulk queries must contain exactly one operation.' };
  if (operation.operation !== 'query')
    return { message: 'Bulk queries must be queries, not mutations or subscriptions.' };
  const root = schema.getQueryType();
  if (!root) return { message: 'No query type.' };
  const top = fieldsOf(operation.selectionSet, document).filter(
    (f) => !f.name.value.startsWith('__'),
  );
  if (top.some((f) => f.name.value === 'node' || f.name.value === 'nodes'))
    return { message: "Bulk queries cannot use the top-level 'node' or 'nodes' fields." };
  if (top.length !== 1)
    return { message: 'Bulk queries must have exactly one top-level field, a connection.' };
  const rootField = top[0] as FieldNode;
  const rootType = getNamedType(root.getFields()[rootField.name.value]?.type);
  if (!rootType || !isConnectionType(rootType))
    return { message: 'Bulk queries must contain at least one connection.' };

  let connections = 0;
  let deepest = 0;
  const missingId: string[] = [];
  const walk = (
    type: GraphQLCompositeType,
    selectionSet: SelectionSetNode | undefined,
    depth: number,
    path: string,
  ): boolean => {
    let hasNested = false;
    for (const field of fieldsOf(selectionSet, document)) {
      const childType = typeOfField(schema, type, field);
      if (!childType) continue;
      if (isConnectionType(childType)) {
        hasNested = true;
        connections += 1;
        deepest = Math.max(deepest, depth + 1);
        for (const node of nodeSelections(childType, field, document)) {
          const nested = walk(node.type, node.selectionSet, depth + 1, field.name.value);
          const selectsId = fieldsOf(node.selectionSet, document).some(
            (f) => f.name.value === 'id' && !f.alias,
          );
          if (nested && !selectsId) missingId.push(field.name.value);
        }
      } else if (walk(childType, field.selectionSet, depth, path)) {
        hasNested = true;
      }
    }
    return hasNested;
  };
  connections = 1;
  deepest = 1;
  for (const node of nodeSelections(rootType, rootField, document)) {
    const nested = walk(node.type, node.selectionSet, 1, rootField.name.value);
    const selectsId = fieldsOf(node.selectionSet, document).some(
      (f) => f.name.value === 'id' && !f.alias,
    );
    if (nested && !selectsId) missingId.push(rootField.name.value);
  }
  if (connections > MAX_BULK_CONNECTIONS)
    return {
      message: `Bulk queries cannot contain more than ${MAX_BULK_CONNECTIONS} connections.`,
    };
  if (deepest > MAX_BULK_DEPTH)
    return {
      message: `Bulk queries cannot contain connections nested more than ${MAX_BULK_DEPTH} levels deep.`,
    };
  if (missingId.length)
    return {
      message: `The parent 'node' field for a nested connection must select the 'id' field without an alias. Connection fields without 'id': ${[...new Set(missingId)].join(', ')}.`,
    };
  return undefined;
}

/** Flattens the executed result into JSONL lines (parents first, children with __parentId). */
export function flattenToJsonl(
  schema: GraphQLSchema,
  document: DocumentNode,
  data: Record<string, unknown>,
): { lines: string[]; roots: number } {
  const operation = findOperation(document);
  const root = schema.getQueryType();
  const lines: string[] = [];
  if (!operation || !root) return { lines, roots: 0 };
  const rootField = fieldsOf(operation.selectionSet, document).find(
    (f) => !f.name.value.startsWith('__'),
  );
  if (!rootField) return { lines, roots: 0 };
  const rootType = getNamedType(root.getFields()[rootField.name.value]?.type) as GraphQLObjectType;

  const itemsOf = (value: unknown, field: FieldNode): unknown[] => {
    if (!value || typeof value !== 'object') return [];
    const out: unknown[] = [];
    for (const child of fieldsOf(field.selectionSet, document)) {
      const key = child.alias?.value ?? child.name.value;
      const v = (value as Record<string, unknown>)[key];
      if (child.name.value === 'nodes' && Array.isArray(v)) out.push(...v);
      if (child.name.value === 'edges' && Array.isArray(v)) {
        const nodeField = fieldsOf(child.selectionSet, document).find(
          (f) => f.name.value === 'node',
        );
        const nodeKey = nodeField?.alias?.value ?? 'node';
        for (const edge of v) out.push((edge as Record<string, unknown>)[nodeKey]);
      }
    }
    return out;
  };

  /** Copies `value` without nested connections, collecting them for separate lines. */
  const strip = (
    value: unknown,
    type: GraphQLCompositeType,
    selectionSet: SelectionSetNode | undefined,
    children: { value: unknown; field: FieldNode; type: GraphQLObjectType }[],
  ): unknown => {
    if (Array.isArray(value)) return value.map((v) => strip(v, type, selectionSet, children));
    if (!value || typeof value !== 'object') return value;
    const copy: Record<string, unknown> = {};
    const record = value as Record<string, unknown>;
    for (const field of fieldsOf(selectionSet, document)) {
      const key = field.alias?.value ?? field.name.value;
      if (!(key in record)) continue;
      const childType = typeOfField(schema, type, field);
      if (childType && isConnectionType(childType))
        children.push({ value: record[key], field, type: childType });
      else if (childType) copy[key] = strip(record[key], childType, field.selectionSet, children);
      else copy[key] = record[key];
    }
    return copy;
  };

  const emit = (
    connectionValue: unknown,
    field: FieldNode,
    connection: GraphQLObjectType,
    parentId: string | null,
  ) => {
    const selections = nodeSelections(connection, field, document);
    const selection = selections[0];
    if (!selection) return 0;
    let count = 0;
    for (const item of itemsOf(connectionValue, field)) {
      const children: { value: unknown; field: FieldNode; type: GraphQLObjectType }[] = [];
      const object = strip(item, selection.type, selection.selectionSet, children) as Record<
        string,
        unknown
      >;
      if (parentId !== null) object.__parentId = parentId;
      lines.push(JSON.stringify(object));
      count += 1;
      const id = (item as Record<string, unknown> | null)?.id;
      for (const child of children)
        emit(child.value, child.field, child.type, typeof id === 'string' ? id : null);
    }
    return count;
  };
  const key = rootField.alias?.value ?? rootField.name.value;
  const roots = emit(data[key], rootField, rootType, null);
  return { lines, roots };
}

export interface BulkRunner {
  run(query: string): Record<string, unknown>;
}

/**
 * Starts a bulk query. The emulator computes the result at once (a consistent snapshot) and reports
 * the operation RUNNING until `delayMs` has passed on the shop's clock, so clients must poll.
 */
export function bulkRunner(
  schema: GraphQLSchema,
  ctx: ViewContext,
  queryRootOf: (bulkCtx: ViewContext) => Record<string, unknown>,
  delayMs: number,
): BulkRunner {
  const store: ShopStore = ctx.store;
  return {
    run(query: string) {
      const invalid = (message: string) => ({
        bulkOperation: null,
        userErrors: [{ code: 'INVALID', field: ['query'], message }],
      });
      const running = [...store.bulkOperations.values()].filter(
        (b) => b.type === 'QUERY' && b.status === 'RUNNING' && store.now() < b.readyAt,
      );
      if (running.length >= MAX_CONCURRENT_BULK)
        return {
          bulkOperation: null,
          userErrors: [
            {
              code: 'LIMIT_REACHED',
              field: null,
              message: `A maximum of ${MAX_CONCURRENT_BULK} bulk query operations can run at the same time for this app and shop.`,
            },
          ],
        };
      let document: DocumentNode;
      try {
        document = parse(query);
      } catch (error) {
        return invalid(`Invalid bulk query: ${(error as Error).message}`);
      }
      const validation = validate(schema, document);
      if (validation.length)
        return invalid(`Invalid bulk query: ${validation[0]?.message ?? 'invalid'}`);
      const restriction = checkRestrictions(schema, document);
      if (restriction) return invalid(restriction.message);

      const bulkCtx: ViewContext = { ...ctx, bulk: true };
      const result = execute({ schema, document, rootValue: queryRootOf(bulkCtx) });
      if (result instanceof Promise)
        return invalid('Bulk queries must not use asynchronous fields.');
      const id = store.nextId();
      const now = store.now();
      const flattened = result.data
        ? flattenToJsonl(schema, document, result.data as Record<string, unknown>)
        : { lines: [], roots: 0 };
      const operation = {
        id,
        query,
        type: 'QUERY' as const,
        status: result.errors?.length ? ('FAILED' as const) : ('RUNNING' as const),
        createdAt: new Date(now).toISOString(),
        readyAt: now + delayMs,
        completedAt: null,
        objectCount: flattened.lines.length,
        rootObjectCount: flattened.roots,
        jsonl: flattened.lines.map((l) => `${l}\n`).join(''),
        token: randomToken(),
      };
      store.bulkOperations.set(id, operation);
      return { bulkOperation: bulkOperationView(ctx, operation), userErrors: [] };
    },
  };
}
