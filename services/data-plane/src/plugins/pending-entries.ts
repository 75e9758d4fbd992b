import { readPendingEntryBacklog } from '@raffle/db';
import { settlePendingEntries, systemClock, type SettlePass } from '@raffle/domain';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Counter, Gauge } from 'prom-client';
import { beaconChainOf, chainReaderOf, configOf, socialReaderOf } from '../decorations.js';
import { RaffleBackoff } from './raffle-backoff.js';

/** What the entry route tells the resolver: a pending entry was just stored, look soon. */
export type PendingEntryResolver = { nudge(): void };

/** The longest the resolver waits between passes while the chain does not answer. */
const MAX_BACKOFF_MS = 30_000;
/** After a nudge: long enough for a rush of pending entries to gather into one batch. */
const NUDGE_DELAY_MS = 250;

/** An error as logs may show it: no wallet address (an RPC error can quote its request). */
const loggable = (error: unknown) => {
  const e = error instanceof Error ? error : new Error(String(error));
  return { name: e.name, message: e.message.replace(/0x[0-9a-fA-F]{40}/g, '0x…').slice(0, 300) };
};

/**
 * Settles the entries accepted `pending` while the chain did not answer (decision 0027), or a
 * provider a Discord or X requirement reads was silent or asked to wait (decision 0045): every
 * PENDING_ENTRIES_INTERVAL_MS, and shortly after this instance stored one, a pass claims a batch
 * (`FOR UPDATE SKIP LOCKED`, so every replica may run it), reads the chain once per raffle of the
 * batch, and settles each entry valid or invalid with its `entry.updated` event; full batches are
 * followed at once by the next. A raffle whose read failed is left out of the next passes for a
 * while (doubling, at most 30 s; raffle-backoff.ts), so one raffle's failing gate neither delays
 * another's entries nor crowds them out of a batch. While the chain stays silent for every raffle
 * the passes back off the same way. Exports the backlog, which the RafflePendingEntriesBehind alert watches.
 */
async function pendingEntriesPlugin(app: FastifyInstance) {
  const config = configOf(app);
  const metrics = pendingMetrics(app);
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let stopped = false;
  let backoffMs = config.PENDING_ENTRIES_INTERVAL_MS;
  const silentRaffles = new RaffleBackoff(config.PENDING_ENTRIES_INTERVAL_MS, MAX_BACKOFF_MS);
  const log = app.log.child({ component: 'pending-entries' });

  const schedule = (ms: number) => {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => void runPasses(), ms);
  };

  async function pass(): Promise<SettlePass> {
    return settlePendingEntries({
      db: app.database.db,
      chain: { reader: chainReaderOf(app), timeoutMs: config.PENDING_ENTRIES_CHAIN_TIMEOUT_MS },
      social: { reader: socialReaderOf(app) },
      batchSize: config.PENDING_ENTRIES_BATCH_SIZE,
      beacon: beaconChainOf(app),
      clock: systemClock,
      skipRaffleIds: silentRaffles.waiting(Date.now()),
    });
  }

  async function runPasses(): Promise<void> {
    if (running || stopped) return;
    let next = config.PENDING_ENTRIES_INTERVAL_MS;
    running = (async () => {
      try {
        for (;;) {
          const done = await pass();
          silentRaffles.record(done, Date.now());
          metrics.settled.inc({ outcome: 'valid' }, done.valid);
          metrics.settled.inc({ outcome: 'invalid' }, done.invalid);
          if (done.chainSilent) {
            metrics.chainSilent.inc();
            backoffMs = Math.min(backoffMs * 2, MAX_BACKOFF_MS);
            next = backoffMs;
            log.warn({ claimed: done.claimed, waitingOnProvider: done.waitingOnProvider, retryInMs: next }, 'pending entries wait: the chain or a provider did not answer');
            break;
          }
          backoffMs = config.PENDING_ENTRIES_INTERVAL_MS;
          if (done.valid + done.invalid > 0) log.info({ valid: done.valid, invalid: done.invalid }, 'pending entries settled');
          if (done.silentRaffleIds.length > 0) {
            log.warn({ raffles: done.silentRaffleIds.length, waitingOnProvider: done.waitingOnProvider }, 'pending entries of some raffles wait: their chain reads failed, or a provider did not answer or asked to wait');
          }
          if (stopped || done.claimed < config.PENDING_ENTRIES_BATCH_SIZE) break;
        }
      } catch (error) {
        // A lock not granted in time, a lost connection: the entries stay pending for the next pass.
        log.error({ error: loggable(error) }, 'pending entry pass failed');
      }
      try {
        const backlog = await readPendingEntryBacklog(app.database.db);
        metrics.pending.set(backlog.count);
        metrics.oldestAge.set(backlog.oldestCreatedAt ? Math.max(0, (Date.now() - backlog.oldestCreatedAt.getTime()) / 1000) : 0);
      } catch {
        // The gauges keep their last values; the next pass tries again.
      }
    })();
    await running;
    running = null;
    schedule(next);
  }

  const resolver: PendingEntryResolver = {
    nudge() {
      // While the chain is silent the backoff decides; a nudge only hurries a healthy resolver.
      if (config.PENDING_ENTRIES_ENABLED && !running && backoffMs === config.PENDING_ENTRIES_INTERVAL_MS) schedule(NUDGE_DELAY_MS);
    },
  };
  app.decorate('pendingEntries', resolver);
  if (!config.PENDING_ENTRIES_ENABLED) return;

  app.addHook('onReady', async () => schedule(0));
  app.addHook('onClose', async () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    await running;
  });
}

/** What operators watch of the resolver (infra/prometheus/alerts.yaml). */
function pendingMetrics(app: FastifyInstance) {
  const registers = [app.metricsRegistry];
  const settled = new Counter({
    name: 'raffle_pending_entries_settled_total',
    help: 'Pending entries this instance settled once the chain answered, by outcome',
    labelNames: ['outcome'] as const,
    registers,
  });
  for (const outcome of ['valid', 'invalid']) settled.inc({ outcome }, 0);
  return {
    settled,
    chainSilent: new Counter({ name: 'raffle_pending_entry_passes_chain_silent_total', help: 'Resolver passes that found the chain silent and left their batch pending', registers }),
    pending: new Gauge({ name: 'raffle_pending_entries', help: 'Entries waiting for the chain to be evaluated (status pending), all raffles', registers }),
    oldestAge: new Gauge({
      name: 'raffle_pending_entry_oldest_age_seconds',
      help: 'How long the oldest pending entry has waited for its on-chain requirements to be evaluated (0 when none waits)',
      registers,
    }),
  };
}

export default fp(pendingEntriesPlugin, { name: 'pending-entries', dependencies: ['config', 'database', 'metrics', 'chain-reader', 'social-reader'] });
