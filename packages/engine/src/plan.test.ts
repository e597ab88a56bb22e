import { describe, expect, it } from 'vitest';
import { entityTypes } from '@replatform/canonical/entities';
import { EngineError } from './errors.ts';
import { planMigration, selectedDataTypes } from './plan.ts';

const all = { read: entityTypes, write: entityTypes };

describe('migration plan', () => {
  it('orders streams by dependency and adds what the selection needs', () => {
    expect(planMigration(['orders', 'products'], all, all)).toEqual({
      streams: ['categories', 'products', 'orders'],
      added: ['categories'],
      dropped: [],
    });
    expect(planMigration(['customers'], all, all).streams).toEqual(['customers']);
    expect(planMigration(['orders'], all, all).streams).toEqual(['orders']);
  });

  it('drops a supporting type a platform cannot carry, but refuses a selected one', () => {
    const noCategories = { read: entityTypes, write: ['products', 'customers', 'orders'] as const };
    expect(planMigration(['products'], all, noCategories)).toMatchObject({
      streams: ['products'],
      dropped: [
        { entity: 'categories', reason: 'the destination platform cannot import categories' },
      ],
    });
    const noOrders = { read: ['categories', 'products', 'customers'] as const, write: entityTypes };
    expect(() => planMigration(['orders'], noOrders, all)).toThrow(EngineError);
    expect(() => planMigration(['orders'], noOrders, all)).toThrow(
      /source platform cannot export orders/,
    );
    expect(() => planMigration([], all, all)).toThrow(/at least one/);
    expect(() => planMigration(['wishlists'], all, all)).toThrow(/Unknown data type/);
  });

  it('reads the selection of a migration', () => {
    expect(selectedDataTypes({ products: true, customers: false, orders: true, x: true })).toEqual([
      'products',
      'orders',
    ]);
  });
});
