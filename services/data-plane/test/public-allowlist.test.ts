import { verifyAllowlistProof } from '@raffle/sdk';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from './support/app.js';
import { disqualify, drawnAllowlistRaffle, finalizedWins, publishAllowlists, reroll } from './support/allowlists.js';
import { expectMatchesSchema } from './support/contract-validator.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { responseViolations } from './support/error-invariants.js';
import { createLifecycleWorld, type LifecycleWorld } from './support/lifecycle.js';
import type { AllowlistLeaf, AllowlistLeafPage } from '@raffle/contracts';

/**
 * GET /public/v1/raffles/{slug}/allowlist and …/allowlist/leaves (issue 35): a public or unlisted
 * raffle's roots and versions for anyone, its leaves only when the workspace made them public;
 * no key, cacheable by ETag, CORS like the other public routes.
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

const publicUrl = (slug: string, rest = '') => `/public/v1/raffles/${slug}/allowlist${rest}`;
const getPublic = (url: string, headers: Record<string, string> = {}) => app.inject({ url, headers });

function expectError(res: LightMyRequestResponse, status: number, code: string) {
  expect({ status: res.statusCode, code: res.json().code }, res.body).toEqual({ status, code });
  expect(responseViolations(res, { method: 'GET' }), res.body).toEqual([]);
  expect(res.headers['cache-control'], 'a refusal is never cached').toBe('no-store');
  expect(res.headers.etag).toBeUndefined();
  expect(res.headers['access-control-allow-origin'], 'a page can read why it was refused').toBe('*');
}

function expectCacheable(res: LightMyRequestResponse, schemaId: string) {
  expect(res.statusCode, res.body).toBe(200);
  expectMatchesSchema(schemaId, res.json());
  expect(res.headers['cache-control']).toBe('public, max-age=60');
  expect(res.headers.etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
  expect(res.headers['access-control-allow-origin']).toBe('*');
  return res.json();
}

/** A finalized allowlist raffle with its version 1 published. */
async function publishedRaffle(body: Parameters<typeof drawnAllowlistRaffle>[1]['body'] = {}) {
  const drawn = await drawnAllowlistRaffle(world, { spots: 4, entrants: 6, body });
  await world.finalize(drawn.raffle.id);
  await publishAllowlists(world);
  return drawn;
}

