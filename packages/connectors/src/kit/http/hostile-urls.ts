import type { ResolvedAddress, Resolver } from './egress-guard.ts';

/**
 * Test fixture: URLs a hostile store owner could enter, and the DNS answers of the names they
 * control. `stage` says where the guard must stop them: 'parse' when the URL alone is enough,
 * 'connect' when only the resolved addresses give the target away (so the connect-time check is
 * what is being tested). `port` is the counting server's port: every loopback target points at
 * it, so a guard that let one through would be caught by its connection count.
 */

export interface HostileCase {
  url: string;
  stage: 'parse' | 'connect';
}

const PUBLIC_V4 = '93.184.215.14';
const PUBLIC_V6 = '2606:2800:21f:cb07:6820:80da:af6b:8b2c';

const v4 = (address: string): ResolvedAddress => ({ address, family: 4 });
const v6 = (address: string): ResolvedAddress => ({ address, family: 6 });

/** What the attacker's DNS answers. Blocked names are listed too, so the name rule is not the only line of defence. */
export const HOSTILE_DNS: Record<string, ResolvedAddress[]> = {
  'loopback.attacker.test': [v4('127.0.0.1')],
  'loopback6.attacker.test': [v6('::1')],
  'mapped.attacker.test': [v6('::ffff:127.0.0.1')],
  'mixed.attacker.test': [v4(PUBLIC_V4), v4('127.0.0.1')],
  'mixed-first.attacker.test': [v4('127.0.0.1'), v4(PUBLIC_V4)],
  'mixed6.attacker.test': [v6(PUBLIC_V6), v6('fd00::1')],
  'mixed-family.attacker.test': [v6(PUBLIC_V6), v4('10.1.2.3')],
  'xn--lcalhost-nbh.attacker.test': [v4('127.0.0.1')], // lоcalhost with a Cyrillic о
  'xn--80ak6aa92e.com': [v4('127.0.0.1')], // аррӏе.com homograph
  '127.0.0.1.nip.attacker.test': [v4('127.0.0.1')],
  'metadata.attacker.test': [v4('169.254.169.254')],
  'private.attacker.test': [v4('10.0.0.1')],
  'private172.attacker.test': [v4('172.20.0.5')],
  'private192.attacker.test': [v4('192.168.10.10')],
  'cgnat.attacker.test': [v4('100.64.0.1')],
  'ula.attacker.test': [v6('fd00::1')],
  'linklocal6.attacker.test': [v6('fe80::1')],
  'nat64.attacker.test': [v6('64:ff9b::a9fe:a9fe')],
  'sixtofour.attacker.test': [v6('2002:7f00:1::')],
  'unspecified.attacker.test': [v4('0.0.0.0')],
  'multicast.attacker.test': [v4('224.0.0.251')],
  localhost: [v4('127.0.0.1'), v6('::1')],
  'metadata.google.internal': [v4('169.254.169.254')],
  'metadata.goog': [v4('169.254.169.254')],
  metadata: [v4('169.254.169.254')],
  'instance-data': [v4('169.254.169.254')],
  'instance-data.ec2.internal': [v4('169.254.169.254')],
  intranet: [v4('10.0.0.5')],
  'printer.local': [v4('192.168.1.20')],
  'router.home.arpa': [v4('192.168.1.1')],
  'db.internal': [v4('10.0.0.7')],
};

/** Resolver over HOSTILE_DNS; unknown names fail as NXDOMAIN does. */
export function hostileResolver(calls: string[] = []): Resolver {
  return async (hostname) => {
    calls.push(hostname);
    const answer = HOSTILE_DNS[hostname.replace(/\.+$/, '').toLowerCase()];
    if (!answer) throw Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return answer;
  };
}

