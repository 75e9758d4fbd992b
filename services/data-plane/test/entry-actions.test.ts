import { ERROR_CODES } from '@raffle/contracts';
import { cancelRaffle, hashIp } from '@raffle/domain';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, testConfig } from './support/app.js';
import { expectMatchesSchema } from './support/contract-validator.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { responseViolations } from './support/error-invariants.js';
import { createLifecycleWorld, type LifecycleWorld } from './support/lifecycle.js';

/**
 * Native entry actions of personal keys: entering (POST /raffles/{slug}/entries) and withdrawing
 * (DELETE /raffles/{slug}/entries/me), against raffles brought to each state by the domain's own
 * lifecycle functions. Every refusal is the spec's error body with the catalogue's code.
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
const enter = (slug: string, headers: Headers, payload?: string) =>
  app.inject({ method: 'POST', url: `/api/v1/raffles/${slug}/entries`, headers, ...(payload === undefined ? {} : { payload }) });
const withdraw = (slug: string, headers: Headers) => app.inject({ method: 'DELETE', url: `/api/v1/raffles/${slug}/entries/me`, headers });
const myEntry = (slug: string, headers: Headers) => app.inject({ url: `/api/v1/raffles/${slug}/entries/me`, headers });

function expectError(res: Awaited<ReturnType<typeof enter>>, status: number, code: string) {
  expect({ status: res.statusCode, code: res.json().code }, res.body).toEqual({ status, code });
  expect(ERROR_CODES[code as keyof typeof ERROR_CODES]).toBe(status);
  expect(responseViolations(res, { method: 'POST' }), res.body).toEqual([]);
  return res.json() as { message: string; failedRequirements?: unknown };
}

const entryRows = (raffleId: string, userId: string) =>
  db.database.sql<{ id: string; ipHash: string | null }[]>`select id, ip_hash as "ipHash" from entries where raffle_id = ${raffleId} and user_id = ${userId}`;

describe('POST /api/v1/raffles/{slug}/entries', () => {
  it('enters an open raffle: 201 with the sanitized entry, the same one GET /entries/me shows', async () => {
    const raffle = await world.open();
    const me = await world.entrant();
    const res = await enter(raffle.slug, me.headers);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.headers['content-type']).toMatch(/^application\/json\b/);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
    const entry = res.json();
    expectMatchesSchema('SanitizedEntry', entry);
    expect(entry).toMatchObject({ raffleId: raffle.id, raffleSlug: raffle.slug, status: 'valid', source: 'api', entryWeight: '1', requirements: [] });
    expect(JSON.parse((await myEntry(raffle.slug, me.headers)).body)).toEqual(entry);
  });

  it('accepts no body, an empty JSON object, and an empty or blank body labelled JSON alike', async () => {
    const raffle = await world.open({ spots: 10 });
    const variants: Array<[Headers, string | undefined]> = [
      [{}, undefined],
      [{ 'content-type': 'application/json' }, undefined],
      [{ 'content-type': 'application/json' }, '{}'],
      [{ 'content-type': 'application/json' }, ''],
      [{ 'content-type': 'application/json' }, ' \r\n\t'],
      [{ 'content-type': 'application/json; charset=utf-8' }, ' { } '],
    ];
    for (const [headers, payload] of variants) {
      const me = await world.entrant();
      const res = await enter(raffle.slug, { ...me.headers, ...headers }, payload);
      expect(res.statusCode, `${JSON.stringify(payload)}: ${res.body}`).toBe(201);
    }
  });

  it('refuses a body with fields, or one that is not an object, as 400 without entering', async () => {
    const raffle = await world.open();
    const me = await world.entrant();
    for (const payload of ['{"weight":100}', '[]', 'null', '"x"', '{"__proto__":{"a":1}}']) {
      const res = await enter(raffle.slug, { ...me.headers, 'content-type': 'application/json' }, payload);
      expect(res.statusCode, `${payload}: ${res.body}`).toBe(400);
      expect(['VALIDATION_FAILED', 'MALFORMED_JSON']).toContain(res.json().code);
    }
    expectError(await enter(raffle.slug, { ...me.headers, 'content-type': 'application/json' }, '{'), 400, 'MALFORMED_JSON');
    expect(await entryRows(raffle.id, me.user.id)).toHaveLength(0);
  });

  it('answers a body over the limit 413 PAYLOAD_TOO_LARGE and a media type without a parser 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    const raffle = await world.open();
    const me = await world.entrant();
    const big = JSON.stringify({ blob: 'x'.repeat(100 * 1024) });
    expectError(await enter(raffle.slug, { ...me.headers, 'content-type': 'application/json' }, big), 413, 'PAYLOAD_TOO_LARGE');
    expectError(await enter(raffle.slug, { ...me.headers, 'content-type': 'application/xml' }, '<entry/>'), 415, 'UNSUPPORTED_MEDIA_TYPE');
    expect(await entryRows(raffle.id, me.user.id)).toHaveLength(0);
  });

  it('stores the entrant IP only as its keyed hash', async () => {
    const raffle = await world.open();
    const me = await world.entrant();
    const res = await app.inject({ method: 'POST', url: `/api/v1/raffles/${raffle.slug}/entries`, headers: me.headers, remoteAddress: '203.0.113.9' });
    expect(res.statusCode).toBe(201);
    const [row] = await entryRows(raffle.id, me.user.id);
    expect(row!.ipHash).toBe(hashIp(testConfig(db.url).IP_HASH_SECRET, '203.0.113.9'));
    expect(row!.ipHash).not.toContain('203.0.113.9');
  });

  it('answers 409 ALREADY_ENTERED the second time', async () => {
    const raffle = await world.open();
    const me = await world.entrant();
    expect((await enter(raffle.slug, me.headers)).statusCode).toBe(201);
    expectError(await enter(raffle.slug, me.headers), 409, 'ALREADY_ENTERED');
    expect(await entryRows(raffle.id, me.user.id)).toHaveLength(1);
  });

  it('hides drafts and cancelled raffles (404 RAFFLE_NOT_FOUND, as GET /raffles/{slug} does) and refuses closed ones (409 RAFFLE_NOT_OPEN)', async () => {
    const me = await world.entrant();
    const draft = await world.draft();
    expectError(await enter(draft.slug, me.headers), 404, 'RAFFLE_NOT_FOUND');
    expectError(await enter('no-such-raffle', me.headers), 404, 'RAFFLE_NOT_FOUND');

    const closed = await world.open();
    await world.close(closed.id);
    expectError(await enter(closed.slug, me.headers), 409, 'RAFFLE_NOT_OPEN');

    const cancelled = await world.open();
    await cancelRaffle(world.db, { actor: world.team, raffleId: cancelled.id, workspaceId: world.workspace.id });
    expectError(await enter(cancelled.slug, me.headers), 404, 'RAFFLE_NOT_FOUND');
  });

  it('answers 409 RAFFLE_FULL once a collection raffle\'s spots are taken', async () => {
    const raffle = await world.open({ mechanic: 'collection', spots: 1 });
    const first = await world.entrant();
    const second = await world.entrant();
    expect((await enter(raffle.slug, first.headers)).statusCode).toBe(201);
    expectError(await enter(raffle.slug, second.headers), 409, 'RAFFLE_FULL');
    expect(await entryRows(raffle.id, second.user.id)).toHaveLength(0);
  });

  it('answers 422 REQUIREMENTS_NOT_MET naming the failed requirements by type and label, and lets a qualifying user in', async () => {
    const raffle = await world.open({
      requirements: [
        { id: 'wallet', type: 'wallet_connected', label: 'Connect an Ethereum wallet', params: { chain: 'ethereum' } },
        { id: 'age', type: 'account_age_days', label: 'Account at least a day old', params: { min: 1 } },
      ],
    });
    const without = await world.entrant();
    const body = expectError(await enter(raffle.slug, without.headers), 422, 'REQUIREMENTS_NOT_MET');
    expectMatchesSchema('ErrorBody', body);
    expect(body.failedRequirements).toEqual([{ type: 'wallet_connected', label: 'Connect an Ethereum wallet' }]);
    expect(await entryRows(raffle.id, without.user.id)).toHaveLength(0);

    const holder = await world.entrant({ wallets: [{ chain: 'ethereum', address: '0xabc0000000000000000000000000000000000001', verified: true }] });
    const res = await enter(raffle.slug, holder.headers);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().requirements).toEqual([
      { type: 'wallet_connected', label: 'Connect an Ethereum wallet', passed: true },
      { type: 'account_age_days', label: 'Account at least a day old', passed: true },
    ]);
    // The evidence (the wallet address) stays private.
    expect(res.body).not.toContain('0xabc0000000000000000000000000000000000001');
  });

  it('hides a private raffle from non-members (404) and lets members enter', async () => {
    const raffle = await world.open({ visibility: 'private' });
    const outsider = await world.entrant();
    expectError(await enter(raffle.slug, outsider.headers), 404, 'RAFFLE_NOT_FOUND');
    const member = await world.member();
    expect((await enter(raffle.slug, member.headers)).statusCode).toBe(201);
  });

  it('hands FCFS spots out on arrival: the entrant holds a win at once', async () => {
    const raffle = await world.open({ mechanic: 'fcfs', spots: 2 });
    const me = await world.entrant();
    expect((await enter(raffle.slug, me.headers)).statusCode).toBe(201);
    const wins = await app.inject({ url: '/api/v1/wins', headers: me.headers });
    expect(wins.json().data.map((w: { raffleId: string }) => w.raffleId)).toEqual([raffle.id]);
  });
});

describe('DELETE /api/v1/raffles/{slug}/entries/me', () => {
  it('withdraws: 200 with the updated entry, then 409 ENTRY_NOT_WITHDRAWABLE, and the raffle cannot be entered again', async () => {
    const raffle = await world.open();
    const me = await world.entrant();
    const entered = (await enter(raffle.slug, me.headers)).json();
    const res = await withdraw(raffle.slug, me.headers);
    expect(res.statusCode, res.body).toBe(200);
    const entry = res.json();
    expectMatchesSchema('SanitizedEntry', entry);
    expect(entry).toMatchObject({ id: entered.id, status: 'withdrawn', statusReason: expect.any(String) });
    expect(JSON.parse((await myEntry(raffle.slug, me.headers)).body)).toEqual(entry);

    expectError(await withdraw(raffle.slug, me.headers), 409, 'ENTRY_NOT_WITHDRAWABLE');
    expectError(await enter(raffle.slug, me.headers), 409, 'ALREADY_ENTERED');
  });

  it('answers 404 ENTRY_NOT_FOUND without an entry, 404 RAFFLE_NOT_FOUND for an unknown or hidden raffle', async () => {
    const raffle = await world.open();
    const me = await world.entrant();
    expectError(await withdraw(raffle.slug, me.headers), 404, 'ENTRY_NOT_FOUND');
    expectError(await withdraw('no-such-raffle', me.headers), 404, 'RAFFLE_NOT_FOUND');
    const hidden = await world.open({ visibility: 'private' });
    expectError(await withdraw(hidden.slug, me.headers), 404, 'RAFFLE_NOT_FOUND');
  });

  it('refuses once the raffle closed, and for an FCFS entry that already won a spot (409 ENTRY_NOT_WITHDRAWABLE)', async () => {
    const raffle = await world.open();
    const me = await world.entrant();
    expect((await enter(raffle.slug, me.headers)).statusCode).toBe(201);
    await world.close(raffle.id);
    expectError(await withdraw(raffle.slug, me.headers), 409, 'ENTRY_NOT_WITHDRAWABLE');

    const fcfs = await world.open({ mechanic: 'fcfs', spots: 5 });
    expect((await enter(fcfs.slug, me.headers)).statusCode).toBe(201);
    expectError(await withdraw(fcfs.slug, me.headers), 409, 'ENTRY_NOT_WITHDRAWABLE');
  });
});

describe('keys on the entry actions', () => {
  it('refuses a workspace key (403 WRONG_KEY_TYPE) and a personal key without entries:write (403 INSUFFICIENT_SCOPE)', async () => {
    const raffle = await world.open();
    const { apiKey: workspaceKey } = await world.workspaceKey();
    const readOnly = await world.entrant({}, ['profile:read', 'raffles:read', 'entries:read', 'wins:read']);
    for (const call of [enter, withdraw]) {
      expectError(await call(raffle.slug, { authorization: `Bearer ${workspaceKey}` }), 403, 'WRONG_KEY_TYPE');
      expectError(await call(raffle.slug, readOnly.headers), 403, 'INSUFFICIENT_SCOPE');
      expectError(await call(raffle.slug, {}), 401, 'API_KEY_MISSING');
    }
    expect(await entryRows(raffle.id, readOnly.user.id)).toHaveLength(0);
  });

  it('refuses the key before looking at the body or the Idempotency-Key', async () => {
    const raffle = await world.open();
    const { apiKey: workspaceKey } = await world.workspaceKey();
    const res = await enter(raffle.slug, { authorization: `Bearer ${workspaceKey}`, 'content-type': 'application/json', 'idempotency-key': '' }, '{');
    expectError(res, 403, 'WRONG_KEY_TYPE');
  });
});
