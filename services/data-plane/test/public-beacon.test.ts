import { QUICKNET, type BeaconChain } from '@raffle/sdk';
import { localBeaconChain } from '@raffle/service-kit/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from './support/app.js';
import { expectMatchesSchema } from './support/contract-validator.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';

/**
 * GET /public/v1/beacon: the chain the platform pins, which a verifier trusting this platform's
 * beacon trusts instead of whatever chain a proof brings along.
 */

let db: TestDatabase;
let app: FastifyInstance;
let quicknetApp: FastifyInstance;
let chain: BeaconChain;

beforeAll(async () => {
  db = await createTestDatabase();
  app = await buildTestApp(db.database, db.url);
  quicknetApp = await buildTestApp(db.database, db.url, { BEACON_CHAIN: 'quicknet' });
  chain = localBeaconChain();
});
afterAll(async () => {
  await app?.close();
  await quicknetApp?.close();
  await db?.drop();
});

describe('GET /public/v1/beacon', () => {
  it('names the pinned chain without a key, cacheable, readable from any origin', async () => {
    const res = await app.inject({ url: '/public/v1/beacon', headers: { origin: 'https://community.example' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ chainHash: chain.chainHash, publicKey: chain.publicKey, period: chain.period, genesisTime: chain.genesisTime, scheme: 'bls-unchained-g1-rfc9380', quicknet: false });
    expectMatchesSchema('PlatformBeaconChain', res.json());
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['ratelimit-policy']).toBeDefined();
  });

  it("says quicknet when the platform pins drand's quicknet", async () => {
    const res = await quicknetApp.inject({ url: '/public/v1/beacon' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ chainHash: QUICKNET.chainHash, publicKey: QUICKNET.publicKey, quicknet: true });
  });

  it('takes no method but GET and HEAD', async () => {
    const res = await app.inject({ method: 'POST', url: '/public/v1/beacon' });
    expect(res.statusCode).toBe(405);
    expect(res.json()).toMatchObject({ code: expect.any(String) });
  });
});
