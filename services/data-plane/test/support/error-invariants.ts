import { ERROR_CODES } from '@raffle/contracts';
import { leakFindings } from '@raffle/service-kit/testing/openapi-fuzz';
import { schemaErrors } from './contract-validator.js';

/** What a test saw: transport-independent (inject or a real socket). */
export type SeenResponse = {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
};

export const CODE_PATTERN = /^[A-Z][A-Z0-9_]{1,63}$/;

// One list of leak patterns (stack frames, source paths, SQL, driver codes) for every service's tests.
export { leakFindings };

const header = (res: SeenResponse, name: string): string | undefined => {
  const value = res.headers[name];
  return value === undefined ? undefined : Array.isArray(value) ? value.join(', ') : String(value);
};

/**
 * The contract every response owes, whatever was sent. Returns the violations (empty when
 * the response is fine) so a property can print them all for one counterexample.
 *
 *  - never a 5xx while the database is up;
 *  - a non-2xx JSON body is the spec's error body: ErrorBodySchema, `code` in the pattern and in
 *    the error catalogue with this very status, `statusCode` = the HTTP status, `requestId` = the
 *    `x-request-id` header, `path` without the query string;
 *  - a 405 names the allowed methods, and the request's own method is not among them;
 *  - no stack trace, source path or SQL in any body.
 */
export function responseViolations(
  res: SeenResponse,
  request: { method: string; inputs?: readonly string[]; allow5xx?: boolean },
): string[] {
  const v: string[] = [];
  const status = res.statusCode;
  if (!request.allow5xx && status >= 500) v.push(`status ${status} >= 500`);
  if (status < 100 || status > 599) v.push(`status ${status} is not an HTTP status`);

  const contentType = header(res, 'content-type') ?? '';
  const isJson = /^application\/json\b/i.test(contentType);
  const ok = status >= 200 && status < 300;

  if (!ok && res.body.length > 0) {
    if (!isJson) v.push(`non-2xx body is not JSON (content-type ${JSON.stringify(contentType)})`);
    let body: unknown;
    try {
      body = JSON.parse(res.body);
    } catch {
      v.push('non-2xx body does not parse as JSON');
    }
    if (body !== undefined) {
      for (const e of schemaErrors('ErrorBody', body)) v.push(`ErrorBody: ${e}`);
      const b = (body ?? {}) as Record<string, unknown>;
      if (typeof b.code !== 'string' || !CODE_PATTERN.test(b.code)) v.push(`code ${JSON.stringify(b.code)} does not match ${CODE_PATTERN}`);
      else if (!(b.code in ERROR_CODES)) v.push(`code ${b.code} is not in the error catalogue`);
      else if (ERROR_CODES[b.code as keyof typeof ERROR_CODES] !== status) {
        v.push(`code ${b.code} belongs to status ${ERROR_CODES[b.code as keyof typeof ERROR_CODES]}, answered with ${status}`);
      }
      if (b.statusCode !== status) v.push(`body statusCode ${JSON.stringify(b.statusCode)} != HTTP status ${status}`);
      const requestIdHeader = header(res, 'x-request-id');
      if (requestIdHeader === undefined) v.push('no x-request-id response header');
      if (b.requestId !== requestIdHeader) v.push(`body requestId ${JSON.stringify(b.requestId)} != x-request-id header ${JSON.stringify(requestIdHeader)}`);
      if (typeof b.path === 'string') {
        if (b.path.includes('?')) v.push(`path ${JSON.stringify(b.path)} carries a query string`);
        if (!b.path.startsWith('/')) v.push(`path ${JSON.stringify(b.path)} is not a path`);
      }
    }
  }

  if (status === 405) {
    const allow = header(res, 'allow');
    if (!allow) v.push('405 without an Allow header');
    else {
      const methods = allow.split(',').map((m) => m.trim().toUpperCase());
      if (methods.includes(request.method.toUpperCase())) v.push(`405 for ${request.method} while Allow lists it (${allow})`);
    }
  }

  for (const finding of leakFindings(res.body, request.inputs)) v.push(`body leaks ${finding}`);
  return v;
}
