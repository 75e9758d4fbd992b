import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIdempotencyStore, requestFingerprint } from '@raffle/service-kit';
import { buildTestApp } from './support/app.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { responseViolations } from './support/error-invariants.js';
import { createLifecycleWorld, type LifecycleWorld } from './support/lifecycle.js';
import { withLostReplies } from './support/lost-replies.js';

/**
 * `Idempotency-Key` on POST /api/v1/raffles/{slug}/entries: a retry replays the first answer
 * (success or refusal) byte for byte, a key cannot be reused for another request, concurrent
 * requests with one key enter once, and a failure frees the key for a retry, also when the
 * database failed under it (the faults stage does the same with real outages: faults/idempotent-retries).
 */

let db: TestDatabase;
let app: FastifyInstance;
let world: LifecycleWorld;

beforeAll(async () => {
  db = await createTestDatabase();
  world = await createLifecycleWorld(db.database);
  app = await buildTestApp(db.database, db.url);
});
afterAll(async () => {
  await app?.close();
  await db?.drop();
});

type Headers = Record<string, string>;
const enterThrough = (target: FastifyInstance, slug: string, headers: Headers, payload?: string) =>
  target.inject({
    method: 'POST',
    url: `/api/v1/raffles/${slug}/entries`,
    headers: payload === undefined ? headers : { 'content-type': 'application/json', ...headers },
    ...(payload === undefined ? {} : { payload }),
  });
const enter = (slug: string, headers: Headers, payload?: string) => enterThrough(app, slug, headers, payload);

/** A request's hold on a key, as the plugin makes it: the scope and a token of its own. */
const heldKey = (apiKeyId: string, key: string = randomUUID()) => ({ apiKeyId, key, claimToken: randomUUID() });

const entryCount = async (raffleId: string) => {
  const [row] = await db.database.sql<{ n: number }[]>`select count(*)::int as n from entries where raffle_id = ${raffleId}`;
  return row!.n;
};

const record = async (keyId: string, key: string) => {
  const [row] = await db.database.sql<{ state: string; status: number | null; ttlSeconds: number }[]>`
    select state, response_status as status, extract(epoch from expires_at - created_at)::float8 as "ttlSeconds"
    from idempotency_records where api_key_id = ${keyId} and key = ${key}`;
  return row ?? null;
};

describe('replaying', () => {
  it('answers a retry with the same key with the first response, byte for byte, marked as a replay; one entry exists', async () => {
    const raffle = await world.open();
    const me = await world.entrant();
    const headers = { ...me.headers, 'idempotency-key': randomUUID() };
    const first = await enter(raffle.slug, headers);
    expect(first.statusCode, first.body).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();

    for (const payload of [undefined, '{}']) {
      const again = await enter(raffle.slug, headers, payload);
      expect(again.statusCode).toBe(201);
      expect(again.body).toBe(first.body);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.headers['content-type']).toMatch(/^application\/json\b/);
    }
    expect(await entryCount(raffle.id)).toBe(1);
    const stored = await record(me.keyId, headers['idempotency-key']);
    expect(stored).toMatchObject({ state: 'completed', status: 201 });
    // Kept for 24 hours.
    expect(stored!.ttlSeconds).toBeCloseTo(86_400, 0);
  });

  it('without a key, a retry is a new request (409 ALREADY_ENTERED)', async () => {
    const raffle = await world.open();
    const me = await world.entrant();
    expect((await enter(raffle.slug, me.headers)).statusCode).toBe(201);
    expect((await enter(raffle.slug, me.headers)).json().code).toBe('ALREADY_ENTERED');
  });

  it('replays a refusal too (422 stays 422 even once the user qualifies), until a new key is used', async () => {
    const raffle = await world.open({ requirements: [{ id: 'email', type: 'email_verified', label: 'Verify your email', params: {} }] });
    const me = await world.entrant();
    const headers = { ...me.headers, 'idempotency-key': `enter-${randomUUID()}` };
    const refused = await enter(raffle.slug, headers);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().failedRequirements).toEqual([{ type: 'email_verified', label: 'Verify your email' }]);

    await db.database.sql`update users set email_verified_at = now() where id = ${me.user.id}`;
    const replayed = await enter(raffle.slug, headers);
    expect(replayed.statusCode).toBe(422);
    expect(replayed.body).toBe(refused.body);
    expect(replayed.headers['idempotent-replayed']).toBe('true');

    const fresh = await enter(raffle.slug, { ...me.headers, 'idempotency-key': randomUUID() });
    expect(fresh.statusCode, fresh.body).toBe(201);
  });

  it('keeps keys per API key: another key of the same user may use the same Idempotency-Key', async () => {
    const raffle = await world.open({ spots: 10 });
    const a = await world.entrant();
    const b = await world.entrant();
    const key = 'shared-key-1';
    expect((await enter(raffle.slug, { ...a.headers, 'idempotency-key': key })).statusCode).toBe(201);
    const other = await enter(raffle.slug, { ...b.headers, 'idempotency-key': key });
    expect(other.statusCode).toBe(201);
    expect(other.headers['idempotent-replayed']).toBeUndefined();
    expect(await entryCount(raffle.id)).toBe(2);
  });
});

