import type { Db } from '@replatform/db/database';
import type { MigrationsRepository } from '@replatform/db/migrations-repository';
import { NotificationsRepository } from '@replatform/db/notifications-repository';
import { formatUsd } from '@replatform/contracts/pricing';
import type { Platform } from '@replatform/contracts/migration';
import type { SandboxSealer } from '../sandbox/sandbox-sealer.ts';

const counts = { products: 1500, customers: 750, orders: 250 };
const allTypes = { products: true, customers: true, orders: true };
const total = counts.products + counts.customers + counts.orders;

const hoursAgo = (now: Date, hours: number) =>
  new Date(now.getTime() - hours * 60 * 60 * 1000).toISOString();

/** $124.00: base $99 + 2,500 records. */
const demoAmountCents = 12400;

/** A simulated card payment of $124.00 (base $99 + 2,500 records), never a real charge. */
function demoPayment(email: string, paidAt: string) {
  return {
    paymentStatus: 'paid',
    amount: demoAmountCents,
    currency: 'usd',
    paymentDate: paidAt,
    paymentMethod: { type: 'card', card: { brand: 'visa', last4: '4242' } },
    customerEmail: email,
    demo: true,
  };
}

/** The sample migrations of a demo account, by the state they are in. */
export interface DemoMigrations {
  pending: { id: string; storeName: string };
  failed: { id: string; storeName: string };
  completed: { id: string; storeName: string };
  running: { id: string; storeName: string };
}

/**
 * Sample migrations in every state for a new demo account, written through the repository like
 * any other migration: pending at step 1, in progress at step 4, completed, and failed. With
 * sandbox stores, the samples a visitor can act on (the failed one's Restart, the running one) are
 * connected to them, since a demo account may run nothing else; without, they carry made-up
 * addresses.
 */
export async function seedDemoMigrations(
  repo: MigrationsRepository,
  user: { id: string; email: string },
  now: Date = new Date(),
  sandbox?: SandboxSealer,
): Promise<DemoMigrations> {
  const create = (storeName: string) =>
    repo.create({ userId: user.id, email: user.email, storeName });
  const stores = async (
    migrationId: string,
    source: { platform: Platform; address: string },
    destination: { platform: Platform; address: string },
    options: { paced?: boolean } = {},
  ) => {
    if (!sandbox)
      return {
        sourceStore: source.platform,
        destinationStore: destination.platform,
        sourceStoreUrl: source.address,
        destinationStoreUrl: destination.address,
        sourceVerified: true,
        destinationVerified: true,
      };
    const from = await sandbox(migrationId, 'source', source.platform);
    const to = await sandbox(migrationId, 'destination', destination.platform, options);
    return {
      sourceStore: source.platform,
      destinationStore: destination.platform,
      sourceStoreUrl: from.address,
      destinationStoreUrl: to.address,
      sourceCredentials: from.credentials,
      destinationCredentials: to.credentials,
      sourceVerified: true,
      destinationVerified: true,
    };
  };

  const pending = await create('My New Store');

  const failed = await create('Vintage Books Store');
  await repo.update(failed.id, user.id, {
    ...(await stores(
      failed.id,
      { platform: 'bigcommerce', address: 'https://vintage-books.mybigcommerce.com' },
      { platform: 'woocommerce', address: 'https://vintage-books.example.com' },
    )),
    currentStep: 4,
    status: 'failed',
    dataTypes: allTypes,
    entityCounts: counts,
    totalEntities: total,
    migratedEntities: 620 + 180,
    migrationStats: {
      products: { total: counts.products, migrated: 620, failed: 45 },
      customers: { total: counts.customers, migrated: 180, failed: 12 },
      orders: { total: counts.orders, migrated: 0, failed: 0 },
    },
    paymentInfo: demoPayment(user.email, hoursAgo(now, 30)),
    startedAt: hoursAgo(now, 29.5),
  });

  const completed = await create('Home & Garden Market');
  await repo.update(completed.id, user.id, {
    sourceStore: 'magento2',
    destinationStore: 'shopify',
    sourceStoreUrl: 'https://home-garden.example.com',
    destinationStoreUrl: 'https://home-garden.myshopify.com',
    sourceVerified: true,
    destinationVerified: true,
    currentStep: 5,
    status: 'completed',
    dataTypes: allTypes,
    entityCounts: counts,
    totalEntities: total,
    migratedEntities: total,
    migrationStats: {
      products: { total: counts.products, migrated: counts.products, failed: 0 },
      customers: { total: counts.customers, migrated: counts.customers, failed: 0 },
      orders: { total: counts.orders, migrated: counts.orders, failed: 0 },
    },
    paymentInfo: demoPayment(user.email, hoursAgo(now, 74)),
    // 2,500 records in 50 minutes.
    startedAt: hoursAgo(now, 72 + 50 / 60),
    completedAt: hoursAgo(now, 72),
  });

  const running = await create('Outdoor Gear Shop');
  // On sandbox stores this one really runs (the caller starts it), into a destination that takes
  // writes slowly enough for a visitor to watch it move; its figures begin at zero.
  await repo.update(running.id, user.id, {
    ...(await stores(
      running.id,
      { platform: 'woocommerce', address: 'https://outdoor-gear.example.com' },
      { platform: 'shopify', address: 'https://outdoor-gear.myshopify.com' },
      { paced: true },
    )),
    currentStep: 4,
    status: 'in-progress',
    dataTypes: allTypes,
    entityCounts: counts,
    totalEntities: total,
    migratedEntities: sandbox ? 0 : 900 + 200,
    migrationStats: {
      products: { total: counts.products, migrated: sandbox ? 0 : 900, failed: sandbox ? 0 : 3 },
      customers: { total: counts.customers, migrated: sandbox ? 0 : 200, failed: 0 },
      orders: { total: counts.orders, migrated: 0, failed: 0 },
    },
    paymentInfo: demoPayment(user.email, hoursAgo(now, 1)),
  });

  const named = (m: { id: string; storeName: string }) => ({ id: m.id, storeName: m.storeName });
  return {
    pending: named(pending),
    failed: named(failed),
    completed: named(completed),
    running: named(running),
  };
}

