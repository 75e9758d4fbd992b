import { NOT_EVALUATED_DETAIL } from '@raffle/domain';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from './support/app.js';
import { expectMatchesSchema } from './support/contract-validator.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { capturedLogLines, registerSecret } from './support/log-scan.js';
import { createLifecycleWorld, type LifecycleWorld } from './support/lifecycle.js';

/**
 * Entries to raffles with on-chain requirements while the chain cannot answer (decision 0027):
 * here no chain is configured at all (CHAIN_RPC_URLS empty), the case of an RPC that is down from
 * the first request. The entry is accepted `pending`, holds no spot, and never shows a wallet;
 * platform requirements still refuse at once.
 */

let db: TestDatabase;
let app: FastifyInstance;
let world: LifecycleWorld;

const NEBULA = '0x00000000000000000000000000000000000b0b0a';
const holdsPass = { id: 'pass', type: 'token_balance', label: 'Holds a Nebula Pass', params: { chain: 'anvil', contract: NEBULA, standard: 'erc721', min: '1' } };

beforeAll(async () => {
  db = await createTestDatabase();
  world = await createLifecycleWorld(db.database);
  // The resolver stays off: the chain never answers here, and the test reads the entries as stored.
  app = await buildTestApp(db.database, db.url, { CHAIN_RPC_URLS: '', PENDING_ENTRIES_ENABLED: 'false' });
});
afterAll(async () => {
  await app?.close();
  await db?.drop();
});

const enter = (slug: string, headers: Record<string, string>) => app.inject({ method: 'POST', url: `/api/v1/raffles/${slug}/entries`, headers });

async function holder() {
  const wallet = registerSecret(`0x${'7'.repeat(38)}${Math.floor(Math.random() * 90 + 10)}`);
  const entrant = await world.entrant({ wallets: [{ chain: 'anvil', address: wallet, verified: true }] });
  return { ...entrant, wallet };
}

describe('the chain does not answer', () => {
  it('accepts the entry as pending: 201, the on-chain requirement not evaluated yet, no wallet shown, entry.created says pending', async () => {
    const raffle = await world.open({ requirements: [holdsPass] as never });
    const me = await holder();
    const res = await enter(raffle.slug, me.headers);
    expect(res.statusCode, res.body).toBe(201);
    const entry = res.json();
    expectMatchesSchema('SanitizedEntry', entry);
    expect(entry).toMatchObject({ status: 'pending', requirements: [{ type: 'token_balance', label: 'Holds a Nebula Pass', passed: false, detail: NOT_EVALUATED_DETAIL }] });
    expect(res.body).not.toContain(me.wallet.slice(2));
    const mine = await app.inject({ url: `/api/v1/raffles/${raffle.slug}/entries/me`, headers: me.headers });
    expect(mine.json()).toEqual(entry);
    const events = await db.database.sql<{ payload: string }[]>`
      select payload from event_outbox where type = 'entry.created' and payload like ${`%${entry.id}%`}`;
    expect(events.map((e) => JSON.parse(e.payload).data.status)).toEqual(['pending', 'pending']);
    expect(capturedLogLines.filter((l) => l.includes(me.wallet))).toEqual([]);
  });

  it('still refuses at once a platform requirement that fails (422), naming only it', async () => {
    const raffle = await world.open({
      requirements: [holdsPass, { id: 'mail', type: 'email_verified', label: 'Verified email', params: {} }] as never,
    });
    const me = await holder();
    const res = await enter(raffle.slug, me.headers);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toMatchObject({ code: 'REQUIREMENTS_NOT_MET', failedRequirements: [{ type: 'email_verified', label: 'Verified email' }] });
  });

  it('an FCFS entry that is pending takes no position: no win, the raffle stays open with every spot left', async () => {
    const raffle = await world.open({ mechanic: 'fcfs', spots: 1, requirements: [holdsPass] as never });
    const first = await enter(raffle.slug, (await holder()).headers);
    const second = await enter(raffle.slug, (await holder()).headers);
    expect([first.statusCode, second.statusCode]).toEqual([201, 201]);
    expect([first.json().status, second.json().status]).toEqual(['pending', 'pending']);
    const [row] = await db.database.sql<{ wins: number; status: string; taken: number }[]>`
      select (select count(*)::int from wins where raffle_id = r.id) as wins, r.status, (select count(*)::int from fcfs_spots s where s.raffle_id = r.id and s.entry_id is not null) as taken from raffles r where r.id = ${raffle.id}`;
    expect(row).toEqual({ wins: 0, status: 'open', taken: 0 });
  });

  it('an Idempotency-Key replay of a pending entry answers the same pending entry', async () => {
    const raffle = await world.open({ requirements: [holdsPass] as never });
    const me = await holder();
    const headers = { ...me.headers, 'idempotency-key': `k-${raffle.id}` };
    const first = await enter(raffle.slug, headers);
    const again = await enter(raffle.slug, headers);
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
  });
});
