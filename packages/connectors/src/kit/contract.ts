import type { z } from 'zod';
import type { EntityRecord, EntityType } from '@replatform/canonical/entities';
import { optionsOf, type MigrationOptions, type Platform } from '@replatform/contracts/migration';
import type { DestinationFields, NativeCatalogue } from './fields.ts';

/**
 * Where a read stream stands. Opaque to the engine (each connector decides what `cursor` means:
 * a page number, a GraphQL cursor, an id); stored with the id-map rows of the batch just written.
 */
export interface Checkpoint {
  version: 1;
  cursor: string;
}

export interface Page<E extends EntityType> {
  records: EntityRecord[E][];
  /** Where the next page starts, or null when this was the last page. */
  next: Checkpoint | null;
  /**
   * Source records that could not be turned into canonical records, with the reason. They are
   * reported as failed; the rest of the page goes on.
   */
  rejected?: { sourceId: string; reason: string }[];
  /**
   * Fields of the page's source records that the model could not carry (a native field declared
   * notCarried that had a value), each a known difference of its record.
   */
  losses?: { sourceId: string; field: string; reason: string }[];
}

export type WriteOutcomeKind = 'created' | 'updated' | 'skipped' | 'failed';

export interface WriteOutcome {
  /** Source id of the record this outcome is for. */
  sourceId: string;
  outcome: WriteOutcomeKind;
  /** Destination id (created, updated, and skipped-because-present). */
  destinationId?: string;
  /** Why it was skipped or failed, in words a store owner understands. */
  reason?: string;
  /**
   * With 'skipped': the destination already had this record and it is not one a migration wrote
   * (the merchant's own product of the same SKU, account of the same e-mail, coupon of the same
   * code): it was linked without being changed. The engine keeps it so and never hands the record
   * to a write again, so a later change at the source cannot change the merchant's record.
   */
  linked?: boolean;
  /** Fields the destination could not hold, reported but not failing the record. */
  warnings?: string[];
  /**
   * True when part of the record was left out for a reason that may pass (an image the destination
   * could not download, a rate-limited sub-request): the record counts as migrated with its
   * warnings, but the engine writes it again on the next run instead of skipping it as unchanged.
   */
  incomplete?: boolean;
  /**
   * Shared files this write stored at the destination for the first time (a product image used by
   * several records), so later writes reuse them instead of storing them again.
   */
  assets?: AssetRecord[];
}

/**
 * Something a write stored at the destination beside the record, for the first time: a file kept
 * once per destination and reused by every record that shows it ('image'), or a term the write
 * created because the destination had none of that name ('term': a product tag, a blog, a post
 * category, an attribute value). Undo removes them with the records.
 */
export interface AssetRecord {
  /** 'redirect': a 301 redirect writeRedirects created (key: its old path). */
  kind: 'image' | 'term' | 'redirect';
  /** Its identity at the source: an image's URL; a term's taxonomy and name ('product_tag:Linen'). */
  key: string;
  /** The destination's id of its copy (a media library id, a file name, 'product_tag:45'). */
  destinationId: string;
}

/**
 * How the removal of one record (or asset) a migration created ended: removed; gone (the store
 * no longer has it, so there was nothing to remove); kept on purpose, with the reason (a term or
 * file that a record staying in the store still uses); or failed, with the reason in words a
 * store owner understands.
 */
export interface RemoveOutcome {
  destinationId: string;
  outcome: 'removed' | 'gone' | 'kept' | 'failed';
  reason?: string;
}

/**
 * Destination ids of records already migrated, keyed by source id, so a write can link an order
 * to its customer and products, or a product to its categories.
 */
export interface IdMap {
  get(entity: EntityType, sourceId: string): string | undefined;
  /**
   * The destination's copy of a shared file stored by an earlier write of this migration
   * (AssetRecord), or undefined when it has none yet.
   */
  asset?(kind: AssetRecord['kind'], key: string): string | undefined;
}

/**
 * A value a store gives its records, as the canonical model holds it ('' for the store's default
 * group or standard tax class) and as the store's owner sees it named.
 */
export interface StoreValue {
  value: string;
  label: string;
}

/** One of a store's own lists of values (StoreValues). */
export interface StoreValueList {
  /** Every value the store has, its default ('') first. */
  values: StoreValue[];
  /**
   * True when a write that names a value the store does not have creates it (Magento's customer
   * groups and product tax classes); false when the store then falls back to its default.
   */
  createsMissing: boolean;
}

