import type { EntityType } from '@replatform/canonical/entities';
import { z } from 'zod';
import type { AssetRecord, RemoveOutcome } from '../kit/contract.ts';
import { ConnectorError } from '../kit/errors.ts';
import { isMagentoStatus, MagentoApiError } from './client.ts';
import { brandAttribute } from './brand-mapping.ts';
import {
  booleanAnswer,
  categorySchema,
  productSchema,
  searchResults,
  type MagentoProduct,
} from './magento-schemas.ts';
import { customValue } from './mapping.ts';
import { criteria, type MagentoSession } from './session.ts';
import { markerAttribute } from './write-products.ts';
import { isStoreWide } from './write-support.ts';

/**
 * Undo: deleting what a migration created, by the destination ids its writes answered, with
 * Magento's own delete routes (admin-schema-2.4.9.yaml). Every delete is for good: Magento has
 * no trash. One outcome per id, in the order given; an id the store no longer has (404, also a
 * delete repeated after its answer was lost) is 'gone'; a refusal fails that record alone, in
 * words the owner can act on; a refused credential or a store that stays down throws.
 *
 * - categories: DELETE /V1/categories/{id}. Magento deletes the whole subtree, so a category that
 *   still has sub-categories when its turn comes (the engine hands children first: the ones left
 *   are not this migration's, or could not be removed) is not deleted: it fails with their names.
 * - products: the id is the entity id; the SKU is looked up (GET /V1/products by entity_id), then
 *   a configurable product's simple children that carry this migration's marker for it
 *   ('<source id>:<variant id>') are deleted, then the product (DELETE /V1/products/{sku}).
 *   Deleting a product takes its images, options, links and stock with it; Magento leaves a
 *   configurable product's children in place, which is why they are deleted first.
 * - coupons: the id is the cart price rule's; DELETE /V1/salesRules/{ruleId} takes the rule's
 *   coupons with it (salesrule_coupon's key to the rule cascades).
 * - customers: DELETE /V1/customers/{id}; their orders stay, no longer tied to an account.
 * - pages: DELETE /V1/cmsPage/{id}.
 * - brands: DELETE /V1/products/attributes/manufacturer/options/{optionId}.
 * - orders: Magento's REST API (and its admin) cannot delete an order (removeUnsupported).
 *
 * Terms (AssetRecord kind 'term', '<attribute code>:<option id>'): attribute options a product
 * write created (a colour or size value, a manufacturer for a vendor, a value of a descriptive
 * attribute); each is deleted once no product uses it any more.
 */

/** Requests in flight at once for the entities whose deletes do not depend on one another. */
const parallel = 4;

/** What Magento's refusal means for the owner, per entity. */
const refusedHints: Partial<Record<EntityType, string>> = {
  categories: 'delete it in Catalog > Categories if it should go',
  products: 'delete it in Catalog > Products if it should go',
  coupons: 'delete the cart price rule in Marketing > Cart Price Rules if it should go',
  customers: 'delete the customer in Customers > All Customers if they should go',
  pages: 'delete the page in Content > Pages if it should go',
  brands: "delete the option of the 'manufacturer' attribute in Stores > Attributes > Product",
};

/** The ACL resource each delete needs, in the words of the integration's Resource Access tree. */
const resources: Partial<Record<EntityType | 'terms', string>> = {
  categories: 'Catalog > Inventory > Categories (Magento_Catalog::categories)',
  products: 'Catalog > Inventory > Products (Magento_Catalog::products)',
  coupons: 'Marketing > Cart Price Rules (Magento_SalesRule::quote)',
  customers: 'Customers > All Customers > Actions > Delete (Magento_Customer::delete)',
  pages: 'Content > Elements > Pages > Delete Page (Magento_Cms::page_delete)',
  brands: 'Stores > Attributes > Product (Magento_Catalog::attributes_attributes)',
  terms: 'Stores > Attributes > Product (Magento_Catalog::attributes_attributes)',
};

export const ordersCannotBeRemoved =
  'Magento cannot delete orders: neither its REST API nor its admin has a delete for them. Cancel each order (Sales > Orders > Cancel) so it no longer counts as open, or delete them with a Magento extension that deletes orders; this service leaves them in place.';

