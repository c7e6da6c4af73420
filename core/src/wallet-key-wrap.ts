// The wallet's key wrapped for a passkey (docs/decisions/0026-passkeys.md): the passkey's WebAuthn
// PRF output for a random 32-byte salt → HKDF-SHA-256 → an AES-256-GCM key, which seals the
// wallet's private key and recovery phrase. It runs in the browser's wallet worker (and in Node
// for the server's tests): the PRF output and the key never leave the member's device; the server
// keeps only the salt, the nonce and the sealed bytes.

/** Names what the derived key is for, so it can never be confused with another use of the output. */
const HKDF_INFO = 'community-rewards-wallet: wallet key v1';

/** What a wrapped copy holds: the key, and the phrase when the keystore had it. */
export interface WalletSecret {
  privateKey: string;
  phrase: string | null;
}

export interface SealedWalletKey {
  prfSalt: string;
  iv: string;
  ciphertext: string;
}

export function toBase64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function fromBase64url(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** A new PRF salt: 32 random bytes, base64url. */
export function newPrfSalt(): string {
  return toBase64url(crypto.getRandomValues(new Uint8Array(32)));
}

async function wrappingKey(
  prfOutput: Uint8Array<ArrayBuffer>,
  prfSalt: string,
): Promise<Awaited<ReturnType<typeof crypto.subtle.deriveKey>>> {
  const material = await crypto.subtle.importKey('raw', prfOutput, 'HKDF', false, ['deriveKey']);
  return crypto.subtle.deriveKey(
    {
      name: 'HKDF',
      hash: 'SHA-256',
      salt: fromBase64url(prfSalt),
      info: new TextEncoder().encode(HKDF_INFO),
    },
    material,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  );
}

/** The salt is bound in as associated data: a sealed copy moved under another salt does not open. */
const associated = (prfSalt: string) => new TextEncoder().encode(`salt:${prfSalt}`);

export async function sealWalletSecret(
  secret: WalletSecret,
  prfOutput: Uint8Array<ArrayBuffer>,
  prfSalt: string,
): Promise<SealedWalletKey> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv, additionalData: associated(prfSalt) },
    await wrappingKey(prfOutput, prfSalt),
    new TextEncoder().encode(JSON.stringify(secret)),
  );
  return { prfSalt, iv: toBase64url(iv), ciphertext: toBase64url(new Uint8Array(sealed)) };
}

/** The wallet secret a sealed copy holds; throws when this PRF output is not the one it was sealed with. */
export async function openWalletSecret(
  sealed: SealedWalletKey,
  prfOutput: Uint8Array<ArrayBuffer>,
): Promise<WalletSecret> {
  const plain = await crypto.subtle.decrypt(
    { name: 'AES-GCM', iv: fromBase64url(sealed.iv), additionalData: associated(sealed.prfSalt) },
    await wrappingKey(prfOutput, sealed.prfSalt),
    fromBase64url(sealed.ciphertext),
  );
  const secret = JSON.parse(new TextDecoder().decode(plain)) as WalletSecret;
  if (typeof secret.privateKey !== 'string') throw new Error('not a wallet secret');
  return { privateKey: secret.privateKey, phrase: secret.phrase ?? null };
}
