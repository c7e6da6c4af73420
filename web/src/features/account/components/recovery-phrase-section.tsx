// The recovery phrase on the account page: whether it is saved, and the way to see it again.
import type { UserDetails } from '@crw/core';
import { Link } from 'react-router';
import callout from '../../../ui/callout.module.css';
import { CardSection } from '../../../ui/card-section';
import card from '../../../ui/card.module.css';
import styles from './account.module.css';

export function RecoveryPhraseSection({ me }: { me: UserDetails }) {
  return (
    <CardSection titleId="recovery-phrase-title" title="Recovery phrase">
      {me.wallet.phraseSaved ? (
        <p className={card.muted}>
          You checked your 12 words. They are the only way back into your wallet if you forget your
          password.
        </p>
      ) : (
        <p className={callout.warning} role="note">
          You have not checked your 12 words yet. Without them, a forgotten password means a lost
          wallet.
        </p>
      )}
      <Link to="/recovery-phrase" className={styles.back}>
        {me.wallet.phraseSaved ? 'Show my recovery phrase' : 'Back up your wallet now'}
      </Link>
    </CardSection>
  );
}
