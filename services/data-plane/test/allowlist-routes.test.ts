import { PERSONAL_API_SCOPES, WORKSPACE_API_SCOPES } from '@raffle/contracts';
import { insertApiKey, schema } from '@raffle/db';
import { verifyAllowlistProof } from '@raffle/sdk';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from './support/app.js';
import { disqualify, drawnAllowlistRaffle, publishAllowlists, randomAddress, reroll, type AllowlistEntrant } from './support/allowlists.js';
import { expectMatchesSchema } from './support/contract-validator.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { responseViolations } from './support/error-invariants.js';
import { createLifecycleWorld, type LifecycleWorld } from './support/lifecycle.js';
import type { AllowlistLeaf, AllowlistLeafPage } from '@raffle/contracts';

/**
 * The keyed allowlist routes (issue 35): a winner's own leaf and proof, and the wallet they name
 * for it (personal keys); the allowlist and every leaf with its proof (workspace keys). Raffles go
 * through the real lifecycle and the real builder; every proof served is checked against the root.
 */

let db: TestDatabase;
let app: FastifyInstance;
let world: LifecycleWorld;
let workspaceHeaders: Record<string, string>;

beforeAll(async () => {
  db = await createTestDatabase();
  world = await createLifecycleWorld(db.database);
  app = await buildTestApp(db.database, db.url);
  workspaceHeaders = { authorization: `Bearer ${(await world.workspaceKey()).apiKey}` };
});
afterAll(async () => {
  await app?.close();
  await db?.drop();
});

// The routes' own response types: a leaf page as the contracts describe it.
type Leaf = AllowlistLeaf;
type LeafPage = AllowlistLeafPage;

const get = (url: string, headers: Record<string, string>) => app.inject({ url, headers });
const allowlistUrl = (raffleId: string, rest = '') => `/api/v1/workspaces/${world.workspace.id}/raffles/${raffleId}/allowlist${rest}`;
const proofUrl = (slug: string) => `/api/v1/raffles/${slug}/allowlist/proof`;
const walletUrl = (slug: string) => `/api/v1/raffles/${slug}/allowlist/wallet`;
const nameWallet = (slug: string, address: string, headers: Record<string, string>) => app.inject({ method: 'PUT', url: walletUrl(slug), headers, payload: { address } });

function expectError(res: LightMyRequestResponse, status: number, code: string) {
  expect({ status: res.statusCode, code: res.json().code }, res.body).toEqual({ status, code });
  expect(responseViolations(res, { method: 'GET' }), res.body).toEqual([]);
}

function expectOk(res: LightMyRequestResponse, schemaId: string) {
  expect(res.statusCode, res.body).toBe(200);
  expectMatchesSchema(schemaId, res.json());
  return res.json();
}

/** The finalized winners, from the workspace's winners route. */
async function finalizedWins(raffleId: string): Promise<Array<{ id: string; userId: string }>> {
  return (await get(`/api/v1/workspaces/${world.workspace.id}/raffles/${raffleId}/winners`, workspaceHeaders)).json();
}
const winnerIds = async (raffleId: string) => (await finalizedWins(raffleId)).map((w) => w.userId);

