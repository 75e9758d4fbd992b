import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { addWorkspaceMember, setApiKeyEnd } from '@raffle/db';
import { cancelRaffle, disqualifyWin, enterRaffle, rerollWin, userPrincipal } from '@raffle/domain';
import type { DrawProof } from '@raffle/sdk';
import { beaconDrawProblems } from '@raffle/service-kit/testing';
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import fp from 'fastify-plugin';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import authPlugin from '../src/plugins/auth.js';
import { ifNoneMatchHits } from '../src/routes/public-http-cache.js';
import { buildTestApp } from './support/app.js';
import { expectMatchesSchema } from './support/contract-validator.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { responseViolations } from './support/error-invariants.js';
import { createLifecycleWorld, type LifecycleWorld } from './support/lifecycle.js';
import { listenForRawRequests, rawRequest } from './support/raw-http.js';
import { capturedLogLines } from './support/log-scan.js';

/**
 * GET /public/v1/raffles/{slug}/draw: the keyed route's proof for anyone, with no key, for public
 * and unlisted raffles once drawn; per-IP rate limited; cached by ETag, which changes when a winner does.
 */

let db: TestDatabase;
let app: FastifyInstance;
let world: LifecycleWorld;
let viewer: Awaited<ReturnType<LifecycleWorld['entrant']>>;

beforeAll(async () => {
  db = await createTestDatabase();
  world = await createLifecycleWorld(db.database);
  app = await buildTestApp(db.database, db.url);
  viewer = await world.entrant();
});
afterAll(async () => {
  await app?.close();
  await db?.drop();
});

const runFile = promisify(execFile);
const publicUrl = (slug: string) => `/public/v1/raffles/${slug}/draw`;
const getPublic = (slug: string, headers: Record<string, string> = {}, on: FastifyInstance = app) => on.inject({ url: publicUrl(slug), headers });
const getKeyed = (slug: string) => app.inject({ url: `/api/v1/raffles/${slug}/draw`, headers: viewer.headers });

function expectError(res: LightMyRequestResponse, status: number, code: string) {
  expect({ status: res.statusCode, code: res.json().code }, res.body).toEqual({ status, code });
  expect(responseViolations(res, { method: 'GET' }), res.body).toEqual([]);
  expect(res.headers['cache-control'], 'a refusal is never cached').toBe('no-store');
  expect(res.headers.etag).toBeUndefined();
  return res.json() as { message: string; path: string; requestId: string; timestamp: string };
}

/** A weighted raffle with `count` entries, taken through the real lifecycle up to its draw. */
async function drawnRaffle(visibility: 'public' | 'unlisted' | 'private', count = 6) {
  const raffle = await world.open({ spots: 2, visibility });
  for (let i = 0; i < count; i++) {
    const { user } = await world.entrant();
    // Only members may enter a private raffle.
    if (visibility === 'private') await addWorkspaceMember(world.db, { workspaceId: world.workspace.id, userId: user.id, role: 'member' });
    await enterRaffle(world.db, { raffle: { raffleId: raffle.id }, actor: userPrincipal(user.id), source: 'web' });
  }
  await world.close(raffle.id);
  await world.draw(raffle.id);
  return raffle;
}

