import { describe, expect, it } from 'vitest';
import * as v from './validation';

describe('sign-in (SPEC §5)', () => {
  it("email required ('Email address is required'); password required ('Password is required')", () => {
    expect(v.validateSignIn({ email: ' ', password: 'x' })).toBe('Email address is required');
    expect(v.validateSignIn({ email: 'a@b.co', password: '' })).toBe('Password is required');
    expect(v.validateSignIn({ email: 'a@b.co', password: 'x' })).toBeNull();
  });
});

describe('sign-up on the auth screen (SPEC §5)', () => {
  const ok = { email: 'a@b.co', password: 'secret', confirmPassword: 'secret' };
  it("email must contain @ and a dot ('Please enter a valid email address')", () => {
    expect(v.validateAuthSignUp({ ...ok, email: 'ab.co' })).toBe('Please enter a valid email address');
    expect(v.validateAuthSignUp({ ...ok, email: 'a@bco' })).toBe('Please enter a valid email address');
  });
  it("password at least 6 characters ('Password must be at least 6 characters long')", () => {
    expect(v.validateAuthSignUp({ ...ok, password: '12345', confirmPassword: '12345' })).toBe('Password must be at least 6 characters long');
  });
  it("confirmation must match ('Passwords do not match')", () => {
    expect(v.validateAuthSignUp({ ...ok, confirmPassword: 'secreT' })).toBe('Passwords do not match');
    expect(v.validateAuthSignUp(ok)).toBeNull();
  });
  it('username is optional and defaults to the part of the e-mail before the @', () => {
    expect(v.defaultUsername('', 'ada@example.com')).toBe('ada');
    expect(v.defaultUsername(' lovelace ', 'ada@example.com')).toBe('lovelace');
  });
});

describe('registration screen, checked in this order (SPEC §5)', () => {
  const ok = { firstName: 'Ada', lastName: 'L', email: 'a@b.co', password: '12345678', confirmPassword: '12345678' };
  it("1. password shorter than 8: 'Password minimum: At least 8 characters' (before anything else)", () => {
    expect(v.validateRegistration({ ...ok, firstName: '', password: '1234567', confirmPassword: 'x' })).toBe('Password minimum: At least 8 characters');
  });
  it('2. password and confirmation differ: "Passwords don\'t match"', () => {
    expect(v.validateRegistration({ ...ok, firstName: '', confirmPassword: '12345679' })).toBe("Passwords don't match");
  });
  it("3. first name, last name or email empty after trimming: 'Please fill in all required fields'", () => {
    for (const field of ['firstName', 'lastName', 'email'] as const) {
      expect(v.validateRegistration({ ...ok, [field]: '   ' })).toBe('Please fill in all required fields');
    }
    expect(v.validateRegistration(ok)).toBeNull();
  });
});

describe('resend and mnemonic (SPEC §5)', () => {
  it("resend confirmation needs an e-mail ('Email address is required to resend confirmation')", () => {
    expect(v.validateResend('')).toBe('Email address is required to resend confirmation');
    expect(v.validateResend('a@b.co')).toBeNull();
  });
  it("mnemonic confirmation must equal the phrase exactly, else 'Entered mnemonic mismatch the original one'", () => {
    expect(v.validateMnemonicConfirmation('a b c', 'a b c')).toBeNull();
    expect(v.validateMnemonicConfirmation('a b c ', 'a b c')).toBe('Entered mnemonic mismatch the original one');
    expect(v.validateMnemonicConfirmation('A b c', 'a b c')).toBe('Entered mnemonic mismatch the original one');
  });
});

describe('changing the password on the account page', () => {
  const ok = { currentPassword: 'old secret', newPassword: 'new secret', confirmPassword: 'new secret' };
  it("asks for the current password, then applies /register's rules, then refuses the same password", () => {
    expect(v.validatePasswordChange({ ...ok, currentPassword: '' })).toBe('Please enter your current password');
    expect(v.validatePasswordChange({ ...ok, newPassword: 'short', confirmPassword: 'short' })).toBe('Password minimum: At least 8 characters');
    expect(v.validatePasswordChange({ ...ok, confirmPassword: 'new secreT' })).toBe("Passwords don't match");
    expect(v.validatePasswordChange({ ...ok, newPassword: 'old secret', confirmPassword: 'old secret' })).toBe('The new password must differ from your current one');
    expect(v.validatePasswordChange(ok)).toBeNull();
  });
});
