// Passkeys in the browser (docs/decisions/0026-passkeys.md): making one, signing in with one
// (@simplewebauthn/browser), and asking one for its PRF output, which opens the copy of the
// wallet's key sealed for it. The PRF output stays in this page and the wallet worker: what goes to
// the server is stripped of every extension result but "PRF is enabled".
import {
  authenticationResponse,
  fromBase64url,
  passkeySignInRequest,
  passkeysResponse,
  registrationResponse,
  toBase64url,
  type PasskeyAuthenticationResponse,
  type PasskeyRegistrationResponse,
  type WalletKeyCopy,
} from '@crw/core';
import {
  browserSupportsWebAuthn,
  browserSupportsWebAuthnAutofill,
  startAuthentication,
  startRegistration,
  WebAuthnAbortService,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import { queryOptions } from '@tanstack/react-query';
import { apiFetch } from './api-client';

/** The member's passkeys (the account page's list; the dashboard's offer asks whether there are any). */
export const passkeysQuery = queryOptions({
  queryKey: ['account', 'passkeys'],
  queryFn: () => apiFetch('/api/account/passkeys', passkeysResponse),
});

/** WebAuthn takes a host name only: at an IP address (a local test server) browsers refuse every
 * ceremony ("invalid domain"), so nothing is offered there. */
const hostIsAddress = (host: string) =>
  /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.startsWith('[');

/** Whether passkeys can be made and used on this page: the browser has WebAuthn and the page is
 * at a host name. */
export const passkeysSupported = (): boolean =>
  browserSupportsWebAuthn() && !hostIsAddress(location.hostname);

/** Whether this device has its own passkey store (a phone's or a laptop's lock). */
export async function devicePasskeysAvailable(): Promise<boolean> {
  if (!passkeysSupported()) return false;
  try {
    return await PublicKeyCredential.isUserVerifyingPlatformAuthenticatorAvailable();
  } catch {
    return false;
  }
}

export const autofillSupported = (): Promise<boolean> => browserSupportsWebAuthnAutofill();

/** The member closed the browser's prompt, it timed out, or another ceremony replaced it. */
export class PasskeyCancelled extends Error {}
/** This passkey (or this browser) gives no PRF output: it cannot unlock the wallet here. */
export class PrfUnavailable extends Error {}

function cancelledOr(error: unknown): never {
  const name = error instanceof Error ? error.name : '';
  const cause = (error as { cause?: { name?: string } } | null)?.cause?.name;
  if (name === 'NotAllowedError' || name === 'AbortError' || cause === 'NotAllowedError')
    throw new PasskeyCancelled('The passkey was not used.');
  throw error;
}

/** A new passkey for the options the server gave, asking whether it can derive keys (PRF). */
export async function createPasskey(
  options: Record<string, unknown>,
): Promise<PasskeyRegistrationResponse> {
  let made;
  try {
    made = await startRegistration({
      optionsJSON: {
        ...(options as unknown as PublicKeyCredentialCreationOptionsJSON),
        extensions: { credProps: true, prf: {} } as never,
      },
    });
  } catch (error) {
    cancelledOr(error);
  }
  const prf = (made.clientExtensionResults as { prf?: { enabled?: boolean } }).prf;
  // Only what the server may read: whether PRF is enabled (the schema drops everything else).
  return registrationResponse.parse({
    ...made,
    clientExtensionResults: prf?.enabled !== undefined ? { prf: { enabled: prf.enabled } } : {},
  });
}

/** The answer to a sign-in challenge: from the button, or from the e-mail field's autofill
 * (`autofill`), which waits until the member picks a passkey there. */
export async function answerSignIn(
  options: Record<string, unknown>,
  autofill = false,
): Promise<PasskeyAuthenticationResponse> {
  let answer;
  try {
    answer = await startAuthentication({
      optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON,
      useBrowserAutofill: autofill,
    });
  } catch (error) {
    cancelledOr(error);
  }
  return authenticationResponse.parse({ ...answer, clientExtensionResults: {} });
}

/** Stops a waiting autofill request (leaving the sign-in screen). */
export const cancelPasskeyRequest = () => WebAuthnAbortService.cancelCeremony();

/** The body the sign-in endpoint takes. */
export const signInBody = (challengeId: string, response: PasskeyAuthenticationResponse) =>
  passkeySignInRequest.parse({ challengeId, response });

/**
 * Asks one of `copies`' passkeys for its PRF output for that copy's salt (the browser shows only
 * the member's passkeys that hold a copy). The challenge is made here and checked by nobody: this
 * ceremony signs nothing for the server; what matters is the PRF output, which only the passkey can
 * give. Throws PasskeyCancelled or PrfUnavailable.
 */
export async function passkeyPrf(
  copies: Array<Pick<WalletKeyCopy, 'credentialId' | 'prfSalt'>>,
): Promise<{ credentialId: string; prfOutput: Uint8Array<ArrayBuffer> }> {
  if (!passkeysSupported()) throw new PrfUnavailable('This browser cannot use passkeys.');
  WebAuthnAbortService.cancelCeremony();
  let credential: PublicKeyCredential | null;
  try {
    credential = (await navigator.credentials.get({
      publicKey: {
        challenge: crypto.getRandomValues(new Uint8Array(32)),
        rpId: location.hostname,
        allowCredentials: copies.map((c) => ({
          type: 'public-key',
          id: fromBase64url(c.credentialId),
        })),
        userVerification: 'required',
        timeout: 120_000,
        extensions: {
          prf: {
            evalByCredential: Object.fromEntries(
              copies.map((c) => [c.credentialId, { first: fromBase64url(c.prfSalt) }]),
            ),
          },
        } as AuthenticationExtensionsClientInputs,
      },
    })) as PublicKeyCredential | null;
  } catch (error) {
    cancelledOr(error);
  }
  if (!credential) throw new PasskeyCancelled('The passkey was not used.');
  const results = credential.getClientExtensionResults() as {
    prf?: { results?: { first?: BufferSource } };
  };
  const first = results.prf?.results?.first;
  if (!first) throw new PrfUnavailable('This passkey cannot unlock your wallet in this browser.');
  const bytes =
    first instanceof ArrayBuffer
      ? new Uint8Array(first)
      : new Uint8Array(first.buffer, first.byteOffset, first.byteLength);
  return { credentialId: toBase64url(new Uint8Array(credential.rawId)), prfOutput: bytes.slice() };
}
