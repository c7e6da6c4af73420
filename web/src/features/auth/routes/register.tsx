// The registration screen: the full form, then the wallet, then the phrase.
import { findReferralCode, validateRegistration } from '@crw/core';
import { useQuery } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { Link, useLocation } from 'react-router';
import { publicConfigQuery } from '../../../lib/session';
import { Button } from '../../../ui/button';
import { FormMessage, useForm, WorkProgress } from '../../../ui/form-message';
import { PasswordField, TextField } from '../../../ui/text-field';
import { AuthCard } from '../components/auth-card';
import styles from '../components/auth.module.css';
import { useCreateAccount } from '../hooks/use-create-account';
import { useSignupGate } from '../hooks/use-signup-gate';
import { signUpError, signUpErrorField } from '../messages';

const EMPTY = { firstName: '', lastName: '', email: '', password: '', confirmPassword: '' };

export function Component() {
  const location = useLocation();
  const referralCode = findReferralCode(location);
  const terms = useQuery(publicConfigQuery).data?.links.terms;
  const { values: form, field, setProblem, formError } = useForm(EMPTY);
  const account = useCreateAccount((e) =>
    setProblem({ field: signUpErrorField(e), message: signUpError(e, 'register') }),
  );
  const gate = useSignupGate('register');

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    const invalid = validateRegistration(form);
    if (invalid) return setProblem(invalid);
    void account.createAccount(
      {
        email: form.email.trim(),
        password: form.password,
        firstName: form.firstName.trim(),
        lastName: form.lastName.trim(),
        ...(referralCode ? { referralCode } : {}),
      },
      gate,
    );
  }

  return (
    <AuthCard
      title="Set up your wallet"
      subtitle="Create your account and your own wallet. Your password locks the wallet on this device."
    >
      <form onSubmit={onSubmit} noValidate>
        <TextField label="First name" autoComplete="given-name" {...field('firstName')} />
        <TextField label="Last name" autoComplete="family-name" {...field('lastName')} />
        <TextField label="Email" type="email" autoComplete="email" {...field('email')} />
        <PasswordField label="Password" autoComplete="new-password" {...field('password')} />
        <PasswordField
          label="Confirm password"
          autoComplete="new-password"
          {...field('confirmPassword')}
        />
        <p>
          By creating a wallet you agree to the{' '}
          {terms ? (
            <a href={terms} target="_blank" rel="noreferrer">
              terms of service
            </a>
          ) : (
            'terms of service'
          )}
          .
        </p>
        <FormMessage error={formError} />
        {account.progress !== null ? (
          <WorkProgress label="Creating your wallet…" fraction={account.progress} />
        ) : null}
        <Button type="submit" busy={account.busy}>
          CREATE WALLET
        </Button>
      </form>
      <p className={styles.center}>
        Already have an account? <Link to="/">Login here</Link>
      </p>
    </AuthCard>
  );
}
