// The member's account and security settings: profile, password, two-factor sign-in, sessions,
// their data, and deleting the account. Each section is its own component and owns its calls.
import { useQuery } from '@tanstack/react-query';
import { ArrowLeft } from 'lucide-react';
import { Link } from 'react-router';
import { meQuery } from '../../../lib/session';
import card from '../../../ui/card.module.css';
import { PageLoading } from '../../../ui/page-loading';
import { AppearanceSection } from '../components/appearance-section';
import { NotificationsSection } from '../components/notifications-section';
import { PushSection } from '../components/push-section';
import { DeleteSection } from '../components/delete-section';
import { ExportSection } from '../components/export-section';
import { PasskeysSection } from '../components/passkeys-section';
import { PasswordSection } from '../components/password-section';
import { ProfileSection } from '../components/profile-section';
import { RecoveryPhraseSection } from '../components/recovery-phrase-section';
import { SessionsSection } from '../components/sessions-section';
import { TwoFactorSection } from '../components/two-factor-section';
import styles from '../components/account.module.css';

export function Component() {
  const me = useQuery(meQuery);
  if (!me.data) return <PageLoading />;
  return (
    <main className={card.page}>
      <header className={card.header}>
        <Link to="/dashboard" className={styles.back}>
          <ArrowLeft aria-hidden="true" size={18} />
          Back to your wallet
        </Link>
      </header>
      <h1 className={card.title}>Account and security</h1>
      <p className={card.muted}>Signed in as {me.data.email}</p>
      <div className={styles.sections}>
        <ProfileSection me={me.data} />
        <PasswordSection me={me.data} />
        <RecoveryPhraseSection me={me.data} />
        <PasskeysSection me={me.data} />
        <TwoFactorSection me={me.data} />
        <SessionsSection />
        <NotificationsSection>
          <PushSection />
        </NotificationsSection>
        <AppearanceSection />
        <ExportSection />
        <DeleteSection me={me.data} />
      </div>
    </main>
  );
}
