import type { RelayedEvent } from '@raffle/contracts';
import { lockUnpublishedOutboxRows, markOutboxRowsPublished, type Sql } from '@raffle/db';

/** Publishes one relayed event; resolves once JetStream has stored it (or dropped it as a duplicate). */
export type PublishEvent = (subject: string, event: RelayedEvent) => Promise<void>;

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
    const rows = await lockUnpublishedOutboxRows(tx, options.batchSize);
    if (rows.length === 0) return 0;
    await Promise.all(rows.map((row) => publish(`${options.subjectPrefix}.${row.type}`, row)));
    await options.afterPublish?.();
    await markOutboxRowsPublished(tx, rows.map((r) => r.id));
    return rows.length;
  });
}
