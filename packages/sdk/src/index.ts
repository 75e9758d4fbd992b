export { DRAW_ALGORITHM, drawCommitment, drawKey, drawOrder, entriesDigest, entryLine, parseEntryLines, rankEntries, type DrawEntry } from './weighted-draw.js';
export { verifyDraw, type DrawProof, type DrawVerification } from './verify-draw.js';
