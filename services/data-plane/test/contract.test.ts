import { DATA_PLANE_ROUTE_ERROR_STATUSES, PERSONAL_API_SCOPES } from '@raffle/contracts';
import { insertApiKey, insertEntry, insertRaffle, insertUser, insertWin } from '@raffle/db';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataPlaneApp } from '../src/app.js';
import { SECURITY_REQUIREMENT } from '../src/plugins/auth.js';
import { buildTestApp } from './support/app.js';
import { describeErrors, expectMatchesSchema, type SchemaOrId } from './support/contract-validator.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { seedTenant, type Tenant } from './support/tenant.js';

/**
 * Every 200 the data plane sends matches the schema its route declares (checked with a JSON
 * Schema 2020-12 validator, as an OpenAPI 3.1 client would), the pagination object is exactly
 * the spec's, values the spec does not type "or null" are absent rather than null, the winners
 * list is the spec's bare array of finalized winners, and /openapi.json describes every route.
 */

let db: TestDatabase;
let app: DataPlaneApp;
let tenant: Tenant;
/** A public raffle with every optional field set, so present values get validated too. */
let fullRaffle: { id: string; slug: string };
/** A raffle whose winners were inserted out of position order, with every non-finalized status. */
let drawnRaffle: { id: string; finalizedIds: string[]; otherIds: string[] };

beforeAll(async () => {
  db = await createTestDatabase();
  tenant = await seedTenant(db.database, { publicRaffles: 3 });
  const day = 86_400_000;
  const t0 = Date.now() - 10 * day;
  await db.database.db.transaction(async (tx) => {
    const full = await insertRaffle(tx, {
      workspaceId: tenant.workspace.id,
      slug: `full-${tenant.tag}`,
      title: 'Every field set',
      description: 'A raffle with every optional field present',
      mechanic: 'raffle',
      allocationType: 'allowlist_fcfs',
      visibility: 'public',
      status: 'closed',
      spots: 5,
      chain: 'solana',
      allowAutoEntry: true,
      canonicalProjectId: tenant.projects[1]!.id,
      requirements: [{ id: 'req_age', type: 'account_age_days', label: 'Account older than 7 days', params: { days: 7 } }],
      startsAt: new Date(t0),
      endsAt: new Date(t0 + day),
      publishedAt: new Date(t0 - day),
      openedAt: new Date(t0),
      closedAt: new Date(t0 + day),
      drawCommitment: 'ab'.repeat(32),
      createdAt: new Date(t0 - 2 * day),
    });
    fullRaffle = { id: full.id, slug: full.slug };
    const entry = await insertEntry(tx, {
      raffle: full,
      userId: tenant.owner.id,
      status: 'invalid',
      statusReason: 'account too young',
      source: 'api',
      walletSnapshot: 'So1anaWallet',
      createdAt: new Date(t0 + 1000),
      evaluations: [{ requirementId: 'req_age', type: 'account_age_days', label: 'Account older than 7 days', passed: false, evidence: { days: 2 } }],
    });

    // Winners inserted in reverse position order (ids sort the other way), plus one of each other status.
    const drawn = await insertRaffle(tx, {
      workspaceId: tenant.workspace.id,
      slug: `drawn-${tenant.tag}`,
      title: 'Winners out of order',
      mechanic: 'raffle',
      allocationType: 'physical',
      visibility: 'public',
      status: 'finalized',
      spots: 5,
      publishedAt: new Date(t0),
      openedAt: new Date(t0),
      finalizedAt: new Date(t0 + 2 * day),
      createdAt: new Date(t0 - day),
    });
    const statuses = ['finalized', 'finalized', 'selected', 'finalized', 'disqualified', 'replaced'] as const;
    const finalizedIds: Array<[number, string]> = [];
    const otherIds: string[] = [];
    for (let i = 0; i < statuses.length; i++) {
      const position = statuses.length - i; // 6, 5, 4, 3, 2, 1 in insertion (and id) order
      const user = await insertUser(tx, { handle: `winner-${position}-${tenant.tag}`, createdAt: new Date(t0) });
      const e = await insertEntry(tx, { raffle: drawn, userId: user.id, status: 'valid', source: 'web', createdAt: new Date(t0 + i) });
      const status = statuses[i]!;
      const win = await insertWin(
        tx,
        {
          raffleId: drawn.id,
          entryId: e.id,
          userId: user.id,
          position,
          source: 'draw',
          status,
          walletSnapshot: i % 2 === 0 ? `0xw${i}` : null,
          identitySnapshot: { handle: `winner-${position}`, displayName: 'W', wallets: [{ chain: 'ethereum', address: `0xw${i}` }] },
          deliveryStatus: i === 0 ? 'delivered' : 'pending',
          deliveryNote: i === 0 ? 'shipped' : null,
          selectedAt: new Date(t0 + day + i * 1000),
          finalizedAt: status === 'finalized' ? new Date(t0 + 2 * day) : null,
          disqualifiedAt: status === 'disqualified' ? new Date(t0 + 2 * day) : null,
          replacedAt: status === 'replaced' ? new Date(t0 + 2 * day) : null,
          deliveredAt: i === 0 ? new Date(t0 + 3 * day) : null,
        },
        drawn,
      );
      if (status === 'finalized') finalizedIds.push([position, win.id]);
      else otherIds.push(win.id);
    }
    drawnRaffle = { id: drawn.id, finalizedIds: finalizedIds.sort((a, b) => a[0] - b[0]).map(([, id]) => id), otherIds };

    // A delivered win of the key owner, so the personal win carries every optional field.
    await insertWin(
      tx,
      {
        raffleId: full.id,
        entryId: entry.id,
        userId: tenant.owner.id,
        position: 1,
        source: 'manual',
        status: 'finalized',
        walletSnapshot: 'So1anaWallet',
        identitySnapshot: { handle: 'owner', wallets: [] },
        deliveryStatus: 'delivered',
        deliveryNote: 'sent',
        selectedAt: new Date(t0 + day),
        finalizedAt: new Date(t0 + day + 1),
        disqualifiedAt: null,
        replacedAt: null,
        deliveredAt: new Date(t0 + day + 2),
      },
      full,
    );
  });
  app = await buildTestApp(db.database, db.url, { PUBLIC_RAFFLES_CACHE_TTL_MS: '0' });
});

