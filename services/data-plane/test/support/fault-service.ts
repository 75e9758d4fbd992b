import { fileURLToPath } from 'node:url';
import type { FaultDependencies, ServiceProcess } from '@raffle/service-kit/testing/faults';
import { schemaErrors } from './contract-validator.js';
import { captureLogLine } from './log-scan.js';

const SERVER = fileURLToPath(new URL('../../src/server.ts', import.meta.url));

/**
 * `src/server.ts` as a child process on the fault test's own servers. Rate limits are out of the
 * load's way (a test that wants them low says so); the pool is small, as a 2-core CI machine shares it.
 */
export function startDataPlane(deps: FaultDependencies, env: Record<string, string> = {}): Promise<ServiceProcess> {
  return deps.startService({
    name: 'data-plane',
    entry: SERVER,
    env: {
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      DATABASE_URL: deps.databaseUrl,
      DATABASE_POOL_SIZE: '4',
      NATS_URL: deps.nats.url,
      REDIS_URL: deps.redis.url,
      TRUST_PROXY: 'true',
      RATE_LIMIT_PERSONAL_MAX: '1000000',
      RATE_LIMIT_WORKSPACE_MAX: '1000000',
      ...env,
    },
    // The file's log scan then covers the child too: no key may reach its log, outage or not.
    onLogLine: captureLogLine,
  });
}

/** The data plane's error body (ErrorBody, with `code`) for this status. */
export const isDataPlaneErrorBody = (body: unknown, status: number) =>
  schemaErrors('ErrorBody', body).length === 0 && (body as { statusCode: number }).statusCode === status;
