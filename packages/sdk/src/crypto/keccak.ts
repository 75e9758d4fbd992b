import { keccak_256 } from '@noble/hashes/sha3.js';

/**
 * Keccak-256 (Ethereum's, not NIST SHA3-256) from @noble/hashes: pure JavaScript, so the same in
 * Node and browsers, and the very copy @noble/curves already depends on (same pinned version), so
 * declaring it adds no code to a consumer's install. node:crypto has no keccak-256 to prefer.
 */
export const keccak256 = (data: Uint8Array): Uint8Array => keccak_256(data);
