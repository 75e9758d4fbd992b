import { defineConfig } from 'vitest/config';

/**
 * The console's tests, in the integration stage. The e2e files each start a whole platform
 * (four Node services, a private NATS, a database) and a Chromium, so they run one file at a
 * time: the CI machines and laptops this runs on have two cores.
 */
export default defineConfig({
  resolve: { conditions: ['development'] },
  ssr: { resolve: { conditions: ['development'] } },
  test: {
    name: 'console',
    include: ['test/**/*.test.ts'],
    globalSetup: ['./test/support/global-setup.ts'],
    setupFiles: ['./test/support/log-scan.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
