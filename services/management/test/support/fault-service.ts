import { fileURLToPath } from 'node:url';
import type { FaultDependencies, ServiceProcess } from '@raffle/service-kit/testing/faults';
import { TEST_JWT_SECRET } from './app.js';
import { messageCodeProblems, schemaErrors } from './contract.js';
import { captureLogLine } from './log-scan.js';

const SERVER = fileURLToPath(new URL('../../src/server.ts', import.meta.url));

/** `src/server.ts` as a child process on the fault test's own servers, with a small pool (a 2-core CI machine shares it). */
export function startManagement(deps: FaultDependencies, env: Record<string, string> = {}): Promise<ServiceProcess> {
  return deps.startService({
    name: 'management',
    entry: SERVER,
    env: {
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      DATABASE_URL: deps.databaseUrl,
      DATABASE_POOL_SIZE: '4',
      NATS_URL: deps.nats.url,
      REDIS_URL: deps.redis.url,
      JWT_SECRET: TEST_JWT_SECRET,
      // The load is one user's: the per-user limit would answer 429s that are not what is measured.
      RATE_LIMIT_USER_MAX: '100000',
      ...env,
    },
    // The file's log scan then covers the child too: no token may reach its log, outage or not.
    onLogLine: captureLogLine,
  });
}

/** The management error body (no `code`, its messages led by one) for this status. */
export const isManagementErrorBody = (body: unknown, status: number) =>
  schemaErrors('ManagementErrorBody', body).length === 0 && (body as { statusCode: number }).statusCode === status && messageCodeProblems(body, status).length === 0;
