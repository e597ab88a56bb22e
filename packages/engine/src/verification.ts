import type { EntityRecord, EntityType } from '@replatform/canonical/entities';
import { comparable } from '@replatform/connectors/kit/conformance/compare';
import { inDestinationForm } from '@replatform/connectors/kit/fields';
import type { FieldMappings } from '@replatform/contracts/migration';
import type { DifferenceSummary, EngineRepository } from '@replatform/db/engine-repository';
import { fieldHashes } from './content-hash.ts';
import type { StoreSide } from './migrate.ts';
import { transformedSource } from './mappings.ts';
import { readPages } from './read-pages.ts';
import { referencesByEntity, storefrontPath } from './references.ts';
import { normaliseRepresentation } from './representation.ts';
import type { RetryPolicy } from './retry.ts';

export interface EntityVerification {
  /** Records read from the source. */
  source: number;
  /** Records read from the destination. */
  destination: number;
  matched: number;
  mismatched: number;
  /** Source records with no counterpart at the destination (never migrated, or gone since). */
  missing: number;
  /** Destination records this migration did not write (they were there before, or added since). */
  unmapped: number;
  /**
   * Of the mismatched records, those whose every differing field is named, with the reason, on
   * the record's own row of the report (a loss that depends on the data at hand, such as a sale
   * that is not running now at a destination without sale schedules). Absent in older results.
   */
  explained?: number;
}

export interface VerificationResult {
  /** passed: every source record found and equal. mismatches: some were not. failed: could not run. */
  status: 'passed' | 'mismatches' | 'failed';
  /**
   * full: both stores read again, record by record. incremental: the records the run wrote and a
   * random sample of the others, read from the destination by id and compared with what the
   * source held when each was written. Absent in results stored before there was a choice.
   */
  mode?: 'full' | 'incremental';
  checkedAt: string;
  message?: string;
  matched: number;
  /** Records that differ at the destination, including those whose differences are explained. */
  mismatched: number;
  /** Of those, the records whose every differing field the report names (see EntityVerification). */
  explained?: number;
  missing: number;
  entities: Partial<Record<EntityType, EntityVerification>>;
  /** Fields that differ on records whose report row names them, with how many records each. */
  namedDifferences?: { entity: EntityType; field: string; records: number }[];
  /**
   * Fields of migrated records the destination could not hold (or the source's model could not
   * carry), by entity, field and reason, with how many records had a value for each. Absent in
   * results stored before they were recorded.
   */
  knownDifferences?: DifferenceSummary[];
  examples: {
    mismatched: {
      entity: EntityType;
      sourceId: string;
      destinationId: string;
      fields: string[];
      /** The record's report row that names every differing field, when it does. */
      namedInReport?: string;
    }[];
    missing: { entity: EntityType; sourceId: string; reason: string }[];
  };
}

export interface VerifyOptions {
  repository: EngineRepository;
  migrationId: string;
  streams: readonly EntityType[];
  source: StoreSide;
  destination: StoreSide;
  /**
   * The owner's mappings the run applied: the source is compared as the run wrote it, mapped and
   * with the coupons the destination cannot hold whole switched off (see transformedSource).
   */
  mappings?: FieldMappings | undefined;
  retry: RetryPolicy;
  signal?: AbortSignal | undefined;
  /**
   * 'incremental' (with the run just finished): compare the records that run wrote plus a sample
   * of the others, by id, when the destination can read by id and every record's source note is
   * kept; otherwise, and for 'full' (the default), read both stores in full.
   */
  mode?: 'full' | 'incremental';
  /** The run whose writes an incremental verification checks. */
  runId?: string;
  /** Untouched records compared per entity in an incremental verification (default 25). */
  sampleSize?: number;
  /** Examples kept per kind. */
  exampleLimit?: number;
  /**
   * Compare only the source records the migration has in its id map (a demo run, which moves a
   * few of each type): the others are not counted as missing.
   */
  mappedOnly?: boolean;
  now?: () => Date;
  onProgress?: ((checked: number) => void) | undefined;
}

/**
 * Fields each store decides for itself: every platform downloads the images it is given and
 * serves its own copies, and a record's storefront path is the destination's own (the source's
 * goes into the redirect map). The images themselves are still compared (count, order, alt text).
 */
const storeOwned: Partial<Record<EntityType, string[]>> = {
  categories: ['imageUrl', 'sourceUrlPath'],
  brands: ['imageUrl', 'sourceUrlPath'],
  products: ['images.url', 'variants.imageUrl', 'sourceUrlPath'],
  pages: ['featuredImageUrl', 'sourceUrlPath'],
  posts: ['featuredImageUrl', 'sourceUrlPath'],
};

