import { createDatabase, runMigrations, type Database } from '@raffle/db';
import { parseReadCounts, startPrivatePostgresPair, type PrivatePostgresPair } from '@raffle/service-kit/testing/faults';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type DataPlaneApp } from '../src/app.js';
import { testConfig } from './support/app.js';
import { createLifecycleWorld, type LifecycleWorld } from './support/lifecycle.js';
import { testLogStream } from './support/log-scan.js';

/**
 * Reads from a streaming replica (DATABASE_READ_URL, issue 27), on a private primary and a replica
 * made from it with pg_basebackup: where each read goes while the replica keeps up, while its
 * replay is paused, and while it is down. Two app instances share the pair, as two replicas of the
 * service would.
 */

/** Generous on purpose: the windows below must hold on a loaded two-core machine. */
const MAX_STALENESS_MS = 6000;
const STALENESS = 'raffle-staleness-ms';
const READ_AFTER = 'raffle-read-after';

let pair: PrivatePostgresPair;
let primary: Database;
let replica: Database;
let world: LifecycleWorld;
/** Two instances reading from the replica, and one pointed at a "replica" that is really the primary. */
let first: DataPlaneApp;
let second: DataPlaneApp;

const routedApp = (readDatabase: Database) =>
  buildApp(testConfig(pair.url('raffle'), { DATABASE_READ_MAX_STALENESS_MS: String(MAX_STALENESS_MS), DATABASE_READ_SAMPLE_INTERVAL_MS: '50' }), {
    database: primary,
    readDatabase,
    logStream: testLogStream,
  });

beforeAll(async () => {
  pair = await startPrivatePostgresPair();
  const admin = postgres(pair.url('postgres'), { max: 1, onnotice: () => {} });
  await admin`create database raffle`;
  await admin.end();
  await runMigrations(pair.url('raffle'));
  primary = createDatabase({ url: pair.url('raffle'), max: 5 });
  replica = createDatabase({ url: pair.replica.url('raffle'), max: 5 });
  world = await createLifecycleWorld(primary);
  [first, second] = await Promise.all([routedApp(replica), routedApp(replica)]);
}, 180_000);
afterAll(async () => {
  await Promise.all([first?.close(), second?.close()]);
  await Promise.all([primary?.close(), replica?.close()]);
  await pair?.destroy();
});

type Headers = Record<string, string>;
const get = (app: DataPlaneApp, url: string, headers: Headers) => app.inject({ url, headers });

/** `raffle_reads_total` of one instance, by target. */
async function readsBy(app: DataPlaneApp): Promise<Record<string, number>> {
  const counts = parseReadCounts((await app.inject({ url: '/metrics' })).body) ?? {};
  const totals: Record<string, number> = { ...counts };
  for (const [key, n] of Object.entries(counts)) {
    const target = key.split(':')[0]!;
    totals[target] = (totals[target] ?? 0) + n;
  }
  return totals;
}

