import { describe, expect, it } from 'vitest';
import { migrateStatusText, type MigrationProgress } from './progress.ts';

const p = (over: Partial<MigrationProgress>): MigrationProgress => ({
  productsTotal: 10,
  customersTotal: 5,
  ordersTotal: 3,
  productsCompleted: 0,
  customersCompleted: 0,
  ordersCompleted: 0,
  overallProgress: 0,
  ...over,
});
const all = { products: true, customers: true, orders: true };

describe('migrate status text', () => {
  it('names coupons after products, in the order the run moves them', () => {
    const withCoupons = { ...all, coupons: true };
    const coupons = { couponsTotal: 4, couponsCompleted: 0 };
    expect(
      migrateStatusText(p({ ...coupons, productsCompleted: 10, overallProgress: 50 }), withCoupons),
    ).toBe('Migrating coupons...');
    expect(
      migrateStatusText(
        p({ ...coupons, couponsCompleted: 4, productsCompleted: 10, overallProgress: 60 }),
        withCoupons,
      ),
    ).toBe('Migrating customers...');
    expect(migrateStatusText(p({ productsCompleted: 10, overallProgress: 55 }), all)).toBe(
      'Migrating customers...',
    );
  });

  it('follows spec.md section 4', () => {
    expect(migrateStatusText(p({}), all)).toBe('Initializing migration...');
    expect(migrateStatusText(p({ productsCompleted: 3, overallProgress: 15 }), all)).toBe(
      'Migrating products...',
    );
    expect(
      migrateStatusText(
        p({ productsCompleted: 10, customersCompleted: 1, overallProgress: 60 }),
        all,
      ),
    ).toBe('Migrating customers...');
    expect(
      migrateStatusText(
        p({ productsCompleted: 10, customersCompleted: 5, overallProgress: 80 }),
        all,
      ),
    ).toBe('Migrating orders...');
    expect(
      migrateStatusText(
        p({
          productsCompleted: 10,
          customersCompleted: 5,
          ordersCompleted: 3,
          overallProgress: 99,
        }),
        all,
      ),
    ).toBe('Finalizing migration...');
    expect(migrateStatusText(p({ overallProgress: 100 }), all)).toBe('Migration complete!');
  });

  it('ignores types that were not selected', () => {
    expect(
      migrateStatusText(p({ customersCompleted: 2, overallProgress: 40 }), { customers: true }),
    ).toBe('Migrating customers...');
  });
});
