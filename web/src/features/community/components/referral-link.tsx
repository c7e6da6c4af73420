import { useCopy } from '../../../lib/use-copy';
import { Button } from '../../../ui/button';
import card from '../../../ui/card.module.css';
import { MiddleTruncate } from '../../../ui/middle-truncate';

/** Share through the Web Share API where the browser has it; otherwise copy the link. */
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
    await copy(link);
  }
  return { copied, copy: () => copy(link), share };
}

/** The member's referral link with Copy (Copied for 2 s) and, where wanted, Share. */
export function ReferralLink({ link, share = true }: { link: string; share?: boolean }) {
  const invite = useInvite(link);
  return (
    <div>
      <p aria-label="Your referral link">
        <MiddleTruncate text={link} keep={11} />
      </p>
      <div className={card.row}>
        <Button variant="secondary" className={card.small} onClick={() => void invite.copy()}>
          {invite.copied ? 'Copied' : 'Copy'}
        </Button>
        {share ? (
          <Button className={card.small} onClick={() => void invite.share()}>
            Share
          </Button>
        ) : null}
      </div>
    </div>
  );
}
