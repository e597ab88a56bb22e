/**
 * Which IP addresses an outbound request to a user-supplied store address may connect to. Pure:
 * no DNS, no sockets. Anything that is not a plainly public unicast address is refused, so an
 * address family or range we forgot fails closed rather than open.
 */

export interface AddressVerdict {
  allowed: boolean;
  reason?: string;
}

export interface ParsedIp {
  family: 4 | 6;
  bytes: Uint8Array;
}

interface Range {
  bytes: Uint8Array;
  bits: number;
  reason: string;
}

/**
 * Strict dotted-quad only. Resolvers and WHATWG URL both produce this form; anything looser
 * (octal, hex, short forms) reaching this function is refused rather than guessed at.
 */
function parseIpv4(text: string): Uint8Array | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  const bytes = new Uint8Array(4);
  for (let i = 0; i < 4; i++) {
    const part = parts[i] ?? '';
    if (!/^(0|[1-9][0-9]{0,2})$/.test(part)) return undefined;
    const value = Number(part);
    if (value > 255) return undefined;
    bytes[i] = value;
  }
  return bytes;
}

function parseIpv6(text: string): Uint8Array | undefined {
  let body = text;
  // An embedded dotted IPv4 tail stands for the last two groups.
  let tail: Uint8Array | undefined;
  const lastColon = body.lastIndexOf(':');
  if (body.includes('.', lastColon)) {
    tail = parseIpv4(body.slice(lastColon + 1));
    if (!tail || lastColon < 0) return undefined;
    body = `${body.slice(0, lastColon + 1)}0:0`;
  }
  const halves = body.split('::');
  if (halves.length > 2) return undefined;
  const toGroups = (half: string): number[] | undefined => {
    if (half === '') return [];
    const groups: number[] = [];
    for (const group of half.split(':')) {
      if (!/^[0-9a-fA-F]{1,4}$/.test(group)) return undefined;
      groups.push(parseInt(group, 16));
    }
    return groups;
  };
  const head = toGroups(halves[0] ?? '');
  const rest = halves.length === 2 ? toGroups(halves[1] ?? '') : [];
  if (!head || !rest) return undefined;
  const missing = 8 - head.length - rest.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  const groups = [...head, ...new Array<number>(missing).fill(0), ...rest];
  const bytes = new Uint8Array(16);
  groups.forEach((group, i) => {
    bytes[i * 2] = group >> 8;
    bytes[i * 2 + 1] = group & 0xff;
  });
  if (tail) bytes.set(tail, 12);
  return bytes;
}

/** Parses an IP literal; accepts brackets and a zone id on IPv6 (the zone is irrelevant here). */
export function parseIp(text: string): ParsedIp | undefined {
  let value = text.trim();
  if (value.startsWith('[') && value.endsWith(']')) value = value.slice(1, -1);
  const zone = value.indexOf('%');
  if (zone >= 0 && value.includes(':')) value = value.slice(0, zone);
  if (value.includes(':')) {
    const bytes = parseIpv6(value);
    return bytes ? { family: 6, bytes } : undefined;
  }
  const bytes = parseIpv4(value);
  return bytes ? { family: 4, bytes } : undefined;
}

function range(cidr: string, reason: string): Range {
  const [address = '', bits = ''] = cidr.split('/');
  const parsed = parseIp(address);
  if (!parsed) throw new Error(`bad range ${cidr}`);
  return { bytes: parsed.bytes, bits: Number(bits), reason };
}

function inRange(bytes: Uint8Array, r: Range): boolean {
  if (bytes.length !== r.bytes.length) return false;
  const full = Math.floor(r.bits / 8);
  for (let i = 0; i < full; i++) if (bytes[i] !== r.bytes[i]) return false;
  const rem = r.bits % 8;
  if (rem === 0) return true;
  const mask = (0xff << (8 - rem)) & 0xff;
  return ((bytes[full] ?? 0) & mask) === ((r.bytes[full] ?? 0) & mask);
}

