import { Eye, EyeOff, Loader2 } from 'lucide-react';
import {
  useId,
  useState,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react';

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'className'>;

interface FieldProps extends InputProps {
  label: string;
  error?: string | undefined;
  hint?: string | undefined;
}

const inputClass = (invalid: boolean) =>
  `w-full rounded-lg border bg-white px-3 py-2.5 text-slate-900 shadow-sm placeholder:text-slate-400 focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-200 disabled:bg-slate-100 read-only:bg-slate-50 read-only:text-slate-600 ${
    invalid ? 'border-red-500' : 'border-slate-300'
  }`;

function Described({
  id,
  error,
  hint,
}: {
  id: string;
  error?: string | undefined;
  hint?: string | undefined;
}) {
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

/** A labelled input whose error or hint is announced with it. */
export function TextField({ label, error, hint, ...input }: FieldProps) {
  const id = useId();
  const describedBy = error || hint ? `${id}-note` : undefined;
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-700">
        {label}
      </label>
      <input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className={inputClass(Boolean(error))}
        {...input}
      />
      <Described id={`${id}-note`} error={error} hint={hint} />
    </div>
  );
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
        className={`${inputClass(Boolean(error))} min-h-36`}
        {...textarea}
      />
      <Described id={`${id}-note`} error={error} hint={hint} />
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
        className={inputClass(Boolean(error))}
        {...select}
      >
        {options.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
      <Described id={`${id}-note`} error={error} />
    </div>
  );
}

/** A password input with a button that shows or hides what was typed. */
export function PasswordField({ label, error, hint, ...input }: FieldProps) {
  const id = useId();
  const [visible, setVisible] = useState(false);
  const describedBy = error || hint ? `${id}-note` : undefined;
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-700">
        {label}
      </label>
      <div className="relative">
        <input
          id={id}
          type={visible ? 'text' : 'password'}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          className={`${inputClass(Boolean(error))} pr-11`}
          {...input}
        />
        <button
          type="button"
          onClick={() => setVisible((v) => !v)}
          aria-label={visible ? `Hide ${label.toLowerCase()}` : `Show ${label.toLowerCase()}`}
          aria-pressed={visible}
          aria-controls={id}
          className="absolute inset-y-0 right-0 flex w-11 items-center justify-center rounded-r-lg text-slate-500 hover:text-slate-800"
        >
          {visible ? <EyeOff size={18} aria-hidden /> : <Eye size={18} aria-hidden />}
        </button>
      </div>
      <Described id={`${id}-note`} error={error} hint={hint} />
    </div>
  );
}

/** A button that shows a spinner while its request is in flight. */
export function BusyButton({
  busy,
  disabled,
  children,
  variant = 'primary',
  type = 'submit',
  onClick,
  icon,
  fullWidth = true,
}: {
  busy: boolean;
  disabled: boolean;
  children: ReactNode;
  variant?: 'primary' | 'secondary' | 'danger';
  type?: 'submit' | 'button';
  onClick?: () => void;
  icon?: ReactNode;
  fullWidth?: boolean;
}) {
  const styles = {
    primary: 'bg-indigo-600 text-white hover:bg-indigo-700 disabled:bg-indigo-300',
    secondary:
      'border border-slate-300 bg-white text-slate-800 hover:bg-slate-50 disabled:text-slate-400',
    danger: 'bg-red-600 text-white hover:bg-red-700 disabled:bg-red-300',
  }[variant];
  return (
    <button
      type={type}
      onClick={onClick}
      disabled={disabled}
      aria-busy={busy || undefined}
      className={`flex ${fullWidth ? 'w-full' : 'w-full sm:w-auto'} items-center justify-center gap-2 rounded-lg px-4 py-2.5 text-sm font-semibold shadow-sm disabled:cursor-not-allowed ${styles}`}
    >
      {busy ? <Loader2 size={18} className="animate-spin" aria-hidden /> : icon}
      {children}
    </button>
  );
}
