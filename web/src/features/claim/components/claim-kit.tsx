// The claim kit: a file with the member's leaf, proof, round, contracts and plain
// instructions, built in the browser from what the claim screen has already fetched, so the member
// can claim with any wallet through a block explorer even if this site is gone.
import {
  buildClaimKit,
  claimKitFile,
  hasClaimKit,
  type ClaimData,
  type UserDetails,
} from '@crw/core';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { meQuery, publicConfigQuery } from '../../../lib/session';
import { Button } from '../../../ui/button';
import { claimDataQuery } from '../api/claim-data';
import styles from './claim-kit.module.css';
import { saveFile } from '../../../lib/save-file';

export const CLAIM_KIT_NOTE =
  'Keep this file: with it you can claim your REME with any wallet, even without this website.';

/** Why there is no kit to download, or null when there is one. */
function unavailableReason(claim: ClaimData, me: UserDetails): string | null {
  if (!hasClaimKit(claim))
    return 'There is nothing to claim yet: your claim kit will be here once you are in a published distribution round.';
  if (me.tokens.forClaiming === '0')
    return `You have already claimed your REME of round ${claim.distributionIndex}: a claim kit would have nothing left to claim.`;
  return null;
}

export function ClaimKit() {
  // The screen has these answers already: read them from the cache without asking the server again.
  const me = useQuery({ ...meQuery, refetchOnMount: false });
  const config = useQuery({ ...publicConfigQuery, refetchOnMount: false });
  const claim = useQuery({ ...claimDataQuery, refetchOnMount: false });
  const [saved, setSaved] = useState<string | null>(null);
  const noteId = useId();
  const reasonId = useId();
  if (!me.data || !config.data || !claim.data) return null;
  const reason = unavailableReason(claim.data, me.data);

  function download() {
    if (!me.data || !config.data || !claim.data) return;
    const kit = buildClaimKit({
      account: me.data.wallet.address,
      claim: claim.data,
      chain: config.data.chain,
      origin: window.location.origin,
    });
    const file = claimKitFile(kit);
    saveFile(file.name, file.type, file.text);
    setSaved(file.name);
  }

  return (
    <section className={styles.kit} aria-label="Claim kit">
      <p id={noteId} className={styles.note}>
        {CLAIM_KIT_NOTE}
      </p>
      <Button
        variant="secondary"
        onClick={download}
        disabled={reason !== null}
        aria-describedby={reason ? `${noteId} ${reasonId}` : noteId}
      >
        Download claim kit
      </Button>
      {reason ? (
        <p id={reasonId} className={styles.reason}>
          {reason}
        </p>
      ) : null}
      <p role="status" className={styles.saved}>
        {saved ? `Saved ${saved}.` : null}
      </p>
    </section>
  );
}