// Most specific first, so the reason names the sharpest match (metadata before link-local).
const IPV4_REFUSED: Range[] = [
  range('169.254.169.254/32', 'cloud metadata address'),
  range('169.254.170.2/32', 'cloud metadata address (container credentials)'),
  range('100.100.100.200/32', 'cloud metadata address (Alibaba)'),
  range('255.255.255.255/32', 'broadcast address'),
  range('0.0.0.0/32', 'unspecified address'),
  range('0.0.0.0/8', '"this network" range'),
  range('10.0.0.0/8', 'private address (RFC 1918)'),
  range('100.64.0.0/10', 'shared address space (CGNAT)'),
  range('127.0.0.0/8', 'loopback address'),
  range('169.254.0.0/16', 'link-local address'),
  range('172.16.0.0/12', 'private address (RFC 1918)'),
  range('192.0.0.0/24', 'IETF protocol assignment range'),
  range('192.0.2.0/24', 'documentation range'),
  range('192.88.99.0/24', 'deprecated 6to4 relay range'),
  range('192.168.0.0/16', 'private address (RFC 1918)'),
  range('198.18.0.0/15', 'benchmarking range'),
  range('198.51.100.0/24', 'documentation range'),
  range('203.0.113.0/24', 'documentation range'),
  range('224.0.0.0/4', 'multicast address'),
  range('240.0.0.0/4', 'reserved range'),
];

/** IPv6 prefixes that carry an IPv4 address; the embedded address decides. */
const IPV6_EMBEDDING: { range: Range; offset: number }[] = [
  { range: range('::ffff:0:0/96', 'IPv4-mapped IPv6 address'), offset: 12 },
  { range: range('::ffff:0:0:0/96', 'IPv4-translated IPv6 address'), offset: 12 },
  { range: range('64:ff9b::/96', 'NAT64 address'), offset: 12 },
  { range: range('2002::/16', '6to4 address'), offset: 2 },
];

const IPV6_REFUSED: Range[] = [
  range('::/128', 'unspecified address'),
  range('::1/128', 'loopback address'),
  // Deprecated (RFC 4291); stacks may still route it to the embedded IPv4 address.
  range('::/96', 'IPv4-compatible IPv6 address'),
  range('64:ff9b:1::/48', 'local-use NAT64 range'),
  range('100::/64', 'discard-only range'),
  // Teredo hides the client's IPv4 address (obfuscated) and tunnels to it.
  range('2001::/32', 'Teredo address'),
  range('2001::/23', 'IETF protocol assignment range'),
  range('2001:db8::/32', 'documentation range'),
  range('3fff::/20', 'documentation range'),
  range('5f00::/16', 'segment routing range'),
  range('fd00:ec2::254/128', 'cloud metadata address'),
  range('fc00::/7', 'unique-local address'),
  range('fe80::/10', 'link-local address'),
  range('fec0::/10', 'site-local address'),
  range('ff00::/8', 'multicast address'),
];

const IPV6_GLOBAL_UNICAST = range('2000::/3', 'global unicast');

function checkIpv4(bytes: Uint8Array): AddressVerdict {
  const hit = IPV4_REFUSED.find((r) => inRange(bytes, r));
  return hit ? { allowed: false, reason: hit.reason } : { allowed: true };
}

function checkIpv6(bytes: Uint8Array): AddressVerdict {
  for (const { range: r, offset } of IPV6_EMBEDDING) {
    if (!inRange(bytes, r)) continue;
    const inner = checkIpv4(bytes.subarray(offset, offset + 4));
    return inner.allowed ? inner : { allowed: false, reason: `${r.reason} of a ${inner.reason}` };
  }
  const hit = IPV6_REFUSED.find((r) => inRange(bytes, r));
  if (hit) return { allowed: false, reason: hit.reason };
  if (!inRange(bytes, IPV6_GLOBAL_UNICAST)) {
    return { allowed: false, reason: 'not a global unicast address' };
  }
  return { allowed: true };
}

/** Decides whether a connection to this IP address may be opened. */
export function checkAddress(ip: string): AddressVerdict {
  const parsed = parseIp(ip);
  if (!parsed) return { allowed: false, reason: 'not an IP address' };
  return parsed.family === 4 ? checkIpv4(parsed.bytes) : checkIpv6(parsed.bytes);
}
