import { deployDemoContracts, deployHostileToken, HOSTILE_MODES, mintDemoHoldings, startAnvil, type DeployedDemoContracts, type HostileMode, type LocalChain } from '@raffle/chain/local';
import type { FastifyInstance } from 'fastify';
import type { Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from './support/app.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { createLifecycleWorld, type LifecycleWorld } from './support/lifecycle.js';
import { registerSecret } from './support/log-scan.js';

/**
 * No tenant can stall another through the chain (issue 34): four workspaces gate their raffles on
 * contracts this file deploys whose `balanceOf` answers ~2 MB, burns all its gas, reverts, or
 * answers garbage; a fifth gates on a healthy pass. Their entrants rush in together, so their
 * reads share the reader's ticks. The healthy raffle's entrants are answered `valid` at once (none
 * `pending`, none waiting on the chain's resolver, which is off here); the hostile gates' entrants
 * are refused plainly, as holding nothing; and an FCFS raffle's spots go to the holders who came first.
 */

let db: TestDatabase;
let app: FastifyInstance;
let chain: LocalChain;
let contracts: DeployedDemoContracts;
let healthy: LifecycleWorld;
const hostile = new Map<HostileMode, { world: LifecycleWorld; token: Address }>();
let nextTokenId = 70_000n;

beforeAll(async () => {
  chain = await startAnvil({ blockTime: 0 });
  contracts = await deployDemoContracts(chain, { name: 'Healthy Pass', symbol: 'OK' });
  db = await createTestDatabase();
  healthy = await createLifecycleWorld(db.database);
  for (const mode of HOSTILE_MODES) hostile.set(mode, { world: await createLifecycleWorld(db.database), token: await deployHostileToken(chain, mode) });
  app = await buildTestApp(db.database, db.url, {
    CHAIN_RPC_URLS: `anvil=${chain.rpcUrl}`,
    // Every entry reads the chain (no cached answer), so the tenants' reads meet in the same ticks.
    CHAIN_LATEST_CACHE_MS: '0',
    CHAIN_ENTRY_TIMEOUT_MS: '10000',
    // Nothing may be left for later: an entry of the healthy raffle is decided at once or the test fails.
    PENDING_ENTRIES_ENABLED: 'false',
  });
}, 120_000);
afterAll(async () => {
  await app?.close();
  await chain?.stop();
  await db?.drop();
});

const gateOn = (contract: Address) =>
  [{ id: 'gate', type: 'token_balance', label: 'Holds the gate token', params: { chain: 'anvil', contract, standard: 'erc721', min: '1' } }] as never;

async function entrantOf(world: LifecycleWorld, holdsPass: boolean) {
  const wallet = privateKeyToAccount(generatePrivateKey()).address;
  registerSecret(wallet);
  registerSecret(wallet.toLowerCase());
  if (holdsPass) await mintDemoHoldings(chain, contracts, { erc721: [{ to: wallet, tokenId: nextTokenId++ }] });
  return world.entrant({ wallets: [{ chain: 'anvil', address: wallet, verified: true }] });
}

const enter = (slug: string, headers: Record<string, string>) => app.inject({ method: 'POST', url: `/api/v1/raffles/${slug}/entries`, headers });

/** Every hostile workspace's raffle and four entrants for each, ready to rush. */
async function hostileRush(mechanic: 'raffle' | 'fcfs' = 'raffle') {
  const rush: { slug: string; headers: Record<string, string> }[] = [];
  for (const { world, token } of hostile.values()) {
    const raffle = await world.open({ mechanic, spots: 3, requirements: gateOn(token) });
    for (let i = 0; i < 4; i++) rush.push({ slug: raffle.slug, headers: (await entrantOf(world, false)).headers });
  }
  return rush;
}

describe("hostile gates in other workspaces, entered at the same time as a healthy gated raffle", () => {
  it("answers the healthy raffle's entrants valid at once, and the hostile gates' entrants 422 as holding nothing", async () => {
    const raffle = await healthy.open({ requirements: gateOn(contracts.erc721) });
    const holders = [];
    for (let i = 0; i < 8; i++) holders.push(await entrantOf(healthy, true));
    const rush = await hostileRush();
    const [mine, theirs] = await Promise.all([
      Promise.all(holders.map((h) => enter(raffle.slug, h.headers))),
      Promise.all(rush.map((r) => enter(r.slug, r.headers))),
    ]);
    expect(mine.map((res) => [res.statusCode, res.json().status])).toEqual(holders.map(() => [201, 'valid']));
    expect(theirs.map((res) => [res.statusCode, res.json().code])).toEqual(rush.map(() => [422, 'REQUIREMENTS_NOT_MET']));
  });

  it("gives an FCFS raffle's holders who came first its spots while the hostile rush runs beside them; a later holder finds it full", async () => {
    const raffle = await healthy.open({ mechanic: 'fcfs', spots: 4, requirements: gateOn(contracts.erc721) });
    const first = [];
    for (let i = 0; i < 4; i++) first.push(await entrantOf(healthy, true));
    const late = await entrantOf(healthy, true);
    const rush = await hostileRush('fcfs');
    const [answers] = await Promise.all([Promise.all(first.map((f) => enter(raffle.slug, f.headers))), ...rush.map((r) => enter(r.slug, r.headers))]);
    expect(answers.map((res) => [res.statusCode, res.json().status])).toEqual(first.map(() => [201, 'valid']));
    const wins = await db.database.sql<{ user_id: string; position: number }[]>`
      select e.user_id, w.position from wins w join entries e on e.id = w.entry_id where w.raffle_id = ${raffle.id} order by w.position`;
    expect(wins.map((w) => w.position)).toEqual([1, 2, 3, 4]);
    expect(wins.map((w) => w.user_id).sort()).toEqual(first.map((f) => f.user.id).sort());
    const refused = await enter(raffle.slug, late.headers);
    expect(refused.statusCode).toBeGreaterThanOrEqual(400);
    expect(refused.statusCode).toBeLessThan(500);
  });
});
