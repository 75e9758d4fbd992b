export { ALLOWLIST_LEAF_ENCODING, allowlistLeafHash, verifyAllowlistProof, type AllowlistProofInput, type AllowlistQuantity } from './allowlist-proof.js';
