/** Dates in US English with year, month, day, hour and minute (spec.md section 9). */
export function formatDateTime(value: string | null | undefined): string {
  if (!value) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return date.toLocaleString('en-US', {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  });
}

export function formatCount(value: number): string {
  return value.toLocaleString('en-US');
}

const brandNames: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
  diners: 'Diners Club',
  jcb: 'JCB',
  unionpay: 'UnionPay',
};

/** A card network as people write it ('visa' from Stripe shows as 'Visa'). */
export function formatCardBrand(brand: string): string {
  return brandNames[brand.toLowerCase()] ?? brand;
}

/**
 * How a payment was made, as the owner recognises it: the card's network (with its last four
 * digits when `withLast4`), PayPal, or 'Card' when the provider told us nothing more.
 */
export function formatPaymentMethod(
  method: { type: string; card?: { brand: string; last4: string } | undefined } | undefined,
  { withLast4 = false }: { withLast4?: boolean } = {},
): string {
  if (method?.type === 'paypal') return 'PayPal';
  const card = method?.card;
  if (!card) return 'Card';
  const brand = formatCardBrand(card.brand);
  return withLast4 && card.last4 ? `${brand} •••• ${card.last4}` : brand;
}

const statusLabels: Record<string, string> = {
  pending: 'Pending',
  'in-progress': 'In Progress',
  completed: 'Completed',
  failed: 'Failed',
};

/** A migration status for display ('in-progress' shows as 'In Progress'). */
export function formatStatus(status: string): string {
  if (!status) return '';
  return (
    statusLabels[status] ??
    status
      .split(/[-_\s]+/)
      .filter(Boolean)
      .map((word) => word[0]?.toUpperCase() + word.slice(1))
      .join(' ')
  );
}

const regionNames = new Intl.DisplayNames(['en-US'], { type: 'region', fallback: 'code' });

/** A country by its name in US English ('GB' shows as 'United Kingdom'). */
export function formatCountry(code: string): string {
  return regionNames.of(code.toUpperCase()) ?? code;
}
