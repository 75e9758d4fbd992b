import { isIPv4, isIPv6 } from 'node:net';

/** An IP address as bytes (4 or 16), so ranges compare by value whatever the spelling. */
export type IpBytes = Uint8Array;
export type Cidr = { bytes: IpBytes; prefix: number };

/** Parses a canonical IPv4 or IPv6 literal (brackets and a zone id tolerated); null for anything else. */
export function parseIp(text: string): IpBytes | null {
  let value = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  const zone = value.indexOf('%');
  if (zone !== -1) value = value.slice(0, zone);
  if (isIPv4(value)) return Uint8Array.from(value.split('.').map(Number));
  if (isIPv6(value)) return parseIpv6(value);
  return null;
}

function parseIpv6(value: string): IpBytes {
  const bytes = new Uint8Array(16);
  const [head = '', tail] = value.split('::') as [string, string | undefined];
  const groupsOf = (part: string): number[] => {
    if (part === '') return [];
    const out: number[] = [];
    for (const piece of part.split(':')) {
      if (piece.includes('.')) {
        // A dotted IPv4 tail (::ffff:127.0.0.1) fills the last two groups.
        const [a = 0, b = 0, c = 0, d = 0] = piece.split('.').map(Number);
        out.push((a << 8) | b, (c << 8) | d);
      } else {
        out.push(parseInt(piece, 16));
      }
    }
    return out;
  };
  const front = groupsOf(head);
  const back = tail === undefined ? [] : groupsOf(tail);
  const groups = [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
  groups.forEach((group, i) => {
    bytes[i * 2] = group >> 8;
    bytes[i * 2 + 1] = group & 0xff;
  });
  return bytes;
}

export function parseCidr(text: string): Cidr | null {
  const slash = text.lastIndexOf('/');
  if (slash === -1) return null;
  const bytes = parseIp(text.slice(0, slash));
  const prefixText = text.slice(slash + 1);
  if (!bytes || !/^\d{1,3}$/.test(prefixText)) return null;
  const prefix = Number(prefixText);
  return prefix <= bytes.length * 8 ? { bytes, prefix } : null;
}

/** Parses a CIDR written in this package's own tables; a typo there is a bug, so it throws. */
export function cidr(text: string): Cidr {
  const parsed = parseCidr(text);
  if (!parsed) throw new Error(`bad CIDR ${text}`);
  return parsed;
}

export function inCidr(address: IpBytes, range: Cidr): boolean {
  if (address.length !== range.bytes.length) return false;
  let bits = range.prefix;
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if (((address[i] ?? 0) & mask) !== ((range.bytes[i] ?? 0) & mask)) return false;
  }
  return true;
}

/** IPv6 forms that carry an IPv4 address the packet really goes to; the IPv4 rules must judge them. */
const IPV4_CARRIERS: readonly Cidr[] = [
  cidr('::ffff:0:0/96'), // IPv4-mapped
  cidr('::/96'), // IPv4-compatible (deprecated, still routed by some stacks)
  cidr('::ffff:0:0:0/96'), // SIIT IPv4-translated
  cidr('64:ff9b::/96'), // NAT64 well-known prefix
];

/** The IPv4 address an IPv6 address stands for, or null; `::` and `::1` are not IPv4 in disguise. */
export function embeddedIpv4(address: IpBytes): IpBytes | null {
  if (address.length !== 16) return null;
  if (address.subarray(0, 15).every((b) => b === 0) && (address[15] ?? 0) <= 1) return null;
  return IPV4_CARRIERS.some((range) => inCidr(address, range)) ? address.slice(12) : null;
}

export function sameIp(a: IpBytes, b: IpBytes): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}
