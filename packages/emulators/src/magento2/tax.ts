import { MagentoError, invalidField, noSuchEntity, requiredField } from './magento-error.ts';
import { checkKeys, objectField, optionalString, type Json } from './input.ts';

/**
 * Tax classes (Magento_Tax): product classes go on products (the tax_class_id attribute, 0 being
 * "None"), customer classes on customer groups. A fresh installation has 'Taxable Goods' (2) and
 * 'Retail Customer' (3); more are added with POST /V1/taxClasses, whose names are unique per type.
 */

export interface TaxClassRecord {
  class_id: number;
  class_name: string;
  class_type: 'PRODUCT' | 'CUSTOMER';
}

export class TaxClasses {
  readonly classes = new Map<number, TaxClassRecord>([
    [2, { class_id: 2, class_name: 'Taxable Goods', class_type: 'PRODUCT' }],
    [3, { class_id: 3, class_name: 'Retail Customer', class_type: 'CUSTOMER' }],
  ]);
  #nextId = 4;

  get(id: number): TaxClassRecord {
    const found = this.classes.get(id);
    if (!found) throw noSuchEntity('class_id', id);
    return found;
  }

  /** Whether a product's tax_class_id names a product class (or 0, "None"). */
  isProductClass(value: string): boolean {
    if (value === '0' || value === '') return true;
    return this.classes.get(Number(value))?.class_type === 'PRODUCT';
  }

  json(c: TaxClassRecord): Json {
    return { ...c };
  }

  /** POST /V1/taxClasses: TaxClassRepositoryInterface::save, answering the new class id. */
  create(body: Json): string {
    if (body.taxClass === undefined) throw requiredField('taxClass');
    const input = objectField(body.taxClass, 'Magento\\Tax\\Api\\Data\\TaxClassInterface');
    checkKeys(
      input,
      ['class_id', 'class_name', 'class_type', 'extension_attributes'],
      'Magento\\Tax\\Api\\Data\\TaxClassInterface',
    );
    const name = optionalString(input.class_name)?.trim() ?? '';
    if (!name) throw requiredField('class_name');
    const type = optionalString(input.class_type);
    if (type !== 'PRODUCT' && type !== 'CUSTOMER') throw invalidField('class_type', type ?? '');
    if ([...this.classes.values()].some((c) => c.class_type === type && c.class_name === name)) {
      throw new MagentoError(400, 'A class with the same name already exists for ClassType %1.', [
        type,
      ]);
    }
    const record: TaxClassRecord = { class_id: this.#nextId++, class_name: name, class_type: type };
    this.classes.set(record.class_id, record);
    return String(record.class_id);
  }

  field = (c: TaxClassRecord, field: string): string | number => {
    if (field === 'class_id' || field === 'class_name' || field === 'class_type') return c[field];
    throw new MagentoError(400, 'Invalid attribute name: %1', [field]);
  };
}
