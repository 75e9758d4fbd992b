import { Ajv } from 'ajv';
import ajvFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ALLOCATION_TYPES,
  DELIVERY_STATUSES,
  ENTRY_STATUSES,
  parseApiKey,
  RAFFLE_MECHANICS,
  RAFFLE_STATUSES,
  RAFFLE_VISIBILITIES,
  SHARED_SCHEMAS,
  WIN_STATUSES,
} from '@raffle/contracts';
import { findAllowlistRaffle, findDrawProofSource, hashApiKey, isIdOf, listDrawWinnerPositions, renderDrawProof, type Database } from '@raffle/db';
import { beaconMixedSeed, drawCommitment, rankEntries, verifyAllowlistProof, type DrawProof } from '@raffle/sdk';
import { allowlistProofOf, allowlistView } from '@raffle/domain';
import { beaconDrawProblems } from '@raffle/service-kit/testing';
import {
  DEMO_CHAIN_ACCOUNTS,
  DEMO_CONTRACTS,
  DEMO_NEBULA_PASS_HOLDERS,
  loadDemoDataset,
  planDemoDataset,
  type DemoKeys,
  type PlannedRaffle,
} from '../src/index.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';

const TABLES = [
  'users',
  'user_wallets',
  'workspaces',
  'workspace_members',
  'projects',
  'raffles',
  'entries',
  'entry_requirement_evaluations',
  'community_roles',
  'wins',
  'raffle_draw_snapshots',
  'raffle_allowlists',
  'raffle_allowlist_leaves',
  'raffle_allowlist_builds',
  'api_keys',
  'event_outbox',
] as const;

let testDb: TestDatabase;
let database: Database;
let firstLoad: DemoKeys;
let secondLoad: DemoKeys;
let countsAfterFirst: Record<string, number>;
let countsAfterSecond: Record<string, number>;

async function countOf(query: Promise<readonly { n: number }[]>): Promise<number> {
  const [row] = await query;
  return row!.n;
}

async function rowCounts(): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of TABLES) {
    counts[table] = await countOf(database.sql<{ n: number }[]>`select count(*)::int as n from ${database.sql(table)}`);
  }
  return counts;
}

beforeAll(async () => {
  testDb = await createTestDatabase();
  database = testDb.database;
  firstLoad = await loadDemoDataset(database.db);
  countsAfterFirst = await rowCounts();
  secondLoad = await loadDemoDataset(database.db);
  countsAfterSecond = await rowCounts();
});

afterAll(() => testDb?.drop());

const planned = (label: string): PlannedRaffle => planDemoDataset().raffles.find((r) => r.spec.label === label)!;

/** The proof `GET /api/v1/raffles/{slug}/draw` serves, built from the same rows. */
/** The raffle's proof as the data plane serves it (the same query and renderer), parsed. */
async function proofOf(raffleId: string): Promise<DrawProof> {
  const source = (await findDrawProofSource(database.sql, raffleId))!;
  const winners = await listDrawWinnerPositions(database.sql, raffleId);
  const { algorithm, seed, entriesDigest, entryLines, closedAt, beacon, spots } = source;
  return JSON.parse(
    renderDrawProof({ algorithm: algorithm!, closedAt, beacon, drawCommitment: source.drawCommitment!, seed: seed!, entriesDigest: entriesDigest!, spots, entryLines: entryLines! }, winners),
  ) as DrawProof;
}

describe('loading the demo dataset', () => {
  it('changes nothing the second time and returns the same keys', () => {
    expect(countsAfterFirst.users).toBeGreaterThan(300);
    expect(countsAfterSecond).toEqual(countsAfterFirst);
    expect(secondLoad).toEqual(firstLoad);
  });

  it('writes no outbox events: demo history must not be delivered as webhooks', () => {
    expect(countsAfterFirst.event_outbox).toBe(0);
  });

  it('leaves every raffle with the id and status the keys list', async () => {
    for (const [label, ref] of Object.entries(firstLoad.raffles)) {
      const [row] = await database.sql<{ slug: string; status: string }[]>`select slug, status from raffles where id = ${ref.id}`;
      expect(row, label).toEqual({ slug: ref.slug, status: ref.status });
    }
  });
});

