// The name the greetings use, and the username.
import type { UserDetails } from '@crw/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ApiError } from '../../../lib/api-client';
import { memberChanged, meQuery } from '../../../lib/session';
import { Button } from '../../../ui/button';
import { CardSection } from '../../../ui/card-section';
import { FormMessage } from '../../../ui/form-message';
import { TextField } from '../../../ui/text-field';
import { saveProfile } from '../api/settings';
import styles from './account.module.css';

export function ProfileSection({ me }: { me: UserDetails }) {
  const queryClient = useQueryClient();
  const [fullName, setFullName] = useState(me.fullName);
  const [username, setUsername] = useState(me.username);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSaved(false);
    if (!username.trim()) return setError('Choose a username: it is how the community sees you.');
    setError(null);
    setBusy(true);
    try {
      await saveProfile({ fullName, username });
      memberChanged();
      await queryClient.invalidateQueries({ queryKey: meQuery.queryKey });
      setSaved(true);
    } catch (e) {
      setError(
        e instanceof ApiError ? e.message : 'Your profile could not be saved. Please try again.',
      );
    } finally {
      setBusy(false);
    }
  }

  const unchanged = fullName.trim() === me.fullName && username.trim() === me.username;
  return (
    <CardSection titleId="profile-title" title="Profile">
      <p className={styles.lead}>
        Your name is how we greet you. Your username is how others in the community see you.
      </p>
      <form onSubmit={onSubmit} noValidate className={styles.form}>
        <TextField
          label="Your name"
          autoComplete="name"
          maxLength={100}
          value={fullName}
          onChange={setFullName}
        />
        <TextField
          label="Username"
          autoComplete="username"
          maxLength={64}
          value={username}
          onChange={setUsername}
          aria-invalid={error ? true : undefined}
        />
        <FormMessage error={error} success={saved ? 'Saved.' : null} />
        <Button type="submit" busy={busy} disabled={unchanged} className={styles.action}>
          Save profile
        </Button>
      </form>
    </CardSection>
  );
}
