import { z } from 'zod';

/** Every API error body: `{ "error": { "code", "message" } }`. */
export const apiErrorSchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    details: z.array(z.string()).optional(),
  }),
});
export type ApiErrorBody = z.infer<typeof apiErrorSchema>;

const readableMessages = new Set<string>();

/**
 * Marks a validation message as written for the person filling the form: when a request breaks
 * such a rule, the server answers with this message instead of a general one.
 */
export function readable(message: string): string {
  readableMessages.add(message);
  return message;
}

export function isReadable(message: string): boolean {
  return readableMessages.has(message);
}

/** GET /healthz: 200 when the database and the job queue answer, 503 otherwise. */
export const healthSchema = z.object({
  status: z.enum(['ok', 'unavailable']),
  database: z.enum(['sqlite', 'postgres']),
  checks: z.object({
    database: z.object({ ok: z.boolean(), ms: z.number(), error: z.string().optional() }),
    queue: z.object({
      /** pg-boss on PostgreSQL, the embedded runner on SQLite. */
      kind: z.enum(['embedded', 'pg-boss']),
      ok: z.boolean(),
      /** Jobs waiting and running over every process on the database. */
      queued: z.number(),
      running: z.number(),
      /** Jobs this process runs at once (0: it leaves them to workers). */
      workers: z.number(),
      error: z.string().optional(),
    }),
  }),
});
export type Health = z.infer<typeof healthSchema>;
