import { z } from 'zod';
import type { StoreValue, StoreValueList, StoreValues } from '../kit/contract.ts';
import { ConnectorError } from '../kit/errors.ts';
import type { WooClient } from './client.ts';

/**
 * A store's own customer groups and tax classes (Connection.storeValues), with the values the
 * connector reads for them (to-canonical.ts).
 *
 * Customer groups are WordPress roles: customers are read with `role=all` and a customer's group
 * is its role's slug, 'customer' (the role of every shop customer) read as ''. The REST API lists
 * no roles, but the customers route describes itself (OPTIONS): its GET `role` argument is an enum
 * of the store's roles, in WordPress's order, and 'all'. WordPress's role names are not in the REST
 * API either, so a role is labelled from its slug, which gives the names WordPress and WooCommerce
 * show for their own roles ('shop_manager' -> 'Shop manager'). No role is left out: the customers
 * route answers accounts of every role. A write never creates a role (the REST API gives every new
 * account the customer role).
 *
 * Tax classes come from `taxes/classes` (the standard class first, then the store's by name). The
 * standard class is '' on a product, variation, order line and fee. A write never creates a class:
 * a product or variation naming a class the store lacks is put in the standard class, and an order
 * line or fee naming one is refused ('Invalid tax class'), as observed on a real 11.0.1 store.
 */

const routeDescriptionSchema = z.looseObject({
  endpoints: z.array(
    z.looseObject({
      methods: z.array(z.string()),
      // PHP encodes an empty map of arguments as [].
      args: z.union([z.record(z.string(), z.unknown()), z.array(z.unknown())]),
    }),
  ),
});

const roleArgSchema = z.looseObject({ enum: z.array(z.string()) });

const taxClassSchema = z.looseObject({ slug: z.string(), name: z.string() });

/** 'shop_manager' -> 'Shop manager', as WordPress names its own roles. */
export function roleLabel(slug: string): string {
  const words = slug.replace(/[_-]+/g, ' ').trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : slug;
}

/** The store's roles from the customers route's own description, 'customer' first as ''. */
export async function customerGroups(client: WooClient): Promise<StoreValueList> {
  // WordPress answers `_method=OPTIONS` as it answers OPTIONS (the route's description).
  const { data } = await client.get('/customers', { _method: 'OPTIONS' }, routeDescriptionSchema);
  const read = data.endpoints.find((e) => e.methods.includes('GET'));
  const role = roleArgSchema.safeParse(Array.isArray(read?.args) ? undefined : read?.args.role);
  if (!role.success)
    throw new ConnectorError(
      'system',
      'unexpected_response',
      "The store's description of its customers route lists no roles (GET argument 'role')",
    );
  const roles = role.data.enum.filter((r) => r !== 'all');
  const others: StoreValue[] = roles
    .filter((r) => r !== 'customer' && r !== '')
    .map((r) => ({ value: r, label: roleLabel(r) }));
  return {
    values: [{ value: '', label: roleLabel('customer') }, ...others],
    createsMissing: false,
  };
}

/** The store's tax classes, the standard class first as ''. */
export async function taxClasses(client: WooClient): Promise<StoreValueList> {
  const { data } = await client.get('/taxes/classes', {}, z.array(taxClassSchema));
  const standard = data.find((c) => c.slug === 'standard');
  const others = data
    .filter((c) => c.slug !== 'standard' && c.slug !== '')
    .map((c) => ({ value: c.slug, label: c.name }));
  return {
    values: [{ value: '', label: standard?.name ?? 'Standard rate' }, ...others],
    createsMissing: false,
  };
}

export async function loadStoreValues(client: WooClient): Promise<StoreValues> {
  const [groups, classes] = await Promise.all([customerGroups(client), taxClasses(client)]);
  return { customerGroups: groups, taxClasses: classes };
}
