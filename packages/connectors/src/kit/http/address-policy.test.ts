import { describe, expect, it } from 'vitest';
import { checkAddress, parseIp } from './address-policy.ts';

describe('checkAddress', () => {
  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.215.14',
    '172.15.255.255',
    '172.32.0.0',
    '100.63.255.255',
    '100.128.0.0',
    '169.253.255.255',
    '169.255.0.0',
    '192.167.255.255',
    '192.169.0.0',
    '198.17.255.255',
    '198.20.0.0',
    '223.255.255.255',
    '2606:4700:4700::1111',
    '2a00:1450:4001:80b::200e',
    '::ffff:8.8.8.8',
    '::ffff:808:808',
    '64:ff9b::8.8.8.8',
    '2002:808:808::1',
    '[2606:4700::1111]',
  ])('allows the public address %s', (ip) => {
    expect(checkAddress(ip)).toEqual({ allowed: true });
  });

  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.255', 'loopback'],
    ['10.0.0.0', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.0', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.0.0', 'private'],
    ['192.168.255.255', 'private'],
    ['100.64.0.0', 'CGNAT'],
    ['100.127.255.255', 'CGNAT'],
    ['169.254.0.1', 'link-local'],
    ['169.254.169.254', 'metadata'],
    ['169.254.170.2', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['0.0.0.0', 'unspecified'],
    ['0.255.255.255', 'this network'],
    ['255.255.255.255', 'broadcast'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.255', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.0.8', 'IETF'],
    ['192.0.2.1', 'documentation'],
    ['198.51.100.1', 'documentation'],
    ['203.0.113.1', 'documentation'],
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.255', 'benchmarking'],
    ['192.88.99.1', '6to4'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['::ffff:127.0.0.1', 'IPv4-mapped IPv6 address of a loopback'],
    ['::ffff:7f00:1', 'IPv4-mapped IPv6 address of a loopback'],
    ['::ffff:a9fe:a9fe', 'IPv4-mapped IPv6 address of a cloud metadata'],
    ['::ffff:0:7f00:1', 'IPv4-translated'],
    ['::127.0.0.1', 'IPv4-compatible'],
    ['::8.8.8.8', 'IPv4-compatible'],
    ['64:ff9b::7f00:1', 'NAT64 address of a loopback'],
    ['64:ff9b::a00:1', 'NAT64 address of a private'],
    ['64:ff9b:1::1', 'local-use NAT64'],
    ['2002:7f00:1::', '6to4 address of a loopback'],
    ['2002:c0a8:101::1', '6to4 address of a private'],
    ['fc00::1', 'unique-local'],
    ['fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'unique-local'],
    ['fd00:ec2::254', 'metadata'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf::1', 'link-local'],
    ['fec0::1', 'site-local'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['3fff::1', 'documentation'],
    ['2001::1', 'Teredo'],
    ['2001:2::1', 'IETF'],
    ['100::1', 'discard'],
    ['5f00::1', 'segment routing'],
    ['4000::1', 'not a global unicast'],
    ['1::1', 'not a global unicast'],
  ])('refuses %s (%s)', (ip, reason) => {
    const verdict = checkAddress(ip);
    expect(verdict.allowed).toBe(false);
    expect(verdict.reason).toContain(reason);
  });

  it.each([
    '',
    'localhost',
    '0177.0.0.1',
    '0x7f.0.0.1',
    '127.1',
    '2130706433',
    '010.0.0.1',
    '256.0.0.1',
    '1.2.3.4.5',
    '1.2.3',
    '1:2:3:4:5:6:7:8:9',
    '1::2::3',
    ':::1',
    '::1:2:3:4:5:6:7:8',
    '12345::1',
    'g::1',
    '::ffff:127.0.0.256',
  ])('refuses %j as not an IP address (fails closed)', (text) => {
    expect(checkAddress(text)).toEqual({ allowed: false, reason: 'not an IP address' });
  });
});

describe('parseIp', () => {
  it('reads compressed, full and dotted-tail IPv6 to the same bytes', () => {
    const expected = parseIp('0:0:0:0:0:ffff:7f00:1')?.bytes;
    expect(parseIp('::ffff:7f00:1')?.bytes).toEqual(expected);
    expect(parseIp('::ffff:127.0.0.1')?.bytes).toEqual(expected);
    expect(parseIp('[::FFFF:7F00:1]')?.bytes).toEqual(expected);
  });

  it('reads IPv4', () => {
    expect(parseIp('192.0.2.1')).toEqual({ family: 4, bytes: new Uint8Array([192, 0, 2, 1]) });
  });
});
