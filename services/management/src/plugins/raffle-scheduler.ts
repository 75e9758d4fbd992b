import { startRaffleScheduler, systemClock, type RaffleScheduler } from '@raffle/domain';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Counter, Gauge, Histogram } from 'prom-client';
import { schedulerFailures } from './scheduler-failures.js';
import { beaconChainOf, beaconRoundsOf, chainReaderOf, configOf, socialReaderOf } from '../decorations.js';

/**
 * Moves raffles at their startsAt/endsAt and runs autoDraw/autoFinalize. Every instance may run
 * it: the domain takes each due raffle with `FOR UPDATE SKIP LOCKED`, so each is moved by exactly
 * one. It starts once the app is ready (its first pass is the catch-up after downtime) and stops,
 * waiting for a pass in progress, before the database pool closes.
 */
async function raffleSchedulerPlugin(app: FastifyInstance) {
  const config = configOf(app);
  let running: RaffleScheduler | null = null;
  // `raffleScheduler`: the running scheduler, null when SCHEDULER_ENABLED is false (or before ready); see ManagementApp.
  app.decorate('raffleScheduler', { getter: () => running });
  // Exported by every instance: one with the scheduler off shows no pass (0), so the stall alert
  // fires when no instance runs it.
  const metrics = schedulerMetrics(app);
  if (!config.SCHEDULER_ENABLED) return;
  const log = app.log.child({ component: 'raffle-scheduler' });
  const failures = schedulerFailures(log, metrics.failed);

  app.addHook('onReady', async () => {
    running = startRaffleScheduler({
      db: app.database.db,
      clock: systemClock,
      beacon: beaconChainOf(app),
      rounds: beaconRoundsOf(app),
      chainReader: chainReaderOf(app),
      social: { reader: socialReaderOf(app) },
      intervalMs: config.SCHEDULER_INTERVAL_MS,
      onPass: (pass) => {
        metrics.passes.inc();
        metrics.lastPass.setToCurrentTime();
        failures.passed(pass);
        const overdueBefore = Date.now() - BEACON_OVERDUE_SECONDS * 1000;
        metrics.beaconOverdue.set(pass.waitingOnBeacon.filter((w) => w.roundDueAt.getTime() < overdueBefore).length);
        metrics.chainUnavailable.set(pass.waitingOnChain.filter((w) => w.reason === 'unavailable').length);
        if (pass.waitingOnBeacon.some((w) => w.reason === 'unavailable')) log.warn({ waitingOnBeacon: pass.waitingOnBeacon }, 'auto-draws wait for an unreachable beacon');
        if (pass.waitingOnChain.some((w) => w.reason === 'unavailable')) log.warn({ waitingOnChain: pass.waitingOnChain }, 'auto-draws wait for an unreachable chain');
        metrics.providerWaits.set(pass.waitingOnProvider.length);
        if (pass.waitingOnProvider.length > 0) log.warn({ waitingOnProvider: pass.waitingOnProvider }, 'auto-draws wait for Discord or X: silent, or asking to wait');
        const moved = pass.opened + pass.closed + pass.drawn + pass.finalized + pass.allowlistsPublished;
        // Failures are logged when they start and when they stop (scheduler-failures.ts), not at every pass.
        if (moved > 0) log.info({ pass }, 'raffle scheduler pass');
      },
      onError: (raffleId, error) => failures.failed(raffleId, error),
      onTransition: (transition, lagMs) => metrics.lag.observe({ transition }, lagMs / 1000),
    });
  });

  app.addHook('onClose', async () => {
    const scheduler = running;
    running = null;
    await scheduler?.stop();
  });
}

/** A round this long past its due time is not late publishing: relays are broken or serve another chain. */
const BEACON_OVERDUE_SECONDS = 60;

/** What operators watch of the scheduler (infra/prometheus/alerts.yaml, the Grafana dashboard). */
function schedulerMetrics(app: FastifyInstance) {
  const registers = [app.metricsRegistry];
  return {
    passes: new Counter({ name: 'scheduler_passes_total', help: 'Scheduler passes completed by this instance', registers }),
    lastPass: new Gauge({ name: 'scheduler_last_pass_timestamp_seconds', help: 'When this instance last completed a scheduler pass (unix seconds)', registers }),
    failed: new Counter({ name: 'scheduler_failed_transitions_total', help: 'Due transitions that failed, and passes that failed as a whole (retried at the next pass)', registers }),
    beaconOverdue: new Gauge({
      name: 'raffle_draws_waiting_on_beacon',
      help: `Raffles due to be drawn that the last scheduler pass left closed because their beacon round, due more than ${BEACON_OVERDUE_SECONDS} s ago, could not be fetched`,
      registers,
    }),
    chainUnavailable: new Gauge({
      name: 'raffle_draws_waiting_on_chain',
      help: 'Raffles due to be drawn that the last scheduler pass left closed because a chain their requirements read did not answer (their close block could not be read)',
      registers,
    }),
    providerWaits: new Gauge({
      name: 'raffle_draws_waiting_on_provider',
      help: 'Raffles due to be drawn that the last scheduler pass left closed because Discord or X, which their requirements read, did not answer for some entrant or asked to wait',
      registers,
    }),
    lag: new Histogram({
      name: 'scheduler_transition_lag_seconds',
      help: 'How long after a raffle became due (startsAt, endsAt, its close, its draw) the scheduler moved it, by transition',
      labelNames: ['transition'] as const,
      buckets: [0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300],
      registers,
    }),
  };
}

export default fp(raffleSchedulerPlugin, { name: 'raffle-scheduler', dependencies: ['config', 'database', 'metrics', 'beacon-rounds', 'chain-reader', 'social-reader'] });
