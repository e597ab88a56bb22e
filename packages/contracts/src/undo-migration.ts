import { z } from 'zod';

/** How one record (or file, or term) an undo looked at ended. */
export const undoOutcomes = ['removed', 'gone', 'kept', 'failed'] as const;
export type UndoOutcomeName = (typeof undoOutcomes)[number];

/**
 * GET/POST /api/migrations/{id}/undo: "Undo this migration" on the detail page of a completed or
 * failed migration, which removes from the destination exactly the records the migration created
 * (never the owner's own, never one the owner changed since), then the files and terms stored
 * only for them. Free; confirmed by typing the store's name.
 */
export const undoMigrationSchema = z.object({
  /** none: never undone; queued/running: under way; completed/failed: the last undo's outcome. */
  state: z.enum(['none', 'queued', 'running', 'completed', 'failed']),
  /** Whether an undo may be started now, and if not, why (in words the owner can act on). */
  available: z.boolean(),
  unavailableReason: z.string().optional(),
  /** The name to type to confirm (the migration's store name). */
  confirmName: z.string(),
  /** Records the migration created that an undo would look at, per data type, now. */
  created: z.record(z.string(), z.number().int().nonnegative()),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  /** Why the last undo stopped, when it failed. */
  message: z.string().optional(),
  /** What the last undo did per data type ('assets': files and terms), with its total. */
  entities: z.record(
    z.string(),
    z.object({
      total: z.number().int().nonnegative(),
      removed: z.number().int().nonnegative(),
      gone: z.number().int().nonnegative(),
      kept: z.number().int().nonnegative(),
      failed: z.number().int().nonnegative(),
    }),
  ),
  /** Its records, those not removed first (at most a few hundred; the CSV has them all). */
  records: z.array(
    z.object({
      entity: z.string(),
      sourceId: z.string(),
      destinationId: z.string(),
      outcome: z.enum(undoOutcomes),
      reason: z.string().nullable(),
    }),
  ),
});
export type UndoMigration = z.infer<typeof undoMigrationSchema>;

/** POST /api/migrations/{id}/undo: the store name typed to confirm. */
export const undoRequestSchema = z.strictObject({
  confirmName: z.string().max(300),
});
export type UndoRequest = z.infer<typeof undoRequestSchema>;

/** Whether the typed name confirms the undo: the store's name, ignoring case and outer spaces. */
export function confirmsUndo(typed: string, storeName: string): boolean {
  const fold = (s: string) => s.trim().normalize('NFC').toLocaleLowerCase('en-US');
  return fold(typed) !== '' && fold(typed) === fold(storeName);
}
