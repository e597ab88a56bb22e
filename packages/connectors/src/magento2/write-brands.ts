import type { Brand } from '@replatform/canonical/brand';
import type { IdMap, WriteOutcome } from '../kit/contract.ts';
import { brandAttribute, optionPayload, unwritable } from './brand-mapping.ts';
import { anyJson, idAnswer, type MagentoAttribute } from './magento-schemas.ts';
import type { MagentoSession } from './session.ts';
import { sameLabel } from './write-attributes.ts';
import { createOnce, isStoreWide, leftUnchanged, reasonOf } from './write-support.ts';

/**
 * Brands are written as options of the `manufacturer` attribute
 * (POST /V1/products/attributes/manufacturer/options, PUT .../options/{optionId}).
 *
 * The option list is the session's cached `manufacturer` attribute, the same one the product
 * writer's ensureOptions reads, and a created option is added to it: a product naming a migrated
 * brand finds that option by its name and never creates a second one.
 *
 * Options carry no marker, so a brand is found by its label, compared as Magento compares labels
 * (whatever their case; Unicode-normalised and trimmed, as ensureOptions does). An option the id
 * map says this migration wrote is updated when its label or sort order differ, and left alone
 * otherwise; an option of that label the id map does not know is the merchant's (or was linked
 * as such before): linked and never changed. An option of ours whose brand was renamed at the
 * source is found by the id map and renamed. A create whose answer was lost is found again by
 * its label before it is sent again.
 */

type Option = { value: string; label: string; sort_order?: unknown };

const optionsOf = (attribute: MagentoAttribute): Option[] =>
  (attribute.options ?? []).filter((o) => o.value !== '');

/** The option id in the answer of a create: "id_12" (2.4 up to 2.4.6) or "12". */
function createdId(answer: unknown): string | undefined {
  const text =
    typeof answer === 'number' ? String(answer) : typeof answer === 'string' ? answer : '';
  const id = text.replace(/^id_/, '');
  return /^\d+$/.test(id) ? id : undefined;
}

const noAttribute =
  "the store has no 'manufacturer' product attribute, which holds brands in Magento (add it, or leave Brands out)";

export async function writeBrands(
  session: MagentoSession,
  records: Brand[],
  idMap: IdMap,
): Promise<WriteOutcome[]> {
  const failAll = (reason: string) =>
    records.map((r): WriteOutcome => ({ sourceId: r.id, outcome: 'failed', reason }));
  const attribute = await session.attribute(brandAttribute);
  if (!attribute) return failAll(noAttribute);
  if (attribute.frontend_input !== 'select' && attribute.frontend_input !== 'multiselect')
    return failAll(
      `the store's 'manufacturer' attribute is a ${attribute.frontend_input ?? 'text'} field, not a dropdown with options, so it cannot hold brands`,
    );
  const outcomes: WriteOutcome[] = [];
  const seen: string[] = [];
  for (const record of records) {
    const problem =
      unwritable(record) ??
      (seen.some((name) => sameLabel(name, record.name))
        ? `another brand in this batch has the name '${record.name}' (Magento option labels are unique whatever their case)`
        : undefined);
    if (problem) {
      outcomes.push({ sourceId: record.id, outcome: 'failed', reason: problem });
      continue;
    }
    seen.push(record.name);
    try {
      outcomes.push(await writeOne(session, record, idMap.get('brands', record.id)));
    } catch (error) {
      if (isStoreWide(error)) throw error;
      outcomes.push({ sourceId: record.id, outcome: 'failed', reason: reasonOf(error) });
    }
  }
  return outcomes;
}

/** The cached option list, fetched again when asked. */
async function currentOptions(session: MagentoSession, refresh: boolean): Promise<Option[]> {
  const attribute = await session.attribute(brandAttribute, refresh);
  return attribute ? optionsOf(attribute) : [];
}

async function writeOne(
  session: MagentoSession,
  record: Brand,
  mapped: string | undefined,
): Promise<WriteOutcome> {
  const options = await currentOptions(session, false);
  const byLabel = options.find((o) => sameLabel(o.label, record.name));
  if (byLabel && byLabel.value !== mapped)
    return {
      sourceId: record.id,
      outcome: 'skipped',
      destinationId: byLabel.value,
      reason: `${leftUnchanged}: the store's own manufacturer option '${byLabel.label}'`,
      linked: true,
    };
  const ours = byLabel ?? options.find((o) => o.value === mapped);
  if (ours) {
    const order = Number(ours.sort_order);
    const sameOrder = ours.sort_order === undefined || order === record.position;
    if (ours.label === record.name && sameOrder)
      return {
        sourceId: record.id,
        outcome: 'skipped',
        destinationId: ours.value,
        reason: leftUnchanged,
      };
    // PUT /V1/products/attributes/{attributeCode}/options/{optionId} (admin-schema-2.4.9.yaml
    // PutV1ProductsAttributesAttributeCodeOptionsOptionId)
    await session.client.request(
      'PUT',
      `/V1/products/attributes/${brandAttribute}/options/${encodeURIComponent(ours.value)}`,
      anyJson,
      { body: { option: optionPayload(record, ours.value) }, scope: 'all' },
    );
    ours.label = record.name;
    ours.sort_order = record.position;
    return { sourceId: record.id, outcome: 'updated', destinationId: ours.value };
  }
  // POST /V1/products/attributes/{attributeCode}/options (admin-schema-2.4.9.yaml
  // PostV1ProductsAttributesAttributeCodeOptions)
  const lookup = async () =>
    (await currentOptions(session, true)).find((o) => sameLabel(o.label, record.name))?.value;
  const answer = await createOnce(
    () =>
      session.client.request(
        'POST',
        `/V1/products/attributes/${brandAttribute}/options`,
        idAnswer,
        { body: { option: optionPayload(record) }, scope: 'all' },
      ),
    lookup,
  );
  let value = createdId(answer);
  const cached = await session.attribute(brandAttribute);
  if (value && cached && !optionsOf(cached).some((o) => o.value === value)) {
    // Shared with the product writer: the new option is found by name without asking again.
    cached.options = [
      ...(cached.options ?? []),
      { value, label: record.name, sort_order: record.position },
    ];
  } else if (!value) {
    value = await lookup();
  }
  if (!value)
    return {
      sourceId: record.id,
      outcome: 'failed',
      reason: `Magento answered the new option for '${record.name}' without an id that the store lists`,
    };
  return { sourceId: record.id, outcome: 'created', destinationId: value };
}
