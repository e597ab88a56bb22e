import type { Metafield } from '@replatform/canonical/metafield';
import { fieldMetafield, fieldsNamespace } from './extras.ts';
import { markerNamespace } from './session.ts';

/**
 * BigCommerce metafields (products, variants, categories, customers) <-> canonical metafields.
 *
 * A BigCommerce metafield of namespace `ns` is the canonical metafield `bigcommerce.ns`; its value
 * is text. Who may read it (`permission_set`) and its description have no canonical field: those
 * that differ from what a migration writes ('write', no description) travel in the record's
 * `bigcommerce_fields` metafields `metafield_permissions` and `metafield_descriptions` (JSON, by
 * `namespace/key`). The migration's own source-id markers (namespace 'replatform') are not read.
 */

export interface BcMetafieldJson {
  namespace: string;
  key: string;
  value: string;
  permission_set: string;
  description: string;
}

/** Permission a migration gives the metafields it writes: readable and writable by other apps. */
export const defaultPermission = 'write';

const permissionSets = [
  'app_only',
  'read',
  'write',
  'read_and_sf_access',
  'write_and_sf_access',
] as const;
export type PermissionSet = (typeof permissionSets)[number];

const slot = (namespace: string, key: string) => `${namespace}/${key}`;

export function metafieldsToCanonical(list: readonly BcMetafieldJson[]): Metafield[] {
  const own = list.filter((m) => m.namespace !== markerNamespace);
  const out: Metafield[] = own.map((m) => ({
    namespace: `bigcommerce.${m.namespace}`,
    key: m.key,
    value: m.value,
    type: 'string',
  }));
  const permissions = Object.fromEntries(
    own
      .filter((m) => m.permission_set !== defaultPermission)
      .map((m) => [slot(m.namespace, m.key), m.permission_set]),
  );
  const descriptions = Object.fromEntries(
    own.filter((m) => m.description).map((m) => [slot(m.namespace, m.key), m.description]),
  );
  if (Object.keys(permissions).length)
    out.push(fieldMetafield('metafield_permissions', 'json', permissions));
  if (Object.keys(descriptions).length)
    out.push(fieldMetafield('metafield_descriptions', 'json', descriptions));
  return out;
}

export interface MetafieldInput {
  namespace: string;
  key: string;
  value: string;
  permission_set: PermissionSet;
  description?: string;
}

const jsonMap = (metafields: readonly Metafield[], key: string): Record<string, string> => {
  const found = metafields.find((m) => m.namespace === fieldsNamespace && m.key === key);
  if (!found) return {};
  try {
    const parsed = JSON.parse(found.value) as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, string>) : {};
  } catch {
    return {};
  }
};

/**
 * The BigCommerce metafields of a record's canonical metafields, apart from the namespaces that
 * name BigCommerce fields of their own (`skip`). Metafields of other platforms keep their
 * namespace. BigCommerce takes namespaces and keys of 1 to 64 characters and values of 1 to
 * 65,535: others are left out with a warning.
 */
export function metafieldsToBc(
  metafields: readonly Metafield[],
  skip: readonly string[],
  warnings: Set<string>,
  field: string,
): MetafieldInput[] {
  const permissions = jsonMap(metafields, 'metafield_permissions');
  const descriptions = jsonMap(metafields, 'metafield_descriptions');
  const out: MetafieldInput[] = [];
  for (const m of metafields) {
    if (m.namespace === fieldsNamespace || skip.includes(m.namespace)) continue;
    const namespace = m.namespace.startsWith('bigcommerce.')
      ? m.namespace.slice('bigcommerce.'.length)
      : m.namespace;
    if (namespace === markerNamespace) continue;
    if (!namespace || namespace.length > 64 || m.key.length > 64) {
      warnings.add(
        `custom fields whose name is longer than BigCommerce's 64 characters were left out (${field})`,
      );
      continue;
    }
    if (m.value === '' || m.value.length > 65_535) {
      warnings.add(
        `custom fields that are empty or longer than 65,535 characters were left out (${field})`,
      );
      continue;
    }
    const permission = permissions[slot(namespace, m.key)];
    const description = descriptions[slot(namespace, m.key)];
    out.push({
      namespace,
      key: m.key,
      value: m.value,
      permission_set: permissionSets.includes(permission as PermissionSet)
        ? (permission as PermissionSet)
        : defaultPermission,
      ...(description ? { description: description.slice(0, 255) } : {}),
    });
  }
  return out;
}
