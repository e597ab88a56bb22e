import { z } from 'zod';
import type { Customer } from '@replatform/canonical/customer';
import type { IdMap, WriteOutcome } from '../kit/contract.ts';
import { createOnce, errorText, type BcAnswer } from './client.ts';
import { attributeNamespace, attributeTypeOf, customerToBc } from './map-customer.ts';
import type { MetafieldInput } from './metafields.ts';
import { mapLimit } from '../kit/concurrency.ts';
import type { Json } from './native.ts';
import { collectionSchema } from './payloads.ts';
import { attributeAsset } from './remove.ts';
import { nameKey, parseAnswer, type BcSession } from './session.ts';
import { linked, skipped } from './write-catalog.ts';
import { addMetafields } from './write-metafields.ts';

/**
 * Customers go in batches of at most 10 per POST /v3/customers, with at most 3 such requests at a
 * time in the whole connection (customers.v3.yml createCustomers: "Limit of 10 customers per
 * call", "3 concurrent requests"; the limit is the store's, so it is held in the session and
 * shared by concurrent write() calls). E-mail addresses are unique on BigCommerce: each batch
 * first looks its e-mails up (email:in), so a customer already there is linked rather than
 * created twice.
 */

export const customersPerCall = 10;
export const customerConcurrency = 3;

const idAndEmail = z.object({ id: z.number().int(), email: z.string() });

async function byEmail(session: BcSession, emails: string[]): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  if (emails.length === 0) return found;
  const answer = await session.client.ok('GET', '/v3/customers', {
    query: { 'email:in': emails, limit: 250 },
  });
  const list = parseAnswer(collectionSchema(idAndEmail), answer.body, 'GET /v3/customers').data;
  for (const c of list) found.set(c.email.toLowerCase(), c.id);
  return found;
}

