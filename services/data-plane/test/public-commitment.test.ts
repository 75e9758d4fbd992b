import { enterRaffle, userPrincipal } from '@raffle/domain';
import { localBeaconChain } from '@raffle/service-kit/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from './support/app.js';
import { expectMatchesSchema } from './support/contract-validator.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { responseViolations } from './support/error-invariants.js';
import { createLifecycleWorld, type LifecycleWorld } from './support/lifecycle.js';
import { DRAND_DRAW_ALGORITHM, honestSeedOnlyProofOf, verifyDraw, type DrawProof } from './support/seed-only-proof.js';

/**
 * GET /public/v1/raffles/{slug}/commitment (issue 34): the algorithm a raffle's commitment is for,
 * bound at publish, and the round fixed at its close, served without a key so every verifier can
 * hold a proof against them. A beacon draw's proof relabelled as a seed-only one fails against it.
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

const getCommitment = (slug: string) => app.inject({ url: `/public/v1/raffles/${slug}/commitment` });

async function enter(raffleId: string, count: number) {
  for (let i = 0; i < count; i++) {
    const { user } = await world.entrant();
    await enterRaffle(world.db, { raffle: { raffleId }, actor: userPrincipal(user.id), source: 'web' });
  }
}

describe('the public commitment record', () => {
  it('binds a weighted raffle to the beacon draw at publish, and names the round once it closes', async () => {
    const raffle = await world.open({ spots: 3 });
    const published = await getCommitment(raffle.slug);
    expect(published.statusCode, published.body).toBe(200);
    expectMatchesSchema('DrawCommitment', published.json());
    expect(published.json()).toEqual({
      slug: raffle.slug,
      drawCommitment: raffle.drawCommitment,
      drawAlgorithm: DRAND_DRAW_ALGORITHM,
      publishedAt: raffle.publishedAt!.toISOString(),
    });
    expect(published.headers['access-control-allow-origin']).toBe('*');

    await enter(raffle.id, 4);
    const closed = await world.close(raffle.id);
    const record = (await getCommitment(raffle.slug)).json();
    expect(record).toMatchObject({ drawAlgorithm: DRAND_DRAW_ALGORITHM, beaconRound: closed.beaconRound, beaconChainHash: localBeaconChain().chainHash, closedAt: closed.closedAt!.toISOString() });
    expectMatchesSchema('DrawCommitment', record);
  });

  it('is on the keyed public raffle too (drawAlgorithm), and absent for other mechanics\' algorithm', async () => {
    const viewer = await world.entrant();
    const raffle = await world.open({ spots: 2 });
    const read = await app.inject({ url: `/api/v1/raffles/${raffle.slug}`, headers: viewer.headers });
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json().drawAlgorithm).toBe(DRAND_DRAW_ALGORITHM);
    const collection = await world.open({ mechanic: 'collection', spots: 2 });
    expect((await getCommitment(collection.slug)).json().drawAlgorithm).toBeUndefined();
  });

  it('answers 404 RAFFLE_NOT_FOUND for private raffles, drafts and unknown slugs alike', async () => {
    const hidden = await world.open({ visibility: 'private' });
    const draft = await world.draft();
    for (const slug of [hidden.slug, draft.slug, 'no-such-raffle']) {
      const res = await getCommitment(slug);
      expect({ status: res.statusCode, code: res.json().code }).toEqual({ status: 404, code: 'RAFFLE_NOT_FOUND' });
      expect(responseViolations(res, { method: 'GET' }), res.body).toEqual([]);
    }
  });
});

describe('a drawn raffle\'s proof against its record', () => {
  it('holds for the real beacon draw, and refuses it relabelled es-hmac-sha256-v1 with the winners re-ranked from the seed alone', async () => {
    const raffle = await world.open({ spots: 5 });
    await enter(raffle.id, 40);
    await world.close(raffle.id);
    await world.draw(raffle.id);
    const proof = (await app.inject({ url: `/public/v1/raffles/${raffle.slug}/draw` })).json() as DrawProof;
    const commitment = (await getCommitment(raffle.slug)).json();
    const trustedChains = [localBeaconChain()];
    expect(verifyDraw(proof, { trustedChains, commitment })).toMatchObject({ valid: true, failures: [] });

    const downgraded = honestSeedOnlyProofOf(proof);
    expect(verifyDraw(downgraded, { trustedChains })).toMatchObject({ valid: true, predictableBy: 'seed_holder' });
    expect(verifyDraw(downgraded, { trustedChains, commitment }).failures.map((f) => f.reason)).toEqual(['algorithm_not_committed']);
  });

  it('of a raffle published before the algorithm was bound still binds the beacon draw through its round', async () => {
    const raffle = await world.open({ spots: 2 });
    await enter(raffle.id, 6);
    await world.close(raffle.id);
    await world.draw(raffle.id);
    await db.database.sql`update raffles set draw_algorithm = null where id = ${raffle.id}`;
    const commitment = (await getCommitment(raffle.slug)).json();
    expect(commitment.drawAlgorithm).toBeUndefined();
    expect(commitment.beaconRound).toBeGreaterThan(0);
    const proof = (await app.inject({ url: `/public/v1/raffles/${raffle.slug}/draw` })).json() as DrawProof;
    const trustedChains = [localBeaconChain()];
    expect(verifyDraw(proof, { trustedChains, commitment }).valid).toBe(true);
    expect(verifyDraw(honestSeedOnlyProofOf(proof), { trustedChains, commitment }).failures.map((f) => f.reason)).toEqual(['algorithm_not_committed']);
  });
});

describe('the OpenAPI document', () => {
  it('documents the record as public (security: []), tagged Public, counted by the `public` rate limit, with the DrawCommitment schema', async () => {
    const res = await app.inject({ url: '/openapi.json' });
    type Operation = { operationId: string; tags: string[]; security: unknown[]; responses: Record<string, { description?: string; content?: Record<string, { schema: unknown }> }> };
    const op = (res.json() as { paths: Record<string, { get?: Operation }> }).paths['/public/v1/raffles/{slug}/commitment']?.get;
    expect(op).toBeDefined();
    expect({ operationId: op!.operationId, tags: op!.tags, security: op!.security }).toEqual({ operationId: 'getPublicDrawCommitment', tags: ['Public'], security: [] });
    expect(op!.responses['200']!.content?.['application/json']?.schema).toEqual({ $ref: '#/components/schemas/DrawCommitment' });
    expect(op!.responses['429']!.description).toMatch(/\(`public`\)/);
  });
});
