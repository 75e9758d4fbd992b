import { DrawProofSchema, ErrorBodySchema } from '@raffle/contracts';
import { unavailableResponse } from '@raffle/service-kit';
import { Type, type TSchema } from '@sinclair/typebox';
import { RoutedReadHeaders, SlugParams } from '../responses.js';

const errorBody = () => Type.Ref(ErrorBodySchema);

/** The validators a cache or a verifier needs, documented on both the 200 and the 304. */
const CACHE_HEADERS = {
  ETag: {
    type: 'string',
    description: 'Strong entity tag of the proof body (sha256, base64url, quoted). Send it back in `If-None-Match` to get a 304 while the proof is unchanged.',
  },
  'Cache-Control': {
    type: 'string',
    description:
      '`public, max-age=60`, finalized or not: a winner disqualified or rerolled, even after finalization, is listed on the proof and so changes its body and `ETag`.',
  },
} as const;

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
  headers: Type.Object({
    ...RoutedReadHeaders.properties,
    'if-none-match': Type.Optional(Type.String({ description: 'An `ETag` of this proof seen before: answered 304 with no body while it still matches.' })),
  }),
  // Typed as plain schemas: the spread refs carry TypeBox's symbol keys, which declaration emit cannot name.
  response: {
    200: {
      ...Type.Ref(DrawProofSchema),
      description: 'The draw proof: commitment, revealed seed, frozen entries and the draw\'s winners.',
      headers: { ...CACHE_HEADERS, 'Raffle-Staleness-Ms': { type: 'integer' } },
    },
    304: Type.Null({ description: 'Not modified: the `If-None-Match` tag is still the proof\'s `ETag`; no body.', headers: CACHE_HEADERS }),
    400: { ...errorBody(), description: 'The slug is not valid (empty, longer than 128 characters, or with control characters).' },
    404: { ...errorBody(), description: '`RAFFLE_NOT_FOUND`: no public or unlisted published raffle has this slug. `DRAW_NOT_AVAILABLE`: it has not been drawn, or it is not a weighted draw.' },
    429: errorBody(),
    500: { ...errorBody(), description: 'An unexpected failure; nothing is leaked.' },
    503: unavailableResponse(errorBody()),
  } as Record<number, TSchema>,
};
