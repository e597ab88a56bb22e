import type { Metafield } from '@replatform/canonical/metafield';
import type { ProductAttribute } from '@replatform/canonical/product';
import type { AssetRecord } from '../kit/contract.ts';
import { ConnectorError } from '../kit/errors.ts';
import { anyJson, attributeSchema, idAnswer, type MagentoAttribute } from './magento-schemas.ts';
import { foreignAttributeCode, isMagento, metafieldValue } from './metafields.ts';
import { attributeCodeFor, type MagentoSession } from './session.ts';
import { createOnce, isStoreWide, reasonOf } from './write-support.ts';

/**
 * Product attributes, their options and tax classes at the destination, found or created once
 * per session: the store-wide definitions that products point at. Options and classes are matched
 * by label (Unicode-normalised, case-insensitive) before anything is created, so a second run
 * or a second migration never creates one twice.
 */

export const sameLabel = (a: string, b: string) =>
  a.normalize('NFC').trim().toLowerCase() === b.normalize('NFC').trim().toLowerCase();

/** The asset a write records for an attribute option it created: '<code>:<option id>'. */
export function termAsset(code: string, label: string, optionId: string): AssetRecord {
  return { kind: 'term', key: `${code}:${label}`, destinationId: `${code}:${optionId}` };
}

/** Frontend inputs a product attribute can be created with over REST. */
const inputs = new Set([
  'text',
  'textarea',
  'select',
  'multiselect',
  'boolean',
  'date',
  'price',
  'weight',
]);

/**
 * Select-type attribute whose options include every label, created/extended as needed. Each
 * option created here (never one found) is added to `terms` as an asset of the record being
 * written ('<code>:<option id>'), so undo can delete it.
 */
export async function ensureOptions(
  session: MagentoSession,
  code: string,
  labels: readonly string[],
  terms?: AssetRecord[],
): Promise<Map<string, string>> {
  let attribute = await session.attribute(code);
  if (!attribute)
    throw new ConnectorError('system', 'attribute_missing', `attribute ${code} does not exist`);
  const valueOf = (a: MagentoAttribute, label: string) =>
    a.options?.find((o) => o.value !== '' && sameLabel(o.label, label))?.value;
  const missing = [...new Set(labels)].filter(
    (label) => !valueOf(attribute as MagentoAttribute, label),
  );
  for (const label of missing) {
    // POST /V1/products/attributes/{attributeCode}/options (admin-schema-2.4.9.yaml)
    await createOnce(
      () =>
        session.client.request(
          'POST',
          `/V1/products/attributes/${encodeURIComponent(code)}/options`,
          anyJson,
          {
            body: {
              option: {
                label,
                value: '',
                sort_order: 0,
                is_default: false,
                store_labels: [{ store_id: 0, label }],
              },
            },
            scope: 'all',
          },
        ),
      async () => {
        const fresh = await session.attribute(code, true);
        return fresh && valueOf(fresh, label) ? true : undefined;
      },
    );
  }
  if (missing.length) attribute = (await session.attribute(code, true)) ?? attribute;
  const map = new Map<string, string>();
  for (const label of labels) {
    const value = valueOf(attribute, label);
    if (!value)
      throw new ConnectorError(
        'system',
        'option_missing',
        `option '${label}' of ${code} could not be created`,
      );
    map.set(label, value);
  }
  for (const label of missing) {
    const value = map.get(label);
    if (value) terms?.push(termAsset(code, label, value));
  }
  return map;
}

export interface AttributeSpec {
  code: string;
  label: string;
  input: string;
  /** Shown on the storefront's product page (set when the attribute is created). */
  visible?: boolean;
  /** 'global' for attributes configurable products vary by. */
  scope?: 'global' | 'store';
}

/** A product attribute, created when the store lacks it, and put into the attribute set. */
export async function ensureAttribute(
  session: MagentoSession,
  spec: AttributeSpec,
): Promise<MagentoAttribute> {
  let attribute = await session.attribute(spec.code);
  if (!attribute) {
    const input = inputs.has(spec.input) ? spec.input : 'text';
    // POST /V1/products/attributes (admin-schema-2.4.9.yaml PostV1ProductsAttributes)
    await createOnce(
      () =>
        session.client.request('POST', '/V1/products/attributes', attributeSchema, {
          body: {
            attribute: {
              attribute_code: spec.code,
              frontend_input: input,
              entity_type_id: '4',
              is_required: false,
              frontend_labels: [{ store_id: 0, label: spec.label }],
              default_frontend_label: spec.label,
              scope: spec.scope ?? 'global',
              is_user_defined: true,
              is_visible: true,
              is_visible_on_front: spec.visible ? 'true' : 'false',
              is_filterable: input === 'select' || input === 'multiselect',
              options: [],
            },
          },
          scope: 'all',
        }),
      async () => (await session.attribute(spec.code, true)) ?? undefined,
    );
    attribute = await session.attribute(spec.code, true);
    if (!attribute)
      throw new ConnectorError(
        'system',
        'attribute_missing',
        `attribute ${spec.code} could not be created`,
      );
  }
  await session.ensureInSet(spec.code);
  return attribute;
}

/** The global select attribute a configurable product's option varies by. */
export async function optionAttribute(
  session: MagentoSession,
  name: string,
  slug: string | undefined,
): Promise<MagentoAttribute> {
  const code = slug ? attributeCodeFor(slug) : attributeCodeFor(name);
  const attribute = await ensureAttribute(session, {
    code,
    label: name,
    input: 'select',
    scope: 'global',
  });
  if (
    attribute.frontend_input !== 'select' ||
    (attribute.scope !== undefined && attribute.scope !== 'global')
  ) {
    throw new ConnectorError(
      'system',
      'attribute_unusable',
      `Magento attribute '${code}' exists but is not a global dropdown, so it cannot carry the option '${name}'`,
    );
  }
  return attribute;
}

