import type { FastifyInstance } from 'fastify';
import type { OutgoingMail } from '../../auth/mailer.ts';
import type { Config } from '../../config.ts';

/** Where copies of contact messages and quote requests go (OPERATOR_EMAIL); unset: only stored. */
export function operatorEmailOf(config: Config): string | undefined {
  return config.operatorEmail;
}

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** A plain mail of labelled fields and a free-text body, every value escaped in the HTML part. */
export function operatorMail(options: {
  to: string;
  subject: string;
  intro: string;
  fields: Array<[label: string, value: string]>;
  body?: string;
}): OutgoingMail {
  const shown = options.fields.filter(([, value]) => value.trim() !== '');
  const text = [
    options.intro,
    '',
    ...shown.map(([label, value]) => `${label}: ${value}`),
    ...(options.body ? ['', options.body] : []),
    '',
  ].join('\n');
  const rows = shown
    .map(
      ([label, value]) =>
        `<tr><th align="left" style="padding:2px 12px 2px 0">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`,
    )
    .join('');
  const body = options.body
    ? `<p style="white-space:pre-wrap">${escapeHtml(options.body)}</p>`
    : '';
  return {
    to: options.to,
    // Header injection is impossible through nodemailer, but keep subjects on one line anyway.
    subject: options.subject.replace(/[\r\n]+/g, ' '),
    text,
    html: `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#0f172a"><p>${escapeHtml(options.intro)}</p><table>${rows}</table>${body}</body></html>`,
  };
}

/**
 * Sends the operator's copy after the request is answered, so a slow or failing mail server never
 * delays or fails what the visitor sent (it is stored already). `onSent` records the delivery.
 * Mails still in flight are awaited before the app closes its database.
 */
export function mailOperatorInBackground(
  app: FastifyInstance,
  build: (to: string) => OutgoingMail,
  onSent: () => Promise<void>,
  what: { kind: string; id: string },
): void {
  const to = operatorEmailOf(app.services.config);
  if (!to) return;
  const pending = inFlight(app);
  const job = (async () => {
    try {
      await app.services.auth.mailer.send(build(to));
      await onSent();
    } catch (error) {
      // Only ids are logged: the message itself may hold personal details.
      app.log.error({ err: error, ...what }, 'could not e-mail the operator');
    }
  })();
  pending.add(job);
  void job.finally(() => pending.delete(job));
}

// Keyed by the services object, which every encapsulated plugin instance of one app shares.
const pendingByApp = new WeakMap<object, Set<Promise<void>>>();

function inFlight(app: FastifyInstance): Set<Promise<void>> {
  let pending = pendingByApp.get(app.services);
  if (!pending) {
    pending = new Set();
    pendingByApp.set(app.services, pending);
  }
  return pending;
}

/** Resolves once every operator mail started so far has been sent or has failed. */
export async function operatorMailsSettled(app: FastifyInstance): Promise<void> {
  const pending = pendingByApp.get(app.services);
  while (pending?.size) await Promise.allSettled([...pending]);
}
