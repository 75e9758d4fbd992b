import { configDefaults, defineConfig } from 'vitest/config';

/**
 * The resilience tests: fault injection (real service processes, private Postgres/NATS/Redis
 * stopped and restarted under load) and fuzzing (ten thousand hostile requests a service).
 */
const RESILIENCE_TESTS = ['test/faults/**/*.test.ts', 'test/**/*fuzz.test.ts'];

/**
 * A service's vitest project. The test command runs `integration` (every other test file,
 * in-process apps against the real Postgres, NATS and Redis: the stage to keep near five
 * minutes), then `resilience`, whose files take minutes by design, then the console's `browser`
 * journeys (scripts/run-tests.ts). The resilience stage's
 * project is named `<service>-resilience`.
 */
export function serviceTestConfig(name: string, stage: 'integration' | 'resilience' = 'integration') {
  return defineConfig({
    resolve: { conditions: ['development'] },
    ssr: { resolve: { conditions: ['development'] } },
    test: {
      name: stage === 'resilience' ? `${name}-resilience` : name,
      ...(stage === 'resilience' ? { include: RESILIENCE_TESTS } : { exclude: [...configDefaults.exclude, ...RESILIENCE_TESTS] }),
      globalSetup: ['./test/support/global-setup.ts'],
      setupFiles: ['./test/support/log-scan.ts'],
      testTimeout: 30_000,
      hookTimeout: 60_000,
      pool: 'forks',
    },
  });
}

/**
 * A service's `<service>-pgbouncer` project: `files` (its database-heavy integration tests) again,
 * with every test database reached through one PgBouncer in transaction mode for the run
 * (TEST_DATABASE_POOLER, read by the kit's global setup and createTestDatabase; docs/decisions/0037).
 * The test command runs it in the integration stage.
 */
export function pooledServiceTestConfig(name: string, files: readonly string[]) {
  const config = serviceTestConfig(name);
  return defineConfig({
    ...config,
    test: { ...config.test, name: `${name}-pgbouncer`, include: [...files], exclude: [...configDefaults.exclude], env: { TEST_DATABASE_POOLER: 'pgbouncer' } },
  });
}
