#!/usr/bin/env node
// Launcher of the replatform CLI: runs src/main.ts on Node 24 (the machine's own when recent
// enough, else the one the project installs) with the runtime flags the CLI is sized for.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

// The server's runtime settings (packages/engine/src/bench/server-runtime.ts says why): a small
// young generation, a capped old space and few malloc arenas keep the resident memory of a long
// streaming run low and flat. node:sqlite's "experimental" warning means nothing to users.
const flags = [
  '--max-semi-space-size=4',
  '--max-old-space-size=1024',
  '--disable-warning=ExperimentalWarning',
];
const env = { MALLOC_ARENA_MAX: '2', ...process.env };
const entry = new URL('../src/main.ts', import.meta.url);
const major = Number(process.versions.node.split('.')[0]);

if (major >= 24 && process.execArgv.includes(flags[0])) {
  await import(entry.href);
} else {
  let node = process.execPath;
  if (major < 24) {
    try {
      node = createRequire(import.meta.url).resolve('node/bin/node');
    } catch {
      console.error(
        'replatform needs Node.js 24 or later (run `npm install` in the project first).',
      );
      process.exit(1);
    }
  }
  const child = spawn(node, [...flags, fileURLToPath(entry), ...process.argv.slice(2)], {
    stdio: 'inherit',
    env,
  });
  // Ctrl-C reaches the child from the terminal itself; other signals are passed on.
  process.on('SIGINT', () => {});
  for (const signal of ['SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => {
    if (signal) process.kill(process.pid, signal);
    else process.exit(code ?? 1);
  });
}
