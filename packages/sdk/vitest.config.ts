import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The integration tests build the services in-process from their TypeScript sources, each on a
  // clone of one migrated template database (globalSetup).
  resolve: { conditions: ['development'] },
  ssr: { resolve: { conditions: ['development'] } },
  test: {
    name: 'sdk',
    globalSetup: ['./test/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
