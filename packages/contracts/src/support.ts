/**
 * How people reach support, and the service levels we state (spec.md section 9), in one place so
 * the help centre, the contact page and the marketing pages always say the same thing. The
 * e-mail addresses use the reserved example domain and the phone a fictional 555-01xx number, and
 * the office and social profiles are placeholders: an operator sets their own here.
 */
export const support = {
  email: 'support@replatform.example',
  salesEmail: 'sales@replatform.example',
  phoneDisplay: '+1 (555) 010-4200',
  phoneHref: 'tel:+15550104200',
  office: {
    name: 'Replatform',
    street: '100 Harbor Way, Suite 400',
    city: 'San Francisco, CA 94105',
    country: 'United States',
  },
  /** Staffed hours (Pacific time) and the weekend cover. */
  hours: {
    weekdays: 'Monday – Friday, 8:00 AM – 8:00 PM PST',
    weekend: 'Saturday and Sunday: 24/7',
  },
  /** Social profiles shown on the contact page. */
  social: [
    { name: 'X (Twitter)', short: 'X', color: '#0f172a', url: 'https://x.com/replatform' },
    {
      name: 'LinkedIn',
      short: 'in',
      color: '#0a66c2',
      url: 'https://www.linkedin.com/company/replatform',
    },
    { name: 'GitHub', short: 'GH', color: '#24292f', url: 'https://github.com/replatform' },
    { name: 'YouTube', short: '▶', color: '#dc2626', url: 'https://www.youtube.com/@replatform' },
  ],
  /** Service levels of spec.md section 9. */
  responseTime: 'within 2 hours',
  failureResolution: 'within 24 hours',
} as const;

/** Typical durations by catalogue size (spec.md section 9). */
export const typicalDurations = [
  { size: 'Under 1,000 products', duration: '10–30 minutes' },
  { size: '1,000 – 10,000 products', duration: '1–3 hours' },
  { size: 'Over 10,000 products', duration: '3–8 hours' },
] as const;
