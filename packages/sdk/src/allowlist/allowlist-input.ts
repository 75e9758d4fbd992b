import { fromHex, toHex, utf8Encode } from '../crypto/encoding.js';
import { keccak256 } from '../crypto/keccak.js';

/**
 * The checks on what a caller hands the allowlist proof check. Malformed input throws a TypeError
 * naming the field: a typo must not read as "not on the allowlist" (nor, worse, as a member).
 */

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const BYTES32 = /^0x[0-9a-fA-F]{64}$/;
const DECIMAL = /^(0|[1-9][0-9]*)$/;
const UINT256_MAX = (1n << 256n) - 1n;

/** A quantity as the SDK accepts it: a bigint, a safe integer, or a decimal string. */
export type AllowlistQuantity = bigint | number | string;

/** EIP-55: each hex letter is uppercase when the matching nibble of keccak256(lowercase hex) is ≥ 8. */
function isChecksummed(hex40: string): boolean {
  const lower = hex40.toLowerCase();
  const hash = toHex(keccak256(utf8Encode(lower)));
  for (let i = 0; i < 40; i++) {
    const char = hex40[i]!;
    if (char === lower[i] && char >= '0' && char <= '9') continue;
    const upper = Number.parseInt(hash[i]!, 16) >= 8;
    if (upper !== (char !== lower[i])) return false;
  }
  return true;
}

/**
 * The 20 bytes of an address given in any case. A single-case address carries no checksum; a
 * mixed-case one does (EIP-55), and a wrong one is a typo, so it is refused rather than read.
 */
export function addressBytes(address: unknown): Uint8Array {
  if (typeof address !== 'string' || !ADDRESS.test(address)) throw new TypeError('address must be 0x followed by 40 hex digits');
  const hex = address.slice(2);
  const singleCase = hex === hex.toLowerCase() || hex === hex.toUpperCase();
  if (!singleCase && !isChecksummed(hex)) throw new TypeError(`address ${address} has a mixed case that is not its EIP-55 checksum`);
  return fromHex(hex);
}

/** A uint256 from a bigint, a non-negative safe integer or a decimal string of digits only. */
export function quantityValue(quantity: unknown): bigint {
  let value: bigint;
  if (typeof quantity === 'bigint') value = quantity;
  else if (typeof quantity === 'number' && Number.isSafeInteger(quantity)) value = BigInt(quantity);
  else if (typeof quantity === 'string' && DECIMAL.test(quantity)) value = BigInt(quantity);
  else throw new TypeError('quantity must be a bigint, a safe integer or a decimal string');
  if (value < 0n || value > UINT256_MAX) throw new TypeError('quantity must be between 0 and 2^256 - 1');
  return value;
}

/** A 32-byte hash written as 0x and 64 hex digits (either case). */
export function bytes32(value: unknown, field: string): Uint8Array {
  if (typeof value !== 'string' || !BYTES32.test(value)) throw new TypeError(`${field} must be 0x followed by 64 hex digits`);
  return fromHex(value.slice(2));
}
