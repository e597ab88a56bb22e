import type { Customer } from '@replatform/canonical/customer';
import type { WriteOutcome } from '../kit/contract.ts';
import { ConnectorError, isTransient } from '../kit/errors.ts';
import { isMagentoStatus } from './client.ts';
import { customerAddressPayload, magentoFromIso } from './mapping.ts';
import { foreignAttributeCode, isMagento, metafieldValue } from './metafields.ts';
import {
  bulkAcceptedSchema,
  bulkDetailedStatusSchema,
  customerGroupSchema,
  customerSchema,
  searchResults,
  type MagentoCustomer,
} from './magento-schemas.ts';
import { criteria, type MagentoSession } from './session.ts';
import { createOnce, isStoreWide, leftUnchanged, reasonOf } from './write-support.ts';

/**
 * Customers are written without any e-mail to the customer:
 * - never through POST /V1/customers (AccountManagementInterface::createAccount), which always
 *   sends the new-account e-mail, nor with is_subscribed (the newsletter subscription sends a
 *   success e-mail), so marketing consent is not written (capabilities.unsupportedFields);
 * - new accounts go through CustomerRepositoryInterface::save, which Magento routes from
 *   POST /V1/customers/ (trailing slash, Magento_Customer etc/webapi.xml) and which stores the
 *   account and its addresses and sends nothing. A batch of new customers is one asynchronous
 *   bulk request to that route (/async/bulk/V1/customers/), whose per-item results come from
 *   GET /V1/bulk/{uuid}/detailed-status;
 * - existing accounts are updated with PUT /V1/customers/{customerId} (the same repository save).
 * Marker: the e-mail address finds the account (unique per website in Magento); `created_in`
 * ("Account Created in" in the admin, a free text Magento's repository save stores as given) says
 * whether this service created it: 'Replatform import (source id <id>)'. An account with the
 * e-mail that this service did not create is the merchant's: it is linked and left unchanged.
 * Accounts have no password after the migration; customers set one with "Forgot your password?".
 *
 * When the owner chose to let the store e-mail customers (session.choices.notifyCustomers), new
 * accounts are created one by one through POST /V1/customers instead (createAccount), which sends
 * Magento's welcome e-mail: for an account without a password, the one that invites the customer
 * to set theirs. createAccount stores the store view's name as created_in, so the account is then
 * saved once more with the marker (PUT /V1/customers/{id}, which sends nothing). Updates never
 * e-mail. A run stopped between the two requests leaves an account without the marker, which a
 * later run links as the merchant's and leaves unchanged (it is neither duplicated nor e-mailed
 * twice).
 */

const createdInPrefix = 'Replatform import (source id ';

/** The `created_in` value of the accounts this service creates. */
export function customerMarker(sourceId: string): string {
  return `${createdInPrefix}${sourceId})`;
}

/** The source id in an account's `created_in`, when this service created it. */
export function customerMarkerSource(createdIn: string | null | undefined): string | undefined {
  if (!createdIn?.startsWith(createdInPrefix) || !createdIn.endsWith(')')) return undefined;
  return createdIn.slice(createdInPrefix.length, -1);
}

const customerList = searchResults(customerSchema);
const BULK_POLL_LIMIT_MS = 120_000;

async function findByEmails(
  session: MagentoSession,
  emails: string[],
): Promise<Map<string, MagentoCustomer>> {
  const found = new Map<string, MagentoCustomer>();
  if (!emails.length) return found;
  // GET /V1/customers/search (admin-schema-2.4.9.yaml GetV1CustomersSearch), 'in' on email.
  const result = await session.client.get(
    '/V1/customers/search',
    customerList,
    criteria({
      filters: [[['email', emails.join(','), 'in']]],
      pageSize: emails.length,
      currentPage: 1,
    }),
  );
  for (const c of result.items) found.set(c.email.toLowerCase(), c);
  return found;
}

/** Customer fields of Magento's own that travel as 'magento' metafields. */
const ownFields = new Set(['middlename', 'prefix', 'suffix', 'dob', 'gender', 'taxvat']);

