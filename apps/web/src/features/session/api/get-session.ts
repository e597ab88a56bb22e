import { useQuery, useQueryClient } from '@tanstack/react-query';
import { sessionSchema, type Session } from '@replatform/contracts/session';
import { apiRequest, ApiRequestError } from '../../../lib/api-client.ts';

export const sessionQueryKey = ['session'] as const;

/** The current session, or null when signed out. */
export async function getSession(): Promise<Session> {
  try {
    return await apiRequest('/api/auth/get-session', sessionSchema);
  } catch (error) {
    if (error instanceof ApiRequestError && (error.status === 401 || error.status === 404))
      return null;
    throw error;
  }
}

export function useSession() {
  return useQuery({ queryKey: sessionQueryKey, queryFn: getSession, staleTime: 60_000 });
}

/** Reloads the session after signing in or changing the account, and waits for it. */
export function useRefreshSession() {
  const queryClient = useQueryClient();
  // A read still in flight from before the sign-in (the page's first one) would be reused and
  // answer "signed out": drop it and read again, also when no screen shows the session right now.
  return async () => {
    await queryClient.cancelQueries({ queryKey: sessionQueryKey });
    await queryClient.invalidateQueries({ queryKey: sessionQueryKey, refetchType: 'all' });
  };
}
