import { describe, expect, it } from 'vitest';
import * as v from './validation';

describe('sign-in', () => {
  it("email required ('Email address is required'); password required ('Password is required')", () => {
    expect(v.validateSignIn({ email: ' ', password: 'x' })).toEqual({
      field: 'email',
      message: 'Email address is required',
    });
    expect(v.validateSignIn({ email: 'a@b.co', password: '' })).toEqual({
      field: 'password',
      message: 'Password is required',
    });
  });
  it('takes an existing password of any length (older accounts may have 6 characters)', () => {
    expect(v.validateSignIn({ email: 'a@b.co', password: 'x' })).toBeNull();
    expect(v.validateSignIn({ email: 'a@b.co', password: 'secret' })).toBeNull();
  });
});

describe('sign-up on the auth screen (with 8 characters as everywhere)', () => {
  const ok = { email: 'a@b.co', password: 'secret12', confirmPassword: 'secret12' };
  it("email must contain @ and a dot ('Please enter a valid email address')", () => {
    expect(v.validateAuthSignUp({ ...ok, email: 'ab.co' })).toEqual({
      field: 'email',
      message: 'Please enter a valid email address',
    });
    expect(v.validateAuthSignUp({ ...ok, email: 'a@bco' })).toEqual({
      field: 'email',
      message: 'Please enter a valid email address',
    });
  });
  it("password at least 8 characters ('Password must be at least 8 characters long')", () => {
    expect(
      v.validateAuthSignUp({ ...ok, password: '1234567', confirmPassword: '1234567' }),
    ).toEqual({ field: 'password', message: 'Password must be at least 8 characters long' });
    expect(
      v.validateAuthSignUp({ ...ok, password: '12345678', confirmPassword: '12345678' }),
    ).toBeNull();
  });
  it("confirmation must match ('Passwords do not match'), marked on the confirmation", () => {
    expect(v.validateAuthSignUp({ ...ok, confirmPassword: 'secreT12' })).toEqual({
      field: 'confirmPassword',
      message: 'Passwords do not match',
    });
    expect(v.validateAuthSignUp(ok)).toBeNull();
  });
  it('username is optional and defaults to the part of the e-mail before the @', () => {
    expect(v.defaultUsername('', 'ada@example.com')).toBe('ada');
    expect(v.defaultUsername(' lovelace ', 'ada@example.com')).toBe('lovelace');
  });
});

describe('the one sign-up form: every problem at once', () => {
  const ok = { email: 'a@b.co', password: '12345678', confirmPassword: '12345678' };
  it('says each wrong field with its own message, all together', () => {
    expect(v.validateSignUp({ email: ' ', password: '1234567', confirmPassword: 'x' })).toEqual([
      { field: 'email', message: 'Email address is required' },
      { field: 'password', message: 'Password must be at least 8 characters long' },
      { field: 'confirmPassword', message: 'Passwords do not match' },
    ]);
    expect(v.validateSignUp({ ...ok, email: 'not-an-address' })).toEqual([
      { field: 'email', message: 'Please enter a valid email address' },
    ]);
  });
  it('has nothing to say about a good form', () => {
    expect(v.validateSignUp(ok)).toEqual([]);
    expect(v.validateSignUp({ ...ok, email: '  a@b.co  ' })).toEqual([]);
  });
});

describe('resend', () => {
  it("resend confirmation needs an e-mail ('Email address is required to resend confirmation')", () => {
    expect(v.validateResend('')).toEqual({
      field: 'email',
      message: 'Email address is required to resend confirmation',
    });
    expect(v.validateResend('a@b.co')).toBeNull();
  });
});

describe('confirming the recovery code (capitals and spaces do not count; the wrong word is named)', () => {
  const phrase = 'apple banana cherry date elder fig grape hazel iris juniper kiwi lemon';
  const words = phrase.split(' ');
  const withWord = (i: number, word: string) => words.map((w, j) => (j === i ? word : w)).join(' ');
  it('takes the words in any case, with extra spaces, line breaks and a trailing space', () => {
    expect(v.validateMnemonicConfirmation(phrase, phrase)).toBeNull();
    expect(v.validateMnemonicConfirmation(`${phrase} `, phrase)).toBeNull();
    expect(
      v.validateMnemonicConfirmation(
        `  Apple BANANA cherry\ndate  elder fig\tgrape hazel iris juniper kiwi Lemon\n`,
        phrase,
      ),
    ).toBeNull();
  });
  it('names the first word that differs', () => {
    expect(v.validateMnemonicConfirmation(withWord(6, 'grapes'), phrase)).toEqual({
      field: 'phrase',
      message: 'Word 7 does not match your recovery code.',
    });
    expect(v.validateMnemonicConfirmation([...words].reverse().join(' '), phrase)?.message).toBe(
      'Word 1 does not match your recovery code.',
    );
  });
  it('says which word is missing, or that there are too many', () => {
    expect(v.validateMnemonicConfirmation(words.slice(0, 11).join(' '), phrase)?.message).toBe(
      'Word 12 is missing: your recovery code has 12 words.',
    );
    expect(v.validateMnemonicConfirmation(`${phrase} extra`, phrase)?.message).toBe(
      'Your recovery code has 12 words; you typed 13.',
    );
    expect(v.validateMnemonicConfirmation('   ', phrase)?.message).toBe(
      'Type your 12-word recovery code to confirm it.',
    );
  });
});

describe('changing the password on the account page', () => {
  const ok = {
    currentPassword: 'old secret',
    newPassword: 'new secret',
    confirmPassword: 'new secret',
  };
  it("asks for the current password, then applies the sign-up form's rules, then refuses the same password", () => {
    expect(v.validatePasswordChange({ ...ok, currentPassword: '' })).toEqual({
      field: 'currentPassword',
      message: 'Please enter your current password',
    });
    expect(
      v.validatePasswordChange({ ...ok, newPassword: 'short', confirmPassword: 'short' }),
    ).toEqual({
      field: 'newPassword',
      message: 'Password must be at least 8 characters long',
    });
    expect(v.validatePasswordChange({ ...ok, confirmPassword: 'new secreT' })).toEqual({
      field: 'confirmPassword',
      message: 'Passwords do not match',
    });
    expect(
      v.validatePasswordChange({ ...ok, newPassword: 'old secret', confirmPassword: 'old secret' }),
    ).toEqual({
      field: 'newPassword',
      message: 'The new password must differ from your current one',
    });
    expect(v.validatePasswordChange(ok)).toBeNull();
  });
});
