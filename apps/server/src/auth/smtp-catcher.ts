import { SMTPServer } from 'smtp-server';

export interface CaughtMail {
  from: string;
  to: string[];
  /** The raw message as received (headers and body). */
  raw: string;
  /** The body with quoted-printable soft line breaks and escapes undone. */
  text: string;
}

function decodeQuotedPrintable(value: string): string {
  const joined = value.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const hex = joined[i] === '=' ? joined.slice(i + 1, i + 3) : '';
    if (/^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(joined[i] ?? ''));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/**
 * A real SMTP server on 127.0.0.1 for tests (no TLS, no auth): the server under test is started
 * with SMTP_URL=smtp://127.0.0.1:<port> and the test waits for the mail to arrive here.
 */
export async function startSmtpCatcher(): Promise<{
  url: string;
  mails: CaughtMail[];
  /** The newest mail to `to` (whose raw text matches `matching`, when given). */
  waitFor(to: string, timeoutMs?: number, matching?: RegExp): Promise<CaughtMail>;
  close(): Promise<void>;
}> {
  const mails: CaughtMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          raw,
          text: decodeQuotedPrintable(raw),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    async waitFor(to, timeoutMs = 10_000, matching) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = mails.findLast(
          (m) => m.to.includes(to.toLowerCase()) && (!matching || matching.test(m.raw)),
        );
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The first link in a mail that points at `base`. */
export function linkIn(mail: CaughtMail, base: string): string {
  const escaped = base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = mail.text.match(new RegExp(`${escaped}[^\\s"<>]+`));
  if (!match) throw new Error(`no link to ${base} in the mail`);
  return match[0].replaceAll('&amp;', '&');
}
