import type { Customer } from '@replatform/canonical/customer';
import type { IdMap, WriteOutcome } from '../kit/contract.ts';
import { runBatch, type BatchItemResult, type BatchOp } from './batch.ts';
import type { WooClient } from './client.ts';
import type { ImportState } from './import-state.ts';
import { customerBody, type Json } from './from-canonical.ts';
import { customerMarkers as markers, digest, metaValue, sourceIdOf } from './markers.ts';
import { wooNamespace } from './metafields.ts';
import { pageSize } from './read.ts';
import { decodeEntities } from './to-canonical.ts';
import { wcCustomerSchema, type WcError, type WcMeta } from './wc-schemas.ts';

/**
 * Customers into WooCommerce. WordPress refuses a second account with the same e-mail, so a
 * customer is simply created; `registration-error-email-exists` sends the connector to
 * `GET /customers?email=`, and the account found is ours (its `_replatform_source_id` names the
 * source customer: update or skip) or the merchant's (linked, left alone).
 *
 * The markers are the unprotected user meta `replatform_source_id` and `replatform_hash` (see
 * markers.ts). Passwords cannot be read, so WordPress gives every created account a password of its own and
 * flags it (user meta `default_password_nag`); the flag is removed again from an account whose
 * source did not have it, so the account holds what the source's did (the customer sets a
 * password through "Lost your password?" either way).
 */

const errorText = (e: WcError) =>
  `${decodeEntities(e.message).replace(/<[^>]*>/g, '')} (${e.code})`;
const passwordNag = 'default_password_nag';
/**
 * Pages of the newest accounts read to find what a failed batch created: its own creates are
 * among them unless more than this many accounts were created since (other lanes, the shop).
 */
const recoverPages = 5;

/** WordPress sets the flag itself when it creates the account: sent too, it would be twice. */
const withoutNag = (body: Json): Json => ({
  ...body,
  meta_data: (body.meta_data as Json[]).filter((m) => m.key !== passwordNag),
});

export class CustomerWriter {
  private readonly client: WooClient;
  private readonly state: ImportState;

  constructor(client: WooClient, state: ImportState) {
    this.client = client;
    this.state = state;
  }

