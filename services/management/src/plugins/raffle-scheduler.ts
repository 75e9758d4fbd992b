import { startRaffleScheduler, systemClock, type RaffleScheduler } from '@raffle/domain';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { configOf } from '../decorations.js';

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
  if (!config.SCHEDULER_ENABLED) return;
  const log = app.log.child({ component: 'raffle-scheduler' });

  app.addHook('onReady', async () => {
    running = startRaffleScheduler({
      db: app.database.db,
      clock: systemClock,
      intervalMs: config.SCHEDULER_INTERVAL_MS,
      onPass: (pass) => {
        const moved = pass.opened + pass.closed + pass.drawn + pass.finalized;
        if (moved > 0 || pass.failed.length > 0) log.info({ pass }, 'raffle scheduler pass');
      },
      onError: (raffleId, error) => log.error({ err: error, raffleId }, 'raffle scheduler transition failed'),
    });
  });

  app.addHook('onClose', async () => {
    const scheduler = running;
    running = null;
    await scheduler?.stop();
  });
}

export default fp(raffleSchedulerPlugin, { name: 'raffle-scheduler', dependencies: ['config', 'database'] });
