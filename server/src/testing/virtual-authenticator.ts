// Chromium's virtual authenticator (the DevTools protocol's WebAuthn domain) as the journeys and
// the journey benchmark add it: a platform authenticator (a phone's or laptop's lock) holding
// discoverable passkeys, with user verification that always passes, and PRF on or off.
export function virtualAuthenticatorOptions(prf: boolean) {
  return {
    protocol: 'ctap2',
    ctap2Version: 'ctap2_1',
    transport: 'internal',
    hasResidentKey: true,
    hasUserVerification: true,
    isUserVerified: true,
    automaticPresenceSimulation: true,
    hasPrf: prf,
  } as const;
}