export async function removeRecords(
  session: MagentoSession,
  entity: EntityType,
  ids: readonly string[],
): Promise<RemoveOutcome[]> {
  switch (entity) {
    case 'categories':
      return inOrder(ids, 1, (id) => guarded(entity, id, () => removeCategory(session, id)));
    case 'products': {
      const found = await productsById(session, ids);
      return inOrder(ids, parallel, (id) =>
        guarded(entity, id, () => removeProduct(session, id, found.get(id))),
      );
    }
    case 'coupons':
      return inOrder(ids, parallel, (id) =>
        guarded(entity, id, () => deleteAt(session, `/V1/salesRules/${numeric(id)}`)),
      );
    case 'customers':
      return inOrder(ids, parallel, (id) =>
        guarded(entity, id, () => deleteAt(session, `/V1/customers/${numeric(id)}`)),
      );
    case 'pages':
      return inOrder(ids, parallel, (id) =>
        guarded(entity, id, () => deleteAt(session, `/V1/cmsPage/${numeric(id)}`)),
      );
    case 'brands': {
      // One after another: each delete saves the whole attribute.
      const outcomes = await inOrder(ids, 1, (id) =>
        guarded(entity, id, () => deleteOption(session, brandAttribute, id)),
      );
      await session.attribute(brandAttribute, true);
      return outcomes;
    }
    case 'orders':
      return ids.map((destinationId) => ({
        destinationId,
        outcome: 'failed',
        reason: ordersCannotBeRemoved,
      }));
    case 'reviews':
    case 'posts':
      throw new ConnectorError(
        'config',
        'unsupported_entity',
        `Magento 2 has no ${entity === 'reviews' ? 'product reviews in its web API' : 'blog'}: there is nothing to remove.`,
      );
  }
}

/** Terms ('<attribute code>:<option id>') the product writes created; images are not recorded. */
export async function removeTermAssets(
  session: MagentoSession,
  assets: readonly AssetRecord[],
): Promise<RemoveOutcome[]> {
  const touched = new Set<string>();
  const outcomes = await inOrder(
    assets.map((a) => a.destinationId),
    1,
    async (destinationId, i) => {
      const asset = assets[i]!;
      const term = parseTerm(asset);
      if (!term)
        return {
          destinationId,
          outcome: 'failed',
          reason: `not something this service stores at a Magento store (${asset.kind} ${destinationId}); nothing was deleted`,
        };
      touched.add(term.code);
      return guarded('terms', destinationId, async () => {
        const attribute = await session.attribute(term.code, true);
        if (!attribute || !(attribute.options ?? []).some((o) => o.value === term.optionId))
          return 'gone';
        const condition = attribute.frontend_input === 'multiselect' ? 'finset' : 'eq';
        // GET /V1/products (admin-schema-2.4.9.yaml GetV1Products): who still uses the value.
        const users = await session.client.get(
          '/V1/products',
          searchResults(productSchema),
          criteria({
            filters: [[[term.code, term.optionId, condition]]],
            pageSize: 3,
            currentPage: 1,
          }),
        );
        if (users.total_count > 0)
          throw new Kept(
            `${users.total_count} product(s) staying in your store still use this value of the attribute '${term.code}' (${users.items
              .map((p) => p.sku)
              .join(
                ', ',
              )}); remove it in Stores > Attributes > Product once nothing uses it, if it should go`,
          );
        return deleteOption(session, term.code, term.optionId);
      });
    },
  );
  for (const code of touched) await session.attribute(code, true);
  return outcomes;
}

/** A term's attribute code and option id, from '<code>:<option id>'. */
export function parseTerm(asset: AssetRecord): { code: string; optionId: string } | undefined {
  if (asset.kind !== 'term') return undefined;
  const match = /^([a-z][a-z0-9_]*):(\d+)$/.exec(asset.destinationId);
  return match ? { code: match[1]!, optionId: match[2]! } : undefined;
}

// ------------------------------------------------------------------ one record

/** A refusal decided here (not Magento's answer), with the reason for the owner. */
class Refused extends Error {}
/** Left in the store on purpose: something staying there still uses it. */
class Kept extends Error {}

type Removed = 'removed' | 'gone';

async function guarded(
  entity: EntityType | 'terms',
  destinationId: string,
  remove: () => Promise<Removed>,
): Promise<RemoveOutcome> {
  try {
    return { destinationId, outcome: await remove() };
  } catch (error) {
    if (isMagentoStatus(error, 404)) return { destinationId, outcome: 'gone' };
    if (error instanceof MagentoApiError && (error.status === 401 || error.status === 403))
      throw new ConnectorError(
        'config',
        'remove_forbidden',
        `Magento refused this integration the delete (${error.magentoMessage}): grant it ${resources[entity] ?? 'the resource named'} in System > Extensions > Integrations, then undo again`,
        { status: error.status },
      );
    if (isStoreWide(error)) throw error;
    if (error instanceof Kept) return { destinationId, outcome: 'kept', reason: error.message };
    if (error instanceof Refused)
      return { destinationId, outcome: 'failed', reason: error.message };
    const hint = entity === 'terms' ? undefined : refusedHints[entity];
    const said =
      error instanceof MagentoApiError
        ? `Magento refused to delete it: ${error.magentoMessage}`
        : error instanceof Error
          ? error.message
          : String(error);
    return { destinationId, outcome: 'failed', reason: hint ? `${said}; ${hint}` : said };
  }
}

