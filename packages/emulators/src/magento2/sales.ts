import type { Customers } from './customers.ts';
import { isKnownCountry } from './directory.ts';
import { MagentoError, requiredField } from './magento-error.ts';
import {
  checkKeys,
  isObject,
  magentoTime,
  objectField,
  optionalArray,
  optionalBool,
  optionalInt,
  optionalNumber,
  optionalString,
  type Json,
} from './input.ts';

/**
 * Sales orders as Magento's OrderRepositoryInterface::save stores them (POST /V1/orders): the
 * entity is persisted as sent, totals included (the repository does not recalculate), with
 * entity ids, item ids and address ids assigned. increment_id is unique per store, as the
 * sales_order unique index makes it; a missing one is taken from the store's sequence.
 * Property names are those of the data interfaces in admin-schema-2.4.9.yaml; others are refused.
 */

const orderKeys = new Set(
  'adjustment_negative adjustment_positive applied_rule_ids base_adjustment_negative base_adjustment_positive base_currency_code base_discount_amount base_discount_canceled base_discount_invoiced base_discount_refunded base_grand_total base_discount_tax_compensation_amount base_discount_tax_compensation_invoiced base_discount_tax_compensation_refunded base_shipping_amount base_shipping_canceled base_shipping_discount_amount base_shipping_discount_tax_compensation_amnt base_shipping_incl_tax base_shipping_invoiced base_shipping_refunded base_shipping_tax_amount base_shipping_tax_refunded base_subtotal base_subtotal_canceled base_subtotal_incl_tax base_subtotal_invoiced base_subtotal_refunded base_tax_amount base_tax_canceled base_tax_invoiced base_tax_refunded base_total_canceled base_total_due base_total_invoiced base_total_invoiced_cost base_total_offline_refunded base_total_online_refunded base_total_paid base_total_qty_ordered base_total_refunded base_to_global_rate base_to_order_rate billing_address_id can_ship_partially can_ship_partially_item coupon_code created_at customer_dob customer_email customer_firstname customer_gender customer_group_id customer_id customer_is_guest customer_lastname customer_middlename customer_note customer_note_notify customer_prefix customer_suffix customer_taxvat discount_amount discount_canceled discount_description discount_invoiced discount_refunded edit_increment email_sent entity_id ext_customer_id ext_order_id forced_shipment_with_invoice global_currency_code grand_total discount_tax_compensation_amount discount_tax_compensation_invoiced discount_tax_compensation_refunded hold_before_state hold_before_status increment_id is_virtual order_currency_code original_increment_id payment_authorization_amount payment_auth_expiration protect_code quote_address_id quote_id relation_child_id relation_child_real_id relation_parent_id relation_parent_real_id remote_ip shipping_amount shipping_canceled shipping_description shipping_discount_amount shipping_discount_tax_compensation_amount shipping_incl_tax shipping_invoiced shipping_refunded shipping_tax_amount shipping_tax_refunded state status store_currency_code store_id store_name store_to_base_rate store_to_order_rate subtotal subtotal_canceled subtotal_incl_tax subtotal_invoiced subtotal_refunded tax_amount tax_canceled tax_invoiced tax_refunded total_canceled total_due total_invoiced total_item_count total_offline_refunded total_online_refunded total_paid total_qty_ordered total_refunded updated_at weight x_forwarded_for items billing_address payment status_histories extension_attributes'.split(
    ' ',
  ),
);
const orderItemKeys = new Set(
  'additional_data amount_refunded applied_rule_ids base_amount_refunded base_cost base_discount_amount base_discount_invoiced base_discount_refunded base_discount_tax_compensation_amount base_discount_tax_compensation_invoiced base_discount_tax_compensation_refunded base_original_price base_price base_price_incl_tax base_row_invoiced base_row_total base_row_total_incl_tax base_tax_amount base_tax_before_discount base_tax_invoiced base_tax_refunded base_weee_tax_applied_amount base_weee_tax_applied_row_amnt base_weee_tax_disposition base_weee_tax_row_disposition created_at description discount_amount discount_invoiced discount_percent discount_refunded event_id ext_order_item_id free_shipping gw_base_price gw_base_price_invoiced gw_base_price_refunded gw_base_tax_amount gw_base_tax_amount_invoiced gw_base_tax_amount_refunded gw_id gw_price gw_price_invoiced gw_price_refunded gw_tax_amount gw_tax_amount_invoiced gw_tax_amount_refunded discount_tax_compensation_amount discount_tax_compensation_canceled discount_tax_compensation_invoiced discount_tax_compensation_refunded is_qty_decimal is_virtual item_id locked_do_invoice locked_do_ship name no_discount order_id original_price parent_item_id price price_incl_tax product_id product_type qty_backordered qty_canceled qty_invoiced qty_ordered qty_refunded qty_returned qty_shipped quote_item_id row_invoiced row_total row_total_incl_tax row_weight sku store_id tax_amount tax_before_discount tax_canceled tax_invoiced tax_percent tax_refunded updated_at weee_tax_applied weee_tax_applied_amount weee_tax_applied_row_amount weee_tax_disposition weee_tax_row_disposition weight parent_item product_option extension_attributes'.split(
    ' ',
  ),
);
const orderAddressKeys = new Set(
  'address_type city company country_id customer_address_id customer_id email entity_id fax firstname lastname middlename parent_id postcode prefix region region_code region_id street suffix telephone vat_id vat_is_valid vat_request_date vat_request_id vat_request_success extension_attributes'.split(
    ' ',
  ),
);
const paymentKeys = new Set(
  'account_status additional_data additional_information address_status amount_authorized amount_canceled amount_ordered amount_paid amount_refunded anet_trans_method base_amount_authorized base_amount_canceled base_amount_ordered base_amount_paid base_amount_paid_online base_amount_refunded base_amount_refunded_online base_shipping_amount base_shipping_captured base_shipping_refunded cc_approval cc_avs_status cc_cid_status cc_debug_request_body cc_debug_response_body cc_debug_response_serialized cc_exp_month cc_exp_year cc_last4 cc_number_enc cc_owner cc_secure_verify cc_ss_issue cc_ss_start_month cc_ss_start_year cc_status cc_status_description cc_trans_id cc_type echeck_account_name echeck_account_type echeck_bank_name echeck_routing_number echeck_type entity_id last_trans_id method parent_id po_number protection_eligibility quote_payment_id shipping_amount shipping_captured shipping_refunded extension_attributes'.split(
    ' ',
  ),
);
const orderExtensionKeys = new Set(
  'shipping_assignments payment_additional_info company_order_attributes custom_fees applied_taxes item_applied_taxes converting_from_quote taxes additional_itemized_taxes base_customer_balance_amount customer_balance_amount base_customer_balance_invoiced customer_balance_invoiced base_customer_balance_refunded customer_balance_refunded base_customer_balance_total_refunded customer_balance_total_refunded gift_cards base_gift_cards_amount gift_cards_amount base_gift_cards_invoiced gift_cards_invoiced base_gift_cards_refunded gift_cards_refunded gift_message gw_id gw_allow_gift_receipt gw_add_card gw_base_price gw_price gw_items_base_price gw_items_price gw_card_base_price gw_card_price gw_base_tax_amount gw_tax_amount gw_items_base_tax_amount gw_items_tax_amount gw_card_base_tax_amount gw_card_tax_amount gw_base_price_incl_tax gw_price_incl_tax gw_items_base_price_incl_tax gw_items_price_incl_tax gw_card_base_price_incl_tax gw_card_price_incl_tax gw_base_price_invoiced gw_price_invoiced gw_items_base_price_invoiced gw_items_price_invoiced gw_card_base_price_invoiced gw_card_price_invoiced gw_base_tax_amount_invoiced gw_tax_amount_invoiced gw_items_base_tax_invoiced gw_items_tax_invoiced gw_card_base_tax_invoiced gw_card_tax_invoiced gw_base_price_refunded gw_price_refunded gw_items_base_price_refunded gw_items_price_refunded gw_card_base_price_refunded gw_card_price_refunded gw_base_tax_amount_refunded gw_tax_amount_refunded gw_items_base_tax_refunded gw_items_tax_refunded gw_card_base_tax_refunded gw_card_tax_refunded pickup_location_code notification_sent send_notification coupon_codes coupon_discounts reward_points_balance reward_currency_amount base_reward_currency_amount'.split(
    ' ',
  ),
);

