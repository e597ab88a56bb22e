import type { EntityRecord, EntityType } from '@replatform/canonical/entities';
import type { Connection } from '@replatform/connectors/kit/contract';
import { readPages } from './read-pages.ts';
import type { StoreWatch } from './retry.ts';

/** Records of each selected type a free demo migration moves (DEMO_MIGRATION_LIMIT's default). */
export const DEFAULT_DEMO_LIMIT = 10;

/** A free demo run: at most `limit` records of each selected type, before payment. */
export interface DemoOptions {
  limit: number;
}

/**
 * Which source records a demo run moves: the first `limit` of each stream, and besides them the
 * customers and products the demo's orders name and the products its reviews are about, so that
 * the orders and reviews arrive linked as the full migration would write them (each stream's
 * pages are read until they are all found, so what the source could not carry is reported as in
 * any run). Categories come whole (a store has few, and products need theirs). Decided by reading the first orders and
 * reviews before any stream starts (`prepare`), so a demo run that resumes picks the same ones.
 */
export class DemoPicker {
  readonly limit: number;
  /** Source ids of the records a stream must include, named by the demo's orders and reviews. */
  readonly #needed = new Map<EntityType, Set<string>>();
  /** The orders and reviews the demo moves, by source id. */
  readonly #heads = new Map<EntityType, Set<string>>();
  /** Records of each stream taken so far that no other record needed. */
  readonly #taken = new Map<EntityType, number>();
  /** Needed records already taken, per stream. */
  readonly #found = new Map<EntityType, Set<string>>();

  constructor(options: DemoOptions) {
    this.limit = Math.max(1, Math.floor(options.limit));
  }

  /** Reads the first orders and reviews of the source and notes what they need. */
  async prepare(
    source: Connection,
    streams: readonly EntityType[],
    watch: StoreWatch,
    signal?: AbortSignal,
  ): Promise<void> {
    for (const entity of ['orders', 'reviews'] as const) {
      if (!streams.includes(entity)) continue;
      const heads = new Set<string>();
      this.#heads.set(entity, heads);
      for await (const page of readPages(source, entity, null, watch, signal)) {
        for (const record of page.records) {
          if (heads.size >= this.limit) break;
          heads.add(record.id);
          this.#need(entity, record);
        }
        if (heads.size >= this.limit) break;
      }
    }
  }

  #need<E extends 'orders' | 'reviews'>(entity: E, record: EntityRecord[E]): void {
    const add = (target: EntityType, id: string | null) => {
      if (id === null) return;
      const set = this.#needed.get(target) ?? new Set<string>();
      set.add(id);
      this.#needed.set(target, set);
    };
    if (entity === 'reviews') {
      add('products', (record as EntityRecord['reviews']).productId);
      return;
    }
    const order = record as EntityRecord['orders'];
    add('customers', order.customerId);
    for (const line of order.lines) add('products', line.productId);
  }

  /** Source ids a stream must include (empty when none). */
  needed(entity: EntityType): ReadonlySet<string> {
    return this.#needed.get(entity) ?? new Set();
  }

  /**
   * Whether the demo moves this record, noting it as taken: every category; the orders and
   * reviews read by `prepare`; a needed record once; others until `limit` are taken.
   */
  take(entity: EntityType, sourceId: string): boolean {
    if (entity === 'categories') return true;
    const found = this.#found.get(entity) ?? new Set<string>();
    this.#found.set(entity, found);
    const heads = this.#heads.get(entity);
    if (heads) {
      if (!heads.has(sourceId)) return false;
      found.add(sourceId);
      return true;
    }
    if (this.needed(entity).has(sourceId)) {
      if (found.has(sourceId)) return false;
      found.add(sourceId);
      return true;
    }
    const taken = this.#taken.get(entity) ?? 0;
    if (taken >= this.limit) return false;
    this.#taken.set(entity, taken + 1);
    return true;
  }

  /** Whether reading the stream further can add nothing to the demo. */
  satisfied(entity: EntityType): boolean {
    if (entity === 'categories') return false;
    const found = this.#found.get(entity)?.size ?? 0;
    // The demo's orders and reviews are the stream's first ones: read until each is seen.
    const heads = this.#heads.get(entity);
    if (heads) return found >= heads.size;
    return (this.#taken.get(entity) ?? 0) >= this.limit && found >= this.needed(entity).size;
  }

  /**
   * Records already taken by an earlier attempt of the same demo run (a resumed run carries on
   * from its checkpoints): they count against the limit.
   */
  resume(entity: EntityType, done: number): void {
    if (this.#heads.has(entity) || entity === 'categories') return;
    this.#taken.set(entity, Math.min(this.limit, done));
  }

  /** How many records of the stream the demo moves at most, given the source's count. */
  total(entity: EntityType, count: number): number {
    if (entity === 'categories') return count;
    const heads = this.#heads.get(entity);
    if (heads) return heads.size;
    return Math.min(count, this.limit + this.needed(entity).size);
  }
}
