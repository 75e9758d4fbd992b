import { BeaconRoundPending, createBeaconClient, startLocalBeacon, type BeaconChain, type VerifiedRound } from '@raffle/beacon';
import { setTimeout as sleep } from 'node:timers/promises';
import { inject } from 'vitest';
import type { TestProject } from 'vitest/node';
import setupTemplateDatabase from './global-setup.js';
import { setupLocalChain } from './local-chain.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** BEACON_CHAIN and BEACON_RELAYS of the run's local beacon. */
    localBeacon: { BEACON_CHAIN: string; BEACON_RELAYS: string };
  }
}

/**
 * Rounds of the tests' beacon are 1 s apart (quicknet's are 3 s): a close fixes the round two
 * after the current one, so a test that draws right after closing waits at most about two
 * periods for it. The period is a parameter of the chain like any other; nothing else differs.
 */
export const TEST_BEACON_PERIOD_SECONDS = 1;

/**
 * Global setup: one local beacon per run (a fresh key, genesis now), its chain and URL provided
 * to the test files, so the services under test pin a chain and ask a relay as they would
 * drand's, and no test reaches the internet.
 */
export async function setupLocalBeacon(project: TestProject): Promise<() => Promise<void>> {
  const beacon = await startLocalBeacon({ port: 0, host: '127.0.0.1', period: TEST_BEACON_PERIOD_SECONDS });
  project.provide('localBeacon', { BEACON_CHAIN: JSON.stringify(beacon.chain), BEACON_RELAYS: beacon.url });
  return () => beacon.close();
}

/** The run's local beacon as service settings (BEACON_CHAIN, BEACON_RELAYS), for a test's config. */
export const localBeaconEnv = (): Record<string, string> => ({ ...inject('localBeacon') });

/** The run's local beacon chain, for a test that closes raffles through the domain as a service would. */
export const localBeaconChain = (): BeaconChain => JSON.parse(inject('localBeacon').BEACON_CHAIN) as BeaconChain;

/**
 * The run's local beacon as a draw's round source that waits for a round not yet published (a
 * period or two after a close), for tests that draw through the domain right after closing.
 */
export function localBeaconRounds(): { chain: BeaconChain; fetchRound(round: number): Promise<VerifiedRound> } {
  const { BEACON_RELAYS } = inject('localBeacon');
  const client = createBeaconClient({ chain: localBeaconChain(), relays: BEACON_RELAYS.split(',') });
  return {
    chain: client.chain,
    async fetchRound(round) {
      for (;;) {
        try {
          return await client.fetchRound(round);
        } catch (error) {
          if (!(error instanceof BeaconRoundPending)) throw error;
          await sleep(Math.max(100, error.retryAfterSeconds * 1000));
        }
      }
    },
  };
}

/**
 * Global setup of a run that builds the services: the migrated template database each file
 * clones, the local beacon the services pin, and the local chain (anvil) they read.
 */
export async function setupDatabaseAndBeacon(project: TestProject): Promise<() => Promise<void>> {
  const dropTemplate = await setupTemplateDatabase(project);
  const stopBeacon = await setupLocalBeacon(project);
  const stopChain = await setupLocalChain(project);
  return async () => {
    await stopChain();
    await stopBeacon();
    await dropTemplate();
  };
}
