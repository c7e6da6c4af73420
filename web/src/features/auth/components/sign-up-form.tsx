// The one sign-up form: the auth card's Create an account, /register and a referral link all show
// it (docs/product.md#screens). Names are optional (a referral link names its inviter by the first
// one); the password rule is said before anything is typed, and every problem is said at once.
import { defaultUsername, PASSWORD_MIN_LENGTH, validateSignUp } from '@crw/core';
import { useQuery } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { publicConfigQuery } from '../../../lib/session';
import { Button } from '../../../ui/button';
import { FormMessage, useForm, WorkProgress } from '../../../ui/form-message';
import { PasswordField, TextField } from '../../../ui/text-field';
import { useCreateAccount } from '../hooks/use-create-account';
import { useSignupGate } from '../hooks/use-signup-gate';
import { signUpError, signUpErrorField } from '../messages';
import styles from './auth.module.css';

export function SignUpForm({
  referralCode,
  initialEmail = '',
}: {
  referralCode: string | null;
  initialEmail?: string;
}) {
  const terms = useQuery(publicConfigQuery).data?.links.terms;
  const { values, field, setProblem, setProblems, formError } = useForm({
    firstName: '',
    lastName: '',
    email: initialEmail,
    password: '',
    confirmPassword: '',
  });
  const account = useCreateAccount((e) =>
    setProblem({ field: signUpErrorField(e), message: signUpError(e, Boolean(referralCode)) }),
  );
  const gate = useSignupGate('register');

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const problems = validateSignUp(values);
    setProblems(problems);
    if (problems.length > 0) return;
    const email = values.email.trim();
    void account.createAccount(
      {
        email,
        password: values.password,
        username: defaultUsername('', email),
        firstName: values.firstName.trim(),
        lastName: values.lastName.trim(),
        ...(referralCode ? { referralCode } : {}),
      },
      gate,
    );
  }

  return (
    <form onSubmit={onSubmit} noValidate>
      <div className={styles.names}>
        <TextField
          label="First name (optional)"
          autoComplete="given-name"
          {...field('firstName')}
        />
        <TextField label="Last name (optional)" autoComplete="family-name" {...field('lastName')} />
      </div>
      <TextField label="Email" type="email" autoComplete="email" {...field('email')} />
      <PasswordField
        label="Password"
        autoComplete="new-password"
        hint={`At least ${PASSWORD_MIN_LENGTH} characters. It also locks your wallet on this device.`}
        {...field('password')}
      />
      <PasswordField
        label="Confirm password"
        autoComplete="new-password"
        {...field('confirmPassword')}
      />
      <p className={styles.consent}>
        By creating an account you agree to the{' '}
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
        Create account
      </Button>
    </form>
  );
}