afterAll(async () => {
  await app?.close();
  await db?.drop();
});

// ---------------------------------------------------------------------------------------------

type KeyType = 'personal' | 'workspace';
type RouteCase = {
  /** The 200 schema the route declares: a contracts/route `$id`, or an inline schema. */
  schema: SchemaOrId;
  /** The 200 schema of the route in /openapi.json, as a component name (or an array of one). */
  openApi: { ref: string } | { arrayOf: string };
  /** Concrete URLs to fetch: every seeded instance, so nulls and present values both occur. */
  urls: () => string[];
  paginated: boolean;
  /** Dotted paths (`*` = any array index) where the spec or the contract permits null. */
  nullable: readonly string[];
  /** A page's keys beside `data` and `pagination` (an allowlist leaf page names its version and root). */
  envelope?: readonly string[];
  /** What identifies a row of a paginated list (`id`, unless the rows have none). */
  rowKey?: string;
};

// beaconRound is not in the spec's table (an addition, decision 0022): null until the close, like closedAt beside it.
const WORKSPACE_ITEM_NULLABLE = ['chain', 'startsAt', 'endsAt', 'publishedAt', 'openedAt', 'closedAt', 'beaconRound', 'finalizedAt', 'canonicalProject', 'canonicalProject.logoUrl'];

const ws = () => tenant.workspace.id;
const workspaceRaffleIds = () => [tenant.finalized.id, tenant.privateRaffle.id, tenant.draft.id, fullRaffle.id, drawnRaffle.id];

