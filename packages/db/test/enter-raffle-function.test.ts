import { randomBytes } from 'node:crypto';
import { drizzle } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMigrations } from '../src/migrate.js';
import * as schema from '../src/schema/index.js';
import { enterRaffleInOneStatement, type EntryAttempt } from '../src/writes/entering.js';
import { renderEntryColumns } from '../src/render/entry.js';
import { renderWinColumns } from '../src/render/win.js';
import { identitySnapshotOf } from '../src/queries/winner-identities.js';
import { updateWin } from '../src/writes/wins.js';

// enter_raffle (migrations 0015, 0016, 0019) on its own database: its outcomes, what it stores, and the rules
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

async function user(wallet?: string, displayName?: string): Promise<string> {
  const id = `usr_${unique()}`;
  await sql`insert into users (id, handle, display_name, profile_json) values (${id}, ${id}, ${displayName ?? null}, '{}')`;
  if (wallet) await sql`insert into user_wallets (user_id, chain, address, verified) values (${id}, 'solana', ${wallet}, true)`;
  return id;
}

async function raffle(
  fields: { status?: string; mechanic?: string; spots?: number; requirements?: unknown[]; visibility?: string; title?: string; chain?: string | null } = {},
): Promise<{ id: string; slug: string }> {
  const id = `raf_${unique()}`;
  await sql`insert into raffles (id, workspace_id, slug, title, mechanic, allocation_type, visibility, status, spots, chain, requirements, settings, published_at, workspace_item_json, public_item_json)
    values (${id}, 'wks_1', ${id}, ${fields.title ?? 'T'}, ${fields.mechanic ?? 'raffle'}, 'allowlist_gtd', ${fields.visibility ?? 'public'}, ${fields.status ?? 'open'}, ${fields.spots ?? 10},
      ${fields.chain === undefined ? 'solana' : fields.chain}, ${JSON.stringify(fields.requirements ?? [])}::jsonb, '{}', now(), '{}', '{}')`;
  // An FCFS raffle gets its spots as it opens (decision 0029).
  await sql`select open_fcfs_spots(${id})`;
  return { id, slug: id };
}

async function storedWin(winId: string) {
  const [row] = await db.query.wins.findMany({ where: (w, { eq }) => eq(w.id, winId) });
  return row!;
}

