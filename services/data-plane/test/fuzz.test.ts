import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataPlaneApp } from '../src/app.js';
import { buildTestApp } from './support/app.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { responseViolations, type SeenResponse } from './support/error-invariants.js';
import { listenForRawRequests, rawRequest } from './support/raw-http.js';
import { seedTenant, type Tenant } from './support/tenant.js';

/**
 * Property-based fuzzing of every /api/v1 route in `app.routeAccessTable`, of unknown paths,
 * and of raw request targets over a socket. Whatever is sent, while the database is up:
 *  - the status is never >= 500;
 *  - every non-2xx JSON body is the spec's error body (schema, code pattern and catalogue,
 *    statusCode = HTTP status, requestId = x-request-id header, path without the query);
 *  - a 405 never lists the request's own method in Allow;
 *  - no body carries a stack trace, a source path or SQL.
 * Half the route runs present a real, valid key of the route's key type (and the key's own
 * workspace), so they pass authentication and reach the handlers and the database.
 * Seeds are fixed: a failure is reproducible with the seed and path fast-check prints.
 */

let db: TestDatabase;
let app: DataPlaneApp;
let tenant: Tenant;
let port: number;
/** Real cursors issued by every paginated route: replayed on every route (cross-endpoint reuse). */
const issuedCursors: string[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  tenant = await seedTenant(db.database, { publicRaffles: 3 });
  app = await buildTestApp(db.database, db.url);
  ({ port } = await listenForRawRequests(app));

  const ws = tenant.workspace.id;
  const personal = { authorization: `Bearer ${tenant.keys.personal}` };
  const workspace = { authorization: `Bearer ${tenant.keys.workspace}` };
  for (const [url, headers] of [
    ['/api/v1/raffles?limit=1', personal],
    [`/api/v1/workspaces/${ws}/raffles?limit=1`, workspace],
    [`/api/v1/workspaces/${ws}/raffles/${tenant.finalized.id}/entries?limit=1`, workspace],
    [`/api/v1/workspaces/${ws}/projects?limit=1`, workspace],
  ] as const) {
    const res = await app.inject({ url, headers });
    const cursor = (res.json() as { pagination?: { nextCursor?: string | null } }).pagination?.nextCursor;
    if (typeof cursor === 'string') issuedCursors.push(cursor);
  }
  expect(issuedCursors.length, 'seeded data yields real cursors to replay').toBeGreaterThanOrEqual(3);
});

afterAll(async () => {
  await app?.close();
  await db?.drop();
});

// ---------------------------------------------------------------------------------------------
// Arbitraries
// ---------------------------------------------------------------------------------------------

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;
type Method = (typeof METHODS)[number];

const methodArb: fc.Arbitrary<Method> = fc.oneof(
  { arbitrary: fc.constant<Method>('GET'), weight: 5 },
  { arbitrary: fc.constantFrom<Method>(...METHODS), weight: 3 },
);

const hex = (b: number) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
/** UTF-8 bytes of a string, percent-encoded (lone surrogates become U+FFFD, as on the wire). */
const percentEncodeUtf8 = (s: string) => [...Buffer.from(s, 'utf8')].map(hex).join('');
const safeEncode = (s: string) => {
  try {
    return encodeURIComponent(s);
  } catch {
    return percentEncodeUtf8(s);
  }
};

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const idLike = fc
  .tuple(
    fc.constantFrom('raf', 'wks', 'prj', 'usr', 'ent', 'win', 'key', 'req'),
    fc.string({ unit: fc.constantFrom(...CROCKFORD), minLength: 20, maxLength: 30 }),
  )
  .map(([p, body]) => `${p}_${body}`);

