import { Send } from 'lucide-react';
import { useState } from 'react';
import {
  contactMessageRequestSchema,
  contactPriorities,
  contactPriorityLabels,
  type ContactMessageRequest,
} from '@replatform/contracts/forms';
import { support } from '@replatform/contracts/support';
import {
  BusyButton,
  SelectField,
  TextAreaField,
  TextField,
} from '../../components/form-fields.tsx';
import { SentPanel } from '../../components/sent-panel.tsx';
import { reasonOf, useSchemaForm } from '../../lib/forms.tsx';
import { sendContactMessage } from './api/contact-api.ts';

export const emptyMessage = (
  who: { name?: string; email?: string } = {},
): Required<ContactMessageRequest> => ({
  name: who.name ?? '',
  email: who.email ?? '',
  company: '',
  phone: '',
  subject: '',
  message: '',
  priority: 'medium',
});

/** The contact form's values and checks, by the schema the server checks a message with. */
export const useContactForm = (initial: ContactMessageRequest) =>
  useSchemaForm(contactMessageRequestSchema, initial);
export type ContactFormControl = ReturnType<typeof useContactForm>;

/**
 * The contact page's message form (spec.md section 2): idle, sending, then the success panel
 * whose 'Send another message' starts over with an empty form. The page holds the form's values,
 * as its channel cards fill some in.
 */
export function ContactForm({
  form,
  initial,
}: {
  form: ContactFormControl;
  initial: () => ContactMessageRequest;
}) {
  const [sent, setSent] = useState<{ id: string; name: string } | null>(null);
  const { errors, isSubmitting: busy } = form.formState;

  const submit = form.handleSubmit(async (message) => {
    try {
      const answer = await sendContactMessage(message);
      setSent({ id: answer.id, name: message.name });
    } catch (error) {
      form.setError('root', {
        message:
          reasonOf(error) ??
          `We could not send your message. Please try again, or e-mail ${support.email}.`,
      });
    }
  });

  const again = () => {
    form.reset(initial());
    setSent(null);
  };

  if (sent) {
    return (
      <SentPanel title="Message sent!" level="h3" look="boxed">
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
      </SentPanel>
    );
  }

  return (
    <form id="contact-form" noValidate onSubmit={submit} className="space-y-4">
      <div role="alert" aria-live="assertive">
        {errors.root?.message ? (
          <p className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
            {errors.root.message}
          </p>
        ) : null}
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="Name"
          autoComplete="name"
          required
          error={errors.name?.message}
          disabled={busy}
          {...form.register('name')}
        />
        <TextField
          label="Email"
          type="email"
          autoComplete="email"
          required
          error={errors.email?.message}
          disabled={busy}
          {...form.register('email')}
        />
        <TextField
          label="Company (optional)"
          autoComplete="organization"
          error={errors.company?.message}
          disabled={busy}
          {...form.register('company')}
        />
        <TextField
          label="Phone (optional)"
          type="tel"
          autoComplete="tel"
          error={errors.phone?.message}
          disabled={busy}
          {...form.register('phone')}
        />
      </div>
      <div className="grid gap-4 sm:grid-cols-[1fr_12rem]">
        <TextField
          label="Subject"
          required
          error={errors.subject?.message}
          disabled={busy}
          {...form.register('subject')}
        />
        <SelectField
          label="Priority"
          disabled={busy}
          options={contactPriorities.map((p) => [p, contactPriorityLabels[p]])}
          {...form.register('priority')}
        />
      </div>
      <TextAreaField
        label="Message"
        required
        error={errors.message?.message}
        hint="Tell us your platforms and roughly how many products, customers and orders you have."
        disabled={busy}
        maxLength={5000}
        {...form.register('message')}
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
