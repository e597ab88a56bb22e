import { beforeEach, describe, expect, it } from 'vitest';

const memory = new Map<string, string>();
Object.defineProperty(globalThis, 'localStorage', {
  configurable: true,
  value: {
    getItem: (k: string) => memory.get(k) ?? null,
    setItem: (k: string, v: string) => void memory.set(k, v),
    removeItem: (k: string) => void memory.delete(k),
  },
});

const { cancelNewStore, chooseStore, parseCurrentStore, startNewStore } =
  await import('./current-store.ts');

describe('current store of the header selector', () => {
  beforeEach(() => memory.clear());

  it('remembers the chosen store', () => {
    chooseStore('abc');
    expect(parseCurrentStore(memory.get('currentStore') ?? null)).toEqual({
      kind: 'store',
      id: 'abc',
    });
  });

  it('starts new-store creation and returns to the previous store when it is cancelled', () => {
    chooseStore('abc');
    startNewStore();
    expect(parseCurrentStore(memory.get('currentStore') ?? null)).toEqual({ kind: 'new' });
    cancelNewStore();
    expect(memory.get('currentStore')).toBe('abc');
  });

  it('has no current store after cancelling when none was chosen before', () => {
    startNewStore();
    cancelNewStore();
    expect(memory.has('currentStore')).toBe(false);
    expect(parseCurrentStore(null)).toBeNull();
  });

  it('cancelling does nothing when no new store is being created', () => {
    chooseStore('xyz');
    cancelNewStore();
    expect(memory.get('currentStore')).toBe('xyz');
  });
});
