import { createHash } from 'node:crypto';
import type { Sql } from '@raffle/db';

/** How long a key's first response is replayed, and the key refused for any other request. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * A record still in progress after this long was left by an instance that died mid-request
 * (it neither stored nor released it): a retry takes it over instead of waiting out the TTL.
 * Far above any request the data plane serves, so a slow first request is never run twice.
 */
export const ABANDONED_AFTER_MS = 60_000;

/** Records are per API key: two keys (or two users) never see each other's keys. */
export type IdempotencyScope = { apiKeyId: string; key: string };

export type IdempotentRequest = { method: string; path: string; fingerprint: string };

export type StoredResponse = { status: number; body: string };

export type IdempotencyClaim =
  /** This request holds the key: run it, then `complete` or `release`. */
  | { outcome: 'run' }
  | { outcome: 'replay'; response: StoredResponse }
  /** The key was first used for a different request. */
  | { outcome: 'reused' }
  /** The first request with this key is still running. */
  | { outcome: 'in_progress' };

type CanonicalStep = { literal: string } | { value: unknown };

/**
 * JSON with object keys sorted: bodies that differ only in key order are the same request.
 * Written with its own stack rather than recursion: the body is fingerprinted before validation,
 * and a client's `[[[[…]]]]` thousands deep must not overflow the call stack (that was a 500).
 */
function canonicalJson(root: unknown): string {
  const out: string[] = [];
  const pending: CanonicalStep[] = [{ value: root }];
  while (pending.length > 0) {
    const step = pending.pop()!;
    if ('literal' in step) {
      out.push(step.literal);
      continue;
    }
    const value = step.value;
    const parts: CanonicalStep[] = [];
    if (Array.isArray(value)) {
      parts.push({ literal: '[' });
      value.forEach((item, i) => parts.push(...(i > 0 ? [{ literal: ',' }] : []), { value: item }));
      parts.push({ literal: ']' });
    } else if (value !== null && typeof value === 'object') {
      const record = value as Record<string, unknown>;
      parts.push({ literal: '{' });
      Object.keys(record)
        .sort()
        .forEach((k, i) => parts.push({ literal: `${i > 0 ? ',' : ''}${JSON.stringify(k)}:` }, { value: record[k] }));
      parts.push({ literal: '}' });
    } else {
      out.push(JSON.stringify(value) ?? 'null');
      continue;
    }
    for (let i = parts.length - 1; i >= 0; i--) pending.push(parts[i]!);
  }
  return out.join('');
}

/**
 * sha256 of what the request asks for: method, route, decoded path parameters and parsed body.
 * Encoding variants of one path, whitespace and key order do not make a "different" request.
 */
export function requestFingerprint(request: { method: string; route: string; params: unknown; body: unknown }): string {
  const canonical = canonicalJson([request.method, request.route, request.params ?? {}, request.body ?? {}]);
  return createHash('sha256').update(canonical).digest('hex');
}

type RecordRow = { requestHash: string; state: string; status: number | null; body: string | null; expired: boolean; abandoned: boolean };

/**
 * `Idempotency-Key` over the `idempotency_records` table. The insert of the in-progress row is
 * the arbiter: of any number of concurrent requests with one key, exactly one inserts it and
 * runs. Times are the database's, so every instance agrees on expiry.
 */
export function createIdempotencyStore(sql: Sql, options: { ttlMs?: number; abandonedAfterMs?: number } = {}) {
  const ttlSeconds = (options.ttlMs ?? IDEMPOTENCY_TTL_MS) / 1000;
  const abandonedSeconds = (options.abandonedAfterMs ?? ABANDONED_AFTER_MS) / 1000;

  async function claim(scope: IdempotencyScope, request: IdempotentRequest): Promise<IdempotencyClaim> {
    // A few rounds at most: a record can vanish between our insert and read (released after a
    // failure, or expired and deleted), and then the key is free again.
    for (let round = 0; round < 3; round++) {
      const inserted = await sql`
        insert into idempotency_records (api_key_id, key, method, path, request_hash, state, expires_at)
        values (${scope.apiKeyId}, ${scope.key}, ${request.method}, ${request.path}, ${request.fingerprint}, 'in_progress',
                now() + make_interval(secs => ${ttlSeconds}::double precision))
        on conflict (api_key_id, key) do nothing
        returning 1 as claimed`;
      if (inserted.length > 0) return { outcome: 'run' };

      const [row] = await sql<RecordRow[]>`
        select request_hash as "requestHash", state, response_status as status, response_body as body,
               expires_at <= now() as expired,
               created_at <= now() - make_interval(secs => ${abandonedSeconds}::double precision) as abandoned
        from idempotency_records where api_key_id = ${scope.apiKeyId} and key = ${scope.key}`;
      if (!row) continue;
      if (row.expired) {
        await sql`delete from idempotency_records where api_key_id = ${scope.apiKeyId} and key = ${scope.key} and expires_at <= now()`;
        continue;
      }
      if (row.requestHash !== request.fingerprint) return { outcome: 'reused' };
      if (row.state === 'completed' && row.status !== null && row.body !== null) return { outcome: 'replay', response: { status: row.status, body: row.body } };
      if (row.state === 'in_progress' && row.abandoned) {
        const taken = await sql`
          update idempotency_records set created_at = now()
          where api_key_id = ${scope.apiKeyId} and key = ${scope.key} and state = 'in_progress'
            and created_at <= now() - make_interval(secs => ${abandonedSeconds}::double precision)
          returning 1 as claimed`;
        if (taken.length > 0) return { outcome: 'run' };
      }
      return { outcome: 'in_progress' };
    }
    return { outcome: 'in_progress' };
  }

  /** Stores the response a held key's request produced; retries replay it from now on. */
  async function complete(scope: IdempotencyScope, response: StoredResponse): Promise<void> {
    await sql`
      update idempotency_records set state = 'completed', response_status = ${response.status}, response_body = ${response.body}
      where api_key_id = ${scope.apiKeyId} and key = ${scope.key} and state = 'in_progress'`;
  }

  /** Frees a held key without a response (the request failed unexpectedly), so a retry runs it. */
  async function release(scope: IdempotencyScope): Promise<void> {
    await sql`delete from idempotency_records where api_key_id = ${scope.apiKeyId} and key = ${scope.key} and state = 'in_progress'`;
  }

  /**
   * Deletes expired records, a bounded batch at a time (every instance may run it; deleting twice
   * is harmless). Returns how many went, so a caller can loop while a backlog drains.
   */
  async function sweepExpired(batch = 1000): Promise<number> {
    const rows = await sql`
      delete from idempotency_records where ctid in (
        select ctid from idempotency_records where expires_at <= now() limit ${batch})
      returning 1`;
    return rows.length;
  }

  return { claim, complete, release, sweepExpired };
}

export type IdempotencyStore = ReturnType<typeof createIdempotencyStore>;