describe('who may see a proof', () => {
  let publicRaffle: Awaited<ReturnType<typeof drawnRaffle>>;
  let unlistedRaffle: Awaited<ReturnType<typeof drawnRaffle>>;

  beforeAll(async () => {
    publicRaffle = await drawnRaffle('public');
    unlistedRaffle = await drawnRaffle('unlisted');
  });

  it('serves a drawn public raffle\'s proof without any key: the keyed route\'s body, byte for byte, which reproduces as a beacon draw', async () => {
    const res = await getPublic(publicRaffle.slug);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json\b/);
    const keyed = await getKeyed(publicRaffle.slug);
    expect(keyed.statusCode).toBe(200);
    expect(res.body).toBe(keyed.body);
    const proof = res.json() as DrawProof;
    expectMatchesSchema('DrawProof', proof);
    expect(proof.entries).toHaveLength(6);
    expect(proof.spots).toBe(publicRaffle.spots);
    expect(beaconDrawProblems(proof)).toEqual([]);
  });

  it('serves a drawn unlisted raffle\'s proof too (anyone with the link may check it)', async () => {
    const res = await getPublic(unlistedRaffle.slug);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toBe((await getKeyed(unlistedRaffle.slug)).body);
    expect(beaconDrawProblems(res.json())).toEqual([]);
  });

  it('answers a private raffle, even drawn, exactly as a slug that does not exist: 404 RAFFLE_NOT_FOUND', async () => {
    const hidden = await drawnRaffle('private', 2);
    const member = await world.member();
    const keyed = await app.inject({ url: `/api/v1/raffles/${hidden.slug}/draw`, headers: member.headers });
    expect(keyed.statusCode, 'the keyed route serves it to a member, so it is drawn').toBe(200);

    const privateBody = expectError(await getPublic(hidden.slug), 404, 'RAFFLE_NOT_FOUND');
    const missingSlug = `no-such-${hidden.slug.slice(0, 20)}`.slice(0, hidden.slug.length).padEnd(hidden.slug.length, 'x');
    const missingBody = expectError(await getPublic(missingSlug), 404, 'RAFFLE_NOT_FOUND');
    const neutral = (body: { message: string; path: string; requestId: string; timestamp: string }, slug: string) => ({
      ...body,
      message: body.message.replaceAll(slug, '<slug>'),
      path: body.path.replaceAll(slug, '<slug>'),
      requestId: '<id>',
      timestamp: '<time>',
    });
    expect(neutral(privateBody, hidden.slug)).toEqual(neutral(missingBody, missingSlug));
  });

  it('answers 404 RAFFLE_NOT_FOUND for a draft and a cancelled raffle', async () => {
    const draft = await world.draft();
    expectError(await getPublic(draft.slug), 404, 'RAFFLE_NOT_FOUND');
    const cancelled = await world.open();
    await cancelRaffle(world.db, { actor: world.team, raffleId: cancelled.id, workspaceId: world.workspace.id });
    expectError(await getPublic(cancelled.slug), 404, 'RAFFLE_NOT_FOUND');
  });

  it('answers 404 DRAW_NOT_AVAILABLE for a public raffle not drawn yet (open, then closed), as the keyed route does', async () => {
    const raffle = await world.open();
    expect(expectError(await getPublic(raffle.slug), 404, 'DRAW_NOT_AVAILABLE').message).toMatch(/not been drawn.*open/);
    await world.close(raffle.id);
    expect(expectError(await getPublic(raffle.slug), 404, 'DRAW_NOT_AVAILABLE').message).toMatch(/not been drawn.*closed/);
  });

  it('answers 404 DRAW_NOT_AVAILABLE for a drawn raffle of another mechanic', async () => {
    const raffle = await world.open({ mechanic: 'collection', spots: 1 });
    const { user } = await world.entrant();
    await enterRaffle(world.db, { raffle: { raffleId: raffle.id }, actor: userPrincipal(user.id), source: 'web' });
    await world.close(raffle.id);
    await world.draw(raffle.id);
    expectError(await getPublic(raffle.slug), 404, 'DRAW_NOT_AVAILABLE');
  });

  it('ignores a key sent anyway: revoked, garbage or valid, in either header, the answer is the same 200', async () => {
    const revoked = await world.entrant();
    await setApiKeyEnd(world.db, revoked.keyId, { revokedAt: new Date(Date.now() - 60_000) }, new Date());
    expect((await app.inject({ url: '/api/v1/me', headers: revoked.headers })).statusCode, 'the key really is revoked').toBe(401);

    const plain = await getPublic(publicRaffle.slug);
    for (const headers of [revoked.headers, { authorization: 'Bearer svc_u_garbage' }, { authorization: 'Basic Zm9vOmJhcg==' }, { 'x-api-key': 'nonsense' }, viewer.headers]) {
      const res = await getPublic(publicRaffle.slug, headers);
      expect(res.statusCode, `${JSON.stringify(headers)}: ${res.body}`).toBe(200);
      expect(res.body).toBe(plain.body);
      expect(res.headers['www-authenticate']).toBeUndefined();
      expect(res.headers['ratelimit-policy'], 'a key buys no other budget here').toMatch(/^"public";q=\d+;w=60$/);
    }
  });
});