/**
 * The store's own lists of values an owner maps between stores on the "Map fields" panel. A list
 * is absent where the platform has no such values or its API gives no list of them.
 */
export interface StoreValues {
  /** Customer groups or roles (Customer.group). */
  customerGroups?: StoreValueList;
  /** Tax classes (Product.taxClass, variants', order lines' and fees' taxClass). */
  taxClasses?: StoreValueList;
}

export interface CheckResult {
  ok: true;
  /** The store's name as the platform reports it. */
  storeName: string;
  /** Store currency (ISO 4217) when the platform reports one. */
  currency?: string;
  /** True when check({ write: true }) proved that the credentials may write. */
  canWrite?: boolean;
}

export interface CheckOptions {
  /**
   * The store will be written to (it is a migration's destination): besides reading, prove that
   * the credentials may create and change records, by the platform's own report of their
   * permissions or by a write that changes nothing. A read-only key then fails with a config
   * ConnectorError (code 'read_only_credentials') instead of failing later, mid-migration.
   */
  write?: boolean;
}

/** Identifies an import across processes, so a resumed run takes over what its crashed run left. */
export interface ImportOptions {
  /** Stable for one migration (its id); connections make up their own when it is absent. */
  runId?: string;
  /**
   * False when the run starts afresh: a record the id map does not know is new, and is created
   * without looking for it first. True (the default) after an interruption or a failed run, when
   * the destination may hold records written without the id map knowing them.
   */
  resumed?: boolean;
}

/** Rate-limit policy, used by the engine to size concurrency and by benchmarks to derive bounds. */
export interface RateLimitPolicy {
  /** Human summary, e.g. '150 requests per 30 s, shared by all apps'. */
  description: string;
  /** Requests (or cost points) allowed per second on the default plan; undefined = unlimited. */
  requestsPerSecond?: number;
}

export interface Capabilities {
  read: readonly EntityType[];
  write: readonly EntityType[];
  /** How many records the engine hands to one write() call, per entity. */
  batchSize: Partial<Record<EntityType, number>>;
  /** Largest page read() returns per entity. */
  pageSize: Partial<Record<EntityType, number>>;
  rateLimit: RateLimitPolicy;
  /**
   * The platform's own fields per entity and what a migration from this platform does with each
   * (see kit/fields.ts); a field the API answers with and this does not declare fails the tests.
   */
  nativeFields: NativeCatalogue;
  /**
   * Canonical fields this platform cannot hold as a destination, or holds in another form, with
   * the reason (each record with a value for an unsupported field reports it).
   */
  destinationFields: Partial<Record<EntityType, DestinationFields>>;
  /**
   * Data types written here that the platform's API cannot delete, with the reason and what the
   * owner can do instead; undo reports their records as kept. Absent: every written type.
   */
  removeUnsupported?: Partial<Record<EntityType, string>>;
}

/**
 * How the owner chose, on Select Data, to have records written (the migration's options). A
 * connection made without them writes as the defaults say.
 */
export interface WriteChoices {
  /**
   * Keep the source's order numbers where the destination lets them be set (default true). False:
   * the destination numbers the orders itself (the source's number stays on each order where the
   * platform keeps one, as a note or field, so orders can still be found by it).
   */
  keepOrderNumbers: boolean;
  /**
   * Keep the source's product, category and brand URL slugs (handles, URL keys) (default true).
   * False: the destination makes its own from each record's name, as if it were new.
   */
  keepSlugs: boolean;
  /**
   * Let the destination send its own e-mails while records are written (order confirmations,
   * account invitations) (default false: switched off, or not asked for, wherever the platform
   * allows; true: asked for wherever the platform offers it).
   */
  notifyCustomers: boolean;
}

export const defaultWriteChoices: WriteChoices = {
  keepOrderNumbers: true,
  keepSlugs: true,
  notifyCustomers: false,
};

/** The write choices the owner's migration options make. */
export function writeChoicesOf(options: MigrationOptions | undefined): WriteChoices {
  const chosen = optionsOf(options);
  return {
    keepOrderNumbers: chosen.keepOrderNumbers,
    keepSlugs: chosen.keepSlugs,
    notifyCustomers: chosen.notifyCustomers,
  };
}

