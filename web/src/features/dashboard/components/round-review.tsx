// A round in review, on the member's dashboard (issue 28; docs/decisions/0027): how their amount
// in it was worked out, and "Something wrong? Tell the community" — a few words to the operators
// and guardians, who can cancel a wrong round before it pays.
import { errorMessages, formatReme, okResponse, type MemberTokens } from '@crw/core';
import * as Dialog from '@radix-ui/react-dialog';
import { useQueryClient } from '@tanstack/react-query';
import { MessageSquareWarning } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { apiFetch, ApiError } from '../../../lib/api-client';
import { meQuery } from '../../../lib/session';
import { Button } from '../../../ui/button';
import card from '../../../ui/card.module.css';
import { DialogFrame } from '../../../ui/dialog-frame';
import { FormMessage } from '../../../ui/form-message';
import { TextAreaField } from '../../../ui/text-field';
import { notify } from '../../../ui/toaster';
import styles from './balance-card.module.css';

type Review = NonNullable<MemberTokens['inReview']>;

function ReportDialog({ review }: { review: Review }) {
  const client = useQueryClient();
  const [open, setOpen] = useState(false);
  const [message, setMessage] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const send = async (event: FormEvent) => {
    event.preventDefault();
    if (message.trim() === '') {
      setError('Say in a few words what looks wrong.');
      return;
    }
    setSending(true);
    setError(null);
    try {
      await apiFetch(`/api/rounds/${review.round}/report`, okResponse, {
        method: 'POST',
        body: { message: message.trim() },
      });
      setOpen(false);
      notify.success('Thank you: the community’s operators and guardians were told.');
      await client.invalidateQueries({ queryKey: meQuery.queryKey });
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : errorMessages.internal_error);
    } finally {
      setSending(false);
    }
  };
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger asChild>
        <Button variant="secondary">
          <MessageSquareWarning aria-hidden="true" size={18} />
          Something wrong? Tell the community
        </Button>
      </Dialog.Trigger>
      <DialogFrame
        title={`Something wrong in round ${review.round}?`}
        description={
          <p className={card.muted}>
            Your words go to the community’s operators and guardians, with your e-mail address.
            Until {formatReme(review.total)} REME pay out, they can cancel a wrong round and build
            it again.
          </p>
        }
      >
        <form onSubmit={(event) => void send(event)} noValidate>
          <TextAreaField
            label="What looks wrong?"
            value={message}
            onChange={setMessage}
            maxLength={1000}
            rows={4}
            hint="For example: a friend who joined through my link is missing."
          />
          <FormMessage error={error} />
          <Button type="submit" busy={sending}>
            Send
          </Button>
        </form>
      </DialogFrame>
    </Dialog.Root>
  );
}

export function RoundReview({ review, tokens }: { review: Review; tokens: MemberTokens }) {
  const fromOthers = BigInt(review.total) - BigInt(tokens.signupTokens);
  return (
    <div className={styles.review} data-testid="round-review">
      <details>
        <summary>How this was worked out</summary>
        <p>
          Round {review.round} gives you {formatReme(review.total)} REME in all: everything you had
          earned as REME when it was made — {formatReme(tokens.signupTokens)} for joining
          {fromOthers > 0n
            ? `, and ${formatReme(fromOthers.toString())} from friends who joined through you and from care CAPs you converted`
            : ''}
          . Rounds before it gave you {formatReme(tokens.distributed)}, so it adds{' '}
          {formatReme(review.adds)}. Credits still held for the community’s check are not in it; a
          later round brings them once they are released.
        </p>
      </details>
      {review.reported ? (
        <p className={card.muted}>You told the community about this round. Thank you.</p>
      ) : (
        <ReportDialog review={review} />
      )}
    </div>
  );
}
