import { useEffect, useSyncExternalStore } from 'react';
import type { Session } from '@replatform/contracts/session';
import { apiFetch, ApiRequestError } from '../../../lib/api-client.ts';

/**
 * The current session, or null when signed out. A signed-out visitor's answer is null, which needs
 * no checking: the public pages (landing, blog, login) then never load the schema code, which
 * comes with the first signed-in answer.
 */
export async function getSession(): Promise<Session> {
  try {
    const body = await apiFetch('/api/auth/get-session');
    if (body === null) return null;
    const { sessionSchema } = await import('@replatform/contracts/session');
    return sessionSchema.parse(body);
  } catch (error) {
    if (error instanceof ApiRequestError && (error.status === 401 || error.status === 404))
      return null;
    throw error;
  }
}

export interface SessionState {
  /** The session once read (null: signed out); undefined before that or after a failed read. */
  data: Session | undefined;
  isPending: boolean;
}

/** How long a read session is used before a page that asks for it reads it again. */
const freshForMs = 60_000;

// Every page asks for the session (the guards and the layout choose by it), the public ones too,
// so it is kept here rather than in the query cache, which only the pages with server data load.
let state: SessionState = { data: undefined, isPending: true };
let readAt = 0;
let reading: Promise<void> | null = null;
const listeners = new Set<() => void>();

function readSession(): Promise<void> {
  reading ??= getSession()
    .catch(() => undefined)
    .then((data) => {
      state = { data, isPending: false };
      readAt = Date.now();
      for (const listener of listeners) listener();
    })
    .finally(() => {
      reading = null;
    });
  return reading;
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

export function useSession(): SessionState {
  const current = useSyncExternalStore(subscribe, () => state);
  useEffect(() => {
    if (Date.now() - readAt > freshForMs) void readSession();
  }, []);
  return current;
}

/**
 * Reads the session again after signing in or changing the account, and waits for it. A read
 * still in flight from before (the page's first one) would answer "signed out": it is let finish
 * and the session read once more.
 */
async function readAgain(): Promise<void> {
  if (reading) await reading;
  await readSession();
}

export function useRefreshSession(): () => Promise<void> {
  return readAgain;
}
