import type { SqlOrTx } from '../client.js';

/** Marks relayed rows published (inside the transaction that locked them). */
export async function markOutboxRowsPublished(tx: SqlOrTx, eventIds: readonly string[]): Promise<void> {
  await tx`update event_outbox set published_at = now() where id = any(${eventIds})`;
}

/**
 * Deletes up to 5000 published rows past retention (retries and recovery need a payload only that
 * long); returns how many.
 */
export async function pruneOutbox(sql: SqlOrTx, retentionDays: number): Promise<number> {
  const rows = await sql`
    delete from event_outbox where ctid in (
      select ctid from event_outbox
      where published_at is not null and published_at < now() - make_interval(days => ${retentionDays})
      limit 5000)
    returning 1`;
  return rows.length;
}
