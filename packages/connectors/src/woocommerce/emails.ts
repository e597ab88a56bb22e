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

export class EmailSwitch {
  private readonly client: WooClient;
  /** E-mails this connection switched off, to be switched on again. */
  private switchedOff: string[] = [];

  constructor(client: WooClient) {
    this.client = client;
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

  async switchOff(): Promise<string[]> {
    const lines: string[] = [];
    for (const [id, title] of Object.entries(importEmails)) {
      const value = await this.enabled(id);
      if (value !== 'yes') continue;
      await this.set(id, 'no');
      this.switchedOff.push(id);
      lines.push(`Switched off the WooCommerce e-mail "${title}" for the import.`);
    }
    if (!lines.length)
      lines.push('No WooCommerce order or account e-mail was switched on; nothing to switch off.');
    return lines;
  }

  async restore(): Promise<string[]> {
    const lines: string[] = [];
    const failed: string[] = [];
    for (const id of this.switchedOff) {
      try {
        await this.set(id, 'yes');
        lines.push(`Switched the WooCommerce e-mail "${importEmails[id] ?? id}" back on.`);
      } catch {
        failed.push(id);
        lines.push(
          `Could not switch the WooCommerce e-mail "${importEmails[id] ?? id}" back on: please switch it on under WooCommerce > Settings > Emails.`,
        );
      }
    }
    this.switchedOff = failed;
    return lines;
  }
}
