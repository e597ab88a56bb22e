import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { ImportOptions } from '../kit/contract.ts';
import { ConnectorError } from '../kit/errors.ts';
import type { WooClient } from './client.ts';
import { wcSettingSchema } from './wc-schemas.ts';

/**
 * Imported orders and accounts must not e-mail anyone: WooCommerce sends an order's status
 * e-mails when the API creates it with that status, and a new-account e-mail for every customer.
 * Before an import each of these e-mails that is switched on is switched off through the settings
 * API (`PUT /settings/email_<id>/enabled`, route `/settings/(?P<group_id>)/(?P<id>)` of the index),
 * and afterwards exactly those are switched back on. E-mails a store does not have (older
 * WooCommerce) answer 404 and are left alone.
 *
 * What was switched off is recorded on the store itself before anything is switched, so that it
 * is switched back on whatever happens to the process: wc/v3 has no place for an integration's
 * own settings, so the record is the meta data of a coupon worth nothing that expired long ago
 * (so it never applies at checkout; published, because WooCommerce finds coupons by code only
 * then; its description says what it is, under Marketing > Coupons). Each import has its own
 * meta key holding the e-mails it switched off and when it was last active, so concurrent imports
 * never overwrite each other's record. An import that finishes while another one into the same
 * store is still active leaves the e-mails off for that one; the last one to finish switches on
 * everything any of them switched off and deletes the coupon. An import that stopped being active
 * (crashed) counts as finished once it has been silent for `staleAfterMs`, or, for an import that
 * started after it went silent, for two marking intervals; one that resumes with the same runId
 * takes its record over at once.
 */

export const importEmails: Record<string, string> = {
  new_order: 'New order (to the shop)',
  cancelled_order: 'Cancelled order (to the shop)',
  failed_order: 'Failed order (to the shop)',
  customer_on_hold_order: 'Order on-hold',
  customer_processing_order: 'Processing order',
  customer_completed_order: 'Completed order',
  customer_refunded_order: 'Refunded order',
  customer_cancelled_order: 'Cancelled order',
  customer_failed_order: 'Failed order',
  customer_invoice: 'Order details',
  customer_note: 'Customer note',
  customer_new_account: 'New account',
};

/** Code of the draft coupon that holds the record. */
export const switchCouponCode = 'replatform-import-email-switch';
const runKeyPrefix = '_replatform_import_';

export interface EmailSwitchOptions {
  /** Silence after which an import that did not finish counts as gone. Default 3 minutes. */
  staleAfterMs?: number;
  /** How often an import marks itself active while it writes. Default 30 s. */
  beatEveryMs?: number;
  now?: () => number;
}

const couponSchema = z.looseObject({
  id: z.number().int(),
  code: z.string(),
  meta_data: z.array(z.looseObject({ key: z.string(), value: z.unknown() })).catch([]),
});

/** One import's entry: the e-mails it switched off, and when it was last active (0: finished). */
interface RunRecord {
  off: string[];
  beat: number;
}

const runRecordSchema = z.object({
  off: z.array(z.string()).catch([]),
  beat: z.number().catch(0),
});

const title = (id: string) => `"${importEmails[id] ?? id}"`;

export class EmailSwitch {
  private readonly client: WooClient;
  private readonly staleAfterMs: number;
  private readonly beatEveryMs: number;
  private readonly now: () => number;
  /** This connection's import, once prepareImport ran. */
  private runKey: string | undefined;
  /** Whether switchOff found this import's record left by a run that did not finish. */
  interrupted = false;
  private switched: string[] = [];
  private lastBeat = 0;
  private startedAt: number | undefined;

  constructor(client: WooClient, options: EmailSwitchOptions = {}) {
    this.client = client;
    this.staleAfterMs = options.staleAfterMs ?? 180_000;
    this.beatEveryMs = options.beatEveryMs ?? 30_000;
    this.now = options.now ?? Date.now;
  }