const SPECIAL_SEGMENTS = [
  '..', '.', '', '%2e%2e', '%2E', '%2F', '%5C', '%', '%%', '%zz', '%0', '%00', '%0A', '%0D%0A', '%C0%AF', '%ED%A0%80',
  '%FF', '%EF%BF%BF', '%F0%9F%92%A9', '~', '*', ':', ':slug', '@', ';', "'", '"', '%20', '+', '%2B', 'null', 'undefined',
  '0', '-1', 'NaN', '__proto__', 'constructor', 'prototype', 'raf_', 'wks_', "' OR 1=1 --", '%27%3B%20drop%20table%20raffles%3B--',
  '${jndi:x}', '{{7*7}}', '<script>', 'me', 'entries', 'raffles', 'winners',
];

/** Bytes that break naive code: controls (NUL above all: Postgres text refuses it), separators, quotes, BOM, overlong and 4-byte UTF-8. */
const INJECTIONS = [
  '%00', '%01', '%0A', '%0D%0A', '%09', '%1F', '%7F', '%C0%80', '%E2%80%8B', '%EF%BB%BF', '%F0%9F%92%A9', '%25', '%2F', '%5C',
  "'", '%22', '%27%20OR%201%3D1--', '..', '%2e%2e', '~', '*', '%20', '+', '%3B', '%3F', '%23',
];
/** `value` with one injection spliced in at an arbitrary position. */
const spliced = (values: fc.Arbitrary<string>) =>
  fc.tuple(values, fc.nat(), fc.constantFrom(...INJECTIONS)).map(([v, i, inj]) => {
    const at = i % (v.length + 1);
    return v.slice(0, at) + inj + v.slice(at);
  });

/** One path segment as it goes on the wire (already percent-encoded where it should be). */
const fuzzSegment: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: spliced(fc.string({ unit: 'grapheme-ascii', maxLength: 12 }).map(safeEncode)), weight: 2 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 24 }).map(safeEncode), weight: 3 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 12 }).map(safeEncode), weight: 2 },
  { arbitrary: fc.uint8Array({ minLength: 1, maxLength: 10 }).map((bytes) => [...bytes].map(hex).join('')), weight: 2 },
  { arbitrary: fc.constantFrom(...SPECIAL_SEGMENTS), weight: 3 },
  { arbitrary: fc.integer({ min: 90, max: 4000 }).map((n) => 'a'.repeat(n)), weight: 1 },
  { arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 100, maxLength: 400 }).map(safeEncode), weight: 1 },
  { arbitrary: idLike, weight: 2 },
);

/** Header values a real HTTP/1.1 peer can carry: tab, visible ASCII, space, obs-text. */
const headerChar = fc.oneof(
  { arbitrary: fc.integer({ min: 0x20, max: 0x7e }), weight: 8 },
  { arbitrary: fc.integer({ min: 0x80, max: 0xff }), weight: 1 },
  { arbitrary: fc.constant(0x09), weight: 1 },
).map((c) => String.fromCharCode(c));
const headerValue = (maxLength = 80) => fc.string({ unit: headerChar, maxLength });

const limitValue = fc.oneof(
  fc.integer({ min: -1000, max: 1000 }).map(String),
  fc.integer().map(String),
  fc.double({ noNaN: false }).map(String),
  fc.constantFrom('', ' 5', '5 ', '1e1', '1e309', '0x10', '5.0', '5.5', 'Infinity', '-Infinity', 'NaN', '-0', '00010', '1_0', '９', 'true', '[]', '{}', 'null'),
  fc.string({ maxLength: 12 }),
);

const cursorValue = (): fc.Arbitrary<string> =>
  fc.oneof(
    { arbitrary: fc.constantFrom(...issuedCursors), weight: 3 },
    {
      // A real cursor with one character changed: the signature must still refuse it.
      arbitrary: fc.tuple(fc.constantFrom(...issuedCursors), fc.nat(), fc.constantFrom(...'AZaz09-_.')).map(([c, i, ch]) => {
        const at = i % c.length;
        return c.slice(0, at) + ch + c.slice(at + 1);
      }),
      weight: 2,
    },
    { arbitrary: fc.base64String({ maxLength: 64 }), weight: 1 },
    { arbitrary: fc.string({ maxLength: 40 }), weight: 2 },
    { arbitrary: fc.tuple(fc.string({ maxLength: 20 }), fc.string({ maxLength: 20 })).map(([a, b]) => `${a}.${b}`), weight: 1 },
    { arbitrary: fc.integer({ min: 500, max: 700 }).map((n) => 'c'.repeat(n)), weight: 1 },
  );

