import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { JWKS_MIN_REFETCH_INTERVAL_MS, JWKS_RETRY_BASE_MS, JwksKeyError, JwksKeyStore } from '../src/plugins/jwks.js';
import { buildTestApp } from './support/app.js';
import { expectManagementError } from './support/contract.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { claimsFor, hs256, unsignedNone } from './support/jwt.js';
import { capturedLogLines, registerSecret } from './support/log-scan.js';
import { seedTenant, type Tenant } from './support/tenant.js';

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const nowSeconds = () => Math.floor(Date.now() / 1000);

type SigningKey = { kid: string; alg: 'RS256' | 'ES256'; privateKey: KeyObject; publicKey: KeyObject };

function rsaKey(kid: string): SigningKey {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { kid, alg: 'RS256', privateKey, publicKey };
}

function ecKey(kid: string): SigningKey {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return { kid, alg: 'ES256', privateKey, publicKey };
}

const publicJwk = (key: SigningKey) => ({ ...key.publicKey.export({ format: 'jwk' }), kid: key.kid, alg: key.alg, use: 'sig' });

/** A JWS signed with `key` (ES256 in the JOSE r||s form); `header` overrides the default one. */
function signWith(key: SigningKey, claims: Record<string, unknown>, header: Record<string, unknown> = {}): string {
  const unsigned = `${b64({ alg: key.alg, typ: 'JWT', kid: key.kid, ...header })}.${b64(claims)}`;
  const signature =
    key.alg === 'ES256'
      ? sign('sha256', Buffer.from(unsigned), { key: key.privateKey, dsaEncoding: 'ieee-p1363' })
      : sign('sha256', Buffer.from(unsigned), key.privateKey);
  return registerSecret(`${unsigned}.${signature.toString('base64url')}`);
}

/** How the JWKS endpoint fails a request: a 500, the connection closed unanswered, or no answer at all. */
type Failure = '500' | 'close' | 'hang';

/**
 * A JWKS endpoint on 127.0.0.1 whose key list the tests change, counting the requests that reach
 * it and the key sets it serves. `failNext` fails the next requests (one failure each, in order);
 * `down` fails every request with a 500. `onRequest` sees each request as it arrives.
 */
