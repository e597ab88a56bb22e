import { enterpriseQuoteResponseSchema, type EnterpriseQuote } from '@replatform/contracts/forms';
import { apiRequest } from '../../../lib/api-client.ts';

/** POST /api/enterprise-quotes (no account needed). */
export function requestEnterpriseQuote(quote: EnterpriseQuote) {
  return apiRequest('/api/enterprise-quotes', enterpriseQuoteResponseSchema, {
    method: 'POST',
    body: quote,
  });
}
