import { defineConfig } from 'vitest/config';

/**
 * The README test: the README's shell examples run against a platform started the way `start`
 * starts it. In the integration stage (its name does not end in -resilience).
 */
export default defineConfig({
  resolve: { conditions: ['development'] },
  ssr: { resolve: { conditions: ['development'] } },
  test: {
    name: 'readme',
    include: ['*.test.ts'],
    globalSetup: ['./global-setup.ts'],
    setupFiles: ['./log-scan.ts'],
    testTimeout: 240_000,
    hookTimeout: 180_000,
    pool: 'forks',
  },
});
