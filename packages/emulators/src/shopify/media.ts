import { randomUUID } from 'node:crypto';
import type { MediaRec, ShopStore } from './store.ts';

/**
 * Images given by URL (productSet `files`, collectionCreate `image.src`). Shopify downloads the
 * original and serves its own copy from its CDN; the emulator does the same: it downloads the file
 * (by default only from loopback hosts, so a sandbox never reaches out to the internet), checks that
 * it is an image, keeps the bytes and serves them under /cdn/shop/files/. A download that fails
 * leaves the media FAILED with a mediaError, as Shopify reports it.
 */

export type MediaHostPolicy = (url: URL) => boolean;

/** What a media reads as now: PROCESSING, without image or errors, until Shopify is done with it. */
export function mediaState(
  media: MediaRec,
  now: number,
): Pick<MediaRec, 'status' | 'errors' | 'path'> {
  if (media.processingUntil !== undefined && now < media.processingUntil)
    return { status: 'PROCESSING', errors: [], path: null };
  return { status: media.status, errors: media.errors, path: media.path };
}

export const loopbackOnly: MediaHostPolicy = (url) =>
  url.hostname === '127.0.0.1' || url.hostname === 'localhost' || url.hostname === '[::1]';

const MAX_IMAGE_BYTES = 20 * 1024 * 1024;

function sniff(
  body: Buffer,
): { mime: string; ext: string; width: number | null; height: number | null } | undefined {
  if (
    body.length > 24 &&
    body.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  )
    return {
      mime: 'image/png',
      ext: 'png',
      width: body.readUInt32BE(16),
      height: body.readUInt32BE(20),
    };
  if (body.length > 3 && body[0] === 0xff && body[1] === 0xd8 && body[2] === 0xff)
    return { mime: 'image/jpeg', ext: 'jpg', width: null, height: null };
  if (body.length > 10 && body.subarray(0, 3).toString('ascii') === 'GIF')
    return {
      mime: 'image/gif',
      ext: 'gif',
      width: body.readUInt16LE(6),
      height: body.readUInt16LE(8),
    };
  if (
    body.length > 12 &&
    body.subarray(0, 4).toString('ascii') === 'RIFF' &&
    body.subarray(8, 12).toString('ascii') === 'WEBP'
  )
    return { mime: 'image/webp', ext: 'webp', width: null, height: null };
  return undefined;
}

function fileName(url: URL, ext: string): string {
  const last = decodeURIComponent(url.pathname.split('/').pop() ?? '');
  const clean = last.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^_+|_+$/g, '');
  if (!clean) return `image.${ext}`;
  return /\.[A-Za-z0-9]+$/.test(clean) ? clean : `${clean}.${ext}`;
}

function failed(
  store: ShopStore,
  source: string,
  alt: string,
  code: string,
  message: string,
): MediaRec {
  const now = store.timestamp();
  return {
    id: store.nextId(),
    imageId: store.nextId(),
    alt,
    status: 'FAILED',
    path: null,
    originalSource: source,
    mimeType: null,
    fileSize: null,
    width: null,
    height: null,
    errors: [{ code, message, details: null }],
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * `media` is false for a collection's image, which Shopify fetches while it saves the collection;
 * product media are processed afterwards (config.mediaProcessingMs).
 */
export async function ingestImage(
  store: ShopStore,
  source: string,
  alt: string,
  allowHost: MediaHostPolicy,
  media = true,
): Promise<MediaRec> {
  const image = await fetchImage(store, source, alt, allowHost);
  const ms = store.config.mediaProcessingMs;
  return media && ms > 0 ? { ...image, processingUntil: store.now() + ms } : image;
}

async function fetchImage(
  store: ShopStore,
  source: string,
  alt: string,
  allowHost: MediaHostPolicy,
): Promise<MediaRec> {
  let url: URL;
  try {
    url = new URL(source);
  } catch {
    return failed(store, source, alt, 'IMAGE_DOWNLOAD_FAILURE', 'Image URL is not a valid URL.');
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !allowHost(url))
    return failed(
      store,
      source,
      alt,
      'IMAGE_DOWNLOAD_FAILURE',
      'Image could not be downloaded from this address.',
    );
  let body: Buffer;
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
    if (!response.ok)
      return failed(
        store,
        source,
        alt,
        'IMAGE_DOWNLOAD_FAILURE',
        `Image download failed with HTTP ${response.status}.`,
      );
    body = Buffer.from(await response.arrayBuffer());
  } catch {
    return failed(store, source, alt, 'IMAGE_DOWNLOAD_FAILURE', 'Image could not be downloaded.');
  }
  if (body.length > MAX_IMAGE_BYTES)
    return failed(store, source, alt, 'INVALID_IMAGE_FILE_SIZE', 'Image is larger than 20 MB.');
  const kind = sniff(body);
  if (!kind)
    return failed(store, source, alt, 'IMAGE_PROCESSING_FAILURE', 'File is not a supported image.');
  let name = fileName(url, kind.ext);
  // FileSetInput.duplicateResolutionMode defaults to APPEND_UUID.
  if (store.files.has(`/cdn/shop/files/${name}`)) {
    const dot = name.lastIndexOf('.');
    name = `${name.slice(0, dot)}_${randomUUID()}${name.slice(dot)}`;
  }
  const path = `/cdn/shop/files/${name}`;
  store.files.set(path, { body, contentType: kind.mime });
  const now = store.timestamp();
  return {
    id: store.nextId(),
    imageId: store.nextId(),
    alt,
    status: 'READY',
    path,
    originalSource: source,
    mimeType: kind.mime,
    fileSize: body.length,
    width: kind.width,
    height: kind.height,
    errors: [],
    createdAt: now,
    updatedAt: now,
  };
}
