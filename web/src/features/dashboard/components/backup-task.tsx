// "Back up your wallet": on the dashboard until the member typed their recovery phrase back
// (docs/security.md#the-recovery-phrase), so closing the tab on the phrase screen loses nothing.
import { ShieldAlert } from 'lucide-react';
import { Link } from 'react-router';
import { CardSection } from '../../../ui/card-section';
import card from '../../../ui/card.module.css';
import forms from '../../../ui/forms.module.css';
import styles from './dashboard.module.css';

export function BackupTask() {
  return (
    <CardSection titleId="backup-task" title="Back up your wallet">
      <div className={styles.task}>
        <ShieldAlert aria-hidden="true" size={28} className={styles.taskIcon} />
        <p className={card.muted}>
          Your 12-word recovery phrase is the only way back into your wallet if you forget your
          password. Write it down and check it: it takes a minute.
        </p>
      </div>
      <Link to="/recovery-phrase" className={`${forms.button} ${styles.taskLink}`}>
        Back up now
      </Link>
    </CardSection>
  );
}
