import type { Sql } from '../client.js';
import type { IdempotencyRecordKey } from '../queries/idempotency-replays.js';
import { idempotentResponseStatement } from './idempotent-response-statement.js';

/**
 * Inserts the in-progress record for a key; false when the key already has one. The insert is
 * the arbiter: of any number of concurrent requests with one key, exactly one gets true.
 */
export async function insertIdempotencyClaim(
  sql: Sql,
  args: IdempotencyRecordKey & { method: string; path: string; requestHash: string; ttlSeconds: number },
): Promise<boolean> {
  const inserted = await sql`
    insert into idempotency_records (api_key_id, key, method, path, request_hash, state, expires_at)
    values (${args.apiKeyId}, ${args.key}, ${args.method}, ${args.path}, ${args.requestHash}, 'in_progress',
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
 * Takes over a record left in progress for longer than `abandonedAfterSeconds`; false when another
 * request took it over first (or it completed meanwhile).
 */
export async function takeOverAbandonedIdempotencyClaim(sql: Sql, args: IdempotencyRecordKey & { abandonedAfterSeconds: number }): Promise<boolean> {
  const taken = await sql`
    update idempotency_records set created_at = now()
    where api_key_id = ${args.apiKeyId} and key = ${args.key} and state = 'in_progress'
      and created_at <= now() - make_interval(secs => ${args.abandonedAfterSeconds}::double precision)
    returning 1 as claimed`;
  return taken.length > 0;
}

/** Stores the response of the request holding the key; retries replay it from then on. */
export async function storeIdempotentResponse(sql: Sql, args: IdempotencyRecordKey & { status: number; body: string }): Promise<void> {
  await idempotentResponseStatement(sql, args);
}

/** Deletes a held key's in-progress record without a response, so a retry runs the request. */
export async function releaseIdempotencyClaim(sql: Sql, args: IdempotencyRecordKey): Promise<void> {
  await sql`delete from idempotency_records where api_key_id = ${args.apiKeyId} and key = ${args.key} and state = 'in_progress'`;
}

/** Deletes up to `batch` expired records; returns how many went. */
export async function sweepExpiredIdempotencyRecords(sql: Sql, batch: number): Promise<number> {
  const rows = await sql`
    delete from idempotency_records where ctid in (
      select ctid from idempotency_records where expires_at <= now() limit ${batch})
    returning 1`;
  return rows.length;
}
