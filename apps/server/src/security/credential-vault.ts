import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  hkdfSync,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';
import { dirname } from 'node:path';
import { ownerOnlyFolder } from './owner-only.ts';

/**
 * Store credentials are sealed with AES-256-GCM before they reach the database. The additional
 * authenticated data binds a sealed value to its migration and side, so a value copied to another
 * row does not open. Format: `v1.<key id>.<iv>.<tag>.<ciphertext>` (base64url parts).
 */
export class CredentialVault {
  readonly #key: Buffer;
  readonly #keyId: string;

  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error('The credential key must be 32 bytes.');
    this.#key = key;
    this.#keyId = createHash('sha256').update(key).digest('base64url').slice(0, 8);
  }

  seal(plain: unknown, context: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    cipher.setAAD(Buffer.from(context));
    const body = Buffer.concat([cipher.update(JSON.stringify(plain), 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return [
      'v1',
      this.#keyId,
      iv.toString('base64url'),
      tag.toString('base64url'),
      body.toString('base64url'),
    ].join('.');
  }

  /**
   * A MAC over `data` with a key derived for `purpose`, so short-lived signed values (e.g. OAuth
   * state cookies) need no extra secret and cannot be confused with sealed credentials.
   */
  mac(purpose: string, data: string): string {
    const key = Buffer.from(
      hkdfSync('sha256', this.#key, Buffer.alloc(0), `replatform:${purpose}`, 32),
    );
    return createHmac('sha256', key).update(data).digest('base64url');
  }

  verifyMac(purpose: string, data: string, mac: string): boolean {
    const expected = Buffer.from(this.mac(purpose, data));
    const given = Buffer.from(mac);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }

  open(sealed: string, context: string): unknown {
    const [version, keyId, iv, tag, body] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || body === undefined)
      throw new Error('Unreadable sealed credentials.');
    if (keyId !== this.#keyId) throw new Error('Credentials were sealed with another key.');
    const decipher = createDecipheriv('aes-256-gcm', this.#key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    const plain = Buffer.concat([
      decipher.update(Buffer.from(body, 'base64url')),
      decipher.final(),
    ]);
    return JSON.parse(plain.toString('utf8'));
  }
}

/**
 * The key comes from ENCRYPTION_KEY (base64, 32 bytes) or, in the embedded default, from a key
 * file generated on first start beside (never inside) the database file, readable by the owner only.
 */
export function loadVaultKey(options: {
  configuredKey?: string | undefined;
  keyFile: string;
}): Buffer {
  if (options.configuredKey) {
    const key = Buffer.from(options.configuredKey, 'base64');
    if (key.length !== 32) throw new Error('ENCRYPTION_KEY must be 32 bytes encoded as base64.');
    return key;
  }
  if (existsSync(options.keyFile)) {
    const key = Buffer.from(readFileSync(options.keyFile, 'utf8').trim(), 'base64');
    if (key.length !== 32)
      throw new Error(`${options.keyFile} does not hold a 32-byte base64 key.`);
    return key;
  }
  ownerOnlyFolder(dirname(options.keyFile));
  const key = randomBytes(32);
  writeFileSync(options.keyFile, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(options.keyFile, 0o600);
  return key;
}

/** Shows the last four characters of a secret and nothing else ('••••••3f9a'). */
export function mask(secret: string | undefined | null): string | undefined {
  if (!secret) return undefined;
  return `••••••${secret.length > 8 ? secret.slice(-4) : ''}`;
}
