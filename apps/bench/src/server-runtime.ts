/**
 * The runtime settings the server is started with (the root package.json's `start` script, and
 * the CLI launcher apps/cli/bin/replatform.mjs) and the benchmark runs its worker with, so what
 * it measures is what the server runs. A small young generation and few malloc arenas keep the
 * resident memory of long streaming runs low. The old-space cap matters as much: V8 sizes each
 * growth of its heap to the heap limit, which by default follows the machine's memory, so on a
 * large machine the heap filled with garbage to over 100 MB before it was collected (resident
 * memory grew past 270 MB over 20,000 records while the live heap stayed near 37 MB). Capped at
 * 1 GB, far above what a run or the sandbox stores hold, it is collected while small and the
 * resident memory stays flat (about 180 MB).
 */
export const serverNodeFlags = ['--max-semi-space-size=4', '--max-old-space-size=1024'] as const;
export const serverEnvironment = { MALLOC_ARENA_MAX: '2' } as const;
