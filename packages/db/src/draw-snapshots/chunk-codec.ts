import { promisify } from 'node:util';
import { constants, deflateRaw, inflateRaw } from 'node:zlib';

/**
 * How a snapshot chunk's bytes are compressed: raw deflate at level 1. zlib's async functions run
 * in libuv's thread pool, so the draw compresses on the other core while the main thread ranks;
 * level 1 because canonical lines (ids sharing their time prefix) compress to about half even
 * there, and higher levels cost several times the CPU for a few percent. brotli was tried and
 * rejected (decision 0030): far slower for the same size.
 */
const deflate = promisify(deflateRaw);
const inflate = promisify(inflateRaw);

/**
 * Output space for a whole chunk at once: with zlib's default 16 KB, each chunk went back and forth
 * between the thread pool and the main thread dozens of times (processCallback was 11% of a
 * million-entry draw's main-thread CPU).
 */
const WHOLE_CHUNK = 2 << 20;

export const compressSnapshotChunk = (bytes: Buffer): Promise<Buffer> =>
  deflate(bytes, { level: 1, strategy: constants.Z_DEFAULT_STRATEGY, chunkSize: Math.max(WHOLE_CHUNK, bytes.length + 1024) });
export const decompressSnapshotChunk = (bytes: Buffer): Promise<Buffer> => inflate(bytes, { chunkSize: WHOLE_CHUNK });
