import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  notificationListSchema,
  notificationReadResponseSchema,
} from '@replatform/contracts/notifications';
import { apiRequest } from '../../../lib/api-client.ts';
import { notificationsQueryKey as key } from '../../../lib/query-keys.ts';

export function useNotifications() {
  return useQuery({
    queryKey: key,
    queryFn: () => apiRequest('/api/notifications', notificationListSchema),
    // New events (payment received, migration finished) show up without a reload.
    refetchInterval: 30_000,
  });
}

export function useMarkRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string | 'all') =>
      apiRequest(
        id === 'all'
          ? '/api/notifications/read-all'
          : `/api/notifications/${encodeURIComponent(id)}/read`,
        notificationReadResponseSchema,
        {
          method: 'POST',
        },
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}
