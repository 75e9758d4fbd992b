import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { deployDemoContracts, mineBlock, mintDemoHoldings, startAnvil, type DeployedDemoContracts, type LocalChain } from '@raffle/chain/local';
import type { Address } from '@raffle/chain';
import { findDrawProofSource, insertEntry, listDrawWinnerPositions, renderDrawProof, updateRaffle } from '@raffle/db';
import { checkEligibilityBlocksOnChain, verifyDraw, type DrawProof } from '@raffle/sdk';
import { localBeaconChain } from '@raffle/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManagementApp } from '../src/app.js';
import { buildTestApp } from './support/app.js';
import { expectSchema } from './support/contract.js';
import { dashboardRaffles, untilBeaconRound, type Raffle } from './support/dashboard-raffles.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { seedTenant, type Tenant } from './support/tenant.js';

// Chains of this file's own: one that mines only when told (so the close block does not exist until
// the test mines it) and one the last test stops. The run's shared chain is never stopped.
let testDb: TestDatabase;
let tenant: Tenant;
let quiet: LocalChain;
let contracts: DeployedDemoContracts;
const apps: ManagementApp[] = [];

beforeAll(async () => {
  testDb = await createTestDatabase();
  tenant = await seedTenant(testDb.database);
  quiet = await startAnvil({ blockTime: 0 });
  contracts = await deployDemoContracts(quiet, { name: 'Nebula Pass', symbol: 'NEB' });
});

afterAll(async () => {
  for (const app of apps) await app.close();
  await quiet?.stop();
  await testDb?.drop();
});

async function app(chain: LocalChain, overrides: Record<string, string> = {}) {
  const built = await buildTestApp(testDb.database, testDb.url, { CHAIN_RPC_URLS: chain.env.CHAIN_RPC_URLS, ...overrides });
  apps.push(built);
  return built;
}

/** A wallet nobody else holds anything in: only this test gives it tokens. */
const freshWallet = (): Address => `0x${randomBytes(20).toString('hex')}`;

/** A block as the chain itself reports it (plain JSON-RPC, as any verifier would ask). */
async function blockOf(chain: LocalChain, number: bigint): Promise<{ hash: string; timestamp: string }> {
  const response = await fetch(chain.rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getBlockByNumber', params: [`0x${number.toString(16)}`, false] }),
  });
  const { result } = (await response.json()) as { result: { hash: string; timestamp: string } };
  return { hash: result.hash, timestamp: new Date(Number(BigInt(result.timestamp)) * 1000).toISOString() };
}

/** A raffle gated on the quiet chain's pass, with a holder and a non-holder entered (as entry time left them). */
async function gatedRaffle(management: ManagementApp, contract: Address, body: Record<string, unknown> = {}) {
  const api = dashboardRaffles(management, testDb.database, tenant.workspace.id, tenant.owner.id);
  const raffle = await api.open({
    spots: 2,
    requirements: [{ id: 'pass', type: 'token_balance', label: 'Holds a Nebula Pass', params: { chain: 'anvil', contract, standard: 'erc721', min: '1' } }],
    ...body,
  });
  const enter = async (wallet: Address) => {
    const user = await api.user({ wallets: [{ chain: 'anvil', address: wallet.toLowerCase(), verified: true }] });
    return (await insertEntry(testDb.database.db, { raffle: { id: raffle.id, slug: raffle.slug }, userId: user.id, status: 'valid', source: 'api' })).id;
  };
  return { api, raffle, enter };
}

/** The proof as the data plane serves it (the same renderer), parsed. */
async function proofOf(raffleId: string): Promise<DrawProof> {
  const { sql } = testDb.database;
  const source = (await findDrawProofSource(sql, raffleId))!;
  const winners = await listDrawWinnerPositions(sql, raffleId);
  return JSON.parse(
    renderDrawProof(
      {
        algorithm: source.algorithm!,
        closedAt: source.closedAt,
        beacon: source.beacon,
        eligibilityBlocks: source.eligibilityBlocks,
        drawCommitment: source.drawCommitment!,
        seed: source.seed!,
        entriesDigest: source.entriesDigest!,
        spots: source.spots,
        entryLines: source.entryLines!,
      },
      winners,
    ),
  ) as DrawProof;
}

const raffleRow = async (raffleId: string) =>
  (await testDb.database.sql<{ status: string; closedAt: Date; beaconRound: number }[]>`
    select status, closed_at as "closedAt", beacon_round::int as "beaconRound" from raffles where id = ${raffleId}`)[0]!;
const statusOf = async (raffleId: string) => (await raffleRow(raffleId)).status;

/** Mines a block timestamped after the close (timestamps are whole seconds), and answers its number. */
async function mineAfter(chain: LocalChain, closedAt: string): Promise<bigint> {
  await sleep(Math.max(0, Date.parse(closedAt) + 1000 - Date.now()));
  return mineBlock(chain);
}

