import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { logout, meQuery } from '../../../lib/session';
import { Button } from '../../../ui/button';
import { ScreenPlaceholder } from '../../../ui/screen-placeholder';

export function Component() {
  const me = useQuery(meQuery);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  async function onLogout() {
    await logout();
    queryClient.clear();
    navigate('/', { replace: true });
  }
  return (
    <ScreenPlaceholder name="Wallet dashboard">
      <p>Hello, {me.data?.fullName || 'User'}</p>
      <p>Your wallet: {me.data?.wallet.address}</p>
      <Button variant="secondary" onClick={() => void onLogout()}>
        Logout
      </Button>
    </ScreenPlaceholder>
  );
}
