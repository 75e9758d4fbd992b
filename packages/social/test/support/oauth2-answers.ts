import { Ajv } from 'ajv';
import type { WireAnswer } from './openapi-contract.js';

/**
 * Neither provider's OpenAPI document describes its OAuth 2.0 endpoints, so their answers are held
 * to the RFCs both providers follow (and document) instead: RFC 6749 §5.1/§5.2 for the token
 * endpoint, RFC 7009 §2.2 for revocation, §4.1.2 for the authorization redirect.
 */
const ajv = new Ajv({ allErrors: true });

const tokenSuccess = ajv.compile({
  type: 'object',
  // expires_in and scope are optional in the RFC; both providers always send them, and connections rely on them.
  required: ['access_token', 'token_type', 'expires_in', 'scope'],
  properties: {
    access_token: { type: 'string', minLength: 1 },
    token_type: { type: 'string', pattern: '^[Bb]earer$' },
    expires_in: { type: 'integer', minimum: 1 },
    refresh_token: { type: 'string', minLength: 1 },
    scope: { type: 'string' },
  },
});

const OAUTH_ERRORS = ['invalid_request', 'invalid_client', 'invalid_grant', 'unauthorized_client', 'unsupported_grant_type', 'invalid_scope', 'unsupported_token_type'];
const AUTHORIZATION_ERRORS = ['invalid_request', 'unauthorized_client', 'access_denied', 'unsupported_response_type', 'invalid_scope', 'server_error', 'temporarily_unavailable'];

const tokenError = ajv.compile({
  type: 'object',
  required: ['error'],
  properties: { error: { enum: OAUTH_ERRORS }, error_description: { type: 'string' }, error_uri: { type: 'string' } },
});

const revoked = ajv.compile({ type: 'object' });

const checked = (validate: ReturnType<typeof ajv.compile>, value: unknown, what: string) => (validate(value) ? [] : [`${what}: ${ajv.errorsText(validate.errors)}`]);

function jsonBody(answer: WireAnswer, what: string): { body: unknown } | { problem: string } {
  if (answer.contentType !== 'application/json') return { problem: `${what}: content type ${answer.contentType}, not application/json` };
  try {
    return { body: JSON.parse(answer.body) };
  } catch {
    return { problem: `${what}: the body is not JSON` };
  }
}

export function tokenAnswerViolations(answer: WireAnswer): string[] {
  const what = `token endpoint → ${answer.status}`;
  const parsed = jsonBody(answer, what);
  if ('problem' in parsed) return [parsed.problem];
  if (answer.status === 200) {
    const noStore = answer.headers['cache-control'] === 'no-store' ? [] : [`${what}: Cache-Control is not no-store`];
    return [...noStore, ...checked(tokenSuccess, parsed.body, what)];
  }
  // invalid_client answers 401 (the client authenticated with HTTP Basic); every other error 400.
  if (answer.status !== 400 && answer.status !== 401) return [`${what}: not a status RFC 6749 §5.2 allows`];
  return checked(tokenError, parsed.body, what);
}

export function revocationAnswerViolations(answer: WireAnswer): string[] {
  const what = `revocation endpoint → ${answer.status}`;
  const parsed = jsonBody(answer, what);
  if ('problem' in parsed) return [parsed.problem];
  if (answer.status === 200) return checked(revoked, parsed.body, what);
  if (answer.status !== 400 && answer.status !== 401) return [`${what}: not a status RFC 7009 §2.2.1 allows`];
  return checked(tokenError, parsed.body, what);
}

/** A redirect back with `code` and `state`, or with an RFC 6749 §4.1.2.1 `error`; else a page shown to the user. */
export function authorizationAnswerViolations(answer: WireAnswer): string[] {
  const what = `authorization endpoint → ${answer.status}`;
  if (answer.status === 200 || answer.status === 400) return answer.contentType === 'text/html' ? [] : [`${what}: a page that is not HTML`];
  if (answer.status !== 302) return [`${what}: neither a redirect nor a page`];
  const location = answer.headers.location;
  if (!location) return [`${what}: a redirect without Location`];
  const params = new URL(location).searchParams;
  if (params.has('code')) return params.get('code') ? [] : [`${what}: an empty code`];
  const error = params.get('error');
  return error && AUTHORIZATION_ERRORS.includes(error) ? [] : [`${what}: neither a code nor an RFC 6749 error (${error})`];
}
