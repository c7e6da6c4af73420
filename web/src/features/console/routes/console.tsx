// The operator console (its own chunks: gate.tsx loads it only for an operator): members, a
// member's page, and the audit log, as tabs under /operator.
import type { ConsoleMe } from '@crw/core/console';
import { Navigate, NavLink, Link, useRoutes } from 'react-router';
import { BrandMark } from '../../../ui/brand-mark';
import styles from '../components/console.module.css';
import { AuditScreen } from '../components/audit-screen';
import { MailScreen } from '../components/mail-screen';
import { OverviewScreen } from '../components/overview-screen';
import { ReviewScreen } from '../components/review-screen';
import { RoundsScreen } from '../components/rounds-screen';
import { MemberScreen } from '../components/member-screen';
import { MembersScreen } from '../components/members-screen';

const SECTIONS = [
  ['overview', 'Overview'],
  ['members', 'Members'],
  ['review', 'Review'],
  ['rounds', 'Rounds'],
  ['mail', 'Mail'],
  ['audit', 'Audit log'],
] as const;

export default function Console({ me }: { me: ConsoleMe }) {
  const screen = useRoutes([
    { index: true, element: <Navigate replace to="overview" /> },
    { path: 'overview', element: <OverviewScreen /> },
    { path: 'review', element: <ReviewScreen /> },
    { path: 'rounds', element: <RoundsScreen /> },
    { path: 'mail', element: <MailScreen /> },
    { path: 'members', element: <MembersScreen /> },
    { path: 'members/:id', element: <MemberScreen /> },
    { path: 'audit', element: <AuditScreen /> },
    { path: '*', element: <Navigate replace to="members" /> },
  ]);
  return (
    <div className={styles.shell}>
      <header className={styles.top}>
        <p className={styles.brand}>
          <BrandMark size={30} />
          Operator console
        </p>
        <div className={styles.who}>
          <span>Signed in as {me.email}</span>
          <Link to="/dashboard">Your wallet</Link>
        </div>
      </header>
      <nav aria-label="Console sections" className={styles.tabs}>
        {SECTIONS.map(([path, name]) => (
          <NavLink key={path} to={`/operator/${path}`} className={styles.tab}>
            {name}
          </NavLink>
        ))}
      </nav>
      <main>{screen}</main>
    </div>
  );
}
