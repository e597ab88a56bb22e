import { MagentoError, requiredField } from './magento-error.ts';
import {
  checkKeys,
  isObject,
  magentoTime,
  objectField,
  optionalArray,
  optionalInt,
  optionalNumber,
  optionalString,
  type Json,
} from './input.ts';
import type { Sales } from './sales.ts';

/**
 * Credit memos and invoices as their repositories store them (POST /V1/creditmemo is
 * CreditmemoRepositoryInterface::save, POST /V1/invoices/ InvoiceRepositoryInterface::save): the
 * document is persisted as sent with its items and comments, ids and an increment id assigned,
 * without recalculating anything, refunding money or e-mailing anyone (that is what
 * POST /V1/order/{id}/refund and /invoice do). Items must name items of the document's order.
 */

const keys = {
  creditmemo:
    'adjustment adjustment_negative adjustment_positive base_adjustment base_adjustment_negative base_adjustment_positive base_currency_code base_discount_amount base_grand_total base_discount_tax_compensation_amount base_shipping_amount base_shipping_discount_tax_compensation_amnt base_shipping_incl_tax base_shipping_tax_amount base_subtotal base_subtotal_incl_tax base_tax_amount base_to_global_rate base_to_order_rate billing_address_id created_at creditmemo_status discount_amount discount_description email_sent entity_id global_currency_code grand_total discount_tax_compensation_amount increment_id invoice_id order_currency_code order_id shipping_address_id shipping_amount shipping_discount_tax_compensation_amount shipping_incl_tax shipping_tax_amount state store_currency_code store_id store_to_base_rate store_to_order_rate subtotal subtotal_incl_tax tax_amount transaction_id updated_at items comments extension_attributes',
  creditmemoItem:
    'additional_data base_cost base_discount_amount base_discount_tax_compensation_amount base_price base_price_incl_tax base_row_total base_row_total_incl_tax base_tax_amount base_weee_tax_applied_amount base_weee_tax_applied_row_amnt base_weee_tax_disposition base_weee_tax_row_disposition description discount_amount entity_id discount_tax_compensation_amount name order_item_id parent_id price price_incl_tax product_id qty row_total row_total_incl_tax sku tax_amount weee_tax_applied weee_tax_applied_amount weee_tax_applied_row_amount weee_tax_disposition weee_tax_row_disposition extension_attributes',
  invoice:
    'base_currency_code base_discount_amount base_grand_total base_discount_tax_compensation_amount base_shipping_amount base_shipping_discount_tax_compensation_amnt base_shipping_incl_tax base_shipping_tax_amount base_subtotal base_subtotal_incl_tax base_tax_amount base_total_refunded base_to_global_rate base_to_order_rate billing_address_id can_void_flag created_at discount_amount discount_description email_sent entity_id global_currency_code grand_total discount_tax_compensation_amount increment_id is_used_for_refund order_currency_code order_id shipping_address_id shipping_amount shipping_discount_tax_compensation_amount shipping_incl_tax shipping_tax_amount state store_currency_code store_id store_to_base_rate store_to_order_rate subtotal subtotal_incl_tax tax_amount total_qty transaction_id updated_at items comments extension_attributes',
  invoiceItem:
    'additional_data base_cost base_discount_amount base_discount_tax_compensation_amount base_price base_price_incl_tax base_row_total base_row_total_incl_tax base_tax_amount description discount_amount entity_id discount_tax_compensation_amount name parent_id price price_incl_tax product_id row_total row_total_incl_tax sku tax_amount extension_attributes order_item_id qty',
  comment:
    'comment created_at entity_id is_customer_notified is_visible_on_front parent_id extension_attributes',
};
const list = (text: string) => text.split(' ');

type Kind = 'creditmemo' | 'invoice';

const classes: Record<Kind, { entity: string; item: string; comment: string }> = {
  creditmemo: {
    entity: 'Magento\\Sales\\Api\\Data\\CreditmemoInterface',
    item: 'Magento\\Sales\\Api\\Data\\CreditmemoItemInterface',
    comment: 'Magento\\Sales\\Api\\Data\\CreditmemoCommentInterface',
  },
  invoice: {
    entity: 'Magento\\Sales\\Api\\Data\\InvoiceInterface',
    item: 'Magento\\Sales\\Api\\Data\\InvoiceItemInterface',
    comment: 'Magento\\Sales\\Api\\Data\\InvoiceCommentInterface',
  },
};

