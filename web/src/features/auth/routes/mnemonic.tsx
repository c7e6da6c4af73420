// The mnemonic screen: the phrase is shown once, saved, then typed back.
import {
  COPIED_INDICATOR_MS,
  MNEMONIC_FILE_NAME,
  SIGNUP_REDIRECT_MS,
  validateMnemonicConfirmation,
} from '@crw/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { carryOver } from '../../../lib/carry-over';
import { publicConfigQuery } from '../../../lib/session';
import { removeStored, writeStored } from '../../../lib/storage';
import { Button } from '../../../ui/button';
import { FormMessage } from '../../../ui/form-message';
import { TextAreaField } from '../../../ui/text-field';
import { AuthCard } from '../components/auth-card';
import callout from '../../../ui/callout.module.css';
import styles from '../components/auth.module.css';

export function Component() {
  const [phrase] = useState(() => carryOver.peek('mnemonic'));
  const { email, signedIn } =
    (useLocation().state as { email?: string; signedIn?: boolean } | null) ?? {};
  const navigate = useNavigate();
  const links = useQuery(publicConfigQuery).data?.links;
  const [view, setView] = useState<'show' | 'confirm'>('show');
  const [copied, setCopied] = useState(false);
  const [saved, setSaved] = useState(false);
  const [typed, setTyped] = useState('');
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
  const words = phrase.split(' ');

  async function copyAll() {
    try {
      await navigator.clipboard.writeText(phrase!);
    } catch {
      return setError('Copying is blocked in this browser. Use Download text doc instead.');
    }
    setCopied(true);
    setSaved(true);
    clearTimeout(copiedTimer.current);
    copiedTimer.current = setTimeout(() => setCopied(false), COPIED_INDICATOR_MS);
  }

  function download() {
    const url = URL.createObjectURL(new Blob([`${phrase}\n`], { type: 'text/plain' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = MNEMONIC_FILE_NAME;
    a.click();
    URL.revokeObjectURL(url);
    setSaved(true);
  }

  function goBack() {
    setView('show');
    setCopied(false);
    setSaved(false);
    setError(null);
  }

  function confirm() {
    const problem = validateMnemonicConfirmation(typed, phrase!);
    if (problem) return setError(problem.message);
    writeStored('allowed', 'true');
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
        <TextAreaField
          label="Your 12-word code"
          value={typed}
          onChange={setTyped}
          error={error}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
        />
        <FormMessage
          success={ready ? 'Your wallet is ready! Taking you to your dashboard…' : null}
        />
        <div className={styles.actions}>
          <Button onClick={confirm} busy={ready}>
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
      <ol className={styles.grid} aria-label="Recovery code">
        {words.map((word, i) => (
          <li key={i} className={styles.word}>
            <span className={styles.wordIndex}>{i + 1}.</span>
            {word}
          </li>
        ))}
      </ol>
      <p className={callout.warning} role="note">
        This code is shown only once. Write it down or download it and keep it somewhere safe: we
        cannot show it to you again.
      </p>
      <FormMessage error={error} />
      <div className={styles.actions}>
        <Button variant="secondary" onClick={() => void copyAll()}>
          {copied ? 'Copied' : 'Copy All Words'}
        </Button>
        <Button variant="secondary" onClick={download}>
          Download text doc
        </Button>
        <Button disabled={!saved} onClick={() => setView('confirm')}>
          I have saved my code
        </Button>
      </div>
      {help}
    </AuthCard>
  );
}
