import { OUTBOX_NOTIFY_CHANNEL, type RelayedEvent } from '@raffle/contracts';
import type postgres from 'postgres';
import type { Sql, SqlOrTx, SqlTx } from '../client.js';

/**
 * Locks the oldest unpublished outbox rows, up to `limit`, for the transaction `tx`: SKIP LOCKED
 * keeps other relays off them until it ends. Any row still unpublished is found, whatever its
 * `seq` (there is no high-water mark), so a row that commits after a later-numbered one is never skipped.
 */
export async function lockUnpublishedOutboxRows(tx: SqlTx, limit: number): Promise<RelayedEvent[]> {
  return tx<RelayedEvent[]>`
    select id, type, user_id as "userId", workspace_id as "workspaceId", endpoint_id as "endpointId", payload, trace_context as "traceContext"
    from event_outbox where published_at is null
    order by seq limit ${limit}
    for update skip locked`;
}

/** Rows waiting to be relayed, and how long the oldest has waited (0 when none waits). */
export async function readOutboxBacklog(sql: SqlOrTx): Promise<{ events: number; oldestAgeSeconds: number }> {
  const [row] = await sql<{ events: number; age: number | null }[]>`
    select count(*)::int as events, extract(epoch from now() - min(created_at))::float8 as age
    from event_outbox where published_at is null`;
  return { events: row?.events ?? 0, oldestAgeSeconds: Math.max(0, row?.age ?? 0) };
}

/**
 * Calls `onAppend` whenever a transaction that appended events commits (`appendEvents` notifies
 * the channel). Needs a connection of its own: postgres.js holds one for listening.
 */
export function listenForOutboxAppends(sql: Sql, onAppend: () => void): Promise<postgres.ListenMeta> {
  return sql.listen(OUTBOX_NOTIFY_CHANNEL, onAppend);
}
