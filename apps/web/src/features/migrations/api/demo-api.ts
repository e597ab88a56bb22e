import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { demoMigrationSchema } from '@replatform/contracts/demo-migration';
import { apiRequest } from '../../../lib/api-client.ts';
import { notificationsQueryKey } from '../../../lib/query-keys.ts';

const demoKey = (id: string) => ['migrations', id, 'demo'] as const;

/**
 * GET /api/migrations/{id}/demo: the last free demo migration, polled every 2 s while it runs;
 * its end raises a notification, fetched at once.
 */
export function useDemoMigration(id: string) {
  const queryClient = useQueryClient();
  const state = useQuery({
    queryKey: demoKey(id),
    queryFn: () =>
      apiRequest(`/api/migrations/${encodeURIComponent(id)}/demo`, demoMigrationSchema),
    refetchInterval: (query) => {
      const state = query.state.data?.state;
      return state === 'queued' || state === 'running' ? 2000 : false;
    },
  });
  const current = state.data?.state;
  const seen = useRef(current);
  useEffect(() => {
    const before = seen.current;
    seen.current = current;
    if ((before === 'queued' || before === 'running') && before !== current)
      void queryClient.invalidateQueries({ queryKey: notificationsQueryKey });
  }, [current, queryClient]);
  return state;
}

/** POST /api/migrations/{id}/demo: starts a free demo migration (refused past its limits). */
export function useStartDemoMigration(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiRequest(`/api/migrations/${encodeURIComponent(id)}/demo`, demoMigrationSchema, {
        method: 'POST',
      }),
    onSuccess: (demo) => queryClient.setQueryData(demoKey(id), demo),
    onSettled: () => queryClient.invalidateQueries({ queryKey: notificationsQueryKey }),
  });
}
