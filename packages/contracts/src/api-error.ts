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

export const healthSchema = z.object({
  status: z.literal('ok'),
  database: z.enum(['sqlite', 'postgres']),
});
export type Health = z.infer<typeof healthSchema>;
