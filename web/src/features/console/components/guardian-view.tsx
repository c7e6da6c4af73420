// The guardian's view (issue 28; docs/operations.md#a-round-this-server-did-not-build): alerts about
// the distributor, open ones first — above all a round in review that this server did not build,
// with how a guardian cancels it before it pays (for a Safe: the file Transaction Builder imports).
import { useQuery } from '@tanstack/react-query';
import { ShieldAlert, ShieldCheck } from 'lucide-react';
import card from '../../../ui/card.module.css';
import { CardSection } from '../../../ui/card-section';
import { MiddleTruncate } from '../../../ui/middle-truncate';
import { roundAlertsQuery } from '../api/console';
import { when } from './format';
import rounds from './rounds.module.css';

export function GuardianView() {
  const alerts = useQuery(roundAlertsQuery);
  const open = alerts.data?.alerts.filter((a) => a.resolvedAt === null) ?? [];
  const past = alerts.data?.alerts.filter((a) => a.resolvedAt !== null) ?? [];
  return (
    <CardSection titleId="guardian" title="Guardian">
      {alerts.isPending ? <p className={card.muted}>Loading…</p> : null}
      {alerts.isError ? <p className={card.muted}>{alerts.error.message}</p> : null}
      {alerts.data && open.length === 0 ? (
        <p className={rounds.allClear}>
          <ShieldCheck aria-hidden="true" size={18} />
          Nothing to act on: every round on chain was built here, and the treasury and the publisher
          look as they should.
        </p>
      ) : null}
      {open.length > 0 ? (
        <ul className={rounds.alerts} aria-label="Open alerts">
          {open.map((a) => (
            <li key={a.id} className={rounds.alert} role="alert">
              <p className={rounds.alertText}>
                <ShieldAlert aria-hidden="true" size={18} />
                {a.text}
              </p>
              <p className={card.muted}>Seen {when(a.raisedAt)}</p>
              {a.kind === 'foreign_root' && a.round !== null ? (
                <div className={rounds.alertSteps}>
                  <p>
                    Cancel it before it pays: a guardian calls <code>cancelRoot({a.round})</code> on
                    the distributor{' '}
                    <MiddleTruncate text={alerts.data!.distributor} className={card.mono} />.
                  </p>
                  <p>
                    With a Safe:{' '}
                    <a href={`/api/console/rounds/${a.round}/cancel.json`} download>
                      download cancel-round-{a.round}.json
                    </a>
                    , then in the Safe open Apps → Transaction Builder, drop the file in, and sign.
                    Then have the treasury replace the publisher key (it was used by someone else).
                  </p>
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      {alerts.data && alerts.data.reports.length > 0 ? (
        <>
          <h3 className={rounds.reportsTitle}>What members said about their line</h3>
          <ul className={rounds.reports} aria-label="Members' reports">
            {alerts.data.reports.map((r) => (
              <li key={r.id}>
                <p>
                  <strong>Round {r.round}</strong> · {r.email} · {when(r.at)}
                </p>
                <blockquote>{r.message}</blockquote>
              </li>
            ))}
          </ul>
          <p className={card.muted}>
            If a round in review is wrong, a guardian cancels it before it pays (cancelRoot with its
            number); the next round is built again.
          </p>
        </>
      ) : null}
      {past.length > 0 ? (
        <details className={rounds.pastAlerts}>
          <summary>Resolved ({past.length})</summary>
          <ul>
            {past.map((a) => (
              <li key={a.id}>
                {a.text} <span className={card.muted}>Resolved {when(a.resolvedAt!)}</span>
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </CardSection>
  );
}
