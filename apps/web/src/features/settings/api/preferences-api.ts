import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  preferencesResponseSchema,
  type UpdatePreferencesRequest,
} from '@replatform/contracts/forms';
import { apiRequest } from '../../../lib/api-client.ts';

export const preferencesKey = ['preferences'] as const;

/** GET /api/preferences: saved values, the spec's defaults for anything never saved. */
export function usePreferences() {
  return useQuery({
    queryKey: preferencesKey,
    queryFn: () => apiRequest('/api/preferences', preferencesResponseSchema),
  });
}

/** PUT /api/preferences with one group or both; the answer replaces the cached copy. */
export function useSavePreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (update: UpdatePreferencesRequest) =>
      apiRequest('/api/preferences', preferencesResponseSchema, { method: 'PUT', body: update }),
    onSuccess: (saved) => queryClient.setQueryData(preferencesKey, saved),
  });
}