/** Every leaf of a version, page by page. */
async function allLeaves(raffleId: string, query: string, limit: number): Promise<{ pages: LeafPage[]; leaves: Leaf[] }> {
  const pages: LeafPage[] = [];
  let cursor: string | null = null;
  do {
    const url: string = allowlistUrl(raffleId, `/leaves?limit=${limit}${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    const page = expectOk(await get(url, workspaceHeaders), 'AllowlistLeafPage') as LeafPage;
    pages.push(page);
    cursor = page.pagination.nextCursor;
  } while (cursor !== null && pages.length < 50);
  return { pages, leaves: pages.flatMap((p) => p.data) };
}

describe('a finalized allowlist raffle, through its states', () => {
  let raffle: Awaited<ReturnType<typeof drawnAllowlistRaffle>>['raffle'];
  let entrants: AllowlistEntrant[];
  let winners: AllowlistEntrant[];
  let loser: AllowlistEntrant;

  beforeAll(async () => {
    ({ raffle, entrants } = await drawnAllowlistRaffle(world, { spots: 5, entrants: 8, body: { settings: { allowlistQuantity: 3 } } }));
  });

  it('says the allowlist waits for finalize, and refuses leaves and proofs with 409 ALLOWLIST_NOT_PUBLISHED until a version is published', async () => {
    const drawn = expectOk(await get(allowlistUrl(raffle.id), workspaceHeaders), 'Allowlist');
    expect(drawn).toMatchObject({ raffleId: raffle.id, slug: raffle.slug, status: 'awaiting_finalize', current: null, versions: [], quantityPerWinner: 3, leafEncoding: ['address', 'uint256'] });
    expectError(await get(allowlistUrl(raffle.id, '/leaves'), workspaceHeaders), 409, 'ALLOWLIST_NOT_PUBLISHED');
    expectError(await get(proofUrl(raffle.slug), entrants[0]!.headers), 409, 'ALLOWLIST_NOT_PUBLISHED');

    await world.finalize(raffle.id);
    expect(expectOk(await get(allowlistUrl(raffle.id), workspaceHeaders), 'Allowlist')).toMatchObject({ status: 'building', current: null });
    expectError(await get(allowlistUrl(raffle.id, '/leaves'), workspaceHeaders), 409, 'ALLOWLIST_NOT_PUBLISHED');
    expectError(await get(proofUrl(raffle.slug), entrants[0]!.headers), 409, 'ALLOWLIST_NOT_PUBLISHED');

    expect(await publishAllowlists(world)).toBeGreaterThanOrEqual(1);
    const ids = await winnerIds(raffle.id);
    winners = entrants.filter((e) => ids.includes(e.user.id));
    loser = entrants.find((e) => !ids.includes(e.user.id))!;
    expect(winners).toHaveLength(5);
  });

  it('shows the published version: its root, count and time, the only version so far', async () => {
    const view = expectOk(await get(allowlistUrl(raffle.id), workspaceHeaders), 'Allowlist');
    expect(view.status).toBe('published');
    expect(view.current).toMatchObject({ version: 1, count: 5, unlistedWinners: 0, reason: 'finalized' });
    expect(view.versions).toEqual([view.current]);
  });

  it('lists every winner\'s wallet once, page by page in address order, each proof verifying against the page\'s root', async () => {
    const { root } = expectOk(await get(allowlistUrl(raffle.id), workspaceHeaders), 'Allowlist').current;
    const { pages, leaves } = await allLeaves(raffle.id, '', 2);
    expect(pages.map((p) => p.data.length)).toEqual([2, 2, 1]);
    expect(pages.every((p) => p.version === 1 && p.root === root)).toBe(true);
    expect(leaves.map((l) => l.address.toLowerCase()).sort()).toEqual(winners.map((w) => w.address).sort());
    expect(leaves.map((l) => l.address.toLowerCase())).toEqual([...leaves.map((l) => l.address.toLowerCase())].sort());
    for (const leaf of leaves) {
      expect(leaf.quantity).toBe('3');
      expect(verifyAllowlistProof({ root, address: leaf.address, quantity: leaf.quantity, proof: leaf.proof }), leaf.address).toBe(true);
      // The quantity is part of the leaf: another one does not verify.
      expect(verifyAllowlistProof({ root, address: leaf.address, quantity: 1n, proof: leaf.proof })).toBe(false);
    }
    // The default page holds them all; version=1 names the same version.
    expect((expectOk(await get(allowlistUrl(raffle.id, '/leaves'), workspaceHeaders), 'AllowlistLeafPage') as LeafPage).data).toEqual(leaves);
    expect((expectOk(await get(allowlistUrl(raffle.id, '/leaves?version=1&limit=250'), workspaceHeaders), 'AllowlistLeafPage') as LeafPage).data).toEqual(leaves);
  });

  it('narrows the leaves to one wallet, given in any case, and to none for a wallet that is not on the list', async () => {
    const winner = winners[0]!;
    const upper = `0x${winner.address.slice(2).toUpperCase()}`;
    const one = expectOk(await get(allowlistUrl(raffle.id, `/leaves?address=${upper}`), workspaceHeaders), 'AllowlistLeafPage') as LeafPage;
    expect(one.data.map((l) => l.address.toLowerCase())).toEqual([winner.address]);
    expect(one.pagination).toEqual({ nextCursor: null, hasMore: false });
    const none = expectOk(await get(allowlistUrl(raffle.id, `/leaves?address=${loser.address}`), workspaceHeaders), 'AllowlistLeafPage') as LeafPage;
    expect(none.data).toEqual([]);
  });

  it('gives each winner their own leaf and proof (personal key), the same as the workspace lists, and 404 NOT_ON_ALLOWLIST to an entrant who lost', async () => {
    const { leaves } = await allLeaves(raffle.id, '', 250);
    for (const winner of winners) {
      const own = expectOk(await get(proofUrl(raffle.slug), winner.headers), 'AllowlistProof');
      expect(own).toMatchObject({ raffleId: raffle.id, slug: raffle.slug, version: 1, leafEncoding: ['address', 'uint256'], quantity: '3' });
      expect(own.address.toLowerCase()).toBe(winner.address);
      expect(leaves.find((l) => l.address === own.address)).toEqual({ address: own.address, quantity: own.quantity, proof: own.proof });
      expect(verifyAllowlistProof(own)).toBe(true);
    }
    expectError(await get(proofUrl(raffle.slug), loser.headers), 404, 'NOT_ON_ALLOWLIST');
    expectError(await get(proofUrl(raffle.slug), (await world.entrant()).headers), 404, 'NOT_ON_ALLOWLIST');
  });

  it('publishes version 2 when a finalized winner is disqualified and rerolled: proofs follow it, version 1 stays listed with its own proofs', async () => {
    const before = expectOk(await get(allowlistUrl(raffle.id), workspaceHeaders), 'Allowlist').current;
    const replacedWin = (await finalizedWins(raffle.id)).find((w) => w.userId === winners[0]!.user.id)!;
    await disqualify(world, raffle.id, replacedWin.id);
    const { replacement } = await reroll(world, raffle.id, replacedWin.id);
    expect(await publishAllowlists(world)).toBe(1);

    const view = expectOk(await get(allowlistUrl(raffle.id), workspaceHeaders), 'Allowlist');
    expect(view.versions.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    expect(view.versions[1]).toEqual(before);
    expect(view.current).toMatchObject({ version: 2, count: 5, reason: 'winners_changed' });

    const newcomer = entrants.find((e) => e.user.id === replacement.userId)!;
    expect(verifyAllowlistProof(expectOk(await get(proofUrl(raffle.slug), newcomer.headers), 'AllowlistProof'))).toBe(true);
    expectError(await get(proofUrl(raffle.slug), winners[0]!.headers), 404, 'NOT_ON_ALLOWLIST');

    const old = (await allLeaves(raffle.id, `&version=1&address=${winners[0]!.address}`, 10)).leaves[0]!;
    expect(verifyAllowlistProof({ root: before.root, ...old })).toBe(true);
    expect(verifyAllowlistProof({ root: view.current.root, ...old })).toBe(false);
    expect((await allLeaves(raffle.id, '', 250)).leaves.every((l) => verifyAllowlistProof({ root: view.current.root, ...l }))).toBe(true);
    expectError(await get(allowlistUrl(raffle.id, '/leaves?version=3'), workspaceHeaders), 404, 'NOT_FOUND');
  });

  it('refuses a bad version, address, limit or cursor with 400, never a 5xx', async () => {
    const cases: Array<[string, string]> = [
      ['?version=0', 'VALIDATION_FAILED'],
      ['?version=-1', 'VALIDATION_FAILED'],
      ['?version=abc', 'VALIDATION_FAILED'],
      ['?version=99999999999', 'VALIDATION_FAILED'],
      ['?address=0x123', 'VALIDATION_FAILED'],
      ['?address=not-an-address', 'VALIDATION_FAILED'],
      ['?limit=0', 'INVALID_LIMIT'],
      ['?limit=251', 'INVALID_LIMIT'],
      ['?limit=1e2', 'INVALID_LIMIT'],
      ['?cursor=garbage', 'INVALID_CURSOR'],
    ];
    for (const [query, code] of cases) expectError(await get(allowlistUrl(raffle.id, `/leaves${query}`), workspaceHeaders), 400, code);
    // A cursor of version 1's list does not continue the latest version's, nor another raffle's list.
    const v1 = (await allLeaves(raffle.id, '&version=1', 2)).pages[0]!.pagination.nextCursor!;
    expectError(await get(allowlistUrl(raffle.id, `/leaves?cursor=${encodeURIComponent(v1)}`), workspaceHeaders), 400, 'INVALID_CURSOR');
    const entries = await get(`/api/v1/workspaces/${world.workspace.id}/raffles/${raffle.id}/entries?limit=1`, workspaceHeaders);
    expectError(await get(allowlistUrl(raffle.id, `/leaves?cursor=${encodeURIComponent(entries.json().pagination.nextCursor)}`), workspaceHeaders), 400, 'INVALID_CURSOR');
  });
});

describe('who may read an allowlist', () => {
  it('hides raffles the caller may not see behind 404 RAFFLE_NOT_FOUND: a private one to a non-member, a draft, an unknown slug or raffle id', async () => {
    const { raffle } = await drawnAllowlistRaffle(world, { spots: 1, entrants: 2, body: { visibility: 'private' } });
    await world.finalize(raffle.id);
    await publishAllowlists(world);
    const stranger = await world.entrant();
    expectError(await get(proofUrl(raffle.slug), stranger.headers), 404, 'RAFFLE_NOT_FOUND');
    // A member sees the private raffle: as a non-winner, they hold no leaf of it.
    const member = await world.member();
    expectError(await get(proofUrl(raffle.slug), member.headers), 404, 'NOT_ON_ALLOWLIST');
    const draft = await world.draft();
    expectError(await get(proofUrl(draft.slug), member.headers), 404, 'RAFFLE_NOT_FOUND');
    expectError(await get(proofUrl('no-such-raffle'), member.headers), 404, 'RAFFLE_NOT_FOUND');
    for (const path of ['', '/leaves']) expectError(await get(allowlistUrl('raf_nope', path), workspaceHeaders), 404, 'RAFFLE_NOT_FOUND');
  });

  it('answers 401 without a key, 403 for the other key type and for a key without the route\'s scope', async () => {
    const { raffle } = await drawnAllowlistRaffle(world, { spots: 1, entrants: 1 });
    const entrant = await world.entrant();
    const noWins = await world.entrant({}, PERSONAL_API_SCOPES.filter((s) => s !== 'wins:read'));
    const noEntriesWrite = await world.entrant({}, PERSONAL_API_SCOPES.filter((s) => s !== 'entries:write'));
    const workspaceKey = (await world.workspaceKey()).apiKey;
    const { apiKey: noWinners } = await insertApiKey(world.db, { kind: 'workspace', userId: world.owner.id, workspaceId: world.workspace.id, name: 'no winners', scopes: WORKSPACE_API_SCOPES.filter((s) => s !== 'winners:read') });
    const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

    for (const url of [proofUrl(raffle.slug), allowlistUrl(raffle.id), allowlistUrl(raffle.id, '/leaves')]) expectError(await get(url, {}), 401, 'API_KEY_MISSING');
    expectError(await nameWallet(raffle.slug, randomAddress(), {}), 401, 'API_KEY_MISSING');
    expectError(await get(proofUrl(raffle.slug), bearer(workspaceKey)), 403, 'WRONG_KEY_TYPE');
    expectError(await nameWallet(raffle.slug, randomAddress(), bearer(workspaceKey)), 403, 'WRONG_KEY_TYPE');
    expectError(await get(allowlistUrl(raffle.id), entrant.headers), 403, 'WRONG_KEY_TYPE');
    expectError(await get(proofUrl(raffle.slug), noWins.headers), 403, 'INSUFFICIENT_SCOPE');
    expectError(await nameWallet(raffle.slug, randomAddress(), noEntriesWrite.headers), 403, 'INSUFFICIENT_SCOPE');
    expectError(await get(allowlistUrl(raffle.id), bearer(noWinners)), 403, 'INSUFFICIENT_SCOPE');
    expectError(await get(allowlistUrl(raffle.id, '/leaves'), bearer(noWinners)), 403, 'INSUFFICIENT_SCOPE');
  });

  it('reads any raffle of the workspace: not_applicable for one that is not an allowlist raffle', async () => {
    const airdrop = await world.open({ allocationType: 'airdrop' });
    expect(expectOk(await get(allowlistUrl(airdrop.id), workspaceHeaders), 'Allowlist')).toMatchObject({ status: 'not_applicable', current: null, versions: [] });
    expectError(await get(allowlistUrl(airdrop.id, '/leaves'), workspaceHeaders), 409, 'ALLOWLIST_NOT_PUBLISHED');
    const entrant = await world.entrant();
    expectError(await get(proofUrl(airdrop.slug), entrant.headers), 404, 'NOT_ON_ALLOWLIST');
  });
});

describe('naming the wallet a leaf is for', () => {
  it('lets a winner name one of their verified wallets until the deadline; the version built after it lists that wallet', async () => {
    const deadline = new Date(Date.now() + 3_600_000);
    const { raffle, entrants } = await drawnAllowlistRaffle(world, { spots: 2, entrants: 3, body: { settings: { walletDeadline: deadline.toISOString() } } });
    await world.finalize(raffle.id);
    expect(expectOk(await get(allowlistUrl(raffle.id), workspaceHeaders), 'Allowlist')).toMatchObject({ status: 'awaiting_wallets', walletDeadline: deadline.toISOString() });
    expect(await publishAllowlists(world)).toBe(0);
    expectError(await get(proofUrl(raffle.slug), entrants[0]!.headers), 409, 'ALLOWLIST_NOT_PUBLISHED');

    const ids = await winnerIds(raffle.id);
    const winner = entrants.find((e) => ids.includes(e.user.id))!;
    const loser = entrants.find((e) => !ids.includes(e.user.id))!;
    const second = randomAddress();
    // Not one of theirs yet: refused, whoever's it is.
    expectError(await nameWallet(raffle.slug, second, winner.headers), 400, 'VALIDATION_FAILED');
    expectError(await nameWallet(raffle.slug, loser.address, winner.headers), 400, 'VALIDATION_FAILED');
    await db.database.db.insert(schema.userWallets).values({ userId: winner.user.id, chain: 'ethereum', address: second, verified: true });

    const named = await nameWallet(raffle.slug, second.toUpperCase().replace('0X', '0x'), winner.headers);
    expect(named.statusCode, named.body).toBe(200);
    expectMatchesSchema('AllowlistWallet', named.json());
    expect(named.json()).toEqual({ raffleId: raffle.id, address: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/), walletDeadline: deadline.toISOString() });
    expect(named.json().address.toLowerCase()).toBe(second);
    // Naming it again is the same answer.
    expect((await nameWallet(raffle.slug, second, winner.headers)).json()).toEqual(named.json());
    expectError(await nameWallet(raffle.slug, loser.address, loser.headers), 404, 'WIN_NOT_FOUND');

    expect(await publishAllowlists(world, { now: () => new Date(deadline.getTime() + 1000) })).toBe(1);
    const own = expectOk(await get(proofUrl(raffle.slug), winner.headers), 'AllowlistProof');
    expect(own.address).toBe(named.json().address);
    expect(verifyAllowlistProof(own)).toBe(true);
  });

  it('refuses with 409 WALLET_NAMING_CLOSED once the deadline passed, when the raffle sets none, and for a raffle that is not an allowlist', async () => {
    const passed = await drawnAllowlistRaffle(world, { spots: 1, entrants: 1, body: { settings: { walletDeadline: new Date(Date.now() - 60_000).toISOString() } } });
    const none = await drawnAllowlistRaffle(world, { spots: 1, entrants: 1 });
    const airdrop = await drawnAllowlistRaffle(world, { spots: 1, entrants: 1, body: { allocationType: 'airdrop' } });
    for (const { raffle, entrants } of [passed, none, airdrop]) {
      await world.finalize(raffle.id);
      expectError(await nameWallet(raffle.slug, entrants[0]!.address, entrants[0]!.headers), 409, 'WALLET_NAMING_CLOSED');
    }
  });

  it('refuses a body that is not an address, or no body, with 400 VALIDATION_FAILED', async () => {
    const { raffle, entrants } = await drawnAllowlistRaffle(world, { spots: 1, entrants: 1, body: { settings: { walletDeadline: new Date(Date.now() + 3_600_000).toISOString() } } });
    const headers = entrants[0]!.headers;
    for (const address of ['0x123', 'vitalik.eth', `0x${'g'.repeat(40)}`]) expectError(await nameWallet(raffle.slug, address, headers), 400, 'VALIDATION_FAILED');
    expectError(await app.inject({ method: 'PUT', url: walletUrl(raffle.slug), headers, payload: {} }), 400, 'VALIDATION_FAILED');
    const bodiless = await app.inject({ method: 'PUT', url: walletUrl(raffle.slug), headers });
    expect(bodiless.statusCode).toBe(400);
    expect(responseViolations(bodiless, { method: 'PUT' })).toEqual([]);
    expectError(await nameWallet('no-such-raffle', entrants[0]!.address, headers), 404, 'RAFFLE_NOT_FOUND');
  });
});
