import { PassThrough } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { chooseLogFormat, textLogStream } from './log-format.ts';
import { loggerOptions } from './logger.ts';

describe('log format', () => {
  it('is readable in a terminal and JSON lines otherwise, unless LOG_FORMAT says', () => {
    expect(chooseLogFormat({ isTTY: true, requested: undefined })).toBe('text');
    expect(chooseLogFormat({ isTTY: false, requested: undefined })).toBe('json');
    expect(chooseLogFormat({ isTTY: undefined, requested: undefined })).toBe('json');
    expect(chooseLogFormat({ isTTY: true, requested: 'json' })).toBe('json');
    expect(chooseLogFormat({ isTTY: false, requested: 'text' })).toBe('text');
  });

  it('prints one line per request, with method, path, status and time, and secrets redacted', async () => {
    const out = new PassThrough();
    let text = '';
    out.on('data', (chunk: Buffer) => (text += chunk.toString()));
    const app = Fastify({ logger: { ...loggerOptions('info'), stream: textLogStream(out) } });
    app.get('/api/migrations', async (request) => {
      request.log.info({ password: 'hunter2-plain', store: 'Books' }, 'listing migrations');
      return [];
    });
    app.get('/broken', async () => {
      throw new Error('the database went away');
    });
    await app.ready();
    await app.inject({ url: '/api/migrations?code=oauth-code-value' });
    await app.inject({ url: '/broken', headers: { authorization: 'Bearer bearer-value' } });
    await app.close();

    const lines = text.trim().split('\n');
    expect(lines[0]).toBe('info: listing migrations {"password":"[redacted]","store":"Books"}');
    expect(lines[1]).toMatch(/^GET \/api\/migrations 200 \d+ ms$/);
    expect(lines.filter((l) => /^GET \/broken 500 \d+ ms$/.test(l))).toHaveLength(1);
    expect(text).toContain('error: the database went away');
    // One line per request: their starts are not printed.
    expect(lines.filter((l) => l.startsWith('GET '))).toHaveLength(2);
    expect(text).not.toContain('incoming request');
    for (const secret of ['hunter2-plain', 'oauth-code-value', 'bearer-value']) {
      expect(text).not.toContain(secret);
    }
  });
});