describe('the /public/v1 prefix', () => {
  it('refuses to start with a route there that declares key access: public by where it lives, never half-keyed', async () => {
    const bare = Fastify();
    await bare.register(fp(async (i) => void i.decorate('config', { API_KEY_CACHE_TTL_MS: 0 } as never), { name: 'config' }));
    await bare.register(fp(async (i) => void i.decorate('database', db.database), { name: 'database' }));
    await bare.register(authPlugin);
    let failure: unknown = null;
    try {
      bare.get('/public/v1/keyed', { config: { access: { keyType: 'personal', scope: 'raffles:read' } } }, async () => ({}));
      await bare.ready();
    } catch (error) {
      failure = error;
    }
    expect(String(failure)).toMatch(/declares access under \/public\/v1/);
    await bare.close().catch(() => {});
  });
});

describe('bad input and other methods', () => {
  it('refuses a slug that is too long or carries control characters with 400 and the error body', async () => {
    for (const slug of ['x'.repeat(129), 'bad%01slug', 'tab%09slug']) {
      const res = await getPublic(slug);
      expectError(res, 400, 'VALIDATION_FAILED');
      expect(res.json().path).toBe(publicUrl(slug));
    }
  });

  it('answers other methods with 405 and Allow, and unknown /public/v1 paths with 404 ROUTE_NOT_FOUND', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      const res = await app.inject({ method, url: publicUrl('anything') });
      expect({ status: res.statusCode, code: res.json().code }).toEqual({ status: 405, code: 'METHOD_NOT_ALLOWED' });
      expect(res.headers.allow).toBe('GET, HEAD');
      expect(responseViolations(res, { method }), res.body).toEqual([]);
    }
    for (const url of ['/public/v1/raffles/x', '/public/v1/nothing', '/public/v1/raffles/x/draw/more']) {
      const res = await app.inject({ url });
      expect({ status: res.statusCode, code: res.json().code }, url).toEqual({ status: 404, code: 'ROUTE_NOT_FOUND' });
      expect(responseViolations(res, { method: 'GET' }), res.body).toEqual([]);
    }
  });
});

