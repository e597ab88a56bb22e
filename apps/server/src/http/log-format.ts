import { Writable } from 'node:stream';

export type LogFormat = 'json' | 'text';

/**
 * JSON lines for log collectors (stdout piped or redirected, or `LOG_FORMAT=json`); one readable
 * line per request for a person watching a terminal (`LOG_FORMAT=text` forces it).
 */
export function chooseLogFormat(options: {
  isTTY: boolean | undefined;
  requested: LogFormat | undefined;
}): LogFormat {
  return options.requested ?? (options.isTTY ? 'text' : 'json');
}

const levelNames: Record<number, string> = {
  10: 'trace',
  20: 'debug',
  30: 'info',
  40: 'warn',
  50: 'error',
  60: 'fatal',
};

// Fields every pino line has, or that the readable line already says.
const shown = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'reqId', 'req', 'res']);

/** Requests whose start was seen but not their end; bounded in case an end never comes. */
const maxOpenRequests = 1000;

interface Entry {
  level?: number;
  msg?: string;
  reqId?: string;
  req?: { method?: string; path?: string };
  res?: { statusCode?: number };
  responseTime?: number;
  err?: { message?: string; stack?: string };
  [key: string]: unknown;
}

/**
 * Turns pino's JSON lines (already redacted by the logger's options, so no secret reaches it)
 * into readable ones: `GET /api/migrations 200 12 ms` when a request completes (its start is
 * not printed), `warn: message {fields}` for everything else.
 */
export class TextLogFormatter {
  readonly #open = new Map<string, string>();

  format(line: string): string | undefined {
    let entry: Entry;
    try {
      entry = JSON.parse(line) as Entry;
    } catch {
      return line;
    }
    if (entry.msg === 'incoming request' && entry.reqId && entry.req) {
      if (this.#open.size >= maxOpenRequests) {
        const oldest = this.#open.keys().next().value;
        if (oldest !== undefined) this.#open.delete(oldest);
      }
      this.#open.set(entry.reqId, `${entry.req.method ?? '?'} ${entry.req.path ?? '?'}`);
      return undefined;
    }
    if (entry.msg === 'request completed' && entry.reqId) {
      const request = this.#open.get(entry.reqId) ?? 'request';
      this.#open.delete(entry.reqId);
      const ms = Math.round(entry.responseTime ?? 0);
      return `${request} ${entry.res?.statusCode ?? '?'} ${ms} ms`;
    }
    const level = levelNames[entry.level ?? 30] ?? 'info';
    const rest = Object.fromEntries(
      Object.entries(entry).filter(([key]) => !shown.has(key) && key !== 'err'),
    );
    const fields = Object.keys(rest).length ? ` ${JSON.stringify(rest)}` : '';
    const error = entry.err ? `\n${entry.err.stack ?? entry.err.message ?? ''}` : '';
    return `${level}: ${entry.msg ?? ''}${fields}${error}`;
  }
}

/** A stream for pino that writes readable lines to `out`. */
export function textLogStream(out: NodeJS.WritableStream): Writable {
  const formatter = new TextLogFormatter();
  let pending = '';
  return new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        if (!line) continue;
        const text = formatter.format(line);
        if (text !== undefined) out.write(`${text}\n`);
      }
      done();
    },
  });
}
