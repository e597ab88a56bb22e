import type { EntityType } from '@replatform/canonical/entities';
import type { Checkpoint, Connection, Page } from '@replatform/connectors/kit/contract';
import { sleep, StoreWatch, type RetryPolicy } from './retry.ts';

/**
 * Reads an entity page by page from `from`. A transient failure that outlasts the connector's own
 * retries restarts the read at the last page received (pages carry their successor's
 * checkpoint), as long as the store's watch keeps waiting for it.
 */
export async function* readPages<E extends EntityType>(
  connection: Connection,
  entity: E,
  from: Checkpoint | null,
  watch: StoreWatch | RetryPolicy,
  signal?: AbortSignal,
): AsyncGenerator<Page<E>> {
  const store = watch instanceof StoreWatch ? watch : new StoreWatch('source', watch);
  let position = from;
  let failures = 0;
  for (;;) {
    try {
      for await (const page of connection.read(entity, position)) {
        failures = 0;
        store.answered();
        yield page;
        if (!page.next) return;
        position = page.next;
      }
      return;
    } catch (error) {
      failures += 1;
      const delay = store.delayAfter(failures, error, signal);
      if (delay === undefined) throw error;
      await sleep(delay, signal);
    }
  }
}

/**
 * Keeps one read in flight ahead of the consumer, so the next page is fetched while the
 * previous batch is being written. Only one next() is ever outstanding, which every async
 * iterator supports.
 */
export async function* readAhead<T>(source: AsyncIterable<T>): AsyncGenerator<T> {
  const iterator = source[Symbol.asyncIterator]();
  let pending: Promise<IteratorResult<T>> | undefined = iterator.next();
  // The rejection is seen where the promise is awaited; this only keeps an abandoned read from
  // being reported as unhandled.
  pending.catch(() => {});
  try {
    while (pending) {
      const result: IteratorResult<T> = await pending;
      pending = undefined;
      if (result.done) return;
      pending = iterator.next();
      pending.catch(() => {});
      yield result.value;
    }
  } finally {
    if (pending) await pending.catch(() => undefined);
    await iterator.return?.();
  }
}
