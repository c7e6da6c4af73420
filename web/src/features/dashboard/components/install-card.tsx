// "Keep REME Wallet on your home screen": offered once the member has claimed (they have something
// to come back to), unless the app is already opened from the home screen or the card was closed.
// Where the browser can install it (Chrome, Edge), Install asks it to; on an iPhone or iPad, whose
// Safari cannot be asked, the share-sheet steps are said. Elsewhere nothing is offered.
import { Share, Smartphone } from 'lucide-react';
import { useEffect, useState } from 'react';
import {
  canPromptInstall,
  isAppleMobile,
  onInstallPromptChange,
  promptInstall,
  runningInstalled,
} from '../../../lib/install-prompt';
import { readStored, writeStored } from '../../../lib/storage';
import { Button } from '../../../ui/button';
import { CardSection } from '../../../ui/card-section';
import card from '../../../ui/card.module.css';
import styles from './dashboard.module.css';

export function InstallCard({ claimed }: { claimed: boolean }) {
  const [promptable, setPromptable] = useState(canPromptInstall);
  const [closed, setClosed] = useState(() => readStored('installCardDismissed') === 'true');
  useEffect(() => onInstallPromptChange(() => setPromptable(canPromptInstall())), []);
  const apple = isAppleMobile();
  if (!claimed || closed || runningInstalled() || (!promptable && !apple)) return null;
  const close = () => {
    writeStored('installCardDismissed', 'true');
    setClosed(true);
  };
  return (
    <CardSection titleId="install-title" title="Keep your wallet on your home screen">
      <div className={styles.task}>
        <Smartphone aria-hidden="true" size={28} className={styles.taskIcon} />
        {promptable ? (
          <p className={card.muted}>
            Open REME Wallet like an app, full screen, in one tap. It takes no space to speak of and
            your wallet stays on this device.
          </p>
        ) : (
          <ol className={styles.installSteps}>
            <li>
              Tap Share <Share aria-hidden="true" size={16} /> (the square with an arrow) at the
              foot of Safari.
            </li>
            <li>Choose “Add to Home Screen”, then Add.</li>
          </ol>
        )}
      </div>
      <div className={styles.installActions}>
        {promptable ? (
          <Button onClick={() => void promptInstall().then((installed) => installed && close())}>
            Install the app
          </Button>
        ) : null}
        <Button variant="secondary" onClick={close}>
          {promptable ? 'Not now' : 'Done'}
        </Button>
      </div>
    </CardSection>
  );
}
