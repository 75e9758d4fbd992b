import { BeaconRoundPending, BeaconUnavailable, createBeaconClient } from '@raffle/beacon';
import type { BeaconRounds } from '@raffle/domain';
import { beaconOf } from '@raffle/service-kit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Counter } from 'prom-client';
import { configOf } from '../decorations.js';

/**
 * `beaconRounds`: the relay client of the pinned chain (BEACON_CHAIN, BEACON_RELAYS), through which
 * manual draws and the scheduler's auto-draws fetch their verified round. Every fetch that gave no
 * round is counted by reason: `pending` (not published yet, normal for a few seconds after a
 * close) and `unavailable` (no relay gave it: what the BeaconUnavailable alert watches).
 */
async function beaconRoundsPlugin(app: FastifyInstance) {
  const { chain, relays } = beaconOf(configOf(app));
  const failures = new Counter({
    name: 'raffle_beacon_fetch_failures_total',
    help: 'Beacon round fetches for draws that gave no round, by reason (pending: not published yet; unavailable: no relay gave a verified round)',
    labelNames: ['reason'] as const,
    registers: [app.metricsRegistry],
  });
  for (const reason of ['pending', 'unavailable']) failures.inc({ reason }, 0);
  const log = app.log.child({ component: 'beacon' });
  const client = createBeaconClient({ chain, relays, onRelayFailure: (failure) => log.warn({ failure }, 'beacon relay failed') });
  const rounds: BeaconRounds = {
    chain,
    async fetchRound(round) {
      try {
        return await client.fetchRound(round);
      } catch (error) {
        if (error instanceof BeaconRoundPending) failures.inc({ reason: 'pending' });
        if (error instanceof BeaconUnavailable) failures.inc({ reason: 'unavailable' });
        throw error;
      }
    },
  };
  app.decorate('beaconRounds', rounds);
}

export default fp(beaconRoundsPlugin, { name: 'beacon-rounds', dependencies: ['config', 'metrics'] });
