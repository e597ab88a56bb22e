import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '@replatform/db/database';
import { newId } from '@replatform/db/migrations-repository';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface StoredMail {
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  createdAt: string;
}

export interface Mailer {
  readonly transport: 'smtp' | 'outbox';
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

/** Mail through the operator's SMTP server (SMTP_URL, e.g. smtps://user:pass@mail.example.com). */
export function smtpMailer(options: { url: string; from: string }): Mailer {
  const transport = nodemailer.createTransport(options.url);
  return {
    transport: 'smtp',
    async send(mail) {
      await transport.sendMail({ from: options.from, ...mail });
    },
    close: () => transport.close(),
  };
}

/**
 * With no SMTP server configured, mail is kept in the database so password reset works with no
 * set-up: the operator reads it with `npm run outbox` (or GET /api/dev/outbox outside production,
 * on a loopback interface). Only the fact that a mail was stored is logged, never its body: reset links are
 * secrets.
 */
export function outboxMailer(db: Db, log: FastifyBaseLogger): Mailer {
  return {
    transport: 'outbox',
    async send(mail) {
      const id = newId();
      await db.kysely
        .insertInto('mail_outbox')
        .values({
          id,
          to_address: mail.to.trim().toLowerCase(),
          subject: mail.subject,
          text_body: mail.text,
          html_body: mail.html,
          created_at: new Date().toISOString(),
        })
        .execute();
      log.info(
        { mailId: id, subject: mail.subject },
        'mail stored in the outbox (no SMTP_URL): read it with `npm run outbox`',
      );
    },
    close: () => {},
  };
}

/** The newest stored mails, optionally only those to one address. */
export async function readOutbox(db: Db, to?: string, limit = 20): Promise<StoredMail[]> {
  let query = db.kysely
    .selectFrom('mail_outbox')
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(limit);
  if (to) query = query.where('to_address', '=', to.trim().toLowerCase());
  const rows = await query.execute();
  return rows.map((r) => ({
    id: r.id,
    to: r.to_address,
    subject: r.subject,
    text: r.text_body,
    html: r.html_body,
    createdAt: r.created_at,
  }));
}

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

function layout(paragraphs: string[], action?: { label: string; url: string }): string {
  const body = paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n');
  const button = action
    ? `<p><a href="${escapeHtml(action.url)}" style="display:inline-block;padding:10px 18px;background:#4f46e5;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(action.label)}</a></p>`
    : '';
  return `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#0f172a">${body}${button}</body></html>`;
}

export function passwordResetMail(options: {
  to: string;
  name: string | null;
  url: string;
  expiresInMinutes: number;
}): OutgoingMail {
  const greeting = options.name ? `Hello ${options.name},` : 'Hello,';
  const lines = [
    greeting,
    'Someone asked to reset the password of your Replatform account. If it was you, choose a new password with the link below.',
    `The link works once and expires in ${options.expiresInMinutes} minutes.`,
    'If you did not ask for this, ignore this e-mail: your password stays as it is.',
  ];
  return {
    to: options.to,
    subject: 'Reset your Replatform password',
    text: `${lines.slice(0, 2).join('\n\n')}\n\n${options.url}\n\n${lines.slice(2).join('\n\n')}\n`,
    html: layout(lines, { label: 'Choose a new password', url: options.url }),
  };
}

export function emailChangedMail(options: { to: string; newEmail: string }): OutgoingMail {
  const lines = [
    'Hello,',
    `The e-mail address of your Replatform account was changed to ${options.newEmail}.`,
    'If you did not make this change, reply to this e-mail or contact support right away.',
  ];
  return {
    to: options.to,
    subject: 'Your Replatform e-mail address was changed',
    text: `${lines.join('\n\n')}\n`,
    html: layout(lines),
  };
}

/** The link that finishes a new account: it confirms the address and signs the owner in. */
export function confirmAddressMail(options: {
  to: string;
  name: string | null;
  url: string;
  expiresInHours: number;
}): OutgoingMail {
  const greeting = options.name ? `Hello ${options.name},` : 'Hello,';
  const lines = [
    greeting,
    'Confirm your e-mail address to finish creating your Replatform account. The link below signs you in.',
    `It expires in ${options.expiresInHours} hours.`,
    'If you did not sign up, ignore this e-mail: no account is created without this confirmation.',
  ];
  return {
    to: options.to,
    subject: 'Confirm your e-mail address for Replatform',
    text: `${lines.slice(0, 2).join('\n\n')}\n\n${options.url}\n\n${lines.slice(2).join('\n\n')}\n`,
    html: layout(lines, { label: 'Confirm and sign in', url: options.url }),
  };
}

/**
 * Sent instead of a second account when someone signs up with an address that already has one:
 * the sign-up answers the same either way, and only the owner of the address learns more.
 */
export function existingAccountMail(options: {
  to: string;
  name: string | null;
  signInUrl: string;
  resetUrl: string;
}): OutgoingMail {
  const greeting = options.name ? `Hello ${options.name},` : 'Hello,';
  const lines = [
    greeting,
    'Someone tried to create a Replatform account with this e-mail address, which already has one. No second account was created.',
    `If it was you, sign in at ${options.signInUrl}, or choose a new password at ${options.resetUrl} if you have forgotten it.`,
    'If it was not you, ignore this e-mail: your account is unchanged.',
  ];
  return {
    to: options.to,
    subject: 'You already have a Replatform account',
    text: `${lines.join('\n\n')}\n`,
    html: layout(lines, { label: 'Sign in', url: options.signInUrl }),
  };
}