/** A 301 redirect from a record's old storefront path to its new one at the destination. */
export interface Redirect {
  entity: EntityType;
  sourceId: string;
  /** The record's id at the destination, for a platform whose redirect can point at the record. */
  destinationId?: string;
  /** The old path ('/product/linen-shirt/'), as the source store showed it. */
  from: string;
  /** The new path at the destination ('/products/linen-shirt'). */
  to: string;
}

/**
 * How writing one redirect ended: created (its id given, so undo removes it); existing (the
 * destination already redirects that path to the same place); or failed, with the reason (the
 * path redirects elsewhere already, or the platform refused it).
 */
export interface RedirectOutcome {
  from: string;
  outcome: 'created' | 'existing' | 'failed';
  destinationId?: string;
  reason?: string;
}

/** What a connection needs from the outside world. */
export interface ConnectorContext {
  /**
   * Performs an outbound HTTP request through the egress guard. Connectors never call fetch or
   * open sockets themselves.
   */
  http: ConnectorHttp;
  /**
   * The store's in-flight limiter (kit/http/adaptive-limiter.ts), shared by every lane of a run:
   * connectors that do not pace to a published quota of their own pass it on every request, so
   * requests in flight follow what the store can take.
   */
  limiter?: RequestLimiter;
  /** Structured log sink; never pass credentials. */
  log?: (message: string, fields?: Record<string, unknown>) => void;
  signal?: AbortSignal;
  /** How the owner chose to have records written; missing ones are as defaultWriteChoices. */
  choices?: Partial<WriteChoices>;
}

/** Paces the requests of one store (see kit/http/rate-limiter.ts for the token bucket). */
export interface RequestLimiter {
  /**
   * Waits for a slot; the returned function frees it once the answer has been read, told how the
   * request ended ('ok', 'overload' for a time-out or 429/502/503/504, 'error') so that an
   * adaptive limiter can size itself by the store's answers; `kind` (method and path without
   * ids) groups requests that take alike.
   */
  acquire(
    signal?: AbortSignal,
    kind?: string,
  ): Promise<(outcome?: 'ok' | 'overload' | 'error') => void>;
  /** Told the store's own quota when it announces one (a 429 with Retry-After). */
  update?(quota: { remaining: number; resetMs: number }): void;
  /** An adaptive limiter's current limit and the range it moved in. */
  readonly limit?: number;
  stats?(): { lowest: number; highest: number };
}

export interface ConnectorHttpRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /**
   * Whether the transport may send this very request again after a transient failure. True for
   * reads and for writes deduplicated by a marker; false for anything the store would refuse or
   * apply twice, which includes every request carrying a one-time signature (an OAuth 1.0a nonce
   * is refused the second time): a connector that signs requests retries them itself, signing
   * each attempt afresh. Unset: the transport decides by method (GET/PUT/DELETE repeatable).
   */
  retryable?: boolean;
  /**
   * Abandons the request: the transport stops waiting, closes the connection and makes no further
   * attempt, and the call rejects with the signal's reason.
   */
  signal?: AbortSignal;
  /** The store's limiter: every attempt the transport makes takes a slot. */
  limiter?: RequestLimiter;
}

export interface ConnectorHttpResponse {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array;
}

export interface ConnectorHttp {
  request(request: ConnectorHttpRequest): Promise<ConnectorHttpResponse>;
}

/**
 * How much of the store's rate limit a connection has used so far, for run reports and benchmarks.
 * Measured over the time the connection was busy, not counting a full bucket it started with.
 */
export interface RateUsage {
  /** What the platform limits: plain requests, or query-cost points (Shopify). */
  unit: 'requests' | 'points';
  /** Units spent per second while the connection was working. */
  usedPerSecond: number;
  /** Units the store allows per second on its plan. */
  availablePerSecond: number;
  /** Requests the store refused for exceeding its limit (429, THROTTLED). */
  throttled: number;
}

