import { z } from 'zod';
import { BcHttpError, listParam, intListParam, pageRequest, paginate, v3Date } from './http.ts';
import type { BcMetafield, BcState, MetafieldResource } from './state.ts';

/**
 * Metafields of products, categories, brands, variants and customers: hidden key/value pairs an
 * app keeps on a record (products_catalog.v3.yml, categories_catalog.v3.yml, customers.v3.yml).
 * A (resource, namespace, key) triple is unique.
 */

const permissionSets = [
  'app_only',
  'read',
  'write',
  'read_and_sf_access',
  'write_and_sf_access',
] as const;

export const metafieldInputSchema = z.object({
  namespace: z.string().min(1).max(64),
  key: z.string().min(1).max(64),
  value: z.string().min(1).max(65_535),
  permission_set: z.enum(permissionSets),
  description: z.string().max(255).optional(),
});

export const metafieldBatchItemSchema = metafieldInputSchema.extend({
  resource_id: z.number().int().min(1),
});

export function metafieldJson(m: BcMetafield): Record<string, unknown> {
  return {
    id: m.id,
    key: m.key,
    value: m.value,
    namespace: m.namespace,
    permission_set: m.permission_set,
    resource_type: m.resource_type,
    resource_id: m.resource_id,
    description: m.description,
    date_created: v3Date(m.date_created),
    date_modified: v3Date(m.date_modified),
    owner_client_id: 'replatform-emulator',
  };
}

export function createMetafield(
  state: BcState,
  resourceType: MetafieldResource,
  resourceId: number,
  input: z.infer<typeof metafieldInputSchema>,
  now: number,
): BcMetafield {
  const duplicate = state.metafields.find(
    (m) =>
      m.resource_type === resourceType &&
      m.resource_id === resourceId &&
      m.namespace === input.namespace &&
      m.key === input.key,
  );
  if (duplicate) {
    throw new BcHttpError(409, 'A metafield with this namespace and key already exists', {
      key: `metafield ${duplicate.id} of ${resourceType} ${resourceId}`,
    });
  }
  const metafield: BcMetafield = {
    id: state.nextId('metafield', 1),
    namespace: input.namespace,
    key: input.key,
    value: input.value,
    permission_set: input.permission_set,
    description: input.description ?? '',
    resource_type: resourceType,
    resource_id: resourceId,
    date_created: now,
    date_modified: now,
  };
  state.metafields.push(metafield);
  return metafield;
}

/**
 * POST .../metafields with an array: each item succeeds or fails on its own; the answer lists the
 * created ones in `data` and the refused ones in `errors` (422 when none was created).
 */
export function createMetafieldBatch(
  state: BcState,
  resourceType: MetafieldResource,
  body: unknown,
  exists: (resourceId: number) => boolean,
  now: number,
): { status: number; body: Record<string, unknown> } {
  if (!Array.isArray(body)) {
    throw new BcHttpError(422, 'The request body must be an array of metafields');
  }
  const data: Record<string, unknown>[] = [];
  const errors: Record<string, unknown>[] = [];
  body.forEach((item, index) => {
    const parsed = metafieldBatchItemSchema.safeParse(item);
    if (!parsed.success) {
      errors.push({
        status: 422,
        title: 'Invalid metafield',
        type: 'about:blank',
        errors: Object.fromEntries(
          parsed.error.issues.map((i) => [`[${index}].${i.path.join('.')}`, i.message]),
        ),
      });
      return;
    }
    if (!exists(parsed.data.resource_id)) {
      errors.push({
        status: 404,
        title: `${resourceType} ${parsed.data.resource_id} not found`,
        type: 'about:blank',
        errors: { [`[${index}].resource_id`]: 'not found' },
      });
      return;
    }
    try {
      const { resource_id: resourceId, ...input } = parsed.data;
      data.push(metafieldJson(createMetafield(state, resourceType, resourceId, input, now)));
    } catch (error) {
      if (!(error instanceof BcHttpError)) throw error;
      errors.push({
        status: error.status,
        title: error.message,
        type: 'about:blank',
        errors: Object.fromEntries(
          Object.entries(error.errors).map(([k, v]) => [`[${index}].${k}`, v]),
        ),
      });
    }
  });
  const meta = { total: body.length, success: data.length, failed: errors.length };
  return {
    status: data.length === 0 && errors.length > 0 ? 422 : 200,
    body: { data, errors, meta },
  };
}

/** GET .../metafields with the key/namespace filters the spec lists. */
export function listMetafields(
  state: BcState,
  resourceType: MetafieldResource,
  url: URL,
  resourceId?: number,
): Record<string, unknown> {
  const keys = listParam(url, 'key:in') ?? listParam(url, 'key');
  const namespaces = listParam(url, 'namespace:in') ?? listParam(url, 'namespace');
  const resourceIds = intListParam(url, 'resource_id:in');
  let items = state.metafields.filter(
    (m) =>
      m.resource_type === resourceType &&
      (resourceId === undefined || m.resource_id === resourceId) &&
      (!keys || keys.includes(m.key)) &&
      (!namespaces || namespaces.includes(m.namespace)) &&
      (!resourceIds || resourceIds.includes(m.resource_id)),
  );
  if (url.searchParams.get('direction') === 'desc') items = [...items].reverse();
  const page = paginate(items, pageRequest(url), url);
  return { data: page.data.map(metafieldJson), meta: page.meta };
}

export function deleteMetafieldsOf(
  state: BcState,
  resourceType: MetafieldResource,
  resourceId: number,
): void {
  for (let i = state.metafields.length - 1; i >= 0; i--) {
    const m = state.metafields[i];
    if (m && m.resource_type === resourceType && m.resource_id === resourceId) {
      state.metafields.splice(i, 1);
    }
  }
}
