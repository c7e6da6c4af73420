// A signed-in operator for the console's tests and benchmarks: granted with the operator key,
// two-factor turned on (the caller is the authenticator app), then signed in again through the
// code, so the session passed the second factor (migration 0017).
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { TOTP } from 'otpauth';
import type { DB } from '../infra/db/schema';
import {
  cookieOf,
  joinAndConfirm,
  ORIGIN,
  signedInCookie,
  signIn,
  type MemberKeys,
} from './members';

export interface ConsoleOperator {
  /** The console's session (cookie header). */
  cookie: string;
  /** The authenticator's secret (base32), to sign in again elsewhere. */
  secret: string;
}

export async function consoleOperator(
  app: FastifyInstance,
  db: Kysely<DB>,
  keys: MemberKeys,
  operatorKey: string,
): Promise<ConsoleOperator> {
  await joinAndConfirm(app, db, keys);
  const post = async (url: string, payload: object, headers: Record<string, string>) => {
    const res = await app.inject({
      method: 'POST',
      url,
      headers: { origin: ORIGIN, ...headers },
      payload,
    });
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
    return res;
  };
  await post(
    '/api/operator/operators',
    { email: keys.email, operator: true },
    { authorization: `Bearer ${operatorKey}` },
  );
  const cookie = await signedInCookie(app, keys);
  const enabled = await post('/auth/two-factor/enable', { password: keys.authSecret }, { cookie });
  const secret = new URL((enabled.json() as { totpURI: string }).totpURI).searchParams.get(
    'secret',
  )!;
  const totp = new TOTP({ secret, digits: 6, period: 30 });
  await post('/auth/two-factor/verify-totp', { code: totp.generate() }, { cookie });
  const pending = await signIn(app, keys.email, keys.authSecret);
  const passed = await post(
    '/auth/two-factor/verify-totp',
    { code: totp.generate() },
    { cookie: cookieOf(pending.headers['set-cookie']) },
  );
  return { cookie: cookieOf(passed.headers['set-cookie']), secret };
}

export async function consoleOperatorCookie(
  ...args: Parameters<typeof consoleOperator>
): Promise<string> {
  return (await consoleOperator(...args)).cookie;
}

/** The code an authenticator app shows now for `secret`. */
export function totpCode(secret: string): string {
  return new TOTP({ secret, digits: 6, period: 30 }).generate();
}
