import {
  deleteExpiredIdempotencyRecord,
  findIdempotencyRecord,
  insertIdempotencyClaim,
  releaseIdempotencyClaim,
  storeIdempotentResponse,
  sweepExpiredIdempotencyRecords,
  takeOverAbandonedIdempotencyClaim,
  type IdempotencyClaimKey,
  type IdempotencyRecordKey,
  type Sql,
} from '@raffle/db';

/** How long a key's first response is replayed, and the key refused for any other request. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * A record still in progress after this long was left by an instance that died mid-request
 * (it neither stored nor released it): a retry takes it over instead of waiting out the TTL.
 * Far above any request an idempotent route serves (entries, management's creates), so a slow first request is never run twice.
 */
export const ABANDONED_AFTER_MS = 60_000;

/** Records are per API key: two keys (or two users) never see each other's keys. */
export type IdempotencyScope = IdempotencyRecordKey;

/**
 * A key as one request claims it: the scope and a random token of that request's own, made before
 * the claim is tried, so the request can settle exactly its own claim even when it never learned
 * whether the claim's insert committed.
 */
export type HeldIdempotencyKey = IdempotencyClaimKey;

export type IdempotentRequest = { method: string; path: string; fingerprint: string };

export type StoredResponse = { status: number; body: string };

export type IdempotencyClaim =
  /** This request holds the key under its token: run it, then `complete` or `release`. */
  | { outcome: 'run' }
  | { outcome: 'replay'; response: StoredResponse }
  /** The key was first used for a different request. */
  | { outcome: 'reused' }
  /** The first request with this key is still running. */
  | { outcome: 'in_progress' };

/**
 * `Idempotency-Key` over the `idempotency_records` table. The insert of the in-progress row is
 * the arbiter: of any number of concurrent requests with one key, exactly one inserts it and
 * runs. Times are the database's, so every instance agrees on expiry.
 */
export function createIdempotencyStore(sql: Sql, options: { ttlMs?: number; abandonedAfterMs?: number } = {}) {
  const ttlSeconds = (options.ttlMs ?? IDEMPOTENCY_TTL_MS) / 1000;
  const abandonedAfterSeconds = (options.abandonedAfterMs ?? ABANDONED_AFTER_MS) / 1000;

  async function claim(held: HeldIdempotencyKey, request: IdempotentRequest): Promise<IdempotencyClaim> {
    const scope: IdempotencyScope = { apiKeyId: held.apiKeyId, key: held.key };
    // A few rounds at most: a record can vanish between our insert and read (released after a
    // failure, or expired and deleted), and then the key is free again.
    for (let round = 0; round < 3; round++) {
      const claimed = await insertIdempotencyClaim(sql, { ...held, method: request.method, path: request.path, requestHash: request.fingerprint, ttlSeconds });
      if (claimed) return { outcome: 'run' };

      const row = await findIdempotencyRecord(sql, { ...scope, abandonedAfterSeconds });
      if (!row) continue;
      if (row.expired) {
        await deleteExpiredIdempotencyRecord(sql, scope);
        continue;
      }
      if (row.requestHash !== request.fingerprint) return { outcome: 'reused' };
      if (row.state === 'completed' && row.status !== null && row.body !== null) return { outcome: 'replay', response: { status: row.status, body: row.body } };
      if (row.state === 'in_progress' && row.abandoned && (await takeOverAbandonedIdempotencyClaim(sql, { ...held, abandonedAfterSeconds }))) {
        return { outcome: 'run' };
      }
      return { outcome: 'in_progress' };
    }
    return { outcome: 'in_progress' };
  }

  /** Stores the response a held key's request produced; retries replay it from now on. */
  async function complete(held: HeldIdempotencyKey, response: StoredResponse): Promise<void> {
    await storeIdempotentResponse(sql, { ...held, ...response });
  }

  /** Frees a held key without a response (the request failed), so a retry runs it; a claim under another token stays. */
  async function release(held: HeldIdempotencyKey): Promise<void> {
    await releaseIdempotencyClaim(sql, held);
  }

  /**
   * Deletes expired records, a bounded batch at a time (every instance may run it; deleting twice
   * is harmless). Returns how many went, so a caller can loop while a backlog drains.
   */
  async function sweepExpired(batch = 1000): Promise<number> {
    return sweepExpiredIdempotencyRecords(sql, batch);
  }

  return { claim, complete, release, sweepExpired };
}

export type IdempotencyStore = ReturnType<typeof createIdempotencyStore>;
