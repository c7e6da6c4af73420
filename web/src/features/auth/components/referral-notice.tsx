// What a referral link's code means, said as the link opens: applied, or not a member's
// code, with a way on without it. The server still refuses a sign-up with an unknown code.
import { useQuery } from '@tanstack/react-query';
import { Button } from '../../../ui/button';
import callout from '../../../ui/callout.module.css';
import { referralCodeQuery } from '../api/sign-up-checks';
import styles from './auth.module.css';

/** checking: not answered yet; unchecked: the check failed (the sign-up checks the code again). */
export type ReferralCheck = 'checking' | 'valid' | 'unknown' | 'unchecked';

export function useReferralCheck(code: string | null): ReferralCheck | null {
  const answer = useQuery({ ...referralCodeQuery(code ?? ''), enabled: code !== null });
  if (code === null) return null;
  if (answer.isError) return 'unchecked';
  if (!answer.data) return 'checking';
  return answer.data.valid ? 'valid' : 'unknown';
}

export function ReferralNotice({
  code,
  check,
  onContinueWithout,
}: {
  code: string;
  check: ReferralCheck;
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
        <>
          Referral code <strong>{code}</strong> applied! You will earn bonus CAPs when you join.
        </>
      ) : (
        <>
          Referral code <strong>{code}</strong> will be checked when you create your account.
        </>
      )}
    </p>
  );
}
