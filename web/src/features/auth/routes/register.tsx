// The registration screen: the one sign-up form (features/auth/components/sign-up-form.tsx) under
// its own heading, then the wallet, then the phrase.
import { findReferralCode } from '@crw/core';
import { Link, useLocation } from 'react-router';
import { AuthCard } from '../components/auth-card';
import styles from '../components/auth.module.css';
import { SignUpForm } from '../components/sign-up-form';

export function Component() {
  const referralCode = findReferralCode(useLocation());
  return (
    <AuthCard
      title="Set up your wallet"
      subtitle="Create your account and your own wallet. Your password locks the wallet on this device."
    >
      <SignUpForm referralCode={referralCode} />
      <p className={styles.center}>
        Already have an account? <Link to="/">Sign in</Link>
      </p>
    </AuthCard>
  );
}
