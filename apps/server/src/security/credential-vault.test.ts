import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CredentialVault, loadVaultKey, mask } from './credential-vault.ts';

describe('credential vault', () => {
  const vault = new CredentialVault(randomBytes(32));
  const secret = { consumerKey: 'ck_live_abcdef123456', consumerSecret: 'cs_live_zyxw9876' };

  it('seals so that the plaintext is nowhere in the stored value, and opens it again', () => {
    const sealed = vault.seal(secret, 'migration-1:source');
    expect(sealed).not.toContain('ck_live');
    expect(sealed).not.toContain(Buffer.from('ck_live').toString('base64'));
    expect(vault.open(sealed, 'migration-1:source')).toEqual(secret);
    expect(vault.seal(secret, 'migration-1:source')).not.toBe(sealed);
  });

  it('refuses a value moved to another migration or side, tampered with, or sealed with another key', () => {
    const sealed = vault.seal(secret, 'migration-1:source');
    expect(() => vault.open(sealed, 'migration-2:source')).toThrow();
    expect(() => vault.open(sealed, 'migration-1:destination')).toThrow();
    const parts = sealed.split('.');
    parts[4] = `A${parts[4]?.slice(1)}`;
    expect(() => vault.open(parts.join('.'), 'migration-1:source')).toThrow();
    expect(() => new CredentialVault(randomBytes(32)).open(sealed, 'migration-1:source')).toThrow(
      /another key/,
    );
  });

  it('generates a private key file once and reuses it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'vault-'));
    const keyFile = join(dir, 'keys', 'credentials.key');
    const first = loadVaultKey({ keyFile });
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(loadVaultKey({ keyFile })).toEqual(first);
    expect(readFileSync(keyFile, 'utf8').trim()).toBe(first.toString('base64'));
    const configured = randomBytes(32);
    expect(loadVaultKey({ keyFile, configuredKey: configured.toString('base64') })).toEqual(
      configured,
    );
    expect(() => loadVaultKey({ keyFile, configuredKey: 'c2hvcnQ=' })).toThrow(/32 bytes/);
  });

  it('masks secrets to their last four characters', () => {
    expect(mask('cs_live_zyxw9876')).toBe('••••••9876');
    expect(mask('short')).toBe('••••••');
    expect(mask('')).toBeUndefined();
  });
});
