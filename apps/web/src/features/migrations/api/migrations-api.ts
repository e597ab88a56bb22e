import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import {
  entityCountsSchema,
  migrationSchema,
  type Migration,
} from '@replatform/contracts/migration';
import { migrationListSchema } from '@replatform/contracts/migrations-api';
import { migrationProgressSchema } from '@replatform/contracts/progress';
import { mappingChoicesSchema } from '@replatform/contracts/value-mappings';
import { apiRequest } from '../../../lib/api-client.ts';
import { notificationsQueryKey } from '../../../lib/query-keys.ts';

export const migrationKeys = {
  all: ['migrations'] as const,
  one: (id: string) => ['migrations', id] as const,
  counts: (id: string) => ['migrations', id, 'counts'] as const,
  progress: (id: string) => ['migrations', id, 'progress'] as const,
};

/**
 * GET /migration-progress: the run's figures, speed and the store it waits for; polled every 5 s
 * when `poll` (a failed poll is only logged and polling goes on, spec.md section 7).
 */
export function useMigrationProgress(id: string, { poll = true }: { poll?: boolean } = {}) {
  return useQuery({
    queryKey: migrationKeys.progress(id),
    queryFn: () =>
      apiRequest('/migration-progress', migrationProgressSchema, { query: { migrationId: id } }),
    enabled: id !== '',
    refetchInterval: poll ? 5000 : false,
    retry: false,
  });
}

export function useMigrations() {
  return useQuery({
    queryKey: migrationKeys.all,
    queryFn: () => apiRequest('/get-migrations', migrationListSchema),
  });
}

export function useMigration(id: string | undefined) {
  return useQuery({
    queryKey: migrationKeys.one(id ?? ''),
    queryFn: () => apiRequest(`/migration/${encodeURIComponent(id ?? '')}`, migrationSchema),
    enabled: Boolean(id),
  });
}

/** Keeps the list and the single-migration cache in step after any change. */
function useStoreMigration() {
  const queryClient = useQueryClient();
  return (migration: Migration) => {
    queryClient.setQueryData(migrationKeys.one(migration.id), migration);
    void queryClient.invalidateQueries({ queryKey: migrationKeys.all, exact: true });
  };
}

export function useCreateMigration() {
  const store = useStoreMigration();
  return useMutation({
    mutationFn: (storeName: string) =>
      apiRequest('/api/migrations', migrationSchema, { method: 'POST', body: { storeName } }),
    onSuccess: store,
  });
}

export type MigrationChanges = Partial<
  Pick<
    Migration,
    | 'storeName'
    | 'sourceStore'
    | 'destinationStore'
    | 'sourceStoreUrl'
    | 'destinationStoreUrl'
    | 'dataTypes'
    | 'fieldMappings'
    | 'migrationOptions'
    | 'currentStep'
  >
>;

export function useUpdateMigration(id: string) {
  const store = useStoreMigration();
  return useMutation({
    mutationFn: (changes: MigrationChanges) =>
      apiRequest(`/api/migrations/${encodeURIComponent(id)}`, migrationSchema, {
        method: 'PATCH',
        body: changes,
      }),
    onSuccess: store,
  });
}

/**
 * POST /api/migrations/{id}/start: the first run after payment, a restart of a failed run (it
 * continues where it stopped), or a re-migration of a completed one (new or changed records
 * only). The server answers 402 when something must be paid first.
 */
export function useStartMigration(id: string) {
  const queryClient = useQueryClient();
  const store = useStoreMigration();
  return useMutation({
    mutationFn: (options: { changedSince?: string } | void) =>
      apiRequest(`/api/migrations/${encodeURIComponent(id)}/start`, migrationSchema, {
        method: 'POST',
        ...(options?.changedSince ? { body: { changedSince: options.changedSince } } : {}),
      }),
    onSuccess: (migration) => {
      store(migration);
      void queryClient.invalidateQueries({ queryKey: migrationKeys.progress(id) });
    },
    // Starting raises a notification on the server; show it now rather than at the next poll.
    onSettled: () => queryClient.invalidateQueries({ queryKey: notificationsQueryKey }),
  });
}

export function useEntityCounts(migration: Migration | undefined, enabled: boolean) {
  const types = migration?.dataTypes ?? {};
  return useQuery({
    queryKey: [...migrationKeys.counts(migration?.id ?? ''), types],
    queryFn: () =>
      apiRequest('/get-total-migration-entities', entityCountsSchema, {
        query: {
          migrationId: migration?.id,
          products: Boolean(types.products),
          customers: Boolean(types.customers),
          orders: Boolean(types.orders),
          coupons: Boolean(types.coupons),
          reviews: Boolean(types.reviews),
          brands: Boolean(types.brands),
          pages: Boolean(types.pages),
          posts: Boolean(types.posts),
        },
      }),
    enabled: Boolean(migration) && enabled,
  });
}

const verifyResponseSchema = z.object({
  status: z.literal('connected'),
  message: z.string(),
  storeName: z.string(),
});

export type VerifyFields = {
  sourceStoreUrl?: string;
  storeHash?: string;
  consumerKey?: string;
  consumerSecret?: string;
  accessToken?: string;
  accessTokenSecret?: string;
  wordpressUser?: string;
  wordpressApplicationPassword?: string;
};

export function useVerifyConnection(migrationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { route: string; side: 'source' | 'destination'; fields: VerifyFields }) =>
      apiRequest(input.route, verifyResponseSchema, {
        method: 'POST',
        body: { ...input.fields, migrationId, side: input.side },
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: migrationKeys.one(migrationId) }),
  });
}

const sandboxSchema = z.object({
  platform: z.string(),
  side: z.string(),
  fields: z.record(z.string(), z.string()),
});

/**
 * Connection details of this server's sandbox store for a platform and side (mock mode, demo).
 * The destination is an empty store made for this migration alone.
 */
export function useSandboxStore(
  migrationId: string,
  platform: string | undefined,
  side: 'source' | 'destination',
  enabled: boolean,
) {
  return useQuery({
    queryKey: ['sandbox-stores', migrationId, platform, side],
    queryFn: () =>
      apiRequest('/api/sandbox-stores', sandboxSchema, {
        query: { platform, side, migrationId },
      }),
    enabled: enabled && Boolean(platform),
    staleTime: Infinity,
    retry: false,
  });
}

/**
 * GET /api/migrations/{id}/mapping-choices: both stores' customer groups, tax classes and
 * currencies as the stores list them now, read once per visit of Select Data.
 */
export function useMappingChoices(id: string, enabled: boolean) {
  return useQuery({
    queryKey: ['migrations', id, 'mapping-choices'] as const,
    queryFn: () =>
      apiRequest(`/api/migrations/${encodeURIComponent(id)}/mapping-choices`, mappingChoicesSchema),
    enabled: enabled && id !== '',
    staleTime: Infinity,
    retry: false,
  });
}
