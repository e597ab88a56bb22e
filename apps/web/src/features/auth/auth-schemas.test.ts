import { describe, expect, it } from 'vitest';
import { checkAuthForm } from './auth-schemas.ts';

const blank = { name: '', email: '', password: '', confirm: '' };

describe('auth form schemas (spec.md section 5)', () => {
  it('requires a full name only to sign up', () => {
    const fields = { ...blank, email: 'a@b.co', password: 'x' };
    expect(checkAuthForm('signup', fields)).toEqual({
      errors: { name: 'Please enter your full name.' },
    });
    expect(checkAuthForm('signin', fields)).toEqual({
      values: { mode: 'signin', email: 'a@b.co', password: 'x' },
    });
  });

  it('requires a well-formed e-mail, and gives it trimmed', () => {
    expect(checkAuthForm('signin', { ...blank, email: '  ', password: 'x' })).toEqual({
      errors: { email: 'Please enter your email address.' },
    });
    expect(checkAuthForm('signin', { ...blank, email: 'nope', password: 'x' })).toEqual({
      errors: { email: 'Please enter a valid email address.' },
    });
    expect(
      checkAuthForm('signup', { ...blank, name: ' Ada ', email: ' a@b.co ', password: 'x' }),
    ).toEqual({ values: { mode: 'signup', name: 'Ada', email: 'a@b.co', password: 'x' } });
  });

  it('requires a password except when asking for a reset link', () => {
    expect(checkAuthForm('signin', { ...blank, email: 'a@b.co' })).toEqual({
      errors: { password: 'Please enter your password.' },
    });
    expect(checkAuthForm('reset', { ...blank, email: 'a@b.co' })).toEqual({
      values: { mode: 'reset', email: 'a@b.co' },
    });
  });

  it('asks for the new password twice', () => {
    expect(checkAuthForm('new-password', { ...blank, password: 'a', confirm: 'b' })).toEqual({
      errors: { confirm: 'Passwords do not match' },
    });
    expect(checkAuthForm('new-password', { ...blank, password: '', confirm: 'b' })).toEqual({
      errors: { password: 'Please enter your password.' },
    });
    expect(checkAuthForm('new-password', { ...blank, password: 'a', confirm: 'a' })).toEqual({
      values: { mode: 'new-password', password: 'a', confirm: 'a' },
    });
  });
});
