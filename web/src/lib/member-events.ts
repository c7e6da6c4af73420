// Keeps a signed-in member's pages fresh: the server's event stream says "changed" when a credit,
// a care action or a new network member touches their data, and every query refetches (the
// member's details from the database itself, not a server process's copy of them).
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { memberChanged } from './session';

export function useMemberEvents(enabled: boolean): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') return;
    const source = new EventSource('/api/events');
    const refresh = () => {
      memberChanged();
      void queryClient.invalidateQueries();
    };
    source.addEventListener('changed', refresh);
    return () => source.close();
  }, [enabled, queryClient]);
}
