/** Payment methods of a Magento installation. */
const magentoMethods = new Set([
  'checkmo',
  'banktransfer',
  'cashondelivery',
  'purchaseorder',
  'free',
  'braintree',
  'braintree_paypal',
  'paypal_express',
  'payflowpro',
  'authnetcim',
]);

/** Other platforms' codes for methods Magento has under another code. */
const sameMethod: Record<string, string> = {
  bacs: 'banktransfer',
  cod: 'cashondelivery',
  cheque: 'checkmo',
};

/** Whether another platform's payment method code has a Magento equivalent. */
export const isKnownElsewhere = (code: string): boolean => Object.hasOwn(sameMethod, code);

/**
 * The Magento method an order is written with: its own, the same method under Magento's code, or
 * Check / Money order (an order needs a method Magento knows; the original code and title are
 * kept in the payment's information). An order without a method gets Check / Money order too.
 */
export function magentoMethodFor(code: string): string {
  if (magentoMethods.has(code)) return code;
  return isKnownElsewhere(code) ? (sameMethod[code] as string) : 'checkmo';
}

/** The SKU of an order line without one: Magento requires a SKU on every order item. */
export const NO_SKU = '-';
