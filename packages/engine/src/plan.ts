import { entityTypes, type EntityType } from '@replatform/canonical/entities';
import type { Capabilities } from '@replatform/connectors/kit/contract';
import { EngineError } from './errors.ts';

/** Data types an owner selects and pays for; categories come along with products. */
export const paidEntityTypes = [
  'products',
  'customers',
  'orders',
  'coupons',
  'reviews',
  'brands',
  'pages',
  'posts',
] as const satisfies EntityType[];
export type PaidEntityType = (typeof paidEntityTypes)[number];

/** What each entity needs migrated first so that its references resolve at the destination. */
const requires: Record<EntityType, readonly EntityType[]> = {
  categories: [],
  // Products name their brand, which the destination finds or makes by that name, so brands
  // are not required: selecting them carries the brand's own page (description, logo, SEO).
  brands: [],
  products: ['categories'],
  // A coupon limited to products or categories finds them through the id map, and fails with
  // that reason when they were not migrated; an unrestricted coupon needs nothing.
  coupons: [],
  // Orders link to customers and products when those were migrated, and are imported as guest
  // orders with their line names and SKUs otherwise, so neither is required.
  customers: [],
  orders: [],
  // A review finds its product through the id map and fails with that reason when the product
  // was not migrated (in this run or an earlier one), so selecting reviews adds nothing.
  reviews: [],
  pages: [],
  posts: [],
};

export interface MigrationPlan {
  /** Streams to run, in dependency order. */
  streams: EntityType[];
  /** Entities the plan added because a selected one needs them. */
  added: EntityType[];
  /** Supporting entities left out because a platform cannot carry them, with the reason. */
  dropped: { entity: EntityType; reason: string }[];
}

export function isPaidEntity(entity: string): entity is PaidEntityType {
  return (paidEntityTypes as readonly string[]).includes(entity);
}

/**
 * Plans a run: the selected data types plus what they need, in dependency order (categories,
 * products, customers, orders), checked against what the source can read and the destination
 * can write. A selected type a platform cannot carry stops the plan with a clear message; a
 * supporting type it cannot carry is dropped (products then arrive without their categories).
 */
export function planMigration(
  selected: readonly string[],
  source: Pick<Capabilities, 'read'>,
  destination: Pick<Capabilities, 'write'>,
): MigrationPlan {
  const wanted = new Set<EntityType>();
  for (const name of selected) {
    if (!(entityTypes as readonly string[]).includes(name)) {
      throw new EngineError('unsupported', `Unknown data type '${name}'.`);
    }
    wanted.add(name as EntityType);
  }
  if (wanted.size === 0) throw new EngineError('unsupported', 'Select at least one data type.');

  const added: EntityType[] = [];
  for (const entity of [...wanted]) {
    for (const needed of requires[entity]) {
      if (!wanted.has(needed)) {
        wanted.add(needed);
        added.push(needed);
      }
    }
  }

  const streams: EntityType[] = [];
  const dropped: MigrationPlan['dropped'] = [];
  for (const entity of entityTypes) {
    if (!wanted.has(entity)) continue;
    const problem = !source.read.includes(entity)
      ? `the source platform cannot export ${entity}`
      : !destination.write.includes(entity)
        ? `the destination platform cannot import ${entity}`
        : undefined;
    if (!problem) {
      streams.push(entity);
    } else if (added.includes(entity)) {
      dropped.push({ entity, reason: problem });
    } else {
      throw new EngineError('unsupported', `This migration cannot run: ${problem}.`);
    }
  }
  return { streams, added: added.filter((e) => streams.includes(e)), dropped };
}

/** The data types switched on in a migration's `dataTypes` ({ products: true, ... }). */
export function selectedDataTypes(dataTypes: Record<string, unknown>): PaidEntityType[] {
  return paidEntityTypes.filter((type) => dataTypes[type] === true);
}
