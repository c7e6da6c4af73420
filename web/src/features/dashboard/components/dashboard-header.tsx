import { useQueryClient } from '@tanstack/react-query';
import { LogOut } from 'lucide-react';
import { useNavigate } from 'react-router';
import { logout } from '../../../lib/session';
import { useTheme } from '../../../lib/theme';
import { Button } from '../../../ui/button';
import card from '../../../ui/card.module.css';
import { ToggleGroup } from '../../../ui/toggle-group';
import styles from './dashboard.module.css';

/** SPEC §2: the Aurora/Crimson theme toggle and Logout. */
export function DashboardHeader() {
  const { theme, setTheme } = useTheme();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  async function onLogout() {
    await logout();
    queryClient.clear();
    navigate('/', { replace: true });
  }
  return (
    <header className={card.header}>
      <span className={styles.brand}>REME Wallet</span>
      <div className={styles.headerActions}>
        <ToggleGroup label="Theme" value={theme} onChange={setTheme} options={[['aurora', 'Aurora'], ['crimson', 'Crimson']]} />
        <Button variant="secondary" className={card.small} onClick={() => void onLogout()}>
          <LogOut aria-hidden="true" size={16} />
          Logout
        </Button>
      </div>
    </header>
  );
}
