import { defineConfig } from 'vitest/config';

/**
 * One run over every package and service, so the summary counts every test once. The test
 * command runs it in two stages (see tooling/vitest/service-test-config.ts): every project but
 * the `*-resilience` ones, then those.
 */
export default defineConfig({
  test: {
    projects: [
      'packages/*/vitest.config.ts',
      'services/*/vitest.config.ts',
      'services/*/vitest.resilience.config.ts',
      'scripts/readme-test/vitest.config.ts',
    ],
  },
});