export function hostileUrls(port: number): HostileCase[] {
  const p = String(port);
  const parse = (url: string): HostileCase => ({ url, stage: 'parse' });
  const connect = (url: string): HostileCase => ({ url, stage: 'connect' });
  return [
    // Loopback in every spelling, aimed at the counting server.
    parse(`http://127.0.0.1:${p}/`),
    parse(`https://127.0.0.1:${p}/`),
    parse(`http://127.1:${p}/`),
    parse(`http://127.0.1:${p}/`),
    parse(`http://2130706433:${p}/`),
    parse(`http://0x7f000001:${p}/`),
    parse(`http://0x7F.0.0.1:${p}/`),
    parse(`http://0x7f.1:${p}/`),
    parse(`http://0177.0.0.1:${p}/`),
    parse(`http://0177.1:${p}/`),
    parse(`http://017700000001:${p}/`),
    parse(`http://0x7f.0.0.0x1:${p}/`),
    parse(`http://0177.0x0.0.1:${p}/`),
    parse(`http://0x7f.0x0.0x0.0x1:${p}/`),
    parse(`http://0177.0000.0000.0001:${p}/`),
    parse(`http://0000177.0.0.1:${p}/`),
    parse(`http://127.000.000.001:${p}/`),
    parse(`http://127.0.0.1.:${p}/`),
    parse(`http://127.0.0.2:${p}/`),
    parse(`http://127.255.255.254:${p}/`),
    parse(`http://127.0.0.1:${p}#@example.com`),
    parse(`http://127.0.0.1:${p}\\@example.com`),
    parse(`http:\\\\127.0.0.1:${p}/`),
    parse(`http:/\\127.0.0.1:${p}/`),
    parse(`http://127.0.\t0.1:${p}/`),
    parse(` http://127.0.0.1:${p}/ `),
    parse(`http://①②⑦.⓪.⓪.①:${p}/`),
    parse(`http://１２７.０.０.１:${p}/`),
    parse(`http://127。0。0。1:${p}/`),
    parse(`http://127．0．0．1:${p}/`),
    parse(`http://0x7f。1:${p}/`),
    parse(`http://[::1]:${p}/`),
    parse(`http://[0:0:0:0:0:0:0:1]:${p}/`),
    parse(`http://[::ffff:127.0.0.1]:${p}/`),
    parse(`http://[::ffff:7f00:1]:${p}/`),
    parse(`http://[0:0:0:0:0:ffff:7f00:0001]:${p}/`),
    parse(`http://[::127.0.0.1]:${p}/`),
    parse(`http://[::7f00:1]:${p}/`),
    parse(`http://[::ffff:0:127.0.0.1]:${p}/`),
    parse(`http://[64:ff9b::127.0.0.1]:${p}/`),
    parse(`http://[64:ff9b::7f00:1]:${p}/`),
    parse(`http://[2002:7f00:1::]:${p}/`),
    parse(`http://[2002:7f00:0001:0:0:0:0:1]:${p}/`),
    parse(`http://[::ffff:127.0.0.1%25lo]:${p}/`),
    parse(`http://[::1%25lo]:${p}/`),
    // Userinfo and other authority tricks.
    parse(`http://evil.example@127.0.0.1:${p}/`),
    parse(`http://user:pass@127.0.0.1:${p}/`),
    parse(`http://127.0.0.1:${p}@evil.example/`),
    parse(`http://evil.example%40127.0.0.1:${p}/`),
    parse(`http://127.0.0.1%00.attacker.test:${p}/`),
    parse(`http://127.0.0.1:${p}:80/`),
    // Unspecified addresses reach the local host on Linux.
    parse(`http://0.0.0.0:${p}/`),
    parse(`http://0:${p}/`),
    parse(`http://0x0:${p}/`),
    parse(`http://[::]:${p}/`),
    parse(`http://[::ffff:0.0.0.0]:${p}/`),
    // Local names.
    parse(`http://localhost:${p}/`),
    parse(`http://LOCALHOST:${p}/`),
    parse(`http://localhost.:${p}/`),
    parse(`http://foo.localhost:${p}/`),
    parse(`http://ⓛⓞⓒⓐⓛⓗⓞⓢⓣ:${p}/`),
    // Names whose DNS answer is the attack.
    connect(`http://loopback.attacker.test:${p}/`),
    connect(`https://loopback.attacker.test:${p}/`),
    connect(`http://loopback6.attacker.test:${p}/`),
    connect(`http://mapped.attacker.test:${p}/`),
    connect(`http://mixed.attacker.test:${p}/`),
    connect(`http://mixed-first.attacker.test:${p}/`),
    connect(`http://mixed6.attacker.test:${p}/`),
    connect(`http://mixed-family.attacker.test:${p}/`),
    connect(`http://lоcalhost.attacker.test:${p}/`),
    connect(`http://аррӏе.com:${p}/`),
    connect(`http://xn--80ak6aa92e.com:${p}/`),
    connect(`http://127.0.0.1.nip.attacker.test:${p}/`),
    connect('http://metadata.attacker.test/latest/meta-data/'),
    connect('http://private.attacker.test/'),
    connect('http://private172.attacker.test/'),
    connect('http://private192.attacker.test/'),
    connect('http://cgnat.attacker.test/'),
    connect('http://ula.attacker.test/'),
    connect('http://linklocal6.attacker.test/'),
    connect('http://nat64.attacker.test/'),
    connect('http://sixtofour.attacker.test/'),
    connect(`http://unspecified.attacker.test:${p}/`),
    connect('http://multicast.attacker.test/'),
    // Private ranges (RFC 1918, CGNAT, link-local), in several encodings.
    parse('http://10.0.0.1/'),
    parse('http://10.255.255.255/'),
    parse('http://167772161/'),
    parse('http://012.0.0.1/'),
    parse('http://0xa.0.0.1/'),
    parse('http://172.16.0.1/'),
    parse('http://172.31.255.254/'),
    parse('http://0xac100001/'),
    parse('http://192.168.0.1/'),
    parse('http://192.168.255.255/'),
    parse('http://3232235521/'),
    parse('http://0xc0.0xa8.0.1/'),
    parse('http://0300.0250.0.1/'),
    parse('http://192.168.1/'),
    parse('http://100.64.0.1/'),
    parse('http://100.127.255.254/'),
    parse('http://169.254.0.1/'),
    // Cloud metadata.
    parse('http://169.254.169.254/latest/meta-data/'),
    parse('https://169.254.169.254/'),
    parse('http://169.254.43518/'),
    parse('http://2852039166/'),
    parse('http://0xa9fea9fe/'),
    parse('http://0251.0376.0251.0376/'),
    parse('http://0xa9.0xfe.0xa9.0xfe/'),
    parse('http://169.254.170.2/v2/credentials'),
    parse('http://100.100.100.200/latest/meta-data/'),
    parse('http://[fd00:ec2::254]/latest/meta-data/'),
    parse('http://[::ffff:169.254.169.254]/'),
    parse('http://[::ffff:a9fe:a9fe]/'),
    parse('http://[64:ff9b::169.254.169.254]/'),
    parse('http://[2002:a9fe:a9fe::1]/'),
    parse('http://metadata.google.internal/computeMetadata/v1/'),
    parse('http://metadata.google.internal./computeMetadata/v1/'),
    parse('http://METADATA.GOOGLE.INTERNAL/'),
    parse('http://metadata.goog/'),
    parse('http://metadata/'),
    parse('http://instance-data/latest/meta-data/'),
    parse('http://instance-data.ec2.internal/'),
    // IPv4-mapped, NAT64 and 6to4 forms of private ranges.
    parse('http://[::ffff:10.0.0.1]/'),
    parse('http://[::ffff:192.168.0.1]/'),
    parse('http://[::ffff:c0a8:1]/'),
    parse('http://[::ffff:100.64.0.1]/'),
    parse('http://[64:ff9b::10.0.0.1]/'),
    parse('http://[64:ff9b::c0a8:1]/'),
    parse('http://[2002:a00:1::1]/'),
    parse('http://[2002:c0a8:1::1]/'),
    parse('http://[2002:ac10:1::]/'),
    parse('http://[::a00:1]/'),
    // IPv6 local, special and reserved ranges.
    parse('http://[fc00::1]/'),
    parse('http://[fd12:3456:789a::1]/'),
    parse('http://[fe80::1]/'),
    parse('http://[fe80::1%25eth0]/'),
    parse('http://[febf:ffff::1]/'),
    parse('http://[fec0::1]/'),
    parse('http://[ff02::1]/'),
    parse('http://[ff05::1:3]/'),
    parse('http://[2001:db8::1]/'),
    parse('http://[100::1]/'),
    parse('http://[64:ff9b:1::a00:1]/'),
    parse('http://[2001::1]/'),
    parse('http://[3fff::1]/'),
    // Multicast, broadcast, reserved and documentation IPv4.
    parse('http://224.0.0.1/'),
    parse('http://239.255.255.250/'),
    parse('http://240.0.0.1/'),
    parse('http://255.255.255.255/'),
    parse('http://4294967295/'),
    parse('http://192.0.0.1/'),
    parse('http://192.0.2.1/'),
    parse('http://198.51.100.7/'),
    parse('http://203.0.113.9/'),
    parse('http://198.18.0.1/'),
    parse('http://192.88.99.1/'),
    parse('http://0.1.2.3/'),
    // Names only an internal resolver knows.
    parse('http://intranet/'),
    parse('http://printer.local/'),
    parse('http://router.home.arpa/'),
    parse('http://db.internal/'),
    // Schemes other than http(s), and things that are not absolute URLs.
    parse('file:///etc/passwd'),
    parse('file://localhost/etc/passwd'),
    parse('ftp://example.com/'),
    parse(`ftp://127.0.0.1:${p}/`),
    parse(`gopher://127.0.0.1:${p}/_GET%20/`),
    parse(`dict://127.0.0.1:${p}/info`),
    parse('ldap://127.0.0.1/'),
    parse('sftp://example.com/'),
    parse('ws://example.com/'),
    parse('wss://example.com/'),
    parse('data:text/plain,hello'),
    parse('javascript:alert(1)'),
    parse('blob:https://example.com/0b2c4f3e'),
    parse('mailto:owner@example.com'),
    parse('about:blank'),
    parse('jar:http://example.com/x.jar!/'),
    parse(''),
    parse('http://'),
    parse(`//127.0.0.1:${p}/`),
    parse(`127.0.0.1:${p}`),
    parse(`localhost:${p}`),
  ];
}

/** Redirect targets the allow-listed test server points to; each must be refused. */
export function hostileRedirectTargets(port: number): string[] {
  return [
    `http://127.0.0.1:${port}/`,
    'http://169.254.169.254/latest/meta-data/',
    `http://[::ffff:127.0.0.1]:${port}/`,
    `http://2130706433:${port}/`,
    `http://localhost:${port}/`,
    `http://loopback.attacker.test:${port}/`,
    `http://mixed.attacker.test:${port}/`,
    'http://[fd00:ec2::254]/',
    'file:///etc/passwd',
    `gopher://127.0.0.1:${port}/`,
  ];
}