class JwksServer {
  keys: SigningKey[] = [];
  fetches = 0;
  requests = 0;
  failNext: Failure[] = [];
  down = false;
  onRequest: () => void = () => {};
  private server: Server = createServer((request, response) => {
    if (request.url !== '/.well-known/jwks.json') {
      response.writeHead(404).end();
      return;
    }
    this.requests += 1;
    this.onRequest();
    const failure = this.failNext.shift() ?? (this.down ? '500' : undefined);
    if (failure === '500') {
      response.writeHead(500, { 'content-type': 'text/plain' }).end('unavailable');
      return;
    }
    if (failure === 'close') {
      request.socket.destroy();
      return;
    }
    if (failure === 'hang') return;
    this.fetches += 1;
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: this.keys.map(publicJwk) }));
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/.well-known/jwks.json`;
  }

  stop(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    // A request left hanging on purpose would keep close() waiting.
    this.server.closeAllConnections();
    return closed;
  }
}

const ISSUER = 'https://dashboard.example.test';
const AUDIENCE = 'raffle-management';

let testDb: TestDatabase;
let tenant: Tenant;
const jwksServer = new JwksServer();
let jwksUrl: string;
let app: FastifyInstance;
let strictApp: FastifyInstance;
const rsa = rsaKey('rsa-2024');
const ec = ecKey('ec-2024');

beforeAll(async () => {
  testDb = await createTestDatabase();
  tenant = await seedTenant(testDb.database);
  jwksServer.keys = [rsa, ec];
  jwksUrl = await jwksServer.start();
  app = await buildTestApp(testDb.database, testDb.url, { JWT_JWKS_URL: jwksUrl });
  strictApp = await buildTestApp(testDb.database, testDb.url, { JWT_JWKS_URL: jwksUrl, JWT_ISSUER: ISSUER, JWT_AUDIENCE: AUDIENCE });
});

afterAll(async () => {
  await app?.close();
  await strictApp?.close();
  await jwksServer.stop();
  await testDb?.drop();
});

afterEach(() => {
  vi.useRealTimers();
});

/** What the services logged about the JWKS at `url`, parsed. */
const loggedFor = (url: string) =>
  capturedLogLines
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as { level: number; msg: string; jwksUrl?: string; failedAttempts?: number; retryInMs?: number }];
      } catch {
        return [];
      }
    })
    .filter((entry) => entry.jwksUrl === url);

const capabilities = (target: FastifyInstance, token?: string) =>
  target.inject({ method: 'GET', url: '/api/developer/capabilities', headers: token ? { authorization: `Bearer ${token}` } : {} });

/** Moves Date (only) past the refetch interval; tokens are then signed and checked on the moved clock. */
function passRefetchInterval(): void {
  vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
  vi.setSystemTime(Date.now() + JWKS_MIN_REFETCH_INTERVAL_MS + 1_000);
}

describe('dashboard JWTs verified with a JWKS (JWT_JWKS_URL)', () => {
  it('accepts a valid RS256 token', async () => {
    expect((await capabilities(app, signWith(rsa, claimsFor(tenant.owner.id)))).statusCode).toBe(200);
  });

  it('accepts a valid ES256 token', async () => {
    expect((await capabilities(app, signWith(ec, claimsFor(tenant.owner.id)))).statusCode).toBe(200);
  });

  it('ignores JWT_SECRET: the HS256 test token is refused', async () => {
    expectManagementError(await capabilities(app, hs256(claimsFor(tenant.owner.id))), 401);
  });

  const attacker = rsaKey('rsa-2024');
  const rsaPublicPem = rsa.publicKey.export({ type: 'spki', format: 'pem' }) as string;
  const attacks: Array<[string, () => string]> = [
    ['an unknown kid', () => signWith(rsaKey('never-published'), claimsFor(tenant.owner.id))],
    ['no kid', () => signWith(rsa, claimsFor(tenant.owner.id), { kid: undefined })],
    ['an empty kid', () => signWith(rsa, claimsFor(tenant.owner.id), { kid: '' })],
    ['a numeric kid', () => signWith(rsa, claimsFor(tenant.owner.id), { kid: 42 })],
    ['a known kid but another key', () => signWith(attacker, claimsFor(tenant.owner.id))],
    ['HS256 with the RSA public key PEM as the HMAC secret', () =>
      hs256(claimsFor(tenant.owner.id), rsaPublicPem, { alg: 'HS256', typ: 'JWT', kid: rsa.kid })],
    ['HS256 with the public JWK JSON as the HMAC secret', () =>
      hs256(claimsFor(tenant.owner.id), JSON.stringify(publicJwk(rsa)), { alg: 'HS256', typ: 'JWT', kid: rsa.kid })],
    ['alg none', () => unsignedNone(claimsFor(tenant.owner.id))],
    ['alg none with a kid', () => `${b64({ alg: 'none', typ: 'JWT', kid: rsa.kid })}.${b64(claimsFor(tenant.owner.id))}.`],
    ['alg none with the RS256 signature kept', () => {
      const [, payload, signature] = signWith(rsa, claimsFor(tenant.owner.id)).split('.');
      return `${b64({ alg: 'none', typ: 'JWT', kid: rsa.kid })}.${payload}.${signature}`;
    }],
    ['RS256 naming the EC key', () => signWith(rsa, claimsFor(tenant.owner.id), { kid: ec.kid })],
    ['ES256 naming the RSA key', () => signWith(ec, claimsFor(tenant.owner.id), { kid: rsa.kid })],
    ['RS512 with the right key', () => {
      const unsigned = `${b64({ alg: 'RS512', typ: 'JWT', kid: rsa.kid })}.${b64(claimsFor(tenant.owner.id))}`;
      return `${unsigned}.${sign('sha512', Buffer.from(unsigned), rsa.privateKey).toString('base64url')}`;
    }],
    ['expired beyond the tolerance', () => signWith(rsa, claimsFor(tenant.owner.id, { iat: nowSeconds() - 600, exp: nowSeconds() - 30 }))],
    ['no exp', () => signWith(ec, { sub: tenant.owner.id, iat: nowSeconds() })],
    ['no sub', () => signWith(ec, { iat: nowSeconds(), exp: nowSeconds() + 600 })],
    ['an unknown user', () => signWith(rsa, claimsFor('usr_01JZZZZZZZZZZZZZZZZZZZZZZZ'))],
    ['not yet valid (nbf in the future)', () => signWith(rsa, claimsFor(tenant.owner.id, { nbf: nowSeconds() + 600 }))],
    ['exp in year 9999', () => signWith(ec, claimsFor(tenant.owner.id, { exp: 253_402_300_799 }))],
    ['iat a year ahead', () => signWith(rsa, claimsFor(tenant.owner.id, { iat: nowSeconds() + 365 * 86_400, exp: nowSeconds() + 365 * 86_400 + 600 }))],
  ];
  for (const [name, token] of attacks) {
    it(`refuses ${name} with 401 and the management body`, async () => {
      const res = await capabilities(app, token());
      expectManagementError(res, 401);
      expect(res.headers['www-authenticate']).toBe('Bearer');
    });
  }

  it('tolerates a token that expired within the clock tolerance', async () => {
    expect((await capabilities(app, signWith(ec, claimsFor(tenant.owner.id, { exp: nowSeconds() - 2 })))).statusCode).toBe(200);
  });

  describe('with JWT_ISSUER and JWT_AUDIENCE configured', () => {
    it('accepts the right iss and aud', async () => {
      expect((await capabilities(strictApp, signWith(rsa, claimsFor(tenant.owner.id, { iss: ISSUER, aud: AUDIENCE })))).statusCode).toBe(200);
    });
    const cases: Array<[string, Record<string, unknown>]> = [
      ['a wrong iss', { iss: 'https://evil.example', aud: AUDIENCE }],
      ['a wrong aud', { iss: ISSUER, aud: 'someone-else' }],
      ['no iss', { aud: AUDIENCE }],
      ['no aud', { iss: ISSUER }],
    ];
    for (const [name, extra] of cases) {
      it(`refuses ${name}`, async () => {
        expectManagementError(await capabilities(strictApp, signWith(ec, claimsFor(tenant.owner.id, extra))), 401);
      });
    }
  });

  it('picks up a key added to the JWKS later, refetching for an unknown kid at most once per 30 s', async () => {
    // Both apps have fetched the key set by now, so a refetch is not due for 30 s.
    const rotated = ecKey('ec-2025');
    jwksServer.keys = [rsa, ec, rotated];
    const before = jwksServer.fetches;

    // Within the interval an unknown kid is refused without a fetch, however many arrive.
    const flood = await Promise.all(
      Array.from({ length: 20 }, (_, i) => capabilities(app, signWith(ecKey(`made-up-${i}`), claimsFor(tenant.owner.id)))),
    );
    for (const res of flood) expectManagementError(res, 401);
    expectManagementError(await capabilities(app, signWith(rotated, claimsFor(tenant.owner.id))), 401);
    expect(jwksServer.fetches).toBe(before);

    // Once it has passed, the unknown kid triggers one refetch, which finds the new key.
    passRefetchInterval();
    const [first, second] = await Promise.all([
      capabilities(app, signWith(rotated, claimsFor(tenant.owner.id))),
      capabilities(app, signWith(rotated, claimsFor(tenant.owner.id))),
    ]);
    expect(first.statusCode).toBe(200);
    expect(second.statusCode).toBe(200);
    expect(jwksServer.fetches).toBe(before + 1);

    // A flood of unknown kids after that refetch fetches nothing more.
    for (let i = 0; i < 5; i += 1) {
      expectManagementError(await capabilities(app, signWith(rsaKey(`made-up-again-${i}`), claimsFor(tenant.owner.id))), 401);
    }
    expect(jwksServer.fetches).toBe(before + 1);
  });

  it('stops accepting a key removed from the JWKS once the cache expires', async () => {
    const shortTtl = await buildTestApp(testDb.database, testDb.url, { JWT_JWKS_URL: jwksUrl, JWT_JWKS_CACHE_TTL_SECONDS: '60' });
    try {
      jwksServer.keys = [rsa, ec];
      expect((await capabilities(shortTtl, signWith(ec, claimsFor(tenant.owner.id)))).statusCode).toBe(200);
      jwksServer.keys = [rsa];
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
      vi.setSystemTime(Date.now() + 61_000);
      expectManagementError(await capabilities(shortTtl, signWith(ec, claimsFor(tenant.owner.id))), 401);
      expect((await capabilities(shortTtl, signWith(rsa, claimsFor(tenant.owner.id)))).statusCode).toBe(200);
    } finally {
      jwksServer.keys = [rsa, ec];
      await shortTtl.close();
    }
  });
});

describe('an unreachable JWKS', () => {
  let downUrl: string;
  let downApp: FastifyInstance;

  beforeAll(async () => {
    const closed = new JwksServer();
    downUrl = await closed.start();
    await closed.stop();
    // The service still starts.
    downApp = await buildTestApp(testDb.database, testDb.url, { JWT_JWKS_URL: downUrl });
  });

  afterAll(async () => {
    await downApp?.close();
  });

  const logged = () => loggedFor(downUrl);
  const warnings = () => logged().filter((entry) => entry.level === 40);
  /** Every failed fetch logs one line: a warning when the failures start, debug for the retries. */
  const attempts = () => logged().filter((entry) => /could not fetch the JWKS/.test(entry.msg));

  it('answers 401 (not 5xx) and logs one warning', async () => {
    const res = await capabilities(downApp, signWith(rsa, claimsFor(tenant.owner.id)));
    expectManagementError(res, 401);
    expect(warnings()).toHaveLength(1);
    expect(warnings()[0]!.msg).toMatch(/could not fetch the JWKS/);
  });

  it('retries after a short backoff, not on every request, and warns only once', async () => {
    // Past any backoff: the first of these requests retries, and its failure makes the rest wait.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + JWKS_MIN_REFETCH_INTERVAL_MS });
    for (let i = 0; i < 5; i += 1) expectManagementError(await capabilities(downApp, signWith(ec, claimsFor(tenant.owner.id))), 401);
    expect(attempts()).toHaveLength(2);
    expect(attempts()[1]).toMatchObject({ level: 20, failedAttempts: 2, retryInMs: 2 * JWKS_RETRY_BASE_MS });
    expect(warnings()).toHaveLength(1);
  });

  it('keeps answering 401 when the JWKS is not a key set', async () => {
    const bad = createServer((_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end('<html>'));
    await new Promise<void>((resolve) => bad.listen(0, '127.0.0.1', resolve));
    const badUrl = `http://127.0.0.1:${(bad.address() as AddressInfo).port}/jwks`;
    const badApp = await buildTestApp(testDb.database, testDb.url, { JWT_JWKS_URL: badUrl });
    try {
      expectManagementError(await capabilities(badApp, signWith(rsa, claimsFor(tenant.owner.id))), 401);
    } finally {
      await badApp.close();
      await new Promise((resolve) => bad.close(resolve));
    }
  });
});