async function raffleRow(raffleId: string) {
  const [row] = await db.query.raffles.findMany({ where: (r, { eq }) => eq(r.id, raffleId) });
  return row!;
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
    expect(changed).toMatchObject({ outcome: 'plan_changed', plan: { requirements: [{ id: 'req_1' }], workspaceId: 'wks_1' } });
    const fingerprint = changed.outcome === 'plan_changed' ? changed.plan.fingerprint : null;
    expect(await enter(gated.id, u, { fingerprint, verdict: 'failed' })).toEqual({ outcome: 'requirements_not_met' });
    expect((await enter(gated.id, u, { fingerprint, verdict: 'pending' })).outcome).toBe('entered');
    const collection = await raffle({ mechanic: 'collection', spots: 1 });
    expect((await enter(collection.id, await user())).outcome).toBe('entered');
    expect(await enter(collection.id, await user())).toEqual({ outcome: 'raffle_full', spots: 1 });
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

  describe('wallet twins: every wallet an entry\'s eligibility counted (issue 34)', () => {
    const link = (userId: string, chain: string, address: string, verified = true) =>
      sql`insert into user_wallets (user_id, chain, address, verified, created_at) values (${userId}, ${chain}, ${address}, ${verified}, now())`;
    const fingerprintOf = async (raffleId: string) =>
      (await sql<{ f: string | null }[]>`select case when requirements = '[]'::jsonb then null else md5(requirements::text) end as f from raffles where id = ${raffleId}`)[0]!.f;
    const entered = async (raffleId: string, userId: string, extra: Partial<EntryAttempt> = {}) => {
      const result = await enter(raffleId, userId, { fingerprint: await fingerprintOf(raffleId), ...extra });
      if (result.outcome !== 'entered') throw new Error(`not entered: ${result.outcome}`);
      return result.entry.id;
    };
    const flagsOf = async (entryId: string) => (await stored(entryId)).duplicateFlags.walletReuse ?? [];
    // A requirement reading another chain than the raffle's: eligibility sums the wallets there too.
    const gated = () =>
      raffle({ chain: 'solana', requirements: [{ id: 'pass', type: 'token_balance', label: 'Holds a pass', params: { chain: 'anvil', contract: '0x1', standard: 'erc721', min: '1' } }] });

    it('flags entrants sharing a verified wallet on a chain the raffle reads, though each snapshots a wallet of their own', async () => {
      const r = await gated();
      // Each has an own (older, verified) wallet on the raffle's chain, the one the entry snapshots,
      // and the same contract wallet on the requirement's chain.
      const holders = [await user(`own-${unique()}`), await user(`own-${unique()}`), await user(`own-${unique()}`)];
      for (const u of holders) await link(u, 'anvil', '0xSharedContractWallet');
      // Neither an unverified claim to it nor the same address on a chain this raffle does not read counts.
      const claimant = await user(`own-${unique()}`);
      await link(claimant, 'anvil', '0xSharedContractWallet', false);
      const elsewhere = await user(`own-${unique()}`);
      await link(elsewhere, 'polygon', '0xSharedContractWallet');
      const [a, b, c] = [await entered(r.id, holders[0]!), await entered(r.id, holders[1]!), await entered(r.id, holders[2]!)];
      const [d, e] = [await entered(r.id, claimant), await entered(r.id, elsewhere)];
      expect(await flagsOf(a)).toEqual([b, c]);
      expect(await flagsOf(b)).toEqual([a, c]);
      expect(await flagsOf(c)).toEqual([a, b]);
      expect(await flagsOf(d)).toEqual([]);
      expect(await flagsOf(e)).toEqual([]);
    });

    it('on a raffle naming no chain, flags entrants sharing any verified wallet', async () => {
      const r = await raffle({ chain: null });
      const a = await entered(r.id, await user('SharedNoChain'));
      const b = await entered(r.id, await user('SharedNoChain'));
      const c = await entered(r.id, await user(`own-${unique()}`));
      expect(await flagsOf(a)).toEqual([b]);
      expect(await flagsOf(b)).toEqual([a]);
      expect(await flagsOf(c)).toEqual([]);
      expect((await stored(a)).walletSnapshot).toBeNull();
    });

    it('two entrants sharing a counted wallet at once both see each other (its lock)', async () => {
      const r = await gated();
      const [x, y] = [await user(`own-${unique()}`), await user(`own-${unique()}`)];
      for (const u of [x, y]) await link(u, 'anvil', '0xSharedAtOnce');
      const fingerprint = await fingerprintOf(r.id);
      const holder = await sql.reserve();
      let results: Awaited<ReturnType<typeof enter>>[];
      try {
        // Both are held just before their insert, after their lookups, as in the IP case below.
        await holder`begin`;
        await holder`select 1 from users where id in (${x}, ${y}) for update`;
        const entering = Promise.all([enter(r.id, x, { fingerprint }), enter(r.id, y, { fingerprint })]);
        await new Promise((resolve) => setTimeout(resolve, 300));
        await holder`commit`;
        results = await entering;
      } finally {
        holder.release();
      }
      const [ex, ey] = results.map((e) => (e.outcome === 'entered' ? e.entry.id : ''));
      expect(await flagsOf(ex!)).toEqual([ey]);
      expect(await flagsOf(ey!)).toEqual([ex]);
    });
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

  it('an FCFS entry claims its spot and writes its win and events in the same call, the win filled in as TypeScript renders it', async () => {
    const r = await raffle({ mechanic: 'fcfs', spots: 2, title: 'Drop "one" \\ \u00e9' });
    const u = await user('WaLLet9', 'Ann "A"');
    await sql`insert into user_wallets (user_id, chain, address, verified) values (${u}, 'ethereum', '0xabc', false)`;
    // Without a plan saying so, the function asks for the win to be rendered first.
    expect(await enter(r.id, u)).toEqual({
      outcome: 'plan_changed',
      plan: { requirements: [], fingerprint: null, workspaceId: 'wks_1', fcfs: true },
    });
    const result = await enterRaffleInOneStatement(db, { ...attempt(r.id, u, { fcfs: true }), ref: { slug: r.slug } });
    expect(result.outcome).toBe('entered');
    if (result.outcome !== 'entered') return;
    expect(result.mayClose).toBe(false);
    const win = await storedWin(result.win!.id);
    expect(result.win).toEqual(win);
    expect(win).toMatchObject({ position: 1, status: 'selected', source: 'fcfs', entryId: result.entry.id, walletSnapshot: 'WaLLet9' });
    expect(win.identitySnapshot).toEqual({ handle: u, displayName: 'Ann "A"', wallets: [{ chain: 'ethereum', address: '0xabc' }, { chain: 'solana', address: 'WaLLet9' }] });
    // Byte for byte what renderWinColumns renders from the stored row, with the identity in the
    // key order identitySnapshotOf gives (a jsonb column reads back in its own order).
    const identity = identitySnapshotOf({ handle: win.identitySnapshot.handle, displayName: win.identitySnapshot.displayName ?? null }, win.identitySnapshot.wallets);
    expect({ winJson: win.winJson, winnerJson: win.winnerJson }).toEqual(renderWinColumns({ ...win, identitySnapshot: identity }, await raffleRow(r.id)));
    const events = await sql<{ type: string; payload: string }[]>`select type, payload from event_outbox
      where payload like ${`%${result.entry.id}%`} or payload like ${`%${result.win!.id}%`} order by id`;
    expect(events.map((e) => e.type)).toEqual(['entry.created', 'entry.created', 'win.selected', 'winner.selected']);
    expect(events.slice(2).map((e) => JSON.parse(e.payload).data)).toEqual([JSON.parse(win.winJson), JSON.parse(win.winnerJson)]);

    // The last spot: the entrant answers that it may close; then the raffle is full, read unlocked.
    const chainless = await enter(r.id, await user(), { fcfs: true });
    expect(chainless).toMatchObject({ outcome: 'entered', mayClose: true, win: { position: 2 } });
    expect(await enter(r.id, await user(), { fcfs: true })).toEqual({ outcome: 'raffle_full', spots: 2 });
    expect(await enter(r.id, u, { fcfs: true })).toEqual({ outcome: 'raffle_full', spots: 2 });
    // A chainless raffle's wins have no chain in their raffle.
    const none = await raffle({ mechanic: 'fcfs', spots: 1, chain: null });
    const plain = await enter(none.id, await user(), { fcfs: true });
    if (plain.outcome !== 'entered') throw new Error(plain.outcome);
    expect(JSON.parse(plain.win!.winJson).raffle).not.toHaveProperty('chain');
    expect(plain.win!.winJson).toEqual(renderWinColumns(await storedWin(plain.win!.id), await raffleRow(none.id)).winJson);
  });

  it('a pending FCFS entry takes no spot; a spot freed by a disqualification goes to the next entrant, the disqualified win replaced', async () => {
    const gated = await raffle({ mechanic: 'fcfs', spots: 1, requirements: [{ id: 'req_1', type: 'account_age_days', label: 'Old', params: { days: 1 } }] });
    const changed = await enter(gated.id, await user());
    if (changed.outcome !== 'plan_changed') throw new Error(changed.outcome);
    const pending = await enter(gated.id, await user(), { fingerprint: changed.plan.fingerprint, fcfs: true, verdict: 'pending' });
    expect(pending).toMatchObject({ outcome: 'entered', win: null, mayClose: false, entry: { status: 'pending' } });
    const [free] = await sql<{ n: number }[]>`select count(*)::int as n from fcfs_spots where raffle_id = ${gated.id} and entry_id is null`;
    expect(free!.n).toBe(1);

    const r = await raffle({ mechanic: 'fcfs', spots: 2 });
    const first = await enter(r.id, await user(), { fcfs: true });
    if (first.outcome !== 'entered') throw new Error(first.outcome);
    const raffleFields = await raffleRow(r.id);
    const at = new Date();
    // What disqualifyWin does while the raffle is open: the win disqualified, its spot freed.
    await updateWin(db, first.win!.id, raffleFields, { status: 'disqualified', disqualifiedAt: at, updatedAt: at });
    await sql`select free_fcfs_spot(${r.id}, 1, ${first.entry.id})`;
    const next = await enter(r.id, await user(), { fcfs: true });
    expect(next).toMatchObject({ outcome: 'entered', win: { position: 1 }, mayClose: false });
    const replaced = await storedWin(first.win!.id);
    expect(replaced).toMatchObject({ status: 'replaced', position: 1 });
    expect(replaced.replacedAt).toEqual(next.outcome === 'entered' ? next.entry.createdAt : null);
    // The patched views are what a re-render of the row gives.
    expect(replaced.winJson).toEqual(renderWinColumns(replaced, raffleFields).winJson);
    expect(JSON.parse(replaced.winnerJson)).toEqual(JSON.parse(renderWinColumns(replaced, raffleFields).winnerJson));
    const events = await sql<{ type: string; payload: string }[]>`select type, payload from event_outbox
      where payload like ${`%${next.outcome === 'entered' ? next.entry.id : ''}%`} or payload like ${`%${next.outcome === 'entered' ? next.win!.id : ''}%`}
        or (type = 'winner.replaced' and payload like ${`%${first.win!.id}%`}) order by id`;
    expect(events.map((e) => e.type)).toEqual(['entry.created', 'entry.created', 'winner.replaced', 'win.selected', 'winner.selected']);
    expect(JSON.parse(events[2]!.payload).data).toEqual(JSON.parse(replaced.winnerJson));
  });
});