  private keyOf(runId: string | undefined): string {
    const id = (runId ?? randomUUID()).replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 100);
    return `${runKeyPrefix}${id}`;
  }

  private async enabled(id: string): Promise<string | undefined> {
    try {
      const { data } = await this.client.get(`/settings/email_${id}/enabled`, {}, wcSettingSchema);
      return typeof data.value === 'string' ? data.value : undefined;
    } catch (error) {
      if (error instanceof ConnectorError && error.status === 404) return undefined;
      throw error;
    }
  }

  private set(id: string, value: 'yes' | 'no') {
    // Setting a value is idempotent, so the request may be repeated after a transient failure.
    return this.client.request('PUT', `/settings/email_${id}/enabled`, {
      body: { value },
      retryable: true,
      schema: wcSettingSchema,
    });
  }

  /** The record coupon and every import's entry on it. */
  private async load(): Promise<{ id: number | undefined; runs: Map<string, RunRecord> }> {
    const { data } = await this.client.get(
      '/coupons',
      { code: switchCouponCode, per_page: 1 },
      z.array(couponSchema),
    );
    const coupon = data.find((c) => c.code === switchCouponCode);
    const runs = new Map<string, RunRecord>();
    for (const meta of coupon?.meta_data ?? []) {
      if (!meta.key.startsWith(runKeyPrefix) || meta.value === '' || meta.value === null) continue;
      try {
        const parsed = runRecordSchema.safeParse(JSON.parse(String(meta.value)));
        if (parsed.success) runs.set(meta.key, parsed.data);
      } catch {
        // Not ours to understand; left as it is.
      }
    }
    return { id: coupon?.id, runs };
  }

  /** Writes this import's entry (only its own meta key), creating the coupon when needed. */
  private async record(
    id: number | undefined,
    key: string,
    entry: RunRecord | null,
  ): Promise<number> {
    const meta_data = [{ key, value: entry ? JSON.stringify(entry) : '' }];
    if (id !== undefined) {
      await this.client.request('PUT', `/coupons/${id}`, {
        body: { meta_data },
        retryable: true,
        schema: couponSchema,
      });
      return id;
    }
    // Published, because WooCommerce finds coupons by code only when they are; expired long
    // ago and worth nothing, so it never applies at checkout.
    const body = {
      code: switchCouponCode,
      status: 'publish',
      amount: '0',
      discount_type: 'fixed_cart',
      // With its offset: WooCommerce 11 ignores date_expires_gmt on writes.
      date_expires: '2000-01-01T00:00:00Z',
      description:
        'Kept by Replatform while an import runs: which WooCommerce e-mails the import switched off, so that they are switched back on when it finishes, also after an interruption. Deleted when the last import finishes.',
      meta_data,
    };
    for (let attempt = 0; ; attempt++) {
      try {
        const { data } = await this.client.request('POST', '/coupons', {
          body,
          retryable: false,
          schema: couponSchema,
        });
        return data.id;
      } catch (error) {
        if (!(error instanceof ConnectorError) || error.errorClass === 'config') throw error;
        // The code is unique: a create that reached the store, or another import's, is found
        // by it (a second create would only be refused), and this entry is added to it.
        const again = await this.load();
        if (again.id !== undefined) return this.record(again.id, key, entry);
        if (error.errorClass !== 'transient' || attempt >= 4) throw error;
        await this.client.pause(attempt, error.retryAfterMs);
      }
    }
  }

  /**
   * Other imports that count as active: finished ones do not, nor ones silent for staleAfterMs.
   * Given `since` (when this import started), nor ones silent since well before that: an active
   * import marks itself every beatEveryMs while it writes, so one whose last mark is older than
   * this import by two intervals is the one this import resumes after a crash.
   */
  private live(runs: Map<string, RunRecord>, except: string, since?: number): string[] {
    const now = this.now();
    return [...runs]
      .filter(
        ([key, r]) =>
          key !== except &&
          r.beat > 0 &&
          now - r.beat < this.staleAfterMs &&
          (since === undefined || r.beat >= since - 2 * this.beatEveryMs),
      )
      .map(([key]) => key);
  }

  async switchOff(options: ImportOptions = {}): Promise<string[]> {
    const key = this.keyOf(options.runId);
    this.runKey = key;
    this.startedAt = this.now();
    const { id, runs } = await this.load();
    const mine = runs.get(key);
    this.interrupted = mine !== undefined;
    const others = this.live(runs, key);
    const states = await Promise.all(
      Object.keys(importEmails).map(async (email) => [email, await this.enabled(email)] as const),
    );
    const on = states.filter(([, value]) => value === 'yes').map(([email]) => email);
    const earlier = [
      ...new Set([...runs].filter(([k]) => k !== key).flatMap(([, r]) => r.off)),
    ].filter((email) => !on.includes(email));
    this.switched = [...new Set([...(mine?.off ?? []), ...on])];
    // Recorded before anything is switched: a crash in between leaves a record of e-mails that
    // are still on, and switching those "back on" later changes nothing.
    await this.record(id, key, { off: this.switched, beat: this.now() });
    this.lastBeat = this.now();
    const lines: string[] = [];
    for (const email of on) {
      await this.set(email, 'no');
      lines.push(`Switched off the WooCommerce e-mail ${title(email)} for the import.`);
    }
    for (const email of (mine?.off ?? []).filter((e) => !on.includes(e)))
      lines.push(
        `The WooCommerce e-mail ${title(email)} was still switched off by this import's interrupted run; it is switched back on when the import finishes.`,
      );
    for (const email of earlier.filter((e) => !mine?.off.includes(e)))
      lines.push(
        `The WooCommerce e-mail ${title(email)} was still switched off by ${others.length ? 'another import into this store' : 'an earlier import that did not finish'}; it is switched back on when the last import finishes.`,
      );
    if (others.length)
      lines.push(
        `Another import into this store is running; the e-mails are switched back on when the last one finishes.`,
      );
    if (!on.length && !earlier.length && !mine?.off.length)
      lines.push('No WooCommerce order or account e-mail was switched on; nothing to switch off.');
    else
      lines.push(
        `Until then the list is kept on the store, in the expired coupon "${switchCouponCode}" (Marketing > Coupons).`,
      );
    return lines;
  }

  /**
   * The owner chose to let WooCommerce send its own e-mails (notifyCustomers): nothing is switched
   * off. What an interrupted run of this import switched off is switched back on first (unless
   * another import still needs it off), and the lines say which e-mails the store will send for
   * the records written, and which it will not because they are off in its settings.
   */
  async leaveOn(options: ImportOptions = {}): Promise<string[]> {
    const key = this.keyOf(options.runId);
    const { runs } = await this.load();
    const mine = runs.get(key);
    this.interrupted = mine !== undefined;
    const lines: string[] = [];
    if (mine) lines.push(...(await this.restore(options)));
    const after = mine ? (await this.load()).runs : runs;
    const heldOff = new Set(this.live(after, key).flatMap((k) => after.get(k)?.off ?? []));
    const states = await Promise.all(
      Object.keys(importEmails).map(async (email) => [email, await this.enabled(email)] as const),
    );
    const on = states.filter(([, v]) => v === 'yes').map(([email]) => email);
    const off = states.filter(([e, v]) => v === 'no' && !heldOff.has(e)).map(([email]) => email);
    lines.push(
      on.length
        ? `WooCommerce's e-mails were left switched on, as chosen: the store sends ${on.map(title).join(', ')} for the orders and accounts written, as for new ones.`
        : 'WooCommerce sends no order or account e-mail: every one is switched off in its settings.',
    );
    if (off.length)
      lines.push(
        `Switched off in the store's settings, so not sent: ${off.map(title).join(', ')}.`,
      );
    if (heldOff.size)
      lines.push(
        `Another import into this store keeps ${[...heldOff].map(title).join(', ')} switched off until it finishes; records written meanwhile get no such e-mail.`,
      );
    return lines;
  }

  /** Marks this import active on the store; called while it writes, at most every beatEveryMs. */
  async beat(): Promise<void> {
    if (!this.runKey || this.now() - this.lastBeat < this.beatEveryMs) return;
    this.lastBeat = this.now();
    try {
      const { id } = await this.load();
      await this.record(id, this.runKey, { off: this.switched, beat: this.now() });
    } catch {
      // A missed beat only makes another import's finish wait less; the writes go on.
    }
  }

  async restore(options: ImportOptions = {}): Promise<string[]> {
    const key = options.runId !== undefined ? this.keyOf(options.runId) : this.runKey;
    this.runKey = undefined;
    const { id, runs } = await this.load();
    if (id === undefined) {
      return this.switched.length
        ? [
            `The record of the e-mails this import switched off was missing from the store; please check that ${this.switched.map(title).join(', ')} are switched on under WooCommerce > Settings > Emails.`,
          ]
        : ['No WooCommerce e-mail was switched off for the import; nothing to switch back on.'];
    }
    const others = this.live(runs, key ?? '', this.startedAt);
    if (others.length) {
      const mine = key ? (runs.get(key)?.off ?? []) : [];
      if (key) await this.record(id, key, { off: mine, beat: 0 });
      const all = [...new Set([...runs.values()].flatMap((r) => r.off))];
      return [
        `Left the WooCommerce e-mails ${all.map(title).join(', ') || '(none)'} switched off: another import into this store is still running and switches them back on when it finishes.`,
      ];
    }
    const all = [...new Set([...runs.values()].flatMap((r) => r.off))];
    const lines: string[] = [];
    const failed: string[] = [];
    for (const email of all) {
      try {
        await this.set(email, 'yes');
        lines.push(`Switched the WooCommerce e-mail ${title(email)} back on.`);
      } catch {
        failed.push(email);
        lines.push(
          `Could not switch the WooCommerce e-mail ${title(email)} back on: please switch it on under WooCommerce > Settings > Emails.`,
        );
      }
    }
    if (failed.length) {
      // Kept for the next import to finish, which tries again.
      await this.record(id, key ?? this.keyOf(undefined), { off: failed, beat: 0 }).catch(
        () => undefined,
      );
      for (const k of runs.keys())
        if (k !== key) await this.record(id, k, null).catch(() => undefined);
    } else {
      await this.client
        .request('DELETE', `/coupons/${id}`, {
          query: { force: true },
          retryable: true,
          schema: z.unknown(),
        })
        .catch((error: unknown) => {
          // Gone already (a concurrent finish, or deleted by hand): nothing left to clean up.
          if (!(error instanceof ConnectorError && error.status === 404)) throw error;
        });
    }
    if (!all.length)
      lines.push(
        'No WooCommerce e-mail was switched off for the import; nothing to switch back on.',
      );
    this.switched = failed;
    return lines;
  }
}