type QueryPair = [string, string];
const queryPair = (cursors: fc.Arbitrary<string>): fc.Arbitrary<QueryPair> =>
  fc.oneof(
    { arbitrary: fc.tuple(fc.constant('limit'), limitValue), weight: 4 },
    { arbitrary: fc.tuple(fc.constant('cursor'), cursors), weight: 4 },
    {
      arbitrary: fc.tuple(
        fc.oneof(fc.constantFrom('limit[]', 'limit[0]', 'limit[a]', 'cursor[]', '__proto__', 'constructor', 'LIMIT', 'offset', 'page'), fc.string({ maxLength: 10 })),
        fc.string({ maxLength: 20 }),
      ),
      weight: 2,
    },
  );

/** The raw query string: pairs encoded, sometimes raw, sometimes repeated. */
let queryStringArb: fc.Arbitrary<string> | undefined;
/** Built on first use: the cursors it replays exist only once the app has issued them. */
const queryString = (): fc.Arbitrary<string> => (queryStringArb ??= buildQueryString());
const buildQueryString = (): fc.Arbitrary<string> =>
  fc
    .tuple(fc.array(queryPair(cursorValue()), { maxLength: 5 }), fc.constantFrom('encoded', 'raw', 'mixed'), fc.boolean())
    .map(([pairs, style, repeat]) => {
      const all = repeat && pairs.length > 0 ? [...pairs, pairs[0]!] : pairs;
      return all
        .map(([k, v], i) =>
          style === 'encoded' || (style === 'mixed' && i % 2 === 0)
            ? `${safeEncode(k)}=${safeEncode(v)}`
            : `${percentEncodeUtf8(k).length > 60 ? safeEncode(k) : k.replace(/[&#\s]/g, '')}=${v.replace(/[&#\s]/g, '')}`,
        )
        .join('&');
    });

type Auth = 'authentic' | 'fuzzed';

/** The headers of a run: a valid key of the route's type when authentic, anything otherwise. */
const headersCache = new Map<string, fc.Arbitrary<Record<string, string>>>();
const headersArb = (auth: Auth, keyType: 'personal' | 'workspace'): fc.Arbitrary<Record<string, string>> => {
  const cacheKey = `${auth}:${keyType}`;
  const cached = headersCache.get(cacheKey);
  if (cached) return cached;
  const built = buildHeadersArb(auth, keyType);
  headersCache.set(cacheKey, built);
  return built;
};

