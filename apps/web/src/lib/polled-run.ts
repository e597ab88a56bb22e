import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { z } from 'zod';
import { apiRequest } from './api-client.ts';
import { notificationsQueryKey } from './query-keys.ts';

/**
 * A background run beside a migration (its free demo, its undo) as GET `path` answers it, polled
 * every 2 s while queued or running; its end raises a notification, fetched at once.
 */
export function usePolledRun<T extends z.ZodType<{ state: string }>>(
  queryKey: readonly unknown[],
  path: string,
  schema: T,
) {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey,
    queryFn: () => apiRequest(path, schema),
    refetchInterval: (q) => {
      const state = (q.state.data as { state: string } | undefined)?.state;
      return state === 'queued' || state === 'running' ? 2000 : false;
    },
  });
  const current = (query.data as { state: string } | undefined)?.state;
  const seen = useRef(current);
  useEffect(() => {
    const before = seen.current;
    seen.current = current;
    if ((before === 'queued' || before === 'running') && before !== current)
      void queryClient.invalidateQueries({ queryKey: notificationsQueryKey });
  }, [current, queryClient]);
  return query;
}