export class SalesDocuments {
  readonly documents = new Map<number, Json>();
  readonly #kind: Kind;
  readonly #sales: Sales;
  #nextId = 1;
  #nextItemId = 1;
  #nextCommentId = 1;

  constructor(kind: Kind, sales: Sales) {
    this.#kind = kind;
    this.#sales = sales;
  }

  get(id: number): Json {
    const found = this.documents.get(id);
    if (!found) {
      throw new MagentoError(
        404,
        "The entity that was requested doesn't exist. Verify the entity and try again.",
      );
    }
    return found;
  }

  json(document: Json): Json {
    return structuredClone(document);
  }

  save(body: Json): Json {
    if (body.entity === undefined) throw requiredField('entity');
    const names = classes[this.#kind];
    const input = objectField(body.entity, names.entity);
    checkKeys(input, list(keys[this.#kind]), names.entity);
    const orderId = optionalInt(input.order_id);
    if (orderId === undefined) throw requiredField('order_id');
    const order = this.#sales.get(orderId);
    const orderItems = (optionalArray(order.items, 'items') ?? []).filter(isObject);
    const itemsInput = optionalArray(input.items, 'items');
    if (!itemsInput) throw requiredField('items');
    const id = this.#nextId++;
    const now = magentoTime();
    const createdAt = optionalString(input.created_at);
    const items = itemsInput.map((value) => {
      const item = objectField(value, names.item);
      checkKeys(
        item,
        list(this.#kind === 'creditmemo' ? keys.creditmemoItem : keys.invoiceItem),
        names.item,
      );
      const orderItemId = optionalInt(item.order_item_id);
      const orderItem = orderItems.find((i) => i.item_id === orderItemId);
      if (!orderItem) throw requiredField('order_item_id');
      const qty = optionalNumber(item.qty);
      if (qty === undefined || qty < 0) throw requiredField('qty');
      const { entity_id: _id, parent_id: _parent, ...rest } = item;
      return {
        ...rest,
        entity_id: this.#nextItemId++,
        parent_id: id,
        order_item_id: orderItemId,
        qty,
        sku: optionalString(item.sku) ?? orderItem.sku,
        name: optionalString(item.name) ?? orderItem.name,
        product_id: optionalInt(item.product_id) ?? orderItem.product_id,
      };
    });
    const comments = (optionalArray(input.comments, 'comments') ?? []).map((value) => {
      const comment = objectField(value, names.comment);
      checkKeys(comment, list(keys.comment), names.comment);
      const at = optionalString(comment.created_at);
      return {
        comment: optionalString(comment.comment) ?? '',
        created_at: at ? magentoTime(at) : now,
        entity_id: this.#nextCommentId++,
        is_customer_notified: optionalInt(comment.is_customer_notified) ?? 0,
        is_visible_on_front: optionalInt(comment.is_visible_on_front) ?? 0,
        parent_id: id,
      };
    });
    const { entity_id: _id, increment_id: _increment, ...rest } = input;
    const document: Json = {
      ...rest,
      entity_id: id,
      increment_id: String(id).padStart(9, '0'),
      order_id: orderId,
      store_id: optionalInt(input.store_id) ?? order.store_id,
      // 2 is a refunded credit memo and a paid invoice alike.
      state: optionalInt(input.state) ?? 2,
      order_currency_code: optionalString(input.order_currency_code) ?? order.order_currency_code,
      base_currency_code: optionalString(input.base_currency_code) ?? order.base_currency_code,
      created_at: createdAt ? magentoTime(createdAt) : now,
      updated_at: now,
      email_sent: 0,
      items,
      comments,
    };
    this.documents.set(id, document);
    return document;
  }

  /** For seeding: a document as built, with ids assigned. */
  insertSeeded(document: Json): Json {
    return this.save({ entity: document });
  }

  field = (document: Json, field: string): string | number | undefined => {
    if (
      ![
        'entity_id',
        'order_id',
        'increment_id',
        'created_at',
        'updated_at',
        'state',
        'grand_total',
        'store_id',
      ].includes(field)
    )
      throw new MagentoError(400, 'Invalid attribute name: %1', [field]);
    const value = document[field];
    return typeof value === 'string' || typeof value === 'number' ? value : undefined;
  };
}