/**
 * Fields left out of the comparison: those the destination cannot hold, those each store
 * decides for itself (or makes its own as the owner chose), and links to entities that were not
 * part of the run.
 */
export function ignoredFields(
  entity: EntityType,
  streams: readonly EntityType[],
  side: StoreSide,
): string[] {
  const ignore = [
    ...Object.keys(side.capabilities.destinationFields[entity]?.unsupported ?? {}),
    ...(storeOwned[entity] ?? []),
    ...(side.ownFields?.[entity] ?? []),
  ];
  if (entity === 'products' && !streams.includes('categories')) ignore.push('categoryIds');
  if (entity === 'coupons' && !streams.includes('products'))
    ignore.push('productIds', 'excludedProductIds');
  if (entity === 'coupons' && !streams.includes('categories'))
    ignore.push('categoryIds', 'excludedCategoryIds');
  if (entity === 'orders' && !streams.includes('customers')) ignore.push('customerId');
  if (entity === 'orders' && !streams.includes('products')) ignore.push('lines.productId');
  return ignore;
}

/**
 * What a source record looks like in the comparison (a hash per field), noted when it is written
 * so that a verification after the run need not read the source again.
 */
export function sourceNote(
  entity: EntityType,
  record: EntityRecord[EntityType],
  streams: readonly EntityType[],
  destination: StoreSide,
): string {
  const ignore = ignoredFields(entity, streams, destination);
  return JSON.stringify(
    fieldHashes(
      sourceForm(
        entity,
        comparedForm(
          entity,
          comparable(entity, record, { toSourceId: (_e, id) => id, ignore }),
          destination,
        ),
      ),
    ),
  );
}

/**
 * The form a record is compared in, source and destination alike: notations folded together,
 * and fields the destination keeps in another form brought to that form.
 */
export function comparedForm(
  entity: EntityType,
  form: Record<string, unknown>,
  destination: StoreSide,
): Record<string, unknown> {
  return inDestinationForm(
    normaliseRepresentation(entity, form),
    destination.capabilities.destinationFields[entity],
  );
}

/** 'seoTitle' -> 'seo title': how a warning written for people names a canonical field. */
const inWords = (field: string) => field.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();

/**
 * Whether a record's report row names a field that differs at the destination: the reason the
 * destination gave when the record was written mentions the field by its name or in words
 * ('soldIndividually' or 'sold individually').
 */
export function namesField(reason: string | null | undefined, field: string): boolean {
  if (!reason) return false;
  const text = reason.toLowerCase();
  return text.includes(field.toLowerCase()) || text.includes(inWords(field));
}

const BY_ID_CHUNK = 100;

/**
 * Fields a store fills in itself when a record comes without one: a page or post the source
 * gives no publication date (a Magento or BigCommerce page) is dated by the destination when it
 * is published there. A source record without a value has nothing to compare in them.
 */
const assignedWhenEmpty: Partial<Record<EntityType, readonly string[]>> = {
  pages: ['publishedAt'],
  posts: ['publishedAt'],
};

/** The source side of a comparison: without the fields it leaves to the destination. */
function sourceForm(entity: EntityType, form: Record<string, unknown>): Record<string, unknown> {
  const open = (assignedWhenEmpty[entity] ?? []).filter((f) => form[f] === null);
  if (!open.length) return form;
  const copy = { ...form };
  for (const field of open) delete copy[field];
  return copy;
}

/** Top-level fields whose hashes differ between the source's note and the destination's. */
export function differingFields(
  entity: EntityType,
  expected: Record<string, string>,
  actual: Record<string, string>,
): string[] {
  const assigned = assignedWhenEmpty[entity] ?? [];
  return [...new Set([...Object.keys(expected), ...Object.keys(actual)])]
    .filter((k) => expected[k] !== actual[k])
    .filter((k) => k in expected || !assigned.includes(k))
    .sort();
}

/**
 * What destination records look like in the comparison, by the source id each was migrated
 * from (records this migration did not write are left out): ids mapped back to source ids.
 * Notes where each is shown at the destination too, unless `keepPaths` is false (an undo).
 */
