import { listenForOutboxAppends, pruneOutbox, readOutboxBacklog, type Sql } from '@raffle/db';
import type { FastifyBaseLogger as Logger } from 'fastify';
import { relayOutboxBatch, type PublishEvent } from './outbox-relay.js';

export type RelayLoop = {
  /** Runs rounds until the outbox is empty (tests and shutdown use it). */
  drainNow(): Promise<number>;
  stop(): Promise<void>;
};

const MAX_BACKOFF_MS = 5000;
const PRUNE_EVERY_MS = 10 * 60 * 1000;

/**
 * Keeps the outbox flowing into JetStream: wakes on the NOTIFY every outbox write sends at commit,
 * and on a fallback poll; relays until a round finds nothing. While NATS is unreachable, rounds
 * fail, events wait in Postgres, one warning says so, and rounds back off up to 5 s.
 */
export async function startRelayLoop(options: {
  sql: Sql;
  /** Where to LISTEN for appends; null behind a transaction pooler without a direct connection: the relay then only polls. */
  listenSql: Sql | null;
  publish: PublishEvent;
  isPublishable: () => boolean;
  batchSize: number;
  subjectPrefix: string;
  pollIntervalMs: number;
  retentionDays: number;
  log: Logger;
  afterPublish?: () => Promise<void>;
}): Promise<RelayLoop> {
  const { log } = options;
  let stopped = false;
  let running: Promise<number> | null = null;
  let wakeAgain = false;
  let backoffMs = 0;
  let failing = false;
  let lastBacklog = 0;
  let timer: NodeJS.Timeout | null = null;
  let lastPrune = 0;

  const round = async (): Promise<number> => {
    let total = 0;
    for (;;) {
      if (!options.isPublishable()) throw new Error('NATS is not connected');
      const n = await relayOutboxBatch(options.sql, options.publish, options);
      total += n;
      if (n < options.batchSize) return total;
    }
  };

  const countBacklog = async () => {
    lastBacklog = (await readOutboxBacklog(options.sql)).events;
  };

  const run = async (): Promise<number> => {
    try {
      const n = await round();
      if (failing) log.info({ relayed: n }, 'outbox relay: NATS is back; waiting events are flowing again');
      failing = false;
      backoffMs = 0;
      lastBacklog = 0;
      if (Date.now() - lastPrune > PRUNE_EVERY_MS) {
        lastPrune = Date.now();
        await pruneOutbox(options.sql, options.retentionDays);
      }
      return n;
    } catch (error) {
      // Counted every failed round, not only the first: an outage that began with an empty outbox
      // would otherwise show a backlog of 0 for as long as it lasts.
      await countBacklog().catch(() => undefined);
      if (!failing) {
        log.warn({ reason: (error as Error).message, waiting: lastBacklog }, 'outbox relay: cannot publish; events wait in the outbox and are relayed once NATS is back');
      }
      failing = true;
      backoffMs = Math.min(MAX_BACKOFF_MS, Math.max(250, backoffMs * 2));
      return 0;
    }
  };

  const schedule = (delayMs: number) => {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => void wake(), delayMs);
    timer.unref();
  };

  const wake = async (): Promise<void> => {
    if (stopped) return;
    if (running) {
      wakeAgain = true;
      return;
    }
    running = run();
    await running;
    running = null;
    if (wakeAgain && !failing) {
      wakeAgain = false;
      return wake();
    }
    wakeAgain = false;
    schedule(failing ? backoffMs : options.pollIntervalMs);
  };

  const listener = options.listenSql
    ? await listenForOutboxAppends(options.listenSql, () => {
        if (!failing) void wake();
      })
    : null;
  if (!listener) {
    log.info({ pollIntervalMs: options.pollIntervalMs }, 'outbox relay: no session connection to LISTEN on (DATABASE_POOL_MODE=transaction without DATABASE_DIRECT_URL); polling the outbox instead');
  }
  void wake();

  return {
    async drainNow() {
      while (running) await running;
      return round();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await listener?.unlisten().catch(() => undefined);
      while (running) await running;
    },
  };
}
