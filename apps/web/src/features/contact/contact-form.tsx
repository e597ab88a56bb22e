import { CheckCircle2, Send } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import {
  contactMessageRequestSchema,
  contactPriorities,
  contactPriorityLabels,
  type ContactPriority,
} from '@replatform/contracts/forms';
import { support } from '@replatform/contracts/support';
import {
  BusyButton,
  SelectField,
  TextAreaField,
  TextField,
} from '../../components/form-fields.tsx';
import { ApiRequestError } from '../../lib/api-client.ts';
import { sendContactMessage } from './api/contact-api.ts';

export interface ContactDraft {
  name: string;
  email: string;
  company: string;
  phone: string;
  subject: string;
  message: string;
  priority: ContactPriority;
}

export const emptyDraft = (who: { name?: string; email?: string } = {}): ContactDraft => ({
  name: who.name ?? '',
  email: who.email ?? '',
  company: '',
  phone: '',
  subject: '',
  message: '',
  priority: 'medium',
});

type Errors = Partial<Record<keyof ContactDraft, string>>;

/** The first message per field of the shared schema, so the page and the server agree. */
export function validateDraft(draft: ContactDraft): Errors {
  const result = contactMessageRequestSchema.safeParse(draft);
  if (result.success) return {};
  const errors: Errors = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0] as keyof ContactDraft | undefined;
    if (field && !errors[field]) errors[field] = issue.message;
  }
  return errors;
}

/**
 * The contact page's message form (spec.md section 2): idle, sending, then the success panel
 * whose 'Send another message' starts over with an empty form.
 */
export function ContactForm({
  draft,
  setDraft,
  initial,
}: {
  draft: ContactDraft;
  setDraft: (update: (draft: ContactDraft) => ContactDraft) => void;
  initial: () => ContactDraft;
}) {
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState<{ id: string; name: string } | null>(null);
  const successHeading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (sent) successHeading.current?.focus();
  }, [sent]);

  const field = (key: keyof ContactDraft) => (event: { target: { value: string } }) => {
    const value = event.target.value;
    setDraft((d) => ({ ...d, [key]: value }));
    if (errors[key]) setErrors((e) => ({ ...e, [key]: undefined }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const found = validateDraft(draft);
    setErrors(found);
    if (Object.keys(found).length) {
      const first = Object.keys(found)[0];
      (document.querySelector(`#contact-form [name="${first}"]`) as HTMLElement | null)?.focus();
      return;
    }
    setBusy(true);
    try {
      const parsed = contactMessageRequestSchema.parse(draft);
      const answer = await sendContactMessage(parsed);
      setSent({ id: answer.id, name: parsed.name });
    } catch (error) {
      setFailure(
        error instanceof ApiRequestError && error.status < 500 && error.code !== 'http_error'
          ? error.message
          : `We could not send your message. Please try again, or e-mail ${support.email}.`,
      );
    } finally {
      setBusy(false);
    }
  };

  const again = () => {
    setDraft(() => initial());
    setErrors({});
    setFailure(null);
    setSent(null);
  };

  if (sent) {
    return (
      <div className="rounded-xl border border-emerald-200 bg-emerald-50 p-6 text-center sm:p-10">
        <CheckCircle2 size={44} aria-hidden className="mx-auto text-emerald-600" />
        <h3
          ref={successHeading}
          tabIndex={-1}
          className="mt-4 text-xl font-semibold text-emerald-900 focus:outline-none"
        >
          Message sent!
        </h3>
        <p className="mt-2 text-emerald-800">
          Thank you, {sent.name}. A migration specialist will reply {support.responseTime}.
        </p>
        <p className="mt-1 text-sm text-emerald-700">
          Your reference: <span className="font-mono">{sent.id}</span>
        </p>
        <button
          type="button"
          onClick={again}
          className="mt-6 font-semibold text-indigo-700 underline underline-offset-2 hover:text-indigo-900"
        >
          Send another message
        </button>
      </div>
    );
  }

  return (
    <form id="contact-form" noValidate onSubmit={submit} className="space-y-4">
      <div role="alert" aria-live="assertive">
        {failure ? (
          <p className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
            {failure}
          </p>
        ) : null}
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="Name"
          name="name"
          autoComplete="name"
          required
          value={draft.name}
          onChange={field('name')}
          error={errors.name}
          disabled={busy}
        />
        <TextField
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          required
          value={draft.email}
          onChange={field('email')}
          error={errors.email}
          disabled={busy}
        />
        <TextField
          label="Company (optional)"
          name="company"
          autoComplete="organization"
          value={draft.company}
          onChange={field('company')}
          error={errors.company}
          disabled={busy}
        />
        <TextField
          label="Phone (optional)"
          name="phone"
          type="tel"
          autoComplete="tel"
          value={draft.phone}
          onChange={field('phone')}
          error={errors.phone}
          disabled={busy}
        />
      </div>
      <div className="grid gap-4 sm:grid-cols-[1fr_12rem]">
        <TextField
          label="Subject"
          name="subject"
          required
          value={draft.subject}
          onChange={field('subject')}
          error={errors.subject}
          disabled={busy}
        />
        <SelectField
          label="Priority"
          name="priority"
          value={draft.priority}
          onChange={field('priority')}
          disabled={busy}
          options={contactPriorities.map((p) => [p, contactPriorityLabels[p]])}
        />
      </div>
      <TextAreaField
        label="Message"
        name="message"
        required
        value={draft.message}
        onChange={field('message')}
        error={errors.message}
        hint="Tell us your platforms and roughly how many products, customers and orders you have."
        disabled={busy}
        maxLength={5000}
      />
      <BusyButton
        busy={busy}
        disabled={busy}
        fullWidth={false}
        icon={<Send size={16} aria-hidden />}
      >
        {busy ? 'Sending...' : 'Send Message'}
      </BusyButton>
    </form>
  );
}
