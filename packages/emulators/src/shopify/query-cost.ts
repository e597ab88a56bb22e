import {
  getArgumentValues,
  getDirectiveValues,
  getNamedType,
  getNullableType,
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  isAbstractType,
  isInterfaceType,
  isLeafType,
  isListType,
  isObjectType,
  Kind,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';

/**
 * Shopify's calculated query cost (shopify.dev/docs/apps/build/apis/graphql-admin/rate-limits):
 * scalars and enums cost 0, objects 1, interfaces and unions the maximum of their possible
 * selections, connections 2 plus `first`/`last` times the cost of one item, and each mutation field
 * 10 (productSet and metafieldsSet use their documented dynamic formulas). The requested cost is
 * computed before execution from the arguments; the actual cost afterwards from what was returned.
 */

interface CostContext {
  schema: GraphQLSchema;
  fragments: Map<string, FragmentDefinitionNode>;
  variables: Record<string, unknown>;
}

interface Collected {
  responseKey: string;
  nodes: FieldNode[];
  owner: GraphQLCompositeType;
}

export function findOperation(
  document: DocumentNode,
  operationName?: string | null,
): OperationDefinitionNode | undefined {
  const operations = document.definitions.filter(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  if (operationName) return operations.find((o) => o.name?.value === operationName);
  return operations.length === 1 ? operations[0] : undefined;
}

function fragmentsOf(document: DocumentNode): Map<string, FragmentDefinitionNode> {
  const map = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions)
    if (d.kind === Kind.FRAGMENT_DEFINITION) map.set(d.name.value, d);
  return map;
}

function included(ctx: CostContext, node: Parameters<typeof getDirectiveValues>[1]): boolean {
  const skip = getDirectiveValues(GraphQLSkipDirective, node, ctx.variables);
  if (skip?.if === true) return false;
  const include = getDirectiveValues(GraphQLIncludeDirective, node, ctx.variables);
  return include?.if !== false;
}

/** Whether selections under a type condition apply to `type` (strict) or may apply (loose). */
function conditionApplies(
  ctx: CostContext,
  condition: string | undefined,
  type: GraphQLCompositeType,
  loose: boolean,
): GraphQLCompositeType | undefined {
  if (!condition || condition === type.name) return type;
  const conditionType = ctx.schema.getType(condition);
  if (!conditionType || !(isObjectType(conditionType) || isAbstractType(conditionType)))
    return undefined;
  if (loose) return conditionType;
  if (isObjectType(type) && isAbstractType(conditionType))
    return ctx.schema.isSubType(conditionType, type) ? type : undefined;
  return undefined;
}

function collectFields(
  ctx: CostContext,
  type: GraphQLCompositeType,
  selectionSet: SelectionSetNode | undefined,
  loose: boolean,
  out = new Map<string, Collected>(),
  owner: GraphQLCompositeType = type,
): Map<string, Collected> {
  if (!selectionSet) return out;
  for (const selection of selectionSet.selections) {
    if (!included(ctx, selection)) continue;
    if (selection.kind === Kind.FIELD) {
      const key = selection.alias?.value ?? selection.name.value;
      const existing = out.get(key);
      if (existing) existing.nodes.push(selection);
      else out.set(key, { responseKey: key, nodes: [selection], owner });
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      const applies = conditionApplies(ctx, selection.typeCondition?.name.value, type, loose);
      if (applies) collectFields(ctx, type, selection.selectionSet, loose, out, applies);
    } else {
      const fragment = ctx.fragments.get(selection.name.value);
      if (!fragment) continue;
      const applies = conditionApplies(ctx, fragment.typeCondition.name.value, type, loose);
      if (applies) collectFields(ctx, type, fragment.selectionSet, loose, out, applies);
    }
  }
  return out;
}

function mergedSelection(nodes: FieldNode[]): SelectionSetNode | undefined {
  const selections = nodes.flatMap((n) => n.selectionSet?.selections ?? []);
  return selections.length ? { kind: Kind.SELECTION_SET, selections } : undefined;
}

function fieldDefinition(
  owner: GraphQLCompositeType,
  name: string,
): GraphQLField<unknown, unknown> | undefined {
  if (isObjectType(owner) || isInterfaceType(owner)) return owner.getFields()[name];
  return undefined;
}

export function isConnectionType(type: GraphQLNamedType): type is GraphQLObjectType {
  return isObjectType(type) && type.name.endsWith('Connection') && 'pageInfo' in type.getFields();
}

function argumentsOf(
  ctx: CostContext,
  definition: GraphQLField<unknown, unknown>,
  node: FieldNode,
): Record<string, unknown> {
  try {
    return getArgumentValues(definition, node, ctx.variables) as Record<string, unknown>;
  } catch {
    return {};
  }
}

// ---------------------------------------------------------------- requested cost

function requestedSelection(
  ctx: CostContext,
  type: GraphQLCompositeType,
  selectionSet: SelectionSetNode | undefined,
): number {
  if (isAbstractType(type)) {
    let max = 0;
    for (const possible of ctx.schema.getPossibleTypes(type))
      max = Math.max(max, requestedSelection(ctx, possible, selectionSet));
    return max;
  }
  let total = 0;
  for (const field of collectFields(ctx, type, selectionSet, false).values())
    total += requestedField(ctx, field.owner, field.nodes);
  return total;
}

function requestedConnection(
  ctx: CostContext,
  connection: GraphQLObjectType,
  selectionSet: SelectionSetNode | undefined,
  size: number,
): number {
  let perItem = 0;
  let fixed = 0;
  for (const field of collectFields(ctx, connection, selectionSet, false).values()) {
    const name = field.nodes[0]?.name.value;
    const definition = name ? connection.getFields()[name] : undefined;
    if (!definition || name === 'pageInfo') continue;
    const named = getNamedType(definition.type);
    const sub = mergedSelection(field.nodes);
    if (name === 'nodes' && !isLeafType(named)) {
      perItem += 1 + requestedSelection(ctx, named as GraphQLCompositeType, sub);
    } else if (name === 'edges' && isObjectType(named)) {
      for (const edgeField of collectFields(ctx, named, sub, false).values()) {
        const edgeName = edgeField.nodes[0]?.name.value;
        const edgeDefinition = edgeName ? named.getFields()[edgeName] : undefined;
        if (!edgeDefinition) continue;
        const nodeType = getNamedType(edgeDefinition.type);
        if (edgeName === 'node' && !isLeafType(nodeType))
          perItem +=
            1 +
            requestedSelection(
              ctx,
              nodeType as GraphQLCompositeType,
              mergedSelection(edgeField.nodes),
            );
        else perItem += requestedField(ctx, named, edgeField.nodes);
      }
    } else {
      fixed += requestedField(ctx, connection, field.nodes);
    }
  }
  return 2 + size * perItem + fixed;
}

function requestedField(ctx: CostContext, owner: GraphQLCompositeType, nodes: FieldNode[]): number {
  const first = nodes[0];
  if (!first || first.name.value.startsWith('__')) return 0;
  const definition = fieldDefinition(owner, first.name.value);
  if (!definition) return 0;
  const named = getNamedType(definition.type);
  if (isLeafType(named)) return 0;
  const args = argumentsOf(ctx, definition, first);
  const sub = mergedSelection(nodes);
  if (isConnectionType(named)) {
    const size = Number(args.first ?? args.last ?? 0) || 0;
    return requestedConnection(ctx, named, sub, size);
  }
  const one = 1 + requestedSelection(ctx, named as GraphQLCompositeType, sub);
  if (isListType(getNullableType(definition.type)) && typeof args.first === 'number')
    return args.first * one;
  return one;
}

// ---------------------------------------------------------------- mutation cost

/** Weights of metafieldsSet owners (changelog "Dynamic complexity cost for metafieldsSet"). */
const metafieldOwnerWeights: Record<string, number> = {
  Order: 10,
  Product: 4,
  ProductVariant: 2,
  Collection: 1,
  Customer: 1,
  CompanyContact: 1,
  Shop: 1,
};

function ownerTypeOfGid(gid: string): string {
  return /^gid:\/\/shopify\/([A-Za-z]+)\//.exec(gid)?.[1] ?? '';
}

function list(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? (value as Record<string, unknown>[]) : [];
}

/**
 * Cost of one mutation field. productSet: 10 + 0.2/variant + 0.6/variant file + 0.4/variant
 * metafield + 0.4/product metafield + 1.9/product file (changelog "Dynamic complexity cost for
 * productSet mutation", 2025-10), rounded up; productVariantsBulkCreate/Update alike with media given
 * to the mutation as product files ("Dynamic complexity for productVariantsBulkCreate and
 * productVariantsBulkUpdate mutations"). metafieldsSet: 10 + the weight of each distinct owner.
 */
export function mutationFieldCost(name: string, args: Record<string, unknown>): number {
  if (name === 'productSet') {
    const input = (args.input ?? {}) as Record<string, unknown>;
    const variants = list(input.variants);
    const cost =
      10 +
      variants.length * 0.2 +
      variants.filter((v) => v.file).length * 0.6 +
      variants.reduce((n, v) => n + list(v.metafields).length, 0) * 0.4 +
      list(input.metafields).length * 0.4 +
      list(input.files).length * 1.9;
    return Math.ceil(cost - 1e-9);
  }
  if (name === 'productVariantsBulkCreate' || name === 'productVariantsBulkUpdate') {
    const variants = list(args.variants);
    const cost =
      10 +
      variants.length * 0.2 +
      variants.filter((v) => v.mediaId || list(v.mediaSrc).length).length * 0.6 +
      variants.reduce((n, v) => n + list(v.metafields).length, 0) * 0.4 +
      list(args.media).length * 1.9;
    return Math.ceil(cost - 1e-9);
  }
  if (name === 'metafieldsSet') {
    const owners = new Set(list(args.metafields).map((m) => String(m.ownerId ?? '')));
    let cost = 10;
    for (const owner of owners) cost += metafieldOwnerWeights[ownerTypeOfGid(owner)] ?? 0;
    return cost;
  }
  return 10;
}

// ---------------------------------------------------------------- public API

export interface CostInput {
  schema: GraphQLSchema;
  document: DocumentNode;
  operation: OperationDefinitionNode;
  variables: Record<string, unknown>;
}

function contextOf(input: CostInput): CostContext {
  return {
    schema: input.schema,
    fragments: fragmentsOf(input.document),
    variables: input.variables,
  };
}

export function requestedQueryCost(input: CostInput): number {
  const ctx = contextOf(input);
  if (input.operation.operation === 'mutation') {
    const root = input.schema.getMutationType();
    if (!root) return 0;
    let total = 0;
    for (const field of collectFields(ctx, root, input.operation.selectionSet, false).values()) {
      for (const node of field.nodes) {
        const definition = root.getFields()[node.name.value];
        if (!definition) continue;
        total += mutationFieldCost(node.name.value, argumentsOf(ctx, definition, node));
      }
    }
    return total;
  }
  const root = input.schema.getQueryType();
  return root ? requestedSelection(ctx, root, input.operation.selectionSet) : 0;
}

function actualSelection(
  ctx: CostContext,
  type: GraphQLCompositeType,
  selectionSet: SelectionSetNode | undefined,
  value: Record<string, unknown>,
): number {
  let total = 0;
  for (const field of collectFields(ctx, type, selectionSet, true).values()) {
    if (!(field.responseKey in value)) continue;
    total += actualField(ctx, field.owner, field.nodes, value[field.responseKey]);
  }
  return total;
}

function actualObject(
  ctx: CostContext,
  type: GraphQLCompositeType,
  selectionSet: SelectionSetNode | undefined,
  value: unknown,
): number {
  if (value === null || typeof value !== 'object') return 1;
  return 1 + actualSelection(ctx, type, selectionSet, value as Record<string, unknown>);
}

function actualConnection(
  ctx: CostContext,
  connection: GraphQLObjectType,
  selectionSet: SelectionSetNode | undefined,
  value: Record<string, unknown>,
): number {
  let total = 2;
  for (const field of collectFields(ctx, connection, selectionSet, true).values()) {
    const name = field.nodes[0]?.name.value;
    const definition = name ? connection.getFields()[name] : undefined;
    const data = value[field.responseKey];
    if (!definition || name === 'pageInfo' || data === undefined) continue;
    const named = getNamedType(definition.type);
    const sub = mergedSelection(field.nodes);
    if (name === 'nodes' && Array.isArray(data)) {
      for (const item of data) total += actualObject(ctx, named as GraphQLCompositeType, sub, item);
    } else if (name === 'edges' && Array.isArray(data) && isObjectType(named)) {
      for (const edge of data as Record<string, unknown>[])
        total += actualSelection(ctx, named, sub, edge ?? {});
    } else {
      total += actualField(ctx, connection, field.nodes, data);
    }
  }
  return total;
}

function actualField(
  ctx: CostContext,
  owner: GraphQLCompositeType,
  nodes: FieldNode[],
  value: unknown,
): number {
  const first = nodes[0];
  if (!first || first.name.value.startsWith('__')) return 0;
  const definition = fieldDefinition(owner, first.name.value);
  if (!definition) return 0;
  const named = getNamedType(definition.type);
  if (isLeafType(named)) return 0;
  const sub = mergedSelection(nodes);
  if (isConnectionType(named)) {
    if (value === null || typeof value !== 'object') return 0;
    return actualConnection(ctx, named, sub, value as Record<string, unknown>);
  }
  // The edge's node of a connection is costed as an item of that connection.
  if (first.name.value === 'node' && owner.name.endsWith('Edge'))
    return actualObject(ctx, named as GraphQLCompositeType, sub, value);
  // A plain list costs what one of its objects costs, as in the requested cost (only connections
  // are sized); `first` on a list multiplies, as requested.
  if (Array.isArray(value)) {
    const costs = value.map((item) => actualObject(ctx, named as GraphQLCompositeType, sub, item));
    const one = costs.length ? Math.max(...costs) : 1;
    const args = argumentsOf(ctx, definition, first);
    return typeof args.first === 'number' ? Math.min(args.first, value.length) * one : one;
  }
  return actualObject(ctx, named as GraphQLCompositeType, sub, value);
}

export function actualQueryCost(input: CostInput, data: Record<string, unknown> | null): number {
  if (input.operation.operation === 'mutation') return requestedQueryCost(input);
  const root = input.schema.getQueryType();
  if (!root || !data) return 0;
  return actualSelection(contextOf(input), root, input.operation.selectionSet, data);
}
