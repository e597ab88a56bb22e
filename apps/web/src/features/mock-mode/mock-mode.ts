import { useSyncExternalStore } from 'react';

/**
 * Mock mode (spec.md section 4): a flag in local storage, set by the `mock` query parameter
 * (true or false) and by the top-bar toggle. In mock mode the Connect step offers the sandbox
 * stores; everything else runs the real code path.
 */
const KEY = 'mockMode';
const listeners = new Set<() => void>();

export function isMockMode(): boolean {
  return localStorage.getItem(KEY) === 'true';
}

export function setMockMode(on: boolean): void {
  if (on) localStorage.setItem(KEY, 'true');
  else localStorage.removeItem(KEY);
  for (const listener of listeners) listener();
}

/** Applies ?mock=true / ?mock=false from the address, once at start. */
export function applyMockQuery(search: string): void {
  const value = new URLSearchParams(search).get('mock');
  if (value === 'true') setMockMode(true);
  if (value === 'false') setMockMode(false);
}

export function useMockMode(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    isMockMode,
    () => false,
  );
}
