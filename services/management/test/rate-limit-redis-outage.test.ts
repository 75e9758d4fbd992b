import { startPrivateRedis, type PrivateRedis } from '@raffle/service-kit/testing/faults';
import { collectingLogStream, metricValue, policyParams, randomRateLimitNamespace, waitUntil } from '@raffle/service-kit/testing/rate-limit';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { testConfig } from './support/app.js';
import { expectManagementError } from './support/contract.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { captureLogLine } from './support/log-scan.js';
import { as, freshOwners } from './support/webhook-endpoints.js';

const CAPABILITIES = '/api/developer/capabilities';
const MAX = 5;
const UNREACHABLE = 'rate-limit Redis unreachable';
const REACHABLE_AGAIN = 'rate-limit Redis reachable again';

let db: TestDatabase;
let redis: PrivateRedis;
const instances: Array<{ app: FastifyInstance; log: string[] }> = [];
/** Every answer while Redis went away and came back, background load included. */
const statuses: number[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  redis = await startPrivateRedis();
  const config = testConfig(db.url, { REDIS_URL: redis.url, RATE_LIMIT_REDIS_NAMESPACE: randomRateLimitNamespace('management'), RATE_LIMIT_USER_MAX: String(MAX), RATE_LIMIT_REDIS_TIMEOUT_MS: '200' });
  for (let i = 0; i < 2; i++) {
    const { stream, lines } = collectingLogStream(captureLogLine);
    instances.push({ app: await buildApp(config, { database: db.database, logStream: stream }), log: lines });
  }
});
afterAll(async () => {
  for (const { app } of instances) await app.close();
  await redis?.destroy();
  await db?.drop();
});

const newUser = async () => (await freshOwners(db.database)).personal.userId;
const linesOf = (log: string[], message: string) => log.filter((line) => line.includes(message));

/** One request of `userId` to instance `i`: its status and what the `user` policy says is left. */
async function send(i: number, userId: string) {
  const started = Date.now();
  const res = await instances[i]!.app.inject({ url: CAPABILITIES, headers: as(userId) });
  statuses.push(res.statusCode);
  return { res, status: res.statusCode, r: policyParams(res.headers.ratelimit, 'user')?.r, ms: Date.now() - started };
}

/** Requests without a session from ever-new addresses, to both instances, for as long as the outage test runs. */
function backgroundLoad() {
  let running = true;
  let n = 0;
  const done = (async () => {
    while (running) {
      const res = await instances[n % 2]!.app.inject({ url: CAPABILITIES, remoteAddress: `10.66.${(n >> 8) & 255}.${n & 255}` });
      statuses.push(res.statusCode);
      n += 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  return { stop: async () => ((running = false), await done, n) };
}

describe('management rate limits through a Redis outage', () => {
  it('counts in memory per instance while Redis is down (logged once, in metrics, headers truthful, never 5xx) and shares counters again once it is back', async () => {
    const load = backgroundLoad();

    // Shared: one user's count crosses the instances.
    const before = await newUser();
    expect([await send(0, before), await send(1, before), await send(0, before)].map((s) => s.r)).toEqual([MAX - 1, MAX - 2, MAX - 3]);
    for (const { app } of instances) expect(await metricValue(app, 'rate_limit_store_degraded')).toBe(0);

    await redis.stop('SIGKILL');

    // Down: each instance counts for itself and still enforces the limit.
    const during = await newUser();
    const onFirst = [];
    for (let k = 0; k < MAX + 1; k++) onFirst.push(await send(0, during));
    expect(onFirst.map((s) => s.status)).toEqual([200, 200, 200, 200, 200, 429]);
    expect(onFirst.map((s) => s.r)).toEqual([MAX - 1, MAX - 2, MAX - 3, MAX - 4, 0, 0]);
    expect(Number(onFirst[MAX]!.res.headers['retry-after'])).toBeGreaterThan(0);
    expect(String(expectManagementError(onFirst[MAX]!.res, 429).message)).toMatch(/^RATE_LIMITED: /);
    expect((await send(1, during)).r, 'the other instance counts on its own memory').toBe(MAX - 1);
    // Instance 1 let one of `before`'s three requests through while Redis counted: its memory kept
    // count, so the fallback gives no fresh budget on top of what was already used there.
    expect((await send(1, before)).r, 'and counts what it let through before the outage: its headers say so').toBe(MAX - 2);
    // A Redis outage must not stall requests.
    expect(Math.max(...onFirst.map((s) => s.ms))).toBeLessThan(1000);

    for (const { app, log } of instances) {
      expect(await metricValue(app, 'rate_limit_store_degraded')).toBe(1);
      expect(await metricValue(app, 'rate_limit_store_outages_total')).toBe(1);
      expect(await metricValue(app, 'rate_limit_local_decisions_total')).toBeGreaterThan(0);
      expect(linesOf(log, UNREACHABLE), 'one warning per outage, not one per request').toHaveLength(1);
      expect(JSON.parse(linesOf(log, UNREACHABLE)[0]!).level).toBe(40);
    }

    await redis.start();

    // Back: the first successful command ends the outage on each instance (reconnects back off to 1 s at most).
    const recoveryMs = await waitUntil(
      async () => {
        await send(0, await newUser());
        await send(1, await newUser());
        return (await metricValue(instances[0]!.app, 'rate_limit_store_degraded')) === 0 && (await metricValue(instances[1]!.app, 'rate_limit_store_degraded')) === 0;
      },
      10_000,
      'both instances counting in Redis again',
    );
    expect(recoveryMs).toBeLessThan(5000);
    const after = await newUser();
    expect([await send(1, after), await send(0, after), await send(1, after)].map((s) => s.r)).toEqual([MAX - 1, MAX - 2, MAX - 3]);
    for (const { log } of instances) {
      expect(linesOf(log, REACHABLE_AGAIN)).toHaveLength(1);
      expect(linesOf(log, UNREACHABLE)).toHaveLength(1);
    }

    const sent = await load.stop();
    expect(sent).toBeGreaterThan(20);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    expect(new Set(statuses.filter((s) => s !== 200 && s !== 429 && s !== 401))).toEqual(new Set());
  });
});
