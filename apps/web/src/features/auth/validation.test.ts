import { describe, expect, it } from 'vitest';
import { validateAuthForm } from './validation.ts';

const blank = { name: '', email: '', password: '', confirm: '' };

describe('auth form validation (spec.md section 5)', () => {
  it('requires a full name only to sign up', () => {
    const fields = { ...blank, email: 'a@b.co', password: 'x' };
    expect(validateAuthForm('signup', fields)).toEqual({ name: 'Please enter your full name.' });
    expect(validateAuthForm('signin', fields)).toEqual({});
  });

  it('requires a well-formed e-mail', () => {
    expect(validateAuthForm('signin', { ...blank, password: 'x' }).email).toBe(
      'Please enter your email address.',
    );
    expect(validateAuthForm('signin', { ...blank, email: 'nope', password: 'x' }).email).toBe(
      'Please enter a valid email address.',
    );
  });

  it('requires a password except when asking for a reset link', () => {
    expect(validateAuthForm('signin', { ...blank, email: 'a@b.co' })).toEqual({
      password: 'Please enter your password.',
    });
    expect(validateAuthForm('reset', { ...blank, email: 'a@b.co' })).toEqual({});
  });

  it('asks for the new password twice', () => {
    expect(validateAuthForm('new-password', { ...blank, password: 'a', confirm: 'b' })).toEqual({
      confirm: 'Passwords do not match',
    });
  });
});