const CASES: Record<string, RouteCase> = {
  '/api/v1/me': { schema: 'Profile', openApi: { ref: 'Profile' }, urls: () => ['/api/v1/me'], paginated: false, nullable: [] },
  '/api/v1/raffles': {
    schema: 'PublicRafflePage',
    openApi: { ref: 'PublicRafflePage' },
    urls: () => ['/api/v1/raffles'],
    paginated: true,
    nullable: ['pagination.nextCursor'],
  },
  '/api/v1/raffles/:slug': {
    schema: 'PublicRaffle',
    openApi: { ref: 'PublicRaffle' },
    // public, private (the owner is a member), unlisted (another workspace), every optional field set
    urls: () =>
      [tenant.finalized.slug, tenant.privateRaffle.slug, tenant.foreignRaffle.slug, fullRaffle.slug, ...tenant.publicRaffles.map((r) => r.slug)].map(
        (s) => `/api/v1/raffles/${s}`,
      ),
    paginated: false,
    nullable: [],
  },
  '/api/v1/entries': {
    schema: 'SanitizedEntryPage',
    openApi: { ref: 'SanitizedEntryPage' },
    urls: () => ['/api/v1/entries'],
    paginated: true,
    nullable: ['pagination.nextCursor'],
  },
  '/api/v1/raffles/:slug/entries/me': {
    schema: 'SanitizedEntry',
    openApi: { ref: 'SanitizedEntry' },
    urls: () => [tenant.finalized.slug, fullRaffle.slug].map((s) => `/api/v1/raffles/${s}/entries/me`),
    paginated: false,
    nullable: [],
  },
  '/api/v1/raffles/:slug/draw': {
    schema: 'DrawProof',
    openApi: { ref: 'DrawProof' },
    urls: () => [`/api/v1/raffles/${tenant.finalized.slug}/draw`],
    paginated: false,
    nullable: [],
  },
  '/api/v1/wins': { schema: 'WinPage', openApi: { ref: 'WinPage' }, urls: () => ['/api/v1/wins'], paginated: true, nullable: ['pagination.nextCursor'] },
  '/api/v1/raffles/:slug/allowlist/proof': {
    schema: 'AllowlistProof',
    openApi: { ref: 'AllowlistProof' },
    urls: () => [`/api/v1/raffles/${tenant.finalized.slug}/allowlist/proof`],
    paginated: false,
    nullable: [],
  },
  '/api/v1/workspaces/:workspaceId/raffles/:raffleId/allowlist': {
    schema: 'Allowlist',
    openApi: { ref: 'Allowlist' },
    // published (allowlist_gtd, finalized), not yet finalized (allowlist_fcfs, closed), not an allowlist (the draft)
    urls: () => [tenant.finalized.id, fullRaffle.id, tenant.draft.id].map((id) => `/api/v1/workspaces/${ws()}/raffles/${id}/allowlist`),
    paginated: false,
    nullable: ['current', 'walletDeadline'],
  },
  '/api/v1/workspaces/:workspaceId/raffles/:raffleId/allowlist/leaves': {
    schema: 'AllowlistLeafPage',
    openApi: { ref: 'AllowlistLeafPage' },
    urls: () => [`/api/v1/workspaces/${ws()}/raffles/${tenant.finalized.id}/allowlist/leaves`],
    paginated: true,
    nullable: ['pagination.nextCursor'],
    envelope: ['root', 'version'],
    rowKey: 'address',
  },
  '/api/v1/workspaces/:workspaceId/raffles': {
    schema: 'WorkspaceRafflePage',
    openApi: { ref: 'WorkspaceRafflePage' },
    urls: () => [`/api/v1/workspaces/${ws()}/raffles`],
    paginated: true,
    nullable: ['pagination.nextCursor', ...WORKSPACE_ITEM_NULLABLE.map((f) => `data.*.${f}`)],
  },
  '/api/v1/workspaces/:workspaceId/raffles/:raffleId': {
    schema: 'WorkspaceRaffle',
    openApi: { ref: 'WorkspaceRaffle' },
    urls: () => workspaceRaffleIds().map((id) => `/api/v1/workspaces/${ws()}/raffles/${id}`),
    paginated: false,
    nullable: [...WORKSPACE_ITEM_NULLABLE, 'description', 'drawCommitment', 'drawAlgorithm'],
  },
  '/api/v1/workspaces/:workspaceId/raffles/:raffleId/entries': {
    schema: 'WorkspaceEntryPage',
    openApi: { ref: 'WorkspaceEntryPage' },
    urls: () => workspaceRaffleIds().map((id) => `/api/v1/workspaces/${ws()}/raffles/${id}/entries`),
    paginated: true,
    nullable: ['pagination.nextCursor'],
  },
  '/api/v1/workspaces/:workspaceId/raffles/:raffleId/winners': {
    schema: { type: 'array', items: { $ref: 'Winner' } },
    openApi: { arrayOf: 'Winner' },
    urls: () => workspaceRaffleIds().map((id) => `/api/v1/workspaces/${ws()}/raffles/${id}/winners`),
    paginated: false,
    nullable: [],
  },
  '/api/v1/workspaces/:workspaceId/projects': {
    schema: 'ProjectPage',
    openApi: { ref: 'ProjectPage' },
    urls: () => [`/api/v1/workspaces/${ws()}/projects`],
    paginated: true,
    nullable: ['pagination.nextCursor', 'data.*.logoUrl', 'data.*.description', 'data.*.websiteUrl', 'data.*.chain'],
  },
  '/api/v1/workspaces/:workspaceId/projects/:projectId': {
    schema: 'Project',
    openApi: { ref: 'Project' },
    urls: () => tenant.projects.map((p) => `/api/v1/workspaces/${ws()}/projects/${p.id}`),
    paginated: false,
    nullable: ['logoUrl', 'description', 'websiteUrl', 'chain'],
  },
};

