import { LogOut, UserRound } from 'lucide-react';
import { Link } from 'react-router';
import { useLogout } from '../../../lib/session';
import { BrandMark } from '../../../ui/brand-mark';
import { Button } from '../../../ui/button';
import card from '../../../ui/card.module.css';
import formStyles from '../../../ui/forms.module.css';
import hidden from '../../../ui/visually-hidden.module.css';
import { NotificationBell } from './notification-bell';
import styles from './dashboard.module.css';

/** The brand, the notification bell, Logout and the way to the account settings (where the
 * appearance is chosen). On a
 * phone, Account and Logout are their icons (their names stay for screen readers and the title). */
export function DashboardHeader() {
  const logout = useLogout();
  return (
    <header className={card.header}>
      <span className={styles.brand}>
        <BrandMark />
        REME Wallet
      </span>
      <div className={styles.headerActions}>
        <NotificationBell />
        <Link
          to="/account"
          title="Account"
          className={[formStyles.button, formStyles.secondary, card.small].join(' ')}
        >
          <UserRound aria-hidden="true" size={16} />
          <span className={hidden.narrowHidden}>Account</span>
        </Link>
        <Button
          variant="secondary"
          title="Logout"
          className={card.small}
          onClick={() => void logout({ notice: 'You signed out.' })}
        >
          <LogOut aria-hidden="true" size={16} />
          <span className={hidden.narrowHidden}>Logout</span>
        </Button>
      </div>
    </header>
  );
}
