/**
 * The data plane's environment under test, for its `loadConfig`: the test database, every log
 * line (the log scan reads them), a fixed cursor secret, and limits no test reaches (rate-limit
 * tests set their own). The data plane's own tests use it, and so do management's tests that run
 * a data plane in-process (`@raffle/data-plane/testing`), so both test the same data plane; the
 * variables are the data plane's, so the function lives here rather than in service-kit.
 */
export function dataPlaneTestEnv(databaseUrl: string): Record<string, string> {
  return {
    NODE_ENV: 'test',
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'trace',
    CURSOR_SECRET: 'test-cursor-secret-0123456789',
    RATE_LIMIT_PERSONAL_MAX: '100000',
    RATE_LIMIT_WORKSPACE_MAX: '100000',
    RATE_LIMIT_ANONYMOUS_MAX: '100000',
    RATE_LIMIT_PUBLIC_MAX: '100000',
  };
}