/**
 * The routes that change state, by `METHOD url`: each run makes a new entrant (its own user and
 * key) enter the tenant's open raffle, so every run sees its route succeed.
 */
type MutationCase = { status: number; schema: SchemaOrId; openApi: { ref: string }; run: () => Promise<unknown> };

async function freshEntrantKey(): Promise<string> {
  const user = await insertUser(db.database.db, { handle: `entrant-${Math.random().toString(36).slice(2)}-${tenant.tag}` });
  const { apiKey } = await insertApiKey(db.database.db, { kind: 'personal', userId: user.id, name: 'entrant', scopes: [...PERSONAL_API_SCOPES] });
  return apiKey;
}

async function succeed(method: 'POST' | 'PUT' | 'DELETE', url: string, key: string, status: number, payload?: object): Promise<unknown> {
  const res = await app.inject({ method, url, headers: { authorization: `Bearer ${key}` }, payload });
  expect(res.statusCode, `${method} ${url}: ${res.body.slice(0, 300)}`).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json\b/);
  return res.json();
}

const entriesUrl = () => `/api/v1/raffles/${tenant.entrable.slug}/entries`;

const MUTATIONS: Record<string, MutationCase> = {
  'POST /api/v1/raffles/:slug/entries': {
    status: 201,
    schema: 'SanitizedEntry',
    openApi: { ref: 'SanitizedEntry' },
    run: async () => succeed('POST', entriesUrl(), await freshEntrantKey(), 201),
  },
  'DELETE /api/v1/raffles/:slug/entries/me': {
    status: 200,
    schema: 'SanitizedEntry',
    openApi: { ref: 'SanitizedEntry' },
    run: async () => {
      const key = await freshEntrantKey();
      await succeed('POST', entriesUrl(), key, 201);
      return succeed('DELETE', `${entriesUrl()}/me`, key, 200);
    },
  },
  'PUT /api/v1/raffles/:slug/allowlist/wallet': {
    status: 200,
    schema: 'AllowlistWallet',
    openApi: { ref: 'AllowlistWallet' },
    run: () => succeed('PUT', `/api/v1/raffles/${tenant.naming.slug}/allowlist/wallet`, tenant.keys.personal, 200, { address: tenant.ownerWallet }),
  },
};

const isRead = (row: { method: string }) => row.method === 'GET';
/** The GET routes: each has a CASES entry by its url. */
const readRows = () => app.routeAccessTable.filter(isRead);
const successStatus = (row: { method: string; url: string }) => (isRead(row) ? 200 : MUTATIONS[`${row.method} ${row.url}`]!.status);
const expectedOpenApi = (row: { method: string; url: string }) => (isRead(row) ? CASES[row.url]!.openApi : MUTATIONS[`${row.method} ${row.url}`]!.openApi);

const keyFor = (keyType: KeyType) => (keyType === 'personal' ? tenant.keys.personal : tenant.keys.workspace);