/**
 * The bell's history for the sample migrations, worded as the real events word it (payments,
 * runs started, completed and failed), at the times the samples say they happened. The older
 * ones are read; the failure and the latest run's notices are unread.
 */
export async function seedDemoNotifications(
  db: Db,
  user: { id: string },
  samples: DemoMigrations,
  now: Date = new Date(),
): Promise<void> {
  const { failed, completed, running } = samples;
  const paidNotice = (storeName: string) =>
    `Demo payment of ${formatUsd(demoAmountCents)} for "${storeName}" recorded. No money was charged.`;
  const notices = [
    {
      hours: 74,
      read: true,
      type: 'success',
      title: 'Payment received',
      message: paidNotice(completed.storeName),
      migration: completed,
    },
    {
      hours: 72,
      read: true,
      type: 'success',
      title: 'Migration completed',
      message: `${completed.storeName}: ${total.toLocaleString('en-US')} records migrated.`,
      migration: completed,
    },
    {
      hours: 30,
      read: true,
      type: 'success',
      title: 'Payment received',
      message: paidNotice(failed.storeName),
      migration: failed,
    },
    {
      hours: 29,
      read: false,
      type: 'error',
      title: 'Migration failed',
      message: `${failed.storeName}: the source store stopped answering while products were being copied. Records already moved are kept; restart to continue where it stopped.`,
      migration: failed,
    },
    {
      hours: 1,
      read: false,
      type: 'success',
      title: 'Payment received',
      message: paidNotice(running.storeName),
      migration: running,
    },
    {
      hours: 0.9,
      read: false,
      type: 'info',
      title: 'Migration started',
      message: `${running.storeName}: moving your data now. You can leave this page; we will let you know when it is done.`,
      migration: running,
    },
  ] as const;
  // The repository stamps rows with its clock: set it to each notice's time in turn.
  let at = now;
  const repo = new NotificationsRepository(db, () => at);
  for (const notice of notices) {
    at = new Date(now.getTime() - notice.hours * 60 * 60 * 1000);
    const created = await repo.create({
      userId: user.id,
      type: notice.type,
      title: notice.title,
      message: notice.message,
      migrationId: notice.migration.id,
    });
    if (notice.read) await repo.markRead(created.id, user.id);
  }
}

/**
 * Removes what has outlived its use: demo accounts past their expiry (with their migrations and
 * sessions), expired sessions and verification tokens, and outbox mail older than a week.
 */
export async function sweepExpired(
  db: Db,
  deleteUser: (userId: string) => Promise<void>,
  now: Date = new Date(),
): Promise<{ demoAccounts: number }> {
  const expired = await db.kysely
    .selectFrom('users')
    .select('id')
    .where('is_demo', '=', db.dialect === 'postgres' ? true : 1)
    .where('demo_expires_at', '<', now)
    .execute();
  for (const { id } of expired) await deleteUser(id);
  await db.kysely.deleteFrom('sessions').where('expires_at', '<', now).execute();
  await db.kysely.deleteFrom('verifications').where('expires_at', '<', now).execute();
  const weekAgo = new Date(now.getTime() - 7 * 24 * 60 * 60 * 1000).toISOString();
  await db.kysely.deleteFrom('mail_outbox').where('created_at', '<', weekAgo).execute();
  return { demoAccounts: expired.length };
}