/** The id of a customer group by code ('' is General, 1), created when the store lacks it. */
async function customerGroupId(session: MagentoSession, code: string): Promise<number> {
  if (!code) return 1;
  const find = async (refresh: boolean) =>
    (await session.customerGroups(refresh)).find(
      (g) => g.code.normalize('NFC').toLowerCase() === code.normalize('NFC').toLowerCase(),
    );
  const found = await find(false);
  if (found) return found.id;
  // A new group pays tax like General, the group of new accounts.
  const general = (await session.customerGroups()).find((g) => g.id === 1);
  // POST /V1/customerGroups (admin-schema-2.4.9.yaml PostV1CustomerGroups)
  await createOnce(
    () =>
      session.client.request('POST', '/V1/customerGroups', customerGroupSchema, {
        body: { group: { code, tax_class_id: general?.taxClassId ?? 3 } },
      }),
    async () => await find(true),
  );
  const created = await find(true);
  if (!created) throw new Error(`customer group '${code}' could not be created`);
  return created.id;
}

async function customerPayload(
  session: MagentoSession,
  record: Customer,
  warnings: string[],
): Promise<{ customer: Record<string, unknown> } | { error: string }> {
  const addresses: Record<string, unknown>[] = [];
  for (const address of record.addresses) {
    const payload = await customerAddressPayload(session, address);
    if ('error' in payload) return payload;
    addresses.push(payload.address);
  }
  const fields: Record<string, unknown> = {};
  const custom: { attribute_code: string; value: string }[] = [];
  const extension: Record<string, unknown> = {};
  const attributes = await session.customerAttributes();
  for (const field of record.metafields) {
    const value = metafieldValue(field);
    if (isMagento(field) && ownFields.has(field.key)) fields[field.key] = value;
    else if (isMagento(field) && field.key === 'disable_auto_group_change')
      fields.disable_auto_group_change = Number(value);
    else if (isMagento(field) && field.key === 'assistance_allowed')
      extension.assistance_allowed = Number(value);
    else {
      const code = isMagento(field) ? field.key : foreignAttributeCode(field);
      if (attributes.has(code))
        custom.push({
          attribute_code: code,
          value: typeof value === 'string' ? value : JSON.stringify(value),
        });
      else
        warnings.push(
          `custom field ${field.namespace}.${field.key} not migrated: the store has no customer attribute '${code}', and Magento's REST API cannot create one (metafields)`,
        );
    }
  }
  return {
    customer: {
      email: record.email,
      firstname: record.firstName || '-',
      lastname: record.lastName || '-',
      created_at: magentoFromIso(record.createdAt),
      created_in: customerMarker(record.id),
      website_id: 1,
      store_id: 1,
      group_id: await customerGroupId(session, record.group),
      ...fields,
      addresses,
      ...(Object.keys(extension).length ? { extension_attributes: extension } : {}),
      ...(custom.length ? { custom_attributes: custom } : {}),
    },
  };
}

const digits = (phone: string) => phone.replace(/\D/g, '');

/** What this record loses at a Magento destination, depending on its data. */
function warningsFor(record: Customer): string[] {
  const warnings: string[] = [];
  if (!record.firstName.trim())
    warnings.push("first name was empty; Magento requires one, '-' was used (firstName)");
  if (!record.lastName.trim())
    warnings.push("last name was empty; Magento requires one, '-' was used (lastName)");
  // Magento keeps phone numbers on addresses; the account's phone reads back as the default
  // billing address's (the first address's when none is the default).
  const billing = record.addresses.find((a) => a.isDefaultBilling) ?? record.addresses[0];
  if (record.phone && digits(billing?.phone ?? '') !== digits(record.phone)) {
    warnings.push(
      'phone not kept: Magento keeps phone numbers on addresses only, and the default billing address has another (phone)',
    );
  }
  return warnings;
}

const withWarnings = (outcome: WriteOutcome, warnings: string[]): WriteOutcome =>
  warnings.length ? { ...outcome, warnings } : outcome;

