import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminSchema } from './admin-schema.ts';
import { startMagentoEmulator, type MagentoEmulator } from './magento-emulator.ts';
import { signedFetch } from './testing/signed-fetch.ts';

/** The delete routes undo uses, with Magento's rules: what cascades, what is refused, 404s. */
describe('Magento emulator deletes (integration, 127.0.0.1)', () => {
  let emulator: MagentoEmulator;
  const spec = adminSchema();
  const call = async (method: string, path: string, body?: unknown) => {
    const url = `${emulator.url}${path}`;
    const answer = await signedFetch(
      emulator.url,
      emulator.credentials,
      method,
      path,
      body === undefined ? {} : { body },
    );
    if (answer.status === 200)
      expect(spec.checkResponse(method, url, 200, answer.body)).toEqual([]);
    return answer;
  };

  beforeAll(async () => {
    emulator = await startMagentoEmulator({
      seed: { seed: 5, products: 8, customers: 4, orders: 6 },
    });
  });
  afterAll(async () => {
    await emulator?.close();
  });

  it('deletes a category with its whole subtree and unlinks its products, which stay', async () => {
    const { catalog } = emulator.store;
    const parent = await call('POST', '/rest/all/V1/categories', {
      category: { name: 'Undo parent', parent_id: 2, is_active: true },
    });
    const parentId = (parent.body as { id: number }).id;
    const child = await call('POST', '/rest/all/V1/categories', {
      category: { name: 'Undo child', parent_id: parentId, is_active: true },
    });
    const childId = (child.body as { id: number }).id;
    const product = [...catalog.products.values()][0]!;
    product.category_links.push({ category_id: String(childId), position: 0 });
    const before = catalog.products.size;

    const answer = await call('DELETE', `/rest/V1/categories/${parentId}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toBe(true);
    expect(catalog.categories.has(parentId)).toBe(false);
    expect(catalog.categories.has(childId)).toBe(false);
    expect(product.category_links.some((l) => l.category_id === String(childId))).toBe(false);
    expect(catalog.products.size).toBe(before);

    const again = await call('DELETE', `/rest/V1/categories/${childId}`);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({
      message: 'No such entity with %fieldName = %fieldValue',
      parameters: { fieldName: 'id', fieldValue: childId },
    });
  });

  it("refuses the store's root category", async () => {
    const answer = await call('DELETE', '/rest/V1/categories/2');
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ message: 'Cannot delete category with id %1', parameters: [2] });
    expect(emulator.store.catalog.categories.has(2)).toBe(true);
  });

  it('deletes a customer who ordered; the orders stay, no longer tied to the account', async () => {
    const { sales, customers } = emulator.store;
    const order = [...sales.orders.values()].find((o) => typeof o.customer_id === 'number');
    expect(order).toBeDefined();
    const customerId = order!.customer_id as number;
    const answer = await call('DELETE', `/rest/V1/customers/${customerId}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toBe(true);
    expect(customers.customers.has(customerId)).toBe(false);
    expect(sales.orders.has(order!.entity_id as number)).toBe(true);
    expect(order!.customer_id).toBeUndefined();

    const again = await call('DELETE', `/rest/V1/customers/${customerId}`);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({
      message: 'No such entity with %fieldName = %fieldValue',
      parameters: { fieldName: 'customerId', fieldValue: customerId },
    });
  });

  it('needs the Magento_Customer::delete resource to delete a customer', async () => {
    const limited = await startMagentoEmulator({
      seed: { seed: 5, products: 2, customers: 2, orders: 0 },
      resources: ['Magento_Customer::customer', 'Magento_Customer::manage'],
    });
    try {
      const id = [...limited.store.customers.customers.keys()][0]!;
      const answer = await signedFetch(
        limited.url,
        limited.credentials,
        'DELETE',
        `/rest/V1/customers/${id}`,
      );
      expect(answer.status).toBe(401);
      expect(limited.store.customers.customers.has(id)).toBe(true);
    } finally {
      await limited.close();
    }
  });

  it("deletes a cart price rule with its coupons, and a coupon alone; absent ones are 404 'No such entity.'", async () => {
    const { salesRules } = emulator.store;
    const rule = await call('POST', '/rest/V1/salesRules', {
      rule: {
        name: 'UNDO10',
        website_ids: [1],
        customer_group_ids: [0, 1],
        is_active: true,
        coupon_type: 'SPECIFIC_COUPON',
        simple_action: 'by_percent',
        discount_amount: 10,
        stop_rules_processing: false,
        is_advanced: true,
        uses_per_customer: 0,
        is_rss: false,
        apply_to_shipping: false,
        use_auto_generation: false,
        uses_per_coupon: 0,
        simple_free_shipping: '0',
        sort_order: 0,
        discount_qty: 0,
        discount_step: 0,
      },
    });
    expect(rule.status).toBe(200);
    const ruleId = (rule.body as { rule_id: number }).rule_id;
    const coupon = await call('POST', '/rest/V1/coupons', {
      coupon: { rule_id: ruleId, code: 'UNDO10', is_primary: true, type: 0 },
    });
    expect(coupon.status).toBe(200);
    const couponId = (coupon.body as { coupon_id: number }).coupon_id;

    const deleted = await call('DELETE', `/rest/V1/salesRules/${ruleId}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toBe(true);
    expect(salesRules.rules.has(ruleId)).toBe(false);
    expect(salesRules.coupons.has(couponId)).toBe(false);
    for (const path of [`/rest/V1/salesRules/${ruleId}`, `/rest/V1/coupons/${couponId}`]) {
      const again = await call('DELETE', path);
      expect(again.status).toBe(404);
      expect(again.body).toEqual({ message: 'No such entity.' });
    }

    const seeded = [...salesRules.coupons.values()][0];
    if (seeded) {
      const alone = await call('DELETE', `/rest/V1/coupons/${seeded.coupon_id}`);
      expect(alone.status).toBe(200);
      expect(salesRules.coupons.has(seeded.coupon_id)).toBe(false);
      expect(salesRules.rules.has(seeded.rule_id)).toBe(true);
    }
  });

  it('deleting a configurable product leaves its simple children, as Magento does', async () => {
    const { catalog } = emulator.store;
    const parent = [...catalog.products.values()].find(
      (p) => p.type_id === 'configurable' && p.links.length > 0,
    );
    if (!parent) return;
    const children = [...parent.links];
    const answer = await call('DELETE', `/rest/all/V1/products/${encodeURIComponent(parent.sku)}`);
    expect(answer.status).toBe(200);
    expect(catalog.products.has(parent.id)).toBe(false);
    for (const id of children) expect(catalog.products.has(id)).toBe(true);
    const again = await call('DELETE', `/rest/all/V1/products/${encodeURIComponent(parent.sku)}`);
    expect(again.status).toBe(404);
  });
});
