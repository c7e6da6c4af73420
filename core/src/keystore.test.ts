import { describe, expect, it } from 'vitest';
import { keystoreProblem } from './keystore';

const address = '0x' + 'ab'.repeat(20);
const keystore = (over: Record<string, unknown> = {}, kdfparams: Record<string, unknown> = {}) =>
  JSON.stringify({
    version: 3,
    address: 'ab'.repeat(20),
    Crypto: { kdf: 'scrypt', kdfparams: { n: 131072, r: 8, p: 1, ...kdfparams } },
    ...over,
  });

describe('keystoreProblem (scrypt N=131072, r=8, p=1)', () => {
  it('accepts an ethers v3 keystore for the address', () => {
    expect(keystoreProblem(keystore(), address)).toBeNull();
    expect(keystoreProblem(keystore(), address.toUpperCase().replace('0X', '0x'))).toBeNull();
  });
  it.each([
    ['not JSON', 'nope', 'not_json'],
    ['another version', keystore({ version: 1 }), 'wrong_version'],
    ['weaker scrypt', keystore({}, { n: 1024 }), 'wrong_kdf'],
    ['another r', keystore({}, { r: 1 }), 'wrong_kdf'],
    ['pbkdf2', keystore({ Crypto: { kdf: 'pbkdf2', kdfparams: {} } }), 'wrong_kdf'],
    ['another address', keystore({ address: 'cd'.repeat(20) }), 'wrong_address'],
  ])('refuses %s', (_name, ks, problem) => {
    expect(keystoreProblem(ks, address)).toBe(problem);
  });
});
