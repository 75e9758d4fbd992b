import { defineConfig } from 'vitest/config';

/**
 * One run over every package and service, so the summary counts every test once. The test
 * command (scripts/run-tests.ts) runs it in three stages: every other project, then the
 * `*-resilience` ones, then the console's browser journeys. The `*-pgbouncer` projects run a few
 * database-heavy files of a service again through PgBouncer (integration stage).
 */
export default defineConfig({
  test: {
    projects: [
      'packages/*/vitest.config.ts',
      'services/*/vitest.config.ts',
      'services/*/vitest.resilience.config.ts',
      'services/*/vitest.pgbouncer.config.ts',
      'scripts/readme-test/vitest.config.ts',
      'infra/vitest.config.ts',
      'scripts/replica-test/vitest.config.ts',
      'tooling/*/vitest.config.ts',
      'bench/vitest.config.ts',
    ],
  },
});