/** A live connection to one store with verified credentials. */
export interface Connection {
  /** Verifies address and credentials; with `write`, also that the credentials may write. */
  check(options?: CheckOptions): Promise<CheckResult>;
  count(entity: EntityType): Promise<number>;
  read<E extends EntityType>(entity: E, checkpoint: Checkpoint | null): AsyncIterable<Page<E>>;
  /**
   * The records of these ids (the platform's own), in any order; ids the store no longer has are
   * left out. Lets a verification look at what a run wrote without reading the whole store.
   */
  readByIds?<E extends EntityType>(entity: E, ids: readonly string[]): Promise<EntityRecord[E][]>;
  /**
   * Writes a batch and answers one outcome per record, in input order. A record already at the
   * destination (found by id map or by the source-id marker) is updated or skipped, never created
   * twice. A failing record never fails the batch; a failure of the whole store throws a
   * ConnectorError.
   */
  write<E extends EntityType>(
    entity: E,
    records: EntityRecord[E][],
    idMap: IdMap,
  ): Promise<WriteOutcome[]>;
  /**
   * Runs before the first write (e.g. switch off customer e-mails); returns what it did, one
   * sentence a store owner understands per line, for the run report. What it changes on the store
   * is recorded on the store itself, so a run that resumes after a crash, or another run into the
   * same store, can undo it.
   */
  prepareImport?(options?: ImportOptions): Promise<string[]>;
  /** Undoes prepareImport; always called, also after a failure. Returns what it did. */
  finishImport?(options?: ImportOptions): Promise<string[]>;
  /**
   * Deletes records a migration created, by destination id (for undo), answering one outcome per
   * id in input order. Deletes for good (no trash a later run or the storefront still sees), and
   * takes the record's own sub-records with it (a product's variants and images, an order's
   * lines). An id the store no longer has is 'gone', not a failure; a record that cannot be
   * deleted fails alone with the reason. The engine hands records in reverse dependency order
   * (orders before customers and products, a child category before its parent).
   */
  remove?(entity: EntityType, destinationIds: readonly string[]): Promise<RemoveOutcome[]>;
  /**
   * Deletes assets a migration stored (AssetRecord: media library images, terms), once the records
   * that used them are gone; one outcome per asset, in input order, as remove().
   */
  removeAssets?(assets: readonly AssetRecord[]): Promise<RemoveOutcome[]>;
  /**
   * Writes 301 redirects from old storefront paths to new ones, where the platform keeps
   * redirects (its own redirect list, which the storefront serves); one outcome per redirect, in
   * input order. A path the destination already redirects to the same place is 'existing'; one
   * it redirects elsewhere (the owner's) is left alone and 'failed' with the reason. Created ones
   * are removed by removeAssets as kind 'redirect' with their destinationId.
   */
  writeRedirects?(redirects: readonly Redirect[]): Promise<RedirectOutcome[]>;
  /**
   * The store's customer groups and tax classes (StoreValues), read from the store itself, so the
   * owner can map a source's values to the destination's before a run.
   */
  storeValues?(): Promise<StoreValues>;
  /** Rate-limit use so far, when the platform publishes a limit the connection paces itself to. */
  rateUsage?(): RateUsage;
  /** What the transport did since the connection opened (requests, failures, recoveries). */
  transportStats?(): TransportStats;
  close?(): Promise<void>;
}

/** Counts a run logs per store, so that retries, time-outs and recoveries are seen. */
export interface TransportStats {
  /** Attempts sent to the store. */
  requests: number;
  /** Failed attempts by code ('timeout', 'server_error', 'rate_limited', ...). */
  failures: Record<string, number>;
  /** Attempts repeated after a transient failure. */
  retries: number;
  /** Writes whose answer was lost, looked for at the store instead of sent again blindly. */
  recoveries: number;
  /** Records those look-ups found written. */
  recovered: number;
  /** Time requests spent waiting for a free slot of the store's in-flight limit, summed (ms). */
  queuedMs?: number;
  /** The store's in-flight limit: its lowest, highest and current value. */
  inFlight?: { lowest: number; highest: number; now: number };
  /** Routes whose batches the store could not take at full size, with the size they went down to. */
  batchSizes?: Record<string, number>;
}

export interface Connector<Credentials = unknown> {
  platform: Platform;
  label: string;
  /** Parses the credentials as stored for this platform (strict: unknown keys refused). */
  credentialsSchema: z.ZodType<Credentials>;
  capabilities: Capabilities;
  connect(credentials: Credentials, context: ConnectorContext): Connection;
}

/** Identity helper so each connector is declared as `defineConnector({...})` and type-checked. */
export function defineConnector<Credentials>(
  connector: Connector<Credentials>,
): Connector<Credentials> {
  return connector;
}