async function get200(url: string, keyType: KeyType): Promise<unknown> {
  const res = await app.inject({ url, headers: { authorization: `Bearer ${keyFor(keyType)}` } });
  expect(res.statusCode, `GET ${url}: ${res.body.slice(0, 300)}`).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/json\b/);
  return res.json();
}

/** Every `null` in a value, as dotted paths with array indexes replaced by `*`. */
function nullPaths(value: unknown, path: string[] = []): string[] {
  if (value === null) return [path.join('.')];
  if (Array.isArray(value)) return value.flatMap((v) => nullPaths(v, [...path, '*']));
  if (typeof value === 'object') return Object.entries(value as object).flatMap(([k, v]) => nullPaths(v, [...path, k]));
  return [];
}

type Page = { data: unknown[]; pagination: { nextCursor: string | null; hasMore: boolean } };

function expectPaginationShape(page: Page, where: string, envelope: readonly string[] = []) {
  expect(Object.keys(page).sort(), `${where}: page keys`).toEqual(['data', 'pagination', ...envelope].sort());
  expect(Object.keys(page.pagination).sort(), `${where}: pagination keys`).toEqual(['hasMore', 'nextCursor']);
  expect(typeof page.pagination.hasMore, where).toBe('boolean');
  if (page.pagination.hasMore) expect(typeof page.pagination.nextCursor, `${where}: hasMore true needs a cursor`).toBe('string');
  else expect(page.pagination.nextCursor, `${where}: hasMore false needs a null cursor`).toBeNull();
}

