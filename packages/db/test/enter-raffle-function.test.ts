import { randomBytes } from 'node:crypto';
import { drizzle } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMigrations } from '../src/migrate.js';
import * as schema from '../src/schema/index.js';
import { enterRaffleInOneStatement, type EntryAttempt } from '../src/writes/entering.js';
import { renderEntryColumns } from '../src/render/entry.js';

// enter_raffle (migration 0015) on its own database: its outcomes, what it stores, and the rules
// that only it enforces now, under concurrency.
const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const name = `t_enter_${randomBytes(5).toString('hex')}`;
const url = Object.assign(new URL(ADMIN_URL), { pathname: `/${name}` }).toString();
const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
const sql = postgres(url, { max: 20, onnotice: () => {} });
const db = drizzle(sql, { schema });

beforeAll(async () => {
  await admin.unsafe(`create database ${name}`);
  await runMigrations(url);
  await sql`insert into workspaces (id, slug, name) values ('wks_1', 'one', 'One')`;
});
afterAll(async () => {
  await sql.end({ timeout: 5 });
  await admin.unsafe(`drop database if exists ${name} with (force)`);
  await admin.end({ timeout: 5 });
});

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}`;

async function user(wallet?: string): Promise<string> {
  const id = `usr_${unique()}`;
  await sql`insert into users (id, handle, profile_json) values (${id}, ${id}, '{}')`;
  if (wallet) await sql`insert into user_wallets (user_id, chain, address, verified) values (${id}, 'solana', ${wallet}, true)`;
  return id;
}

async function raffle(fields: { status?: string; mechanic?: string; spots?: number; requirements?: unknown[]; visibility?: string } = {}): Promise<{ id: string; slug: string }> {
  const id = `raf_${unique()}`;
  await sql`insert into raffles (id, workspace_id, slug, title, mechanic, allocation_type, visibility, status, spots, chain, requirements, settings, published_at, workspace_item_json, public_item_json)
    values (${id}, 'wks_1', ${id}, 'T', ${fields.mechanic ?? 'raffle'}, 'allowlist_gtd', ${fields.visibility ?? 'public'}, ${fields.status ?? 'open'}, ${fields.spots ?? 10}, 'solana',
      ${JSON.stringify(fields.requirements ?? [])}::jsonb, '{}', now(), '{}', '{}')`;
  return { id, slug: id };
}

const attempt = (raffleId: string, userId: string, extra: Partial<EntryAttempt> = {}): EntryAttempt => ({
  ref: { raffleId },
  userId,
  source: 'api',
  ipHash: null,
  at: new Date(),
  fingerprint: null,
  verdict: 'passed',
  weight: '1',
  evaluations: [],
  ...extra,
});

const enter = (raffleId: string, userId: string, extra: Partial<EntryAttempt> = {}) => enterRaffleInOneStatement(db, attempt(raffleId, userId, extra));

async function stored(entryId: string) {
  const [row] = await db.query.entries.findMany({ where: (e, { eq }) => eq(e.id, entryId) });
  return row!;
}

describe('enter_raffle', () => {
  it('stores the entry, its verdicts, both events and the idempotent response in one call, the views filled in as TypeScript renders them', async () => {
    const r = await raffle({ requirements: [{ id: 'req_1', type: 'account_age_days', label: 'Old "enough" \\ account', params: { days: 1 } }] });
    const [planned] = await sql<{ fingerprint: string }[]>`select md5(requirements::text) as fingerprint from raffles where id = ${r.id}`;
    const fingerprint = planned!.fingerprint;
    const u = await user('WaLLet1');
    await sql`insert into idempotency_records (api_key_id, key, method, path, request_hash, state, expires_at) values ('key_1', 'k', 'POST', '/', 'h', 'in_progress', now() + interval '1 minute')`;
    const evaluations = [{ requirementId: 'req_1', type: 'account_age_days' as const, label: 'Old "enough" \\ account', passed: true, detail: 'a "quoted" detail', evidence: { secret: 1 } }];
    const result = await enterRaffleInOneStatement(db, {
      ...attempt(r.id, u, { fingerprint, weight: '2.5', evaluations, ipHash: 'ip1' }),
      ref: { slug: r.slug },
      idempotency: { apiKeyId: 'key_1', key: 'k' },
    });
    expect(result.outcome).toBe('entered');
    if (result.outcome !== 'entered') return;
    const row = await stored(result.entry.id);
    expect(result.entry).toEqual(row);
    expect(row).toMatchObject({ raffleId: r.id, walletSnapshot: 'WaLLet1', entryWeight: '2.500000', status: 'valid', duplicateFlags: {} });
    // The filled template is byte for byte what renderEntryColumns renders from the stored row.
    expect({ workspaceJson: row.workspaceJson, ownerJson: row.ownerJson }).toEqual(
      renderEntryColumns(row, r.slug, [{ type: 'account_age_days', label: 'Old "enough" \\ account', passed: true, detail: 'a "quoted" detail' }]),
    );
    const [verdict] = await sql`select passed, detail, evidence from entry_requirement_evaluations where entry_id = ${row.id}`;
    expect(verdict).toEqual({ passed: true, detail: 'a "quoted" detail', evidence: { secret: 1 } });
    const events = await sql<{ id: string; type: string; payload: string }[]>`select id, type, payload from event_outbox where payload like ${`%${row.id}%`} order by id`;
    expect(events.map((e) => e.type)).toEqual(['entry.created', 'entry.created']);
    expect(events.map((e) => JSON.parse(e.payload).data)).toEqual([JSON.parse(row.ownerJson), JSON.parse(row.workspaceJson)]);
    const [idem] = await sql`select state, response_status, response_body from idempotency_records where api_key_id = 'key_1'`;
    expect(idem).toEqual({ state: 'completed', response_status: 201, response_body: row.ownerJson });
  });

  it('omits an absent wallet and refuses as outcomes: not found, not open, already entered, requirements changed or not met, full', async () => {
    const u = await user();
    const open = await raffle();
    const first = await enter(open.id, u);
    expect(first.outcome).toBe('entered');
    if (first.outcome === 'entered') expect(JSON.parse(first.entry.ownerJson)).not.toHaveProperty('walletSnapshot');
    expect(await enter(open.id, u)).toMatchObject({ outcome: 'already_entered', entryId: first.outcome === 'entered' ? first.entry.id : '' });
    expect(await enter('raf_missing', u)).toEqual({ outcome: 'raffle_not_found' });
    expect(await enter((await raffle({ visibility: 'private' })).id, u)).toEqual({ outcome: 'raffle_not_found' });
    expect(await enter((await raffle({ status: 'closed' })).id, u)).toMatchObject({ outcome: 'raffle_not_open', raffle: { status: 'closed' } });
    const gated = await raffle({ requirements: [{ id: 'req_1', type: 'account_age_days', label: 'Old', params: { days: 1 } }] });
    const changed = await enter(gated.id, u);
    expect(changed).toMatchObject({ outcome: 'requirements_changed', plan: { requirements: [{ id: 'req_1' }], workspaceId: 'wks_1' } });
    const fingerprint = changed.outcome === 'requirements_changed' ? changed.plan.fingerprint : null;
    expect(await enter(gated.id, u, { fingerprint, verdict: 'failed' })).toEqual({ outcome: 'requirements_not_met' });
    expect((await enter(gated.id, u, { fingerprint, verdict: 'pending' })).outcome).toBe('entered');
    const collection = await raffle({ mechanic: 'collection', spots: 1 });
    expect((await enter(collection.id, await user())).outcome).toBe('entered');
    expect(await enter(collection.id, await user())).toMatchObject({ outcome: 'raffle_full', raffle: { spots: 1 } });
  });

  it('flags the earlier entries sharing a signal, patching their views and announcing them', async () => {
    const r = await raffle();
    const a = await enter(r.id, await user('shared'), { ipHash: 'ip' });
    const b = await enter(r.id, await user('other'), { ipHash: 'ip' });
    const c = await enter(r.id, await user('shared'), { ipHash: 'ip' });
    if (a.outcome !== 'entered' || b.outcome !== 'entered' || c.outcome !== 'entered') throw new Error('not entered');
    expect(c.entry.duplicateFlags).toEqual({ walletReuse: [a.entry.id], ipReuse: [a.entry.id, b.entry.id] });
    const earlier = await stored(a.entry.id);
    expect(earlier.duplicateFlags).toEqual({ ipReuse: [b.entry.id, c.entry.id], walletReuse: [c.entry.id] });
    expect(earlier.updatedAt).toEqual(c.entry.createdAt);
    // The patched views are what a re-render of the row gives (key order aside: compared parsed).
    const rendered = renderEntryColumns(earlier, r.slug, []);
    expect(JSON.parse(earlier.workspaceJson)).toEqual(JSON.parse(rendered.workspaceJson));
    expect(earlier.ownerJson).toEqual(rendered.ownerJson);
    const updates = await sql<{ id: string; payload: string }[]>`select id, payload from event_outbox where type = 'entry.updated' and payload like ${`%${a.entry.id}%`} order by id`;
    expect(updates.map((e) => JSON.parse(e.payload).data)).toContainEqual(JSON.parse(earlier.workspaceJson));
  });

  it('two entrants sharing an IP at once both see each other (the signal lock), and one user twice at once enters once', async () => {
    const r = await raffle();
    const [x, y] = [await user(), await user()];
    // Both entries are held just before their insert (its foreign key waits on the users' rows),
    // after their duplicate lookups: without the IP's lock, neither would see the other.
    const holder = await sql.reserve();
    let results: Awaited<ReturnType<typeof enter>>[];
    try {
      await holder`begin`;
      await holder`select 1 from users where id in (${x}, ${y}) for update`;
      const entering = Promise.all([enter(r.id, x, { ipHash: 'pair' }), enter(r.id, y, { ipHash: 'pair' })]);
      await new Promise((resolve) => setTimeout(resolve, 300));
      await holder`commit`;
      results = await entering;
    } finally {
      holder.release();
    }
    const [ex, ey] = results.map((e) => (e.outcome === 'entered' ? e.entry.id : ''));
    expect((await stored(ex!)).duplicateFlags.ipReuse).toEqual([ey]);
    expect((await stored(ey!)).duplicateFlags.ipReuse).toEqual([ex]);

    const u = await user();
    const twice = await Promise.allSettled(Array.from({ length: 4 }, () => enter(r.id, u)));
    const entered = twice.filter((t) => t.status === 'fulfilled' && t.value.outcome === 'entered');
    expect(entered).toHaveLength(1);
    for (const t of twice.filter((t) => t !== entered[0])) {
      if (t.status === 'fulfilled') expect(t.value.outcome).toBe('already_entered');
      else expect((t.reason as { code?: string; constraint_name?: string }).constraint_name).toBe('entries_one_per_user_idx');
    }
  });

  it('entries never commit across a close: those arriving while a close is in flight wait for it, then are refused', async () => {
    const r = await raffle();
    const entrants = await Promise.all(Array.from({ length: 10 }, () => user()));
    const closer = await sql.reserve();
    try {
      await closer`begin`;
      await closer`update raffles set status = 'closed', closed_at = now() where id = ${r.id}`;
      // They read the raffle open (the close is not committed), then queue on its row lock.
      const entering = Promise.all(entrants.map((u) => enter(r.id, u)));
      await new Promise((resolve) => setTimeout(resolve, 300));
      await closer`commit`;
      const results = await entering;
      expect(results.map((x) => x.outcome)).toEqual(entrants.map(() => 'raffle_not_open'));
    } finally {
      closer.release();
    }
    const [count] = await sql<{ n: number }[]>`select count(*)::int as n from entries where raffle_id = ${r.id}`;
    expect(count!.n).toBe(0);
  });
});
