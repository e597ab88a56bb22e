import { chmodSync, mkdirSync } from 'node:fs';

/**
 * Makes a folder for secrets (and its missing parents) that only its owner may enter, and
 * tightens one that already exists, whatever the process's umask.
 */
export function ownerOnlyFolder(path: string): void {
  mkdirSync(path, { recursive: true, mode: 0o700 });
  chmodSync(path, 0o700);
}