describe('raffle coverage', () => {
  it('has every status, mechanic, allocation type and visibility', async () => {
    const rows = await database.sql<{ status: string; mechanic: string; allocationType: string; visibility: string }[]>`
      select status, mechanic, allocation_type as "allocationType", visibility from raffles`;
    expect(new Set(rows.map((r) => r.status))).toEqual(new Set(RAFFLE_STATUSES));
    expect(new Set(rows.map((r) => r.mechanic))).toEqual(new Set(RAFFLE_MECHANICS));
    expect(new Set(rows.map((r) => r.allocationType))).toEqual(new Set(ALLOCATION_TYPES));
    expect(new Set(rows.map((r) => r.visibility))).toEqual(new Set(RAFFLE_VISIBILITIES));
  });

  it('has entries in every status the rules can produce, and wins and deliveries in every status', async () => {
    const entryStatuses = await database.sql<{ status: string }[]>`select distinct status from entries`;
    const winStatuses = await database.sql<{ status: string }[]>`select distinct status from wins`;
    const deliveries = await database.sql<{ status: string }[]>`select distinct delivery_status as status from wins`;
    // 'pending' never persists: requirements are evaluated inside the entering transaction.
    expect(new Set(entryStatuses.map((r) => r.status))).toEqual(new Set(ENTRY_STATUSES.filter((s) => s !== 'pending')));
    expect(new Set(winStatuses.map((r) => r.status))).toEqual(new Set(WIN_STATUSES));
    expect(new Set(deliveries.map((r) => r.status))).toEqual(new Set(DELIVERY_STATUSES));
  });

  it('sets exactly the lifecycle timestamps each status implies', async () => {
    const rows = await database.sql<Record<string, unknown>[]>`
      select status, published_at, opened_at, closed_at, drawn_at, finalized_at, cancelled_at,
             draw_seed, draw_commitment from raffles`;
    const reached: Record<string, string[]> = {
      draft: [],
      scheduled: ['published_at'],
      open: ['published_at', 'opened_at'],
      closed: ['published_at', 'opened_at', 'closed_at'],
      drawn: ['published_at', 'opened_at', 'closed_at', 'drawn_at'],
      finalized: ['published_at', 'opened_at', 'closed_at', 'drawn_at', 'finalized_at'],
      cancelled: ['published_at', 'opened_at', 'cancelled_at'],
    };
    const columns = ['published_at', 'opened_at', 'closed_at', 'drawn_at', 'finalized_at', 'cancelled_at'];
    for (const row of rows) {
      const set = columns.filter((c) => row[c] !== null);
      expect(set, `timestamps of a ${row.status} raffle`).toEqual(reached[row.status as string]);
      if (row.status === 'draft') {
        expect(row.draw_commitment).toBeNull();
      } else {
        expect(row.draw_seed).toMatch(/^[0-9a-f]{64}$/);
        expect(row.draw_commitment).toBe(drawCommitment(Buffer.from(row.draw_seed as string, 'hex')));
      }
    }
  });

  it('grants the role holds_role asks for, so every entry of the hoodie drop holds it', async () => {
    const { id, workspaceId } = firstLoad.raffles.closed!;
    const rows = await database.sql<{ holds: boolean }[]>`
      select exists (select 1 from community_roles c where c.workspace_id = ${workspaceId} and c.user_id = e.user_id and c.role = 'og') as holds
      from entries e where e.raffle_id = ${id}`;
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.every((r) => r.holds)).toBe(true);
  });
});

