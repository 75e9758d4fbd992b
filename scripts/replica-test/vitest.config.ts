import { defineConfig } from 'vitest/config';

/**
 * Two replicas of every service on one Postgres, NATS and Redis, playing the whole product, then
 * one of each killed with SIGKILL mid-run (issue 14); on a three-node NATS cluster whose stream
 * leaders are killed under load (issue 27, nats-cluster.test.ts); and on the whole cluster
 * topology, NATS cluster, Postgres primary + replica and PgBouncer, with its fault table
 * (cluster-topology.test.ts). Service processes: the resilience stage.
 */
export default defineConfig({
  resolve: { conditions: ['development'] },
  ssr: { resolve: { conditions: ['development'] } },
  test: {
    name: 'replicas-resilience',
    include: ['*.test.ts'],
    globalSetup: ['./global-setup.ts'],
    testTimeout: 180_000,
    hookTimeout: 180_000,
    pool: 'forks',
  },
});
