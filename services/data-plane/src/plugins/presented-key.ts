import type { IncomingHttpHeaders } from 'node:http';

/**
 * The key a request presents: `Authorization: Bearer <key>` wins over `X-API-Key: <key>` when
 * both are sent (the spec's rule), even when its value is empty: Node trims a header value, so
 * `Bearer ` arrives as `Bearer`, and that is an empty (invalid) key, not a reason to fall back.
 * An Authorization header of another scheme is not a key.
 */
export function presentedApiKey(headers: IncomingHttpHeaders): string | null {
  const authorization = headers.authorization;
  if (authorization !== undefined) {
    const match = /^Bearer(?:[ \t]+(\S*))?[ \t]*$/i.exec(authorization);
    if (match) return match[1] ?? '';
  }
  const headerKey = headers['x-api-key'];
  if (typeof headerKey === 'string') return headerKey.trim();
  return null;
}
