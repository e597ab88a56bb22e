/**
 * Cache keys shared across features: a payment or a started run raises a notification on the
 * server, so the pages that cause one refresh the bell at once instead of waiting for its poll.
 */
export const notificationsQueryKey = ['notifications'] as const;
