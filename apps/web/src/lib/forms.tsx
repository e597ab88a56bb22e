import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useRef, useState } from 'react';
import {
  useForm,
  type DefaultValues,
  type FieldErrors,
  type FieldValues,
  type UseFormReturn,
} from 'react-hook-form';
import type { z } from 'zod';
import { ApiRequestError } from './api-client.ts';

/**
 * A form's state and validation by react-hook-form with one of the shared zod schemas, so a form
 * is its fields and its schema: values are checked on submit (then again as they change), the
 * first wrong field gets focus, and the handler receives the schema's parsed output.
 */
export function useSchemaForm<Schema extends z.ZodType<FieldValues, FieldValues>>(
  schema: Schema,
  defaultValues: DefaultValues<z.input<Schema>>,
) {
  return useForm<z.input<Schema>, unknown, z.output<Schema>>({
    resolver: zodResolver(schema),
    defaultValues,
  });
}

/** The server's reason for a refusal the user can act on (wrong password, address in use). */
export function reasonOf(error: unknown): string | undefined {
  if (error instanceof ApiRequestError && error.status >= 400 && error.status < 500) {
    if (error.code !== 'http_error') return error.message;
  }
  return undefined;
}

export interface FormStatus {
  tone: 'success' | 'error';
  text: string;
  detail?: string | undefined;
}

/** The first validation message of a form, under the text its status line gives a failure. */
export function firstProblem(errors: FieldErrors, failed: string): FormStatus | null {
  const message = Object.values(errors).find((e) => e?.message)?.message;
  return typeof message === 'string' ? { tone: 'error', text: failed, detail: message } : null;
}

/**
 * Submitting a form whose answer shows in its status line: `run` gets the schema's parsed
 * values, and the line says `success`, or `failure` with the server's reason; values the schema
 * refuses are told by `invalid` (by default its first message under `failure`).
 */
export function useStatusSubmit<Values extends FieldValues, Parsed>(
  form: UseFormReturn<Values, unknown, Parsed>,
  {
    run,
    success,
    failure,
    invalid = (errors) => firstProblem(errors, failure),
  }: {
    run: (values: Parsed) => Promise<unknown>;
    success: string;
    failure: string;
    invalid?: (errors: FieldErrors<Values>) => FormStatus | null;
  },
) {
  const [status, setStatus] = useState<FormStatus | null>(null);
  const onSubmit = form.handleSubmit(
    async (values) => {
      setStatus(null);
      try {
        await run(values);
        setStatus({ tone: 'success', text: success });
      } catch (error) {
        setStatus({ tone: 'error', text: failure, detail: reasonOf(error) });
      }
    },
    (errors) => setStatus(invalid(errors)),
  );
  return { status, onSubmit, busy: form.formState.isSubmitting };
}

/**
 * A form's status line, placed in the form it speaks for and scrolled into view when it changes,
 * so the answer to a submit shows where the visitor is looking.
 */
export function FormStatusLine({ status }: { status: FormStatus | null }) {
  const line = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (status) line.current?.scrollIntoView?.({ block: 'nearest' });
  }, [status]);
  return (
    <div ref={line} role="status" aria-live="polite">
      {status ? (
        <p
          className={`rounded-lg border px-4 py-3 text-sm ${
            status.tone === 'success'
              ? 'border-emerald-200 bg-emerald-50 text-emerald-800'
              : 'border-red-200 bg-red-50 text-red-800'
          }`}
        >
          <strong className="font-semibold">{status.text}</strong>
          {status.detail ? <span className="block sm:ml-1 sm:inline">{status.detail}</span> : null}
        </p>
      ) : null}
    </div>
  );
}
