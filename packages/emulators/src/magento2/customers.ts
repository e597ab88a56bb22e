import { isKnownCountry, regionById, regionsOf } from './directory.ts';
import { MagentoError, invalidField, noSuchEntity, requiredField } from './magento-error.ts';
import {
  checkKeys,
  isObject,
  magentoTime,
  objectField,
  optionalArray,
  optionalBool,
  optionalInt,
  optionalString,
  type Json,
} from './input.ts';
import type { TaxClasses } from './tax.ts';

/**
 * Customer accounts as Magento's CustomerRepository and AccountManagement keep them. Two ways in
 * create an account, and they differ in what the customer receives:
 * - AccountManagementInterface::createAccount (POST /V1/customers) always sends the new-account
 *   e-mail (welcome, or confirmation when confirmation is required);
 * - CustomerRepositoryInterface::save (POST /V1/customers/ with the trailing slash, and
 *   PUT /V1/customers/{id} for existing accounts) stores the account and sends nothing.
 * Saving a customer with extension_attributes.is_subscribed = true subscribes them to the
 * newsletter, which sends the subscription-success e-mail. Every e-mail lands in `outbox`, as do
 * the order confirmations POST /V1/orders/{id}/emails sends (sales.ts).
 */

export interface AddressRecord {
  id: number;
  customer_id: number;
  region: { region_code: string; region: string; region_id: number };
  region_id: number;
  country_id: string;
  street: string[];
  company: string;
  telephone: string;
  postcode: string;
  city: string;
  firstname: string;
  lastname: string;
  middlename?: string;
  prefix?: string;
  suffix?: string;
  vat_id?: string;
  fax?: string;
}

export interface CustomerRecord {
  id: number;
  group_id: number;
  default_billing: string | undefined;
  default_shipping: string | undefined;
  created_at: string;
  updated_at: string;
  created_in: string;
  dob?: string;
  email: string;
  firstname: string;
  lastname: string;
  middlename?: string;
  prefix?: string;
  suffix?: string;
  gender?: number;
  store_id: number;
  taxvat?: string;
  website_id: number;
  addresses: AddressRecord[];
  is_subscribed: boolean;
  custom: Record<string, string>;
  hasPassword: boolean;
  disable_auto_group_change: number;
}

export interface CustomerGroupRecord {
  id: number;
  code: string;
  tax_class_id: number;
}

/** A customer attribute a module or the merchant added (none on a fresh installation). */
export interface CustomerAttributeRecord {
  attribute_code: string;
  frontend_input: string;
  label: string;
  sort_order: number;
}

export interface SentEmail {
  template: 'customer_new_account' | 'newsletter_subscription_success' | 'sales_order_new';
  to: string;
  at: string;
  /** The order an order e-mail is about (its increment id). */
  order?: string;
}

const customerKeys = [
  'id',
  'group_id',
  'default_billing',
  'default_shipping',
  'confirmation',
  'created_at',
  'updated_at',
  'created_in',
  'dob',
  'email',
  'firstname',
  'lastname',
  'middlename',
  'prefix',
  'suffix',
  'gender',
  'store_id',
  'taxvat',
  'website_id',
  'addresses',
  'disable_auto_group_change',
  'extension_attributes',
  'custom_attributes',
];

const addressKeys = [
  'id',
  'customer_id',
  'region',
  'region_id',
  'country_id',
  'street',
  'company',
  'telephone',
  'fax',
  'postcode',
  'city',
  'firstname',
  'lastname',
  'middlename',
  'prefix',
  'suffix',
  'vat_id',
  'default_shipping',
  'default_billing',
  'extension_attributes',
  'custom_attributes',
];

