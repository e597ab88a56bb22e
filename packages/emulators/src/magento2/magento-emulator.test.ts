import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { samplePng } from '../framework/sample-store.ts';
import { adminSchema } from './admin-schema.ts';
import { startMagentoEmulator, type MagentoEmulator } from './magento-emulator.ts';
import { searchQuery, signedFetch, type SignedFetchOptions } from './testing/signed-fetch.ts';

const png = samplePng('/test/image.png').toString('base64');

describe('Magento emulator (integration, 127.0.0.1)', () => {
  let emulator: MagentoEmulator;
  const now = Math.floor(Date.now() / 1000);
  const call = (method: string, path: string, options: SignedFetchOptions = {}) =>
    signedFetch(emulator.url, emulator.credentials, method, path, { timestamp: now, ...options });

  beforeAll(async () => {
    emulator = await startMagentoEmulator({
      seed: { seed: 7, products: 30, customers: 12, orders: 10 },
      clock: () => now,
      bulk: { tickMs: 2, perTick: 5 },
    });
  });
  afterAll(async () => {
    await emulator?.close();
  });

  describe('integration authentication (OAuth 1.0a)', () => {
    it('accepts HMAC-SHA256 and HMAC-SHA1 signatures in the Authorization header', async () => {
      expect((await call('GET', '/rest/V1/store/storeConfigs')).status).toBe(200);
      expect(
        (await call('GET', '/rest/default/V1/store/storeConfigs', { signatureMethod: 'HMAC-SHA1' }))
          .status,
      ).toBe(200);
      const query = searchQuery({ groups: [[['name', '%Tee%', 'like']]], pageSize: 2 });
      expect((await call('GET', `/rest/all/V1/products?${query}`)).status).toBe(200);
    });

    it.each([
      [
        'a wrong consumer secret',
        { credentials: { consumerSecret: 'not-the-secret' } },
        'signature_invalid',
      ],
      ['a wrong token secret', { credentials: { accessTokenSecret: 'nope' } }, 'signature_invalid'],
      [
        'an unknown consumer key',
        { credentials: { consumerKey: 'someone-else' } },
        'consumer_key_rejected',
      ],
      ['an unknown access token', { credentials: { accessToken: 'revoked' } }, 'token_rejected'],
      [
        'a timestamp 11 minutes old',
        { timestamp: Math.floor(Date.now() / 1000) - 660 },
        'timestamp_refused',
      ],
    ] as const)('refuses %s with Magento 401', async (_label, options, reason) => {
      const answer = await call('GET', '/rest/V1/products?searchCriteria[pageSize]=1', options);
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({
        message: "The consumer isn't authorized to access %resources.",
        parameters: { resources: 'Magento_Catalog::products' },
      });
      expect(emulator.guard.refusals.at(-1)).toBe(reason);
    });

    it('refuses a replayed nonce', async () => {
      const nonce = `nonce-${Math.random()}`;
      expect((await call('GET', '/rest/V1/store/storeViews', { nonce })).status).toBe(200);
      const replay = await call('GET', '/rest/V1/store/storeViews', { nonce });
      expect(replay.status).toBe(401);
      expect(emulator.guard.refusals.at(-1)).toBe('nonce_used');
    });

    it('refuses a request whose signed URL differs from the one sent (signature covers the query)', async () => {
      const answer = await call('GET', '/rest/V1/orders?searchCriteria[pageSize]=1', {
        headers: {},
      });
      expect(answer.status).toBe(200);
      const tampered = await fetch(`${emulator.url}/rest/V1/orders?searchCriteria[pageSize]=2`, {
        headers: {
          authorization: (await captureAuth('/rest/V1/orders?searchCriteria[pageSize]=1')) ?? '',
        },
      });
      expect(tampered.status).toBe(401);
    });

    it('refuses the access token as a bearer token unless the store allows it', async () => {
      const bearer = { authorization: `Bearer ${emulator.credentials.accessToken}` };
      expect(
        (await fetch(`${emulator.url}/rest/V1/store/storeViews`, { headers: bearer })).status,
      ).toBe(401);
      expect(emulator.guard.refusals.at(-1)).toBe('bearer_disabled');
      const lenient = await startMagentoEmulator({
        seed: 'empty',
        allowBearer: true,
        credentials: emulator.credentials,
      });
      try {
        expect(
          (await fetch(`${lenient.url}/rest/V1/store/storeViews`, { headers: bearer })).status,
        ).toBe(200);
        expect(
          (
            await fetch(`${lenient.url}/rest/V1/store/storeViews`, {
              headers: { authorization: 'Bearer guess' },
            })
          ).status,
        ).toBe(401);
      } finally {
        await lenient.close();
      }
    });

    it('refuses unsigned requests but lets anonymous routes through', async () => {
      expect((await fetch(`${emulator.url}/rest/V1/customers/search`)).status).toBe(401);
      expect((await fetch(`${emulator.url}/rest/V1/directory/countries/US`)).status).toBe(200);
    });
  });

  /** The Authorization header our signer makes for a path, to replay it elsewhere. */
  async function captureAuth(path: string): Promise<string | undefined> {
    const { authorizationHeader, signRequest } =
      await import('@replatform/connectors/kit/oauth1/oauth1');
    const c = emulator.credentials;
    return authorizationHeader(
      signRequest({
        method: 'GET',
        url: `${emulator.url}${path}`,
        credentials: {
          consumerKey: c.consumerKey,
          consumerSecret: c.consumerSecret,
          token: c.accessToken,
          tokenSecret: c.accessTokenSecret,
        },
        timestamp: now,
      }),
    );
  }

  describe('answers that fit admin-schema-2.4.9.yaml', () => {
    it.each([
      '/rest/V1/store/storeConfigs',
      '/rest/V1/store/storeViews',
      '/rest/V1/store/websites',
      '/rest/V1/store/storeGroups',
      '/rest/V1/categories',
      '/rest/V1/categories/list?searchCriteria[pageSize]=5',
      '/rest/V1/categories/3',
      '/rest/V1/products?searchCriteria[pageSize]=10',
      '/rest/V1/products/attributes/color',
      '/rest/V1/products/attribute-sets/sets/list?searchCriteria[pageSize]=5',
      '/rest/V1/products/attribute-sets/groups/list?searchCriteria[pageSize]=5',
      '/rest/V1/customers/search?searchCriteria[pageSize]=5',
      '/rest/V1/customers/1',
      '/rest/V1/orders?searchCriteria[pageSize]=5',
      '/rest/V1/orders/1',
      '/rest/V1/directory/countries/CA',
      '/rest/V1/products?searchCriteria[pageSize]=300',
      '/rest/V1/orders?searchCriteria[pageSize]=300',
      '/rest/V1/creditmemos?searchCriteria[pageSize]=50',
      '/rest/V1/creditmemo/1',
      '/rest/V1/invoices?searchCriteria[pageSize]=50',
      '/rest/V1/invoices/1',
      '/rest/V1/taxClasses/search?searchCriteria[pageSize]=50',
      '/rest/V1/taxClasses/2',
      '/rest/V1/customerGroups/search?searchCriteria[pageSize]=50',
      '/rest/V1/customerGroups/1',
      '/rest/V1/categories/attributes/display_mode',
      '/rest/V1/attributeMetadata/customer/custom',
      '/rest/V1/attributeMetadata/customer/attribute/loyalty_number',
    ])('GET %s', async (path) => {
      const answer = await call('GET', path);
      expect(answer.status).toBe(200);
      expect(
        adminSchema().checkResponse('GET', `${emulator.url}${path}`, 200, answer.body),
      ).toEqual([]);
    });

    it('GET product, media, configurable options and children', async () => {
      const configurable = [...emulator.store.catalog.products.values()].find(
        (p) => p.type_id === 'configurable',
      );
      expect(configurable).toBeDefined();
      const sku = encodeURIComponent(configurable?.sku ?? '');
      for (const path of [
        `/rest/V1/products/${sku}`,
        `/rest/V1/products/${sku}/media`,
        `/rest/V1/configurable-products/${sku}/options/all`,
        `/rest/V1/configurable-products/${sku}/children`,
      ]) {
        const answer = await call('GET', path);
        expect(answer.status, path).toBe(200);
        expect(
          adminSchema().checkResponse('GET', `${emulator.url}${path}`, 200, answer.body),
          path,
        ).toEqual([]);
      }
    });
  });

  describe('searchCriteria over HTTP', () => {
    it('pages products by entity_id and repeats the last page past the end', async () => {
      const total = emulator.store.catalog.products.size;
      const pageSize = 20;
      const last = Math.ceil(total / pageSize);
      const ids: number[] = [];
      for (let page = 1; page <= last; page++) {
        const answer = await call(
          'GET',
          `/rest/V1/products?${searchQuery({ sort: [['entity_id', 'ASC']], pageSize, currentPage: page })}`,
        );
        const body = answer.body as { items: { id: number }[]; total_count: number };
        expect(body.total_count).toBe(total);
        ids.push(...body.items.map((i) => i.id));
      }
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      expect(new Set(ids).size).toBe(total);
      const beyond = (
        await call(
          'GET',
          `/rest/V1/products?${searchQuery({ sort: [['entity_id', 'ASC']], pageSize, currentPage: last + 3 })}`,
        )
      ).body as { items: { id: number }[] };
      expect(beyond.items.map((i) => i.id)).toEqual(ids.slice((last - 1) * pageSize));
    });

    it('filters by custom attributes and by several conditions', async () => {
      const product = [...emulator.store.catalog.products.values()][0];
      const urlKey = product?.custom.url_key ?? '';
      const byKey = (
        await call('GET', `/rest/V1/products?${searchQuery({ groups: [[['url_key', urlKey]]] })}`)
      ).body as { items: { sku: string }[]; total_count: number };
      expect(byKey.items.map((i) => i.sku)).toEqual([product?.sku]);
      const emails = [...emulator.store.customers.customers.values()]
        .slice(0, 3)
        .map((c) => c.email);
      const found = (
        await call(
          'GET',
          `/rest/V1/customers/search?${searchQuery({ groups: [[['email', emails.join(','), 'in']]] })}`,
        )
      ).body as { total_count: number };
      expect(found.total_count).toBe(3);
      const unknown = await call(
        'GET',
        `/rest/V1/orders?${searchQuery({ groups: [[['colour', 'red']]] })}`,
      );
      expect(unknown.status).toBe(400);
    });
  });

  describe('catalogue rules', () => {
    it('refuses unknown properties, missing SKUs and duplicate URL keys with Magento error bodies', async () => {
      const unknown = await call('POST', '/rest/all/V1/products', {
        body: { product: { sku: 'X-1', name: 'X', price: 1, colour: 'red' } },
      });
      expect(unknown.status).toBe(400);
      expect(unknown.body).toEqual({
        message: 'Property "%1" does not have accessor method "%2" in class "%3".',
        parameters: ['Colour', 'getColour', 'Magento\\Catalog\\Api\\Data\\ProductInterface'],
      });
      const missing = await call('POST', '/rest/all/V1/products', {
        body: { product: { name: 'No SKU', price: 1 } },
      });
      expect(missing.body).toEqual({
        message: '"%fieldName" is required. Enter and try again.',
        parameters: { fieldName: 'sku' },
      });
      const existing = [...emulator.store.catalog.products.values()][0];
      const clash = await call('POST', '/rest/all/V1/products', {
        body: {
          product: {
            sku: 'CLASH-1',
            name: 'Clash',
            price: 1,
            custom_attributes: [{ attribute_code: 'url_key', value: existing?.custom.url_key }],
          },
        },
      });
      expect(clash.status).toBe(400);
      expect((clash.body as { message: string }).message).toBe(
        'URL key for specified store already exists.',
      );
      const notFound = await call('GET', '/rest/V1/products/NO-SUCH-SKU');
      expect(notFound.status).toBe(404);
      expect(notFound.body).toEqual({
        message: "The product that was requested doesn't exist. Verify the product and try again.",
      });
    });

    it('saves by SKU: a second POST updates instead of duplicating', async () => {
      const body = {
        product: {
          sku: 'UPSERT-1',
          name: 'Upsert',
          price: 5,
          type_id: 'simple',
          attribute_set_id: 4,
        },
      };
      const first = (await call('POST', '/rest/all/V1/products', { body })).body as { id: number };
      const second = (
        await call('POST', '/rest/all/V1/products', {
          body: { product: { ...body.product, price: 7 } },
        })
      ).body as { id: number; price: number };
      expect(second.id).toBe(first.id);
      expect(second.price).toBe(7);
    });

    it('builds a configurable product only from children that carry distinct option values', async () => {
      const color = (await call('GET', '/rest/V1/products/attributes/color')).body as {
        attribute_id: number;
        options: { label: string; value: string }[];
      };
      const red = await call('POST', '/rest/all/V1/products/attributes/color/options', {
        body: { option: { label: 'Test Red', sort_order: 1 } },
      });
      expect(red.status).toBe(200);
      const dup = await call('POST', '/rest/all/V1/products/attributes/color/options', {
        body: { option: { label: 'Test Red' } },
      });
      expect(dup.status).toBe(400);
      const fresh = (await call('GET', '/rest/V1/products/attributes/color')).body as typeof color;
      const redValue = fresh.options.find((o) => o.label === 'Test Red')?.value ?? '';
      const child = (sku: string, value?: string) =>
        call('POST', '/rest/all/V1/products', {
          body: {
            product: {
              sku,
              name: sku,
              price: 9,
              type_id: 'simple',
              visibility: 1,
              custom_attributes: value ? [{ attribute_code: 'color', value }] : [],
            },
          },
        });
      await child('CFG-RED', redValue);
      await child('CFG-RED-2', redValue);
      await child('CFG-NONE');
      await call('POST', '/rest/all/V1/products', {
        body: {
          product: { sku: 'CFG', name: 'Cfg', type_id: 'configurable', attribute_set_id: 4 },
        },
      });
      const noOptions = await call('POST', '/rest/all/V1/configurable-products/CFG/child', {
        body: { childSku: 'CFG-RED' },
      });
      expect((noOptions.body as { message: string }).message).toBe(
        "The parent product doesn't have configurable product options.",
      );
      const option = await call('POST', '/rest/all/V1/configurable-products/CFG/options', {
        body: {
          option: {
            attribute_id: String(color.attribute_id),
            label: 'Color',
            position: 0,
            values: [{ value_index: Number(redValue) }],
          },
        },
      });
      expect(option.status).toBe(200);
      expect(
        (
          await call('POST', '/rest/all/V1/configurable-products/CFG/child', {
            body: { childSku: 'CFG-RED' },
          })
        ).body,
      ).toBe(true);
      const again = await call('POST', '/rest/all/V1/configurable-products/CFG/child', {
        body: { childSku: 'CFG-RED' },
      });
      expect((again.body as { message: string }).message).toBe('The product is already attached.');
      const twin = await call('POST', '/rest/all/V1/configurable-products/CFG/child', {
        body: { childSku: 'CFG-RED-2' },
      });
      expect((twin.body as { message: string }).message).toBe(
        'Products "%1" and "%2" have the same set of attribute values.',
      );
      const bare = await call('POST', '/rest/all/V1/configurable-products/CFG/child', {
        body: { childSku: 'CFG-NONE' },
      });
      expect(bare.body).toEqual({
        message:
          'The child product doesn\'t have the "%1" attribute value. Verify the value and try again.',
        parameters: ['color'],
      });
      const children = (await call('GET', '/rest/V1/configurable-products/CFG/children')).body as {
        sku: string;
      }[];
      expect(children.map((c) => c.sku)).toEqual(['CFG-RED']);
      const text = (
        await call('POST', '/rest/all/V1/products/attributes', {
          body: {
            attribute: {
              attribute_code: 'fabric_note',
              frontend_input: 'text',
              entity_type_id: '4',
              is_required: false,
              frontend_labels: [{ store_id: 0, label: 'Fabric note' }],
              scope: 'global',
            },
          },
        })
      ).body as { attribute_id: number };
      const refused = await call('POST', '/rest/all/V1/configurable-products/CFG/options', {
        body: {
          option: {
            attribute_id: String(text.attribute_id),
            label: 'Fabric',
            values: [{ value_index: 1 }],
          },
        },
      });
      expect(refused.status).toBe(400);
    });

    it('drops values of attributes outside the product attribute set until the attribute is assigned', async () => {
      await call('POST', '/rest/all/V1/products/attributes', {
        body: {
          attribute: {
            attribute_code: 'care_label',
            frontend_input: 'text',
            entity_type_id: '4',
            is_required: false,
            frontend_labels: [{ store_id: 0, label: 'Care' }],
          },
        },
      });
      const save = () =>
        call('POST', '/rest/all/V1/products', {
          body: {
            product: {
              sku: 'CARE-1',
              name: 'Care',
              price: 1,
              custom_attributes: [{ attribute_code: 'care_label', value: 'Hand wash' }],
            },
          },
        });
      const before = (await save()).body as { custom_attributes: { attribute_code: string }[] };
      expect(before.custom_attributes.some((a) => a.attribute_code === 'care_label')).toBe(false);
      const assigned = await call('POST', '/rest/all/V1/products/attribute-sets/attributes', {
        body: { attributeSetId: 4, attributeGroupId: 7, attributeCode: 'care_label', sortOrder: 0 },
      });
      expect(assigned.status).toBe(200);
      const after = (await save()).body as {
        custom_attributes: { attribute_code: string; value: string }[];
      };
      expect(after.custom_attributes).toContainEqual({
        attribute_code: 'care_label',
        value: 'Hand wash',
      });
    });

    it('stores base64 media and serves it under /media/catalog/product', async () => {
      await call('POST', '/rest/all/V1/products', {
        body: { product: { sku: 'MEDIA-1', name: 'Media', price: 1 } },
      });
      const entry = (types: string[]) => ({
        entry: {
          media_type: 'image',
          label: 'Front',
          position: 1,
          disabled: false,
          types,
          content: { base64_encoded_data: png, type: 'image/png', name: 'front-view' },
        },
      });
      const id = await call('POST', '/rest/all/V1/products/MEDIA-1/media', {
        body: entry(['image']),
      });
      expect(typeof id.body).toBe('number');
      await call('POST', '/rest/all/V1/products/MEDIA-1/media', { body: entry(['image']) });
      const media = (await call('GET', '/rest/V1/products/MEDIA-1/media')).body as {
        file: string;
        types: string[];
      }[];
      expect(media.map((m) => m.file)).toEqual(['/f/r/front-view.png', '/f/r/front-view_1.png']);
      expect(media.map((m) => m.types)).toEqual([[], ['image']]);
      const served = await fetch(`${emulator.url}/media/catalog/product/f/r/front-view.png`);
      expect(served.headers.get('content-type')).toBe('image/png');
      expect(Buffer.from(await served.arrayBuffer()).toString('base64')).toBe(png);
      const wrongType = await call('POST', '/rest/all/V1/products/MEDIA-1/media', {
        body: {
          entry: {
            ...entry([]).entry,
            content: { base64_encoded_data: png, type: 'image/jpeg', name: 'x' },
          },
        },
      });
      expect((wrongType.body as { message: string }).message).toBe(
        'The image MIME type is not valid or not supported.',
      );
      const seeded = [...emulator.store.catalog.products.values()].find((p) => p.media.length);
      expect(
        (await fetch(`${emulator.url}/media/catalog/product${seeded?.media[0]?.file}`)).status,
      ).toBe(200);
    });
  });

  describe('customers and e-mail', () => {
    const customer = (email: string) => ({
      customer: {
        email,
        firstname: 'Ada',
        lastname: 'Lovelace',
        addresses: [
          {
            firstname: 'Ada',
            lastname: 'Lovelace',
            street: ['1 Main St'],
            city: 'Austin',
            postcode: '78701',
            country_id: 'US',
            telephone: '555',
            region_id: 44,
            default_billing: true,
          },
        ],
      },
    });

    it('sends the welcome e-mail from createAccount but not from the repository save', async () => {
      const outbox = emulator.store.customers.outbox;
      const before = outbox.length;
      expect(
        (await call('POST', '/rest/V1/customers', { body: customer('welcome@example.com') }))
          .status,
      ).toBe(200);
      expect(outbox.slice(before)).toMatchObject([
        { template: 'customer_new_account', to: 'welcome@example.com' },
      ]);
      const saved = await call('POST', '/rest/V1/customers/', {
        body: customer('quiet@example.com'),
      });
      expect(saved.status).toBe(200);
      expect(outbox.slice(before)).toHaveLength(1);
      const body = saved.body as {
        id: number;
        default_billing: string;
        addresses: { id: number; region: { region_code: string } }[];
      };
      expect(body.default_billing).toBe(String(body.addresses[0]?.id));
      expect(body.addresses[0]?.region.region_code).toBe('TX');
      const duplicate = await call('POST', '/rest/V1/customers/', {
        body: customer('QUIET@example.com'),
      });
      expect((duplicate.body as { message: string }).message).toBe(
        'A customer with the same email address already exists in an associated website.',
      );
      const subscribed = await call('PUT', `/rest/V1/customers/${body.id}`, {
        body: {
          customer: {
            ...customer('quiet@example.com').customer,
            extension_attributes: { is_subscribed: true },
          },
        },
      });
      expect(subscribed.status).toBe(200);
      expect(outbox.at(-1)).toMatchObject({
        template: 'newsletter_subscription_success',
        to: 'quiet@example.com',
      });
      const missing = await call('PUT', '/rest/V1/customers/99999', {
        body: customer('ghost@example.com'),
      });
      expect(missing.status).toBe(404);
    });

    it('validates addresses as Magento does', async () => {
      const bad = customer('region@example.com');
      const address = bad.customer.addresses[0];
      if (address) address.region_id = 0;
      const answer = await call('POST', '/rest/V1/customers/', { body: bad });
      expect(answer.body).toEqual({
        message: '"%fieldName" is required. Enter and try again.',
        parameters: { fieldName: 'regionId' },
      });
    });
  });

  describe('orders', () => {
    it('stores a posted order with its marker and refuses a duplicate increment id', async () => {
      const entity = {
        increment_id: 'T-100',
        ext_order_id: 'replatform:abc',
        customer_email: 'guest@example.com',
        customer_is_guest: 1,
        base_grand_total: 12,
        grand_total: 12,
        created_at: '2024-01-02 03:04:05',
        items: [{ sku: 'SKU-1', name: 'Thing', qty_ordered: 2, price: 6, row_total: 12 }],
        billing_address: {
          address_type: 'billing',
          firstname: 'A',
          lastname: 'B',
          street: ['1 St'],
          city: 'C',
          postcode: '1',
          country_id: 'DE',
          telephone: '1',
        },
        payment: {
          method: 'checkmo',
          account_status: '',
          additional_information: [],
          cc_last4: '',
        },
      };
      const created = await call('POST', '/rest/V1/orders', { body: { entity } });
      expect(created.status).toBe(200);
      expect(
        adminSchema().checkResponse('POST', `${emulator.url}/rest/V1/orders`, 200, created.body),
      ).toEqual([]);
      const found = (
        await call(
          'GET',
          `/rest/V1/orders?${searchQuery({ groups: [[['ext_order_id', 'replatform:abc']]] })}`,
        )
      ).body as { items: { increment_id: string; created_at: string }[] };
      expect(found.items).toMatchObject([
        { increment_id: 'T-100', created_at: '2024-01-02 03:04:05' },
      ]);
      const again = await call('POST', '/rest/V1/orders', { body: { entity } });
      expect(again.status).toBe(400);
      const noPhone = await call('POST', '/rest/V1/orders', {
        body: {
          entity: {
            ...entity,
            increment_id: 'T-101',
            billing_address: { ...entity.billing_address, telephone: '' },
          },
        },
      });
      expect(noPhone.status).toBe(400);
    });
  });

  describe('asynchronous bulk API', () => {
    it('accepts an array, runs it in the background and reports every operation', async () => {
      const items = [
        { customer: { email: 'bulk1@example.com', firstname: 'B', lastname: 'One' } },
        { customer: { email: 'bulk2@example.com', firstname: 'B', lastname: 'Two' } },
        { customer: { email: 'not-an-email', firstname: 'B', lastname: 'Bad' } },
        { customer: { email: 'bulk1@example.com', firstname: 'B', lastname: 'Again' } },
      ];
      const before = emulator.store.customers.outbox.length;
      const accepted = await call('POST', '/rest/default/async/bulk/V1/customers/', {
        body: items,
      });
      expect(accepted.status).toBe(202);
      const body = accepted.body as {
        bulk_uuid: string;
        request_items: { id: number; status: string; data_hash: string }[];
        errors: boolean;
      };
      expect(body.errors).toBe(false);
      expect(body.request_items.map((i) => [i.id, i.status])).toEqual([
        [0, 'accepted'],
        [1, 'accepted'],
        [2, 'accepted'],
        [3, 'accepted'],
      ]);
      expect(body.request_items[0]?.data_hash).toMatch(/^[0-9a-f]{64}$/);
      let status: {
        operations_list: {
          id: number;
          status: number;
          result_message: string;
          result_serialized_data: string;
        }[];
      };
      do {
        await new Promise((r) => setTimeout(r, 10));
        status = (await call('GET', `/rest/V1/bulk/${body.bulk_uuid}/detailed-status`))
          .body as typeof status;
      } while (status.operations_list.some((o) => o.status === 4));
      expect(status.operations_list.map((o) => o.status)).toEqual([1, 1, 3, 3]);
      expect(status.operations_list[2]?.result_message).toBe(
        'Invalid value of "not-an-email" provided for the email field.',
      );
      expect(status.operations_list[3]?.result_message).toBe(
        'A customer with the same email address already exists in an associated website.',
      );
      expect(JSON.parse(status.operations_list[0]?.result_serialized_data ?? '{}')).toMatchObject({
        email: 'bulk1@example.com',
      });
      const path = `/rest/V1/bulk/${body.bulk_uuid}/detailed-status`;
      expect(adminSchema().checkResponse('GET', `${emulator.url}${path}`, 200, status)).toEqual([]);
      const short = await call('GET', `/rest/V1/bulk/${body.bulk_uuid}/status`);
      expect(
        adminSchema().checkResponse(
          'GET',
          `${emulator.url}/rest/V1/bulk/x/status`,
          200,
          short.body,
        ),
      ).toEqual([]);
      expect((await call('GET', `/rest/V1/bulk/${body.bulk_uuid}/operation-status/3`)).body).toBe(
        2,
      );
      // The repository route sends no e-mail, in bulk as well.
      expect(emulator.store.customers.outbox.length).toBe(before);
    });

    it('maps by-parameter segments to path parameters and refuses bodies that are not arrays', async () => {
      const accepted = await call('PUT', '/rest/all/async/bulk/V1/products/bySku', {
        body: [{ sku: 'BULK-PUT-1', product: { sku: 'BULK-PUT-1', name: 'Bulk put', price: 3 } }],
      });
      expect(accepted.status).toBe(202);
      const uuid = (accepted.body as { bulk_uuid: string }).bulk_uuid;
      for (let i = 0; i < 100 && !emulator.store.catalog.hasSku('BULK-PUT-1'); i++)
        await new Promise((r) => setTimeout(r, 10));
      expect(emulator.store.catalog.productBySku('BULK-PUT-1').name).toBe('Bulk put');
      expect((await call('GET', `/rest/V1/bulk/${uuid}/operation-status/1`)).body).toBe(1);
      const notArray = await call('POST', '/rest/default/async/bulk/V1/products', {
        body: { product: { sku: 'x' } },
      });
      expect(notArray.status).toBe(400);
      expect((await call('GET', '/rest/default/async/bulk/V1/products')).status).toBe(404);
    });
  });

  it('answers unknown routes and store codes as Magento does', async () => {
    expect((await call('GET', '/rest/V1/nothing-here')).body).toEqual({
      message: 'Request does not match any route.',
    });
    expect((await call('GET', '/rest/nostore/V1/store/storeViews')).status).toBe(404);
    const text = await call('POST', '/rest/V1/categories', {
      body: 'name=x',
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.status).toBe(400);
  });
});

describe('Magento emulator seeded from the Luma sample data', () => {
  it('holds the Luma catalogue, customer and orders', async () => {
    const luma = await startMagentoEmulator({ seed: 'luma' });
    try {
      const { catalog, customers, sales } = luma.store;
      const products = [...catalog.products.values()];
      expect(products.filter((p) => p.type_id === 'configurable')).toHaveLength(147);
      expect(luma.store.childIds().size).toBe(1847);
      const hoodie = catalog.productBySku('MH01');
      expect(hoodie.links).toHaveLength(15);
      expect(hoodie.configurable_options.map((o) => o.label)).toEqual(['Size', 'Color']);
      expect([...catalog.categories.values()].map((c) => c.name)).toEqual(
        expect.arrayContaining(['Men', 'Women', 'Gear', 'Bags', 'Hoodies & Sweatshirts']),
      );
      const bag = catalog.productBySku('24-MB01');
      expect(bag.media.map((m) => m.file)).toEqual(['/m/b/mb01-blue-0.jpg']);
      expect([...customers.customers.values()].map((c) => c.email)).toEqual([
        'roni_cost@example.com',
      ]);
      const orders = [...sales.orders.values()];
      expect(orders.map((o) => o.status)).toEqual(['complete', 'closed']);
      expect(
        (orders[0]?.items as { sku: string; parent_item_id?: number }[]).map((i) => i.sku),
      ).toEqual(['WS03-XS-Red', 'WS03-XS-Red']);
    } finally {
      await luma.close();
    }
  });
});

describe('Magento emulator integrations with custom API resources (ACL)', () => {
  let emulator: MagentoEmulator;
  const reader = {
    consumerKey: 'reader-consumer-key',
    consumerSecret: 'reader-consumer-secret',
    accessToken: 'reader-access-token',
    accessTokenSecret: 'reader-token-secret',
  };
  beforeAll(async () => {
    emulator = await startMagentoEmulator({
      seed: { seed: 3, products: 2, customers: 2, orders: 2 },
      integrations: [
        {
          credentials: reader,
          resources: ['Magento_Backend::store', 'Magento_Customer::customer'],
        },
      ],
    });
  });
  afterAll(async () => {
    await emulator?.close();
  });
  const as = (credentials: typeof reader) => (method: string, path: string, body?: unknown) =>
    signedFetch(emulator.url, credentials, method, path, body === undefined ? {} : { body });
  const customer = { email: 'check@example.com', firstname: 'Check', lastname: 'Person' };

  it('answers 401 naming the resource an integration was not granted, before reading the body', async () => {
    const call = as(reader);
    expect((await call('GET', '/rest/V1/store/storeConfigs')).status).toBe(200);
    expect((await call('GET', '/rest/V1/customers/search?searchCriteria[pageSize]=1')).status).toBe(
      200,
    );
    for (const [method, path, resource] of [
      ['PUT', '/rest/V1/customers/validate', 'Magento_Customer::manage'],
      ['PUT', '/rest/V1/orders/0', 'Magento_Sales::create'],
      ['GET', '/rest/V1/products?searchCriteria[pageSize]=1', 'Magento_Catalog::products'],
      ['POST', '/rest/default/async/bulk/V1/customers/', 'Magento_Customer::manage'],
    ] as const) {
      const answer = await call(method, path, method === 'GET' ? undefined : 'not an object');
      expect(answer.status, path).toBe(401);
      expect(answer.body, path).toEqual({
        message: "The consumer isn't authorized to access %resources.",
        parameters: { resources: resource },
      });
    }
    expect(emulator.store.bulk.bulks.size).toBe(0);
  });

  it('validates a customer without storing it (PUT /V1/customers/validate)', async () => {
    const call = as(emulator.credentials);
    const before = emulator.store.customers.customers.size;
    const valid = await call('PUT', '/rest/V1/customers/validate', { customer });
    expect(valid).toMatchObject({ status: 200, body: { valid: true, messages: [] } });
    expect(
      adminSchema().checkResponse(
        'PUT',
        `${emulator.url}/rest/V1/customers/validate`,
        200,
        valid.body,
      ),
    ).toEqual([]);
    const invalid = await call('PUT', '/rest/V1/customers/validate', {
      customer: { ...customer, email: 'not-an-address', firstname: '' },
    });
    expect(invalid.body).toEqual({
      valid: false,
      messages: ['"First Name" is a required value.', '"Email" is not a valid email address.'],
    });
    expect(emulator.store.customers.customers.size).toBe(before);
    expect(emulator.store.customers.outbox).toHaveLength(0);
  });

  it('saves an order address only for an address its order has, after Magento’s address validator', async () => {
    const call = as(emulator.credentials);
    const [order] = [...emulator.store.sales.orders.values()];
    const billing = order?.billing_address as Record<string, unknown>;
    const address = {
      address_type: 'billing',
      firstname: 'New',
      lastname: 'Name',
      street: ['2 Side St'],
      city: 'Austin',
      postcode: '78701',
      country_id: 'US',
      telephone: '555 0100',
      email: 'buyer@example.com',
    };
    const before = JSON.stringify([...emulator.store.sales.orders.values()]);
    for (const entity of [
      // No order, e-mail or street: the validator refuses it before anything is stored.
      { ...address, email: undefined, street: undefined },
      { ...address, parent_id: order?.entity_id, address_type: 'other' },
      // Order 0 does not exist.
      { ...address, parent_id: 0 },
    ]) {
      const answer = await call('PUT', '/rest/V1/orders/0', { entity });
      expect(answer).toMatchObject({
        status: 400,
        body: { message: "The order address couldn't be saved." },
      });
    }
    expect(JSON.stringify([...emulator.store.sales.orders.values()])).toBe(before);
    const saved = await call('PUT', `/rest/V1/orders/${String(order?.entity_id)}`, {
      entity: { ...address, parent_id: order?.entity_id, entity_id: billing.entity_id },
    });
    expect(saved.status).toBe(200);
    expect(order?.billing_address).toMatchObject({ firstname: 'New', street: ['2 Side St'] });
  });
});

describe('Magento emulator: what a store holds besides products and orders', () => {
  let emulator: MagentoEmulator;
  const now = Math.floor(Date.now() / 1000);
  const call = (method: string, path: string, options: SignedFetchOptions = {}) =>
    signedFetch(emulator.url, emulator.credentials, method, path, { timestamp: now, ...options });
  const simple = (sku: string, extra: Record<string, unknown> = {}) =>
    call('POST', '/rest/all/V1/products', {
      body: { product: { sku, name: sku, price: 10, attribute_set_id: 4, ...extra } },
    });

  beforeAll(async () => {
    emulator = await startMagentoEmulator({ seed: 'empty', clock: () => now });
  });
  afterAll(async () => {
    await emulator?.close();
  });

  it('saves product links with the product, refuses one to an unknown SKU, and replaces links by type', async () => {
    await simple('LINK-A');
    await simple('LINK-B');
    await simple('LINK-C');
    const link = (type: string, target: string, position = 1) => ({
      sku: 'LINK-A',
      link_type: type,
      linked_product_sku: target,
      linked_product_type: 'simple',
      position,
    });
    const saved = await simple('LINK-A', {
      product_links: [link('related', 'LINK-B'), link('upsell', 'LINK-C')],
    });
    expect(saved.status).toBe(200);
    expect((saved.body as { product_links: unknown[] }).product_links).toEqual([
      expect.objectContaining({ link_type: 'related', linked_product_sku: 'LINK-B', position: 1 }),
      expect.objectContaining({ link_type: 'upsell', linked_product_sku: 'LINK-C', position: 1 }),
    ]);
    const unknown = await simple('LINK-A', { product_links: [link('related', 'NOPE')] });
    expect(unknown.status).toBe(404);
    const replaced = await call('POST', '/rest/all/V1/products/LINK-A/links', {
      body: { items: [link('related', 'LINK-C')] },
    });
    expect(replaced.status).toBe(200);
    const answer = (await call('GET', '/rest/V1/products/LINK-A')).body as {
      product_links: { link_type: string; linked_product_sku: string }[];
    };
    expect(answer.product_links.map((l) => `${l.link_type}:${l.linked_product_sku}`)).toEqual([
      'upsell:LINK-C',
      'related:LINK-C',
    ]);
    const grouped = await simple('LINK-A', { product_links: [link('associated', 'LINK-B')] });
    expect(grouped.status).toBe(400);
  });

  it('takes downloadable links only from the domains env.php allows', async () => {
    const links = (url: string) => ({
      type_id: 'downloadable',
      extension_attributes: {
        downloadable_product_links: [
          {
            title: 'Manual',
            sort_order: 1,
            is_shareable: 2,
            price: 0,
            number_of_downloads: 2,
            link_type: 'url',
            link_url: url,
            sample_type: 'url',
          },
        ],
      },
    });
    const refused = await simple('DL-1', links('https://elsewhere.example.org/manual.pdf'));
    expect(refused.status).toBe(400);
    expect((refused.body as { message: string }).message).toBe(
      "Link URL's domain is not in list of downloadable_domains in env.php.",
    );
    emulator.store.catalog.downloadableDomains.add('files.example.org');
    const saved = await simple('DL-1', links('https://files.example.org/manual.pdf'));
    expect(saved.status).toBe(200);
    const extension = (saved.body as { extension_attributes: Record<string, unknown> })
      .extension_attributes;
    expect(extension.downloadable_product_links).toEqual([
      expect.objectContaining({
        title: 'Manual',
        number_of_downloads: 2,
        link_url: 'https://files.example.org/manual.pdf',
      }),
    ]);
  });

  it("answers a stock setting that follows the configuration with the configuration's value", async () => {
    const own = await simple('STOCK-1', {
      extension_attributes: {
        stock_item: { qty: 3, use_config_max_sale_qty: false, max_sale_qty: 4, backorders: 2 },
      },
    });
    const item = (own.body as { extension_attributes: { stock_item: Record<string, unknown> } })
      .extension_attributes.stock_item;
    expect(item).toMatchObject({ max_sale_qty: 4, min_sale_qty: 1, backorders: 0 });
    const notify = await simple('STOCK-1', {
      extension_attributes: { stock_item: { use_config_backorders: false, backorders: 2 } },
    });
    expect(
      (notify.body as { extension_attributes: { stock_item: Record<string, unknown> } })
        .extension_attributes.stock_item.backorders,
    ).toBe(2);
  });

  it('removes an attribute value saved empty', async () => {
    await simple('EMPTY-1', {
      custom_attributes: [{ attribute_code: 'special_price', value: '5' }],
    });
    const emptied = (
      await simple('EMPTY-1', {
        custom_attributes: [{ attribute_code: 'special_price', value: '' }],
      })
    ).body as { custom_attributes: { attribute_code: string }[] };
    expect(emptied.custom_attributes.map((a) => a.attribute_code)).not.toContain('special_price');
  });

  it('numbers an order saved without an increment id, and e-mails an order only when asked to', async () => {
    const outbox = emulator.store.customers.outbox;
    const before = outbox.length;
    const entity = {
      customer_email: 'numbered@example.com',
      customer_is_guest: 1,
      base_grand_total: 5,
      grand_total: 5,
      items: [{ sku: 'N-1', name: 'Numbered', qty_ordered: 1, price: 5, row_total: 5 }],
      status_histories: [
        { comment: 'Imported', is_customer_notified: 0, is_visible_on_front: 0, parent_id: 0 },
      ],
    };
    const created = (await call('POST', '/rest/V1/orders', { body: { entity } })).body as {
      entity_id: number;
      increment_id: string;
      email_sent?: number;
    };
    expect(created.increment_id).toBe(String(created.entity_id).padStart(9, '0'));
    expect(created.email_sent).toBeUndefined();
    expect(outbox.length).toBe(before);

    const sent = await call('POST', `/rest/V1/orders/${created.entity_id}/emails`);
    expect(sent).toMatchObject({ status: 200, body: true });
    expect(outbox.slice(before)).toEqual([
      expect.objectContaining({
        template: 'sales_order_new',
        to: 'numbered@example.com',
        order: created.increment_id,
      }),
    ]);
    const order = (await call('GET', `/rest/V1/orders/${created.entity_id}`)).body as {
      email_sent: number;
      status_histories: { is_customer_notified: number }[];
    };
    expect(order.email_sent).toBe(1);
    expect(order.status_histories[0]?.is_customer_notified).toBe(1);
    expect((await call('POST', '/rest/V1/orders/999999/emails')).status).toBe(404);
    outbox.splice(before);
  });

  it('saves comments with an order, adds items to it later, and keeps invoices and credit memos of it', async () => {
    const entity = {
      increment_id: 'DOC-1',
      customer_email: 'doc@example.com',
      customer_is_guest: 1,
      base_grand_total: 20,
      grand_total: 20,
      items: [{ sku: 'P-1', name: 'Parent', qty_ordered: 1, price: 20, row_total: 20 }],
      payment: {
        method: 'checkmo',
        account_status: '',
        additional_information: ['Check / Money order'],
        cc_last4: '',
      },
      status_histories: [
        {
          comment: 'Older',
          is_customer_notified: 0,
          is_visible_on_front: 0,
          parent_id: 0,
          created_at: '2024-01-01 10:00:00',
        },
        {
          comment: 'Newer',
          is_customer_notified: 1,
          is_visible_on_front: 1,
          parent_id: 0,
          created_at: '2024-01-02 10:00:00',
        },
      ],
    };
    const created = (await call('POST', '/rest/V1/orders', { body: { entity } })).body as {
      entity_id: number;
      items: { item_id: number }[];
      status_histories: { comment: string; parent_id: number }[];
      extension_attributes: { payment_additional_info: { key: string; value: string }[] };
    };
    expect(created.status_histories.map((h) => h.comment)).toEqual(['Newer', 'Older']);
    expect(created.status_histories[0]?.parent_id).toBe(created.entity_id);
    expect(created.extension_attributes.payment_additional_info).toEqual([
      { key: '0', value: 'Check / Money order' },
    ]);
    const parent = created.items[0]?.item_id;
    const updated = (
      await call('POST', '/rest/V1/orders', {
        body: {
          entity: {
            entity_id: created.entity_id,
            customer_email: 'doc@example.com',
            base_grand_total: 20,
            grand_total: 20,
            items: [{ sku: 'C-1', name: 'Child', qty_ordered: 1, parent_item_id: parent }],
          },
        },
      })
    ).body as {
      items: { item_id: number; parent_item_id?: number }[];
      status_histories: unknown[];
    };
    expect(updated.items.map((i) => i.parent_item_id)).toEqual([undefined, parent]);
    expect(updated.status_histories).toHaveLength(2);

    const memo = await call('POST', '/rest/V1/creditmemo', {
      body: {
        entity: {
          order_id: created.entity_id,
          created_at: '2024-02-01 09:00:00',
          grand_total: 20,
          items: [{ order_item_id: parent, qty: 1, base_cost: 0, base_price: 20, entity_id: 0 }],
          comments: [
            { comment: 'Broken', is_customer_notified: 0, is_visible_on_front: 0, parent_id: 0 },
          ],
        },
      },
    });
    expect(memo.status).toBe(200);
    const stray = await call('POST', '/rest/V1/creditmemo', {
      body: { entity: { order_id: created.entity_id, items: [{ order_item_id: 999, qty: 1 }] } },
    });
    expect(stray.status).toBe(400);
    const invoice = await call('POST', '/rest/V1/invoices/', {
      body: {
        entity: {
          order_id: created.entity_id,
          total_qty: 1,
          created_at: '2024-01-01 11:00:00',
          items: [{ order_item_id: parent, sku: 'P-1', qty: 1 }],
        },
      },
    });
    expect(invoice.status).toBe(200);
    for (const path of ['/rest/V1/creditmemos', '/rest/V1/invoices']) {
      const query = searchQuery({ groups: [[['order_id', String(created.entity_id)]]] });
      const listed = await call('GET', `${path}?${query}`);
      expect(
        adminSchema().checkResponse('GET', `${emulator.url}${path}`, 200, listed.body),
        path,
      ).toEqual([]);
      expect((listed.body as { total_count: number }).total_count, path).toBe(1);
    }
  });

  it('keeps customer groups and tax classes unique by name, and customer attributes the installation has', async () => {
    const group = await call('POST', '/rest/V1/customerGroups', {
      body: { group: { code: 'Trade', tax_class_id: 3 } },
    });
    expect(group.status).toBe(200);
    const again = await call('POST', '/rest/V1/customerGroups', {
      body: { group: { code: 'trade', tax_class_id: 3 } },
    });
    expect(again.status).toBe(400);
    const taxClass = await call('POST', '/rest/V1/taxClasses', {
      body: { taxClass: { class_name: 'Books', class_type: 'PRODUCT' } },
    });
    expect(taxClass.status).toBe(200);
    const sameClass = await call('POST', '/rest/V1/taxClasses', {
      body: { taxClass: { class_name: 'Books', class_type: 'PRODUCT' } },
    });
    expect(sameClass.status).toBe(400);
    const withTax = await simple('TAXED-1', {
      custom_attributes: [{ attribute_code: 'tax_class_id', value: String(taxClass.body) }],
    });
    expect(withTax.status).toBe(200);
    const customerClass = await simple('TAXED-1', {
      custom_attributes: [{ attribute_code: 'tax_class_id', value: '3' }],
    });
    expect(customerClass.status).toBe(400);

    emulator.store.customers.installAttribute('member_since', 'Member since', 'date');
    const customer = (
      await call('POST', '/rest/V1/customers/', {
        body: {
          customer: {
            email: 'attr@example.com',
            firstname: 'A',
            lastname: 'B',
            group_id: (group.body as { id: number }).id,
            custom_attributes: [
              { attribute_code: 'member_since', value: '2020-01-01' },
              { attribute_code: 'not_installed', value: 'x' },
            ],
          },
        },
      })
    ).body as { group_id: number; custom_attributes: { attribute_code: string }[] };
    expect(customer.group_id).toBe((group.body as { id: number }).id);
    expect(customer.custom_attributes.map((a) => a.attribute_code)).toEqual(['member_since']);
    const noGroup = await call('POST', '/rest/V1/customers/', {
      body: {
        customer: { email: 'nogroup@example.com', firstname: 'A', lastname: 'B', group_id: 99 },
      },
    });
    expect(noGroup.status).toBe(404);
  });
});
