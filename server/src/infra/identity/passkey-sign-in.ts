// Signing in with a passkey, as a better-auth endpoint (POST /auth/passkey/sign-in), so that the
// session it gives is better-auth's own, with its cookie and the hooks every sign-in runs (the
// device cookie, a new device's security event). Which member the passkey is, is decided by the
// `verify` hook the root passes in (domain/members/passkeys.ts): this layer knows no passkey table.
// better-auth's passkey plugin is not used: it pins other versions of better-auth's own packages
// than ours, so npm cannot install it beside them (docs/decisions/0026-passkeys.md).
import { APIError, createAuthEndpoint } from 'better-auth/api';
import { setSessionCookie } from 'better-auth/cookies';
import type { BetterAuthPlugin } from 'better-auth';

/** The member a passkey's answer proves, or why it proves nobody. */
export type PasskeyVerdict = { userId: string } | { refused: 'failed' | 'expired' };

export const PASSKEY_SIGN_IN_PATH = '/passkey/sign-in';

/** The codes better-auth answers a refused passkey with (auth-proxy.ts turns them into ours). */
export const PASSKEY_REFUSALS = { failed: 'PASSKEY_FAILED', expired: 'PASSKEY_EXPIRED' } as const;

export function passkeySignIn(
  verify: (body: unknown, origin: string | null) => Promise<PasskeyVerdict>,
  requireEmailVerification: boolean,
): BetterAuthPlugin {
  return {
    id: 'crw-passkey-sign-in',
    endpoints: {
      passkeySignIn: createAuthEndpoint(
        PASSKEY_SIGN_IN_PATH,
        { method: 'POST', metadata: { isAction: false } },
        async (ctx) => {
          const verdict = await verify(ctx.body, ctx.request?.headers.get('origin') ?? null);
          if ('refused' in verdict)
            throw new APIError('BAD_REQUEST', {
              code: PASSKEY_REFUSALS[verdict.refused],
              message: 'The passkey was refused',
            });
          const user = await ctx.context.internalAdapter.findUserById(verdict.userId);
          if (!user) throw new APIError('UNAUTHORIZED', { code: PASSKEY_REFUSALS.failed });
          if (requireEmailVerification && !user.emailVerified)
            throw new APIError('FORBIDDEN', { code: 'EMAIL_NOT_VERIFIED' });
          // A passkey with the device's lock is two factors (something held, something known or
          // been): no authenticator code follows it (decision 0026).
          const session = await ctx.context.internalAdapter.createSession(user.id);
          await setSessionCookie(ctx, { session, user });
          return ctx.json({ ok: true as const });
        },
      ),
    },
  };
}