/** Countries for which Magento's default "Zip/Postal Code is Optional for" list applies. */
const postcodeOptional = new Set(['HK', 'IE', 'MO', 'PA']);

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export class Customers {
  readonly customers = new Map<number, CustomerRecord>();
  readonly outbox: SentEmail[] = [];
  /** Customer groups of a fresh installation; more are added with POST /V1/customerGroups. */
  readonly groups = new Map<number, CustomerGroupRecord>([
    [0, { id: 0, code: 'NOT LOGGED IN', tax_class_id: 3 }],
    [1, { id: 1, code: 'General', tax_class_id: 3 }],
    [2, { id: 2, code: 'Wholesale', tax_class_id: 3 }],
    [3, { id: 3, code: 'Retailer', tax_class_id: 3 }],
  ]);
  readonly attributes = new Map<string, CustomerAttributeRecord>();
  readonly #tax: TaxClasses;
  #nextId = 1;
  #nextAddressId = 1;
  #nextGroupId = 4;

  constructor(tax: TaxClasses) {
    this.#tax = tax;
  }

  /**
   * A customer attribute that came with a module or that the merchant added in the admin (the
   * REST API cannot create one).
   */
  installAttribute(code: string, label: string, input = 'text'): void {
    if (this.attributes.has(code)) return;
    this.attributes.set(code, {
      attribute_code: code,
      frontend_input: input,
      label,
      sort_order: 100 + this.attributes.size,
    });
  }

  attributeMetadataJson(a: CustomerAttributeRecord): Json {
    return {
      frontend_input: a.frontend_input,
      input_filter: '',
      store_label: a.label,
      validation_rules: [],
      multiline_count: 0,
      visible: true,
      required: false,
      data_model: '',
      options: [],
      frontend_class: '',
      user_defined: true,
      sort_order: a.sort_order,
      frontend_label: a.label,
      note: '',
      system: false,
      backend_type: a.frontend_input === 'date' ? 'datetime' : 'varchar',
      attribute_code: a.attribute_code,
    };
  }

  getAttributeMetadata(code: string): CustomerAttributeRecord {
    const found = this.attributes.get(code);
    if (!found) throw noSuchEntity('attributeCode', code);
    return found;
  }

  getGroup(id: number): CustomerGroupRecord {
    const group = this.groups.get(id);
    if (!group) throw noSuchEntity('id', id);
    return group;
  }

  groupJson(g: CustomerGroupRecord): Json {
    return {
      id: g.id,
      code: g.code,
      tax_class_id: g.tax_class_id,
      tax_class_name: this.#tax.classes.get(g.tax_class_id)?.class_name ?? '',
    };
  }

  /** POST /V1/customerGroups: GroupRepositoryInterface::save. Codes are unique. */
  createGroup(body: Json): CustomerGroupRecord {
    if (body.group === undefined) throw requiredField('group');
    const input = objectField(body.group, 'Magento\\Customer\\Api\\Data\\GroupInterface');
    checkKeys(
      input,
      ['id', 'code', 'tax_class_id', 'tax_class_name', 'extension_attributes'],
      'Magento\\Customer\\Api\\Data\\GroupInterface',
    );
    const code = optionalString(input.code)?.trim() ?? '';
    if (!code) throw requiredField('code');
    if (code.length > 32) throw invalidField('code', code);
    if ([...this.groups.values()].some((g) => g.code.toLowerCase() === code.toLowerCase()))
      throw new MagentoError(400, 'Customer Group already exists.');
    const taxClassId = optionalInt(input.tax_class_id) ?? 3;
    if (this.#tax.classes.get(taxClassId)?.class_type !== 'CUSTOMER')
      throw invalidField('taxClassId', taxClassId);
    const group = { id: this.#nextGroupId++, code, tax_class_id: taxClassId };
    this.groups.set(group.id, group);
    return group;
  }

  groupField = (g: CustomerGroupRecord, field: string): string | number => {
    if (field === 'id' || field === 'code' || field === 'tax_class_id') return g[field];
    throw new MagentoError(400, 'Invalid attribute name: %1', [field]);
  };

  get(id: number): CustomerRecord {
    const customer = this.customers.get(id);
    if (!customer) throw noSuchEntity('customerId', id);
    return customer;
  }

  /** DELETE /V1/customers/{customerId} (the customer, addresses included); absent: 404. */
  delete(id: number): boolean {
    this.get(id);
    this.customers.delete(id);
    return true;
  }

  byEmail(email: string, websiteId = 1): CustomerRecord | undefined {
    const wanted = email.toLowerCase();
    return [...this.customers.values()].find(
      (c) => c.email.toLowerCase() === wanted && c.website_id === websiteId,
    );
  }

  /** POST /V1/customers: AccountManagementInterface::createAccount. Sends the welcome e-mail. */
  createAccount(body: Json): CustomerRecord {
    if (body.customer === undefined) throw requiredField('customer');
    const input = objectField(body.customer, 'Magento\\Customer\\Api\\Data\\CustomerInterface');
    if (input.id !== undefined && input.id !== null) {
      throw new MagentoError(400, 'This customer already exists in this store.');
    }
    const password = optionalString(body.password);
    if (password !== undefined && password.length < 8) {
      throw new MagentoError(
        400,
        'The password needs at least %1 characters. Create a new password and try again.',
        [8],
      );
    }
    const customer = this.#save(input, undefined);
    // AccountManagement::createAccountWithPasswordHash sets created_in to the store's name.
    customer.created_in = 'Default Store View';
    customer.hasPassword = password !== undefined;
    this.#send('customer_new_account', customer.email);
    return customer;
  }

  /**
   * CustomerRepositoryInterface::save: POST /V1/customers/ (new or, with an id, existing) and
   * PUT /V1/customers/{id}, where the path id overrides the body's (Magento's
   * ParamsOverrider for the route parameter `:id`). No new-account e-mail.
   */
  save(body: Json, pathId?: number): CustomerRecord {
    if (body.customer === undefined) throw requiredField('customer');
    const input = objectField(body.customer, 'Magento\\Customer\\Api\\Data\\CustomerInterface');
    const id = pathId ?? optionalInt(input.id);
    const existing = id === undefined || id === 0 ? undefined : this.get(id);
    return this.#save(input, existing);
  }

  /**
   * PUT /V1/customers/validate: AccountManagementInterface::validate runs the customer's attribute
   * validation and answers what it found; nothing is stored and nothing is sent.
   */
  validate(body: Json): { valid: boolean; messages: string[] } {
    if (body.customer === undefined) throw requiredField('customer');
    const input = objectField(body.customer, 'Magento\\Customer\\Api\\Data\\CustomerInterface');
    checkKeys(input, customerKeys, 'Magento\\Customer\\Api\\Data\\CustomerInterface');
    const messages: string[] = [];
    for (const [field, label] of [
      ['firstname', 'First Name'],
      ['lastname', 'Last Name'],
      ['email', 'Email'],
    ] as const) {
      if (!optionalString(input[field])?.trim()) messages.push(`"${label}" is a required value.`);
    }
    const email = optionalString(input.email)?.trim();
    if (email && !emailPattern.test(email)) messages.push(`"Email" is not a valid email address.`);
    return { valid: messages.length === 0, messages };
  }

  #save(input: Json, existing: CustomerRecord | undefined): CustomerRecord {
    checkKeys(input, customerKeys, 'Magento\\Customer\\Api\\Data\\CustomerInterface');
    const email = (optionalString(input.email) ?? existing?.email ?? '').trim();
    if (!email) throw requiredField('email');
    if (!emailPattern.test(email)) throw invalidField('email', email);
    const firstname = optionalString(input.firstname) ?? existing?.firstname ?? '';
    if (!firstname.trim()) throw requiredField('firstname');
    const lastname = optionalString(input.lastname) ?? existing?.lastname ?? '';
    if (!lastname.trim()) throw requiredField('lastname');
    const websiteId = optionalInt(input.website_id) ?? existing?.website_id ?? 1;
    if (websiteId !== 1) throw noSuchEntity('websiteId', websiteId);
    const storeId = optionalInt(input.store_id) ?? existing?.store_id ?? 1;
    if (storeId !== 1) throw noSuchEntity('storeId', storeId);
    const clash = this.byEmail(email, websiteId);
    if (clash && clash.id !== existing?.id) {
      throw new MagentoError(
        400,
        'A customer with the same email address already exists in an associated website.',
      );
    }
    const extension =
      input.extension_attributes === undefined
        ? {}
        : objectField(
            input.extension_attributes,
            'Magento\\Customer\\Api\\Data\\CustomerExtensionInterface',
          );
    checkKeys(
      extension,
      ['company_attributes', 'all_company_attributes', 'is_subscribed', 'assistance_allowed'],
      'Magento\\Customer\\Api\\Data\\CustomerExtensionInterface',
    );
    const id = existing?.id ?? this.#nextId;
    const addressInput = optionalArray(input.addresses, 'addresses');
    const parsed = addressInput?.map((a) => this.#address(a, id, existing));
    const now = magentoTime();
    const created = input.created_at === undefined ? undefined : optionalString(input.created_at);
    const groupId = optionalInt(input.group_id) ?? existing?.group_id ?? 1;
    if (groupId === 0 || !this.groups.has(groupId)) throw noSuchEntity('id', groupId);
    const customer: CustomerRecord = {
      id,
      group_id: groupId,
      default_billing: existing?.default_billing,
      default_shipping: existing?.default_shipping,
      created_at: created ? magentoTime(created) : (existing?.created_at ?? now),
      updated_at: now,
      // A static column the repository save stores as given (left as it was when not sent).
      created_in: optionalString(input.created_in) ?? existing?.created_in ?? 'Default Store View',
      email,
      firstname,
      lastname,
      store_id: storeId,
      website_id: websiteId,
      addresses: existing?.addresses ?? [],
      is_subscribed: optionalBool(extension.is_subscribed) ?? existing?.is_subscribed ?? false,
      custom: existing?.custom ?? {},
      hasPassword: existing?.hasPassword ?? false,
      disable_auto_group_change:
        optionalInt(input.disable_auto_group_change) ?? existing?.disable_auto_group_change ?? 0,
    };
    for (const key of ['dob', 'middlename', 'prefix', 'suffix', 'taxvat'] as const) {
      const value = optionalString(input[key]) ?? existing?.[key];
      if (value !== undefined) customer[key] = value;
    }
    const gender = optionalInt(input.gender) ?? existing?.gender;
    if (gender !== undefined) customer.gender = gender;
    for (const item of optionalArray(input.custom_attributes, 'custom_attributes') ?? []) {
      if (!isObject(item)) continue;
      const code = optionalString(item.attribute_code);
      // Values of attributes the installation does not have are dropped, as EAV does.
      if (code && this.attributes.has(code))
        customer.custom[code] = optionalString(item.value) ?? '';
    }
    if (parsed) {
      customer.addresses = parsed.map((p) => p.address);
      customer.default_billing = undefined;
      customer.default_shipping = undefined;
      for (const p of parsed) {
        if (p.defaultBilling) customer.default_billing = String(p.address.id);
        if (p.defaultShipping) customer.default_shipping = String(p.address.id);
      }
    }
    if (!existing) this.#nextId++;
    this.customers.set(id, customer);
    if (customer.is_subscribed && !existing?.is_subscribed) {
      this.#send('newsletter_subscription_success', customer.email);
    }
    return customer;
  }

  #address(
    value: unknown,
    customerId: number,
    existing: CustomerRecord | undefined,
  ): { address: AddressRecord; defaultBilling: boolean; defaultShipping: boolean } {
    const input = objectField(value, 'Magento\\Customer\\Api\\Data\\AddressInterface');
    checkKeys(input, addressKeys, 'Magento\\Customer\\Api\\Data\\AddressInterface');
    const street = (optionalArray(input.street, 'street') ?? []).map(
      (s) => optionalString(s) ?? '',
    );
    const required: [string, string | undefined][] = [
      ['firstname', optionalString(input.firstname)],
      ['lastname', optionalString(input.lastname)],
      ['street', street[0]],
      ['city', optionalString(input.city)],
      ['telephone', optionalString(input.telephone)],
      ['countryId', optionalString(input.country_id)],
    ];
    for (const [field, text] of required) if (!text?.trim()) throw requiredField(field);
    const countryId = optionalString(input.country_id) ?? '';
    if (!isKnownCountry(countryId)) throw invalidField('countryId', countryId);
    const postcode = optionalString(input.postcode) ?? '';
    if (!postcode.trim() && !postcodeOptional.has(countryId)) throw requiredField('postcode');
    const regionInput =
      input.region === undefined || input.region === null
        ? {}
        : objectField(input.region, 'Magento\\Customer\\Api\\Data\\RegionInterface');
    const regionId = optionalInt(input.region_id) ?? optionalInt(regionInput.region_id) ?? 0;
    let region: AddressRecord['region'];
    if (regionsOf(countryId).length) {
      if (!regionId) throw requiredField('regionId');
      const known = regionById(countryId, regionId);
      if (!known) throw invalidField('regionId', regionId);
      region = { region_code: known.code, region: known.name, region_id: known.id };
    } else {
      const text =
        optionalString(regionInput.region) ?? optionalString(regionInput.region_code) ?? '';
      region = { region_code: text, region: text, region_id: 0 };
    }
    const id = optionalInt(input.id);
    const reuse = id !== undefined && existing?.addresses.some((a) => a.id === id);
    const address: AddressRecord = {
      id: reuse && id !== undefined ? id : this.#nextAddressId++,
      customer_id: customerId,
      region,
      region_id: region.region_id,
      country_id: countryId,
      street: street.filter((s, i) => i === 0 || s !== ''),
      company: optionalString(input.company) ?? '',
      telephone: optionalString(input.telephone) ?? '',
      postcode,
      city: optionalString(input.city) ?? '',
      firstname: optionalString(input.firstname) ?? '',
      lastname: optionalString(input.lastname) ?? '',
    };
    for (const key of ['middlename', 'prefix', 'suffix', 'vat_id', 'fax'] as const) {
      const text = optionalString(input[key]);
      if (text !== undefined) address[key] = text;
    }
    return {
      address,
      defaultBilling: optionalBool(input.default_billing) ?? false,
      defaultShipping: optionalBool(input.default_shipping) ?? false,
    };
  }

  #send(template: SentEmail['template'], to: string): void {
    this.outbox.push({ template, to, at: new Date().toISOString() });
  }

  json(c: CustomerRecord): Json {
    const json: Json = {
      id: c.id,
      group_id: c.group_id,
    };
    if (c.default_billing) json.default_billing = c.default_billing;
    if (c.default_shipping) json.default_shipping = c.default_shipping;
    Object.assign(json, {
      created_at: c.created_at,
      updated_at: c.updated_at,
      created_in: c.created_in,
      email: c.email,
      firstname: c.firstname,
      lastname: c.lastname,
    });
    for (const key of ['dob', 'middlename', 'prefix', 'suffix', 'gender', 'taxvat'] as const) {
      if (c[key] !== undefined) json[key] = c[key];
    }
    Object.assign(json, {
      store_id: c.store_id,
      website_id: c.website_id,
      addresses: c.addresses.map((a) => {
        const address: Json = { ...a, region: { ...a.region }, street: [...a.street] };
        if (String(a.id) === c.default_billing) address.default_billing = true;
        if (String(a.id) === c.default_shipping) address.default_shipping = true;
        return address;
      }),
      disable_auto_group_change: c.disable_auto_group_change,
      extension_attributes: { is_subscribed: c.is_subscribed },
    });
    const custom = Object.entries(c.custom);
    if (custom.length) {
      json.custom_attributes = custom.map(([attribute_code, value]) => ({ attribute_code, value }));
    }
    return json;
  }

  field = (c: CustomerRecord, field: string): string | number | undefined => {
    switch (field) {
      case 'entity_id':
      case 'id':
        return c.id;
      case 'email':
      case 'firstname':
      case 'lastname':
      case 'created_at':
      case 'updated_at':
      case 'website_id':
      case 'group_id':
      case 'store_id':
      case 'dob':
      case 'gender':
      case 'taxvat':
      case 'created_in':
        return c[field];
      default:
        if (field in c.custom) return c.custom[field];
        throw new MagentoError(400, 'Invalid attribute name: %1', [field]);
    }
  };
}
