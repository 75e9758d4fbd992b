import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { JWKS_MIN_REFETCH_INTERVAL_MS } from '../src/plugins/jwks.js';
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

/** A JWKS endpoint on 127.0.0.1 whose key list the tests change, counting the fetches it answers. */
class JwksServer {
  keys: SigningKey[] = [];
  fetches = 0;
  private server: Server = createServer((request, response) => {
    if (request.url !== '/.well-known/jwks.json') {
      response.writeHead(404).end();
      return;
    }
    this.fetches += 1;
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: this.keys.map(publicJwk) }));
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/.well-known/jwks.json`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
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

  const warnings = () =>
    capturedLogLines
      .flatMap((line) => {
        try {
          return [JSON.parse(line) as { level: number; msg: string; jwksUrl?: string }];
        } catch {
          return [];
        }
      })
      .filter((entry) => entry.level === 40 && entry.jwksUrl === downUrl);

  it('answers 401 (not 5xx) and logs one warning', async () => {
    const res = await capabilities(downApp, signWith(rsa, claimsFor(tenant.owner.id)));
    expectManagementError(res, 401);
    expect(warnings()).toHaveLength(1);
    expect(warnings()[0]!.msg).toMatch(/could not fetch the JWKS/);
  });

  it('does not retry the fetch on every request', async () => {
    for (let i = 0; i < 5; i += 1) expectManagementError(await capabilities(downApp, signWith(ec, claimsFor(tenant.owner.id))), 401);
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
