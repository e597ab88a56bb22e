import { useMutation, useQueryClient } from '@tanstack/react-query';
import { demoMigrationSchema } from '@replatform/contracts/demo-migration';
import { apiRequest } from '../../../lib/api-client.ts';
import { usePolledRun } from '../../../lib/polled-run.ts';
import { notificationsQueryKey } from '../../../lib/query-keys.ts';

const demoKey = (id: string) => ['migrations', id, 'demo'] as const;

/**
 * GET /api/migrations/{id}/demo: the last free demo migration, polled every 2 s while it runs;
 * its end raises a notification, fetched at once.
 */
export function useDemoMigration(id: string) {
  return usePolledRun(
    demoKey(id),
    `/api/migrations/${encodeURIComponent(id)}/demo`,
    demoMigrationSchema,
  );
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