describe('the finalized draw', () => {
  it('has hundreds of entries and finalized winners at positions 1..spots', async () => {
    const { id } = firstLoad.raffles.finalizedDraw!;
    const [raffle] = await database.sql<{ spots: number; mechanic: string; visibility: string }[]>`
      select spots, mechanic, visibility from raffles where id = ${id}`;
    expect(raffle).toMatchObject({ mechanic: 'raffle', visibility: 'public', spots: 25 });
    const entries = await countOf(database.sql<{ n: number }[]>`select count(*)::int as n from entries where raffle_id = ${id}`);
    expect(entries).toBeGreaterThanOrEqual(300);
    const winners = await database.sql<{ position: number }[]>`
      select position from wins where raffle_id = ${id} and status = 'finalized' order by position`;
    expect(winners.map((w) => w.position)).toEqual(Array.from({ length: raffle!.spots }, (_, i) => i + 1));
    const review = await database.sql<{ status: string; source: string }[]>`
      select status, source from wins where raffle_id = ${id} and (status <> 'finalized' or source = 'reroll')`;
    expect(review).toEqual(expect.arrayContaining([{ status: 'replaced', source: 'draw' }, { status: 'finalized', source: 'reroll' }]));
  });

  it('is the draw the plan scripted: alice wins, bob does not', async () => {
    const { id } = firstLoad.raffles.finalizedDraw!;
    const plan = planned('finalizedDraw');
    const drawn = await database.sql<{ entryId: string }[]>`
      select entry_id as "entryId" from wins where raffle_id = ${id} and source = 'draw' order by position`;
    expect(drawn.map((w) => w.entryId)).toEqual(plan.draw.winners);
    const [reroll] = await database.sql<{ entryId: string }[]>`select entry_id as "entryId" from wins where raffle_id = ${id} and source = 'reroll'`;
    expect(reroll!.entryId).toBe(plan.draw.review!.reroll!.entryId);
    const finalists = await database.sql<{ userId: string }[]>`
      select user_id as "userId" from wins where raffle_id = ${id} and status = 'finalized'`;
    expect(finalists.map((w) => w.userId)).toContain(firstLoad.users.alice.id);
    expect(finalists.map((w) => w.userId)).not.toContain(firstLoad.users.bob.id);
  });

  it.each(['finalizedDraw', 'drawnPrivate'])('%s: the proof from the stored draw verifies, and the reroll took the next in draw order', async (label) => {
    const { id } = firstLoad.raffles[label]!;
    const proof = await proofOf(id);
    // A beacon draw on the demo's chain, whose round is the one its close fixed.
    expect(proof.beacon).toMatchObject({ chainHash: planDemoDataset().chain.chainHash });
    expect(beaconDrawProblems(proof)).toEqual([]);
    const [reroll] = await database.sql<{ entryId: string }[]>`select entry_id as "entryId" from wins where raffle_id = ${id} and source = 'reroll'`;
    if (reroll) expect(reroll.entryId).toBe(rankEntries(beaconMixedSeed(Buffer.from(proof.seed, 'hex'), proof.beacon!), proof.entries)[proof.winners.length]!.id);
  });

  it("publishes its allowlist at finalize (version 1, its time), with alice's leaf for her anvil test account and none for bob", async () => {
    const { id } = firstLoad.raffles.finalizedDraw!;
    const raffle = (await findAllowlistRaffle(database.db, id))!;
    const view = await allowlistView(database.db, raffle, new Date());
    expect(view).toMatchObject({ status: 'published', quantityPerWinner: 1 });
    expect(view.versions).toHaveLength(1);
    expect(view.current).toMatchObject({ version: 1, count: 25, unlistedWinners: 0, reason: 'finalized', publishedAt: planned('finalizedDraw').timeline.finalizedAt!.toISOString() });
    const alice = await allowlistProofOf(database.db, raffle, firstLoad.users.alice.id);
    expect(alice).toMatchObject({ address: DEMO_CHAIN_ACCOUNTS.alice, quantity: '1', root: view.current!.root });
    expect(verifyAllowlistProof({ root: alice.root, address: alice.address, quantity: 1n, proof: alice.proof })).toBe(true);
    await expect(allowlistProofOf(database.db, raffle, firstLoad.users.bob.id)).rejects.toMatchObject({ code: 'NOT_ON_ALLOWLIST' });
  });

  it('flags shared wallets and IPs and leaves the flagged out of the draw', async () => {
    const { id } = firstLoad.raffles.finalizedDraw!;
    const rows = await database.sql<{ id: string; status: string; reason: string | null; flags: Record<string, string[]> }[]>`
      select id, status, status_reason as reason, duplicate_flags as flags from entries where raffle_id = ${id}`;
    const flagged = rows.filter((r) => r.flags.walletReuse?.length || r.flags.ipReuse?.length);
    expect(rows.some((r) => r.flags.walletReuse?.length)).toBe(true);
    expect(rows.some((r) => r.flags.ipReuse?.length)).toBe(true);
    const drawnIds = new Set((await proofOf(id)).entries.map((e) => e.id));
    expect(flagged.filter((r) => drawnIds.has(r.id))).toEqual([]);
    expect(new Set(rows.map((r) => r.status))).toEqual(new Set(['valid', 'withdrawn', 'disqualified']));
    for (const r of rows.filter((r) => r.status !== 'valid')) expect(r.reason).toBeTruthy();
  });
});

