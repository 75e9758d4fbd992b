export { ALLOWLIST_LEAF_ENCODING, allowlistLeafHash, verifyAllowlistProof, type AllowlistProofInput, type AllowlistQuantity } from './allowlist-proof.js';
export { allowlistRoot, EMPTY_ALLOWLIST_ROOT } from './allowlist-tree.js';
export { checkAllowlistVersion, winnersHoldingAt, type AllowlistCheck, type AllowlistCheckInput } from './allowlist-check.js';
export { fetchPublicAllowlist, publicAllowlistLeaves, type PublicAllowlistOptions } from './public-allowlist.js';
