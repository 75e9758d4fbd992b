import type { RelayedEvent } from '@raffle/contracts';
import type { Sql } from '@raffle/db';

/** Publishes one relayed event; resolves once JetStream has stored it (or dropped it as a duplicate). */
export type PublishEvent = (subject: string, event: RelayedEvent) => Promise<void>;

type OutboxRow = { id: string; type: string; userId: string | null; workspaceId: string | null; endpointId: string | null; payload: string };

/**
 * One relay round: claims a batch of unpublished outbox rows, publishes them, marks them, all in
 * one transaction. There is no high-water mark: any row still unpublished is found, whatever its
 * `seq`, so a row that commits after a later-numbered one is never skipped. The rows stay locked
 * (SKIP LOCKED keeps other relays off them) until marked; if publishing fails — NATS down — or the
 * process dies before the mark commits, they stay unpublished and are published again later, and
 * the event id as `Nats-Msg-Id` (then the per-endpoint delivery key) absorbs the repeat.
 */
export async function relayOutboxBatch(
  sql: Sql,
  publish: PublishEvent,
  options: { batchSize: number; subjectPrefix: string; afterPublish?: () => Promise<void> },
): Promise<number> {
  return sql.begin(async (tx) => {
    const rows = await tx<OutboxRow[]>`
      select id, type, user_id as "userId", workspace_id as "workspaceId", endpoint_id as "endpointId", payload
      from event_outbox where published_at is null
      order by seq limit ${options.batchSize}
      for update skip locked`;
    if (rows.length === 0) return 0;
    await Promise.all(rows.map((row) => publish(`${options.subjectPrefix}.${row.type}`, row)));
    await options.afterPublish?.();
    await tx`update event_outbox set published_at = now() where id = any(${rows.map((r) => r.id)})`;
    return rows.length;
  });
}

/** Published rows past retention: retries and recovery need a payload only that long. */
export async function pruneOutbox(sql: Sql, retentionDays: number): Promise<number> {
  const rows = await sql`
    delete from event_outbox where ctid in (
      select ctid from event_outbox
      where published_at is not null and published_at < now() - make_interval(days => ${retentionDays})
      limit 5000)
    returning 1`;
  return rows.length;
}
