// The calls the passkey tests make, as a phone's browser makes them (a Pixel's user agent, the
// app's origin unless told otherwise), against the test app `app()` returns.
import type { PasskeyCeremony, PasskeyItem } from '@crw/core';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { SoftAuthenticator } from '../../src/testing/soft-authenticator';
import { cookieOf, ORIGIN, type NamedMember } from './members';

export const PIXEL =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';

export interface CallOpts {
  cookie?: string;
  payload?: unknown;
  remoteAddress?: string;
  /** null: no Origin header at all. */
  origin?: string | null;
  headers?: Record<string, string>;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export function passkeyCalls(app: () => FastifyInstance) {
  function call(method: Method, url: string, opts: CallOpts = {}) {
    const origin = opts.origin === undefined ? ORIGIN : opts.origin;
    return app().inject({
      method,
      url,
      headers: {
        ...(origin !== null ? { origin } : {}),
        'user-agent': PIXEL,
        ...(opts.cookie ? { cookie: opts.cookie } : {}),
        ...opts.headers,
      },
      ...(opts.remoteAddress ? { remoteAddress: opts.remoteAddress } : {}),
      ...(opts.payload !== undefined ? { payload: opts.payload as object } : {}),
    });
  }

  /** Options for a new passkey of `m`, after their password. */
  async function registrationCeremony(
    m: NamedMember,
    opts: CallOpts = {},
  ): Promise<PasskeyCeremony> {
    const res = await call('POST', '/api/account/passkeys/options', {
      cookie: m.cookie,
      payload: { authSecret: m.keys.authSecret },
      ...opts,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as PasskeyCeremony;
  }

  /** Adds a passkey made by `authenticator` (reporting PRF when `prf`) to `m`'s account. */
  async function addPasskey(
    m: NamedMember,
    authenticator: SoftAuthenticator,
    { prf, ...opts }: CallOpts & { prf?: boolean } = {},
  ): Promise<PasskeyItem> {
    const ceremony = await registrationCeremony(m, opts);
    const response = authenticator.create(ceremony.options as never, { prf });
    const res = await call('POST', '/api/account/passkeys', {
      cookie: m.cookie,
      payload: { challengeId: ceremony.challengeId, response },
      ...opts,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as PasskeyItem;
  }

  async function signInCeremony(opts: CallOpts = {}): Promise<PasskeyCeremony> {
    const res = await call('POST', '/api/passkeys/sign-in/options', opts);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as PasskeyCeremony;
  }

  const passkeySignIn = (payload: unknown, opts: CallOpts = {}) =>
    call('POST', '/auth/passkey/sign-in', { payload, ...opts });

  /** Who a session cookie belongs to (their e-mail), or the status when it opens nothing. */
  async function whoIs(cookie: string): Promise<string | number> {
    const res = await call('GET', '/api/me', { cookie });
    return res.statusCode === 200 ? (res.json().email as string) : res.statusCode;
  }

  const listOf = async (cookie: string) =>
    (
      (await call('GET', '/api/account/passkeys', { cookie })).json() as {
        passkeys: PasskeyItem[];
      }
    ).passkeys;

  return { call, registrationCeremony, addPasskey, signInCeremony, passkeySignIn, whoIs, listOf };
}

/** The session cookie an answer set, if any. */
export const sessionOf = (res: { headers: Record<string, unknown> }) =>
  cookieOf(res.headers['set-cookie'] as string[] | string | undefined);
export const hasSession = (res: { headers: Record<string, unknown> }) =>
  /session_token=[^;]/.test(sessionOf(res));