describe('conflicts', () => {
  it('answers 409 IDEMPOTENCY_KEY_REUSED for the same key with another body or another raffle', async () => {
    const raffle = await world.open();
    const other = await world.open();
    const me = await world.entrant();
    const headers = { ...me.headers, 'idempotency-key': randomUUID() };
    expect((await enter(raffle.slug, headers)).statusCode).toBe(201);

    for (const res of [await enter(raffle.slug, headers, '{"weight":5}'), await enter(other.slug, headers)]) {
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json().code).toBe('IDEMPOTENCY_KEY_REUSED');
      expect(responseViolations(res, { method: 'POST' })).toEqual([]);
    }
    expect(await entryCount(other.id)).toBe(0);
  });

  it('answers 409 IDEMPOTENCY_KEY_IN_PROGRESS with Retry-After while the first request with the key is still running', async () => {
    const raffle = await world.open();
    const me = await world.entrant();
    const key = randomUUID();
    const store = createIdempotencyStore(db.database.sql);
    const fingerprint = requestFingerprint({ method: 'POST', route: '/api/v1/raffles/:slug/entries', params: { slug: raffle.slug }, body: {} });
    expect(await store.claim(heldKey(me.keyId, key), { method: 'POST', path: `/api/v1/raffles/${raffle.slug}/entries`, fingerprint })).toEqual({ outcome: 'run' });

    const res = await enter(raffle.slug, { ...me.headers, 'idempotency-key': key });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('IDEMPOTENCY_KEY_IN_PROGRESS');
    // The SDK, and any client, sends the same request again after this many seconds.
    expect(res.headers['retry-after']).toBe('1');
    expect(responseViolations(res, { method: 'POST' })).toEqual([]);
    expect(await entryCount(raffle.id)).toBe(0);
  });

  it('lets 20 concurrent requests with one key enter exactly once: identical 201s, the rest 409 IN_PROGRESS, no 5xx', async () => {
    const raffle = await world.open();
    const me = await world.entrant();
    const headers = { ...me.headers, 'idempotency-key': randomUUID() };
    const responses = await Promise.all(Array.from({ length: 20 }, () => enter(raffle.slug, headers)));
    const created = responses.filter((r) => r.statusCode === 201);
    const busy = responses.filter((r) => r.statusCode === 409);
    expect(created.length + busy.length, responses.map((r) => `${r.statusCode} ${r.body}`).join('\n')).toBe(20);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((r) => r.body)).size).toBe(1);
    expect(created.filter((r) => r.headers['idempotent-replayed'] === undefined)).toHaveLength(1);
    for (const r of busy) expect(r.json().code).toBe('IDEMPOTENCY_KEY_IN_PROGRESS');
    expect(await entryCount(raffle.id)).toBe(1);

    const after = await enter(raffle.slug, headers);
    expect(after.statusCode).toBe(201);
    expect(after.body).toBe(created[0]!.body);
  });
});

