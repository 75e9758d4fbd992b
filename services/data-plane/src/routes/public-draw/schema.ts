import { DrawProofSchema } from '@raffle/contracts';
import { Type } from '@sinclair/typebox';
import { SlugParams } from '../responses.js';
import { PublicCacheableHeaders, publicCacheableResponses } from '../public-responses.js';

export const publicDrawProofSchema = {
  operationId: 'getPublicDrawProof',
  tags: ['Public'],
  summary: 'The proof of a drawn public or unlisted raffle, for anyone to verify, without an API key',
  description:
    'The same body as `GET /api/v1/raffles/{slug}/draw`, with no key: a provably fair draw is worth what strangers can check. ' +
    'Served for `public` and `unlisted` raffles once a `raffle`-mechanic raffle is drawn; 404 `RAFFLE_NOT_FOUND` for private, draft, ' +
    'cancelled and unknown raffles alike, 404 `DRAW_NOT_AVAILABLE` before the draw and for other mechanics. An `Authorization` or ' +
    '`X-API-Key` header is ignored. Rate-limited per client IP (the `public` policy). Cacheable: a strong `ETag` (send it as ' +
    '`If-None-Match` for a 304) that changes when a winner is disqualified or rerolled (the proof lists them, with times), and ' +
    '`Cache-Control: public, max-age=60`. Check the proof with `verifyDraw(proof)` from `@raffle/sdk` or the `raffle-verify-draw` command. ' +
    'CORS: a page on any origin may fetch it from the browser (`Access-Control-Allow-Origin: *`, no credentials; `ETag`, `RateLimit`, ' +
    '`RateLimit-Policy`, `Retry-After` and `X-Request-Id` exposed; errors too); a preflight `OPTIONS` is answered 204 allowing `GET`, `HEAD` ' +
    'and the `If-None-Match` and `X-Request-Id` headers, for a day. The keyed `/api/v1` routes send no CORS headers.',
  security: [],
  'x-error-codes': ['RAFFLE_NOT_FOUND', 'DRAW_NOT_AVAILABLE'],
  params: SlugParams,
  headers: PublicCacheableHeaders,
  response: publicCacheableResponses({
    ok: Type.Ref(DrawProofSchema),
    okDescription: 'The draw proof: commitment, revealed seed, frozen entries and the draw\'s winners.',
    cacheControl:
      '`public, max-age=60`, finalized or not: a winner disqualified or rerolled, even after finalization, is listed on the proof and so changes its body and `ETag`.',
    badRequest: 'The slug is not valid (empty, longer than 128 characters, or with control characters).',
    notFound: '`RAFFLE_NOT_FOUND`: no public or unlisted published raffle has this slug. `DRAW_NOT_AVAILABLE`: it has not been drawn, or it is not a weighted draw.',
  }),
};
