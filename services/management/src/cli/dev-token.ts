import { createHmac } from 'node:crypto';

const base64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');

/** An HS256 dashboard token for development: `sub` = the user id, expiring after `ttlSeconds`. */
export function signDevToken(
  secret: string,
  claims: { sub: string; ttlSeconds: number; iss?: string; aud?: string; now?: number },
): string {
  const iat = Math.floor((claims.now ?? Date.now()) / 1000);
  const payload = {
    sub: claims.sub,
    iat,
    exp: iat + claims.ttlSeconds,
    ...(claims.iss ? { iss: claims.iss } : {}),
    ...(claims.aud ? { aud: claims.aud } : {}),
  };
  const unsigned = `${base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${base64url(JSON.stringify(payload))}`;
  return `${unsigned}.${createHmac('sha256', secret).update(unsigned).digest('base64url')}`;
}