describe('the key itself', () => {
  it.each([
    ['empty', ''],
    ['longer than 255 characters', 'k'.repeat(256)],
    ['non-ASCII', 'clé-unique'],
    ['a control character', 'a\tb'],
  ])('answers 400 INVALID_IDEMPOTENCY_KEY for a key that is %s, and enters nobody', async (_what, key) => {
    const raffle = await world.open();
    const me = await world.entrant();
    const res = await enter(raffle.slug, { ...me.headers, 'idempotency-key': key });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().code).toBe('INVALID_IDEMPOTENCY_KEY');
    expect(responseViolations(res, { method: 'POST' })).toEqual([]);
    expect(await entryCount(raffle.id)).toBe(0);
  });

  it('accepts 255 printable ASCII characters, spaces and punctuation included', async () => {
    const raffle = await world.open();
    const me = await world.entrant();
    const key = `a b~!"#$%&'()*+,-./:;<=>?@[\\]^_\`{|}`.padEnd(255, 'z');
    const res = await enter(raffle.slug, { ...me.headers, 'idempotency-key': key });
    expect(res.statusCode, res.body).toBe(201);
    expect((await enter(raffle.slug, { ...me.headers, 'idempotency-key': key })).headers['idempotent-replayed']).toBe('true');
  });

  it('answers 400, not 500, to a body nested 5,000 deep under a key (the fingerprint runs before validation)', async () => {
    const raffle = await world.open();
    const me = await world.entrant();
    const res = await enter(raffle.slug, { ...me.headers, 'idempotency-key': randomUUID() }, '['.repeat(5000) + ']'.repeat(5000));
    expect(res.statusCode, res.body).toBe(400);
    expect(responseViolations(res, { method: 'POST' })).toEqual([]);
  });

  it('does not hold the key for a request refused by validation: the corrected request runs under it', async () => {
    const raffle = await world.open();
    const me = await world.entrant();
    const headers = { ...me.headers, 'idempotency-key': randomUUID() };
    expect((await enter(raffle.slug, headers, '{"weight":5}')).statusCode).toBe(400);
    expect(await record(me.keyId, headers['idempotency-key'])).toBeNull();
    expect((await enter(raffle.slug, headers)).statusCode).toBe(201);
  });
});

