import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { WorkerResult, WorkerTask } from './bench-worker.ts';
import { serverEnvironment, serverNodeFlags } from './server-runtime.ts';

const worker = fileURLToPath(new URL('./bench-worker.ts', import.meta.url));

/**
 * Runs one benchmark migration in a child process started with the server's runtime flags and
 * answers the figures it prints. `env` adds to the child's environment (a CA to trust); `signal`
 * stops the child (SIGTERM, then SIGKILL after 10 s) and rejects.
 */
export function runWorker(
  task: WorkerTask,
  env: Record<string, string> = {},
  signal?: AbortSignal,
): Promise<WorkerResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        ...serverNodeFlags,
        '--disable-warning=ExperimentalWarning',
        ...(task.traceHeap ? ['--expose-gc'] : []),
        worker,
        JSON.stringify(task),
      ],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
        env: { ...process.env, ...serverEnvironment, ...env },
      },
    );
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    const stop = () => {
      child.kill('SIGTERM');
      setTimeout(() => child.exitCode === null && child.kill('SIGKILL'), 10_000).unref();
    };
    signal?.addEventListener('abort', stop, { once: true });
    child.on('exit', (code) => {
      signal?.removeEventListener('abort', stop);
      if (signal?.aborted) {
        reject(new Error(`benchmark worker stopped: ${String(signal.reason)}`));
        return;
      }
      const line = out.trim().split('\n').pop() ?? '';
      try {
        resolve(JSON.parse(line) as WorkerResult);
      } catch {
        reject(new Error(`benchmark worker exited with ${code}: ${out}`));
      }
    });
  });
}
