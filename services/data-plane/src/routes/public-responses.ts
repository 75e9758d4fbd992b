import { ErrorBodySchema } from '@raffle/contracts';
import { unavailableResponse } from '@raffle/service-kit';
import { Type, type TSchema } from '@sinclair/typebox';
import { RoutedReadHeaders } from './responses.js';

// The documented answers of a cacheable keyless /public/v1 document (public-http-cache.ts): the
// validators on the 200 and the 304, and the refusals a caller without a key can meet.

const errorBody = () => Type.Ref(ErrorBodySchema);

/** The request headers: a write's read-after token, and the tag of a copy seen before. */
export const PublicCacheableHeaders = Type.Object({
  ...RoutedReadHeaders.properties,
  'if-none-match': Type.Optional(Type.String({ description: 'An `ETag` of this document seen before: answered 304 with no body while it still matches.' })),
});

export type PublicCacheableAnswers = {
  /** The 200 body's schema, and what it is. */
  ok: TSchema;
  okDescription: string;
  /** What `Cache-Control` says, and why. */
  cacheControl: string;
  /** When the request is refused 400 and 404. */
  badRequest: string;
  notFound: string;
  /** When the request is refused 409, for a document that may not exist yet. */
  conflict?: string;
};

/** Typed as plain schemas: the spread refs carry TypeBox's symbol keys, which declaration emit cannot name. */
export function publicCacheableResponses(answers: PublicCacheableAnswers): Record<number, TSchema> {
  const cacheHeaders = {
    ETag: {
      type: 'string',
      description: 'Strong entity tag of the body (sha256, base64url, quoted). Send it back in `If-None-Match` to get a 304 while the body is unchanged.',
    },
    'Cache-Control': { type: 'string', description: answers.cacheControl },
  };
  return {
    200: { ...answers.ok, description: answers.okDescription, headers: { ...cacheHeaders, 'Raffle-Staleness-Ms': { type: 'integer' } } },
    304: Type.Null({ description: 'Not modified: the `If-None-Match` tag is still the `ETag` of the body; no body.', headers: cacheHeaders }),
    400: { ...errorBody(), description: answers.badRequest },
    404: { ...errorBody(), description: answers.notFound },
    ...(answers.conflict === undefined ? {} : ({ 409: { ...errorBody(), description: answers.conflict } } as Record<number, TSchema>)),
    429: errorBody(),
    500: { ...errorBody(), description: 'An unexpected failure; nothing is leaked.' },
    503: unavailableResponse(errorBody()),
  };
}
