import { contactMessageResponseSchema, type ContactMessage } from '@replatform/contracts/forms';
import { apiRequest } from '../../../lib/api-client.ts';

/** POST /api/contact-messages: stored, and mailed to the operator when configured. */
export function sendContactMessage(message: ContactMessage) {
  return apiRequest('/api/contact-messages', contactMessageResponseSchema, {
    method: 'POST',
    body: message,
  });
}
