import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  formatFaultTable,
  noServerErrorViolations,
  runFaultScenario,
  sendRepeatedly,
  tallyFaultScenario,
  unexpectedStatusViolations,
  useFaultDependencies,
  type FaultTally,
  type RequestOutcome,
  type ServiceProcess,
} from '@raffle/service-kit/testing/faults';
import { acknowledgedEntryIds, dataPlaneRequestPlan } from '../support/fault-load.js';
import { entriesWithCreatedEvents, missingEntryIds } from '../support/fault-queries.js';
import { isDataPlaneErrorBody, startDataPlane } from '../support/fault-service.js';
import { seedFaultTenant } from '../support/fault-tenant.js';

const ANONYMOUS_MAX = 20;
const deps = useFaultDependencies();
let service: ServiceProcess;
let plan: ReturnType<typeof dataPlaneRequestPlan>;
const tallies: FaultTally[] = [];

beforeAll(async () => {
  const tenant = await deps().withDatabase((database) => seedFaultTenant(database, { entrants: 30, raffles: 20 }));
  // One plan for the file: each scenario's writes are pairs no earlier scenario used.
  plan = dataPlaneRequestPlan(tenant);
  service = await startDataPlane(deps(), { RATE_LIMIT_ANONYMOUS_MAX: String(ANONYMOUS_MAX) });
}, 120_000);
afterAll(() => console.log(formatFaultTable('data-plane', tallies)));

const loadOptions = () => ({ origin: service.origin, clients: 4, pauseMs: 30, timeoutMs: 10_000, next: plan.next });
const expectedStatus = (o: RequestOutcome) => o.status === (o.kind === 'write' ? 201 : 200);

/** ANONYMOUS_MAX + 5 keyless requests from one address: past the limit they must be 429 with the error body. */
const anonymousBurst = (origin: string) =>
  sendRepeatedly(origin, { kind: 'read', label: 'GET /api/v1/me (no key)', method: 'GET', path: '/api/v1/me', headers: { 'x-forwarded-for': '10.99.0.1' } }, ANONYMOUS_MAX + 5);

describe('data plane under NATS and Redis outages', () => {
  it('NATS stopped and restarted: reads unaffected, every write commits with its outbox events, the process stays up', async () => {
    const run = await runFaultScenario({ load: loadOptions(), fault: () => deps().nats.stop(), restore: () => deps().nats.start() });
    const acknowledged = acknowledgedEntryIds(run.outcomes);
    const { missing, withEvents } = await deps().withDatabase(async ({ sql }) => ({
      missing: await missingEntryIds(sql, acknowledged),
      withEvents: await entriesWithCreatedEvents(sql, acknowledged),
    }));
    tallies.push(tallyFaultScenario('NATS stop + restart', run.outcomes, run.marks, missing.length));

    expect(service.exit()).toBeNull();
    expect(unexpectedStatusViolations(run, expectedStatus)).toEqual([]);
    const writesWhileDown = run.outcomes.filter((o) => o.kind === 'write' && o.status === 201 && o.startedAt >= run.marks.downAt && o.startedAt < run.marks.backAt);
    expect(writesWhileDown.length).toBeGreaterThan(0);
    expect(missing).toEqual([]);
    expect(withEvents).toBe(acknowledged.length);
  });

  it('Redis killed and restarted: no 5xx, and rate limiting keeps counting during the outage', async () => {
    let burst: RequestOutcome[] = [];
    const run = await runFaultScenario({
      load: loadOptions(),
      fault: async () => {
        await deps().redis.stop('SIGKILL');
        burst = await anonymousBurst(service.origin);
      },
      restore: () => deps().redis.start(),
    });
    const acknowledged = acknowledgedEntryIds(run.outcomes);
    const missing = await deps().withDatabase(({ sql }) => missingEntryIds(sql, acknowledged));
    tallies.push(tallyFaultScenario('Redis kill + restart', run.outcomes, run.marks, missing.length));

    expect(service.exit()).toBeNull();
    expect(noServerErrorViolations(run)).toEqual([]);
    expect(missing).toEqual([]);
    const limited = burst.filter((o) => o.status === 429);
    expect(burst.map((o) => o.status).filter((s) => s !== 401 && s !== 429)).toEqual([]);
    expect(limited.length, 'keyless requests past the limit while Redis is down').toBeGreaterThan(0);
    // The headers tell the truth: the fallback counters count down request by request.
    const remaining = burst.map((o) => Number(/r=(\d+)/.exec(o.headers['ratelimit'] ?? '')?.[1] ?? Number.NaN));
    expect(remaining.every(Number.isFinite), `RateLimit headers while Redis is down: ${JSON.stringify(burst.map((o) => o.headers['ratelimit'] ?? null))}`).toBe(true);
    expect(remaining.slice(1).every((r, i) => r <= remaining[i]!)).toBe(true);
    for (const o of limited) {
      expect(isDataPlaneErrorBody(o.body, 429)).toBe(true);
      expect(o.headers['retry-after']).toBeTruthy();
    }
  });
});
