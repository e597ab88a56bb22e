import { z } from 'zod';

/**
 * The forms of spec.md section 3 that reach our server (decisions.md section 5: stored, and
 * e-mailed to the operator when configured): contact messages, enterprise quote requests, and a
 * signed-in user's notification and display preferences. The web app validates with the same
 * schemas before sending, so both sides give the same messages.
 */

const required = (label: string, max: number) =>
  z
    .string({ error: `${label} is required.` })
    .trim()
    .min(1, `${label} is required.`)
    .max(max, `${label} must be at most ${max} characters.`);

const optionalText = (label: string, max: number) =>
  z.string().trim().max(max, `${label} must be at most ${max} characters.`).optional().default('');

const emailField = z
  .string({ error: 'Email is required.' })
  .trim()
  .min(1, 'Email is required.')
  .max(254, 'Email must be at most 254 characters.')
  .pipe(z.email('Enter a valid email address.'));

export const contactPriorities = ['low', 'medium', 'high'] as const;
export type ContactPriority = (typeof contactPriorities)[number];
export const contactPriorityLabels: Record<ContactPriority, string> = {
  low: 'Low',
  medium: 'Medium',
  high: 'High',
};

/** POST /api/contact-messages: name, email, subject and message required (spec.md section 5). */
export const contactMessageRequestSchema = z.object({
  name: required('Name', 200),
  email: emailField,
  company: optionalText('Company', 200),
  phone: optionalText('Phone', 40).pipe(
    z.string().regex(/^[0-9+().\-\s]*$/, 'Phone may contain only digits, spaces and + ( ) - .'),
  ),
  subject: required('Subject', 200),
  message: required('Message', 5000),
  priority: z
    .enum(contactPriorities, { error: 'Priority must be low, medium or high.' })
    .optional()
    .default('medium'),
});
export type ContactMessageRequest = z.input<typeof contactMessageRequestSchema>;
export type ContactMessage = z.output<typeof contactMessageRequestSchema>;

export const contactMessageResponseSchema = z.object({
  id: z.string(),
  createdAt: z.string(),
});
export type ContactMessageResponse = z.infer<typeof contactMessageResponseSchema>;

/** GET /api/contact-messages: the signed-in user's own messages, newest first. */
export const contactMessageListSchema = z.object({
  messages: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      email: z.string(),
      company: z.string(),
      phone: z.string(),
      subject: z.string(),
      message: z.string(),
      priority: z.enum(contactPriorities),
      createdAt: z.string(),
    }),
  ),
});
export type ContactMessageList = z.infer<typeof contactMessageListSchema>;

export const storeSizes = ['10k-50k', '50k-100k', '100k-500k', '500k+'] as const;
export type StoreSize = (typeof storeSizes)[number];
export const storeSizeLabels: Record<StoreSize, string> = {
  '10k-50k': '10,000 – 50,000 records',
  '50k-100k': '50,000 – 100,000 records',
  '100k-500k': '100,000 – 500,000 records',
  '500k+': 'More than 500,000 records',
};

/**
 * POST /api/enterprise-quotes (public). `website` is a field people never see: automated
 * submitters fill it, and such a request is answered like any other but not kept.
 */
export const enterpriseQuoteRequestSchema = z.object({
  name: required('Name', 200),
  email: emailField,
  storeName: required('Store name', 200),
  storeSize: z.enum(storeSizes, { error: 'Choose the size of your store.' }),
  comments: optionalText('Comments', 5000),
  website: z.string().max(500).optional(),
});
export type EnterpriseQuoteRequest = z.input<typeof enterpriseQuoteRequestSchema>;
export type EnterpriseQuote = z.output<typeof enterpriseQuoteRequestSchema>;

export const enterpriseQuoteResponseSchema = z.object({ received: z.literal(true) });

/** spec.md section 3, Notification preferences: all on except marketing e-mails. */
export const notificationPreferencesSchema = z.strictObject({
  emailNotifications: z.boolean(),
  pushNotifications: z.boolean(),
  migrationUpdates: z.boolean(),
  securityAlerts: z.boolean(),
  marketingEmails: z.boolean(),
});
export type NotificationPreferences = z.infer<typeof notificationPreferencesSchema>;
export const defaultNotificationPreferences: NotificationPreferences = {
  emailNotifications: true,
  pushNotifications: true,
  migrationUpdates: true,
  securityAlerts: true,
  marketingEmails: false,
};

export const themes = ['light', 'dark', 'auto'] as const;
export const languages = ['en', 'es', 'fr', 'de'] as const;
export const timezones = [
  'UTC',
  'America/New_York',
  'America/Chicago',
  'America/Denver',
  'America/Los_Angeles',
] as const;
export const dateFormats = ['MM/DD/YYYY', 'DD/MM/YYYY', 'YYYY-MM-DD'] as const;

/** spec.md section 3, User preferences; currency is USD and has no selector. */
export const userPreferencesSchema = z.strictObject({
  theme: z.enum(themes),
  language: z.enum(languages),
  timezone: z.enum(timezones),
  dateFormat: z.enum(dateFormats),
  currency: z.literal('USD').optional().default('USD'),
});
export type UserPreferences = z.output<typeof userPreferencesSchema>;
export const defaultUserPreferences: UserPreferences = {
  theme: 'light',
  language: 'en',
  timezone: 'UTC',
  dateFormat: 'MM/DD/YYYY',
  currency: 'USD',
};

/** GET /api/preferences and the answer of PUT: stored values, defaults where none were saved. */
export const preferencesResponseSchema = z.object({
  notifications: notificationPreferencesSchema,
  preferences: userPreferencesSchema,
  /** When the user last saved either group; null while everything is still the default. */
  updatedAt: z.string().nullable(),
});
export type PreferencesResponse = z.infer<typeof preferencesResponseSchema>;

/** PUT /api/preferences: either group or both, each given whole. */
export const updatePreferencesRequestSchema = z
  .strictObject({
    notifications: notificationPreferencesSchema.optional(),
    preferences: userPreferencesSchema.optional(),
  })
  .refine((body) => body.notifications !== undefined || body.preferences !== undefined, {
    message: 'Send notifications, preferences or both.',
  });
export type UpdatePreferencesRequest = z.input<typeof updatePreferencesRequestSchema>;

/**
 * Values read back from storage, which may predate a field or hold one no longer allowed: every
 * field falls back to its default on its own, so one bad value never hides the others.
 */
export function withPreferenceDefaults(stored: {
  notifications?: unknown;
  preferences?: unknown;
}): { notifications: NotificationPreferences; preferences: UserPreferences } {
  const pick = <T extends Record<string, unknown>>(
    value: unknown,
    defaults: T,
    shape: Record<keyof T, z.ZodType>,
  ): T => {
    const source = value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
    const result: Record<string, unknown> = { ...defaults };
    for (const key of Object.keys(defaults) as Array<keyof T & string>) {
      const parsed = shape[key].safeParse(source[key]);
      if (parsed.success && source[key] !== undefined) result[key] = parsed.data;
    }
    return result as T;
  };
  return {
    notifications: pick(
      stored.notifications,
      defaultNotificationPreferences,
      notificationPreferencesSchema.shape,
    ),
    preferences: pick(stored.preferences, defaultUserPreferences, userPreferencesSchema.shape),
  };
}
