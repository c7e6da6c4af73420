// Passkeys (docs/decisions/0026-passkeys.md): an extra way to sign in and to unlock the wallet,
// never the only one. WebAuthn's JSON shapes as @simplewebauthn sends them, each field bounded;
// the browser's PRF output never appears here (it stays in the page and the wallet worker).
import * as z from 'zod/mini';
import { authSecretField } from './account';
import { plainText } from './common';

/** base64url without padding, at most `max` characters. */
const base64url = (max: number) =>
  z.string().check(z.regex(/^[A-Za-z0-9_-]*$/), z.minLength(1), z.maxLength(max));

/** A credential's id as WebAuthn gives it (at most 1,023 bytes, base64url). */
export const credentialIdField = base64url(1366);

/** The extension results the server may read: whether the authenticator has PRF (never its output). */
const extensionResults = z.object({
  credProps: z.optional(z.object({ rk: z.optional(z.boolean()) })),
  prf: z.optional(z.object({ enabled: z.optional(z.boolean()) })),
});

const transports = z.optional(
  z
    .array(z.enum(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb']))
    .check(z.maxLength(7)),
);

/** What every credential the browser hands over carries. */
const credentialFields = {
  id: credentialIdField,
  rawId: credentialIdField,
  type: z.literal('public-key'),
  authenticatorAttachment: z.optional(z.enum(['platform', 'cross-platform'])),
  clientExtensionResults: extensionResults,
};

/** A new passkey, as the browser made it (navigator.credentials.create). */
export const registrationResponse = z.object({
  ...credentialFields,
  response: z.object({
    clientDataJSON: base64url(4096),
    attestationObject: base64url(16384),
    transports,
    authenticatorData: z.optional(base64url(8192)),
    publicKey: z.optional(base64url(4096)),
    publicKeyAlgorithm: z.optional(z.number()),
  }),
});
export type PasskeyRegistrationResponse = z.infer<typeof registrationResponse>;

/** A passkey's signature over a challenge (navigator.credentials.get). */
export const authenticationResponse = z.object({
  ...credentialFields,
  response: z.object({
    clientDataJSON: base64url(4096),
    authenticatorData: base64url(8192),
    signature: base64url(2048),
    userHandle: z.optional(base64url(128)),
  }),
});
export type PasskeyAuthenticationResponse = z.infer<typeof authenticationResponse>;

/** What the browser needs to start a ceremony: the options (WebAuthn's JSON form) and the id of
 * the single-use challenge inside them, sent back with the answer. */
export const passkeyCeremony = z.object({
  challengeId: z.string(),
  options: z.record(z.string(), z.unknown()),
});
export type PasskeyCeremony = z.infer<typeof passkeyCeremony>;

export const challengeIdField = z.string().check(z.regex(/^[0-9a-f-]{36}$/));

/** POST /api/account/passkeys/options: adding a passkey asks for the password again. */
export const addPasskeyOptionsRequest = z.object({ authSecret: authSecretField });

/** A passkey's name as the member sees and edits it. */
export const passkeyNameField = plainText(60, { trim: true, min: 1 });

/** POST /api/account/passkeys */
export const addPasskeyRequest = z.object({
  challengeId: challengeIdField,
  response: registrationResponse,
});

/** PUT /api/account/passkeys/:id/wallet-key: the wallet's key wrapped for one passkey (HKDF-SHA-256 over the passkey's PRF output with this
 * salt → AES-256-GCM). The server keeps it and cannot open it. */
export const wrappedWalletKey = z.object({
  /** 32 random bytes, the PRF input (base64url). */
  prfSalt: z.string().check(z.regex(/^[A-Za-z0-9_-]{43}$/)),
  /** AES-GCM's 12-byte nonce (base64url). */
  iv: z.string().check(z.regex(/^[A-Za-z0-9_-]{16}$/)),
  /** The wrapped key and phrase with the GCM tag (base64url). */
  ciphertext: base64url(1024),
});
export type WrappedWalletKey = z.infer<typeof wrappedWalletKey>;

/** One of the member's passkeys. */
export const passkeyItem = z.object({
  id: z.string(),
  /** WebAuthn's id for it (public), which the browser asks the passkey by. */
  credentialId: z.string(),
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.nullable(z.string()),
  /** Synced between the member's devices (a "multi-device" passkey). */
  synced: z.boolean(),
  /** The authenticator said it can derive a key for this site (WebAuthn PRF). */
  prf: z.boolean(),
  /** A wrapped copy of the wallet's key exists for it: it can unlock the wallet. */
  unlocksWallet: z.boolean(),
});
export type PasskeyItem = z.infer<typeof passkeyItem>;

/** GET /api/account/passkeys */
export const passkeysResponse = z.object({ passkeys: z.array(passkeyItem) });

export const passkeyIdParams = z.object({ id: plainText(64, { min: 1 }) });

/** PATCH /api/account/passkeys/:id */
export const renamePasskeyRequest = z.object({ name: passkeyNameField });

/** DELETE /api/account/passkeys/:id: removing one asks for the password. */
export const removePasskeyRequest = z.object({ authSecret: authSecretField });

/** GET /api/account/passkeys/wallet-keys: the wrapped copies, by the credential they belong to. */
export const walletKeysResponse = z.object({
  keys: z.array(z.extend(wrappedWalletKey, { credentialId: z.string(), passkeyId: z.string() })),
});
export type WalletKeyCopy = z.infer<typeof walletKeysResponse>['keys'][number];

/** POST /auth/passkey/sign-in */
export const passkeySignInRequest = z.object({
  challengeId: challengeIdField,
  response: authenticationResponse,
});