export async function destinationNotes(
  repository: EngineRepository,
  migrationId: string,
  entity: EntityType,
  records: readonly EntityRecord[EntityType][],
  ignore: readonly string[],
  destination: StoreSide,
  options: { keepPaths?: boolean } = {},
): Promise<Map<string, Record<string, string>>> {
  const own = await repository.sourceIdsOf(
    migrationId,
    entity,
    records.map((r) => r.id),
  );
  const refs = new Map<EntityType, Map<string, string>>();
  for (const [e, ids] of referencesByEntity(entity, records)) {
    refs.set(e, await repository.sourceIdsOf(migrationId, e, [...ids]));
  }
  const notes = new Map<string, Record<string, string>>();
  const paths: { sourceId: string; path: string | null }[] = [];
  for (const record of records) {
    const sourceId = own.get(record.id);
    if (!sourceId) continue;
    const path = storefrontPath(entity, record);
    if (path !== undefined) paths.push({ sourceId, path });
    const form = comparedForm(
      entity,
      comparable(entity, record, { toSourceId: (e, id) => refs.get(e)?.get(id), ignore }),
      destination,
    );
    notes.set(sourceId, fieldHashes(form));
  }
  // Where each copy is shown at the destination, for the redirect map.
  if (options.keepPaths !== false) await repository.setDestinationPaths(migrationId, entity, paths);
  return notes;
}

/**
 * Compares source and destination record by record after a run, in bounded memory: the
 * destination is read first and what each mapped record looks like is noted on its id-map row
 * (a hash per field, in the comparable form where ids are mapped back to source ids); then the
 * source is read and each record compared with the note of its counterpart.
 */
