import { cidr, embeddedIpv4, inCidr, parseCidr, parseIp, sameIp, type Cidr, type IpBytes } from './ip-address.js';

/**
 * allowedHosts: hostnames, IPs or CIDRs exempt from the private-address rule (local development and
 * tests: "127.0.0.1", "localhost", "::1"). A name exempts that name whatever it resolves to; an IP or
 * CIDR exempts those addresses whichever name led to them.
 */
export type AddressPolicy = { allowHttp: boolean; allowedHosts: readonly string[] };

export type AddressClass = 'public' | 'loopback' | 'private' | 'link-local' | 'cgnat' | 'metadata' | 'unspecified' | 'multicast' | 'reserved';

/** The comma-separated env value, trimmed and lower-cased, IPv6 brackets dropped. */
export function parseAllowedHosts(value: string | undefined): string[] {
  if (!value) return [];
  return value
    .split(',')
    .map((entry) => normalizeHostname(entry.trim()))
    .filter((entry) => entry.length > 0);
}

/** Lower case, no IPv6 brackets, no trailing root dot: the form names are compared in. */
export function normalizeHostname(hostname: string): string {
  let host = hostname.toLowerCase();
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  return host.endsWith('.') ? host.slice(0, -1) : host;
}

/** Order matters: the narrow metadata addresses sit inside link-local, CGNAT and unique-local ranges. */
const IPV4_RANGES: ReadonlyArray<readonly [Cidr, AddressClass]> = [
  [cidr('169.254.169.254/32'), 'metadata'], // AWS, GCP, Azure, OpenStack
  [cidr('100.100.100.200/32'), 'metadata'], // Alibaba Cloud
  [cidr('168.63.129.16/32'), 'metadata'], // Azure WireServer: public-looking, host-internal
  [cidr('0.0.0.0/8'), 'unspecified'],
  [cidr('127.0.0.0/8'), 'loopback'],
  [cidr('10.0.0.0/8'), 'private'],
  [cidr('172.16.0.0/12'), 'private'],
  [cidr('192.168.0.0/16'), 'private'],
  [cidr('169.254.0.0/16'), 'link-local'],
  [cidr('100.64.0.0/10'), 'cgnat'],
  [cidr('224.0.0.0/4'), 'multicast'],
  [cidr('240.0.0.0/4'), 'reserved'], // includes 255.255.255.255
  [cidr('192.0.0.0/24'), 'reserved'],
  [cidr('192.0.2.0/24'), 'reserved'],
  [cidr('192.88.99.0/24'), 'reserved'],
  [cidr('198.18.0.0/15'), 'reserved'],
  [cidr('198.51.100.0/24'), 'reserved'],
  [cidr('203.0.113.0/24'), 'reserved'],
];

const IPV6_RANGES: ReadonlyArray<readonly [Cidr, AddressClass]> = [
  [cidr('fd00:ec2::254/128'), 'metadata'], // AWS IMDS over IPv6
  [cidr('fc00::/7'), 'private'],
  [cidr('fec0::/10'), 'private'], // deprecated site-local, still honoured by some stacks
  [cidr('64:ff9b:1::/48'), 'private'], // local-use NAT64
  [cidr('fe80::/10'), 'link-local'],
  [cidr('ff00::/8'), 'multicast'],
  [cidr('2001:db8::/32'), 'reserved'],
  [cidr('3fff::/20'), 'reserved'],
  [cidr('100::/64'), 'reserved'],
  [cidr('2001::/23'), 'reserved'], // Teredo and other IETF assignments: tunnels to addresses we cannot judge
  [cidr('2002::/16'), 'reserved'], // 6to4, same reason
];

const IPV6_GLOBAL_UNICAST = cidr('2000::/3');

/** Judges an IP literal; anything that is not one is 'reserved' so callers fail closed. */
export function classifyAddress(ip: string): AddressClass {
  const address = parseIp(ip);
  if (!address) return 'reserved';
  return classifyBytes(address);
}

function classifyBytes(address: IpBytes): AddressClass {
  if (address.length === 4) return lookupClass(address, IPV4_RANGES) ?? 'public';
  if (address.every((b) => b === 0)) return 'unspecified';
  if (address.subarray(0, 15).every((b) => b === 0) && address[15] === 1) return 'loopback';
  const ipv4 = embeddedIpv4(address);
  if (ipv4) return classifyBytes(ipv4);
  const known = lookupClass(address, IPV6_RANGES);
  if (known) return known;
  // Only 2000::/3 is allocated for global unicast; everything else has no business being an endpoint.
  return inCidr(address, IPV6_GLOBAL_UNICAST) ? 'public' : 'reserved';
}

function lookupClass(address: IpBytes, ranges: ReadonlyArray<readonly [Cidr, AddressClass]>): AddressClass | undefined {
  return ranges.find(([range]) => inCidr(address, range))?.[1];
}

/** Whether allowedHosts lists this hostname itself (not an address). */
export function isAllowedHostname(hostname: string, policy: AddressPolicy): boolean {
  const host = normalizeHostname(hostname);
  return policy.allowedHosts.some((entry) => normalizeHostname(entry) === host);
}

/** Whether allowedHosts lists this address, as an IP (any spelling, mapped forms included) or inside a CIDR. */
export function isAllowedAddress(ip: string, policy: AddressPolicy): boolean {
  const raw = parseIp(ip);
  if (!raw) return false;
  const forms = [raw, embeddedIpv4(raw)].filter((form): form is IpBytes => form !== null);
  return policy.allowedHosts.some((entry) => {
    const host = normalizeHostname(entry);
    const range = parseCidr(host);
    if (range) return forms.some((form) => inCidr(form, range));
    const listed = parseIp(host);
    if (!listed) return false;
    const listedForms = [listed, embeddedIpv4(listed)].filter((form): form is IpBytes => form !== null);
    return forms.some((form) => listedForms.some((other) => sameIp(form, other)));
  });
}

/** Why an address may not be used, or null when it may (public, or exempted by the policy). */
export function addressRefusal(ip: string, policy: AddressPolicy): AddressClass | null {
  if (isAllowedAddress(ip, policy)) return null;
  const kind = classifyAddress(ip);
  return kind === 'public' ? null : kind;
}