/** Walks a list one row per page, checking every page. Returns the ids (or `rowKey`s) in order. */
async function walk(url: string, keyType: KeyType, c: RouteCase): Promise<{ ids: string[]; pages: number; sawMore: boolean }> {
  const rowKey = c.rowKey ?? 'id';
  const ids: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  let sawMore = false;
  do {
    const pageUrl: string = `${url}?limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const page = (await get200(pageUrl, keyType)) as Page;
    expectMatchesSchema(c.schema, page, `GET ${pageUrl}`);
    expectPaginationShape(page, `GET ${pageUrl}`, c.envelope);
    expect(page.data.length).toBeLessThanOrEqual(1);
    ids.push(...page.data.map((d) => (d as Record<string, string>)[rowKey]!));
    sawMore ||= page.pagination.hasMore;
    cursor = page.pagination.nextCursor;
    pages++;
    expect(pages, `GET ${url}: walk does not end`).toBeLessThan(100);
  } while (cursor !== null);
  return { ids, pages, sawMore };
}

const rowsByUrl = () => new Map(app.routeAccessTable.map((r) => [r.url, r]));

// ---------------------------------------------------------------------------------------------

describe('200 responses against the declared schemas', () => {
  it('has a contract case for every route of the access table, and no case for a route that is gone', () => {
    const table = app.routeAccessTable.map((r) => `${r.method} ${r.url}`).sort();
    expect(table).toEqual([...Object.keys(CASES).map((u) => `GET ${u}`), ...Object.keys(MUTATIONS)].sort());
  });

  it('validates every 200 of every route against its schema (JSON Schema 2020-12, formats on)', async () => {
    let validated = 0;
    for (const row of readRows()) {
      const c = CASES[row.url]!;
      for (const url of c.urls()) {
        const body = await get200(url, row.access.keyType);
        expectMatchesSchema(c.schema, body, `GET ${url}`);
        validated++;
      }
    }
    expect(validated).toBeGreaterThanOrEqual(30);
  });

  it('validates the success of every state-changing route against its schema, with no null anywhere', async () => {
    for (const [route, c] of Object.entries(MUTATIONS)) {
      const body = await c.run();
      expectMatchesSchema(c.schema, body, route);
      expect(nullPaths(body), `${route} has null values`).toEqual([]);
    }
  });

  it('returns lists that are not trivially empty, so the item schemas were exercised', async () => {
    for (const row of readRows().filter((r) => CASES[r.url]!.paginated)) {
      for (const url of CASES[row.url]!.urls()) {
        const page = (await get200(url, row.access.keyType)) as Page;
        if (url.endsWith(`/raffles/${tenant.draft.id}/entries`) || url.endsWith(`/raffles/${tenant.privateRaffle.id}/entries`)) continue;
        expect(page.data.length, `GET ${url} lists nothing`).toBeGreaterThan(0);
      }
    }
  });

  it('gives every paginated list exactly { nextCursor, hasMore }, with nextCursor null iff hasMore is false, on every page', async () => {
    let sawMore = 0;
    let sawEnd = 0;
    for (const row of readRows().filter((r) => CASES[r.url]!.paginated)) {
      const c = CASES[row.url]!;
      for (const url of c.urls()) {
        const whole = (await get200(url, row.access.keyType)) as Page;
        expectPaginationShape(whole, `GET ${url}`, c.envelope);
        if (!whole.pagination.hasMore) sawEnd++;
        const walked = await walk(url, row.access.keyType, c);
        if (walked.sawMore) sawMore++;
        // One row per page visits exactly the rows of the full page, in the same order.
        const keys = whole.data.map((d) => (d as Record<string, string>)[c.rowKey ?? 'id']);
        expect(keys.every((k) => typeof k === 'string')).toBe(true);
        expect(walked.ids, `GET ${url} walked at limit=1`).toEqual(keys);
      }
    }
    // Both halves of the rule were exercised: pages with more to come and last pages.
    expect(sawMore).toBeGreaterThanOrEqual(4);
    expect(sawEnd).toBeGreaterThanOrEqual(4);
  });
});

describe('absent rather than null', () => {
  it('never puts null anywhere in a personal resource (the spec types none of their fields "or null")', async () => {
    let checked = 0;
    for (const row of readRows().filter((r) => r.access.keyType === 'personal')) {
      const c = CASES[row.url]!;
      for (const url of c.urls()) {
        const body = await get200(url, 'personal');
        const nulls = nullPaths(body).filter((p) => p !== 'pagination.nextCursor');
        expect(nulls, `GET ${url} has null values`).toEqual([]);
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(10);
  });

  it('omits the unset optional fields of public raffle items whose rows hold NULLs (description, chain, dates, project logo)', async () => {
    const page = (await get200('/api/v1/raffles?limit=100', 'personal')) as { data: Array<Record<string, unknown>> };
    const seeded = page.data.find((r) => r.id === tenant.publicRaffles[1]!.id)!; // [0] is the finalized raffle
    expect(seeded, 'a seeded public raffle is listed').toBeDefined();
    for (const field of ['description', 'chain', 'startsAt', 'endsAt', 'canonicalProject']) expect(seeded, field).not.toHaveProperty(field);
    const finalized = page.data.find((r) => r.id === tenant.finalized.id)!;
    expect(finalized.canonicalProject, 'project-0 has no logo').not.toHaveProperty('logoUrl');
    const full = page.data.find((r) => r.id === fullRaffle.id)!;
    for (const field of ['description', 'chain', 'startsAt', 'endsAt', 'canonicalProject']) expect(full, field).toHaveProperty(field);
  });

  it('allows null only where the spec (or, for routes the spec leaves open, the contract) says "or null" on workspace routes', async () => {
    for (const row of readRows().filter((r) => r.access.keyType === 'workspace')) {
      const c = CASES[row.url]!;
      for (const url of c.urls()) {
        const body = await get200(url, 'workspace');
        const unexpected = nullPaths(body).filter((p) => !c.nullable.includes(p));
        expect(unexpected, `GET ${url} has null where the spec wants the field absent`).toEqual([]);
      }
    }
    // The entries spec types statusReason and walletSnapshot without "or null": seeded NULLs must be absent.
    const entries = (await get200(`/api/v1/workspaces/${ws()}/raffles/${tenant.finalized.id}/entries`, 'workspace')) as Page;
    const valid = entries.data.find((e) => (e as { status: string }).status === 'valid') as Record<string, unknown>;
    expect(valid).not.toHaveProperty('statusReason');
  });
});

describe('the winners list', () => {
  const winnersUrl = (raffleId: string) => `/api/v1/workspaces/${ws()}/raffles/${raffleId}/winners`;

  it('is a bare array (no data/pagination wrapper) of the finalized winners only; the selected win is absent', async () => {
    const body = await get200(winnersUrl(tenant.finalized.id), 'workspace');
    expect(Array.isArray(body), 'winners is a bare JSON array').toBe(true);
    const winners = body as Array<{ id: string; status: string; position: number }>;
    expect(winners.map((w) => w.id)).toEqual([tenant.wins[0]!.id, tenant.wins[1]!.id]);
    expect(winners.every((w) => w.status === 'finalized')).toBe(true);
    expect(tenant.wins[2]!.status).toBe('selected');
    expect(winners.map((w) => w.id)).not.toContain(tenant.wins[2]!.id);
  });

  it('orders by position, not by id or insertion, and leaves out selected, disqualified and replaced wins', async () => {
    const winners = (await get200(winnersUrl(drawnRaffle.id), 'workspace')) as Array<{ id: string; status: string; position: number }>;
    expect(winners.map((w) => w.id)).toEqual(drawnRaffle.finalizedIds);
    const positions = winners.map((w) => w.position);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    for (const id of drawnRaffle.otherIds) expect(winners.map((w) => w.id)).not.toContain(id);
    expect(winners.every((w) => w.status === 'finalized')).toBe(true);
  });

  it('answers an empty array, not 404, for a workspace raffle without winners', async () => {
    expect(await get200(winnersUrl(tenant.draft.id), 'workspace')).toEqual([]);
  });
});

describe('the OpenAPI document', () => {
  let doc: {
    openapi: string;
    paths: Record<string, Record<string, Record<string, unknown>>>;
    components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
  };
  const openApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');
  const operation = (row: { method: string; url: string }) => doc.paths[openApiPath(row.url)]?.[row.method.toLowerCase()] as
    | {
        operationId?: string;
        security?: unknown;
        parameters?: Array<{ in: string; name: string; required?: boolean }>;
        responses?: Record<string, { content?: Record<string, { schema?: Record<string, unknown> }> }>;
      }
    | undefined;

  beforeAll(async () => {
    const res = await app.inject({ url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json\b/);
    doc = res.json();
  });

  it('is OpenAPI 3.1.0', () => {
    expect(doc.openapi).toBe('3.1.0');
  });

  it('lists every route of the access table with a unique operationId, the API-key security and its path parameters', () => {
    const ids = new Set<string>();
    for (const row of app.routeAccessTable) {
      const op = operation(row);
      expect(op, `${row.method} ${row.url} is in /openapi.json`).toBeDefined();
      expect(op!.operationId, `${row.url} operationId`).toMatch(/^[a-zA-Z][a-zA-Z0-9]+$/);
      expect(ids.has(op!.operationId!), `operationId ${op!.operationId} is unique`).toBe(false);
      ids.add(op!.operationId!);
      expect(op!.security, `${row.url} security`).toEqual(SECURITY_REQUIREMENT);
      expect(op!.security).toEqual([{ bearerAuth: [] }, { apiKeyHeader: [] }]);
      const pathParams = [...row.url.matchAll(/:(\w+)/g)].map((m) => m[1]);
      for (const name of pathParams) {
        const p = op!.parameters?.find((x) => x.in === 'path' && x.name === name);
        expect(p, `${row.url} declares path parameter ${name}`).toBeDefined();
        expect(p!.required).toBe(true);
      }
    }
    expect(doc.components.securitySchemes).toMatchObject({
      bearerAuth: { type: 'http', scheme: 'bearer' },
      apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
    });
  });

  it('declares its success status (200, 201 for a creation) and the spec\'s error statuses 400, 401, 403, 404, 409, 422, 429, 500 on every route, errors with ErrorBody', () => {
    expect([...DATA_PLANE_ROUTE_ERROR_STATUSES]).toEqual([400, 401, 403, 404, 409, 422, 429, 500]);
    for (const row of app.routeAccessTable) {
      const responses = operation(row)!.responses ?? {};
      for (const status of [successStatus(row), ...DATA_PLANE_ROUTE_ERROR_STATUSES]) {
        expect(responses, `${row.url} documents ${status}`).toHaveProperty(String(status));
      }
      for (const status of DATA_PLANE_ROUTE_ERROR_STATUSES) {
        // ErrorBody itself, or (where the operation answers the status) ErrorBody with `code` narrowed to its codes.
        const schema = responses[String(status)]!.content?.['application/json']?.schema as { allOf?: unknown[] } | undefined;
        expect(schema?.allOf?.[0] ?? schema, `${row.url} ${status}`).toEqual({ $ref: '#/components/schemas/ErrorBody' });
      }
    }
  });

  it('documents for each route the same success schema the route declares', () => {
    for (const row of app.routeAccessTable) {
      const schema = operation(row)!.responses![String(successStatus(row))]!.content?.['application/json']?.schema;
      const expected = expectedOpenApi(row);
      if ('ref' in expected) expect(schema, row.url).toEqual({ $ref: `#/components/schemas/${expected.ref}` });
      else expect(schema, row.url).toEqual({ type: 'array', items: { $ref: `#/components/schemas/${expected.arrayOf}` } });
    }
  });

  it('resolves every $ref to something in the document', () => {
    const refs: string[] = [];
    const visit = (v: unknown) => {
      if (Array.isArray(v)) v.forEach(visit);
      else if (v && typeof v === 'object') {
        for (const [k, x] of Object.entries(v)) {
          if (k === '$ref') refs.push(String(x));
          else visit(x);
        }
      }
    };
    visit(doc);
    expect(refs.length).toBeGreaterThan(20);
    const unresolved = [...new Set(refs)].filter((ref) => {
      if (!ref.startsWith('#/')) return true;
      let at: unknown = doc;
      for (const part of ref.slice(2).split('/')) {
        const key = decodeURIComponent(part).replaceAll('~1', '/').replaceAll('~0', '~');
        if (!at || typeof at !== 'object' || !(key in at)) return true;
        at = (at as Record<string, unknown>)[key];
      }
      return at === undefined;
    });
    expect(unresolved).toEqual([]);
    // Every component ref points into components.schemas, and every page envelope is there.
    for (const name of ['ErrorBody', 'Pagination', 'PublicRafflePage', 'SanitizedEntryPage', 'WinPage', 'WorkspaceRafflePage', 'WorkspaceEntryPage', 'ProjectPage', 'DrawProof', 'Allowlist', 'AllowlistLeafPage', 'AllowlistProof']) {
      expect(doc.components.schemas, name).toHaveProperty(name);
    }
  });

  it('validates real 200 responses with its own schemas (what a client generated from it would accept)', async () => {
    const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (a: Ajv2020) => Ajv2020;
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    const base = 'https://openapi.test/data-plane.json';
    ajv.addSchema({ $id: base, components: doc.components });
    const rebase = (schema: unknown): unknown => JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', `"${base}#/components/`));
    for (const row of app.routeAccessTable) {
      const schema = operation(row)!.responses![String(successStatus(row))]!.content!['application/json']!.schema!;
      const validate = ajv.compile(rebase(schema) as object);
      const bodies = isRead(row)
        ? await Promise.all(CASES[row.url]!.urls().map((url) => get200(url, row.access.keyType)))
        : [await MUTATIONS[`${row.method} ${row.url}`]!.run()];
      for (const body of bodies) {
        expect(validate(body) ? [] : describeErrors(validate.errors, body), `${row.method} ${row.url} against /openapi.json`).toEqual([]);
      }
    }
  });

  it('documents the entry request: an empty body (which the route also accepts omitted) and the optional Idempotency-Key header', () => {
    const enter = operation({ method: 'POST', url: '/api/v1/raffles/:slug/entries' }) as Record<string, unknown> & {
      parameters?: Array<{ in: string; name: string; required?: boolean; schema?: Record<string, unknown> }>;
      requestBody?: { required?: boolean; content?: Record<string, { schema?: Record<string, unknown> }> };
    };
    const header = enter.parameters?.find((p) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key');
    expect(header, 'Idempotency-Key is a documented header').toBeDefined();
    expect(header!.required ?? false).toBe(false);
    expect(header!.schema).toMatchObject({ type: 'string', minLength: 1, maxLength: 255 });
    expect(enter.requestBody?.content?.['application/json']?.schema).toMatchObject({ type: 'object', additionalProperties: false, maxProperties: 0 });
    const withdraw = operation({ method: 'DELETE', url: '/api/v1/raffles/:slug/entries/me' }) as Record<string, unknown>;
    expect(withdraw).not.toHaveProperty('requestBody');
  });
});