const orderClass = 'Magento\\Sales\\Api\\Data\\OrderInterface';

export class Sales {
  readonly orders = new Map<number, Json>();
  readonly #customers: Customers;
  #nextId = 1;
  #nextItemId = 1;
  #nextAddressId = 1;
  #nextPaymentId = 1;
  #nextHistoryId = 1;
  #nextFeeId = 1;

  constructor(customers: Customers) {
    this.#customers = customers;
  }

  get(id: number): Json {
    const order = this.orders.get(id);
    if (!order) {
      throw new MagentoError(
        404,
        "The entity that was requested doesn't exist. Verify the entity and try again.",
      );
    }
    return order;
  }

  /**
   * POST /V1/orders/{id}/emails: OrderManagementInterface::notify. The order notifier has
   * OrderSender send the order confirmation (sales_email/order/template, enabled on a fresh
   * installation) to the order's e-mail address, flags the order `email_sent`, and marks the
   * latest status comment not yet notified as notified (the history collection's
   * getUnnotifiedForInstance). Answers true. POST /V1/orders (the repository save) sends nothing.
   */
  notify(id: number): boolean {
    const order = this.get(id);
    this.#customers.outbox.push({
      template: 'sales_order_new',
      to: String(order.customer_email),
      at: new Date().toISOString(),
      order: String(order.increment_id),
    });
    order.email_sent = 1;
    const histories = (optionalArray(order.status_histories, 'status_histories') ?? []).filter(
      isObject,
    );
    const latest = histories
      .filter((h) => h.is_customer_notified === 0 && h.entity_name === 'order')
      .sort(
        (a, b) =>
          String(b.created_at).localeCompare(String(a.created_at)) ||
          Number(b.entity_id) - Number(a.entity_id),
      )[0];
    if (latest) latest.is_customer_notified = 1;
    return true;
  }

  /**
   * The order as OrderRepository::get answers it: status histories newest first (the history
   * collection's created_at/entity_id descending order), the payment's additional information as
   * a list of its values, and extension_attributes.payment_additional_info giving each entry
   * with its key (OrderRepository::setPaymentAdditionalInfo).
   */
  json(order: Json): Json {
    const json = structuredClone(order);
    const histories = (optionalArray(json.status_histories, 'status_histories') ?? []).filter(
      isObject,
    );
    json.status_histories = histories.sort(
      (a, b) =>
        String(b.created_at).localeCompare(String(a.created_at)) ||
        Number(b.entity_id) - Number(a.entity_id),
    );
    if (isObject(json.payment)) {
      const info = json.payment.additional_information;
      const entries: [string, unknown][] = Array.isArray(info)
        ? info.map((v, i) => [String(i), v])
        : isObject(info)
          ? Object.entries(info)
          : [];
      json.payment.additional_information = entries.map(([, v]) => String(v));
      const extension = isObject(json.extension_attributes) ? json.extension_attributes : {};
      json.extension_attributes = {
        ...extension,
        payment_additional_info: entries.map(([key, value]) => ({
          key,
          value: typeof value === 'string' ? value : JSON.stringify(value),
        })),
      };
    }
    return json;
  }

  save(body: Json): Json {
    if (body.entity === undefined) throw requiredField('entity');
    const entity = objectField(body.entity, orderClass);
    checkKeys(entity, [...orderKeys], orderClass);
    for (const key of ['base_grand_total', 'customer_email', 'grand_total', 'items']) {
      if (entity[key] === undefined || entity[key] === null) throw requiredField(key);
    }
    const entityId = optionalInt(entity.entity_id);
    const existing = entityId === undefined ? undefined : this.get(entityId);
    const id = existing ? Number(existing.entity_id) : this.#nextId;
    const items = optionalArray(entity.items, 'items') ?? [];
    if (!items.length) throw requiredField('items');
    const incrementId =
      optionalString(entity.increment_id) ??
      (existing ? String(existing.increment_id) : String(id).padStart(9, '0'));
    const storeId = optionalInt(entity.store_id) ?? 1;
    for (const other of this.orders.values()) {
      if (
        other.entity_id !== id &&
        other.increment_id === incrementId &&
        other.store_id === storeId
      ) {
        throw new MagentoError(400, 'Unique constraint violation found');
      }
    }
    const customerId = optionalInt(entity.customer_id ?? existing?.customer_id);
    const isGuest = optionalInt(entity.customer_is_guest ?? existing?.customer_is_guest) === 1;
    if (customerId !== undefined && !isGuest) this.#customers.get(customerId);
    const email = optionalString(entity.customer_email) ?? '';
    const now = magentoTime();
    const createdAt = optionalString(entity.created_at);
    const order: Json = {
      ...(existing ?? {}),
      ...entity,
      entity_id: id,
      increment_id: incrementId,
      store_id: storeId,
      state: optionalString(entity.state) ?? existing?.state ?? 'new',
      status: optionalString(entity.status) ?? existing?.status ?? 'pending',
      customer_email: email,
      customer_is_guest: isGuest || customerId === undefined ? 1 : 0,
      created_at: createdAt ? magentoTime(createdAt) : (existing?.created_at ?? now),
      updated_at: now,
    };
    // The relation saves the items it is given: one with an item id is updated, the others are
    // added; items of a saved order that are not sent stay as they are.
    const previous = (optionalArray(existing?.items, 'items') ?? []).filter(isObject);
    const saved = items.map((item) =>
      this.#item(item, id, storeId, String(order.created_at), previous),
    );
    order.items = [
      ...previous.map((p) => saved.find((s) => s.item_id === p.item_id) ?? p),
      ...saved.filter((s) => !previous.some((p) => p.item_id === s.item_id)),
    ];
    if (entity.billing_address !== undefined) {
      order.billing_address = this.#address(entity.billing_address, id, 'billing', email);
      order.billing_address_id = (order.billing_address as Json).entity_id;
    }
    if (entity.payment !== undefined) {
      const payment = objectField(
        entity.payment,
        'Magento\\Sales\\Api\\Data\\OrderPaymentInterface',
      );
      checkKeys(payment, [...paymentKeys], 'Magento\\Sales\\Api\\Data\\OrderPaymentInterface');
      if (!optionalString(payment.method)) throw requiredField('method');
      order.payment = {
        ...payment,
        entity_id: optionalInt(payment.entity_id) ?? this.#nextPaymentId++,
        parent_id: id,
      };
    }
    if (entity.extension_attributes !== undefined) {
      const extension = objectField(
        entity.extension_attributes,
        'Magento\\Sales\\Api\\Data\\OrderExtensionInterface',
      );
      checkKeys(
        extension,
        [...orderExtensionKeys],
        'Magento\\Sales\\Api\\Data\\OrderExtensionInterface',
      );
      const assignments = optionalArray(extension.shipping_assignments, 'shipping_assignments');
      order.extension_attributes = {
        ...extension,
        ...(assignments
          ? {
              shipping_assignments: assignments.map((a) => {
                const assignment = objectField(
                  a,
                  'Magento\\Sales\\Api\\Data\\ShippingAssignmentInterface',
                );
                const shipping =
                  assignment.shipping === undefined
                    ? {}
                    : objectField(
                        assignment.shipping,
                        'Magento\\Sales\\Api\\Data\\ShippingInterface',
                      );
                return {
                  shipping: {
                    ...shipping,
                    ...(shipping.address !== undefined
                      ? { address: this.#address(shipping.address, id, 'shipping', email) }
                      : {}),
                  },
                  items: order.items,
                };
              }),
            }
          : {}),
      };
    }
    const histories = (optionalArray(existing?.status_histories, 'status_histories') ?? []).filter(
      isObject,
    );
    for (const history of optionalArray(entity.status_histories, 'status_histories') ?? [])
      histories.push(this.#history(history, id, String(order.status)));
    order.status_histories = histories;
    const extensionInput = isObject(order.extension_attributes) ? order.extension_attributes : {};
    const fees = optionalArray(extensionInput.custom_fees, 'custom_fees');
    if (fees) {
      order.extension_attributes = {
        ...extensionInput,
        custom_fees: fees.map((fee) => this.#customFee(fee, id)),
      };
    }
    if (!existing) this.#nextId++;
    this.orders.set(id, order);
    return order;
  }

  /**
   * A status history entry saved with its order (Order\Relation saves each one, its parent id set
   * to the order's); kept with the date it was given, or stamped now.
   */
  #history(value: unknown, orderId: number, status: string): Json {
    const className = 'Magento\\Sales\\Api\\Data\\OrderStatusHistoryInterface';
    const history = objectField(value, className);
    checkKeys(
      history,
      [
        'comment',
        'created_at',
        'entity_id',
        'entity_name',
        'is_customer_notified',
        'is_visible_on_front',
        'parent_id',
        'status',
        'extension_attributes',
      ],
      className,
    );
    const createdAt = optionalString(history.created_at);
    return {
      comment: optionalString(history.comment) ?? '',
      created_at: createdAt ? magentoTime(createdAt) : magentoTime(),
      entity_id: this.#nextHistoryId++,
      entity_name: optionalString(history.entity_name) ?? 'order',
      is_customer_notified: optionalInt(history.is_customer_notified) ?? 0,
      is_visible_on_front: optionalInt(history.is_visible_on_front) ?? 0,
      parent_id: orderId,
      status: optionalString(history.status) ?? status,
    };
  }

  #customFee(value: unknown, orderId: number): Json {
    const className = 'Magento\\AdminUiSdkCustomFees\\Api\\Data\\CustomFeesInterface';
    const fee = objectField(value, className);
    checkKeys(
      fee,
      [
        'id',
        'order_id',
        'custom_fee_code',
        'custom_fee_label',
        'custom_fee_amount',
        'base_custom_fee_amount',
        'custom_fee_amount_invoiced',
        'base_custom_fee_amount_invoiced',
        'custom_fee_amount_refunded',
        'base_custom_fee_amount_refunded',
        'apply_fee_on_last_invoice',
        'apply_fee_on_last_creditmemo',
        'invoice_id',
        'creditmemo_id',
      ],
      className,
    );
    const code = optionalString(fee.custom_fee_code);
    if (!code) throw requiredField('custom_fee_code');
    const amount = optionalNumber(fee.custom_fee_amount);
    if (amount === undefined) throw requiredField('custom_fee_amount');
    return {
      ...fee,
      id: String(this.#nextFeeId++),
      order_id: String(orderId),
      custom_fee_code: code,
      custom_fee_label: optionalString(fee.custom_fee_label) ?? code,
      custom_fee_amount: amount,
      base_custom_fee_amount: optionalNumber(fee.base_custom_fee_amount) ?? amount,
      custom_fee_amount_invoiced: optionalNumber(fee.custom_fee_amount_invoiced) ?? 0,
      base_custom_fee_amount_invoiced: optionalNumber(fee.base_custom_fee_amount_invoiced) ?? 0,
      custom_fee_amount_refunded: optionalNumber(fee.custom_fee_amount_refunded) ?? 0,
      base_custom_fee_amount_refunded: optionalNumber(fee.base_custom_fee_amount_refunded) ?? 0,
      apply_fee_on_last_invoice: optionalBool(fee.apply_fee_on_last_invoice) ?? false,
      apply_fee_on_last_creditmemo: optionalBool(fee.apply_fee_on_last_creditmemo) ?? false,
    };
  }

  #item(
    value: unknown,
    orderId: number,
    storeId: number,
    createdAt: string,
    saved: readonly Json[],
  ): Json {
    const item = objectField(value, 'Magento\\Sales\\Api\\Data\\OrderItemInterface');
    checkKeys(item, [...orderItemKeys], 'Magento\\Sales\\Api\\Data\\OrderItemInterface');
    if (!optionalString(item.sku)) throw requiredField('sku');
    for (const key of ['price', 'qty_ordered', 'row_total', 'tax_amount', 'base_price']) {
      optionalNumber(item[key]);
    }
    // A parent item the request itself creates has no id yet, so a link to it is not kept
    // (Magento's Order\Item resource only links saved instances); parent_item_id naming an item
    // the order already has is a plain column and is kept.
    const { parent_item: _parent, parent_item_id: parentId, item_id: itemId, ...rest } = item;
    const parent = optionalInt(parentId);
    const known = optionalInt(itemId);
    const previous = saved.find((p) => p.item_id === known);
    return {
      ...(previous ?? {}),
      ...rest,
      ...(parent !== undefined && saved.some((p) => p.item_id === parent)
        ? { parent_item_id: parent }
        : {}),
      item_id: previous ? known : this.#nextItemId++,
      order_id: orderId,
      store_id: storeId,
      created_at: createdAt,
      updated_at: magentoTime(),
    };
  }

  #address(value: unknown, orderId: number, type: 'billing' | 'shipping', email: string): Json {
    const address = objectField(value, 'Magento\\Sales\\Api\\Data\\OrderAddressInterface');
    checkKeys(address, [...orderAddressKeys], 'Magento\\Sales\\Api\\Data\\OrderAddressInterface');
    // Magento\Sales\Model\Order\Address\Validator's required fields.
    const street = optionalArray(address.street, 'street') ?? [];
    const missing = [
      ['firstname', address.firstname],
      ['lastname', address.lastname],
      ['street', street[0]],
      ['city', address.city],
      ['telephone', address.telephone],
      ['country_id', address.country_id],
      ['postcode', address.postcode],
    ].filter(([, v]) => !optionalString(v)?.trim());
    if (missing.length) {
      throw new MagentoError(400, "We can't save the address:\n%1", [
        missing.map(([field]) => `"${String(field)}" is required. Enter and try again.`).join('\n'),
      ]);
    }
    const countryId = optionalString(address.country_id) ?? '';
    if (!isKnownCountry(countryId)) {
      throw new MagentoError(400, "We can't save the address:\n%1", [
        `Invalid value of "${countryId}" provided for the country_id field.`,
      ]);
    }
    return {
      ...address,
      address_type: type,
      email: optionalString(address.email) ?? email,
      entity_id: optionalInt(address.entity_id) ?? this.#nextAddressId++,
      parent_id: orderId,
    };
  }

  /**
   * PUT /V1/orders/{parent_id}: OrderAddressRepositoryInterface::save. The address resource model
   * runs Magento\Sales\Model\Order\Address\Validator before storing anything (the order it
   * belongs to, name, street, city, postcode, country, e-mail, a billing or shipping type), and the
   * repository turns any failure, that one or the database's, into CouldNotSaveException. Only an
   * address an order already has can be changed here: adding addresses is not modelled.
   */
  saveAddress(body: Json): Json {
    if (body.entity === undefined) throw requiredField('entity');
    const className = 'Magento\\Sales\\Api\\Data\\OrderAddressInterface';
    const address = objectField(body.entity, className);
    checkKeys(address, [...orderAddressKeys], className);
    const refused = () => new MagentoError(400, "The order address couldn't be saved.");
    const street = optionalArray(address.street, 'street') ?? [];
    const present = (value: unknown) => value !== undefined && value !== null && value !== '';
    const required = [
      address.parent_id,
      address.postcode,
      address.lastname,
      street[0],
      address.city,
      address.email,
      address.telephone,
      address.country_id,
      address.firstname,
      address.address_type,
    ];
    if (!required.every(present)) throw refused();
    const email = optionalString(address.email) ?? '';
    const type = optionalString(address.address_type);
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw refused();
    if (type !== 'billing' && type !== 'shipping') throw refused();
    const order = this.orders.get(optionalInt(address.parent_id) ?? 0);
    if (!order) throw refused();
    const entityId = optionalInt(address.entity_id);
    const extension = isObject(order.extension_attributes) ? order.extension_attributes : {};
    const addresses = [
      order.billing_address,
      ...(optionalArray(extension.shipping_assignments, 'shipping_assignments') ?? []).map((a) =>
        isObject(a) && isObject(a.shipping) ? a.shipping.address : undefined,
      ),
    ].filter(isObject);
    const target = addresses.find((a) => entityId !== undefined && a.entity_id === entityId);
    if (!target) throw refused();
    Object.assign(target, address, { entity_id: entityId });
    order.updated_at = magentoTime();
    return structuredClone(target);
  }

  /** For seeding: stores an order as built, linked parent/child items included. */
  insertSeeded(order: Json, items: Json[], histories: Json[] = []): Json {
    const id = this.#nextId++;
    const stored: Json = {
      ...order,
      entity_id: id,
      status_histories: histories.map((h) => ({
        ...h,
        entity_id: this.#nextHistoryId++,
        parent_id: id,
        entity_name: h.entity_name ?? 'order',
      })),
    };
    const ids = new Map<unknown, number>();
    stored.items = items.map((item) => {
      const itemId = this.#nextItemId++;
      ids.set(item, itemId);
      return { ...item, item_id: itemId, order_id: id };
    });
    for (const [index, item] of (stored.items as Json[]).entries()) {
      const parent = items[index]?.parent_item;
      if (isObject(parent)) {
        item.parent_item_id = ids.get(parent);
        delete item.parent_item;
      }
    }
    for (const key of ['billing_address'] as const) {
      if (isObject(stored[key])) {
        stored[key] = { ...stored[key], entity_id: this.#nextAddressId++, parent_id: id };
      }
    }
    const extension = isObject(stored.extension_attributes) ? stored.extension_attributes : {};
    const assignments = optionalArray(extension.shipping_assignments, 'shipping_assignments') ?? [];
    stored.extension_attributes = {
      ...extension,
      shipping_assignments: assignments.map((a) => {
        const assignment = a as Json;
        const shipping = isObject(assignment.shipping) ? assignment.shipping : {};
        return {
          shipping: {
            ...shipping,
            ...(isObject(shipping.address)
              ? {
                  address: { ...shipping.address, entity_id: this.#nextAddressId++, parent_id: id },
                }
              : {}),
          },
          items: stored.items,
        };
      }),
    };
    if (isObject(stored.payment)) {
      stored.payment = { ...stored.payment, entity_id: this.#nextPaymentId++, parent_id: id };
    }
    this.orders.set(id, stored);
    return stored;
  }

  field = (order: Json, field: string): string | number | undefined => {
    if (field === 'id') return Number(order.entity_id);
    if (!orderKeys.has(field)) {
      throw new MagentoError(400, 'Invalid attribute name: %1', [field]);
    }
    const value = order[field];
    return typeof value === 'string' || typeof value === 'number' ? value : undefined;
  };
}