describe('a manual draw of a raffle whose requirements read a chain', () => {
  it('answers 409 DRAW_CHAIN_PENDING with Retry-After until the close block exists, then draws there and the proof names that block', async () => {
    const management = await app(quiet);
    const holder = freshWallet();
    await mintDemoHoldings(quiet, contracts, { erc721: [{ to: holder, tokenId: 501n }] });
    const { api, raffle, enter } = await gatedRaffle(management, contracts.erc721);
    const held = await enter(holder);
    await enter(freshWallet());
    const closed = await api.ok(raffle.id, 'close');
    await untilBeaconRound(closed);

    const early = await api.attempt(raffle.id, 'draw');
    expect(early.statusCode, early.body).toBe(409);
    expect(early.json().message).toMatch(/^DRAW_CHAIN_PENDING: /);
    expect(early.headers['retry-after']).toBe('2');
    expectSchema('ManagementErrorBody', early.json());
    expect(await api.wins(raffle.id)).toHaveLength(0);
    expect(await statusOf(raffle.id)).toBe('closed');

    const mined = await mineAfter(quiet, closed.closedAt as string);
    const drawn = await api.attempt(raffle.id, 'draw');
    expect(drawn.statusCode, drawn.body).toBe(200);

    const proof = await proofOf(raffle.id);
    expectSchema('DrawProof', proof);
    const block = await blockOf(quiet, mined);
    expect(proof.closedAt).toBe(closed.closedAt);
    expect(proof.eligibilityBlocks).toEqual([{ chain: 'anvil', chainId: 31337, number: mined.toString(), hash: block.hash, timestamp: block.timestamp }]);
    expect(proof.entries.map((e) => e.id)).toEqual([held]);

    // The verifier reports the block, says balances were not checked, and a node confirms the block.
    const verification = verifyDraw(proof, { trustedChains: [localBeaconChain()] });
    expect(verification).toMatchObject({ valid: true, eligibility: { onChain: 'not_checked', blocks: proof.eligibilityBlocks } });
    const rpcUrls = { anvil: quiet.rpcUrl };
    expect(await checkEligibilityBlocksOnChain(proof, { rpcUrls })).toEqual({ confirmed: ['anvil'], unchecked: [], failures: [] });

    // A proof naming another block is caught by any node: another hash, or a block that is not the first after the close.
    const tampered = (changes: Partial<NonNullable<DrawProof['eligibilityBlocks']>[number]>) => ({ ...proof, eligibilityBlocks: [{ ...proof.eligibilityBlocks![0]!, ...changes }] });
    const wrongHash = await checkEligibilityBlocksOnChain(tampered({ hash: `0x${'00'.repeat(32)}` }), { rpcUrls });
    expect(wrongHash.failures.map((f) => f.reason)).toEqual(['eligibility_block_mismatch']);
    const later = await mineBlock(quiet);
    const notFirst = tampered({ number: later.toString(), ...(await blockOf(quiet, later)) });
    expect(verifyDraw(notFirst, { trustedChains: [localBeaconChain()] }).valid).toBe(true);
    expect((await checkEligibilityBlocksOnChain(notFirst, { rpcUrls })).failures.map((f) => f.reason)).toEqual(['eligibility_block_not_first']);
  });

  it('answers 503 CHAIN_UNAVAILABLE with Retry-After when the chain does not answer, and does nothing', async () => {
    const doomed = await startAnvil();
    try {
      const doomedContracts = await deployDemoContracts(doomed);
      const management = await app(doomed, { CHAIN_RPC_TIMEOUT_MS: '500', CHAIN_RPC_RETRIES: '0' });
      const { api, raffle, enter } = await gatedRaffle(management, doomedContracts.erc721);
      const entry = await enter(freshWallet());
      const closed = await api.ok(raffle.id, 'close');
      await untilBeaconRound(closed);
      await doomed.stop();

      const refused = await api.attempt(raffle.id, 'draw');
      expect(refused.statusCode, refused.body).toBe(503);
      expect(refused.json().message).toMatch(/^CHAIN_UNAVAILABLE: /);
      expect(refused.headers['retry-after']).toBe('10');
      expect(await statusOf(raffle.id)).toBe('closed');
      const [row] = await testDb.database.sql<{ status: string }[]>`select status from entries where id = ${entry}`;
      expect(row!.status).toBe('valid');
    } finally {
      await doomed.stop().catch(() => undefined);
    }
  });
});

describe('an auto-draw of a raffle whose requirements read a chain', () => {
  it('leaves the raffle closed while the close block does not exist, then draws it at that block', async () => {
    const management = await app(quiet, { SCHEDULER_ENABLED: 'true', SCHEDULER_INTERVAL_MS: '100' });
    const holder = freshWallet();
    await mintDemoHoldings(quiet, contracts, { erc721: [{ to: holder, tokenId: 502n }] });
    const { raffle, enter } = await gatedRaffle(management, contracts.erc721, { endsAt: new Date(Date.now() + 3_600_000).toISOString(), settings: { autoDraw: true } });
    await enter(holder);
    await testDb.database.db.transaction((tx) => updateRaffle(tx, raffle.id, { endsAt: new Date() }));
    await expect.poll(() => statusOf(raffle.id), { timeout: 10_000, interval: 50 }).toBe('closed');
    const row = await raffleRow(raffle.id);
    // Well past the beacon round: only the chain keeps it closed.
    await untilBeaconRound({ ...(raffle as Raffle), beaconRound: row.beaconRound });
    await sleep(1500);
    expect(await statusOf(raffle.id)).toBe('closed');
    // Waiting, not failing: a close block not produced yet is no failed transition.
    const metrics = await management.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.body).toMatch(/^scheduler_failed_transitions_total(\{[^}]*\})? 0$/m);

    const mined = await mineAfter(quiet, new Date(row.closedAt).toISOString());
    await expect.poll(() => statusOf(raffle.id), { timeout: 15_000, interval: 100 }).toBe('drawn');
    expect((await proofOf(raffle.id)).eligibilityBlocks![0]!.number).toBe(mined.toString());
  });
});
