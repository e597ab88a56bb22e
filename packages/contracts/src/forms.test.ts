import { describe, expect, it } from 'vitest';
import {
  contactMessageRequestSchema,
  defaultNotificationPreferences,
  defaultUserPreferences,
  enterpriseQuoteRequestSchema,
  updatePreferencesRequestSchema,
  withPreferenceDefaults,
} from './forms.ts';

const messages = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues.map((i) => i.message) ?? [];

describe('contact message schema', () => {
  it('requires name, email, subject and message, and defaults the optional fields', () => {
    expect(
      contactMessageRequestSchema.parse({
        name: ' Ada ',
        email: ' ada@example.com ',
        subject: 'Hi',
        message: 'Hello',
      }),
    ).toEqual({
      name: 'Ada',
      email: 'ada@example.com',
      company: '',
      phone: '',
      subject: 'Hi',
      message: 'Hello',
      priority: 'medium',
    });
    expect(messages(contactMessageRequestSchema.safeParse({}))).toEqual([
      'Name is required.',
      'Email is required.',
      'Subject is required.',
      'Message is required.',
    ]);
  });

  it('explains malformed values', () => {
    const result = contactMessageRequestSchema.safeParse({
      name: 'A',
      email: 'not an address',
      subject: 'x'.repeat(201),
      message: 'm',
      phone: 'call me maybe',
      priority: 'urgent',
    });
    expect(messages(result)).toEqual([
      'Enter a valid email address.',
      'Phone may contain only digits, spaces and + ( ) - .',
      'Subject must be at most 200 characters.',
      'Priority must be low, medium or high.',
    ]);
  });
});

describe('enterprise quote schema', () => {
  it('requires the store size from the list and keeps the hidden field apart', () => {
    const ok = enterpriseQuoteRequestSchema.parse({
      name: 'Grace',
      email: 'grace@example.com',
      storeName: 'Big',
      storeSize: '500k+',
      website: '',
    });
    expect(ok).toMatchObject({ comments: '', storeSize: '500k+', website: '' });
    expect(
      messages(
        enterpriseQuoteRequestSchema.safeParse({
          name: 'Grace',
          email: 'grace@example.com',
          storeName: ' ',
          storeSize: '',
        }),
      ),
    ).toEqual(['Store name is required.', 'Choose the size of your store.']);
  });
});

describe('preferences', () => {
  it('has the spec’s defaults', () => {
    expect(defaultNotificationPreferences).toEqual({
      emailNotifications: true,
      pushNotifications: true,
      migrationUpdates: true,
      securityAlerts: true,
      marketingEmails: false,
    });
    expect(defaultUserPreferences).toEqual({
      theme: 'light',
      language: 'en',
      timezone: 'UTC',
      dateFormat: 'MM/DD/YYYY',
      currency: 'USD',
    });
  });

  it('accepts one group or both, each whole, and nothing unknown', () => {
    expect(
      updatePreferencesRequestSchema.safeParse({ notifications: defaultNotificationPreferences })
        .success,
    ).toBe(true);
    expect(
      updatePreferencesRequestSchema.safeParse({
        preferences: { theme: 'dark', language: 'de', timezone: 'UTC', dateFormat: 'YYYY-MM-DD' },
      }).success,
    ).toBe(true);
    expect(updatePreferencesRequestSchema.safeParse({}).success).toBe(false);
    expect(
      updatePreferencesRequestSchema.safeParse({ notifications: { emailNotifications: true } })
        .success,
    ).toBe(false);
    expect(
      updatePreferencesRequestSchema.safeParse({
        preferences: { ...defaultUserPreferences, timezone: 'Europe/Paris' },
      }).success,
    ).toBe(false);
  });

  it('fills each missing or no-longer-valid stored field with its own default', () => {
    expect(withPreferenceDefaults({})).toEqual({
      notifications: defaultNotificationPreferences,
      preferences: defaultUserPreferences,
    });
    expect(
      withPreferenceDefaults({
        notifications: { marketingEmails: true, securityAlerts: 'no', extra: 1 },
        preferences: { theme: 'dark', dateFormat: 'DD.MM.YYYY' },
      }),
    ).toEqual({
      notifications: { ...defaultNotificationPreferences, marketingEmails: true },
      preferences: { ...defaultUserPreferences, theme: 'dark' },
    });
    expect(withPreferenceDefaults({ notifications: 'garbage', preferences: null })).toEqual({
      notifications: defaultNotificationPreferences,
      preferences: defaultUserPreferences,
    });
  });
});
