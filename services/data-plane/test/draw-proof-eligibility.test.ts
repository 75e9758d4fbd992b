import { enterRaffle, userPrincipal } from '@raffle/domain';
import { verifyDraw, type DrawProof } from '@raffle/sdk';
import { localBeaconChain } from '@raffle/service-kit/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from './support/app.js';
import { expectMatchesSchema } from './support/contract-validator.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { createLifecycleWorld, type LifecycleWorld } from './support/lifecycle.js';

/** A drawn raffle's proof names the blocks its draw re-read on-chain requirements at (decision 0028), when there are any. */

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

async function drawnRaffle() {
  const raffle = await world.open({ spots: 2, visibility: 'public' });
  for (let i = 0; i < 3; i++) {
    const { user } = await world.entrant();
    await enterRaffle(world.db, { raffle: { raffleId: raffle.id }, actor: userPrincipal(user.id), source: 'web' });
  }
  await world.close(raffle.id);
  await world.draw(raffle.id);
  return raffle;
}

const proofOf = async (slug: string) => {
  const res = await app.inject({ url: `/public/v1/raffles/${slug}/draw` });
  expect(res.statusCode, res.body).toBe(200);
  return { body: res.body, proof: res.json() as DrawProof };
};

describe("the proof's eligibilityBlocks", () => {
  it('are served as the draw stored them, after the beacon, and verify against the close', async () => {
    const raffle = await drawnRaffle();
    const { sql } = db.database;
    const [row] = await sql<{ closedAt: Date }[]>`select closed_at as "closedAt" from raffles where id = ${raffle.id}`;
    const closedAt = row!.closedAt;
    const block = { chain: 'anvil', chainId: 31337, number: '42', hash: `0x${'3c'.repeat(32)}`, timestamp: new Date(new Date(closedAt).getTime() + 1000).toISOString().replace(/\.\d{3}Z$/, '.000Z') };
    // What a draw of a raffle gated on a chain stores (the domain's tests draw one on a real chain).
    await sql`update raffle_draw_snapshots set eligibility_blocks = ${JSON.stringify([block])}::jsonb where raffle_id = ${raffle.id}`;

    const { body, proof } = await proofOf(raffle.slug);
    expectMatchesSchema('DrawProof', proof);
    expect(proof.eligibilityBlocks).toEqual([block]);
    expect(body.indexOf('"eligibilityBlocks"')).toBeGreaterThan(body.indexOf('"beacon"'));
    expect(body.indexOf('"eligibilityBlocks"')).toBeLessThan(body.indexOf('"drawCommitment"'));
    expect(verifyDraw(proof, { trustedChains: [localBeaconChain()] })).toMatchObject({ valid: true, eligibility: { blocks: [block], onChain: 'not_checked' } });
  });

  it('are absent from the proof of a raffle that read no chain', async () => {
    const { body } = await proofOf((await drawnRaffle()).slug);
    expect(body).not.toContain('eligibilityBlocks');
  });
});
