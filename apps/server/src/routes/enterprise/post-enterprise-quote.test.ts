import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnterpriseQuotesRepository } from '@replatform/db/forms-repository';
import { testDialects } from '@replatform/db/test-databases';
import type { App } from '../../app.ts';
import { readOutbox } from '../../auth/mailer.ts';
import { createTestApp } from '../../testing/test-app.ts';
import { testOrigin } from '../../testing/sign-up.ts';
import { operatorMailsSettled } from '../contact/operator-mail.ts';

const valid = {
  name: 'Grace Hopper',
  email: 'grace@example.com',
  storeName: 'Compiler Supplies',
  storeSize: '100k-500k',
  comments: 'Two storefronts, one catalogue.',
};

describe.each(testDialects())('POST /api/enterprise-quotes on %s', (dialect) => {
  let app: App;
  let close: () => Promise<void>;
  let repo: EnterpriseQuotesRepository;
  let address = 0;

  beforeAll(async () => {
    ({ app, close } = await createTestApp({}, dialect));
    repo = new EnterpriseQuotesRepository(app.services.db);
  });
  afterAll(async () => {
    await close();
  });

  // Each test asks from its own address, so the per-address limit only meets the test about it.
  const newAddress = () => `203.0.113.${++address}`;
  const send = (payload: unknown, remoteAddress: string, origin = testOrigin) =>
    app.inject({
      method: 'POST',
      url: '/api/enterprise-quotes',
      remoteAddress,
      headers: { origin, 'content-type': 'application/json' },
      payload: JSON.stringify(payload),
    });

  it('takes a request without an account and stores it', async () => {
    const res = await send(valid, newAddress());
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual({ received: true });
    const [stored] = await repo.listRecent(1);
    expect(stored).toMatchObject({ ...valid, emailedAt: null });
  });

  it('refuses incomplete requests with the reasons, and cross-site posts', async () => {
    const from = newAddress();
    const res = await send({ name: 'x', email: 'x@example.com', storeSize: 'huge' }, from);
    expect(res.statusCode).toBe(400);
    const details = res.json().error.details.join('\n');
    expect(details).toMatch(/storeName: Store name is required/);
    expect(details).toMatch(/storeSize: Choose the size of your store/);
    expect((await send(valid, from, 'https://evil.example')).statusCode).toBe(403);
  });

  it('answers a request that filled the hidden field like any other, but does not keep it', async () => {
    const before = (await repo.listRecent(100)).length;
    const res = await send({ ...valid, website: 'https://spam.example' }, newAddress());
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ received: true });
    expect(await repo.listRecent(100)).toHaveLength(before);
  });

  it('mails the operator when an operator address is configured', async () => {
    app.services.config.operatorEmail = 'sales-ops@example.com';
    expect((await send({ ...valid, storeName: 'Mailed Store' }, newAddress())).statusCode).toBe(
      201,
    );
    await operatorMailsSettled(app);
    const [mail] = await readOutbox(app.services.db, 'sales-ops@example.com');
    expect(mail?.subject).toBe('[Enterprise quote] Mailed Store (100k-500k)');
    expect(mail?.text).toContain('Store size: 100,000 – 500,000 records');
    expect(mail?.text).toContain('Two storefronts, one catalogue.');
    expect((await repo.listRecent(1))[0]?.emailedAt).not.toBeNull();
    app.services.config.operatorEmail = undefined;
  });

  it('limits requests per client address', async () => {
    const from = newAddress();
    for (let i = 0; i < 5; i++) expect((await send(valid, from)).statusCode).toBe(201);
    const limited = await send(valid, from);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    expect(limited.json().error.code).toBe('rate_limited');
    expect((await send(valid, newAddress())).statusCode).toBe(201);
  });
});