function buildHeadersArb(auth: Auth, keyType: 'personal' | 'workspace'): fc.Arbitrary<Record<string, string>> {
  const rightKey = keyType === 'workspace' ? tenant.keys.workspace : tenant.keys.personal;
  const someKey = fc.constantFrom(
    tenant.keys.personal,
    tenant.keys.workspace,
    tenant.keys.otherWorkspace,
    tenant.keys.revoked,
    tenant.keys.expired,
    ...Object.values(tenant.keys.personalWithout),
    ...Object.values(tenant.keys.workspaceWithout),
  );
  const fuzzedKey = fc.oneof(
    someKey,
    someKey.map((k) => k.slice(0, -1)),
    someKey.map((k) => `${k}x`),
    someKey.map((k) => k.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'))),
    fc.tuple(fc.constantFrom('svc_u_', 'svc_w_', 'svc_x_', 'sk_', ''), fc.string({ unit: fc.constantFrom(...'abcXYZ0189_'), maxLength: 60 })).map(([p, s]) => p + s),
    headerValue(120),
  );
  const scheme = fc.oneof(fc.constantFrom('Bearer', 'bearer', 'BEARER', 'Basic', 'Token', 'ApiKey', 'Digest', ''), fc.string({ unit: 'grapheme-ascii', maxLength: 8 }));
  const separator = fc.constantFrom(' ', '  ', '\t', '', ' \t ');
  const authorization = fc.tuple(scheme, separator, fuzzedKey).map(([s, sep, k]) => `${s}${sep}${k}`);

  const keyHeaders: fc.Arbitrary<Record<string, string>> =
    auth === 'authentic'
      ? fc.oneof(
          fc.constant({ authorization: `Bearer ${rightKey}` }),
          fc.constant({ 'x-api-key': rightKey }),
          // Both: the Bearer value wins, whatever X-API-Key says.
          fuzzedKey.map((k) => ({ authorization: `Bearer ${rightKey}`, 'x-api-key': k })),
        )
      : fc.record({ authorization, 'x-api-key': fuzzedKey }, { requiredKeys: [] });

  const requestId = fc.oneof(
    fc.stringMatching(/^[A-Za-z0-9._:-]{1,128}$/),
    headerValue(40),
    fc.integer({ min: 129, max: 400 }).map((n) => 'r'.repeat(n)),
  );
  const contentType = fc.oneof(
    fc.constantFrom(
      'application/json',
      'application/json; charset=utf-8',
      'APPLICATION/JSON',
      'application/json; charset=latin1',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/octet-stream',
      'application/xml',
      'application/vnd.api+json',
      '',
    ),
    headerValue(40),
  );
  const extraName = fc
    .stringMatching(/^[a-z][a-z0-9-]{0,20}$/)
    .filter((n) => !['content-length', 'transfer-encoding', 'host', 'connection', 'expect', 'upgrade', 'authorization', 'x-api-key', 'x-request-id', 'content-type'].includes(n));
  const extras = fc.dictionary(extraName, headerValue(40), { maxKeys: 3 });

  return fc
    .tuple(keyHeaders, fc.record({ 'x-request-id': requestId, 'content-type': contentType, accept: headerValue(30) }, { requiredKeys: [] }), extras)
    .map(([k, other, extra]) => ({ ...extra, ...other, ...k }));
}

const bodyArb: fc.Arbitrary<string | undefined> = fc.oneof(
  { arbitrary: fc.constant(undefined), weight: 3 },
  { arbitrary: fc.json({ maxDepth: 3 }), weight: 3 },
  { arbitrary: fc.string({ maxLength: 200 }), weight: 3 },
  { arbitrary: fc.constantFrom('{', '[', '"', 'null', '{"a":', '\u0000', '{"__proto__":{"x":1}}', ''), weight: 2 },
  { arbitrary: fc.integer({ min: 66_000, max: 70_000 }).map((n) => `{"a":"${'x'.repeat(n)}"}`), weight: 1 },
);

// ---------------------------------------------------------------------------------------------
// Requests and checking
// ---------------------------------------------------------------------------------------------

type FuzzRequest = { method: Method; url: string; headers: Record<string, string>; body: string | undefined; inputs: string[] };
type RouteFuzzRequest = FuzzRequest & { auth: Auth };

/** Decoded forms of what went on the wire, so a message that echoes input is not taken for a leak. */
function echoesOf(parts: readonly string[]): string[] {
  const out = new Set<string>();
  for (const p of parts) {
    out.add(p);
    try {
      const d = decodeURIComponent(p);
      out.add(d);
      out.add(JSON.stringify(d).slice(1, -1));
    } catch {
      /* not decodable: only the raw form can be echoed */
    }
  }
  return [...out];
}

const describeRequest = (r: { method: string; url?: string; target?: string; headers: Record<string, string>; body?: string }) =>
  JSON.stringify({ ...r, body: r.body && r.body.length > 200 ? `${r.body.slice(0, 200)}...(${r.body.length} chars)` : r.body });

async function sendInject(r: FuzzRequest): Promise<SeenResponse> {
  const res = await app.inject({ method: r.method, url: r.url, headers: r.headers, ...(r.body !== undefined && r.method !== 'GET' && r.method !== 'HEAD' ? { payload: r.body } : {}) });
  return { statusCode: res.statusCode, headers: res.headers, body: res.body };
}

function check(res: SeenResponse, r: { method: string; inputs: string[] }, describe: string) {
  const violations = responseViolations(res, { method: r.method, inputs: r.inputs });
  if (violations.length > 0) {
    throw new Error(`${violations.join('\n')}\nrequest: ${describe}\nresponse: ${res.statusCode} ${res.body.slice(0, 500)}`);
  }
}

/** Path parameters: mostly the tenant's real values when authentic (so handlers run), fuzz otherwise. */
function paramArb(name: string, auth: Auth): fc.Arbitrary<string> {
  const real: Record<string, string[]> = {
    workspaceId: [tenant.workspace.id],
    raffleId: [tenant.finalized.id, tenant.privateRaffle.id, tenant.draft.id, tenant.foreignRaffle.id],
    slug: [tenant.finalized.slug, tenant.privateRaffle.slug, tenant.draft.slug, tenant.foreignRaffle.slug, ...tenant.publicRaffles.map((r) => r.slug)],
    projectId: tenant.projects.map((p) => p.id),
  };
  const values = real[name] ?? [];
  const otherReal = fc.constantFrom(tenant.otherWorkspace.id, tenant.owner.id, tenant.entries[0]!.id, tenant.wins[0]!.id);
  if (values.length === 0) return fuzzSegment;
  // An authentic workspace call keeps its own workspace in most runs, or it stops at the 403.
  const workspace = name === 'workspaceId';
  const realWeight = auth === 'authentic' ? (workspace ? 12 : 4) : 1;
  return fc.oneof(
    { arbitrary: fc.constantFrom(...values), weight: realWeight },
    // A real value with a control byte, quote or separator spliced in: reaches the queries.
    { arbitrary: spliced(fc.constantFrom(...values)), weight: workspace ? 1 : 3 },
    { arbitrary: fuzzSegment, weight: 2 },
    { arbitrary: otherReal, weight: 1 },
  );
}

function routeRequestArb(row: { url: string; access: { keyType: 'personal' | 'workspace' } }, auth: Auth): fc.Arbitrary<RouteFuzzRequest> {
  const parts = row.url.split('/').map((part) => (part.startsWith(':') ? paramArb(part.slice(1), auth) : fc.constant(part)));
  return fc
    .record({
      segments: fc.tuple(...parts),
      trailingSlash: fc.oneof({ arbitrary: fc.constant(false), weight: 9 }, { arbitrary: fc.constant(true), weight: 1 }),
      query: fc.oneof({ arbitrary: fc.constant(''), weight: 1 }, { arbitrary: queryString(), weight: 3 }),
      method: methodArb,
      headers: headersArb(auth, row.access.keyType),
      body: bodyArb,
    })
    .map(({ segments, trailingSlash, query, method, headers, body }) => {
      const path = segments.join('/') + (trailingSlash ? '/' : '');
      const url = query ? `${path}?${query}` : path;
      return { auth, method, url, headers, body, inputs: echoesOf([...segments, ...query.split(/[&=]/)]) };
    });
}

/** Every route, half the runs with a valid key of its type (authentic), half with anything. */
const everyRouteArb = () =>
  fc.oneof(...app.routeAccessTable.flatMap((row) => [routeRequestArb(row, 'authentic'), routeRequestArb(row, 'fuzzed')]));

const UNKNOWN_PREFIXES = ['', '/api', '/api/v1', '/api/v2', '/api/v1/workspaces', '/api/v1/raffles', '/api/v1/me', '/api/developer', '/docs', '/docs/static', '/health', '/openapi.json', '/metrics', '/API/V1'];

function unknownRequestArb(): fc.Arbitrary<FuzzRequest> {
  return fc
    .record({
      prefix: fc.constantFrom(...UNKNOWN_PREFIXES),
      segments: fc.array(fuzzSegment, { minLength: 1, maxLength: 5 }),
      trailingSlash: fc.boolean(),
      query: fc.oneof(fc.constant(''), queryString()),
      method: methodArb,
      headers: fc.oneof(headersArb('authentic', 'personal'), headersArb('fuzzed', 'personal')),
      body: bodyArb,
    })
    .map(({ prefix, segments, trailingSlash, query, method, headers, body }) => {
      const path = `${prefix}/${segments.join('/')}${trailingSlash ? '/' : ''}`;
      return { method, url: query ? `${path}?${query}` : path, headers, body, inputs: echoesOf([...segments, ...query.split(/[&=]/)]) };
    });
}

/** A raw request target: bytes 0x21-0xFF as they are, `..` unresolved, nothing re-encoded. */
const rawChar = fc
  .oneof({ arbitrary: fc.integer({ min: 0x21, max: 0x7e }), weight: 6 }, { arbitrary: fc.integer({ min: 0x80, max: 0xff }), weight: 1 })
  .map((c) => String.fromCharCode(c));
const rawSegment = fc.oneof(
  { arbitrary: fuzzSegment, weight: 3 },
  { arbitrary: fc.string({ unit: rawChar, maxLength: 16 }).map((s) => s.replace(/[?/]/g, '')), weight: 2 },
  // UTF-8 of arbitrary text, sent unencoded (one latin1 char per byte).
  { arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 8 }).map((s) => Buffer.from(s, 'utf8').toString('latin1').replace(/[^\x21-\xff]/g, '').replace(/[?/]/g, '')), weight: 1 },
  { arbitrary: fc.constantFrom('..', '.', '', '...', '%2e%2e', '.%2e', '%2e.'), weight: 3 },
);

