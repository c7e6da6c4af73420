import { Share2 } from 'lucide-react';
import { useCopy } from '../../../lib/use-copy';
import { Button } from '../../../ui/button';
import { MiddleTruncate } from '../../../ui/middle-truncate';
import { notify } from '../../../ui/toaster';
import hidden from '../../../ui/visually-hidden.module.css';
import styles from './community.module.css';

/** Share through the Web Share API where the browser has it; otherwise copy the link ("Link copied"
 * for 2 s). */
export function useInvite(link: string) {
  const { copied, copy } = useCopy();
  async function share() {
    const data = {
      title: 'Join my care community',
      text: 'Join me and earn CAPs for caring:',
      url: link,
    };
    if (
      typeof navigator.share === 'function' &&
      (!navigator.canShare || navigator.canShare(data))
    ) {
      try {
        await navigator.share(data);
        return;
      } catch (error) {
        if ((error as DOMException).name === 'AbortError') return; // the member closed the sheet
      }
    }
    if (!(await copy(link)))
      notify.error('Your browser did not allow copying. Select the link and copy it instead.');
  }
  return { copied, share };
}

/** The member's referral link, in sight as text (shortened in the middle where it does not fit,
 * whole for selecting), and one Share button. */
export function ReferralLink({ link }: { link: string }) {
  const invite = useInvite(link);
  return (
    <div className={styles.invite}>
      <p className={styles.inviteLink} aria-label="Your referral link">
        <MiddleTruncate text={link} keep={11} />
      </p>
      <Button className={styles.share} onClick={() => void invite.share()}>
        <Share2 aria-hidden="true" size={18} />
        {invite.copied ? 'Link copied' : 'Share'}
      </Button>
      <span role="status" className={hidden.visuallyHidden}>
        {invite.copied ? 'Link copied' : ''}
      </span>
    </div>
  );
}
