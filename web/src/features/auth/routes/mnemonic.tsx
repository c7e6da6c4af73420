// The mnemonic screen: the phrase is shown, saved, then typed back. Typing it back is the real
// check (the button to go on is always there, for a member who writes the words on paper): the
// words make the wallet, whose key tells the server the phrase is saved. Until then the dashboard
// keeps a "Back up your wallet" task, so a member who closes this tab is reminded.
import {
  COPIED_INDICATOR_MS,
  recoveryPhraseText,
  RECOVERY_PHRASE_FILE_NAME,
  SIGNUP_REDIRECT_MS,
  validateMnemonicConfirmation,
} from '@crw/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { carryOver } from '../../../lib/carry-over';
import { publicConfigQuery } from '../../../lib/session';
import { saveFile } from '../../../lib/save-file';
import { removeStored, writeStored } from '../../../lib/storage';
import { recordPhraseSaved } from '../../../lib/wallet/phrase-backup';
import { Button } from '../../../ui/button';
import { FormMessage } from '../../../ui/form-message';
import { PhraseWords } from '../../../ui/phrase-words';
import { PhraseField } from '../../../ui/text-field';
import { AuthCard } from '../components/auth-card';
import callout from '../../../ui/callout.module.css';
import styles from '../components/auth.module.css';

export function Component() {
  const [phrase] = useState(() => carryOver.peek('mnemonic'));
  const { email, address, signedIn } =
    (useLocation().state as { email?: string; address?: string; signedIn?: boolean } | null) ?? {};
  const navigate = useNavigate();
  const links = useQuery(publicConfigQuery).data?.links;
  const [view, setView] = useState<'show' | 'confirm'>('show');
  const [copied, setCopied] = useState(false);
  const [typed, setTyped] = useState('');
  const [checking, setChecking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [ready, setReady] = useState(false);
  const copiedTimer = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => {
    // Only a new sign-up's phrase holds member pages shut until it is confirmed. Without one (a
    // reload, or Back after confirming) the screen just leaves: a signed-in member stays signed in.
    if (phrase) removeStored('allowed');
    return () => clearTimeout(copiedTimer.current);
  }, [phrase]);

  if (!phrase) return <Navigate replace to="/" />;

  async function copyAll() {
    try {
      await navigator.clipboard.writeText(phrase!);
    } catch {
      return setError('Copying is blocked in this browser. Use Download text doc instead.');
    }
    setCopied(true);
    clearTimeout(copiedTimer.current);
    copiedTimer.current = setTimeout(() => setCopied(false), COPIED_INDICATOR_MS);
  }

  function download() {
    saveFile(
      RECOVERY_PHRASE_FILE_NAME,
      'text/plain',
      recoveryPhraseText({
        phrase: phrase!,
        email: email ?? null,
        address: address ?? null,
        site: window.location.origin,
      }),
    );
  }

  function goBack() {
    setView('show');
    setCopied(false);
    setError(null);
  }

  async function confirm() {
    const problem = validateMnemonicConfirmation(typed, phrase!);
    if (problem) return setError(problem.message);
    setError(null);
    // The member may open member pages from here on (even if the next step is interrupted).
    writeStored('allowed', 'true');
    setChecking(true);
    try {
      await recordPhraseSaved(phrase!, address);
    } catch {
      // Not recorded (offline, a slow server): the dashboard keeps its "Back up your wallet" task,
      // which checks the words again. The member goes on either way.
    }
    setChecking(false);
    carryOver.clear('mnemonic');
    if (signedIn) {
      setReady(true);
      setTimeout(() => navigate('/dashboard', { replace: true }), SIGNUP_REDIRECT_MS);
      return;
    }
    navigate('/', { replace: true, state: email ? { registeredEmail: email } : null });
  }

  const help = links ? (
    <p className={styles.center}>
      <a href={links.help} target="_blank" rel="noreferrer">
        Do you need help?
      </a>{' '}
      ·{' '}
      <a href={links.terms} target="_blank" rel="noreferrer">
        Terms
      </a>
    </p>
  ) : null;

  if (view === 'confirm') {
    return (
      <AuthCard
        wide
        footer={false}
        title="Confirm your recovery code"
        subtitle="Type your 12 words in order, as you saved them."
      >
        <PhraseField label="Your 12-word code" value={typed} onChange={setTyped} error={error} />
        <FormMessage
          success={ready ? 'Your wallet is ready! Taking you to your dashboard…' : null}
        />
        <div className={styles.actions}>
          <Button onClick={() => void confirm()} busy={ready || checking}>
            Continue
          </Button>
          <Button variant="secondary" onClick={goBack}>
            Go back to copy again
          </Button>
        </div>
        {help}
      </AuthCard>
    );
  }

  return (
    <AuthCard
      wide
      footer={false}
      title="Your recovery code"
      subtitle="These 12 words are the only way to recover your wallet if you forget your password."
    >
      <PhraseWords phrase={phrase} />
      <p className={callout.warning} role="note">
        Write these words down, or download them, and keep them somewhere safe. Anyone who has them
        can take what is in your wallet: never share them. You can see them again later from your
        account page, with your password.
      </p>
      <FormMessage error={error} />
      <div className={styles.actions}>
        <Button variant="secondary" onClick={() => void copyAll()}>
          {copied ? 'Copied' : 'Copy all words'}
        </Button>
        <Button variant="secondary" onClick={download}>
          Download text doc
        </Button>
        <Button onClick={() => setView('confirm')}>I have saved my code</Button>
      </div>
      {help}
    </AuthCard>
  );
}
