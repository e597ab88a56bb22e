import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from './app.ts';
import { parseConfig } from './config.ts';

const mode = (path: string) => statSync(path).mode & 0o777;

describe('local data files', () => {
  const parent = mkdtempSync(join(tmpdir(), 'replatform-files-'));
  afterAll(() => rmSync(parent, { recursive: true, force: true }));

  it('creates the SQLite file and the keys folder readable by their owner only', async () => {
    const previous = process.umask(0o022);
    const dataDir = join(parent, 'data');
    try {
      const app = await buildApp(
        parseConfig({
          NODE_ENV: 'test',
          LOG_LEVEL: 'silent',
          DATA_DIR: dataDir,
          SANDBOX_STORES: 'false',
        }),
      );
      await app.ready();
      const database = join(dataDir, 'replatform.sqlite');
      expect(mode(database).toString(8)).toBe('600');
      for (const companion of ['-wal', '-shm']) {
        if (existsSync(`${database}${companion}`))
          expect(mode(`${database}${companion}`).toString(8)).toBe('600');
      }
      expect(mode(dataDir).toString(8)).toBe('700');
      expect(mode(join(dataDir, 'keys')).toString(8)).toBe('700');
      for (const key of ['auth-secret', 'credentials.key'])
        expect(mode(join(dataDir, 'keys', key)).toString(8)).toBe('600');
      await app.close();
    } finally {
      process.umask(previous);
    }
  });
});
