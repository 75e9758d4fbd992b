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

export const compressSnapshotChunk = (bytes: Buffer): Promise<Buffer> => deflate(bytes, { level: 1, strategy: constants.Z_DEFAULT_STRATEGY });
export const decompressSnapshotChunk = (bytes: Buffer): Promise<Buffer> => inflate(bytes);
