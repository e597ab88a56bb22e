import { z } from 'zod';

/** Notifications of the top-bar bell (spec.md section 2), generated from real events. */
export const notificationTypes = ['success', 'info', 'warning', 'error'] as const;
export const notificationTypeSchema = z.enum(notificationTypes);
export type NotificationType = z.infer<typeof notificationTypeSchema>;

export const notificationSchema = z.object({
  id: z.string(),
  type: notificationTypeSchema,
  title: z.string(),
  message: z.string(),
  migrationId: z.string().nullable(),
  read: z.boolean(),
  /** ISO-8601 time the notification was raised. */
  createdAt: z.string(),
});
export type Notification = z.infer<typeof notificationSchema>;

/** GET /api/notifications: the signed-in user's, newest first, with the unread count. */
export const notificationListSchema = z.object({
  notifications: z.array(notificationSchema),
  unreadCount: z.number().int().nonnegative(),
});
export type NotificationList = z.infer<typeof notificationListSchema>;

export const notificationListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(50),
});

/** POST /api/notifications/{id}/read and POST /api/notifications/read-all. */
export const notificationReadResponseSchema = z.object({
  unreadCount: z.number().int().nonnegative(),
});
export type NotificationReadResponse = z.infer<typeof notificationReadResponseSchema>;