describe('failures and expiry', () => {
  it('releases the key when the request fails unexpectedly (500), so the retry runs', async () => {
    const raffle = await world.open();
    const me = await world.entrant();
    const headers = { ...me.headers, 'idempotency-key': randomUUID() };
    const fn = `fail_entries_${me.user.id.toLowerCase().replace(/[^a-z0-9]/g, '')}`;
    await db.database.sql.unsafe(`
      create function ${fn}() returns trigger language plpgsql as $$ begin raise exception 'injected failure'; end $$;
      create trigger ${fn} before insert on entries for each row when (new.user_id = '${me.user.id}') execute function ${fn}();`);
    try {
      const failed = await enter(raffle.slug, headers);
      expect(failed.statusCode).toBe(500);
      expect(failed.json().code).toBe('INTERNAL_ERROR');
      expect(await record(me.keyId, headers['idempotency-key'])).toBeNull();
    } finally {
      await db.database.sql.unsafe(`drop trigger ${fn} on entries; drop function ${fn}();`);
    }
    const retried = await enter(raffle.slug, headers);
    expect(retried.statusCode, retried.body).toBe(201);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
  });

  it('a claim whose insert committed with its answer lost (a connection cut) is released by its token: 503, and the retry runs at once', async () => {
    const raffle = await world.open();
    const me = await world.entrant();
    const headers = { ...me.headers, 'idempotency-key': randomUUID() };
    const cut = withLostReplies(db.database, { matches: (statement) => statement.includes('insert into idempotency_records'), times: 1, ran: true });
    const cutApp = await buildTestApp(cut.database, db.url);
    try {
      const failed = await enterThrough(cutApp, raffle.slug, headers);
      expect(failed.statusCode, failed.body).toBe(503);
      expect(failed.headers['retry-after']).toBe('1');
      expect(cut.lost()).toBe(1);
      const retried = await enterThrough(cutApp, raffle.slug, headers);
      expect(retried.statusCode, retried.body).toBe(201);
      expect(retried.headers['idempotent-replayed']).toBeUndefined();
    } finally {
      await cutApp.close();
    }
    expect(await entryCount(raffle.id)).toBe(1);
  });

  it('a release the database cannot take now is written once it can: the key is free again long before it would count as abandoned', async () => {
    const raffle = await world.open();
    const me = await world.entrant();
    const key = randomUUID();
    const headers = { ...me.headers, 'idempotency-key': key };
    // The entry fails as when the database goes away mid-transaction (a connection-class SQLSTATE: 503), and so do the first releases.
    const fn = `outage_entries_${me.user.id.toLowerCase().replace(/[^a-z0-9]/g, '')}`;
    await db.database.sql.unsafe(`
      create function ${fn}() returns trigger language plpgsql as $$ begin raise exception 'injected outage' using errcode = '08006'; end $$;
      create trigger ${fn} before insert on entries for each row when (new.user_id = '${me.user.id}') execute function ${fn}();`);
    const isRelease = (statement: string) => /delete from idempotency_records\s+where/.test(statement) && statement.includes("'in_progress'");
    const cut = withLostReplies(db.database, { matches: isRelease, times: 3, ran: false });
    const cutApp = await buildTestApp(cut.database, db.url);
    try {
      try {
        const failed = await enterThrough(cutApp, raffle.slug, headers);
        expect(failed.statusCode, failed.body).toBe(503);
      } finally {
        await db.database.sql.unsafe(`drop trigger ${fn} on entries; drop function ${fn}();`);
      }
      // Nobody retries yet: the instance releases the key on its own once the database takes it.
      await expect.poll(() => record(me.keyId, key), { timeout: 10_000, interval: 100 }).toBeNull();
      expect(cut.lost()).toBe(3);
      const retried = await enterThrough(cutApp, raffle.slug, headers);
      expect(retried.statusCode, retried.body).toBe(201);
    } finally {
      await cutApp.close();
    }
    expect(await entryCount(raffle.id)).toBe(1);
  });

  it('treats an expired record as absent: the key runs again (and the old record is gone)', async () => {
    const raffle = await world.open({ requirements: [{ id: 'email', type: 'email_verified', label: 'Verify your email', params: {} }] });
    const me = await world.entrant();
    const headers = { ...me.headers, 'idempotency-key': randomUUID() };
    expect((await enter(raffle.slug, headers)).statusCode).toBe(422);
    await db.database.sql`update users set email_verified_at = now() where id = ${me.user.id}`;
    await db.database.sql`update idempotency_records set expires_at = now() - interval '1 second' where api_key_id = ${me.keyId}`;
    const res = await enter(raffle.slug, headers);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
    expect(await record(me.keyId, headers['idempotency-key'])).toMatchObject({ state: 'completed', status: 201 });
  });

  it('takes over a record abandoned in progress (an instance died mid-request) instead of blocking the key for a day', async () => {
    const raffle = await world.open();
    const me = await world.entrant();
    const key = randomUUID();
    const store = createIdempotencyStore(db.database.sql);
    const fingerprint = requestFingerprint({ method: 'POST', route: '/api/v1/raffles/:slug/entries', params: { slug: raffle.slug }, body: {} });
    await store.claim(heldKey(me.keyId, key), { method: 'POST', path: '/x', fingerprint });
    await db.database.sql`update idempotency_records set created_at = now() - interval '10 minutes' where api_key_id = ${me.keyId} and key = ${key}`;
    const res = await enter(raffle.slug, { ...me.headers, 'idempotency-key': key });
    expect(res.statusCode, res.body).toBe(201);
    expect(await record(me.keyId, key)).toMatchObject({ state: 'completed', status: 201 });
  });
});

