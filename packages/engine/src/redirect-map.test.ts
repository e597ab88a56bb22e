import { describe, expect, it } from 'vitest';
import { redirectNeed, redirectRule } from './redirect-map.ts';

describe('the redirect map', () => {
  it('redirects an address that changed, and says why it does not redirect the others', () => {
    expect(redirectNeed({ sourcePath: '/shirt/', destinationPath: '/products/shirt' })).toBe('yes');
    expect(redirectNeed({ sourcePath: '/shirt/', destinationPath: '/shirt/' })).toBe(
      'no: same address',
    );
    expect(redirectNeed({ sourcePath: null, destinationPath: '/shirt/' })).toMatch(
      /source store gives it no address/,
    );
    expect(redirectNeed({ sourcePath: '/shirt/', destinationPath: null })).toMatch(/not known yet/);
    // A Shopify vendor's page is a search, which a path rule cannot match.
    expect(
      redirectNeed({ sourcePath: '/collections/vendors?q=Luma', destinationPath: '/brand/luma/' }),
    ).toMatch(/^no: the old address has a query/);
    expect(redirectNeed({ sourcePath: '/a$b/', destinationPath: '/ab/' })).toMatch(
      /characters a server rule cannot take/,
    );
    expect(redirectNeed({ sourcePath: '/a\nb/', destinationPath: '/ab/' })).toMatch(
      /characters a server rule cannot take/,
    );
  });

  it('writes nginx and Apache rules that match the decoded old path exactly and quote both', () => {
    const row = { sourcePath: '/caf%C3%A9/"best"/', destinationPath: '/products/cafe-best' };
    expect(redirectRule('nginx', row)).toBe(
      'location = "/café/\\"best\\"/" { return 301 "/products/cafe-best"; }',
    );
    expect(redirectRule('apache', row)).toBe(
      'Redirect 301 "/café/\\"best\\"/" "/products/cafe-best"',
    );
    // A reserved character stays encoded, as servers leave it.
    expect(redirectRule('nginx', { sourcePath: '/a%2Fb/', destinationPath: '/ab' })).toBe(
      'location = "/a%2Fb/" { return 301 "/ab"; }',
    );
    expect(redirectRule('apache', { sourcePath: '/same/', destinationPath: '/same/' })).toBeNull();
  });
});
