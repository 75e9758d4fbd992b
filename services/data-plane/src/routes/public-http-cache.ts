import { createHash } from 'node:crypto';
import { sendRenderedJson } from '@raffle/service-kit';
import type { FastifyReply, FastifyRequest } from 'fastify';

// HTTP caching of the keyless /public/v1 documents (the draw proof, the allowlist): a strong ETag
// that changes with the body, a short max-age, 304s for a current copy, and refusals never stored.

/**
 * Every drawn raffle's proof, finalized or not: caches revalidate (cheaply, by ETag) after a
 * minute. A finalized proof used to be immutable for a year (decision 0013), but its winners can
 * still be disqualified and rerolled, which the proof now lists (issue 34): an immutable copy would
 * hide them from whoever fetched it first.
 */
export const PROOF_CACHE_CONTROL = 'public, max-age=60';

/** Refusals (404 before the draw, 429, 503) must not outlive the condition that caused them. */
export const ERROR_CACHE_CONTROL = 'no-store';

/** A strong validator: the same bytes give the same tag on every instance, and any change a new one. */
export const strongEtagOf = (body: string) => `"${createHash('sha256').update(body).digest('base64url')}"`;

const ENTITY_TAG = /(?:W\/)?"([^"]*)"/g;

/**
 * RFC 9110 §13.1.2: `If-None-Match` is `*` or a list of entity tags, compared weakly (a `W/`
 * prefix is ignored). True when the client's copy is current, so a 304 answers.
 */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  const opaque = etag.replace(/^W\//, '');
  for (const match of header.matchAll(ENTITY_TAG)) if (`"${match[1]}"` === opaque) return true;
  return false;
}

/**
 * The onSend hook of a cacheable public route: a refusal is not stored, and a 304 (which describes
 * the stored representation, RFC 9110 §15.4.5) carries no content type of its own.
 */
export async function publicCacheOnSend(_request: FastifyRequest, reply: FastifyReply, payload: unknown) {
  if (reply.statusCode >= 400) reply.header('cache-control', ERROR_CACHE_CONTROL);
  if (reply.statusCode === 304) reply.removeHeader('content-type');
  return payload;
}

/** Sends `json` with its ETag and `cacheControl`, or a bodiless 304 when `If-None-Match` names that ETag. */
export function sendCacheableJson(request: FastifyRequest, reply: FastifyReply, json: string, cacheControl: string) {
  const etag = strongEtagOf(json);
  reply.header('etag', etag).header('cache-control', cacheControl);
  // send() with no payload, not send(null): the 304 schema would serialize null to `null`, and
  // its `content-length: 4` makes a Node fetch keep the connection (and the script) for ~74 s.
  if (ifNoneMatchHits(request.headers['if-none-match'], etag)) return reply.code(304).send();
  return sendRenderedJson(reply, json);
}
