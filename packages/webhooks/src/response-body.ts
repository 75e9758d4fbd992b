/** Reads at most `limit` bytes of a response body, then destroys the stream so the rest is never downloaded. */
export async function readBodyPrefix(body: AsyncIterable<Uint8Array> & { destroy(): unknown }, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      chunks.push(Buffer.from(chunk.buffer, chunk.byteOffset, Math.min(chunk.byteLength, limit - size)));
      size += Math.min(chunk.byteLength, limit - size);
      if (size >= limit) break;
    }
  } catch {
    // A body cut short (timeout, reset) still tells the user what the endpoint started to say.
  } finally {
    body.destroy();
  }
  return Buffer.concat(chunks, size);
}

/**
 * Text of at most `limit` UTF-8 bytes: a character cut at the limit is dropped, invalid bytes become
 * U+FFFD, and NUL is removed because Postgres text cannot store it.
 */
export function truncateUtf8(bytes: Buffer, limit: number): string {
  let text = dropPartialTail(bytes.subarray(0, limit)).toString('utf8').replaceAll('\u0000', '');
  // Each invalid byte decodes to a 3-byte U+FFFD, so binary bodies can grow; cut again, now valid UTF-8.
  if (Buffer.byteLength(text) > limit) text = dropPartialTail(Buffer.from(text).subarray(0, limit)).toString('utf8');
  return text;
}

function dropPartialTail(bytes: Buffer): Buffer {
  // Walk back over continuation bytes (10xxxxxx) to the lead byte of the last character.
  let start = bytes.length - 1;
  while (start >= 0 && start > bytes.length - 4 && ((bytes[start] ?? 0) & 0xc0) === 0x80) start--;
  if (start < 0) return bytes;
  const lead = bytes[start] ?? 0;
  const needed = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return bytes.length - start < needed ? bytes.subarray(0, start) : bytes;
}
