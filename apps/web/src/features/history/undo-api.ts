import { useMutation, useQueryClient } from '@tanstack/react-query';
import { undoMigrationSchema } from '@replatform/contracts/undo-migration';
import { apiRequest } from '../../lib/api-client.ts';
import { usePolledRun } from '../../lib/polled-run.ts';
import { notificationsQueryKey } from '../../lib/query-keys.ts';

const undoKey = (id: string) => ['migrations', id, 'undo'] as const;

/**
 * GET /api/migrations/{id}/undo: the last undo of a migration and whether one may start, polled
 * every 2 s while it runs; its end raises a notification, fetched at once.
 */
export function useUndo(id: string) {
  return usePolledRun(
    undoKey(id),
    `/api/migrations/${encodeURIComponent(id)}/undo`,
    undoMigrationSchema,
  );
}

/** POST /api/migrations/{id}/undo with the store name typed to confirm. */
export function useStartUndo(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (confirmName: string) =>
      apiRequest(`/api/migrations/${encodeURIComponent(id)}/undo`, undoMigrationSchema, {
        method: 'POST',
        body: { confirmName },
      }),
    onSuccess: (undo) => queryClient.setQueryData(undoKey(id), undo),
    onSettled: () => queryClient.invalidateQueries({ queryKey: notificationsQueryKey }),
  });
}
