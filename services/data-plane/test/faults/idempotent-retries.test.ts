import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clock, sendRepeatedly, startPrivatePostgres, useFaultDependencies, type PlannedRequest, type PrivatePostgres, type ServiceProcess } from '@raffle/service-kit/testing/faults';
import { entryIdsByEntrant } from '../support/fault-queries.js';
import { startDataPlane } from '../support/fault-service.js';
import { seedFaultTenant, type FaultTenant } from '../support/fault-tenant.js';
import { holdRaffles, terminateConnectionsOf, waitForLockWaits } from '../support/held-raffles.js';
import { codeOf, describeAttempts, retryUntilSettled, type RetryRun } from '../support/idempotent-retry.js';

/**
 * Issue 22, item 3: a request that claimed its Idempotency-Key and then failed with the database
 * (an outage, or its connection cut) must not hold the key once the database is back. Each
 * scenario stops a few entries inside their transactions (their keys claimed, nothing else done),
 * makes the fault, and then retries each one with its key, as a client does after a 503: each retry
 * must get the entry within seconds of the database's return (one entry per entrant, the one the
 * 201 names), where the key used to answer 409 IDEMPOTENCY_KEY_IN_PROGRESS for a minute.
 */

const HELD_ENTRIES = 4;
/** The old claim outlived its request by 60 s; a client that keeps retrying gives up here. */
const RETRY_DEADLINE_MS = 25_000;
/** "Within seconds of recovery": the database's return to every retry's 201, bounded generously for a shared 2-core machine. */
const MAX_RETRY_TO_SUCCESS_MS = 10_000;
const OUTAGE_MS = 1500;
const SERVICE = 'data-plane';

type Scenario = { name: string; fault: (postgres: PrivatePostgres, databaseUrl: string) => Promise<void>; restore: (postgres: PrivatePostgres) => Promise<void> };

const SCENARIOS: Scenario[] = [
  {
    name: 'Postgres fast stop + restart',
    fault: async (postgres) => {
      await postgres.stop('fast');
      await sleep(OUTAGE_MS);
    },
    restore: (postgres) => postgres.start(),
  },
  {
    name: 'Postgres kill -9 postmaster + restart',
    fault: async (postgres) => {
      await postgres.stop('kill');
      await sleep(OUTAGE_MS);
    },
    restore: (postgres) => postgres.start(),
  },
  {
    // The server stays up: only the service's connections go, under the requests holding keys.
    name: "the service's connections cut (pg_terminate_backend)",
    fault: async (_postgres, databaseUrl) => void (await terminateConnectionsOf(databaseUrl, SERVICE)),
    restore: async () => {},
  },
];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const deps = useFaultDependencies({ ownPostgres: () => startPrivatePostgres() });
let service: ServiceProcess;
let tenant: FaultTenant;
const table: string[] = [];

beforeAll(async () => {
  tenant = await deps().withDatabase((database) => seedFaultTenant(database, { entrants: HELD_ENTRIES, raffles: SCENARIOS.length }));
  // Room for the held entries' transactions beside the retries' claims.
  service = await startDataPlane(deps(), { DATABASE_POOL_SIZE: String(HELD_ENTRIES + 4) });
}, 120_000);
afterAll(() => console.log(['idempotent retries after a fault (ms from the database\'s return to the retry\'s 201)', ...table].join('\n')));

/** Entrant `index` entering `slug` with a key of its own, from an address of its own (TRUST_PROXY is on). */
const entering = (slug: string, index: number, scenario: number): PlannedRequest => ({
  kind: 'write',
  label: 'POST /api/v1/raffles/{slug}/entries',
  method: 'POST',
  path: `/api/v1/raffles/${slug}/entries`,
  headers: { authorization: `Bearer ${tenant.entrants[index]!.apiKey}`, 'idempotency-key': randomUUID(), 'x-forwarded-for': `10.78.${scenario}.${index}` },
});

describe('idempotent retries after the database failed under requests holding their keys', () => {
  SCENARIOS.forEach((scenario, scenarioIndex) => {
    it(`${scenario.name}: every retry with the same key gets its one entry within seconds`, async () => {
      const { databaseUrl } = deps();
      const postgres = deps().postgres!;
      const slug = tenant.raffleSlugs[scenarioIndex]!;
      const requests = tenant.entrants.map((_entrant, index) => entering(slug, index, scenarioIndex));

      const hold = await holdRaffles(databaseUrl, [slug]);
      const firstAnswers = Promise.all(requests.map((request) => sendRepeatedly(service.origin, request, 1, 30_000).then(([outcome]) => outcome!)));
      let backAt: number;
      try {
        await waitForLockWaits(databaseUrl, SERVICE, HELD_ENTRIES);
        await scenario.fault(postgres, databaseUrl);
        await scenario.restore(postgres);
        backAt = clock();
      } finally {
        await hold.release();
      }
      const first = await firstAnswers;
      // Each held request failed with the database: it acted on nothing, and says so.
      expect(first.map((o) => o.status)).toEqual(requests.map(() => 503));

      const retries: RetryRun[] = await Promise.all(requests.map((request) => retryUntilSettled(service.origin, request, backAt + RETRY_DEADLINE_MS)));
      const waits = retries.map((run) => (run.succeededAt === null ? null : Math.round(run.succeededAt - backAt)));
      table.push(`${scenario.name}: ${waits.map((w) => w ?? 'never').join(', ')} | ${retries.map((r) => describeAttempts(r.attempts)).join(' / ')}`);

      retries.forEach((run, index) => {
        expect(run.succeededAt, `entrant ${index}'s retries: ${describeAttempts(run.attempts)}`).not.toBeNull();
        expect(run.attempts.at(-1)!.status).toBe(201);
      });
      expect(Math.max(...waits.map((w) => w!))).toBeLessThanOrEqual(MAX_RETRY_TO_SUCCESS_MS);
      // A key still held while the database is back is a moment's wait, and the answer says how long.
      const busy = retries.flatMap((run) => run.attempts).filter((o) => o.status === 409);
      expect(busy.map(codeOf).filter((code) => code !== 'IDEMPOTENCY_KEY_IN_PROGRESS')).toEqual([]);
      expect(busy.filter((o) => !o.headers['retry-after'])).toEqual([]);

      // Exactly one entry per entrant, and it is the one the 201 named.
      const entries = await deps().withDatabase(({ sql }) => entryIdsByEntrant(sql, slug));
      tenant.entrants.forEach((entrant, index) => {
        expect(entries.get(entrant.userId), `entrant ${index}`).toEqual([(retries[index]!.attempts.at(-1)!.body as { id: string }).id]);
      });
      expect(service.exit(), service.output().slice(-3000)).toBeNull();
    }, 90_000);
  });
});