describe('the store on its own', () => {
  it('fingerprints the request, not its spelling: key order and an absent body do not matter', () => {
    const base = { method: 'POST', route: '/r/:slug', params: { slug: 'a' } };
    expect(requestFingerprint({ ...base, body: undefined })).toBe(requestFingerprint({ ...base, body: {} }));
    expect(requestFingerprint({ ...base, body: { a: 1, b: [1, { c: 2, d: 3 }] } })).toBe(requestFingerprint({ ...base, body: { b: [1, { d: 3, c: 2 }], a: 1 } }));
    expect(requestFingerprint({ ...base, body: { a: 1 } })).not.toBe(requestFingerprint({ ...base, body: { a: 2 } }));
    expect(requestFingerprint({ ...base, body: {} })).not.toBe(requestFingerprint({ ...base, params: { slug: 'b' }, body: {} }));
  });

  it('fingerprints the same bytes as before it stopped recursing (stored records stay valid across a deploy)', () => {
    const body = { b: [1, { d: 3, c: 2 }, null, 'x"y'], a: 1.5, u: undefined, n: null, s: 'é\u2028' };
    expect(requestFingerprint({ method: 'POST', route: '/r/:slug', params: { slug: 'a' }, body })).toBe(
      '83d67e1c04a55d3a1bc33b1966fd37e6a4decd867144648c8c96ec496fc4d69c',
    );
  });

  it('fingerprints a body nested 100,000 deep without overflowing the stack', () => {
    let deep: unknown = [];
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(requestFingerprint({ method: 'POST', route: '/r/:slug', params: {}, body: deep })).toMatch(/^[0-9a-f]{64}$/);
  });

  it('claims once, replays after completion, refuses another request, and frees the key on release', async () => {
    const store = createIdempotencyStore(db.database.sql);
    const { keyId } = await world.entrant();
    const first = heldKey(keyId);
    const another = () => ({ ...first, claimToken: randomUUID() });
    const request = { method: 'POST', path: '/p', fingerprint: 'f1' };
    expect(await store.claim(first, request)).toEqual({ outcome: 'run' });
    expect(await store.claim(another(), request)).toEqual({ outcome: 'in_progress' });
    expect(await store.claim(another(), { ...request, fingerprint: 'f2' })).toEqual({ outcome: 'reused' });
    await store.release(first);
    const second = another();
    expect(await store.claim(second, request)).toEqual({ outcome: 'run' });
    await store.complete(second, { status: 201, body: '{"ok":true}' });
    expect(await store.claim(another(), request)).toEqual({ outcome: 'replay', response: { status: 201, body: '{"ok":true}' } });
    // A late release (of a request that lost its key) never deletes a completed record.
    await store.release(second);
    expect(await store.claim(another(), request)).toMatchObject({ outcome: 'replay' });
  });

  it('settles only its own claim: a late release or response of a request whose claim was taken over leaves the new holder alone', async () => {
    const store = createIdempotencyStore(db.database.sql);
    const { keyId } = await world.entrant();
    const slow = heldKey(keyId);
    const request = { method: 'POST', path: '/p', fingerprint: 'f1' };
    expect(await store.claim(slow, request)).toEqual({ outcome: 'run' });
    await db.database.sql`update idempotency_records set created_at = now() - interval '10 minutes' where api_key_id = ${keyId} and key = ${slow.key}`;
    const takeover = { ...slow, claimToken: randomUUID() };
    expect(await store.claim(takeover, request)).toEqual({ outcome: 'run' });

    await store.release(slow);
    await store.complete(slow, { status: 500, body: '{"late":true}' });
    expect(await store.claim({ ...slow, claimToken: randomUUID() }, request)).toEqual({ outcome: 'in_progress' });
    await store.release(takeover);
    expect(await store.claim({ ...slow, claimToken: randomUUID() }, request)).toEqual({ outcome: 'run' });
  });

  it('sweeps expired records in bounded batches and leaves live ones', async () => {
    const expired = createIdempotencyStore(db.database.sql, { ttlMs: -1000 });
    const live = createIdempotencyStore(db.database.sql);
    const { keyId } = await world.entrant();
    const request = { method: 'POST', path: '/p', fingerprint: 'f' };
    const keys = Array.from({ length: 3 }, () => randomUUID());
    for (const key of keys) await expired.claim(heldKey(keyId, key), request);
    const kept = heldKey(keyId);
    await live.claim(kept, request);
    const count = async () => (await db.database.sql`select count(*)::int as n from idempotency_records where api_key_id = ${keyId}`)[0]!.n as number;
    expect(await count()).toBe(4);
    expect(await live.sweepExpired(2)).toBe(2);
    expect(await live.sweepExpired(2)).toBe(1);
    expect(await live.sweepExpired(2)).toBe(0);
    expect(await count()).toBe(1);
    expect(await live.claim({ ...kept, claimToken: randomUUID() }, request)).toEqual({ outcome: 'in_progress' });
  });
});
