// What a referral link's code means, said as the link opens: who invited the friend and what each
// of them gets, or not a member's code, with a way on without it. The server still refuses a sign-up with an unknown code.
import { REFERRAL_CAPS_BY_LEVEL, SIGNUP_CAPS } from '@crw/core';
import { useQuery } from '@tanstack/react-query';
import { Button } from '../../../ui/button';
import callout from '../../../ui/callout.module.css';
import { referralCodeQuery } from '../api/sign-up-checks';
import styles from './auth.module.css';

/** checking: not answered yet; unchecked: the check failed (the sign-up checks the code again). */
export type ReferralCheck = 'checking' | 'valid' | 'unknown' | 'unchecked';

/** The check of a referral link's code, and the inviter's first name when the code is theirs and
 * they gave one. */
export function useReferralCheck(
  code: string | null,
): { check: ReferralCheck; inviter: string | null } | null {
  const answer = useQuery({ ...referralCodeQuery(code ?? ''), enabled: code !== null });
  if (code === null) return null;
  if (answer.isError) return { check: 'unchecked', inviter: null };
  if (!answer.data) return { check: 'checking', inviter: null };
  return answer.data.valid
    ? { check: 'valid', inviter: answer.data.inviter ?? null }
    : { check: 'unknown', inviter: null };
}

export function ReferralNotice({
  code,
  check,
  inviter,
  onContinueWithout,
}: {
  code: string;
  check: ReferralCheck;
  inviter: string | null;
  onContinueWithout: () => void;
}) {
  if (check === 'checking') {
    return (
      <p className={styles.center} role="status">
        Checking referral code <strong>{code}</strong>…
      </p>
    );
  }
  if (check === 'unknown') {
    return (
      <div className={styles.actions}>
        <p className={callout.error} role="alert">
          Referral code <strong>{code}</strong> does not belong to any member. Check the link with
          the friend who sent it, or join without a code.
        </p>
        <Button onClick={onContinueWithout}>Continue without a referral code</Button>
      </div>
    );
  }
  return (
    <p className={callout.info} role="status">
      {check === 'valid' ? (
        // What each side really gets: the friend the same 200 CAPs as anyone joining (no extra
        // bonus), the inviter their first-level CAPs once the friend confirms.
        <>
          <strong>{inviter ?? 'A member'}</strong> invited you. You get {SIGNUP_CAPS} CAPs for
          joining; {inviter ?? 'they'} {inviter ? 'gets' : 'get'} {REFERRAL_CAPS_BY_LEVEL[0]} when
          you confirm your e-mail.
        </>
      ) : (
        <>
          Referral code <strong>{code}</strong> will be checked when you create your account.
        </>
      )}
    </p>
  );
}
