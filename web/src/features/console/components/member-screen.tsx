// One member's page: who they are, their CAPs and ledger, their network, wallet and chain
// figures, rounds, claims and mails; and what an operator can do for them.
import { formatReme } from '@crw/core';
import { MEMBER_LEDGER_ROWS, type MemberDetail } from '@crw/core/console';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowLeft } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { Button } from '../../../ui/button';
import card from '../../../ui/card.module.css';
import { CardSection } from '../../../ui/card-section';
import { FormMessage } from '../../../ui/form-message';
import { MiddleTruncate } from '../../../ui/middle-truncate';
import { PageLoading } from '../../../ui/page-loading';
import { TextField } from '../../../ui/text-field';
import { notify } from '../../../ui/toaster';
import { creditCareAction, memberQuery, resendConfirmation } from '../api/console';
import { when } from './format';
import styles from './console.module.css';
import { day } from './members-screen';

function CareActionForm({ member }: { member: MemberDetail['member'] }) {
  const client = useQueryClient();
  const [caps, setCaps] = useState('');
  const [description, setDescription] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  // One key per care action: a retry after a failure sends the same key, so it credits once.
  const [key, setKey] = useState(() => crypto.randomUUID());
  const credit = useMutation({
    mutationFn: () =>
      creditCareAction(member.id, { caps: Number(caps), description: description.trim() }, key),
    onSuccess: async (result) => {
      notify.success(
        result.credited
          ? `Credited ${result.caps} CAPs to ${member.name || member.email}.`
          : 'That care action was already credited: nothing changed.',
      );
      setCaps('');
      setDescription('');
      setKey(crypto.randomUUID());
      await client.invalidateQueries({ queryKey: ['console'] });
    },
    onError: (error) => setProblem(error.message),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const n = Number(caps);
    if (!Number.isInteger(n) || n <= 0 || n > 100_000)
      return setProblem('Enter the CAPs as a whole number from 1 to 100,000.');
    if (!description.trim()) return setProblem('Say what the care action was.');
    setProblem(null);
    credit.mutate();
  };
  return (
    <form onSubmit={submit} noValidate>
      <TextField
        label="CAPs"
        inputMode="numeric"
        value={caps}
        onChange={setCaps}
        autoComplete="off"
      />
      <TextField
        label="What they did"
        value={description}
        onChange={setDescription}
        maxLength={200}
        autoComplete="off"
      />
      <FormMessage error={problem} />
      <Button type="submit" busy={credit.isPending}>
        Credit care action
      </Button>
    </form>
  );
}

function ResendConfirmation({ member }: { member: MemberDetail['member'] }) {
  const client = useQueryClient();
  const resend = useMutation({
    mutationFn: () => resendConfirmation(member.id),
    onSuccess: async () => {
      notify.success(`A new confirmation link is on its way to ${member.email}.`);
      await client.invalidateQueries({ queryKey: ['console', 'member', member.id] });
    },
    onError: (error) => notify.error(error.message),
  });
  return (
    <Button
      variant="secondary"
      className={card.small}
      busy={resend.isPending}
      onClick={() => resend.mutate()}
    >
      Resend confirmation
    </Button>
  );
}

function Rows<T>({
  label,
  items,
  empty,
  columns,
}: {
  label: string;
  items: T[];
  empty: string;
  columns: Array<{ name: string; cell: (item: T) => React.ReactNode; numeric?: boolean }>;
}) {
  if (items.length === 0) return <p className={card.muted}>{empty}</p>;
  return (
    <div className={styles.scroll}>
      <table className={`${styles.table} ${styles.stack}`} aria-label={label}>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.name} scope="col" className={c.numeric ? styles.num : undefined}>
                {c.name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {items.map((item, i) => (
            <tr key={i}>
              {columns.map((c) => (
                <td key={c.name} data-label={c.name} className={c.numeric ? styles.num : undefined}>
                  {c.cell(item)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function MemberScreen() {
  const { id = '' } = useParams();
  const detail = useQuery(memberQuery(id));
  if (detail.isError)
    return (
      <>
        <Link to="/operator/members">Back to members</Link>
        <FormMessage error={detail.error.message} />
      </>
    );
  if (!detail.data) return <PageLoading />;
  const { member, caps, ledger, network, chain, rounds, claims, sponsoredClaims, mails } =
    detail.data;
  const names = new Map(network.members.map((m) => [m.id, m.name]));
  return (
    <article aria-labelledby="member-title">
      <Link to="/operator/members" className={styles.sub}>
        <ArrowLeft aria-hidden="true" size={14} /> Back to members
      </Link>
      <h1 id="member-title" className={card.title}>
        {member.name || member.username}
      </h1>
      <p className={card.muted}>
        {member.email} · @{member.username} · joined {day(member.joinedAt)}{' '}
        <span className={member.confirmed ? styles.yes : styles.no}>
          {member.confirmed ? 'Confirmed' : 'Not confirmed'}
        </span>{' '}
        {member.operator ? <span className={styles.tag}>Operator</span> : null}
      </p>
      <div className={styles.columns}>
        <CardSection titleId="member-caps" title="CAPs">
          <dl className={styles.facts}>
            <dt>Registration</dt>
            <dd>{caps.registration}</dd>
            <dt>Referrals</dt>
            <dd>{caps.referrals}</dd>
            <dt>Care actions</dt>
            <dd>{caps.careActions}</dd>
            <dt>Total</dt>
            <dd>{caps.total.toLocaleString('en-GB')}</dd>
          </dl>
        </CardSection>
        <CardSection titleId="member-care" title="Credit a care action">
          <CareActionForm member={member} />
        </CardSection>
        <CardSection titleId="member-wallet" title="Wallet and chain">
          <dl className={styles.facts}>
            <dt>Wallet</dt>
            <dd>
              {member.wallet ? <MiddleTruncate text={member.wallet} className={card.mono} /> : '—'}
            </dd>
            <dt>Referral code</dt>
            <dd className={card.mono}>{member.referralCode ?? '—'}</dd>
            <dt>REME held</dt>
            <dd>{chain?.remeBalance ? formatReme(chain.remeBalance) : '—'}</dd>
            <dt>REME claimed</dt>
            <dd>{chain?.claimed ? formatReme(chain.claimed) : '—'}</dd>
            <dt>Two-factor sign-in</dt>
            <dd>{member.twoFactorEnabled ? 'On' : 'Off'}</dd>
            <dt>Referred by</dt>
            <dd>
              {member.referredBy ? (
                <Link to={`/operator/members/${encodeURIComponent(member.referredBy.id)}`}>
                  {member.referredBy.name || 'a member'}
                </Link>
              ) : (
                'nobody'
              )}
            </dd>
          </dl>
        </CardSection>
        <CardSection titleId="member-network" title="Network">
          <dl className={styles.facts}>
            <dt>Level 1</dt>
            <dd>{network.level1}</dd>
            <dt>Level 2</dt>
            <dd>{network.level2}</dd>
            <dt>Level 3</dt>
            <dd>{network.level3}</dd>
          </dl>
          <Rows
            label="Members of the network"
            items={network.members}
            empty="Nobody has joined through this member yet."
            columns={[
              {
                name: 'Member',
                cell: (m) => (
                  <Link to={`/operator/members/${encodeURIComponent(m.id)}`}>
                    {m.name || 'a member'}
                  </Link>
                ),
              },
              { name: 'Level', cell: (m) => m.level, numeric: true },
              {
                name: 'Brought in by',
                cell: (m) =>
                  m.parentId === member.id ? 'this member' : (names.get(m.parentId ?? '') ?? '—'),
              },
              { name: 'Joined', cell: (m) => day(m.joinedAt) },
            ]}
          />
        </CardSection>
      </div>
      <CardSection titleId="member-ledger" title="CAPs ledger">
        {ledger.length >= MEMBER_LEDGER_ROWS ? (
          <p className={card.muted}>
            The newest {MEMBER_LEDGER_ROWS} entries; the totals above count them all.
          </p>
        ) : null}
        <Rows
          label="CAPs ledger"
          items={ledger}
          empty="No CAPs yet."
          columns={[
            { name: 'When', cell: (l) => when(l.createdAt) },
            { name: 'What', cell: (l) => l.description },
            // A conversion spends care CAPs (for REME); every other entry credits them.
            {
              name: 'CAPs',
              cell: (l) => `${l.kind === 'conversion' ? '−' : '+'}${l.caps}`,
              numeric: true,
            },
          ]}
        />
      </CardSection>
      <div className={styles.columns}>
        <CardSection titleId="member-rounds" title="Rounds and claims">
          <Rows
            label="Distribution rounds"
            items={rounds}
            empty="Not in a distribution round yet."
            columns={[
              { name: 'Round', cell: (r) => r.round, numeric: true },
              { name: 'Status', cell: (r) => r.status },
              {
                name: 'REME (total)',
                cell: (r) => formatReme(r.cumulativeAmount),
                numeric: true,
              },
            ]}
          />
          <Rows
            label="Claims on the chain"
            items={claims}
            empty="No claim on the chain yet."
            columns={[
              { name: 'Block', cell: (c) => c.blockNumber, numeric: true },
              { name: 'REME', cell: (c) => formatReme(c.amount), numeric: true },
              {
                name: 'Transaction',
                cell: (c) => <MiddleTruncate text={c.txHash} className={card.mono} />,
              },
            ]}
          />
          {sponsoredClaims.length > 0 ? (
            <Rows
              label="Claims the community paid for"
              items={sponsoredClaims}
              empty=""
              columns={[
                { name: 'Round', cell: (c) => c.round, numeric: true },
                { name: 'Status', cell: (c) => c.status },
                { name: 'Asked', cell: (c) => when(c.requestedAt) },
              ]}
            />
          ) : null}
        </CardSection>
        <CardSection titleId="member-mails" title="Mails">
          {member.confirmed ? null : <ResendConfirmation member={member} />}
          <Rows
            label="Mails sent"
            items={mails}
            empty="No mail sent to this member."
            columns={[
              { name: 'Subject', cell: (m) => m.subject },
              {
                name: 'Status',
                cell: (m) =>
                  m.status === 'sent'
                    ? `Sent ${when(m.sentAt ?? m.createdAt)}`
                    : m.lastError
                      ? `Failing (${m.attempts} tries): ${m.lastError}`
                      : 'Waiting to be sent',
              },
            ]}
          />
        </CardSection>
      </div>
    </article>
  );
}
