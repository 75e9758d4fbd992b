import type { FastifyReply } from 'fastify';

/** One bucket's verdict on a request, as the headers describe it. */
export type BucketVerdict = {
  policy: string;
  quota: number;
  windowSeconds: number;
  remaining: number;
  resetSeconds: number;
  exceeded: boolean;
};

/**
 * The IETF draft's headers, one list item per bucket that counted the request:
 * `RateLimit-Policy: "user";q=300;w=60` and `RateLimit: "user";r=299;t=60`, and on a refusal
 * `Retry-After` with the longest wait among the exceeded buckets.
 */
export function setRateLimitHeaders(reply: FastifyReply, verdicts: readonly BucketVerdict[]) {
  if (verdicts.length === 0) return;
  reply.header('ratelimit-policy', verdicts.map((v) => `"${v.policy}";q=${v.quota};w=${v.windowSeconds}`).join(', '));
  reply.header('ratelimit', verdicts.map((v) => `"${v.policy}";r=${v.remaining};t=${v.resetSeconds}`).join(', '));
  const waits = verdicts.filter((v) => v.exceeded).map((v) => v.resetSeconds);
  if (waits.length > 0) reply.header('retry-after', String(Math.max(1, ...waits)));
}

/** The same headers as OpenAPI response headers, for every response of a rate-limited route. */
export const RATE_LIMIT_RESPONSE_HEADERS = {
  'RateLimit-Policy': {
    type: 'string',
    description:
      'IETF draft rate-limit policies that counted this request, one item per bucket: `"<name>";q=<quota>;w=<window seconds>`.',
  },
  RateLimit: {
    type: 'string',
    description: 'What is left of each policy: `"<name>";r=<remaining>;t=<seconds until the window resets>`.',
  },
} as const;

export const RETRY_AFTER_RESPONSE_HEADER = {
  'Retry-After': { type: 'integer', minimum: 1, description: 'Seconds to wait before retrying (on 429).' },
} as const;
