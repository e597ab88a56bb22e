import { useSyncExternalStore } from 'react';

/**
 * The signed-in header's current store (spec.md sections 2 and 4: choosing a store sets the
 * current store; Add New Store starts new-store creation and the button then reads New Store).
 * Kept in local storage so it survives navigation and reloads; it holds only a migration id,
 * which is looked up in the owner's own list before anything is shown.
 */
const KEY = 'currentStore';
const listeners = new Set<() => void>();

export type CurrentStore = { kind: 'store'; id: string } | { kind: 'new' } | null;

function read(): string | null {
  try {
    return localStorage.getItem(KEY);
  } catch {
    return null;
  }
}

function write(value: string | null): void {
  try {
    if (value === null) localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, value);
  } catch {
    // Storage can be unavailable (private mode quotas); the choice then lasts for this page only.
  }
  for (const listener of listeners) listener();
}

/** The stored value: a migration id, or `new:` followed by the store chosen before (if any). */
export function parseCurrentStore(raw: string | null): CurrentStore {
  if (!raw) return null;
  if (raw === 'new' || raw.startsWith('new:')) return { kind: 'new' };
  return { kind: 'store', id: raw };
}

export function chooseStore(id: string): void {
  write(id);
}

/** Starts new-store creation, remembering the store chosen before in case it is cancelled. */
export function startNewStore(): void {
  const current = parseCurrentStore(read());
  write(current?.kind === 'store' ? `new:${current.id}` : 'new');
}

/** Leaves new-store creation without creating one: the store chosen before is current again. */
export function cancelNewStore(): void {
  const raw = read();
  if (!raw?.startsWith('new')) return;
  const previous = raw.startsWith('new:') ? raw.slice(4) : '';
  write(previous || null);
}

export function useCurrentStore(): CurrentStore {
  const raw = useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    read,
    () => null,
  );
  return parseCurrentStore(raw);
}
