import type { Sql } from '../client.js';
import type { IdempotencyRecordKey } from '../queries/idempotency-replays.js';
import { idempotentResponseStatement } from './idempotent-response-statement.js';

/** A key as one request holds it: `claimToken` is that request's own, so it settles only its own claim. */
export type IdempotencyClaimKey = IdempotencyRecordKey & { claimToken: string };

/**
 * Inserts the in-progress record for a key; false when the key already has one. The insert is
 * the arbiter: of any number of concurrent requests with one key, exactly one gets true.
 */
export async function insertIdempotencyClaim(
  sql: Sql,
  args: IdempotencyClaimKey & { method: string; path: string; requestHash: string; ttlSeconds: number },
): Promise<boolean> {
  const inserted = await sql`
    insert into idempotency_records (api_key_id, key, method, path, request_hash, state, claim_token, expires_at)
    values (${args.apiKeyId}, ${args.key}, ${args.method}, ${args.path}, ${args.requestHash}, 'in_progress', ${args.claimToken},
            now() + make_interval(secs => ${args.ttlSeconds}::double precision))
    on conflict (api_key_id, key) do nothing
    returning 1 as claimed`;
  return inserted.length > 0;
}

/** Deletes the key's record if it has expired, freeing the key. */
export async function deleteExpiredIdempotencyRecord(sql: Sql, args: IdempotencyRecordKey): Promise<void> {
  await sql`delete from idempotency_records where api_key_id = ${args.apiKeyId} and key = ${args.key} and expires_at <= now()`;
}

/**
 * Takes over a record left in progress for longer than `abandonedAfterSeconds`, under the new
 * holder's token; false when another request took it over first (or it completed meanwhile).
 */
export async function takeOverAbandonedIdempotencyClaim(sql: Sql, args: IdempotencyClaimKey & { abandonedAfterSeconds: number }): Promise<boolean> {
  const taken = await sql`
    update idempotency_records set created_at = now(), claim_token = ${args.claimToken}
    where api_key_id = ${args.apiKeyId} and key = ${args.key} and state = 'in_progress'
      and created_at <= now() - make_interval(secs => ${args.abandonedAfterSeconds}::double precision)
    returning 1 as claimed`;
  return taken.length > 0;
}

/**
 * Stores the response of the request holding the key, if it still holds it (a request slower than
 * the abandonment window may have lost it to a retry); retries replay it from then on.
 */
export async function storeIdempotentResponse(sql: Sql, args: IdempotencyClaimKey & { status: number; body: string }): Promise<void> {
  await idempotentResponseStatement(sql, args, args.claimToken);
}

/**
 * Deletes a held key's in-progress record without a response, so a retry runs the request. Only
 * the claim of this token goes: a late release cannot free a key another request has taken over,
 * and a request that never learned whether its claim committed may release it all the same.
 */
export async function releaseIdempotencyClaim(sql: Sql, args: IdempotencyClaimKey): Promise<void> {
  await sql`
    delete from idempotency_records
    where api_key_id = ${args.apiKeyId} and key = ${args.key} and state = 'in_progress' and claim_token = ${args.claimToken}`;
}

/** Deletes up to `batch` expired records; returns how many went. */
export async function sweepExpiredIdempotencyRecords(sql: Sql, batch: number): Promise<number> {
  const rows = await sql`
    delete from idempotency_records where ctid in (
      select ctid from idempotency_records where expires_at <= now() limit ${batch})
    returning 1`;
  return rows.length;
}
