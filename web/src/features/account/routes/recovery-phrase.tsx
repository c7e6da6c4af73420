// The recovery phrase, again (/recovery-phrase): the member's password opens the keystore in the
// wallet worker, which answers the 12 words it holds; the member writes them down and types them
// back, and the words' wallet tells the server the phrase is saved (docs/security.md#the-recovery-phrase).
// A keystore made before it held the phrase cannot show it: the member types the words they kept.
import {
  recoveryPhraseText,
  RECOVERY_PHRASE_FILE_NAME,
  validateMnemonicConfirmation,
  type UserDetails,
} from '@crw/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowLeft } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { saveFile } from '../../../lib/save-file';
import { meQuery } from '../../../lib/session';
import { recordPhraseSaved } from '../../../lib/wallet/phrase-backup';
import { runWalletTask, WalletTaskError } from '../../../lib/wallet/wallet-client';
import { Button } from '../../../ui/button';
import callout from '../../../ui/callout.module.css';
import { CardSection } from '../../../ui/card-section';
import card from '../../../ui/card.module.css';
import { FormMessage, WorkProgress } from '../../../ui/form-message';
import { PhraseWords } from '../../../ui/phrase-words';
import { PhraseField } from '../../../ui/text-field';
import { WalletUnlockField } from '../../../ui/wallet-unlock-field';
import { unlockProblem, useWalletUnlock } from '../../../lib/wallet/passkey-unlock';
import styles from '../components/account.module.css';

export function Component() {
  const me = useQuery(meQuery);
  return (
    <main className={card.page}>
      <header className={card.header}>
        <Link to="/dashboard" className={styles.back}>
          <ArrowLeft aria-hidden="true" size={18} />
          Back to your wallet
        </Link>
      </header>
      {me.data ? <RecoveryPhrase me={me.data} /> : <p className={card.muted}>Loading…</p>}
    </main>
  );
}

type Step =
  | { at: 'password' }
  | { at: 'show'; phrase: string }
  | { at: 'type'; phrase: string | null }
  | { at: 'done' };

const WRONG_WORDS = "These words don't make your wallet. Check each word and their order.";

function RecoveryPhrase({ me }: { me: UserDetails }) {
  const client = useQueryClient();
  const [step, setStep] = useState<Step>({ at: 'password' });
  const unlocker = useWalletUnlock(me.wallet);
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [checking, setChecking] = useState(false);
  const saved = me.wallet.phraseSaved;

  async function reveal(event: FormEvent) {
    event.preventDefault();
    if (!unlocker.ready) return setError('Enter your password.');
    setError(null);
    setProgress(0);
    try {
      const { phrase } = await runWalletTask(
        { kind: 'reveal', unlock: await unlocker.unlock() },
        setProgress,
      );
      unlocker.setPassword('');
      setStep(phrase ? { at: 'show', phrase } : { at: 'type', phrase: null });
    } catch (e) {
      setError(unlockProblem(e) ?? 'Your wallet could not be opened. Please try again.');
    } finally {
      setProgress(null);
    }
  }

  async function check(event: FormEvent) {
    event.preventDefault();
    if (step.at !== 'type') return;
    if (step.phrase) {
      const problem = validateMnemonicConfirmation(typed, step.phrase);
      if (problem) return setError(problem.message);
    } else if (typed.trim().split(/\s+/).length !== 12) {
      return setError('Type all 12 words, in order, with a space between them.');
    }
    setError(null);
    setChecking(true);
    try {
      await recordPhraseSaved(typed, me.wallet.address);
      setTyped('');
      setStep({ at: 'done' });
      await client.invalidateQueries({ queryKey: ['me'] });
    } catch (e) {
      setError(
        e instanceof WalletTaskError && e.reason !== 'error'
          ? WRONG_WORDS
          : e instanceof Error
            ? e.message
            : String(e),
      );
    } finally {
      setChecking(false);
    }
  }

  const title = saved ? 'Your recovery phrase' : 'Back up your wallet';
  return (
    <>
      <h1 className={card.title}>{title}</h1>
      <p className={card.muted}>
        Your 12 words are the only way back into your wallet if you forget your password. Anyone who
        has them can take what is in it: show them to nobody, and nobody from the community will
        ever ask for them.
      </p>
      {step.at === 'password' ? (
        <CardSection titleId="phrase-password" title="Show my recovery phrase">
          <form onSubmit={(e) => void reveal(e)} noValidate className={styles.stack}>
            <p className={card.muted}>
              Your {unlocker.mode === 'passkey' ? 'passkey' : 'password'} opens your wallet here, in
              this browser; the words never leave it.
            </p>
            <WalletUnlockField unlocker={unlocker} error={error} />
            {progress !== null ? (
              <WorkProgress label="Opening your wallet…" fraction={progress} />
            ) : null}
            <Button type="submit" busy={progress !== null}>
              Show my recovery phrase
            </Button>
          </form>
        </CardSection>
      ) : null}
      {step.at === 'show' ? (
        <CardSection titleId="phrase-words" title="Write these words down">
          <PhraseWords phrase={step.phrase} />
          <p className={callout.warning} role="note">
            Write them on paper, in order, and keep it somewhere safe. Then type them back to check.
          </p>
          <div className={styles.actionsRow}>
            <Button
              variant="secondary"
              onClick={() =>
                saveFile(
                  RECOVERY_PHRASE_FILE_NAME,
                  'text/plain',
                  recoveryPhraseText({
                    phrase: step.phrase,
                    email: me.email,
                    address: me.wallet.address,
                    site: window.location.origin,
                  }),
                )
              }
            >
              Download as a text file
            </Button>
            <Button onClick={() => setStep({ at: 'type', phrase: step.phrase })}>
              I have written them down
            </Button>
          </div>
        </CardSection>
      ) : null}
      {step.at === 'type' ? (
        <CardSection titleId="phrase-type" title="Type your 12 words">
          <form onSubmit={(e) => void check(e)} noValidate className={styles.stack}>
            {step.phrase === null ? (
              <p className={callout.info} role="note">
                Your wallet was made before the app kept its recovery phrase locked with your
                password, so it cannot be shown here. If you kept your 12 words, type them to check
                them.
              </p>
            ) : (
              <p className={card.muted}>In order, as you wrote them, with a space between them.</p>
            )}
            <PhraseField label="Your 12 words" value={typed} onChange={setTyped} error={error} />
            <div className={styles.actionsRow}>
              <Button type="submit" busy={checking}>
                Check my words
              </Button>
              {step.phrase ? (
                <Button
                  variant="secondary"
                  onClick={() => {
                    setError(null);
                    setStep({ at: 'show', phrase: step.phrase! });
                  }}
                >
                  Show the words again
                </Button>
              ) : null}
            </div>
          </form>
        </CardSection>
      ) : null}
      {step.at === 'done' ? (
        <CardSection titleId="phrase-done" title="Your wallet is backed up">
          <FormMessage success="Those are your words. Keep them safe: with them, your wallet is never lost." />
          <Link to="/dashboard" className={styles.back}>
            Back to your wallet
          </Link>
        </CardSection>
      ) : null}
    </>
  );
}