export async function writeCustomers(
  session: BcSession,
  records: Customer[],
  idMap: IdMap,
): Promise<WriteOutcome[]> {
  const { client, markers } = session;
  await markers.customers.ensure();
  const outcomes = new Map<string, WriteOutcome>();
  const pending: Customer[] = [];
  for (const record of records) {
    const mapped = idMap.get('customers', record.id);
    const known = mapped ? Number(mapped) : markers.customers.find(record.id);
    if (known !== undefined) outcomes.set(record.id, skipped(record.id, known, 'already migrated'));
    else pending.push(record);
  }
  const marks: { sourceId: string; resourceId: number }[] = [];
  const metafields: { sourceId: string; resourceId: number; metafields: MetafieldInput[] }[] = [];
  const updates: { sourceId: string; id: number; update: Json }[] = [];
  // Customer attributes are the store's own: found by name, or made once, before the creates.
  const attributes = await session.ensureAttributes(
    pending.flatMap((c) =>
      c.metafields
        .filter((m) => m.namespace === attributeNamespace)
        .map((m) => ({ name: m.key, type: attributeTypeOf(m.type) })),
    ),
  );
  const chunks: Customer[][] = [];
  for (let i = 0; i < pending.length; i += customersPerCall)
    chunks.push(pending.slice(i, i + customersPerCall));

  const createChunk = async (chunk: Customer[]): Promise<void> => {
    const email = (c: Customer) => c.email.toLowerCase();
    const existing = await byEmail(session, chunk.map(email));
    const fresh: Customer[] = [];
    for (const customer of chunk) {
      const id = existing.get(email(customer));
      if (id === undefined) {
        fresh.push(customer);
        continue;
      }
      const owner = markers.customers.sourceOf(id);
      if (owner !== undefined && owner !== customer.id) {
        outcomes.set(customer.id, {
          sourceId: customer.id,
          outcome: 'failed',
          reason: `another migrated customer (${owner}) has the same e-mail address`,
        });
        continue;
      }
      outcomes.set(
        customer.id,
        linked(customer.id, id, 'a customer with this e-mail already existed; linked to it'),
      );
      marks.push({ sourceId: customer.id, resourceId: id });
    }
    if (fresh.length === 0) return;
    const mapped = fresh.map((c) => customerToBc(c, attributes));
    // notifyCustomers: BigCommerce sends each new customer its account-created e-mail, which
    // asks them to set a password (the customers API's only e-mail; passwords never travel).
    if (session.choices.notifyCustomers)
      for (const m of mapped) m.body.trigger_account_created_notification = true;
    const sent = await createOnce<{ answer?: BcAnswer; recovered?: Map<string, number> }>(
      client,
      async () => ({
        answer: await session.writeSlots.customers.run(() =>
          client.request('POST', '/v3/customers', {
            body: mapped.map((m) => m.body),
            idempotent: false,
          }),
        ),
      }),
      async () => {
        // The batch is created whole or not at all: if the e-mails are there now, it went through.
        const after = await byEmail(session, fresh.map(email));
        return fresh.every((c) => after.has(email(c))) ? { recovered: after } : undefined;
      },
    );
    const created = new Map<string, number>(sent.recovered ?? []);
    const answer = sent.answer;
    if (answer && answer.status === 200) {
      const list = parseAnswer(
        z.object({ data: z.array(idAndEmail) }),
        answer.body,
        'POST /v3/customers',
      ).data;
      for (const c of list) created.set(c.email.toLowerCase(), c.id);
    } else if (answer && fresh.length > 1) {
      // One refused customer refuses the whole batch: create one by one to name the culprit.
      for (const customer of fresh) await createChunk([customer]);
      return;
    }
    fresh.forEach((customer, index) => {
      const id = created.get(email(customer));
      if (id === undefined) {
        outcomes.set(customer.id, {
          sourceId: customer.id,
          outcome: 'failed',
          reason: `BigCommerce refused the customer: ${answer ? errorText(answer.body) : 'no answer'}`,
        });
        return;
      }
      const write = mapped[index];
      const warnings = write?.warnings ?? [];
      outcomes.set(customer.id, {
        sourceId: customer.id,
        outcome: 'created',
        destinationId: String(id),
        ...(warnings.length ? { warnings } : {}),
      });
      marks.push({ sourceId: customer.id, resourceId: id });
      if (write?.metafields.length)
        metafields.push({ sourceId: customer.id, resourceId: id, metafields: write.metafields });
      if (write?.update) updates.push({ sourceId: customer.id, id, update: write.update });
    });
  };

  await mapLimit(chunks, customerConcurrency, createChunk);
  await markers.customers.add(marks);
  const note = (sourceId: string, text: string) => {
    const outcome = outcomes.get(sourceId);
    if (outcome)
      outcomes.set(sourceId, { ...outcome, warnings: [...(outcome.warnings ?? []), text] });
  };
  // customers.v3.yml: the sign-up IP address is taken by an update only (10 customers a call).
  for (let i = 0; i < updates.length; i += customersPerCall) {
    const chunk = updates.slice(i, i + customersPerCall);
    const answer = await session.writeSlots.customers.run(() =>
      client.request('PUT', '/v3/customers', {
        body: chunk.map((u) => ({ id: u.id, ...u.update })),
      }),
    );
    if (answer.status !== 200)
      for (const u of chunk)
        note(
          u.sourceId,
          `the sign-up IP address was refused: ${errorText(answer.body)} (metafields)`,
        );
  }
  const refused = await addMetafields(session, '/v3/customers/metafields', metafields);
  for (const entry of metafields)
    for (const text of refused.get(entry.resourceId) ?? []) note(entry.sourceId, text);
  // Customer attributes this connection made are recorded once, on the first customer written
  // here that carries a value of them (an attribute found existing is the owner's: never).
  for (const customer of pending) {
    const outcome = outcomes.get(customer.id);
    if (!outcome) continue;
    const made = customer.metafields
      .filter((m) => m.namespace === attributeNamespace)
      .flatMap((m) => {
        const attribute = attributes.get(nameKey(m.key));
        return attribute &&
          session.attributesMade.has(attribute.id) &&
          !session.attributesRecorded.has(attribute.id)
          ? [attribute]
          : [];
      });
    if (made.length === 0) continue;
    for (const attribute of made) session.attributesRecorded.add(attribute.id);
    outcomes.set(customer.id, {
      ...outcome,
      assets: [...(outcome.assets ?? []), ...made.map(attributeAsset)],
    });
  }
  return records.map(
    (r) => outcomes.get(r.id) ?? { sourceId: r.id, outcome: 'failed', reason: 'not processed' },
  );
}
