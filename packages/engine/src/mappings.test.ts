import { describe, expect, it } from 'vitest';
import { orderStatuses } from '@replatform/canonical/order';
import { orderStatusNames } from '@replatform/contracts/migration';
import { mappingNotes, withMappings } from './mappings.ts';
import { MemoryStore, memoryConnection, sampleData } from './testing/memory-store.ts';

describe('owner mappings', () => {
  it('offer exactly the statuses the canonical model has', () => {
    expect([...orderStatusNames]).toEqual([...orderStatuses]);
  });

  it('leave the source untouched when they change nothing', () => {
    const { connection } = memoryConnection(
      MemoryStore.seeded(sampleData({ products: 1, customers: 0, orders: 1 })),
    );
    expect(withMappings(connection, {})).toBe(connection);
    expect(withMappings(connection, { orderStatuses: { completed: 'completed' } })).toBe(
      connection,
    );
    expect(mappingNotes({ orderStatuses: { pending: 'pending' } })).toEqual([]);
  });

  it('map orders read by page and by id, and nothing else', async () => {
    const data = sampleData({ products: 2, customers: 1, orders: 2 });
    data.orders[0]!.status = 'failed';
    const { connection } = memoryConnection(MemoryStore.seeded(data));
    const mapped = withMappings(connection, { orderStatuses: { failed: 'cancelled' } });
    const read = [];
    for await (const page of mapped.read('orders', null)) read.push(...page.records);
    expect(read.map((o) => o.status).sort()).toEqual(['cancelled', 'completed']);
    const byId = await mapped.readByIds?.('orders', [data.orders[0]!.id]);
    expect(byId?.map((o) => o.status)).toEqual(['cancelled']);
    const products = [];
    for await (const page of mapped.read('products', null)) products.push(...page.records);
    expect(products).toEqual(data.products);
    expect(
      mappingNotes({ orderStatuses: { failed: 'cancelled', 'on-hold': 'processing' } }),
    ).toEqual(['Order statuses mapped as you chose: On hold → Processing, Failed → Cancelled.']);
  });
});