async function publicLeaves(slug: string, query = '', limit = 3): Promise<{ pages: LeafPage[]; leaves: Leaf[] }> {
  const pages: LeafPage[] = [];
  let cursor: string | null = null;
  do {
    const page = expectCacheable(await getPublic(publicUrl(slug, `/leaves?limit=${limit}${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)), 'AllowlistLeafPage') as LeafPage;
    pages.push(page);
    cursor = page.pagination.nextCursor;
  } while (cursor !== null && pages.length < 50);
  return { pages, leaves: pages.flatMap((p) => p.data) };
}

describe('the public allowlist', () => {
  it('serves a public raffle\'s allowlist without a key: the workspace route\'s body, cacheable', async () => {
    const { raffle } = await publishedRaffle({ visibility: 'public' });
    const body = expectCacheable(await getPublic(publicUrl(raffle.slug)), 'Allowlist');
    const keyed = await app.inject({ url: `/api/v1/workspaces/${world.workspace.id}/raffles/${raffle.id}/allowlist`, headers: workspaceHeaders });
    expect(body).toEqual(keyed.json());
    expect(body).toMatchObject({ status: 'published', leavesPublic: false, leafEncoding: ['address', 'uint256'], current: { version: 1, count: 4 } });
    // A key sent anyway is not read: not even a revoked or garbage one is refused.
    expect((await getPublic(publicUrl(raffle.slug), { authorization: 'Bearer svc_u_garbage' })).statusCode).toBe(200);
  });

  it('answers 304 with no body for a current ETag, HEAD for caches, and a new ETag once a new version is published', async () => {
    const { raffle } = await publishedRaffle({ visibility: 'unlisted', settings: { allowlistPublic: true } });
    const first = await getPublic(publicUrl(raffle.slug));
    const etag = first.headers.etag as string;
    const again = await getPublic(publicUrl(raffle.slug), { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers['content-type']).toBeUndefined();
    const head = await app.inject({ method: 'HEAD', url: publicUrl(raffle.slug) });
    expect(head.statusCode).toBe(200);
    expect(head.headers.etag).toBe(etag);
    const leavesTag = (await getPublic(publicUrl(raffle.slug, '/leaves'))).headers.etag as string;
    expect((await getPublic(publicUrl(raffle.slug, '/leaves'), { 'if-none-match': `W/${leavesTag}` })).statusCode).toBe(304);

    const [win] = await finalizedWins(world, raffle.id);
    await disqualify(world, raffle.id, win!.winId);
    await reroll(world, raffle.id, win!.winId);
    expect(await publishAllowlists(world)).toBe(1);
    const changed = await getPublic(publicUrl(raffle.slug), { 'if-none-match': etag });
    expect(expectCacheable(changed, 'Allowlist').versions.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    expect(changed.headers.etag).not.toBe(etag);
    expect((await getPublic(publicUrl(raffle.slug, '/leaves'), { 'if-none-match': leavesTag })).statusCode).toBe(200);
  });

  it('lists every leaf with its proof when the leaves are public: the same leaves as the workspace route, each verifying against the root, any version', async () => {
    const { raffle } = await publishedRaffle({ visibility: 'public', settings: { allowlistPublic: true } });
    const { root } = expectCacheable(await getPublic(publicUrl(raffle.slug)), 'Allowlist').current;
    const { pages, leaves } = await publicLeaves(raffle.slug, '', 3);
    expect(pages.map((p) => p.data.length)).toEqual([3, 1]);
    expect(pages.every((p) => p.version === 1 && p.root === root)).toBe(true);
    const keyed = await app.inject({ url: `/api/v1/workspaces/${world.workspace.id}/raffles/${raffle.id}/allowlist/leaves`, headers: workspaceHeaders });
    expect(leaves).toEqual(keyed.json().data);
    for (const leaf of leaves) expect(verifyAllowlistProof({ root, ...leaf }), leaf.address).toBe(true);
    const one = (await publicLeaves(raffle.slug, `&version=1&address=${leaves[2]!.address}`)).leaves;
    expect(one).toEqual([leaves[2]]);
  });

  it('refuses a bad query with 400 and a version it does not have with 404 NOT_FOUND', async () => {
    const { raffle } = await publishedRaffle({ visibility: 'public', settings: { allowlistPublic: true } });
    const cases: Array<[string, number, string]> = [
      ['?limit=0', 400, 'INVALID_LIMIT'],
      ['?limit=251', 400, 'INVALID_LIMIT'],
      ['?cursor=garbage', 400, 'INVALID_CURSOR'],
      ['?version=0', 400, 'VALIDATION_FAILED'],
      ['?version=x', 400, 'VALIDATION_FAILED'],
      ['?address=0xabc', 400, 'VALIDATION_FAILED'],
      ['?version=2', 404, 'NOT_FOUND'],
    ];
    for (const [query, status, code] of cases) expectError(await getPublic(publicUrl(raffle.slug, `/leaves${query}`)), status, code);
  });
});

describe('what the public routes refuse', () => {
  it('answers a private raffle exactly as a slug that does not exist: 404 RAFFLE_NOT_FOUND on both routes', async () => {
    const { raffle } = await publishedRaffle({ visibility: 'private', settings: { allowlistPublic: true } });
    const draft = await world.draft({ settings: { allowlistPublic: true } });
    for (const slug of [raffle.slug, draft.slug, 'no-such-raffle']) {
      expectError(await getPublic(publicUrl(slug)), 404, 'RAFFLE_NOT_FOUND');
      expectError(await getPublic(publicUrl(slug, '/leaves')), 404, 'RAFFLE_NOT_FOUND');
    }
  });

  it('keeps the leaves to workspace keys unless the raffle makes them public: 404 NOT_FOUND, also for a raffle that is not an allowlist', async () => {
    const { raffle } = await publishedRaffle({ visibility: 'public' });
    expectError(await getPublic(publicUrl(raffle.slug, '/leaves')), 404, 'NOT_FOUND');
    const airdrop = await world.open({ allocationType: 'airdrop', settings: { allowlistPublic: true } });
    expect(expectCacheable(await getPublic(publicUrl(airdrop.slug)), 'Allowlist')).toMatchObject({ status: 'not_applicable', current: null });
    expectError(await getPublic(publicUrl(airdrop.slug, '/leaves')), 404, 'NOT_FOUND');
  });

  it('answers 409 ALLOWLIST_NOT_PUBLISHED for public leaves before a version is published', async () => {
    const { raffle } = await drawnAllowlistRaffle(world, { spots: 2, entrants: 3, body: { settings: { allowlistPublic: true } } });
    expect(expectCacheable(await getPublic(publicUrl(raffle.slug)), 'Allowlist')).toMatchObject({ status: 'awaiting_finalize', current: null, leavesPublic: true });
    expectError(await getPublic(publicUrl(raffle.slug, '/leaves')), 409, 'ALLOWLIST_NOT_PUBLISHED');
  });
});
