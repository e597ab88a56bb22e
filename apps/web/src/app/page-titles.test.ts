import { describe, expect, it } from 'vitest';
import { titleFor } from './page-titles.ts';

describe('page titles', () => {
  it('gives each page its own title', () => {
    expect(titleFor('/login')).toBe('Sign in — Replatform');
    expect(titleFor('/login', '?mode=reset&token=x')).toBe('Reset password — Replatform');
    expect(titleFor('/signup')).toBe('Create account — Replatform');
    expect(titleFor('/migrations')).toBe('Your migrations — Replatform');
    expect(titleFor('/migrations/abc')).toBe('Migration — Replatform');
    expect(titleFor('/migration-history/abc')).toBe('Migration details — Replatform');
    expect(titleFor('/settings/')).toBe('Settings — Replatform');
  });

  it('leaves pages that name themselves alone, and calls anything else not found', () => {
    expect(titleFor('/blog/3')).toBeNull();
    expect(titleFor('/magento-to-shopify')).toBeNull();
    expect(titleFor('/no-such-page')).toBe('Page not found — Replatform');
  });
});
