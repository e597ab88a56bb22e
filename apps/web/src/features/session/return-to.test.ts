import { describe, expect, it } from 'vitest';
import { safeReturnPath } from './return-to.ts';

describe('the page to return to after signing in', () => {
  it('keeps our own paths with their query string', () => {
    expect(safeReturnPath('/migrations/abc?mock=true')).toBe('/migrations/abc?mock=true');
    expect(safeReturnPath('/settings')).toBe('/settings');
  });

  it('refuses other sites, odd paths and the auth screen itself', () => {
    for (const value of [
      'https://evil.example/',
      '//evil.example/x',
      '/\\evil.example',
      'migrations',
      '/login?mock=true',
      '/signup',
      '/',
      '/a b',
      42,
      null,
    ]) {
      expect(safeReturnPath(value), String(value)).toBeNull();
    }
  });
});