function rawRequestArb(): fc.Arbitrary<{ method: Method; target: string; headers: Record<string, string>; body: string | undefined; inputs: string[] }> {
  const routeTemplates = app.routeAccessTable.map((r) => r.url);
  return fc
    .record({
      base: fc.oneof(
        fc.oneof(
          ...routeTemplates.map((url) =>
            fc.tuple(
              ...url.split('/').map((p) =>
                p.startsWith(':')
                  ? fc.oneof(rawSegment, fc.constantFrom(tenant.workspace.id, tenant.finalized.id, tenant.finalized.slug))
                  : fc.oneof({ arbitrary: fc.constant(p), weight: 6 }, { arbitrary: rawSegment, weight: 1 }),
              ),
            ),
          ),
        ),
        fc.tuple(fc.constantFrom(...UNKNOWN_PREFIXES), fc.array(rawSegment, { maxLength: 4 })).map(([p, s]) => [p, ...s]),
      ),
      tail: fc.constantFrom('', '/', '//', '/..', '/.', ';', ';x=1', '#frag', '%23', '?', '??', '?&', '?limit=1#x'),
      query: fc.oneof(fc.constant(''), queryString()),
      method: methodArb,
      headers: fc.oneof(headersArb('authentic', 'personal'), headersArb('authentic', 'workspace'), headersArb('fuzzed', 'personal')),
      body: bodyArb,
    })
    .map(({ base, tail, query, method, headers, body }) => {
      let target = base.join('/') + tail;
      if (!target.startsWith('/')) target = `/${target}`;
      if (query) target += (target.includes('?') ? '&' : '?') + query.replace(/[^\x21-\xff]/g, '');
      return { method, target, headers, body, inputs: echoesOf([...base, ...query.split(/[&=]/)]) };
    });
}

