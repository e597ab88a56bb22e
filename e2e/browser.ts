import packaged from '@sparticuz/chromium';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

const repoRoot = resolve(import.meta.dirname, '..');

/** The version of the Chromium that `@sparticuz/chromium` ships (its package version). */
export function packagedChromiumVersion(): string {
  const manifest = join(repoRoot, 'node_modules', '@sparticuz', 'chromium', 'package.json');
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
}

/**
 * The browser the Playwright tests drive: `CHROMIUM_PATH` when it is set (Debian's
 * `/usr/bin/chromium`, say), otherwise the Chromium that the `@sparticuz/chromium` npm package
 * ships, so `npm install` alone brings it. A browser installed on the machine is never picked up
 * on its own.
 *
 * The package unpacks its brotli archives into the OS temporary folder, where another checkout
 * (or another version of the package) may have left a different binary under the same name.
 * Pointing that folder at one of our own, per package version and under node_modules (which
 * `npm ci` starts afresh), keeps every checkout on the binary of its own lockfile; unpacking into
 * a fresh folder renamed into place keeps two runs from reading a half-written binary.
 */
export async function chromiumExecutable(): Promise<string> {
  const chosen = process.env.CHROMIUM_PATH;
  if (chosen) {
    if (!existsSync(chosen))
      throw new Error(`CHROMIUM_PATH names ${chosen}, which does not exist.`);
    return chosen;
  }
  const cache = join(repoRoot, 'node_modules', '.cache', 'chromium');
  const target = join(cache, packagedChromiumVersion());
  const binary = join(target, 'chromium');
  if (existsSync(binary)) return binary;
  mkdirSync(cache, { recursive: true });
  const unpacking = mkdtempSync(join(cache, 'unpacking-'));
  const tmpdir = process.env.TMPDIR;
  process.env.TMPDIR = unpacking;
  try {
    const unpacked = await packaged.executablePath();
    if (unpacked !== join(unpacking, 'chromium'))
      throw new Error(`@sparticuz/chromium unpacked to ${unpacked}, not into ${unpacking}.`);
  } finally {
    if (tmpdir === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = tmpdir;
  }
  try {
    renameSync(unpacking, target);
  } catch (error) {
    // Another run got there first: its copy is complete, ours goes.
    rmSync(unpacking, { recursive: true, force: true });
    if (!existsSync(binary)) throw error;
  }
  return binary;
}

/**
 * Flags for the packaged browser on a Linux machine as root. Playwright already starts Chromium
 * headless without its sandbox (which cannot run as root); the rest keep a test run from reaching
 * outside the machine or drawing with a GPU it does not have. The package's own `args` are meant
 * for serverless functions and turn off the same-origin policy (`--disable-web-security`) and
 * site isolation, which the tests must keep on to prove what a real browser does.
 */
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
