// Download my data: everything the service holds about the member, as a JSON file made
// from GET /api/account/export. It names no other member.
import { useState } from 'react';
import { Button } from '../../../ui/button';
import { CardSection } from '../../../ui/card-section';
import card from '../../../ui/card.module.css';
import { FormMessage } from '../../../ui/form-message';
import { downloadMyData } from '../api/lifecycle';
import styles from './account-lifecycle.module.css';

export function ExportSection() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);

  async function download() {
    setBusy(true);
    setError(null);
    setSuccess(null);
    try {
      setSuccess(`Downloaded ${await downloadMyData()}.`);
    } catch (e) {
      setError(`Your data could not be downloaded: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      setBusy(false);
    }
  }

  return (
    <CardSection titleId="export-title" title="Your data">
      <p className={styles.intro}>Download a copy of what we hold about you, as a JSON file:</p>
      <ul className={`${card.muted} ${styles.list}`}>
        <li>your profile: e-mail, name, username, referral code, when you joined;</li>
        <li>your wallet address (never your recovery code or password);</li>
        <li>every CAPs credit, and how many members joined through you at each level;</li>
        <li>your share in each distribution round and your claims.</li>
      </ul>
      <p className={`${card.muted} ${styles.intro}`}>
        It names no other member: referral credits show their level only.
      </p>
      <FormMessage error={error} success={success} />
      <Button
        variant="secondary"
        busy={busy}
        onClick={() => void download()}
        className={styles.action}
      >
        {busy ? 'Preparing your file…' : 'Download my data'}
      </Button>
    </CardSection>
  );
}