export async function writeCustomers(
  session: MagentoSession,
  records: Customer[],
  options: { sleep?: (ms: number) => Promise<void> } = {},
): Promise<WriteOutcome[]> {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const outcomes = new Map<string, WriteOutcome>();
  const payloads = new Map<string, { customer: Record<string, unknown> }>();
  const extra = new Map<string, string[]>();
  const warningsOf = (record: Customer) => [
    ...warningsFor(record),
    ...(extra.get(record.id) ?? []),
  ];
  for (const record of records) {
    const recordWarnings: string[] = [];
    extra.set(record.id, recordWarnings);
    const payload = await customerPayload(session, record, recordWarnings);
    if ('error' in payload) {
      outcomes.set(record.id, { sourceId: record.id, outcome: 'failed', reason: payload.error });
    } else {
      payloads.set(record.id, payload);
    }
  }
  const pending = records.filter((r) => payloads.has(r.id));
  const emails = [...new Set(pending.map((r) => r.email.toLowerCase()))];
  const existing = await findByEmails(session, emails);
  const seen = new Set<string>();
  const toCreate: Customer[] = [];
  for (const record of pending) {
    const email = record.email.toLowerCase();
    if (seen.has(email)) {
      outcomes.set(record.id, {
        sourceId: record.id,
        outcome: 'failed',
        reason: `another customer in this batch has the e-mail ${email}`,
      });
      continue;
    }
    seen.add(email);
    const found = existing.get(email);
    if (!found) {
      toCreate.push(record);
      continue;
    }
    const owner = customerMarkerSource(found.created_in);
    if (owner === undefined) {
      outcomes.set(record.id, {
        sourceId: record.id,
        outcome: 'skipped',
        destinationId: String(found.id),
        reason: leftUnchanged,
        linked: true,
      });
      continue;
    }
    if (owner !== record.id) {
      outcomes.set(record.id, {
        sourceId: record.id,
        outcome: 'failed',
        reason: `another migrated customer (source id ${owner}) has the e-mail ${email}`,
      });
      continue;
    }
    try {
      // PUT /V1/customers/{customerId} (admin-schema-2.4.9.yaml PutV1CustomersCustomerId)
      const payload = payloads.get(record.id)?.customer ?? {};
      await session.client.request('PUT', `/V1/customers/${found.id}`, customerSchema, {
        body: { customer: { ...payload, id: found.id } },
      });
      outcomes.set(
        record.id,
        withWarnings(
          { sourceId: record.id, outcome: 'updated', destinationId: String(found.id) },
          warningsOf(record),
        ),
      );
    } catch (error) {
      if (isStoreWide(error)) throw error;
      outcomes.set(record.id, { sourceId: record.id, outcome: 'failed', reason: reasonOf(error) });
    }
  }

  if (toCreate.length) {
    const results = session.choices.notifyCustomers
      ? await createWithWelcome(session, toCreate, payloads)
      : await createInBulk(session, toCreate, payloads, sleep);
    for (const record of toCreate) {
      const result = results.get(record.id);
      outcomes.set(
        record.id,
        result?.id && result.theirs
          ? {
              sourceId: record.id,
              outcome: 'skipped',
              destinationId: result.id,
              reason: leftUnchanged,
              linked: true,
            }
          : result?.id
            ? withWarnings(
                { sourceId: record.id, outcome: 'created', destinationId: result.id },
                warningsOf(record),
              )
            : {
                sourceId: record.id,
                outcome: 'failed',
                reason: result?.reason ?? 'Magento did not create the customer',
              },
      );
    }
  }
  return records.map(
    (r) => outcomes.get(r.id) ?? { sourceId: r.id, outcome: 'failed', reason: 'not processed' },
  );
}

type CreateResult = { id?: string; theirs?: boolean; reason?: string };

/**
 * Creates each account through AccountManagementInterface::createAccount (the new-account
 * e-mail), then marks it as this migration's with the repository save. None of the e-mails was
 * taken when the batch was looked up, so an account of that e-mail found after a create whose
 * answer was lost is the one just created, unless another migrated record's marker says otherwise;
 * one Magento refuses as a duplicate appeared meanwhile and is the merchant's.
 */
