import type { App } from './app.ts';
import { ConfigError, parseConfig, type Config } from './config.ts';

/** The configuration from the environment; a bad one ends the process with what is wrong. */
export function configOrExit(): Config {
  try {
    return parseConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

/**
 * Graceful stop on SIGTERM/SIGINT: requests in flight finish, running migrations stop at a batch
 * boundary and hand their leases back, then the database closes. A stop that hangs is cut short.
 */
export function stopGracefully(app: App): void {
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      app.log.error('shutdown took too long; exiting');
      process.exit(1);
    }, 15_000);
    timer.unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'error during shutdown');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

/** Ends the process on a start-up failure with its message (no stack trace for operators). */
export function exitOnFailure(error: unknown): never {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
