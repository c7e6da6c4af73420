// "Sign in faster next time": after a sign-in with the password, on a device that has its own
// passkeys (a phone's or a laptop's lock), a member with no passkey yet is offered one, once per
// sign-in; closing the card keeps it away from this device for 14 days (decision 0026).
import { useQuery } from '@tanstack/react-query';
import { Fingerprint } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { carryOver } from '../../../lib/carry-over';
import { devicePasskeysAvailable, passkeysQuery } from '../../../lib/passkeys';
import { readStored, writeStored } from '../../../lib/storage';
import { Button } from '../../../ui/button';
import { CardSection } from '../../../ui/card-section';
import card from '../../../ui/card.module.css';
import styles from './dashboard.module.css';

export const PASSKEY_OFFER_QUIET_MS = 14 * 24 * 60 * 60 * 1000;

function closedRecently(now = Date.now()): boolean {
  const at = Number(readStored('passkeyPromptClosedAt'));
  return Number.isFinite(at) && at > 0 && now - at < PASSKEY_OFFER_QUIET_MS;
}

export function PasskeyOffer() {
  const navigate = useNavigate();
  const [afterPasswordSignIn] = useState(() => carryOver.peek('passwordSignIn') === 'yes');
  const [device, setDevice] = useState(false);
  const [closed, setClosed] = useState(closedRecently);
  const wanted = afterPasswordSignIn && !closed;
  const passkeys = useQuery({ ...passkeysQuery, enabled: wanted && device });
  useEffect(() => {
    if (!wanted) return;
    let live = true;
    void devicePasskeysAvailable().then((available) => live && setDevice(available));
    return () => {
      live = false;
    };
  }, [wanted]);
  if (!wanted || !device || passkeys.data?.passkeys.length !== 0) return null;
  const close = () => {
    writeStored('passkeyPromptClosedAt', String(Date.now()));
    carryOver.clear('passwordSignIn');
    setClosed(true);
  };
  return (
    <CardSection titleId="passkey-offer-title" title="Sign in faster next time">
      <div className={styles.task}>
        <Fingerprint aria-hidden="true" size={28} className={styles.taskIcon} />
        <p className={card.muted}>
          Use this device’s fingerprint, face or PIN instead of typing your password, to sign in and
          to unlock your wallet when you claim. Your password keeps working too.
        </p>
      </div>
      <div className={styles.installActions}>
        <Button
          onClick={() => {
            carryOver.clear('passwordSignIn');
            navigate('/account#passkeys');
          }}
        >
          Add a passkey
        </Button>
        <Button variant="secondary" onClick={close}>
          Not now
        </Button>
      </div>
    </CardSection>
  );
}