async function createWithWelcome(
  session: MagentoSession,
  records: Customer[],
  payloads: Map<string, { customer: Record<string, unknown> }>,
): Promise<Map<string, CreateResult>> {
  const results = new Map<string, CreateResult>();
  for (const record of records) {
    const customer = payloads.get(record.id)?.customer ?? {};
    const email = record.email.toLowerCase();
    try {
      let created: MagentoCustomer | undefined;
      try {
        // POST /V1/customers (admin-schema-2.4.9.yaml PostV1Customers): createAccount, which
        // sends the new-account e-mail.
        created = await session.client.request('POST', '/V1/customers', customerSchema, {
          body: { customer },
        });
      } catch (error) {
        if (!isTransient(error) && !isMagentoStatus(error, 400)) throw error;
        const found = (await findByEmails(session, [email])).get(email);
        if (!found) throw error;
        const owner = customerMarkerSource(found.created_in);
        if (isMagentoStatus(error, 400) || (owner !== undefined && owner !== record.id)) {
          results.set(record.id, { id: String(found.id), theirs: true });
          continue;
        }
        created = found;
      }
      // PUT /V1/customers/{customerId} (admin-schema-2.4.9.yaml PutV1CustomersCustomerId): the
      // marker, which createAccount replaced with the store view's name.
      await session.client.request('PUT', `/V1/customers/${created.id}`, customerSchema, {
        body: { customer: { ...customer, id: created.id } },
      });
      results.set(record.id, { id: String(created.id) });
    } catch (error) {
      if (isStoreWide(error)) throw error;
      results.set(record.id, { reason: reasonOf(error) });
    }
  }
  return results;
}

/**
 * One async bulk request for the batch, then the detailed status until every operation has run.
 * Whether an account exists is decided by the e-mail lookup afterwards: a bulk whose acceptance
 * answer was lost may still have run, and a repeated one then fails on the duplicate e-mail.
 */
async function createInBulk(
  session: MagentoSession,
  records: Customer[],
  payloads: Map<string, { customer: Record<string, unknown> }>,
  sleep: (ms: number) => Promise<void>,
): Promise<Map<string, CreateResult>> {
  const results = new Map<string, CreateResult>();
  let remaining = records;
  for (let attempt = 1; remaining.length && attempt <= 6; attempt++) {
    const reasons = new Map<string, string>();
    try {
      // POST /rest/<store>/async/bulk/V1/customers/ (limits.json magento2.async_bulk; the sync
      // route is POST /V1/customers/ -> CustomerRepositoryInterface::save).
      const accepted = await session.client.request('POST', '/V1/customers/', bulkAcceptedSchema, {
        body: remaining.map((r) => payloads.get(r.id)),
        scope: 'async-bulk',
        retry: 'throttle-only',
      });
      for (const item of accepted.request_items) {
        const record = remaining[item.id];
        if (record && item.status !== 'accepted')
          reasons.set(record.id, item.error_message ?? `rejected (${item.status})`);
      }
      const status = await waitForBulk(session, accepted.bulk_uuid, sleep);
      for (const op of status.operations_list) {
        const record = remaining[op.id];
        if (record && op.status !== 1)
          reasons.set(record.id, op.result_message || `operation status ${op.status}`);
      }
    } catch (error) {
      if (!isTransient(error)) throw error;
      // The bulk may or may not have been accepted: the lookup below tells.
    }
    const found = await findByEmails(
      session,
      remaining.map((r) => r.email.toLowerCase()),
    );
    const next: Customer[] = [];
    for (const record of remaining) {
      const customer = found.get(record.email.toLowerCase());
      // An account with the e-mail that is not this record's appeared meanwhile (the merchant's).
      if (customer)
        results.set(record.id, {
          id: String(customer.id),
          theirs: customerMarkerSource(customer.created_in) !== record.id,
        });
      else if (reasons.has(record.id))
        results.set(record.id, { reason: `Magento refused it: ${reasons.get(record.id)}` });
      else next.push(record);
    }
    remaining = next;
    if (remaining.length) await sleep(Math.min(5_000, 200 * 2 ** attempt));
  }
  for (const record of remaining)
    results.set(record.id, { reason: 'the bulk request could not be completed' });
  return results;
}

async function waitForBulk(
  session: MagentoSession,
  uuid: string,
  sleep: (ms: number) => Promise<void>,
) {
  const started = Date.now();
  for (let delay = 25; ; delay = Math.min(delay * 2, 2_000)) {
    // GET /V1/bulk/{bulkUuid}/detailed-status (admin-schema-2.4.9.yaml)
    const status = await session.client.get(
      `/V1/bulk/${encodeURIComponent(uuid)}/detailed-status`,
      bulkDetailedStatusSchema,
    );
    // Status 4 is "open": not yet run by the async.operations.all consumer.
    if (!status.operations_list.some((op) => op.status === 4)) return status;
    if (Date.now() - started > BULK_POLL_LIMIT_MS) {
      throw new ConnectorError(
        'transient',
        'bulk_pending',
        'Magento has not processed the bulk request yet: is the async.operations.all consumer running?',
      );
    }
    await sleep(delay);
  }
}
