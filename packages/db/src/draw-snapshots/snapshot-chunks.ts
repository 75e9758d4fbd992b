import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { rawTransactionOf, type DbOrTx, type SqlOrTx } from '../client.js';
import { binaryCopyRows, parseBinaryCopyBytea } from './binary-copy.js';
import { decompressSnapshotChunk } from './chunk-codec.js';
import { copyIdLiteral } from './copy-literal.js';

/** Writes a draw's compressed chunks, `seq` 0, 1, … in order, in one binary COPY. */
export async function copySnapshotChunks(tx: DbOrTx, raffleId: string, chunks: readonly Buffer[]): Promise<void> {
  if (chunks.length === 0) return;
  const writable = await rawTransactionOf(tx).unsafe('copy raffle_draw_snapshot_chunks (raffle_id, seq, bytes) from stdin (format binary)').writable();
  await pipeline(Readable.from(binaryCopyRows(chunks.map((bytes, seq) => [raffleId, seq, bytes] as const))), writable);
}

/**
 * Every byte of a COPY … TO STDOUT stream. Read in flowing mode ('data'), never with an async
 * iterator: postgres.js pauses the connection's socket whenever a push finds the stream's buffer
 * full, and resumes it only when the stream asks for more; if that happens on the last row the
 * stream ends without asking, and the pooled connection hangs on its next query.
 */
function collect(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  return new Promise((resolve, reject) => {
    stream.on('data', (part: Buffer) => parts.push(part));
    stream.once('end', () => resolve(Buffer.concat(parts)));
    stream.once('error', reject);
  });
}

/**
 * A chunked snapshot's canonical lines, inflated and joined in order: byte for byte what the
 * draw hashed. Read with binary COPY (a bytea column would come as hex); the chunks inflate in
 * parallel on the thread pool. '' when the raffle has no chunks (an empty eligible set).
 */
export async function readSnapshotChunkLines(sql: SqlOrTx, raffleId: string): Promise<string> {
  const query = `copy (select bytes from raffle_draw_snapshot_chunks where raffle_id = ${copyIdLiteral(raffleId)} order by seq) to stdout (format binary)`;
  const data = await collect((await sql.unsafe(query).readable()) as Readable);
  const lines = await Promise.all(parseBinaryCopyBytea(data).map(decompressSnapshotChunk));
  return Buffer.concat(lines).toString('utf8');
}
