import type { Db } from './database.ts';

export type RemigrationBasis = 'first' | 'demo' | 'sandbox' | 'paid';

export interface Remigration {
  id: string;
  migrationId: string;
  number: number;
  basis: RemigrationBasis;
  quoteId: string | null;
  createdAt: string;
}

/**
 * Re-migrations: runs started again on a completed migration. Rows are added only together with
 * the job that runs them (EngineJobsRepository.startJob); this reads them for the start and
 * payment rules.
 */
export class RemigrationsRepository {
  readonly #db: Db;

  constructor(db: Db) {
    this.#db = db;
  }

  async list(migrationId: string): Promise<Remigration[]> {
    const rows = await this.#db.kysely
      .selectFrom('remigrations')
      .selectAll()
      .where('migration_id', '=', migrationId)
      .orderBy('number')
      .execute();
    return rows.map((r) => ({
      id: r.id,
      migrationId: r.migration_id,
      number: Number(r.number),
      basis: r.basis as RemigrationBasis,
      quoteId: r.quote_id,
      createdAt: r.created_at,
    }));
  }

  async count(migrationId: string): Promise<number> {
    const row = await this.#db.kysely
      .selectFrom('remigrations')
      .select((eb) => eb.fn.countAll<string | number>().as('count'))
      .where('migration_id', '=', migrationId)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /** The paid 'remigration' quote bought for re-migration `number` and not used yet. */
  async paidQuoteFor(migrationId: string, number: number): Promise<string | undefined> {
    const row = await this.#db.kysely
      .selectFrom('payment_quotes')
      .select('id')
      .where('migration_id', '=', migrationId)
      .where('kind', '=', 'remigration')
      .where('remigration_number', '=', number)
      .where('status', '=', 'paid')
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('remigrations')
              .select('remigrations.id')
              .whereRef('remigrations.quote_id', '=', 'payment_quotes.id'),
          ),
        ),
      )
      .orderBy('paid_at')
      .executeTakeFirst();
    return row?.id;
  }
}