describe('a JWKS that fails for a while', () => {
  // Each test has a JWKS server of its own (so no connection kept alive from another test) and
  // a key store of its own.
  let flaky: JwksServer;
  let flakyUrl: string;

  beforeEach(async () => {
    flaky = new JwksServer();
    flaky.keys = [rsa, ec];
    flakyUrl = await flaky.start();
  });

  afterEach(async () => {
    await flaky.stop();
  });

  /** An app on this test's JWKS server. */
  async function withFlakyApp(overrides: Record<string, string>, body: (target: FastifyInstance) => Promise<void>) {
    const target = await buildTestApp(testDb.database, testDb.url, { JWT_JWKS_URL: flakyUrl, ...overrides });
    try {
      await body(target);
    } finally {
      await target.close();
    }
  }

  it('retries a first fetch answered with a 500 after a short backoff: tokens verify within about a second', async () => {
    await withFlakyApp({}, async (target) => {
      flaky.failNext = ['500'];
      const failedAt = Date.now();
      expectManagementError(await capabilities(target, signWith(rsa, claimsFor(tenant.owner.id))), 401);
      expect(flaky.requests).toBe(1);
      await expect
        .poll(async () => (await capabilities(target, signWith(rsa, claimsFor(tenant.owner.id)))).statusCode, { interval: 50, timeout: 2_000 })
        .toBe(200);
      // It waited for the backoff, and retried once for all the requests polling meanwhile.
      expect(Date.now() - failedAt).toBeGreaterThanOrEqual(JWKS_RETRY_BASE_MS);
      expect(flaky.requests).toBe(2);
      expect((await capabilities(target, signWith(ec, claimsFor(tenant.owner.id)))).statusCode).toBe(200);
    });
  });

  it('retries a connection the JWKS server closed unanswered at once: the first token verifies', async () => {
    await withFlakyApp({}, async (target) => {
      flaky.failNext = ['close'];
      expect((await capabilities(target, signWith(ec, claimsFor(tenant.owner.id)))).statusCode).toBe(200);
      expect(flaky.requests).toBe(2);
      expect(flaky.fetches).toBe(1);
    });
  });

  it('keeps the keys it fetched while refreshes fail, until a successful one no longer lists them', async () => {
    await withFlakyApp({ JWT_JWKS_CACHE_TTL_SECONDS: '60' }, async (target) => {
      expect((await capabilities(target, signWith(ec, claimsFor(tenant.owner.id)))).statusCode).toBe(200);
      expect(flaky.requests).toBe(1);

      // The key set is stale and the JWKS fails: the refresh is tried, and the known keys still verify.
      flaky.down = true;
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 61_000 });
      expect((await capabilities(target, signWith(ec, claimsFor(tenant.owner.id)))).statusCode).toBe(200);
      expect((await capabilities(target, signWith(rsa, claimsFor(tenant.owner.id)))).statusCode).toBe(200);
      expect(flaky.requests).toBe(2);
      const warning = loggedFor(flakyUrl).filter((entry) => entry.level === 40);
      expect(warning).toHaveLength(1);
      expect(warning[0]!.msg).toMatch(/could not fetch the JWKS; the keys fetched before stay in use/);
      // A key it never saw is still refused (and, within the backoff, fetches nothing).
      expectManagementError(await capabilities(target, signWith(ecKey('published-while-down'), claimsFor(tenant.owner.id))), 401);
      expect(flaky.requests).toBe(2);

      // The JWKS is back without the EC key: the next refresh, once the backoff has passed, drops it.
      flaky.down = false;
      flaky.keys = [rsa];
      vi.setSystemTime(Date.now() + JWKS_RETRY_BASE_MS);
      expectManagementError(await capabilities(target, signWith(ec, claimsFor(tenant.owner.id))), 401);
      expect((await capabilities(target, signWith(rsa, claimsFor(tenant.owner.id)))).statusCode).toBe(200);
      expect(flaky.requests).toBe(3);
      expect(flaky.fetches).toBe(2);
    });
  });

  describe('the key store itself, on a clock of its own', () => {
    type Entry = { level: string; msg: string; fields: Record<string, unknown> };

    /** A logger that records what the store logs, by level. */
    function recordingLog(entries: Entry[]): FastifyBaseLogger {
      const at = (level: string) => (fields: Record<string, unknown>, msg: string) => void entries.push({ level, msg, fields });
      const log = {
        level: 'trace',
        fatal: at('fatal'),
        error: at('error'),
        warn: at('warn'),
        info: at('info'),
        debug: at('debug'),
        trace: at('trace'),
        silent: () => {},
        child: () => log,
      };
      return log as unknown as FastifyBaseLogger;
    }

    const pemOf = (key: SigningKey) => key.publicKey.export({ type: 'spki', format: 'pem' }) as string;

    it('retries a timed-out fetch after the backoff, answering from the keys it had meanwhile', async () => {
      flaky.keys = [rsa];
      let clock = 0;
      const store = new JwksKeyStore({ url: flakyUrl, cacheTtlMs: 60_000, timeoutMs: 200, log: recordingLog([]), now: () => clock });
      expect(await store.publicKeyPem(rsa.kid, 'RS256')).toBe(pemOf(rsa));

      // Stale, and the JWKS does not answer: the fetch times out and the known key still answers.
      flaky.failNext = ['hang'];
      flaky.keys = [rsa, ec];
      clock = 60_001;
      expect(await store.publicKeyPem(rsa.kid, 'RS256')).toBe(pemOf(rsa));
      expect(flaky.requests).toBe(2);
      // Within the backoff the new key is not fetched for; after it, it is.
      await expect(store.publicKeyPem(ec.kid, 'ES256')).rejects.toBeInstanceOf(JwksKeyError);
      expect(flaky.requests).toBe(2);
      clock += JWKS_RETRY_BASE_MS;
      expect(await store.publicKeyPem(ec.kid, 'ES256')).toBe(pemOf(ec));
      expect(flaky.requests).toBe(3);
    });

    it('backs off 250 ms, doubling per failure up to the refetch interval, whatever the lookups; and recovers', async () => {
      flaky.keys = [rsa];
      flaky.down = true;
      let clock = 0;
      const fetchedAt: number[] = [];
      flaky.onRequest = () => fetchedAt.push(clock);
      const entries: Entry[] = [];
      const store = new JwksKeyStore({ url: flakyUrl, cacheTtlMs: 300_000, log: recordingLog(entries), now: () => clock });
      {
        // A lookup every 50 ms for 70 s of the store's clock.
        for (; clock <= 70_000; clock += 50) await expect(store.publicKeyPem(rsa.kid, 'RS256')).rejects.toBeInstanceOf(JwksKeyError);
        expect(fetchedAt).toEqual([0, 250, 750, 1_750, 3_750, 7_750, 15_750, 31_750, 61_750]);
        const failures = entries.filter((entry) => /could not fetch the JWKS/.test(entry.msg));
        expect(failures.map((entry) => entry.fields.retryInMs)).toEqual([250, 500, 1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000]);
        // A warning when the failures start, then only once the backoff is at its cap.
        expect(failures.map((entry) => entry.level)).toEqual(['warn', 'debug', 'debug', 'debug', 'debug', 'debug', 'debug', 'warn', 'warn']);

        // Back up: the next due fetch succeeds, and made-up kids then wait the full refetch interval again.
        flaky.down = false;
        clock = 91_750;
        expect(await store.publicKeyPem(rsa.kid, 'RS256')).toBe(pemOf(rsa));
        expect(entries.filter((entry) => entry.level === 'info')).toMatchObject([{ msg: 'JWKS fetched again after failed attempts', fields: { failedAttempts: 9 } }]);
        for (; clock < 91_750 + JWKS_MIN_REFETCH_INTERVAL_MS; clock += 1_000) {
          await expect(store.publicKeyPem('made-up', 'RS256')).rejects.toBeInstanceOf(JwksKeyError);
        }
        expect(fetchedAt).toHaveLength(10);
        await expect(store.publicKeyPem('made-up', 'RS256')).rejects.toBeInstanceOf(JwksKeyError);
        expect(fetchedAt).toHaveLength(11);
      }
    });
  });
});
