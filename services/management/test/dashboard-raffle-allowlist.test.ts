import { randomBytes } from 'node:crypto';
import { publishDueAllowlists, systemClock } from '@raffle/domain';
import { verifyAllowlistProof } from '@raffle/sdk';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from './support/app.js';
import { expectManagementError, expectSchema } from './support/contract.js';
import { as, dashboardRaffles, type DashboardRaffles, type Raffle } from './support/dashboard-raffles.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { seedTenant, type Tenant } from './support/tenant.js';

/**
 * The console's allowlist routes (issue 35): a raffle's allowlist and its leaves with their proofs,
 * for any member of its workspace, as the data plane's workspace routes answer them.
 */

let testDb: TestDatabase;
let app: FastifyInstance;
let tenant: Tenant;
let api: DashboardRaffles;

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await buildTestApp(testDb.database, testDb.url);
  tenant = await seedTenant(testDb.database);
  api = dashboardRaffles(app, testDb.database, tenant.workspace.id, tenant.owner.id);
});

afterAll(async () => {
  await app?.close();
  await testDb?.drop();
});

type Leaf = { address: string; quantity: string; proof: string[] };
type LeafPage = { version: number; root: string; data: Leaf[]; pagination: { nextCursor: string | null; hasMore: boolean } };

const allowlistUrl = (raffleId: string, rest = '', ws = tenant.workspace.id) => `${api.raffleUrl(raffleId, ws)}/allowlist${rest}`;
const getAs = (userId: string, url: string) => app.inject({ url, headers: as(userId) });
const publish = () => publishDueAllowlists(testDb.database.db, { clock: systemClock });

/** A drawn allowlist raffle on ethereum whose entrants each hold a verified wallet there. */
async function drawnAllowlistRaffle(spots: number, entrants: number, body: Record<string, unknown> = {}) {
  const raffle = await api.open({ spots, chain: 'ethereum', allocationType: 'allowlist_gtd', ...body });
  const wallets: string[] = [];
  for (let i = 0; i < entrants; i++) {
    const address = `0x${randomBytes(20).toString('hex')}`;
    const user = await api.user({ wallets: [{ chain: 'ethereum', address, verified: true }] });
    expect((await api.enter(raffle.slug, user.id)).statusCode).toBe(201);
    wallets.push(address);
  }
  await api.ok(raffle.id, 'close');
  await api.ok(raffle.id, 'draw');
  return { raffle, wallets };
}

