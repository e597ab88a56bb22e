import { z } from 'zod';
import { readable } from './api-error.ts';
import {
  dataTypesSchema,
  fieldMappingsSchema,
  migrationOptionsSchema,
  migrationSchema,
  platformSchema,
} from './migration.ts';

/** The longest migration name, in characters (after trimming). */
export const migrationNameMax = 120;

export const migrationNameTooLong = readable(
  `Migration name must be at most ${migrationNameMax} characters`,
);

const migrationName = z
  .string()
  .trim()
  .min(1, readable('Migration name is required'))
  .max(migrationNameMax, migrationNameTooLong);

export const createMigrationRequestSchema = z.strictObject({
  storeName: migrationName,
});

/** Fields the owner may change; each change is checked against the lifecycle on the server. */
export const updateMigrationRequestSchema = z
  .strictObject({
    storeName: migrationName.optional(),
    sourceStore: z.union([platformSchema, z.literal('')]).optional(),
    destinationStore: z.union([platformSchema, z.literal('')]).optional(),
    sourceStoreUrl: z.string().trim().max(500).optional(),
    destinationStoreUrl: z.string().trim().max(500).optional(),
    dataTypes: dataTypesSchema.strict().optional(),
    fieldMappings: fieldMappingsSchema.optional(),
    migrationOptions: migrationOptionsSchema.optional(),
    currentStep: z.number().int().min(1).max(5).optional(),
  })
  .refine((body) => Object.keys(body).length > 0, 'Nothing to change');

export const migrationListSchema = z.array(migrationSchema);
export const migrationIdParamsSchema = z.object({ id: z.string().min(1).max(64) });
