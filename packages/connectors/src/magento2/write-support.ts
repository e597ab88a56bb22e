import { createHash } from 'node:crypto';
import type { ConnectorHttp } from '../kit/contract.ts';
import { ConnectorError, isTransient } from '../kit/errors.ts';
import { MagentoApiError } from './client.ts';

/**
 * Creates a record that must exist exactly once. A create whose answer was lost (reset, cut-off
 * body, 5xx) may or may not have happened, and Magento refuses some repeats (URL key, increment
 * id, option label already taken); in both cases the marker lookup decides, and the create is
 * tried again only when the record is really absent.
 */
export async function createOnce<T>(
  create: () => Promise<T>,
  lookup: () => Promise<T | undefined>,
  options: { attempts?: number; sleep?: (ms: number) => Promise<void> } = {},
): Promise<T> {
  const attempts = options.attempts ?? 8;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  for (let attempt = 1; ; attempt++) {
    try {
      return await create();
    } catch (error) {
      const conflict = error instanceof MagentoApiError && error.status === 400;
      if (!isTransient(error) && !conflict) throw error;
      const found = await lookup();
      if (found !== undefined) return found;
      if (conflict || attempt >= attempts) throw error;
      const retryAfter = error instanceof ConnectorError ? (error.retryAfterMs ?? 0) : 0;
      await sleep(Math.max(retryAfter, Math.min(5_000, 50 * 2 ** attempt)));
    }
  }
}

/** The message a store owner reads for a failed record. */
export function reasonOf(error: unknown): string {
  if (error instanceof MagentoApiError) return `Magento refused it: ${error.magentoMessage}`;
  if (error instanceof Error) return error.message;
  return String(error);
}

/** Errors that concern the whole store (credentials, outage) rather than one record. */
export function isStoreWide(error: unknown): boolean {
  return (
    error instanceof ConnectorError &&
    (error.errorClass === 'config' || error.errorClass === 'transient')
  );
}

export const leftUnchanged = 'already at destination, left unchanged';

/** Magento's URL key form (lower-case ASCII letters and digits joined by '-'). */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** Marker in the file name of an uploaded image: which source URL it came from. */
export function imageMarker(url: string): string {
  return `rp-${createHash('sha256').update(url).digest('hex').slice(0, 16)}`;
}

const mimeTypes: [string, (b: Uint8Array) => boolean][] = [
  ['image/png', (b) => b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47],
  ['image/jpeg', (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff],
  ['image/gif', (b) => b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46],
  [
    'image/webp',
    (b) =>
      String.fromCharCode(...b.subarray(0, 4)) === 'RIFF' &&
      String.fromCharCode(...b.subarray(8, 12)) === 'WEBP',
  ],
];

const MAX_IMAGE_BYTES = 20 * 1024 * 1024;

/**
 * Images downloaded during one connection, by source URL, so an image several products or
 * variants show is fetched from the source once (Magento keeps a copy per product, so each still
 * uploads it). The most recent ones are kept, up to a total size.
 */
export class ImageCache {
  readonly #entries = new Map<string, Promise<{ data: Uint8Array; type: string }>>();
  readonly #sizes = new Map<string, number>();
  #bytes = 0;
  readonly #limit: number;

  constructor(limitBytes = 64 * 1024 * 1024) {
    this.#limit = limitBytes;
  }

  get(http: ConnectorHttp, url: string): Promise<{ data: Uint8Array; type: string }> {
    let found = this.#entries.get(url);
    if (found) {
      // Most recently used last.
      this.#entries.delete(url);
      this.#entries.set(url, found);
      return found;
    }
    found = downloadImage(http, url);
    this.#entries.set(url, found);
    found.then(
      (image) => {
        this.#sizes.set(url, image.data.length);
        this.#bytes += image.data.length;
        for (const [key] of this.#entries) {
          if (this.#bytes <= this.#limit || key === url) break;
          this.#entries.delete(key);
          this.#bytes -= this.#sizes.get(key) ?? 0;
          this.#sizes.delete(key);
        }
      },
      () => this.#entries.delete(url),
    );
    return found;
  }
}

/**
 * Downloads a source image through the egress-guarded ConnectorHttp (never directly) and checks
 * that the bytes are an image Magento accepts (its ImageContentValidator allows jpeg, png, gif
 * and, since 2.4.7, webp).
 */
export async function downloadImage(
  http: ConnectorHttp,
  url: string,
  options: { attempts?: number; sleep?: (ms: number) => Promise<void> } = {},
): Promise<{ data: Uint8Array; type: string }> {
  const attempts = options.attempts ?? 6;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  for (let attempt = 1; ; attempt++) {
    let failure: string;
    let retryAfterMs = 0;
    try {
      const response = await http.request({
        method: 'GET',
        url,
        headers: { accept: 'image/*' },
        retryable: true,
      });
      if (response.status === 200) {
        const declared = Number(response.headers['content-length'] ?? NaN);
        if (Number.isFinite(declared) && declared !== response.body.length) {
          failure = 'image download was cut short';
        } else if (response.body.length > MAX_IMAGE_BYTES) {
          throw new ConnectorError(
            'system',
            'image_too_large',
            `image ${url} is larger than 20 MB`,
          );
        } else {
          const type = mimeTypes.find(([, test]) => test(response.body))?.[0];
          if (!type)
            throw new ConnectorError(
              'system',
              'not_an_image',
              `${url} is not a JPEG, PNG, GIF or WebP image`,
            );
          return { data: response.body, type };
        }
      } else if (response.status === 429 || response.status >= 500) {
        failure = `image download answered ${response.status}`;
        retryAfterMs = Number(response.headers['retry-after'] ?? 0) * 1000 || 0;
      } else {
        throw new ConnectorError(
          'system',
          'image_unavailable',
          `image ${url} answered ${response.status}`,
        );
      }
    } catch (error) {
      if (error instanceof ConnectorError && error.errorClass !== 'transient') throw error;
      failure = error instanceof Error ? error.message : String(error);
    }
    if (attempt >= attempts) {
      throw new ConnectorError(
        'transient',
        'image_download_failed',
        `image ${url} could not be downloaded: ${failure}`,
      );
    }
    await sleep(Math.max(retryAfterMs, Math.min(5_000, 50 * 2 ** attempt)));
  }
}
