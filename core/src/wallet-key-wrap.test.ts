import { describe, expect, it } from 'vitest';
import {
  newPrfSalt,
  openWalletSecret,
  sealWalletSecret,
  toBase64url,
  fromBase64url,
} from './wallet-key-wrap';

const secret = {
  privateKey: '0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318',
  phrase: 'test test test test test test test test test test test junk',
};
const prf = () => crypto.getRandomValues(new Uint8Array(32));

describe('the wallet key sealed for a passkey', () => {
  it('opens with the PRF output it was sealed with, and only with it', async () => {
    const output = prf();
    const sealed = await sealWalletSecret(secret, output, newPrfSalt());
    expect(await openWalletSecret(sealed, output)).toEqual(secret);
    await expect(openWalletSecret(sealed, prf())).rejects.toThrow();
  });

  it('refuses a copy moved under another salt, or with one byte changed', async () => {
    const output = prf();
    const sealed = await sealWalletSecret(secret, output, newPrfSalt());
    await expect(openWalletSecret({ ...sealed, prfSalt: newPrfSalt() }, output)).rejects.toThrow();
    const bytes = fromBase64url(sealed.ciphertext);
    bytes[0]! ^= 1;
    await expect(
      openWalletSecret({ ...sealed, ciphertext: toBase64url(bytes) }, output),
    ).rejects.toThrow();
  });

  it('seals each time with a fresh nonce, and never holds the key in the clear', async () => {
    const output = prf();
    const salt = newPrfSalt();
    const [a, b] = [
      await sealWalletSecret(secret, output, salt),
      await sealWalletSecret(secret, output, salt),
    ];
    expect(a.iv).not.toBe(b.iv);
    expect(a.ciphertext).not.toBe(b.ciphertext);
    expect(salt).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.iv).toMatch(/^[A-Za-z0-9_-]{16}$/);
    const text = new TextDecoder('latin1').decode(fromBase64url(a.ciphertext));
    expect(text).not.toContain(secret.privateKey.slice(2, 20));
    expect(text).not.toContain('test test');
  });
});