describe('a raffle\'s allowlist on the dashboard', () => {
  let raffle: Raffle;

  beforeAll(async () => {
    ({ raffle } = await drawnAllowlistRaffle(3, 5, { settings: { allowlistQuantity: 2 } }));
  });

  it('waits for finalize, then shows the published version to any member', async () => {
    const before = await getAs(tenant.member.id, allowlistUrl(raffle.id));
    expect(before.statusCode, before.body).toBe(200);
    expectSchema('Allowlist', before.json());
    expect(before.json()).toMatchObject({ raffleId: raffle.id, status: 'awaiting_finalize', current: null, quantityPerWinner: 2 });
    expect(expectManagementError(await getAs(tenant.member.id, allowlistUrl(raffle.id, '/leaves')), 409).message).toMatch(/^ALLOWLIST_NOT_PUBLISHED: /);

    await api.ok(raffle.id, 'finalize');
    expect(await publish()).toBeGreaterThanOrEqual(1);
    const after = await getAs(tenant.member.id, allowlistUrl(raffle.id));
    expectSchema('Allowlist', after.json());
    expect(after.json()).toMatchObject({ status: 'published', current: { version: 1, count: 3, unlistedWinners: 0, reason: 'finalized' } });
  });

  it('pages every finalized winner\'s leaf with a proof that verifies against the root, and finds one wallet\'s leaf', async () => {
    const { root } = (await getAs(tenant.member.id, allowlistUrl(raffle.id))).json().current;
    const leaves = await api.walk<Leaf>(allowlistUrl(raffle.id, '/leaves'), 1, 'AllowlistLeafPage');
    const winners = (await api.wins(raffle.id, '?status=finalized')) as unknown as Array<{ userId: string }>;
    expect(leaves).toHaveLength(winners.length);
    for (const leaf of leaves) {
      expect(leaf.quantity).toBe('2');
      expect(verifyAllowlistProof({ root, ...leaf }), leaf.address).toBe(true);
    }
    const one = await getAs(tenant.member.id, allowlistUrl(raffle.id, `/leaves?address=${leaves[1]!.address.toLowerCase()}&version=1`));
    expectSchema('AllowlistLeafPage', one.json());
    expect((one.json() as LeafPage).data).toEqual([leaves[1]]);
  });

  it('refuses a version it does not have (404 NOT_FOUND) and a bad query (400), each message leading with its code', async () => {
    const cases: Array<[string, number, string]> = [
      ['?version=2', 404, 'NOT_FOUND'],
      ['?version=0', 400, 'VALIDATION_FAILED'],
      ['?version=one', 400, 'VALIDATION_FAILED'],
      ['?address=0x12', 400, 'VALIDATION_FAILED'],
      ['?limit=0', 400, 'INVALID_LIMIT'],
      ['?limit=251', 400, 'INVALID_LIMIT'],
      ['?cursor=garbage', 400, 'INVALID_CURSOR'],
      ['?colour=blue', 400, 'VALIDATION_FAILED'],
    ];
    for (const [query, status, code] of cases) {
      const body = expectManagementError(await getAs(tenant.member.id, allowlistUrl(raffle.id, `/leaves${query}`)), status);
      const messages = ([] as unknown[]).concat(body.message);
      expect(messages.some((m) => String(m).startsWith(`${code}: `)), `${query}: ${JSON.stringify(body.message)}`).toBe(true);
    }
  });

  it('is for members only: 403 FORBIDDEN to a non-member, 404 RAFFLE_NOT_FOUND for another workspace\'s raffle or an unknown one', async () => {
    for (const path of ['', '/leaves']) {
      expect(expectManagementError(await getAs(tenant.outsider.id, allowlistUrl(raffle.id, path)), 403).message).toMatch(/^FORBIDDEN: /);
      // The outsider's own workspace does not have this raffle.
      expect(expectManagementError(await getAs(tenant.outsider.id, allowlistUrl(raffle.id, path, tenant.otherWorkspace.id)), 404).message).toMatch(/^RAFFLE_NOT_FOUND: /);
      expect(expectManagementError(await getAs(tenant.member.id, allowlistUrl('raf_nope', path)), 404).message).toMatch(/^RAFFLE_NOT_FOUND: /);
      expect((await app.inject({ url: allowlistUrl(raffle.id, path) })).statusCode).toBe(401);
    }
  });

  it('says not_applicable for a raffle whose allocation is not an allowlist', async () => {
    const airdrop = await api.open({ allocationType: 'airdrop' });
    const res = await getAs(tenant.member.id, allowlistUrl(airdrop.id));
    expectSchema('Allowlist', res.json());
    expect(res.json()).toMatchObject({ status: 'not_applicable', current: null, versions: [] });
  });
});

describe('allowlist settings', () => {
  it('keeps allowlistQuantity and allowlistPublic when a PATCH changes other settings (no default is filled in over them)', async () => {
    const draft = await api.draft({ settings: { allowlistQuantity: 5, allowlistPublic: true } });
    expect(draft.settings).toMatchObject({ allowlistQuantity: 5, allowlistPublic: true });
    const res = await app.inject({ method: 'PATCH', url: api.raffleUrl(draft.id), headers: as(tenant.owner.id), payload: { settings: { autoDraw: true } } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().settings).toMatchObject({ autoDraw: true, allowlistQuantity: 5, allowlistPublic: true });
    const fresh = await api.draft();
    expect(fresh.settings).toMatchObject({ allowlistQuantity: 1, allowlistPublic: false, walletDeadline: null });
  });
});