describe('HTTP caching', () => {
  let raffle: Awaited<ReturnType<typeof drawnRaffle>>;
  let first: LightMyRequestResponse;

  beforeAll(async () => {
    raffle = await drawnRaffle('public');
    first = await getPublic(raffle.slug);
    expect(first.statusCode).toBe(200);
  });

  it('serves HEAD (the GET\'s status and headers, no body) and documents it, without a body, in the OpenAPI document', async () => {
    const head = await app.inject({ method: 'HEAD', url: publicUrl(raffle.slug) });
    expect(head.statusCode).toBe(200);
    expect(head.headers.etag).toBe(first.headers.etag);
    expect(head.body).toBe('');
    const document = (await app.inject({ url: '/openapi.json' })).json() as { paths: Record<string, Record<string, { operationId: string; responses: Record<string, { content?: unknown; headers?: Record<string, unknown> }> }>> };
    const documented = document.paths['/public/v1/raffles/{slug}/draw']!.head;
    expect(documented?.operationId).toBe('headPublicDrawProof');
    expect(Object.keys(documented!.responses)).toEqual(expect.arrayContaining(['200', '304', '404']));
    for (const [status, response] of Object.entries(documented!.responses)) expect(response.content, `HEAD ${status} has no body`).toBeUndefined();
    expect(Object.keys(documented!.responses['200']!.headers ?? {})).toEqual(expect.arrayContaining(['ETag', 'Cache-Control']));
  });

  it('tags the body with a strong ETag: the sha256 of its bytes, the same on every request', async () => {
    const expected = `"${createHash('sha256').update(first.body).digest('base64url')}"`;
    expect(first.headers.etag).toBe(expected);
    expect((await getPublic(raffle.slug)).headers.etag).toBe(expected);
  });

  it('answers If-None-Match with the current tag (as sent, weak, in a list, or *) with 304 and no body, keeping the headers', async () => {
    const etag = String(first.headers.etag);
    for (const sent of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const res = await getPublic(raffle.slug, { 'if-none-match': sent });
      expect(res.statusCode, sent).toBe(304);
      expect(res.body).toBe('');
      expect(res.headers.etag).toBe(etag);
      expect(res.headers['cache-control']).toBe(first.headers['cache-control']);
      expect(res.headers['content-type']).toBeUndefined();
    }
  });

  it('puts a 304 on the wire with no body and no Content-Length of one, so a Node fetch script exits at once', async () => {
    const served = await buildTestApp(db.database, db.url);
    try {
      const { port } = await listenForRawRequests(served);
      const etag = String(first.headers.etag);
      const raw = await rawRequest(port, { method: 'GET', target: publicUrl(raffle.slug), headers: { 'if-none-match': etag } });
      expect(raw.statusCode).toBe(304);
      expect(raw.headers['content-length'] ?? '0').toBe('0');
      expect(raw.trailing).toBe(0);
      // With `content-length: 4` the script below took ~74 s to exit (undici kept the socket): it
      // would outlive the child's 60 s timeout, and runFile would reject.
      const script = `const res = await fetch(process.env.URL, { headers: { 'if-none-match': process.env.ETAG } });
console.log(res.status, JSON.stringify(await res.text()));`;
      const { stdout } = await runFile(process.execPath, ['--input-type=module', '-e', script], {
        env: { ...process.env, URL: `http://127.0.0.1:${port}${publicUrl(raffle.slug)}`, ETAG: etag, NODE_OPTIONS: '' },
        timeout: 60_000,
      });
      expect(stdout.trim()).toBe('304 ""');
    } finally {
      await served.close();
    }
  });

  it('answers 200 with the body when If-None-Match names another tag', async () => {
    const res = await getPublic(raffle.slug, { 'if-none-match': '"stale-tag"' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(first.body);
  });

  it('answers HEAD with the headers and no body', async () => {
    const res = await app.inject({ method: 'HEAD', url: publicUrl(raffle.slug) });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('');
    expect(res.headers.etag).toBe(first.headers.etag);
  });

  it('lets caches keep the proof a minute, finalized or not, under the same tag while its winners stay', async () => {
    expect(first.headers['cache-control']).toBe('public, max-age=60');
    await world.finalize(raffle.id);
    const res = await getPublic(raffle.slug);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=60');
    expect(res.body).toBe(first.body);
    expect(res.headers.etag).toBe(first.headers.etag);
    const revalidated = await getPublic(raffle.slug, { 'if-none-match': String(first.headers.etag) });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.headers['cache-control']).toBe('public, max-age=60');
  });

  it('changes the tag once a winner is disqualified and rerolled, even after finalization: a cached copy is not current', async () => {
    const [win] = await db.database.sql<{ id: string }[]>`select id from wins where raffle_id = ${raffle.id} and position = 1 and source = 'draw'`;
    const target = { actor: world.team, workspaceId: world.workspace.id, raffleId: raffle.id, winId: win!.id };
    await disqualifyWin(world.db, { ...target, reason: 'test' });
    const disqualified = await getPublic(raffle.slug, { 'if-none-match': String(first.headers.etag) });
    expect(disqualified.statusCode).toBe(200);
    expect(disqualified.headers.etag).not.toBe(first.headers.etag);
    await rerollWin(world.db, target);
    const rerolled = await getPublic(raffle.slug, { 'if-none-match': String(disqualified.headers.etag) });
    expect(rerolled.statusCode).toBe(200);
    expect(rerolled.headers.etag).not.toBe(disqualified.headers.etag);
    expect(Object.keys(rerolled.json())).toEqual([...Object.keys(first.json()), 'disqualifiedWinners', 'rerolledWinners']);
  });

  it('compares If-None-Match as RFC 9110 says (weakly, by the quoted tag)', () => {
    expect(ifNoneMatchHits(undefined, '"a"')).toBe(false);
    expect(ifNoneMatchHits('"a"', '"a"')).toBe(true);
    expect(ifNoneMatchHits('W/"a"', '"a"')).toBe(true);
    expect(ifNoneMatchHits(' * ', '"a"')).toBe(true);
    expect(ifNoneMatchHits('"b", W/"a"', '"a"')).toBe(true);
    expect(ifNoneMatchHits('"ab"', '"a"')).toBe(false);
    expect(ifNoneMatchHits('a', '"a"')).toBe(false);
    expect(ifNoneMatchHits('', '"a"')).toBe(false);
  });
});

describe('the per-IP public rate limit', () => {
  const MAX = 3;
  let behindProxy: FastifyInstance;
  let behindConsole: FastifyInstance;
  let direct: FastifyInstance;
  let slug: string;

  beforeAll(async () => {
    const limits = { RATE_LIMIT_PUBLIC_MAX: String(MAX), RATE_LIMIT_PUBLIC_WINDOW_MS: '60000', RATE_LIMIT_ANONYMOUS_MAX: '100' };
    behindProxy = await buildTestApp(db.database, db.url, { ...limits, TRUST_PROXY: 'true' });
    // As compose runs it: the console's fixed address is the only peer whose header counts.
    behindConsole = await buildTestApp(db.database, db.url, { ...limits, TRUST_PROXY: '172.28.0.10' });
    direct = await buildTestApp(db.database, db.url, limits);
    slug = (await drawnRaffle('public', 2)).slug;
  });
  afterAll(async () => {
    await behindProxy?.close();
    await behindConsole?.close();
    await direct?.close();
  });

  const statusesOf = async (requests: Array<Promise<LightMyRequestResponse>>) => (await Promise.all(requests)).map((r) => r.statusCode);

  it('behind a trusted proxy, counts each forwarded client IP on its own: one is limited (429, error body, Retry-After), the other not', async () => {
    const mark = capturedLogLines.length;
    const from = (ip: string, headers: Record<string, string> = {}) =>
      behindProxy.inject({ url: publicUrl(slug), remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': ip, ...headers } });
    const seen: LightMyRequestResponse[] = [];
    for (let i = 0; i < MAX; i++) seen.push(await from('203.0.113.10'));
    expect(seen.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect(seen.map((r) => r.headers.ratelimit)).toEqual([2, 1, 0].map((r) => expect.stringMatching(new RegExp(`^"public";r=${r};t=\\d+$`))));
    expect(seen[0]!.headers['ratelimit-policy']).toBe(`"public";q=${MAX};w=60`);

    // A key does not lift the limit: the budget is the address's.
    const refused = await from('203.0.113.10', viewer.headers);
    expect({ status: refused.statusCode, code: refused.json().code }).toEqual({ status: 429, code: 'RATE_LIMITED' });
    expect(responseViolations(refused, { method: 'GET' }), refused.body).toEqual([]);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`).toBe(true);
    expect(refused.headers['cache-control']).toBe('no-store');
    expect(refused.json().message).toMatch(/rate limit of 3 requests exceeded/);
    // A 304 counts as a request too: the limit is on requests, not on bytes.
    expect((await from('203.0.113.10', { 'if-none-match': '*' })).statusCode).toBe(429);

    expect(await statusesOf([from('203.0.113.20'), from('203.0.113.20')])).toEqual([200, 200]);

    const logged = capturedLogLines.slice(mark).join('\n');
    expect(logged.length).toBeGreaterThan(0);
    for (const ip of ['203.0.113.10', '203.0.113.20']) expect(logged).not.toContain(ip);
  });

  it('without TRUST_PROXY, counts the connection\'s address: a forged X-Forwarded-For does not buy a fresh budget', async () => {
    const from = (remoteAddress: string, forwarded: string) => direct.inject({ url: publicUrl(slug), remoteAddress, headers: { 'x-forwarded-for': forwarded } });
    expect(await statusesOf([from('203.0.113.30', '198.51.100.1'), from('203.0.113.30', '198.51.100.2'), from('203.0.113.30', '198.51.100.3')])).toEqual([200, 200, 200]);
    expect((await from('203.0.113.30', '198.51.100.4')).statusCode).toBe(429);
    expect((await from('203.0.113.31', '198.51.100.4')).statusCode).toBe(200);
  });

  it('with TRUST_PROXY naming the console\'s address, counts each visitor it forwards on their own, and anyone else by their connection', async () => {
    const viaConsole = (visitor: string) => behindConsole.inject({ url: publicUrl(slug), remoteAddress: '172.28.0.10', headers: { 'x-forwarded-for': visitor } });
    expect(await statusesOf([viaConsole('203.0.113.50'), viaConsole('203.0.113.50'), viaConsole('203.0.113.50')])).toEqual([200, 200, 200]);
    expect((await viaConsole('203.0.113.50')).statusCode).toBe(429);
    expect((await viaConsole('203.0.113.51')).statusCode).toBe(200);
    // A client of the published port is not the console: its header buys no fresh budget.
    const direct = (forwarded: string) => behindConsole.inject({ url: publicUrl(slug), remoteAddress: '172.28.0.1', headers: { 'x-forwarded-for': forwarded } });
    expect(await statusesOf([direct('198.51.100.11'), direct('198.51.100.12'), direct('198.51.100.13')])).toEqual([200, 200, 200]);
    expect((await direct('198.51.100.14')).statusCode).toBe(429);
  });

  it('keeps the public budget apart from the keyed API\'s: an address limited here is not limited on /api/v1, and the reverse', async () => {
    const exhausted = '203.0.113.40';
    for (let i = 0; i < MAX; i++) await direct.inject({ url: publicUrl(slug), remoteAddress: exhausted });
    expect((await direct.inject({ url: publicUrl(slug), remoteAddress: exhausted })).statusCode).toBe(429);
    const keyed = await direct.inject({ url: `/api/v1/raffles/${slug}/draw`, remoteAddress: exhausted, headers: viewer.headers });
    expect(keyed.statusCode).toBe(200);
    expect(keyed.headers['ratelimit-policy']).toMatch(/^"default";q=\d+;w=60$/);

    const fresh = '203.0.113.41';
    for (let i = 0; i < MAX + 1; i++) await direct.inject({ url: '/api/v1/me', remoteAddress: fresh });
    expect((await direct.inject({ url: publicUrl(slug), remoteAddress: fresh })).statusCode).toBe(200);
  });
});

describe('the OpenAPI document', () => {
  type Operation = {
    operationId?: string;
    tags?: string[];
    security?: unknown[];
    summary?: string;
    parameters?: Array<{ in: string; name: string; required?: boolean }>;
    responses: Record<string, { description?: string; headers?: Record<string, unknown>; content?: Record<string, { schema?: unknown }> }>;
  };
  let doc: { paths: Record<string, Record<string, Operation>> };

  beforeAll(async () => {
    const res = await app.inject({ url: '/openapi.json' });
    expect(res.statusCode, res.body.slice(0, 500)).toBe(200);
    doc = res.json();
  });

  it('documents the route as public (security: []), tagged Public, with its statuses, the proof schema and the cache headers', () => {
    const op = doc.paths['/public/v1/raffles/{slug}/draw']?.get;
    expect(op).toBeDefined();
    expect(op!.operationId).toBe('getPublicDrawProof');
    expect(op!.tags).toEqual(['Public']);
    expect(op!.security).toEqual([]);
    expect(op!.summary).toBeTruthy();
    expect(op!.parameters?.find((p) => p.in === 'path' && p.name === 'slug')?.required).toBe(true);
    expect(Object.keys(op!.responses).sort()).toEqual(['200', '304', '400', '404', '429', '500', '503']);
    expect(op!.responses['200']!.content?.['application/json']?.schema).toEqual({ $ref: '#/components/schemas/DrawProof' });
    expect(Object.keys(op!.responses['200']!.headers ?? {})).toEqual(expect.arrayContaining(['ETag', 'Cache-Control', 'RateLimit', 'RateLimit-Policy']));
    expect(op!.responses['304']!.content).toBeUndefined();
    expect(Object.keys(op!.responses['304']!.headers ?? {})).toEqual(expect.arrayContaining(['ETag', 'Cache-Control']));
    for (const status of ['400', '404', '429', '500', '503']) {
      // The error body, possibly narrowed to the codes of that status (allOf with a code enum).
      expect(JSON.stringify(op!.responses[status]!.content?.['application/json']?.schema), status).toContain('"#/components/schemas/ErrorBody"');
    }
    expect(op!.responses['429']!.headers).toHaveProperty('Retry-After');
  });

  it('names only the policy that counts each route on its 429: `public` here, `default` on the keyed API', () => {
    expect(doc.paths['/public/v1/raffles/{slug}/draw']!.get!.responses['429']!.description).toMatch(/\(`public`\)/);
    expect(doc.paths['/api/v1/raffles/{slug}/draw']!.get!.responses['429']!.description).toMatch(/\(`default`\)/);
  });
});
