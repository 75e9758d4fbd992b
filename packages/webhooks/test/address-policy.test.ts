import { describe, expect, it } from 'vitest';
import { classifyAddress, parseAllowedHosts, type AddressClass } from '../src/index.js';

const table: Array<[string, AddressClass]> = [
  ['8.8.8.8', 'public'],
  ['93.184.216.34', 'public'],
  ['172.32.0.1', 'public'],
  ['100.128.0.1', 'public'],
  ['2606:4700:4700::1111', 'public'],
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['::1', 'loopback'],
  ['[::1]', 'loopback'],
  ['::ffff:127.0.0.1', 'loopback'],
  ['::ffff:7f00:1', 'loopback'],
  ['::127.0.0.1', 'loopback'],
  ['::ffff:0:127.0.0.1', 'loopback'],
  ['64:ff9b::7f00:1', 'loopback'],
  ['10.1.2.3', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['192.168.1.1', 'private'],
  ['fc00::1', 'private'],
  ['fd12:3456::1', 'private'],
  ['::ffff:10.0.0.1', 'private'],
  ['169.254.1.1', 'link-local'],
  ['fe80::1', 'link-local'],
  ['fe80::1%eth0', 'link-local'],
  ['100.64.0.1', 'cgnat'],
  ['100.127.255.255', 'cgnat'],
  ['169.254.169.254', 'metadata'],
  ['::ffff:169.254.169.254', 'metadata'],
  ['64:ff9b::a9fe:a9fe', 'metadata'],
  ['fd00:ec2::254', 'metadata'],
  ['100.100.100.200', 'metadata'],
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'unspecified'],
  ['::', 'unspecified'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['ff02::1', 'multicast'],
  ['240.0.0.1', 'reserved'],
  ['255.255.255.255', 'reserved'],
  ['192.0.0.8', 'reserved'],
  ['192.0.2.1', 'reserved'],
  ['198.18.0.1', 'reserved'],
  ['198.51.100.7', 'reserved'],
  ['203.0.113.9', 'reserved'],
  ['2001:db8::1', 'reserved'],
  ['2002:7f00:1::1', 'reserved'],
  ['4000::1', 'reserved'],
  ['not-an-ip', 'reserved'],
];

describe('classifyAddress', () => {
  it.each(table)('%s is %s', (ip, expected) => {
    expect(classifyAddress(ip)).toBe(expected);
  });
});

describe('parseAllowedHosts', () => {
  it('splits the comma-separated env value, trims, lower-cases and drops brackets', () => {
    expect(parseAllowedHosts(' 127.0.0.1, LocalHost ,[::1],,10.0.0.0/8 ')).toEqual(['127.0.0.1', 'localhost', '::1', '10.0.0.0/8']);
    expect(parseAllowedHosts(undefined)).toEqual([]);
    expect(parseAllowedHosts('')).toEqual([]);
  });
});
