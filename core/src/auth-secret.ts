// The server never learns the password. The browser derives a login secret from it
// that is useless for opening the keystore: PBKDF2-SHA256(password, "<app id>:" + e-mail, 600,000).
export const APP_ID = 'community-rewards-wallet';
export const AUTH_SECRET_ITERATIONS = 600_000;
export const AUTH_SECRET_PATTERN = /^[0-9a-f]{64}$/;

export function authSecretSalt(email: string): string {
  return `${APP_ID}:${email.trim().toLowerCase()}`;
}

/** 32 bytes as 64 lowercase hex characters, computed by WebCrypto (browser and Node alike). */
export async function deriveAuthSecret(
  password: string,
  email: string,
  iterations: number = AUTH_SECRET_ITERATIONS,
): Promise<string> {
  const encoder = new TextEncoder();
  const key = await crypto.subtle.importKey('raw', encoder.encode(password), 'PBKDF2', false, [
    'deriveBits',
  ]);
  const bits = await crypto.subtle.deriveBits(
    { name: 'PBKDF2', hash: 'SHA-256', salt: encoder.encode(authSecretSalt(email)), iterations },
    key,
    256,
  );
  return [...new Uint8Array(bits)].map((b) => b.toString(16).padStart(2, '0')).join('');
}
