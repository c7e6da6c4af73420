// What a wallet keystore must look like before the server stores it: ethers' JSON v3
// with scrypt N=131072, r=8, p=1, for the address it is stored with.
export const KEYSTORE_SCRYPT = { n: 131_072, r: 8, p: 1 } as const;
export const KEYSTORE_MAX_LENGTH = 4_096;
export const ADDRESS_PATTERN = /^0x[0-9a-fA-F]{40}$/;

export type KeystoreProblem = 'not_json' | 'wrong_version' | 'wrong_kdf' | 'wrong_address';

export function keystoreProblem(keystore: string, address: string): KeystoreProblem | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(keystore);
  } catch {
    return 'not_json';
  }
  type KdfSection = { kdf?: unknown; kdfparams?: Record<string, unknown> };
  const ks = parsed as {
    version?: unknown;
    address?: unknown;
    crypto?: KdfSection;
    Crypto?: KdfSection;
  };
  if (ks.version !== 3) return 'wrong_version';
  const section = ks.crypto ?? ks.Crypto; // ethers writes "Crypto"; the v3 format allows either
  const params = section?.kdfparams ?? {};
  if (
    section?.kdf !== 'scrypt' ||
    params.n !== KEYSTORE_SCRYPT.n ||
    params.r !== KEYSTORE_SCRYPT.r ||
    params.p !== KEYSTORE_SCRYPT.p
  ) {
    return 'wrong_kdf';
  }
  if (
    typeof ks.address !== 'string' ||
    ks.address.replace(/^0x/, '').toLowerCase() !== address.replace(/^0x/, '').toLowerCase()
  ) {
    return 'wrong_address';
  }
  return null;
}