export type CustomValue = { attribute_code: string; value: string };

/** Values of the canonical attributes (the merchant's descriptive attributes). */
export async function attributeValues(
  session: MagentoSession,
  attributes: readonly ProductAttribute[],
  warnings: string[],
  terms?: AssetRecord[],
): Promise<CustomValue[]> {
  const values: CustomValue[] = [];
  for (const attribute of attributes) {
    const code = attributeCodeFor(attribute.shared?.slug ?? attribute.name);
    try {
      const found = await ensureAttribute(session, {
        code,
        label: attribute.name,
        input: attribute.values.length > 1 ? 'multiselect' : 'select',
        visible: attribute.visible,
      });
      const input = found.frontend_input ?? 'text';
      if (input === 'select' || input === 'multiselect') {
        const kept = input === 'select' ? attribute.values.slice(0, 1) : attribute.values;
        if (kept.length < attribute.values.length)
          warnings.push(
            `attribute '${attribute.name}': Magento's '${code}' holds one value; kept '${kept[0] ?? ''}' (attributes)`,
          );
        const map = await ensureOptions(session, code, kept, terms);
        values.push({ attribute_code: code, value: kept.map((l) => map.get(l)).join(',') });
      } else if (input === 'boolean') {
        values.push({
          attribute_code: code,
          value: /^(yes|1|true)$/i.test(attribute.values[0] ?? '') ? '1' : '0',
        });
      } else {
        values.push({ attribute_code: code, value: attribute.values.join(', ') });
      }
    } catch (error) {
      if (isStoreWide(error)) throw error;
      warnings.push(`attribute '${attribute.name}' not migrated: ${reasonOf(error)} (attributes)`);
    }
  }
  return values;
}

/** Metafield keys that are not attribute codes (they name other parts of the product). */
const notAttributes = /^(stock_item\.|related$|attribute_set$|name$|url_key$)/;

/**
 * Product attribute values for metafields: Magento's own (magento.<code>) back to their
 * attribute, created as a user-defined attribute of the same input when the store lacks it;
 * another platform's to an attribute named after its namespace and key.
 */
export async function metafieldValues(
  session: MagentoSession,
  fields: readonly Metafield[],
  warnings: string[],
  terms?: AssetRecord[],
): Promise<CustomValue[]> {
  const values: CustomValue[] = [];
  for (const field of fields) {
    if (isMagento(field) && notAttributes.test(field.key)) continue;
    const code = isMagento(field) ? field.key : foreignAttributeCode(field);
    try {
      const known = await session.attribute(code);
      if (known && !known.is_user_defined) {
        await session.ensureInSet(code);
        values.push({ attribute_code: code, value: textOf(metafieldValue(field)) });
        continue;
      }
      const raw = metafieldValue(field);
      const labels = Array.isArray(raw) ? raw.map(String) : [String(raw)];
      const input = known?.frontend_input ?? (isMagento(field) ? inputOf(field) : 'textarea');
      const attribute = await ensureAttribute(session, {
        code,
        label: isMagento(field) ? code : `${field.namespace}: ${field.key}`.slice(0, 255),
        input,
      });
      if (attribute.frontend_input === 'select' || attribute.frontend_input === 'multiselect') {
        const map = await ensureOptions(session, code, labels.filter(Boolean), terms);
        values.push({ attribute_code: code, value: labels.map((l) => map.get(l)).join(',') });
      } else {
        // Another platform's field keeps its own text (a list stays JSON, not joined with commas).
        values.push({ attribute_code: code, value: isMagento(field) ? textOf(raw) : field.value });
      }
    } catch (error) {
      if (isStoreWide(error)) throw error;
      warnings.push(
        `custom field ${field.namespace}.${field.key} not migrated: ${reasonOf(error)} (metafields)`,
      );
    }
  }
  return values;
}

const textOf = (value: unknown) =>
  typeof value === 'string'
    ? value
    : Array.isArray(value)
      ? value.join(',')
      : value === null || value === undefined
        ? ''
        : typeof value === 'object'
          ? JSON.stringify(value)
          : String(value);

function inputOf(field: Metafield): string {
  if (inputs.has(field.type)) return field.type;
  if (field.type === 'json') return 'multiselect';
  if (field.type === 'boolean') return 'boolean';
  return 'text';
}

/**
 * The id of a product tax class by name, created when the store lacks it ('None' is 0, not
 * taxed; '' the standard class Taxable Goods, 2). Classes are found among the options of the
 * tax_class_id attribute, which lists them.
 */
export async function productTaxClassId(session: MagentoSession, name: string): Promise<number> {
  if (name === 'None') return 0;
  if (!name) return 2;
  const find = async (refresh: boolean) =>
    (await session.attribute('tax_class_id', refresh))?.options?.find(
      (o) => o.value !== '' && o.value !== '0' && sameLabel(o.label, name),
    )?.value;
  const found = await find(false);
  if (found) return Number(found);
  // POST /V1/taxClasses (admin-schema-2.4.9.yaml PostV1TaxClasses)
  await createOnce(
    () =>
      session.client.request('POST', '/V1/taxClasses', idAnswer, {
        body: { taxClass: { class_name: name, class_type: 'PRODUCT' } },
      }),
    async () => await find(true),
  );
  const created = await find(true);
  if (!created)
    throw new ConnectorError(
      'system',
      'tax_class_missing',
      `tax class '${name}' could not be created`,
    );
  return Number(created);
}
