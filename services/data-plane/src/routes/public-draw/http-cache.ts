import { createHash } from 'node:crypto';

/**
 * A finalized raffle's proof never changes again (decision 0013): caches may keep it for a year
 * without asking.
 */
export const FINALIZED_CACHE_CONTROL = 'public, max-age=31536000, immutable';

/**
 * Drawn but not finalized: the proof is already fixed by the draw, but the raffle is still being
 * worked on, so caches revalidate (cheaply, by ETag) after a minute rather than pin it for a year.
 */
export const DRAWN_CACHE_CONTROL = 'public, max-age=60';

/** Refusals (404 before the draw, 429, 503) must not outlive the condition that caused them. */
export const ERROR_CACHE_CONTROL = 'no-store';

export const cacheControlFor = (raffleStatus: string) => (raffleStatus === 'finalized' ? FINALIZED_CACHE_CONTROL : DRAWN_CACHE_CONTROL);

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
