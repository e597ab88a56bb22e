import type { Kysely } from 'kysely';
import type { Notification, NotificationType } from '@replatform/contracts/notifications';
import type { Db } from '@replatform/db/database';
import {
  NotificationsRepository,
  type StoredNotification,
} from '@replatform/db/notifications-repository';
import type { Database } from '@replatform/db/schema';

export interface NotifyInput {
  userId: string;
  type: NotificationType;
  title: string;
  message: string;
  migrationId?: string | null;
}

export interface NotifyOptions {
  /**
   * An open transaction of the caller: the notification then exists exactly when the change it
   * reports is committed (payments use this so a payment is announced once).
   */
  within?: Kysely<Database>;
}

export function presentNotification(stored: StoredNotification): Notification {
  return {
    id: stored.id,
    type:
      (['success', 'info', 'warning', 'error'] as const).find((t) => t === stored.type) ?? 'info',
    title: stored.title,
    message: stored.message,
    migrationId: stored.migrationId,
    read: stored.readAt !== null,
    createdAt: stored.createdAt,
  };
}

/**
 * The bell's notifications. Anything that should tell a user about an event (payment received,
 * migration started, completed or failed) calls notify(); the routes list and mark them read.
 */
export class NotificationsService {
  readonly repository: NotificationsRepository;

  constructor(db: Db) {
    this.repository = new NotificationsRepository(db);
  }

  async notify(input: NotifyInput, options: NotifyOptions = {}): Promise<Notification> {
    const stored = await this.repository.create(
      {
        userId: input.userId,
        type: input.type,
        title: input.title,
        message: input.message,
        migrationId: input.migrationId ?? null,
      },
      options.within,
    );
    return presentNotification(stored);
  }

  async list(
    userId: string,
    limit = 50,
  ): Promise<{ notifications: Notification[]; unreadCount: number }> {
    const [stored, unreadCount] = await Promise.all([
      this.repository.listForUser(userId, limit),
      this.repository.unreadCount(userId),
    ]);
    return { notifications: stored.map(presentNotification), unreadCount };
  }

  /** False when the notification is not the user's (or does not exist). */
  markRead(id: string, userId: string): Promise<boolean> {
    return this.repository.markRead(id, userId);
  }

  markAllRead(userId: string): Promise<number> {
    return this.repository.markAllRead(userId);
  }

  unreadCount(userId: string): Promise<number> {
    return this.repository.unreadCount(userId);
  }

  /** For account deletion: a user's notifications go with the account. */
  deleteAllForUser(userId: string): Promise<number> {
    return this.repository.deleteAllForUser(userId);
  }
}
