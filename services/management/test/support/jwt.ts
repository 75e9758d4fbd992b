import { createHmac, createSign, generateKeyPairSync } from 'node:crypto';
import { signDevToken } from '../../src/cli/dev-token.js';
import { TEST_JWT_SECRET } from './app.js';
import { registerSecret } from './log-scan.js';

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** A valid dashboard token for `userId`; registered as a secret, so no log may contain it. */
export const tokenFor = (userId: string, extra: { iss?: string; aud?: string; ttlSeconds?: number } = {}) =>
  registerSecret(signDevToken(TEST_JWT_SECRET, { sub: userId, ttlSeconds: extra.ttlSeconds ?? 600, iss: extra.iss, aud: extra.aud }));

/** HS256 over arbitrary header and claims, with any secret. */
export function hs256(claims: Record<string, unknown>, secret: string | Buffer = TEST_JWT_SECRET, header: Record<string, unknown> = { alg: 'HS256', typ: 'JWT' }) {
  const unsigned = `${b64(header)}.${b64(claims)}`;
  return `${unsigned}.${createHmac('sha256', secret).update(unsigned).digest('base64url')}`;
}

const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
export const rsaPublicPem = rsa.publicKey.export({ type: 'spki', format: 'pem' }) as string;

export function rs256(claims: Record<string, unknown>) {
  const unsigned = `${b64({ alg: 'RS256', typ: 'JWT' })}.${b64(claims)}`;
  return `${unsigned}.${createSign('RSA-SHA256').update(unsigned).sign(rsa.privateKey).toString('base64url')}`;
}

export const unsignedNone = (claims: Record<string, unknown>) => `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`;

export const claimsFor = (userId: string, extra: Record<string, unknown> = {}) => ({
  sub: userId,
  iat: nowSeconds(),
  exp: nowSeconds() + 600,
  ...extra,
});
