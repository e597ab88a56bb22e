import { createHash, randomUUID } from 'node:crypto';
import { MagentoError } from './magento-error.ts';
import { magentoTime, type Json } from './input.ts';

/**
 * Magento's asynchronous bulk API (limits.json magento2.async_bulk): POST/PUT to
 * /rest/<store>/async/bulk/V1/... answers at once with `{bulk_uuid, request_items, errors}`;
 * each item becomes an operation that the message-queue consumer (async.operations.all) runs
 * later. Operation status codes are Magento's OperationInterface constants.
 */

export const OperationStatus = {
  complete: 1,
  retriablyFailed: 2,
  notRetriablyFailed: 3,
  open: 4,
  rejected: 5,
} as const;

export interface Operation {
  id: number;
  topicName: string;
  serializedData: string;
  resultSerializedData: string | null;
  status: number;
  resultMessage: string | null;
  errorCode: number | null;
  run: (() => unknown) | null;
}

export interface Bulk {
  uuid: string;
  description: string;
  startTime: string;
  operations: Operation[];
}

export class BulkQueue {
  readonly bulks = new Map<string, Bulk>();
  readonly #tickMs: number;
  readonly #perTick: number;
  #timer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(options: { tickMs?: number; perTick?: number } = {}) {
    this.#tickMs = options.tickMs ?? 5;
    this.#perTick = options.perTick ?? 10;
  }

  /**
   * Accepts a bulk. `items` are the request bodies; `prepare` turns one into a runnable operation
   * or throws a MagentoError, which rejects that item at once (as Magento's input validation
   * does before anything is queued).
   */
  submit(
    topicName: string,
    items: unknown[],
    prepare: (item: unknown) => () => unknown,
  ): { bulk_uuid: string; request_items: Json[]; errors: boolean } {
    const uuid = randomUUID();
    const bulk: Bulk = {
      uuid,
      description: `Topic ${topicName}`,
      startTime: magentoTime(),
      operations: [],
    };
    const requestItems: Json[] = [];
    let errors = false;
    items.forEach((item, index) => {
      const serialized = JSON.stringify(item);
      const dataHash = createHash('sha256').update(serialized).digest('hex');
      try {
        const run = prepare(item);
        bulk.operations.push({
          id: index,
          topicName,
          serializedData: JSON.stringify({
            entity_id: null,
            entity_link: '',
            meta_information: serialized,
          }),
          resultSerializedData: null,
          status: OperationStatus.open,
          resultMessage: null,
          errorCode: null,
          run,
        });
        requestItems.push({ id: index, data_hash: dataHash, status: 'accepted' });
      } catch (error) {
        if (!(error instanceof MagentoError)) throw error;
        errors = true;
        bulk.operations.push({
          id: index,
          topicName,
          serializedData: JSON.stringify({
            entity_id: null,
            entity_link: '',
            meta_information: serialized,
          }),
          resultSerializedData: null,
          status: OperationStatus.rejected,
          resultMessage: error.formatted(),
          errorCode: error.status,
          run: null,
        });
        requestItems.push({
          id: index,
          data_hash: dataHash,
          status: 'rejected',
          error_message: error.formatted(),
          error_code: error.status,
        });
      }
    });
    this.bulks.set(uuid, bulk);
    this.#schedule();
    return { bulk_uuid: uuid, request_items: requestItems, errors };
  }

  #schedule(): void {
    if (this.#timer || this.#closed) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#tick();
    }, this.#tickMs);
  }

  /** The consumer: runs a few open operations per tick, oldest bulk first. */
  #tick(): void {
    let budget = this.#perTick;
    for (const bulk of this.bulks.values()) {
      for (const operation of bulk.operations) {
        if (budget === 0) break;
        if (operation.status !== OperationStatus.open || !operation.run) continue;
        budget -= 1;
        try {
          const result = operation.run();
          operation.status = OperationStatus.complete;
          operation.resultSerializedData = JSON.stringify(result);
          operation.resultMessage = 'Service execution success';
        } catch (error) {
          const magento = error instanceof MagentoError ? error : undefined;
          operation.status =
            magento && magento.status < 500
              ? OperationStatus.notRetriablyFailed
              : OperationStatus.retriablyFailed;
          operation.resultMessage = magento ? magento.formatted() : String(error);
          operation.errorCode = magento?.status ?? 500;
        }
        operation.run = null;
      }
    }
    const pending = [...this.bulks.values()].some((b) =>
      b.operations.some((o) => o.status === OperationStatus.open),
    );
    if (pending) this.#schedule();
  }

  get(uuid: string): Bulk {
    const bulk = this.bulks.get(uuid);
    if (!bulk) {
      throw new MagentoError(404, 'Bulk uuid %bulkUuid not exist', { bulkUuid: uuid });
    }
    return bulk;
  }

  #summary(bulk: Bulk): Json {
    return {
      extension_attributes: {},
      user_type: 1,
      bulk_id: bulk.uuid,
      description: bulk.description,
      start_time: bulk.startTime,
      user_id: 1,
      operation_count: bulk.operations.length,
    };
  }

  statusJson(uuid: string): Json {
    const bulk = this.get(uuid);
    return {
      operations_list: bulk.operations.map((o) => ({
        id: o.id,
        status: o.status,
        result_message: o.resultMessage ?? '',
        error_code: o.errorCode ?? 0,
      })),
      ...this.#summary(bulk),
    };
  }

  detailedStatusJson(uuid: string): Json {
    const bulk = this.get(uuid);
    return {
      operations_list: bulk.operations.map((o) => ({
        id: o.id,
        bulk_uuid: bulk.uuid,
        topic_name: o.topicName,
        serialized_data: o.serializedData,
        result_serialized_data: o.resultSerializedData ?? '',
        status: o.status,
        result_message: o.resultMessage ?? '',
        error_code: o.errorCode ?? 0,
      })),
      ...this.#summary(bulk),
    };
  }

  countByStatus(uuid: string, status: number): number {
    return this.get(uuid).operations.filter((o) => o.status === status).length;
  }

  close(): void {
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