// ---------------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------------

describe('fuzzing every route of the access table', () => {
  it('covers the routes the API has (the table is not empty and holds both key types)', () => {
    const types = new Set(app.routeAccessTable.map((r) => r.access.keyType));
    expect(app.routeAccessTable.length).toBeGreaterThanOrEqual(12);
    expect([...types].sort()).toEqual(['personal', 'workspace']);
  });

  it('keeps the error contract for arbitrary requests to every known route', async () => {
    const seen = { runs: 0, authentic: 0, pastAuth: 0, handled2xx: 0 };
    await fc.assert(
      fc.asyncProperty(everyRouteArb(), async (r) => {
        const res = await sendInject(r);
        seen.runs++;
        if (r.auth === 'authentic') {
          seen.authentic++;
          if (res.statusCode !== 401 && res.statusCode !== 403) seen.pastAuth++;
        }
        if (res.statusCode >= 200 && res.statusCode < 300 && r.method === 'GET') seen.handled2xx++;
        check(res, r, describeRequest(r));
      }),
      { seed: 0x5eed_0001, numRuns: 2000 },
    );
    // About half the runs carried a real key, and those got past auth into the handlers and the database.
    expect(seen.authentic / seen.runs).toBeGreaterThan(0.35);
    expect(seen.authentic / seen.runs).toBeLessThan(0.65);
    expect(seen.pastAuth / seen.authentic, 'authentic runs past authentication').toBeGreaterThan(0.8);
    expect(seen.handled2xx, 'runs answered 2xx by a handler').toBeGreaterThan(100);
  });

  it('keeps the error contract for arbitrary unknown paths', async () => {
    await fc.assert(
      fc.asyncProperty(unknownRequestArb(), async (r) => {
        check(await sendInject(r), r, describeRequest(r));
      }),
      { seed: 0x5eed_0002, numRuns: 600 },
    );
  });

  it('keeps the error contract for raw request targets sent over a socket (no URL normalisation)', async () => {
    await fc.assert(
      fc.asyncProperty(rawRequestArb(), async (r) => {
        const res = await rawRequest(port, {
          method: r.method,
          target: r.target,
          headers: r.headers,
          ...(r.body !== undefined && r.method !== 'GET' && r.method !== 'HEAD' ? { body: r.body } : {}),
        });
        check(res, r, describeRequest(r));
      }),
      { seed: 0x5eed_0003, numRuns: 500 },
    );
  });
});

