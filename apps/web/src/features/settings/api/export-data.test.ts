import { describe, expect, it } from 'vitest';
import type { Migration } from '@replatform/contracts/migration';
import { withoutCredentials } from './export-data.ts';

describe('data export', () => {
  it('leaves every store key and token out of a migration, and keeps the rest', () => {
    const migration: Migration = {
      id: 'm1',
      storeName: 'Shop',
      userId: 'u1',
      email: 'a@example.com',
      sourceStore: 'magento2',
      destinationStore: 'shopify',
      sourceStoreUrl: 'https://shop.example',
      destinationStoreUrl: 'shop.myshopify.com',
      consumerKey: '••••1111',
      consumerSecret: '••••2222',
      accessToken: '••••3333',
      accessTokenSecret: '••••4444',
      destinationConsumerKey: '••••5555',
      destinationConsumerSecret: '••••6666',
      destinationAccessToken: '••••7777',
      destinationAccessTokenSecret: '••••8888',
      apiKey: '••••9999',
      apiSecret: '••••0000',
      shopifyAccessToken: '••••abcd',
      sourceVerified: true,
      destinationVerified: true,
      currentStep: 5,
      status: 'completed',
      dataTypes: { products: true },
      lastUpdated: '2026-01-01T00:00:00.000Z',
      startedAt: '2025-12-31T23:30:00.000Z',
      completedAt: '2026-01-01T00:00:00.000Z',
      totalEntities: 3,
      migratedEntities: 3,
      entityCounts: { products: 3 },
      migrationStats: {},
      paymentInfo: null,
    };
    const exported = withoutCredentials(migration);
    expect(JSON.stringify(exported)).not.toContain('••••');
    expect(exported).toMatchObject({ id: 'm1', storeName: 'Shop', sourceStore: 'magento2' });
    expect(Object.keys(exported)).not.toContain('shopifyAccessToken');
    // The original is untouched.
    expect(migration.consumerKey).toBe('••••1111');
  });
});
