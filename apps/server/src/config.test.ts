import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from './config.ts';

describe('configuration', () => {
  it('has working defaults for the embedded setup', () => {
    const config = parseConfig({});
    expect(config.port).toBe(4001);
    expect(config.host).toBe('127.0.0.1');
    expect(config.publicUrl).toBe('http://localhost:4001');
    expect(config.sqlitePath).toMatch(/data[/\\]replatform\.sqlite$/);
    expect(config.databaseUrl).toBeUndefined();
  });

  it('lists every problem at once', () => {
    try {
      parseConfig({
        PORT: 'abc',
        DATABASE_URL: 'mysql://x',
        LOG_LEVEL: 'loud',
        PUBLIC_URL: 'ftp://x',
      });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const problems = (error as ConfigError).problems.join('\n');
      expect(problems).toMatch(/PORT/);
      expect(problems).toMatch(/DATABASE_URL/);
      expect(problems).toMatch(/LOG_LEVEL/);
      expect(problems).toMatch(/PUBLIC_URL/);
    }
  });

  it('treats empty values as unset and trims the public URL', () => {
    expect(parseConfig({ PORT: '', PUBLIC_URL: 'https://migrate.example.com/' }).publicUrl).toBe(
      'https://migrate.example.com',
    );
  });
});
