import { useId, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';

const controlClass = (invalid: boolean) =>
  `w-full rounded-lg border bg-white px-3 py-2.5 text-slate-900 shadow-sm placeholder:text-slate-400 focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-200 disabled:bg-slate-100 ${
    invalid ? 'border-red-500' : 'border-slate-300'
  }`;

function Note({ id, error, hint }: { id: string; error?: string; hint?: string }) {
  if (error)
    return (
      <p id={id} className="mt-1 text-sm text-red-700">
        {error}
      </p>
    );
  if (hint)
    return (
      <p id={id} className="mt-1 text-sm text-slate-500">
        {hint}
      </p>
    );
  return null;
}

/** A labelled multi-line input whose error or hint is announced with it. */
export function TextAreaField({
  label,
  error,
  hint,
  ...textarea
}: Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id' | 'className'> & {
  label: string;
  error?: string | undefined;
  hint?: string | undefined;
}) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-700">
        {label}
      </label>
      <textarea
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={error || hint ? `${id}-note` : undefined}
        className={`${controlClass(Boolean(error))} min-h-36`}
        {...textarea}
      />
      <Note id={`${id}-note`} error={error} hint={hint} />
    </div>
  );
}

/** A labelled select of value/label pairs. */
export function SelectField({
  label,
  options,
  error,
  ...select
}: Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id' | 'className'> & {
  label: string;
  options: Array<[value: string, label: string]>;
  error?: string | undefined;
}) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-700">
        {label}
      </label>
      <select
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-note` : undefined}
        className={controlClass(Boolean(error))}
        {...select}
      >
        {options.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
      <Note id={`${id}-note`} error={error} />
    </div>
  );
}
