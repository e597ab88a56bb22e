import { describe, expect, it } from 'vitest';
import { chromeFor, withQuery } from './layout-rules.ts';

describe('layout rules', () => {
  it('shows the top bar on the app paths when signed in', () => {
    for (const path of [
      '/migrations',
      '/migrations/abc',
      '/migration-history/x',
      '/my-account',
      '/help',
      '/contact',
      '/settings',
    ]) {
      expect(chromeFor(path, true), path).toBe('top-bar');
    }
  });

  it('shows the header elsewhere when signed in, except the pages with their own', () => {
    expect(chromeFor('/blog/3', true)).toBe('header');
    expect(chromeFor('/signup', true)).toBe('header');
    for (const path of ['/', '/blogs', '/enterprise', '/magento-to-shopify', '/login']) {
      expect(chromeFor(path, true), path).toBe('none');
    }
  });

  it('shows neither when signed out, and does not confuse prefixes', () => {
    expect(chromeFor('/migrations', false)).toBe('none');
    expect(chromeFor('/migrationsx', true)).toBe('header');
  });

  it('keeps the query string on redirects', () => {
    expect(withQuery('/login', '?mock=true')).toBe('/login?mock=true');
    expect(withQuery('/login', 'a=1')).toBe('/login?a=1');
    expect(withQuery('/login', '')).toBe('/login');
  });
});
