import type { Sql } from '../client.js';

/** One `Idempotency-Key` of one API key: records are per key, so two keys never see each other's. */
export type IdempotencyRecordKey = { apiKeyId: string; key: string };

/** What a retry needs to know of the record its key already has; times are judged by the database. */
export type IdempotencyRecordState = {
  requestHash: string;
  state: string;
  status: number | null;
  body: string | null;
  expired: boolean;
  /** Still in progress after `abandonedAfterSeconds`: its instance died mid-request. */
  abandoned: boolean;
};

/** The record holding this key, or null when there is none (released, or expired and swept). */
export async function findIdempotencyRecord(
  sql: Sql,
  args: IdempotencyRecordKey & { abandonedAfterSeconds: number },
): Promise<IdempotencyRecordState | null> {
  const [row] = await sql<IdempotencyRecordState[]>`
    select request_hash as "requestHash", state, response_status as status, response_body as body,
           expires_at <= now() as expired,
           created_at <= now() - make_interval(secs => ${args.abandonedAfterSeconds}::double precision) as abandoned
    from idempotency_records where api_key_id = ${args.apiKeyId} and key = ${args.key}`;
  return row ?? null;
}