  async write(records: Customer[], idMap: IdMap): Promise<WriteOutcome[]> {
    const outcomes: WriteOutcome[] = new Array(records.length);
    const warnings = records.map(() => [] as string[]);
    const bodies = records.map((c, i) => {
      const written = customerBody(c);
      warnings[i]?.push(...written.warnings);
      const hash = digest(written.body);
      return {
        hash,
        body: {
          ...written.body,
          meta_data: [
            ...(written.body.meta_data as Json[]),
            { key: markers.sourceId, value: c.id },
            { key: markers.hash, value: hash },
          ],
        } as Json,
      };
    });
    const mapped = records.flatMap((c, i) => (idMap.get('customers', c.id) ? [i] : []));
    const existing = new Map<number, { id: number; meta: WcMeta[] }>();
    for (let start = 0; start < mapped.length; start += pageSize) {
      const chunk = mapped.slice(start, start + pageSize);
      const ids = chunk.map((i) => Number(idMap.get('customers', (records[i] as Customer).id)));
      const { items } = await this.client.page(
        '/customers',
        { include: ids.join(','), per_page: ids.length, role: 'all' },
        wcCustomerSchema,
      );
      for (const i of chunk) {
        const found = items.find(
          (c) => c.id === Number(idMap.get('customers', (records[i] as Customer).id)),
        );
        if (found) existing.set(i, { id: found.id, meta: found.meta_data });
      }
    }
    const create: BatchOp[] = [];
    const update: BatchOp[] = [];
    const decide = (i: number, found: { id: number; meta: WcMeta[] }, ours: boolean) => {
      const c = records[i] as Customer;
      const { hash, body } = bodies[i] as { hash: string; body: Json };
      if (!ours) {
        outcomes[i] = {
          sourceId: c.id,
          outcome: 'skipped',
          destinationId: String(found.id),
          reason: `An account with the e-mail ${c.email} already exists at the destination; it was linked, not changed.`,
          linked: true,
        };
        return;
      }
      // A run stopped between creating the account and removing the flag WordPress set leaves it.
      const strayNag =
        !c.metafields.some((m) => m.namespace === wooNamespace && m.key === passwordNag) &&
        metaValue(found.meta, passwordNag) !== undefined;
      if (metaValue(found.meta, markers.hash) === hash && !strayNag) {
        // Created, not skipped, when this connection sent its create and lost the answer: the
        // store carried the request out after all (a batch still running when it was looked for).
        outcomes[i] = !this.state.unanswered.customers.has(c.id)
          ? {
              sourceId: c.id,
              outcome: 'skipped',
              destinationId: String(found.id),
              reason: 'Already up to date.',
            }
          : { sourceId: c.id, outcome: 'created', destinationId: String(found.id) };
      } else {
        // The e-mail is the account's identity at WordPress and its user name cannot change.
        const { email: _email, username: _username, ...rest } = body;
        update.push({
          key: i,
          body: {
            id: found.id,
            ...rest,
            ...(strayNag
              ? { meta_data: [...(rest.meta_data as Json[]), { key: passwordNag, value: null }] }
              : {}),
          },
        });
      }
    };
    // After a failure that may have reached the store, what it created is among the newest
    // accounts: they are listed (newest first, a page at a time) and taken by marker and e-mail,
    // instead of one look-up per record; what is not found is sent again.
    const recover = async (ops: BatchOp[]) => {
      const pending = new Map(ops.map((op) => [(records[op.key] as Customer).id, op.key]));
      const found = new Map<number, unknown>();
      for (let page = 1; page <= recoverPages && pending.size > 0; page++) {
        const { items, totalPages } = await this.client.page(
          '/customers',
          { orderby: 'id', order: 'desc', per_page: pageSize, page, role: 'all' },
          wcCustomerSchema,
        );
        for (const customer of items) {
          const source = sourceIdOf(customer.meta_data, markers.sourceId);
          const key = source === undefined ? undefined : pending.get(source);
          if (key === undefined) continue;
          const c = records[key] as Customer;
          if (customer.email.toLowerCase() !== c.email.toLowerCase()) continue;
          found.set(key, customer);
          pending.delete(c.id);
        }
        if (page >= totalPages || items.length === 0) break;
      }
      for (const id of pending.keys()) this.state.unanswered.customers.add(id);
      return found;
    };
    // A write sent before without an answer (the store went down mid-batch): what it created is
    // found among the newest accounts first, so it is not sent again and refused one by one.
    const retried = records.flatMap((c, i) =>
      !existing.has(i) && this.state.unanswered.customers.has(c.id) ? [{ key: i, body: {} }] : [],
    );
    if (retried.length)
      for (const [key, item] of await recover(retried)) {
        const customer = wcCustomerSchema.safeParse(item);
        if (customer.success)
          existing.set(key, { id: customer.data.id, meta: customer.data.meta_data });
      }
    records.forEach((_, i) => {
      const found = existing.get(i);
      if (found) decide(i, found, true);
      else create.push({ key: i, body: withoutNag((bodies[i] as { body: Json }).body) });
    });

    const byEmail = async (c: Customer) => {
      const { items } = await this.client.page(
        '/customers',
        { email: c.email, role: 'all', per_page: 1 },
        wcCustomerSchema,
      );
      return items[0];
    };
    const first = await runBatch(this.client, '/customers/batch', { create, update: [] }, recover);
    // A user name taken at the destination: WordPress makes one from the e-mail instead.
    const renamed = [...first].filter(
      ([, r]) => !r.ok && r.error.code === 'registration-error-username-exists',
    );
    if (renamed.length) {
      const again = await runBatch(
        this.client,
        '/customers/batch',
        {
          create: renamed.map(([key]) => {
            const { username: _username, ...rest } = withoutNag(
              (bodies[key] as { body: Json }).body,
            );
            return { key, body: rest };
          }),
          update: [],
        },
        recover,
      );
      for (const [key] of renamed) {
        const c = records[key] as Customer;
        warnings[key]?.push(
          `The user name '${c.username}' is taken at the destination; WordPress made one from the e-mail instead.`,
        );
        const replacement = again.get(key);
        if (replacement) first.set(key, replacement);
      }
    }
    const taken: number[] = [];
    const nags: BatchOp[] = [];
    for (const [key, result] of first) {
      const c = records[key] as Customer;
      if (result.ok) {
        const customer = wcCustomerSchema.safeParse(result.item);
        if (!customer.success) {
          outcomes[key] = {
            sourceId: c.id,
            outcome: 'failed',
            reason: 'The store answered with something that is not a customer.',
          };
          continue;
        }
        outcomes[key] = {
          sourceId: c.id,
          outcome: 'created',
          destinationId: String(customer.data.id),
        };
        const hadNag = c.metafields.some(
          (m) => m.namespace === wooNamespace && m.key === passwordNag,
        );
        if (!hadNag && metaValue(customer.data.meta_data, passwordNag) !== undefined)
          nags.push({
            key,
            body: { id: customer.data.id, meta_data: [{ key: passwordNag, value: null }] },
          });
      } else if (result.error.code === 'registration-error-email-exists') taken.push(key);
      else outcomes[key] = { sourceId: c.id, outcome: 'failed', reason: errorText(result.error) };
    }
    for (const key of taken) {
      const c = records[key] as Customer;
      const found = await byEmail(c);
      if (!found) {
        outcomes[key] = {
          sourceId: c.id,
          outcome: 'failed',
          reason: `The e-mail ${c.email} is already used at the destination.`,
        };
        continue;
      }
      const marked = sourceIdOf(found.meta_data, markers.sourceId);
      decide(
        key,
        { id: found.id, meta: found.meta_data },
        marked === c.id ||
          // Sent unanswered and saved without our markers by a store that went down: the
          // account this run created.
          (marked === undefined &&
            this.state.unanswered.customers.has(c.id) &&
            this.state.madeDuringImport('customers', found.id)),
      );
    }
    const second = await runBatch(
      this.client,
      '/customers/batch',
      { create: [], update: [...update, ...nags.map((n) => ({ ...n, key: -1 - n.key }))] },
      async () => new Map(),
    );
    this.take(second, records, outcomes, update);
    return records.map((c, i) => {
      const current = outcomes[i] ?? {
        sourceId: c.id,
        outcome: 'failed',
        reason: 'The store did not answer for this customer.',
      };
      const list = warnings[i] ?? [];
      return list.length && current.outcome !== 'failed' ? { ...current, warnings: list } : current;
    });
  }

  private take(
    results: Map<number, BatchItemResult>,
    records: Customer[],
    outcomes: WriteOutcome[],
    update: BatchOp[],
  ) {
    for (const { key } of update) {
      const c = records[key] as Customer;
      const result = results.get(key);
      outcomes[key] = result?.ok
        ? {
            sourceId: c.id,
            outcome: 'updated',
            destinationId: String((result.item as { id: number }).id),
          }
        : {
            sourceId: c.id,
            outcome: 'failed',
            reason: result && !result.ok ? errorText(result.error) : 'no answer from the store',
          };
    }
  }
}
