export { DRAW_ALGORITHM, drawCommitment, drawKey, entriesDigest, rankEntries, type DrawEntry } from './weighted-draw.js';
export { verifyDraw, type DrawProof, type DrawVerification } from './verify-draw.js';