export async function verifyMigration(options: VerifyOptions): Promise<VerificationResult> {
  const { repository, migrationId, streams, destination, retry, signal } = options;
  const source: StoreSide = {
    ...options.source,
    connection: transformedSource(
      options.source.connection,
      options.mappings ?? {},
      destination.capabilities,
    ),
  };
  const limit = options.exampleLimit ?? 10;
  const result: VerificationResult = {
    status: 'passed',
    checkedAt: (options.now ?? (() => new Date()))().toISOString(),
    matched: 0,
    mismatched: 0,
    explained: 0,
    missing: 0,
    entities: {},
    examples: { mismatched: [], missing: [] },
  };
  const named = new Map<string, { entity: EntityType; field: string; records: number }>();
  /** Counts a record that differs, as explained when its report row names every field. */
  const differs = (
    entity: EntityType,
    counts: EntityVerification,
    example: { sourceId: string; destinationId: string; fields: string[] },
    reason: string | null | undefined,
  ) => {
    counts.mismatched += 1;
    const explained = example.fields.every((f) => namesField(reason, f));
    if (explained) {
      counts.explained = (counts.explained ?? 0) + 1;
      for (const field of example.fields) {
        const key = `${entity}\u0000${field}`;
        const entry = named.get(key) ?? { entity, field, records: 0 };
        entry.records += 1;
        named.set(key, entry);
      }
    }
    if (result.examples.mismatched.length < limit)
      result.examples.mismatched.push({
        entity,
        ...example,
        ...(explained && reason ? { namedInReport: reason } : {}),
      });
  };
  let checked = 0;
  await repository.clearVerifyFields(migrationId);

  for (const entity of streams) {
    const counts: EntityVerification = {
      source: 0,
      destination: 0,
      matched: 0,
      mismatched: 0,
      explained: 0,
      missing: 0,
      unmapped: 0,
    };
    result.entities[entity] = counts;
    const ignore = ignoredFields(entity, streams, destination);

    const readByIds = destination.connection.readByIds?.bind(destination.connection);
    if (options.mode === 'incremental' && options.runId && readByIds) {
      const set = await repository.verificationSet(
        migrationId,
        entity,
        options.runId,
        options.sampleSize ?? 25,
      );
      if (set.every((r) => r.sourceFields !== null)) {
        result.mode ??= 'incremental';
        const noteOf = (destinationRecords: EntityRecord[EntityType][]) =>
          destinationNotes(
            repository,
            migrationId,
            entity,
            destinationRecords,
            ignore,
            destination,
          );
        for (let i = 0; i < set.length; i += BY_ID_CHUNK) {
          if (signal?.aborted) throw new Error('Verification interrupted.');
          const chunk = set.slice(i, i + BY_ID_CHUNK);
          const records = await readByIds(
            entity,
            chunk.map((r) => r.destinationId),
          );
          counts.destination += records.length;
          const seen = await noteOf(records);
          const reasons = await repository.lookup(
            migrationId,
            entity,
            chunk.map((r) => r.sourceId),
          );
          for (const row of chunk) {
            counts.source += 1;
            const actual = seen.get(row.sourceId);
            if (!actual) {
              counts.missing += 1;
              if (result.examples.missing.length < limit)
                result.examples.missing.push({
                  entity,
                  sourceId: row.sourceId,
                  reason: 'Not found at the destination.',
                });
              continue;
            }
            const fields = differingFields(
              entity,
              JSON.parse(row.sourceFields ?? '{}') as Record<string, string>,
              actual,
            );
            if (fields.length === 0) counts.matched += 1;
            else
              differs(
                entity,
                counts,
                { sourceId: row.sourceId, destinationId: row.destinationId, fields },
                reasons.get(row.sourceId)?.reason,
              );
          }
          checked += chunk.length;
          options.onProgress?.(checked);
        }
        // Records that never reached the destination are missing, as a full comparison finds.
        const failed = await repository.failedRecords(migrationId, entity, limit);
        counts.source += failed.count;
        counts.missing += failed.count;
        for (const f of failed.examples) {
          if (result.examples.missing.length >= limit) break;
          result.examples.missing.push({
            entity,
            sourceId: f.sourceId,
            reason: `Failed during the migration: ${f.reason ?? 'no reason given'}`,
          });
        }
        result.matched += counts.matched;
        result.mismatched += counts.mismatched;
        result.explained = (result.explained ?? 0) + (counts.explained ?? 0);
        result.missing += counts.missing;
        continue;
      }
    }
    result.mode = 'full';

    for await (const page of readPages(destination.connection, entity, null, retry, signal)) {
      if (signal?.aborted) throw new Error('Verification interrupted.');
      const notes = await destinationNotes(
        repository,
        migrationId,
        entity,
        page.records,
        ignore,
        destination,
      );
      counts.destination += page.records.length;
      counts.unmapped += page.records.length - notes.size;
      await repository.setVerifyFields(
        migrationId,
        entity,
        [...notes].map(([sourceId, fields]) => ({ sourceId, fields: JSON.stringify(fields) })),
      );
      checked += page.records.length;
      options.onProgress?.(checked);
    }

    for await (const page of readPages(source.connection, entity, null, retry, signal)) {
      if (signal?.aborted) throw new Error('Verification interrupted.');
      const entries = await repository.lookup(migrationId, entity, [
        ...page.records.map((r) => r.id),
        ...(page.rejected ?? []).map((r) => r.sourceId),
      ]);
      for (const rejected of page.rejected ?? []) {
        if (options.mappedOnly && !entries.has(rejected.sourceId)) continue;
        counts.source += 1;
        counts.missing += 1;
        if (result.examples.missing.length < limit) {
          result.examples.missing.push({
            entity,
            sourceId: rejected.sourceId,
            reason: `Could not be read from the source: ${rejected.reason}`,
          });
        }
      }
      const notes = await repository.verifyNotes(
        migrationId,
        entity,
        page.records.map((r) => r.id),
      );
      for (const record of page.records) {
        const entry = entries.get(record.id);
        const note = notes.get(record.id);
        if (!entry && options.mappedOnly) continue;
        counts.source += 1;
        if (!entry?.destinationId || !note) {
          counts.missing += 1;
          if (result.examples.missing.length < limit) {
            const reason = !entry
              ? 'Not migrated yet (added to the source after the run?).'
              : entry.outcome === 'failed'
                ? `Failed during the migration: ${entry.reason ?? 'no reason given'}`
                : !entry.destinationId
                  ? `Skipped: ${entry.reason ?? 'no reason given'}`
                  : 'Not found at the destination.';
            result.examples.missing.push({ entity, sourceId: record.id, reason });
          }
          continue;
        }
        const expected = fieldHashes(
          sourceForm(
            entity,
            comparedForm(
              entity,
              comparable(entity, record, { toSourceId: (_e, id) => id, ignore }),
              destination,
            ),
          ),
        );
        const fields = differingFields(
          entity,
          expected,
          JSON.parse(note) as Record<string, string>,
        );
        if (fields.length === 0) counts.matched += 1;
        else
          differs(
            entity,
            counts,
            { sourceId: record.id, destinationId: entry.destinationId, fields },
            entry.reason,
          );
      }
      checked += page.records.length;
      options.onProgress?.(checked);
    }
    result.matched += counts.matched;
    result.mismatched += counts.mismatched;
    result.explained = (result.explained ?? 0) + (counts.explained ?? 0);
    result.missing += counts.missing;
  }
  await repository.clearVerifyFields(migrationId);
  result.knownDifferences = (await repository.differenceSummary(migrationId)).filter((d) =>
    (streams as readonly string[]).includes(d.entity),
  );
  result.namedDifferences = [...named.values()];
  // A difference the record's report row names is a known one, not a silent loss.
  if (result.mismatched > (result.explained ?? 0) || result.missing > 0)
    result.status = 'mismatches';
  return result;
}
