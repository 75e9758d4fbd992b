import type { DemoXAccount } from '../demo-accounts.js';
import type { BucketAnswer } from '../shared/rate-limit-buckets.js';

export type XUserRecord = DemoXAccount & { createdAt: Date };

/**
 * X's `User` object with the `user.fields` asked for (`id`, `name` and `username` always), as
 * `GetUsersMeResponse` and `GetUsersByIdResponse` in X's published document (the contract tests
 * hold them to it). Fields the stand-in does not model are left out, as X leaves out what it lacks.
 */
export function userBody(user: XUserRecord, fields: ReadonlySet<string>, connectionStatus: () => string[]) {
  return {
    id: user.id,
    name: user.name,
    username: user.username,
    ...(fields.has('created_at') ? { created_at: user.createdAt.toISOString() } : {}),
    ...(fields.has('protected') ? { protected: false } : {}),
    ...(fields.has('verified') ? { verified: false } : {}),
    ...(fields.has('description') ? { description: '' } : {}),
    ...(fields.has('connection_status') ? { connection_status: connectionStatus() } : {}),
  };
}

/** X answers a lookup of an unknown user 200, with the problem in `errors` (`ResourceNotFoundProblem`). */
export const userNotFoundBody = (id: string) => ({
  errors: [
    {
      value: id,
      detail: `Could not find user with id: [${id}].`,
      title: 'Not Found Error',
      resource_type: 'user',
      parameter: 'id',
      resource_id: id,
      type: 'https://api.x.com/2/problems/resource-not-found',
    },
  ],
});

/** A malformed parameter: 400, `application/problem+json` (`InvalidRequestProblem`). */
export const invalidRequestBody = (parameter: string, value: string, message: string) => ({
  errors: [{ parameters: { [parameter]: [value] }, message }],
  title: 'Invalid Request',
  detail: 'One or more parameters to your request was invalid.',
  type: 'https://api.x.com/2/problems/invalid-request',
});

/**
 * Errors without a problem type of their own: the document's `default` response allows
 * `{ code, message }` as `application/json` (`Error`); the codes are X's long-standing ones.
 */
export const X_ERRORS = {
  unauthorized: { status: 401, body: { code: 89, message: 'Invalid or expired token.' } },
  forbidden: { status: 403, body: { code: 220, message: 'Your credentials do not allow access to this resource.' } },
  rateLimited: { status: 429, body: { code: 88, message: 'Rate limit exceeded.' } },
  notFound: { status: 404, body: { code: 34, message: 'Sorry, that page does not exist.' } },
} as const;

/** X's headers: the window's limit, what is left, and the reset in epoch seconds (rounded up, so waiting until it is always enough). */
export const rateLimitHeaders = (bucket: BucketAnswer): Record<string, string> => ({
  'x-rate-limit-limit': String(bucket.limit),
  'x-rate-limit-remaining': String(bucket.remaining),
  'x-rate-limit-reset': String(Math.ceil(bucket.resetAtMs / 1000)),
});
