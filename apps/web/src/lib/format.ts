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
