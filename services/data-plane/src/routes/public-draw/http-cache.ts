import { createHash } from 'node:crypto';

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