/** Runs `read` and says where it ran, from the instance's own counter. */
async function whereRead<T>(app: DataPlaneApp, read: () => Promise<T>): Promise<{ answer: T; on: 'replica' | 'primary' }> {
  const before = await readsBy(app);
  const answer = await read();
  const after = await readsBy(app);
  return { answer, on: (after.replica ?? 0) > (before.replica ?? 0) ? 'replica' : 'primary' };
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const replicaReadsResume = (app: DataPlaneApp, headers: Headers) =>
  until('reads to go to the replica again', async () => (await whereRead(app, () => get(app, '/api/v1/me', headers))).on === 'replica');

describe('reads from a streaming replica', () => {
  it('lists and reads go to the replica while it keeps up, and say how stale they may be', async () => {
    const me = await world.entrant();
    await pair.replica.caughtUp();
    await replicaReadsResume(first, me.headers);
    const { answer, on } = await whereRead(first, () => get(first, '/api/v1/raffles', me.headers));
    expect(answer.statusCode, answer.body).toBe(200);
    expect(on).toBe('replica');
    const staleness = Number(answer.headers[STALENESS]);
    expect(staleness).toBeGreaterThanOrEqual(0);
    expect(staleness).toBeLessThanOrEqual(MAX_STALENESS_MS);
  });

  it('with replay paused: lists stay bounded-stale and say so, the entrant reads their own entry at once, on either instance with the token', async () => {
    const raffle = await world.open({ spots: 10 });
    const team = await world.workspaceKey();
    const teamHeaders = { authorization: `Bearer ${team.apiKey}` };
    const entrant = await world.entrant();
    await pair.replica.caughtUp();
    await replicaReadsResume(first, entrant.headers);
    await replicaReadsResume(second, entrant.headers);

    await pair.replica.pauseReplay();
    try {
      const entered = await first.inject({ method: 'POST', url: `/api/v1/raffles/${raffle.slug}/entries`, headers: entrant.headers });
      expect(entered.statusCode, entered.body).toBe(201);
      const token = String(entered.headers[READ_AFTER]);
      expect(token).toMatch(/^[0-9A-F]{1,8}\/[0-9A-F]{1,8}$/);
      const entryId = entered.json().id as string;

      // The entrant's own read on the instance that took the write: the primary, at once.
      const own = await whereRead(first, () => get(first, `/api/v1/raffles/${raffle.slug}/entries/me`, entrant.headers));
      expect(own.answer.statusCode, own.answer.body).toBe(200);
      expect(own.answer.json().id).toBe(entryId);
      expect(own.on).toBe('primary');
      expect(own.answer.headers[STALENESS]).toBe('0');

      // On the other instance, the token carries the write over; without it that instance may
      // answer from the paused replica, which has not seen the entry (stale within the bound).
      const withToken = await get(second, `/api/v1/raffles/${raffle.slug}/entries/me`, { ...entrant.headers, [READ_AFTER]: token });
      expect(withToken.statusCode, withToken.body).toBe(200);
      expect(withToken.json().id).toBe(entryId);
      const withoutToken = await whereRead(second, () => get(second, `/api/v1/raffles/${raffle.slug}/entries/me`, entrant.headers));
      if (withoutToken.on === 'replica') expect(withoutToken.answer.json().code).toBe('ENTRY_NOT_FOUND');

      // The workspace's list of entries: from the replica without the entry, saying how stale it
      // is, until the bound passes; then from the primary, with it. Never staler than the bound.
      const seen: Array<{ on: string; staleness: number; hasEntry: boolean }> = [];
      await until(
        'the list to be read from the primary',
        async () => {
          const { answer, on } = await whereRead(first, () => get(first, `/api/v1/workspaces/${world.workspace.id}/raffles/${raffle.id}/entries`, teamHeaders));
          expect(answer.statusCode, answer.body).toBe(200);
          const hasEntry = (answer.json().data as Array<{ id: string }>).some((e) => e.id === entryId);
          seen.push({ on, staleness: Number(answer.headers[STALENESS]), hasEntry });
          return on === 'primary';
        },
        MAX_STALENESS_MS * 5,
      );
      expect(seen[0]).toMatchObject({ on: 'replica', hasEntry: false });
      for (const read of seen) {
        expect(read.staleness).toBeLessThanOrEqual(MAX_STALENESS_MS);
        if (read.on === 'replica') expect(read.hasEntry).toBe(false);
        else expect(read).toMatchObject({ staleness: 0, hasEntry: true });
      }
      const counted = await readsBy(first);
      expect(counted['primary:too_stale']).toBeGreaterThan(0);
    } finally {
      await pair.replica.resumeReplay();
    }
    await pair.replica.caughtUp();
    await replicaReadsResume(first, entrant.headers);
  });

  it('with the replica down every read is answered from the primary, never an error, and comes back when it does', async () => {
    const raffle = await world.open();
    const entrant = await world.entrant();
    const entered = await first.inject({ method: 'POST', url: `/api/v1/raffles/${raffle.slug}/entries`, headers: entrant.headers });
    expect(entered.statusCode, entered.body).toBe(201);
    await pair.replica.caughtUp();
    await replicaReadsResume(first, entrant.headers);

    await pair.replica.stop('kill');
    try {
      for (const url of ['/api/v1/me', '/api/v1/entries', `/api/v1/raffles/${raffle.slug}/entries/me`, `/api/v1/raffles/${raffle.slug}`]) {
        const answer = await get(first, url, entrant.headers);
        expect(answer.statusCode, `${url}: ${answer.body}`).toBe(200);
        expect(answer.headers[STALENESS], url).toBe('0');
      }
      // The public list is a page shared from a cache: its staleness adds its time there.
      const list = await get(first, '/api/v1/raffles', entrant.headers);
      expect(list.statusCode, list.body).toBe(200);
      expect(Number(list.headers[STALENESS])).toBeLessThanOrEqual(MAX_STALENESS_MS + testConfig(pair.url('raffle')).PUBLIC_RAFFLES_CACHE_TTL_MS);
      const counted = await readsBy(first);
      expect((counted['primary:replica_failed'] ?? 0) + (counted['primary:replica_unavailable'] ?? 0)).toBeGreaterThan(0);
      const metrics = (await first.inject({ url: '/metrics' })).body;
      await until('the replica to be marked unavailable', async () => /^raffle_read_replica_available(\{[^}]*\})? 0$/m.test((await first.inject({ url: '/metrics' })).body));
      expect(metrics).toMatch(/^raffle_read_replica_staleness_ms(\{[^}]*\})? /m);
    } finally {
      await pair.replica.start();
    }
    await pair.replica.caughtUp();
    await replicaReadsResume(first, entrant.headers);
  });

  it('a read database that is not replaying (a primary, or a promoted replica) is never read from', async () => {
    const misconfigured = await routedApp(primary);
    try {
      const me = await world.entrant();
      // Past the first samples: it stays unavailable, whatever it answers.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const { answer, on } = await whereRead(misconfigured, () => get(misconfigured, '/api/v1/me', me.headers));
      expect(answer.statusCode).toBe(200);
      expect(on).toBe('primary');
      expect((await readsBy(misconfigured))['primary:replica_unavailable']).toBeGreaterThan(0);
    } finally {
      await misconfigured.close();
    }
  });

  it('without a read replica every read is on the primary (staleness 0) and writes carry no token', async () => {
    const single = await buildApp(testConfig(pair.url('raffle')), { database: primary, logStream: testLogStream });
    try {
      const raffle = await world.open();
      const entrant = await world.entrant();
      const entered = await single.inject({ method: 'POST', url: `/api/v1/raffles/${raffle.slug}/entries`, headers: entrant.headers });
      expect(entered.statusCode, entered.body).toBe(201);
      expect(entered.headers[READ_AFTER]).toBeUndefined();
      const own = await get(single, `/api/v1/raffles/${raffle.slug}/entries/me`, entrant.headers);
      expect(own.statusCode).toBe(200);
      expect(own.headers[STALENESS]).toBe('0');
      expect((await readsBy(single))['primary:no_replica']).toBeGreaterThan(0);
    } finally {
      await single.close();
    }
  });

  it('refuses a malformed Raffle-Read-After token with 400 VALIDATION_FAILED', async () => {
    const me = await world.entrant();
    for (const token of ['nope', '0/', '123456789/0', '0/16B3748; drop']) {
      const answer = await get(first, '/api/v1/me', { ...me.headers, [READ_AFTER]: token });
      expect({ status: answer.statusCode, code: answer.json().code }, token).toEqual({ status: 400, code: 'VALIDATION_FAILED' });
    }
  });
});
