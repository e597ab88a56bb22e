import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ownerOnlyFolder } from '../security/owner-only.ts';

/**
 * The key better-auth signs session cookies and OAuth state with. AUTH_SECRET wins; otherwise a
 * random one is generated on first start and kept in a file beside (never inside) the database,
 * so sessions survive restarts with no set-up.
 */
export function loadAuthSecret(options: { configured?: string | undefined; file: string }): string {
  if (options.configured) return options.configured;
  if (existsSync(options.file)) {
    const stored = readFileSync(options.file, 'utf8').trim();
    if (stored.length < 32) throw new Error(`${options.file} does not hold a usable auth secret.`);
    return stored;
  }
  ownerOnlyFolder(dirname(options.file));
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(options.file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(options.file, 0o600);
  return secret;
}
