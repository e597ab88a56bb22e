import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

/**
 * The gzipped JavaScript a signed-out visitor's browser must load before a public page shows,
 * read from the build's manifest: the entry with its static imports, and the page's chunk with
 * its own. Chunks a page imports on demand (the blog body's sanitiser, the sign-in requests) are
 * not counted: they load after the page is on screen. The list follows `router.tsx`: `page()`
 * without `queries: false` adds the query cache (`app/queries.tsx`).
 */
const budgets: Array<{ route: string; modules: string[]; kB: number }> = [
  { route: '/', modules: ['src/features/landing/landing-page.tsx'], kB: 100 },
  { route: '/blogs', modules: ['src/features/blog/blogs-page.tsx'], kB: 100 },
  { route: '/blog/1', modules: ['src/features/blog/blog-post-page.tsx'], kB: 100 },
  { route: '/login', modules: ['src/features/auth/auth-page.tsx'], kB: 100 },
];

interface ManifestChunk {
  file: string;
  imports?: string[];
}

const dist = resolve(import.meta.dirname, '../../dist');
const manifestPath = join(dist, '.vite/manifest.json');

function loadManifest(): Record<string, ManifestChunk> {
  if (!existsSync(manifestPath))
    throw new Error(`${dist} has no build: run \`npm run build\` first (npm test does).`);
  return JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, ManifestChunk>;
}

/** The files of the given chunks and of everything they import statically. */
function staticClosure(manifest: Record<string, ManifestChunk>, keys: string[]): Set<string> {
  const files = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not in the build's manifest`);
    files.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const key of keys) visit(key);
  return files;
}

const gzippedKB = (files: Iterable<string>) =>
  [...files].reduce((sum, file) => sum + gzipSync(readFileSync(join(dist, file))).length, 0) / 1000;

describe('JavaScript a public page loads first (gzipped, from the build)', () => {
  const manifest = loadManifest();
  for (const { route, modules, kB } of budgets) {
    it(`${route} stays within ${kB} kB`, () => {
      const size = gzippedKB(staticClosure(manifest, ['index.html', ...modules]));
      console.info(`${route}: ${size.toFixed(1)} kB of JavaScript (gzipped) before it shows`);
      expect(size, `${route} loads ${size.toFixed(1)} kB`).toBeLessThanOrEqual(kB);
    });
  }

  it('counts what a page imports statically, and not what it imports on demand', () => {
    const landing = staticClosure(manifest, ['index.html', budgets[0]!.modules[0]!]);
    expect(landing.has(manifest['index.html']!.file)).toBe(true);
    expect([...landing].some((file) => /landing-page/.test(file))).toBe(true);
    expect([...landing].some((file) => /guide-pdf|help-page/.test(file))).toBe(false);
  });
});