describe('duplicate flags as planned', () => {
  it('flags exactly the entries the plan says share a wallet (snapshot or counted, raffles without a chain included) or an IP', async () => {
    const rows = await database.sql<{ id: string; flagged: boolean }[]>`
      select id, (duplicate_flags ?| array['walletReuse', 'ipReuse']) as flagged from entries`;
    const stored = new Map(rows.map((r) => [r.id, r.flagged]));
    const planned = planDemoDataset().raffles.flatMap((r) => r.entries.map((e) => [e.id, e.flagged] as const));
    expect(planned.filter(([id, flagged]) => stored.get(id) !== flagged)).toEqual([]);
    // The crowd's shared Ethereum wallets are flagged on raffles that name no chain too (issue 34).
    const [chainless] = await database.sql<{ n: number }[]>`
      select count(*)::int as n from entries e join raffles r on r.id = e.raffle_id where r.chain is null and e.duplicate_flags ? 'walletReuse'`;
    expect(chainless!.n).toBeGreaterThan(0);
  });
});

describe('requirements', () => {
  it('kept a passing verdict for every requirement of every entry the domain accepted', async () => {
    const [row] = await database.sql<{ failed: number; missing: number }[]>`
      select (select count(*) from entry_requirement_evaluations v join entries e on e.id = v.entry_id
              where not v.passed and e.status <> 'invalid')::int as failed,
             (select count(*) from entries e join raffles r on r.id = e.raffle_id
              where jsonb_array_length(r.requirements) <> (select count(*) from entry_requirement_evaluations v where v.entry_id = e.id))::int as missing`;
    expect(row).toEqual({ failed: 0, missing: 0 });
  });

  it('invalidates at the draw the entry of a member who left the workspace', async () => {
    const { id } = firstLoad.raffles.drawnPrivate!;
    const invalid = await database.sql<{ reason: string; failed: string[] }[]>`
      select e.status_reason as reason,
             array(select v.type from entry_requirement_evaluations v where v.entry_id = e.id and not v.passed) as failed
      from entries e where e.raffle_id = ${id} and e.status = 'invalid'`;
    expect(invalid).toEqual([{ reason: 'Requirements not met: Member of the workspace', failed: ['workspace_member'] }]);
  });
});

describe('people and keys', () => {
  it('gives alice, bob and carol entries and wins across raffles', async () => {
    for (const persona of ['alice', 'bob', 'carol'] as const) {
      const { id } = firstLoad.users[persona];
      const [row] = await database.sql<{ entries: number; wins: number }[]>`
        select (select count(distinct raffle_id) from entries where user_id = ${id})::int as entries,
               (select count(*) from wins where user_id = ${id})::int as wins`;
      expect(row!.entries, persona).toBeGreaterThanOrEqual(2);
      expect(row!.wins, persona).toBeGreaterThanOrEqual(1);
    }
  });

  it('stores every demo key by hash, with the status it is listed with', async () => {
    expect(firstLoad.keys).toHaveLength(9);
    for (const key of firstLoad.keys) {
      expect(parseApiKey(key.apiKey)).toEqual({ kind: key.kind });
      expect(isIdOf('apiKey', key.id)).toBe(true);
      const [row] = await database.sql<{ revoked: boolean; expired: boolean; scopes: string[]; workspaceId: string | null }[]>`
        select revoked_at is not null as revoked, coalesce(expires_at < now(), false) as expired, scopes,
               workspace_id as "workspaceId"
        from api_keys where key_hash = ${hashApiKey(key.apiKey)}`;
      expect(row).toBeDefined();
      expect(row!.scopes).toEqual(key.scopes);
      expect(row!.workspaceId).toBe(key.workspace?.id ?? null);
      expect(row!.revoked ? 'revoked' : row!.expired ? 'expired' : 'active').toBe(key.status);
    }
    const kinds = firstLoad.keys.map((k) => `${k.kind}:${k.workspace?.slug ?? k.owner.handle}:${k.status}:${k.scopes.length}`);
    expect(kinds).toEqual(
      expect.arrayContaining([
        'personal:alice:active:5',
        'personal:alice:active:1',
        'personal:alice:revoked:5',
        'personal:alice:expired:5',
        'personal:bob:active:5',
        'workspace:nebula-labs:active:4',
        'workspace:nebula-labs:active:1',
        'workspace:kite-collective:active:4',
        'workspace:kite-collective:active:1',
      ]),
    );
  });

  it('uses well-formed ids everywhere', async () => {
    const tables = [
      ['users', 'user'],
      ['workspaces', 'workspace'],
      ['projects', 'project'],
      ['raffles', 'raffle'],
      ['entries', 'entry'],
      ['wins', 'win'],
    ] as const;
    for (const [table, kind] of tables) {
      const rows = await database.sql<{ id: string }[]>`select id from ${database.sql(table)}`;
      expect(rows.filter((r) => !isIdOf(kind, r.id))).toEqual([]);
    }
  });
});

