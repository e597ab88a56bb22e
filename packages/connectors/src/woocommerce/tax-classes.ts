import type { EntityRecord, EntityType } from '@replatform/canonical/entities';
import type { Order } from '@replatform/canonical/order';
import type { Product } from '@replatform/canonical/product';
import { plainName } from '@replatform/contracts/value-mappings';
import type { StoreValueList, WriteOutcome } from '../kit/contract.ts';

/**
 * What a store does with a tax class it does not have (observed on a real 11.0.1 store): a
 * product or variation is put in the standard class, and an order line or fee is refused, so the
 * whole order would be lost. Records are written with the store's own class instead: a class named
 * by its name ('Reduced Rate') or in another spelling of its slug is written as that class's slug,
 * and one the store does not have at all as the standard class, each named on the record with
 * the reason. The owner chooses the classes on Select Data (the tax-class mapping) to avoid it.
 */

export interface TaxClassResolver {
  /** The store's class for a record's class, and the reason when it is another. */
  resolve(taxClass: string): { taxClass: string; note?: string };
}

export function taxClassResolver(list: StoreValueList): TaxClassResolver {
  const slugs = new Set(list.values.map((v) => v.value));
  const byName = new Map<string, string>();
  for (const { value, label } of list.values) {
    byName.set(plainName(label), value);
    if (value) byName.set(plainName(value), value);
  }
  byName.set('standard', '');
  return {
    resolve(taxClass) {
      if (slugs.has(taxClass)) return { taxClass };
      const known = byName.get(plainName(taxClass));
      if (known !== undefined)
        return {
          taxClass: known,
          note: `The tax class '${taxClass}' is the store's ${known ? `'${known}'` : 'standard rate'}, written by its slug`,
        };
      return {
        taxClass: '',
        note: `WooCommerce has no tax class '${taxClass}' (choose one on Select Data's Map fields panel): written with the standard rate`,
      };
    },
  };
}

/**
 * Products and orders with every tax class one the store has, and per record what changed; other
 * records as they are.
 */
export function withStoreTaxClasses<E extends EntityType>(
  entity: E,
  records: EntityRecord[E][],
  resolver: TaxClassResolver,
): { records: EntityRecord[E][]; notes: Map<string, string[]> } {
  const notes = new Map<string, string[]>();
  if (entity !== 'products' && entity !== 'orders') return { records, notes };
  const out = records.map((record) => {
    const said: string[] = [];
    const resolve = (taxClass: string, what: string) => {
      const { taxClass: kept, note } = resolver.resolve(taxClass);
      if (note) said.push(`${note} (${what})`);
      return kept;
    };
    let next: EntityRecord[E];
    if (entity === 'products') {
      const p = record as Product;
      next = {
        ...p,
        taxClass: resolve(p.taxClass, 'tax class'),
        variants: p.variants.map((v) =>
          v.taxClass === null ? v : { ...v, taxClass: resolve(v.taxClass, 'variants tax class') },
        ),
      } as EntityRecord[E];
    } else {
      const o = record as Order;
      next = {
        ...o,
        lines: o.lines.map((l) => ({ ...l, taxClass: resolve(l.taxClass, 'lines tax class') })),
        fees: o.fees.map((f) => ({ ...f, taxClass: resolve(f.taxClass, 'fees tax class') })),
      } as EntityRecord[E];
    }
    if (said.length) notes.set(record.id, [...new Set(said)]);
    return said.length ? next : record;
  });
  return { records: out, notes };
}

/** The outcomes with each record's tax-class notes among its warnings. */
export function withTaxClassNotes(
  outcomes: WriteOutcome[],
  notes: Map<string, string[]>,
): WriteOutcome[] {
  if (!notes.size) return outcomes;
  return outcomes.map((o) => {
    const said = notes.get(o.sourceId);
    return said && o.outcome !== 'failed'
      ? { ...o, warnings: [...(o.warnings ?? []), ...said] }
      : o;
  });
}
