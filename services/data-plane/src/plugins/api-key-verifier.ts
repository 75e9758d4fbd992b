import { parseApiKey } from '@raffle/contracts';
import { findApiKeyByHash, hashApiKey, type ApiKeyAuthRecord, type Sql } from '@raffle/db';
import { DomainError } from '@raffle/domain';
import type { Caller } from './caller.js';
import type { KeyUseRecorder } from './key-use-recorder.js';

const MAX_CACHED_KEYS = 50_000;

type CacheEntry = { record: ApiKeyAuthRecord | null; fetchedAt: number };

export type ApiKeyVerifier = {
  /** The caller a presented key stands for, or the 401 it deserves. */
  verify: (presentedKey: string) => Promise<Caller>;
  /** Forgets a key at once (revocation broadcast). */
  evict: (keyId: string) => void;
};

/**
 * Verifies keys with a short-lived cache in front of one indexed read. A malformed key or
 * one whose checksum fails is refused before any hashing or database work.
 */
export function createApiKeyVerifier(deps: { sql: Sql; cacheTtlMs: number; keyUse: KeyUseRecorder; now?: () => number }): ApiKeyVerifier {
  const now = deps.now ?? Date.now;
  const cache = new Map<string, CacheEntry>();

  async function lookup(hash: string): Promise<ApiKeyAuthRecord | null> {
    const cached = cache.get(hash);
    if (cached && now() - cached.fetchedAt < deps.cacheTtlMs) return cached.record;
    const record = await findApiKeyByHash(deps.sql, hash);
    if (cache.size >= MAX_CACHED_KEYS) cache.clear();
    cache.set(hash, { record, fetchedAt: now() });
    return record;
  }

  return {
    async verify(presentedKey) {
      if (!parseApiKey(presentedKey)) {
        throw new DomainError('API_KEY_INVALID', 'the API key is malformed');
      }
      const record = await lookup(hashApiKey(presentedKey));
      if (!record) throw new DomainError('API_KEY_INVALID', 'the API key is not recognised');
      const at = now();
      if (record.revokedAtMs !== null && record.revokedAtMs <= at) {
        throw new DomainError('API_KEY_REVOKED', 'the API key has been revoked');
      }
      if (record.expiresAtMs !== null && record.expiresAtMs <= at) {
        throw new DomainError('API_KEY_EXPIRED', 'the API key has expired');
      }
      deps.keyUse.note(record.id);
      return {
        keyId: record.id,
        kind: record.kind,
        userId: record.userId,
        workspaceId: record.workspaceId,
        scopes: new Set(record.scopes),
      };
    },
    evict(keyId) {
      for (const [hash, entry] of cache) if (entry.record?.id === keyId) cache.delete(hash);
    },
  };
}