/**
 * Counterexamples the properties above found, kept as fixed cases so each failure is named on
 * its own (a property reports only its first counterexample).
 */
describe('counterexamples found by fuzzing', () => {
  const personal = (): Record<string, string> => ({ authorization: `Bearer ${tenant.keys.personal}` });
  const workspace = (): Record<string, string> => ({ authorization: `Bearer ${tenant.keys.workspace}` });

  it.each([
    ['GET /api/v1/raffles/{slug} with a NUL byte in the slug', (): string => '/api/v1/raffles/%00', personal],
    ['GET /api/v1/raffles/{slug} with a NUL byte inside a slug', (): string => `/api/v1/raffles/${tenant.finalized.slug}%00x`, personal],
    ['GET /api/v1/raffles/{slug}/entries/me with a NUL byte in the slug', (): string => '/api/v1/raffles/a%00b/entries/me', personal],
    ['GET /api/v1/workspaces/{workspaceId}/projects/{projectId} with a NUL byte in the project id', (): string => `/api/v1/workspaces/${tenant.workspace.id}/projects/%00`, workspace],
    ['GET /api/v1/workspaces/{workspaceId}/raffles/{raffleId} with a NUL byte in the raffle id', (): string => `/api/v1/workspaces/${tenant.workspace.id}/raffles/raf_%00`, workspace],
  ] as const)('%s answers a 4xx error body, not a 500', async (_name, url, headers) => {
    const res = await app.inject({ url: url(), headers: headers() });
    expect(responseViolations(res, { method: 'GET' })).toEqual([]);
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
  });

  // Raw targets only: inject would resolve the `..` before the router saw it.
  it.each(['/docs/static/..', '/docs/static/../package.json', '/docs/static/%2e%2e/%2e%2e/package.json'])(
    'GET %s (path traversal under the docs assets) answers a 4xx error body, not a 500',
    async (target) => {
      const res = await rawRequest(port, { method: 'GET', target });
      expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, res.body).toBeLessThan(500);
      expect(responseViolations(res, { method: 'GET' }), res.body).toEqual([]);
    },
  );
});