/** A numeric id, or a 404-like refusal for an id no Magento record can have. */
function numeric(id: string): string {
  if (!/^\d+$/.test(id))
    throw new Refused(`'${id}' is not a Magento record id; nothing was deleted`);
  return id;
}

async function deleteAt(session: MagentoSession, path: string): Promise<Removed> {
  // A delete is safe to repeat: one whose answer was lost answers 404 the second time (gone).
  await session.client.request('DELETE', path, booleanAnswer, { retry: 'always' });
  return 'removed';
}

async function deleteOption(
  session: MagentoSession,
  code: string,
  optionId: string,
): Promise<Removed> {
  // DELETE /V1/products/attributes/{attributeCode}/options/{optionId}
  // (admin-schema-2.4.9.yaml DeleteV1ProductsAttributesAttributeCodeOptionsOptionId)
  return deleteAt(
    session,
    `/V1/products/attributes/${encodeURIComponent(code)}/options/${encodeURIComponent(numeric(optionId))}`,
  );
}

async function removeCategory(session: MagentoSession, id: string): Promise<Removed> {
  // GET /V1/categories/list: sub-categories left would go with it (Magento deletes the subtree).
  const children = await session.client.get(
    '/V1/categories/list',
    searchResults(categorySchema),
    criteria({ filters: [[['parent_id', numeric(id)]]], pageSize: 5, currentPage: 1 }),
  );
  if (children.total_count > 0)
    throw new Refused(
      `kept: Magento would delete its ${children.total_count} sub-categor${children.total_count === 1 ? 'y' : 'ies'} with it (${children.items
        .map((c) => c.name ?? String(c.id))
        .join(
          ', ',
        )}), which this migration did not create; move them to another parent in Catalog > Categories, then undo again`,
    );
  // DELETE /V1/categories/{categoryId} (admin-schema-2.4.9.yaml DeleteV1CategoriesCategoryId)
  return deleteAt(session, `/V1/categories/${id}`);
}

/** Products by entity id, looked up in lists of 100. */
async function productsById(
  session: MagentoSession,
  ids: readonly string[],
): Promise<Map<string, MagentoProduct>> {
  const found = new Map<string, MagentoProduct>();
  const wanted = [...new Set(ids.filter((id) => /^\d+$/.test(id)))];
  for (let i = 0; i < wanted.length; i += 100) {
    const part = wanted.slice(i, i + 100);
    // GET /V1/products (admin-schema-2.4.9.yaml GetV1Products)
    const result = await session.client.get(
      '/V1/products',
      searchResults(productSchema),
      criteria({ filters: [[['entity_id', part.join(','), 'in']]], pageSize: 100, currentPage: 1 }),
    );
    for (const p of result.items) found.set(String(p.id), p);
  }
  return found;
}

async function removeProduct(
  session: MagentoSession,
  id: string,
  product: MagentoProduct | undefined,
): Promise<Removed> {
  numeric(id);
  if (!product) return 'gone';
  const sku = encodeURIComponent(product.sku);
  if (product.type_id === 'configurable') {
    const marker = customValue(product.custom_attributes, markerAttribute);
    // GET /V1/configurable-products/{sku}/children (admin-schema-2.4.9.yaml)
    const children = await session.client.get(
      `/V1/configurable-products/${sku}/children`,
      z.array(productSchema),
    );
    for (const child of children) {
      const own = customValue(child.custom_attributes, markerAttribute);
      if (!marker || !own?.startsWith(`${marker}:`)) continue;
      try {
        await deleteAt(session, `/V1/products/${encodeURIComponent(child.sku)}`);
      } catch (error) {
        if (!isMagentoStatus(error, 404)) throw error;
      }
    }
  }
  // DELETE /V1/products/{sku} (admin-schema-2.4.9.yaml DeleteV1ProductsSku)
  return deleteAt(session, `/V1/products/${sku}`);
}

// ------------------------------------------------------------------ pacing

/** Runs `task` for every id with at most `width` at once; answers in the order given. */
async function inOrder(
  ids: readonly string[],
  width: number,
  task: (id: string, index: number) => Promise<RemoveOutcome>,
): Promise<RemoveOutcome[]> {
  const outcomes: RemoveOutcome[] = new Array<RemoveOutcome>(ids.length);
  let next = 0;
  const lane = async () => {
    while (next < ids.length) {
      const i = next++;
      outcomes[i] = await task(ids[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, ids.length) }, lane));
  return outcomes;
}
