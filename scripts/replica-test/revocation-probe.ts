import { call, until } from './http-probes.js';

export type CachedKey = { id: string; key: string };

const REVOCATION_BOUND_MS = 1000;
const clock = () => performance.now();

/**
 * A key of `holderToken`'s user, made on a management replica and verified (so cached) by every
 * data plane. Data planes started with a long API_KEY_CACHE_TTL_MS then refuse it within the
 * bound only if the revocation message over NATS reaches them.
 */
export async function cachedKey(management: string, dataPlanes: readonly string[], holderToken: string): Promise<CachedKey> {
  const made = await call(management, 'POST', '/api/developer/personal/api-keys', holderToken, { name: 'doomed', scopes: ['profile:read'] });
  if (made.status !== 201) throw new Error(`making a key answered ${made.status}: ${JSON.stringify(made.body)}`);
  const key = { id: made.body.id as string, key: made.body.apiKey as string };
  for (const origin of dataPlanes) {
    const verified = await call(origin, 'GET', '/api/v1/me', key.key);
    if (verified.status !== 200) throw new Error(`${origin} answered ${verified.status} to a fresh key`);
  }
  return key;
}

/** Revokes the key on a management replica; resolves with how long until every data plane refused it, or throws past a second. */
export async function revocationDelayMs(key: CachedKey, management: string, dataPlanes: readonly string[], holderToken: string): Promise<number> {
  const revoked = await call(management, 'DELETE', `/api/developer/personal/api-keys/${key.id}`, holderToken);
  if (revoked.status !== 200) throw new Error(`revoking the key answered ${revoked.status}: ${JSON.stringify(revoked.body)}`);
  const revokedAt = clock();
  const refusedAt = await Promise.all(
    dataPlanes.map((origin) =>
      until(`the key revoked on ${management} to be refused by ${origin}`, async () => ((await call(origin, 'GET', '/api/v1/me', key.key)).status === 401 ? clock() : null), REVOCATION_BOUND_MS),
    ),
  );
  return Math.round(Math.max(...refusedAt) - revokedAt);
}
