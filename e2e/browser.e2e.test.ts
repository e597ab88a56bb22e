import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { packagedChromiumVersion } from './browser.ts';
import { launchBrowser } from './harness.ts';

/** The executables of this process's children, read from /proc. */
function childExecutables(): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(join('/proc', pid, 'stat'), 'utf8');
      // The parent id is the second field after the command name, which is in parentheses.
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent === process.pid) found.push(readlinkSync(join('/proc', pid, 'exe')));
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

describe('the test browser (e2e)', () => {
  it('is the Chromium of @sparticuz/chromium unless CHROMIUM_PATH names another', async () => {
    const executable = inject('chromiumExecutable');
    const browser = await launchBrowser();
    try {
      const version = browser.version();
      console.log(`Browser tests run ${executable} (Chromium ${version})`);
      if (process.env.CHROMIUM_PATH) {
        expect(executable).toBe(process.env.CHROMIUM_PATH);
      } else {
        expect(executable).toMatch(/node_modules\/\.cache\/chromium\/[^/]+\/chromium$/);
        // The process Playwright started runs that file, not a browser installed on the machine.
        expect(childExecutables()).toContain(executable);
        expect(childExecutables()).not.toContain('/usr/lib/chromium/chromium');
        expect(version.split('.')[0]).toBe(packagedChromiumVersion().split('.')[0]);
      }
    } finally {
      await browser.close();
    }
  });
});
