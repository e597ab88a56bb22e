import { ConnectorError } from '@replatform/connectors/kit/errors';

/**
 * Why a run could not go on, with a stable code and a message the store owner can act on.
 * - store_config: credentials revoked, store gone, permissions missing (the owner must act).
 * - store_unavailable: a store kept failing after bounded retries (try again later).
 * - unsupported: the plan asks for something a platform cannot do.
 * - internal: anything else.
 */
export type EngineErrorCode = 'store_config' | 'store_unavailable' | 'unsupported' | 'internal';

export class EngineError extends Error {
  readonly code: EngineErrorCode;

  constructor(code: EngineErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'EngineError';
    this.code = code;
  }
}

export type Side = 'source' | 'destination';

/** Turns a failure that stops the run into an EngineError with an owner-readable message. */
export function fatalError(error: unknown, side: Side, what: string): EngineError {
  if (error instanceof EngineError) return error;
  const store = side === 'source' ? 'source' : 'destination';
  if (error instanceof ConnectorError) {
    if (error.errorClass === 'config') {
      return new EngineError(
        'store_config',
        `The ${store} store refused access while ${what}: ${error.message}. Check that the store still exists and that its credentials are valid, then start the migration again.`,
        { cause: error },
      );
    }
    if (error.errorClass === 'transient') {
      return new EngineError(
        'store_unavailable',
        `The ${store} store kept failing while ${what} (${error.message}), even after several retries. Nothing was lost; start the migration again later to continue where it stopped.`,
        { cause: error },
      );
    }
    return new EngineError(
      'internal',
      `The ${store} store gave an answer we could not understand while ${what}: ${error.message}.`,
      { cause: error },
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return new EngineError('internal', `Unexpected failure while ${what}: ${message}`, {
    cause: error,
  });
}
