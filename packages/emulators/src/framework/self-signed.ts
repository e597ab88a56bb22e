import { generateKeyPairSync, randomBytes, sign, X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';

/**
 * A self-signed TLS certificate made at start, so emulators can serve https like real stores do
 * (WooCommerce, for one, authenticates differently over TLS). Node can parse certificates but not
 * make them, and the project has no certificate library, so this writes the few DER structures an
 * X.509 v3 certificate needs (RFC 5280) and signs them with node:crypto (ECDSA P-256, SHA-256).
 * The certificate is its own trust anchor: clients trust exactly it, never a system root.
 */

export interface SelfSignedCertificate {
  /** PEM certificate: serve it, and give it to clients as the one CA they trust. */
  cert: string;
  /** PEM private key (PKCS#8). */
  key: string;
}

export interface SelfSignedOptions {
  /** Host names and IP addresses the certificate is valid for. Default: 127.0.0.1, localhost. */
  hosts?: readonly string[];
  /** Days of validity from now. Default 30. */
  days?: number;
  /** Common name of subject and issuer. Default 'Replatform emulator'. */
  commonName?: string;
}

// --- DER encoding (X.690), just the types a certificate uses ------------------------------------

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let rest = n; rest > 0; rest = Math.floor(rest / 256)) bytes.unshift(rest % 256);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

function tlv(tag: number, content: Buffer): Buffer {
  return Buffer.concat([Buffer.from([tag]), length(content.length), content]);
}

const sequence = (...items: Buffer[]) => tlv(0x30, Buffer.concat(items));
const set = (...items: Buffer[]) => tlv(0x31, Buffer.concat(items));
const octetString = (content: Buffer) => tlv(0x04, content);
const utf8String = (text: string) => tlv(0x0c, Buffer.from(text, 'utf8'));
const boolean = (value: boolean) => tlv(0x01, Buffer.from([value ? 0xff : 0x00]));
/** [n] EXPLICIT: a constructed context-specific wrapper. */
const explicit = (n: number, content: Buffer) => tlv(0xa0 + n, content);

/** A non-negative INTEGER from big-endian bytes, minimal and with a leading 0 when needed. */
function unsignedInteger(bytes: Buffer): Buffer {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start++;
  let content = bytes.subarray(start);
  if ((content[0] ?? 0) & 0x80) content = Buffer.concat([Buffer.from([0]), content]);
  return tlv(0x02, content);
}

function objectIdentifier(dotted: string): Buffer {
  const [first = 0, second = 0, ...rest] = dotted.split('.').map(Number);
  const bytes = [first * 40 + second];
  for (const arc of rest) {
    const chunk: number[] = [arc & 0x7f];
    for (let value = Math.floor(arc / 128); value > 0; value = Math.floor(value / 128))
      chunk.unshift((value & 0x7f) | 0x80);
    bytes.push(...chunk);
  }
  return tlv(0x06, Buffer.from(bytes));
}

/** BIT STRING of whole bytes (no unused bits). */
const bitString = (content: Buffer) => tlv(0x03, Buffer.concat([Buffer.from([0]), content]));

/** UTCTime (YYMMDDHHMMSSZ), valid for the years 1950-2049 as RFC 5280 requires. */
function utcTime(date: Date): Buffer {
  const iso = date.toISOString();
  const text = `${iso.slice(2, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z`;
  return tlv(0x17, Buffer.from(text, 'ascii'));
}

function ipBytes(address: string): Buffer {
  if (isIP(address) === 4) return Buffer.from(address.split('.').map(Number));
  const [head = '', tail = ''] = address.split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  const left = groups(head);
  const right = groups(tail);
  const all = address.includes('::')
    ? [...left, ...new Array<string>(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return Buffer.from(all.flatMap((g) => [parseInt(g, 16) >> 8, parseInt(g, 16) & 0xff]));
}

// --- The certificate ----------------------------------------------------------------------------

const OID = {
  commonName: '2.5.4.3',
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
  basicConstraints: '2.5.29.19',
  keyUsage: '2.5.29.15',
  extendedKeyUsage: '2.5.29.37',
  subjectAltName: '2.5.29.17',
  serverAuth: '1.3.6.1.5.5.7.3.1',
} as const;

const extension = (oid: string, critical: boolean, value: Buffer) =>
  sequence(objectIdentifier(oid), ...(critical ? [boolean(true)] : []), octetString(value));

function toPem(label: string, der: Buffer): string {
  const lines = der.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}

const issued: string[] = [];

/**
 * Every certificate made in this process: emulators that download from each other (a store
 * fetching product images from another emulated store) trust these, and nothing else extra.
 */
export function emulatorCertificates(): readonly string[] {
  return issued;
}

export function createSelfSignedCertificate(
  options: SelfSignedOptions = {},
): SelfSignedCertificate {
  const hosts = options.hosts ?? ['127.0.0.1', 'localhost'];
  const days = options.days ?? 30;
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const name = sequence(
    set(
      sequence(
        objectIdentifier(OID.commonName),
        utf8String(options.commonName ?? 'Replatform emulator'),
      ),
    ),
  );
  const algorithm = sequence(objectIdentifier(OID.ecdsaWithSha256));
  const serial = randomBytes(16);
  serial[0] = (serial[0] ?? 0) & 0x7f;
  const now = Date.now();
  const altNames = hosts.map((host) =>
    isIP(host) ? tlv(0x87, ipBytes(host)) : tlv(0x82, Buffer.from(host, 'ascii')),
  );
  const extensions = sequence(
    // Its own CA: clients are given this very certificate as the trust anchor.
    extension(OID.basicConstraints, true, sequence(boolean(true))),
    // digitalSignature (bit 0) and keyCertSign (bit 5): 0b1000_0100, last two bits unused.
    extension(OID.keyUsage, true, tlv(0x03, Buffer.from([0x02, 0x84]))),
    extension(OID.extendedKeyUsage, false, sequence(objectIdentifier(OID.serverAuth))),
    extension(OID.subjectAltName, false, sequence(...altNames)),
  );
  const tbs = sequence(
    explicit(0, unsignedInteger(Buffer.from([2]))),
    unsignedInteger(serial),
    algorithm,
    name,
    sequence(utcTime(new Date(now - 86_400_000)), utcTime(new Date(now + days * 86_400_000))),
    name,
    publicKey.export({ type: 'spki', format: 'der' }),
    explicit(3, extensions),
  );
  const signature = sign('sha256', tbs, privateKey);
  const cert = toPem('CERTIFICATE', sequence(tbs, algorithm, bitString(signature)));
  const key = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  // Parsing it back catches an encoding mistake here rather than as a handshake failure later.
  if (!new X509Certificate(cert).checkPrivateKey(privateKey))
    throw new Error('self-signed certificate does not match its key');
  issued.push(cert);
  return { cert, key };
}