describe('stored JSON representations', () => {
  const addFormats = ((ajvFormats as unknown as { default?: typeof ajvFormats }).default ?? ajvFormats) as unknown as (ajv: Ajv) => Ajv;
  const ajv = new Ajv({ allErrors: true });
  addFormats(ajv);
  for (const schema of SHARED_SCHEMAS) ajv.addSchema(schema);

  const columns = [
    ['raffles', 'workspace_item_json', 'WorkspaceRaffleItem'],
    ['raffles', 'public_item_json', 'PublicRaffleItem'],
    ['entries', 'workspace_json', 'WorkspaceEntry'],
    ['entries', 'owner_json', 'SanitizedEntry'],
    ['wins', 'win_json', 'Win'],
    ['wins', 'winner_json', 'Winner'],
    ['projects', 'api_json', 'Project'],
    ['users', 'profile_json', 'Profile'],
  ] as const;

  it.each(columns)('%s.%s validates against %s', async (table, column, schemaId) => {
    const validate = ajv.getSchema(schemaId);
    expect(validate, `schema ${schemaId} is registered`).toBeDefined();
    const rows = await database.sql<{ json: string }[]>`select ${database.sql(column)} as json from ${database.sql(table)}`;
    expect(rows.length).toBeGreaterThan(0);
    const failures = rows
      .map((r) => JSON.parse(r.json) as unknown)
      .filter((value) => !validate!(value))
      .map((value) => ({ value, errors: ajv.errorsText(validate!.errors) }));
    expect(failures.slice(0, 3)).toEqual([]);
  });
});

describe('the token-gated raffle', () => {
  it('is open on the local chain, gated on holding one Nebula Pass, with no entries played in', async () => {
    const ref = firstLoad.raffles.tokenGated!;
    expect(ref).toMatchObject({ slug: 'nebula-pass-holders', status: 'open', visibility: 'public', workspaceId: firstLoad.workspaces.nebula.id });
    const [row] = await database.sql<{ title: string; chain: string; requirements: unknown; entries: number }[]>`
      select title, chain, requirements, (select count(*)::int from entries where raffle_id = r.id) as entries
      from raffles r where id = ${ref.id}`;
    expect(row).toMatchObject({ title: 'Nebula Pass holders', chain: 'anvil', entries: 0 });
    expect(row!.requirements).toEqual([
      expect.objectContaining({ type: 'token_balance', params: { chain: 'anvil', contract: DEMO_CONTRACTS.erc721, standard: 'erc721', min: '1' } }),
    ]);
  });

  it('gives alice, bob and carol verified wallets on the local chain: anvil test accounts, passes for alice and carol only', async () => {
    for (const persona of ['alice', 'bob', 'carol'] as const) {
      const wallets = await database.sql<{ address: string; verified: boolean }[]>`
        select address, verified from user_wallets where user_id = ${firstLoad.users[persona].id} and chain = 'anvil'`;
      expect(wallets, persona).toEqual([{ address: DEMO_CHAIN_ACCOUNTS[persona], verified: true }]);
    }
    expect(DEMO_NEBULA_PASS_HOLDERS.map((h) => h.to)).toEqual([DEMO_CHAIN_ACCOUNTS.alice, DEMO_CHAIN_ACCOUNTS.carol]);
    // anvil's public test accounts 1 to 3 (mnemonic "test … junk"), and account 0's second deployment.
    expect(Object.values(DEMO_CHAIN_ACCOUNTS)).toEqual([
      '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
      '0x90F79bf6EB2c4f870365E785982E1f101E93b906',
    ]);
    expect(DEMO_CONTRACTS.erc721).toBe('0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512');
  });

  it("gives bob a personal key of his own, so a newcomer can try the gated raffle as a non-holder", () => {
    const bobs = firstLoad.keys.filter((k) => k.kind === 'personal' && k.owner.handle === 'bob');
    expect(bobs.map((k) => [k.name, k.status])).toEqual([['Bob: all scopes', 'active']]);
    // The README's "alice's personal key" is the first personal key ending in "all scopes".
    expect(firstLoad.keys.find((k) => k.kind === 'personal' && k.name.endsWith('all scopes'))?.owner.handle).toBe('alice');
  });
});
