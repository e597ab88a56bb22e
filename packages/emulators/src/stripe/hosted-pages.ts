import type { StripeObject } from './state.ts';

/**
 * The pages the emulator serves to browsers: Checkout's hosted payment page (a plain HTML form
 * that pays or cancels) and the receipt page a Charge's receipt_url points to. No scripts, so
 * they work in any browser and with plain HTTP clients in tests.
 */

export function escapeHtml(value: unknown): string {
  return String(value ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

export function formatAmount(amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency: currency.toUpperCase(),
    }).format(amount / 100);
  } catch {
    return `${(amount / 100).toFixed(2)} ${currency.toUpperCase()}`;
  }
}

const style = `
  body { font-family: system-ui, sans-serif; background: #f6f9fc; color: #1a1f36; margin: 0; }
  main { max-width: 28rem; margin: 2rem auto; background: #fff; padding: 2rem; border-radius: 8px;
         box-shadow: 0 2px 8px rgba(0,0,0,.08); }
  .badge { display: inline-block; background: #ffde92; color: #a04a00; font-size: .75rem;
           font-weight: 600; padding: .2rem .5rem; border-radius: 4px; }
  label { display: block; margin: .75rem 0 .25rem; font-size: .875rem; }
  input, select { width: 100%; box-sizing: border-box; padding: .5rem; font-size: 1rem;
                  border: 1px solid #c4cdd5; border-radius: 4px; }
  .row { display: flex; gap: .75rem; } .row > div { flex: 1; }
  button { width: 100%; margin-top: 1.25rem; padding: .75rem; font-size: 1rem; border: 0;
           border-radius: 4px; background: #635bff; color: #fff; cursor: pointer; }
  button.secondary { background: transparent; color: #635bff; margin-top: .5rem; }
  .error { background: #fde8e8; color: #9b1c1c; padding: .75rem; border-radius: 4px; }
  table { width: 100%; border-collapse: collapse; } td { padding: .35rem 0; }
  td.amount { text-align: right; }
`;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${style}</style>
</head>
<body>
<main>
<p class="badge">Test mode · Stripe emulator</p>
${body}
</main>
</body>
</html>`;
}

export interface CheckoutFormValues {
  email?: string;
  cardNumber?: string;
  expiry?: string;
  cvc?: string;
  name?: string;
  country?: string;
  postalCode?: string;
}

const countries = ['US', 'CA', 'GB', 'AU', 'DE', 'FR', 'ES', 'IT', 'NL', 'SE'];

export function checkoutPage(
  session: StripeObject,
  lineItems: StripeObject[],
  accountName: string,
  options: { error?: string; values?: CheckoutFormValues } = {},
): string {
  const id = String(session.id);
  const total = formatAmount(session.amount_total as number, String(session.currency));
  const title = `Pay ${accountName}`;
  if (session.status !== 'open') {
    const done = session.status === 'complete';
    return page(
      title,
      `<h1>${done ? 'This payment is complete' : 'This checkout session has expired'}</h1>
<p>${done ? 'Thank you. You can close this page.' : 'Return to the merchant to start again.'}</p>`,
    );
  }
  const values = options.values ?? {};
  const email = values.email ?? (session.customer_email as string | null) ?? '';
  const items = lineItems
    .map(
      (item) =>
        `<tr><td>${escapeHtml(item.description)}${
          (item.quantity as number) > 1 ? ` × ${escapeHtml(item.quantity)}` : ''
        }</td><td class="amount">${escapeHtml(
          formatAmount(item.amount_total as number, String(item.currency)),
        )}</td></tr>`,
    )
    .join('');
  const countryOptions = countries
    .map(
      (c) =>
        `<option value="${c}"${(values.country ?? 'US') === c ? ' selected' : ''}>${c}</option>`,
    )
    .join('');
  return page(
    title,
    `<h1>${escapeHtml(accountName)}</h1>
<p>Pay <strong data-testid="total">${escapeHtml(total)}</strong></p>
<table>${items}</table>
${options.error ? `<p class="error" role="alert">${escapeHtml(options.error)}</p>` : ''}
<form method="post" action="/c/pay/${escapeHtml(id)}">
  <label for="email">Email</label>
  <input id="email" name="email" type="email" autocomplete="email" required value="${escapeHtml(email)}">
  <label for="cardNumber">Card number</label>
  <input id="cardNumber" name="cardNumber" inputmode="numeric" autocomplete="cc-number"
         placeholder="4242 4242 4242 4242" required value="${escapeHtml(values.cardNumber ?? '')}">
  <div class="row">
    <div>
      <label for="expiry">Expiry (MM / YY)</label>
      <input id="expiry" name="expiry" autocomplete="cc-exp" placeholder="MM / YY" required
             value="${escapeHtml(values.expiry ?? '')}">
    </div>
    <div>
      <label for="cvc">CVC</label>
      <input id="cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" placeholder="123" required
             value="${escapeHtml(values.cvc ?? '')}">
    </div>
  </div>
  <label for="name">Name on card</label>
  <input id="name" name="name" autocomplete="cc-name" value="${escapeHtml(values.name ?? '')}">
  <div class="row">
    <div>
      <label for="country">Country</label>
      <select id="country" name="country">${countryOptions}</select>
    </div>
    <div>
      <label for="postalCode">ZIP</label>
      <input id="postalCode" name="postalCode" autocomplete="postal-code"
             value="${escapeHtml(values.postalCode ?? '')}">
    </div>
  </div>
  <button type="submit">Pay ${escapeHtml(total)}</button>
</form>
${
  session.cancel_url
    ? `<form method="post" action="/c/pay/${escapeHtml(id)}/cancel">
  <button type="submit" class="secondary">Cancel and return to ${escapeHtml(accountName)}</button>
</form>`
    : ''
}`,
  );
}

export function receiptPage(charge: StripeObject, accountName: string): string {
  const card = (charge.payment_method_details as { card?: { brand?: string; last4?: string } })
    ?.card;
  const paid = new Date((charge.created as number) * 1000).toISOString().slice(0, 10);
  const amount = formatAmount(charge.amount as number, String(charge.currency));
  return page(
    `Your receipt from ${accountName}`,
    `<h1>Receipt from ${escapeHtml(accountName)}</h1>
<table>
<tr><td>Amount paid</td><td class="amount" data-testid="amount">${escapeHtml(amount)}</td></tr>
<tr><td>Date paid</td><td class="amount">${escapeHtml(paid)}</td></tr>
<tr><td>Payment method</td><td class="amount">${escapeHtml(card?.brand ?? 'card')} •••• ${escapeHtml(
      card?.last4 ?? '',
    )}</td></tr>
<tr><td>Description</td><td class="amount">${escapeHtml(charge.description ?? '')}</td></tr>
<tr><td>Charge</td><td class="amount">${escapeHtml(charge.id)}</td></tr>
</table>`,
  );
}
