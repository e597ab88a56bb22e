import { z } from 'zod';
import { dataTypesSchema, migrationSchema, platformSchema } from './migration.ts';

export const createMigrationRequestSchema = z.strictObject({
  storeName: z.string().trim().min(1, 'Migration name is required').max(120),
});

/** Fields the owner may change; each change is checked against the lifecycle on the server. */
export const updateMigrationRequestSchema = z
  .strictObject({
    storeName: z.string().trim().min(1).max(120).optional(),
    sourceStore: z.union([platformSchema, z.literal('')]).optional(),
    destinationStore: z.union([platformSchema, z.literal('')]).optional(),
    sourceStoreUrl: z.string().trim().max(500).optional(),
    destinationStoreUrl: z.string().trim().max(500).optional(),
    dataTypes: dataTypesSchema.strict().optional(),
    currentStep: z.number().int().min(1).max(5).optional(),
  })
  .refine((body) => Object.keys(body).length > 0, 'Nothing to change');

export const migrationListSchema = z.array(migrationSchema);
export const migrationIdParamsSchema = z.object({ id: z.string().min(1).max(64) });
