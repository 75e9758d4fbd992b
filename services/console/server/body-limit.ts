import { Transform, type Readable } from 'node:stream';

/** Thrown into the upload when a body without a Content-Length grows past the limit. */
export class BodyTooLargeError extends Error {
  readonly code = 'BODY_TOO_LARGE';

  constructor(readonly limitBytes: number) {
    super(`request body larger than ${limitBytes} bytes`);
  }
}

/** A declared Content-Length past the limit: refused before a byte is read or sent upstream. */
export function declaresTooLarge(contentLength: string | undefined, limitBytes: number): boolean {
  return contentLength !== undefined && Number(contentLength) > limitBytes;
}

/**
 * The body as a stream that fails with BodyTooLargeError once more than `limitBytes` passed
 * (a chunked upload says nothing of its size up front). Streaming keeps the console from buffering
 * uploads; the limit keeps it from pushing into an upstream that already answered 413 and closed,
 * which surfaced as a 502 (EPIPE) instead of the 413 (issue 23).
 */
export function limitedBody(body: Readable, limitBytes: number): Readable {
  let seen = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen > limitBytes) done(new BodyTooLargeError(limitBytes));
      else done(null, chunk);
    },
  });
  body.on('error', (error) => counter.destroy(error));
  return body.pipe(counter);
}
