import { createHash } from 'node:crypto';
import { compressSnapshotChunk } from '@raffle/db';

/** Bytes of canonical lines per stored chunk before compression: a handful of rows for a million entries. */
const CHUNK_BYTES = 1 << 20;

/**
 * Cuts the canonical lines a draw streams into the snapshot's chunks (decision 0030) as they go
 * past: every byte is hashed into the digest, and each megabyte is compressed on the thread pool
 * while the main thread goes on ranking. What is stored is therefore exactly what was hashed.
 */
export class SnapshotChunker {
  private readonly hash = createHash('sha256');
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private readonly compressed: Promise<Buffer>[] = [];

  add(bytes: Buffer): void {
    this.pending.push(bytes);
    this.pendingBytes += bytes.length;
    if (this.pendingBytes >= CHUNK_BYTES) this.flush();
  }

  /** The sha256 (hex) of every byte added, and the compressed chunks in order. */
  async finish(): Promise<{ digest: string; chunks: Buffer[] }> {
    this.flush();
    return { digest: this.hash.digest('hex'), chunks: await Promise.all(this.compressed) };
  }

  private flush(): void {
    if (this.pendingBytes === 0) return;
    const chunk = Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    this.hash.update(chunk);
    const compressing = compressSnapshotChunk(chunk);
    // Awaited all together in finish(); until then a failure must not count as unhandled.
    compressing.catch(() => {});
    this.compressed.push(compressing);
  }
}
