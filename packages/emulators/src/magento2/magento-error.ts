/**
 * Magento's web API error body: `{ message, parameters }`, where `message` keeps its placeholders
 * (`%fieldName`, `%1`) and `parameters` fills them, either by name (an object) or by position (an
 * array). Clients format the message themselves, so the emulator must keep the placeholders too.
 */
export type MagentoParameters = Record<string, string | number> | (string | number)[];

export class MagentoError extends Error {
  readonly status: number;
  readonly parameters: MagentoParameters | undefined;

  constructor(status: number, message: string, parameters?: MagentoParameters) {
    super(message);
    this.name = 'MagentoError';
    this.status = status;
    this.parameters = parameters;
  }

  body(): { message: string; parameters?: MagentoParameters } {
    return this.parameters === undefined
      ? { message: this.message }
      : { message: this.message, parameters: this.parameters };
  }

  /** The message with its placeholders filled, as the admin panel and bulk results show it. */
  formatted(): string {
    const params = this.parameters;
    if (!params) return this.message;
    return this.message.replace(/%(\w+)/g, (whole, key: string) => {
      const value = Array.isArray(params) ? params[Number(key) - 1] : params[key];
      return value === undefined ? whole : String(value);
    });
  }
}

export const requiredField = (fieldName: string) =>
  new MagentoError(400, '"%fieldName" is required. Enter and try again.', { fieldName });

export const invalidField = (fieldName: string, value: unknown) =>
  new MagentoError(400, 'Invalid value of "%value" provided for the %fieldName field.', {
    fieldName,
    value: String(value),
  });

export const noSuchEntity = (fieldName: string, fieldValue: string | number) =>
  new MagentoError(404, 'No such entity with %fieldName = %fieldValue', { fieldName, fieldValue });

export const productNotFound = () =>
  new MagentoError(
    404,
    "The product that was requested doesn't exist. Verify the product and try again.",
  );
