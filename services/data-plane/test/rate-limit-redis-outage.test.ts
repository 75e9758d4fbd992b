import { startPrivateRedis, type PrivateRedis } from '@raffle/service-kit/testing/faults';
import { collectingLogStream, metricValue, policyParams, randomRateLimitNamespace, waitUntil } from '@raffle/service-kit/testing/rate-limit';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { testConfig } from './support/app.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { captureLogLine } from './support/log-scan.js';
import { seedTenant, type Tenant } from './support/tenant.js';

const MAX = 5;
const COMMAND_TIMEOUT_MS = 200;
const UNREACHABLE = 'rate-limit Redis unreachable';
const REACHABLE_AGAIN = 'rate-limit Redis reachable again';

let db: TestDatabase;
let tenant: Tenant;
let redis: PrivateRedis;
const instances: Array<{ app: FastifyInstance; log: string[] }> = [];
const statuses: number[] = [];
let probes = 0;

beforeAll(async () => {
  db = await createTestDatabase();
  tenant = await seedTenant(db.database);
  redis = await startPrivateRedis();
  const config = testConfig(db.url, {
    REDIS_URL: redis.url,
    RATE_LIMIT_REDIS_NAMESPACE: randomRateLimitNamespace('data-plane'),
    RATE_LIMIT_PERSONAL_MAX: String(MAX),
    RATE_LIMIT_REDIS_TIMEOUT_MS: String(COMMAND_TIMEOUT_MS),
  });
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

/** Personal keys no other phase has used, so each phase starts a fresh count (the ones lacking `profile:read` are answered 403, counted all the same). */
const unusedKeys = () => [tenant.keys.personal, ...Object.values(tenant.keys.personalWithout)];
let nextKey = 0;
const freshKey = () => unusedKeys()[nextKey++]!;

async function send(i: number, key: string) {
  const started = Date.now();
  const res = await instances[i]!.app.inject({ url: '/api/v1/me', headers: { authorization: `Bearer ${key}` } });
  statuses.push(res.statusCode);
  return { res, status: res.statusCode, r: policyParams(res.headers.ratelimit, 'default')?.r, ms: Date.now() - started };
}

/** Unauthenticated requests from ever-new addresses: each one is counted in the store and answered 401. */
async function probe(i: number) {
  probes += 1;
  const res = await instances[i]!.app.inject({ url: '/api/v1/raffles', remoteAddress: `10.77.${(probes >> 8) & 255}.${probes & 255}` });
  statuses.push(res.statusCode);
  return res;
}

const degraded = async () => Promise.all(instances.map(({ app }) => metricValue(app, 'rate_limit_store_degraded')));
const linesOf = (log: string[], message: string) => log.filter((line) => line.includes(message));

async function waitForSharedCounting() {
  return waitUntil(
    async () => {
      await probe(0);
      await probe(1);
      return (await degraded()).every((v) => v === 0);
    },
    10_000,
    'both instances counting in Redis again',
  );
}

/** The redis-server's own pid, to freeze it (SIGSTOP): a hung Redis, not a refused connection. */
async function redisPid(): Promise<number> {
  const client = new Redis(redis.url, { lazyConnect: true });
  await client.connect();
  const info = await client.info('server');
  client.disconnect();
  return Number(/process_id:(\d+)/.exec(info)![1]);
}

/** Keeps Redis busy (a script runs alone) for ARGV[1] milliseconds. */
const BUSY_SCRIPT = `
local started = redis.call('TIME')
local startMs = started[1] * 1000 + math.floor(started[2] / 1000)
while true do
  local now = redis.call('TIME')
  if now[1] * 1000 + math.floor(now[2] / 1000) - startMs >= tonumber(ARGV[1]) then return 1 end
end
`;

describe('data-plane rate limits through Redis outages', () => {
  it('shares one key\'s count across instances while Redis answers', async () => {
    const key = freshKey();
    expect([await send(0, key), await send(1, key), await send(0, key)].map((s) => s.r)).toEqual([MAX - 1, MAX - 2, MAX - 3]);
    expect(await degraded()).toEqual([0, 0]);
  });

  it('one command slower than the timeout on a healthy Redis does not switch counting to memory', async () => {
    const key = freshKey();
    expect((await send(0, key)).r).toBe(MAX - 1);
    // Redis busy for longer than the command timeout, once: what CPU contention does to a healthy server.
    const localBefore = await metricValue(instances[0]!.app, 'rate_limit_local_decisions_total');
    const blocker = new Redis(redis.url);
    // Connected before the script is sent, so the script reaches Redis before the request below
    // does (under load, connecting could take longer than the pause and the request came first).
    await blocker.ping();
    const busy = blocker.eval(BUSY_SCRIPT, 0, String(COMMAND_TIMEOUT_MS * 2));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const slow = await send(0, key);
    await busy;
    blocker.disconnect();
    expect(await metricValue(instances[0]!.app, 'rate_limit_local_decisions_total'), 'the slow command ran into the timeout: decided in memory').toBe(localBefore + 1);
    expect(slow.r, 'decided by what this instance counted').toBe(MAX - 2);
    expect(await degraded()).toEqual([0, 0]);
    expect(await metricValue(instances[0]!.app, 'rate_limit_store_outages_total')).toBe(0);
    expect(linesOf(instances[0]!.log, UNREACHABLE)).toEqual([]);
    // Redis counted the slow command too, when it got to it: the next answer comes from Redis again.
    expect((await send(1, key)).r).toBe(MAX - 3);
  });

  it('answers within the command timeout while Redis hangs, counting in memory', async () => {
    const pid = await redisPid();
    process.kill(pid, 'SIGSTOP');
    try {
      const key = freshKey();
      const seen = [];
      for (let k = 0; k < MAX + 1; k++) seen.push(await send(0, key));
      expect(seen.map((s) => s.status === 429)).toEqual([false, false, false, false, false, true]);
      expect(seen.map((s) => s.r)).toEqual([MAX - 1, MAX - 2, MAX - 3, MAX - 4, 0, 0]);
      // Three requests wait out the timeout (one slow command is not a hang); the rest skip Redis
      // for a second instead of each waiting.
      expect(Math.max(...seen.map((s) => s.ms))).toBeLessThan(COMMAND_TIMEOUT_MS + 500);
      expect(seen.filter((s) => s.ms >= COMMAND_TIMEOUT_MS).length).toBeLessThanOrEqual(3);
      expect((await degraded())[0]).toBe(1);
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    expect(await waitForSharedCounting()).toBeLessThan(5000);
  });

  it('counts per instance while Redis is down (logged once per outage, in metrics, headers truthful, never 5xx) and shares again after its restart', async () => {
    // A key that spent its budget through Redis on instance 0 ...
    const spent = freshKey();
    for (let k = 0; k < MAX; k++) expect((await send(0, spent)).status).toBe(200);

    await redis.stop('SIGKILL');
    // ... gets no fresh budget there when counting falls back to memory; the other instance, which
    // never saw it, allows its own limit: while Redis is down a key gets at most MAX per instance.
    expect((await send(0, spent)).status).toBe(429);
    expect((await send(1, spent)).r).toBe(MAX - 1);
    const key = freshKey();
    const onFirst = [];
    for (let k = 0; k < MAX + 1; k++) onFirst.push(await send(0, key));
    expect(onFirst.map((s) => s.status === 429)).toEqual([false, false, false, false, false, true]);
    expect(onFirst.map((s) => s.r)).toEqual([MAX - 1, MAX - 2, MAX - 3, MAX - 4, 0, 0]);
    expect(onFirst[MAX]!.res.json().code).toBe('RATE_LIMITED');
    expect(Number(onFirst[MAX]!.res.headers['retry-after'])).toBeGreaterThan(0);
    expect((await send(1, key)).r, 'the other instance counts on its own').toBe(MAX - 1);
    for (let k = 0; k < 20; k++) expect((await probe(k % 2)).statusCode).toBe(401);
    expect(Math.max(...onFirst.map((s) => s.ms))).toBeLessThan(1000);
    expect(await degraded()).toEqual([1, 1]);

    await redis.start();
    expect(await waitForSharedCounting()).toBeLessThan(5000);
    const after = freshKey();
    expect([await send(1, after), await send(0, after), await send(1, after)].map((s) => s.r)).toEqual([MAX - 1, MAX - 2, MAX - 3]);

    // The hang was instance 0's first outage, the restart each instance's next: one warning and one recovery line each.
    const [first, second] = instances;
    expect(await metricValue(first!.app, 'rate_limit_store_outages_total')).toBe(2);
    expect(await metricValue(second!.app, 'rate_limit_store_outages_total')).toBe(1);
    expect(linesOf(first!.log, UNREACHABLE)).toHaveLength(2);
    expect(linesOf(first!.log, REACHABLE_AGAIN)).toHaveLength(2);
    expect(linesOf(second!.log, UNREACHABLE)).toHaveLength(1);
    expect(linesOf(second!.log, REACHABLE_AGAIN)).toHaveLength(1);
    for (const { app } of instances) expect(await metricValue(app, 'rate_limit_local_decisions_total')).toBeGreaterThan(0);
  });

  it('never answered 5xx', () => {
    expect(statuses.length).toBeGreaterThan(40);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
  });
});
