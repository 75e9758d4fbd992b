import { RAFFLE_ACTIONS } from '@raffle/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManagementApp } from '../src/app.js';
import { buildTestApp } from './support/app.js';
import { expectManagementError, expectSchema } from './support/contract.js';
import { ACTIONS, as, dashboardRaffles, uniqueSlug, type Action, type DashboardRaffles, type Mechanic, type Raffle } from './support/dashboard-raffles.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { seedTenant, type Tenant } from './support/tenant.js';

let testDb: TestDatabase;
let app: ManagementApp;
let tenant: Tenant;
let api: DashboardRaffles;

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await buildTestApp(testDb.database, testDb.url);
  tenant = await seedTenant(testDb.database);
  api = dashboardRaffles(app, testDb.database, tenant.workspace.id, tenant.owner.id);
});

afterAll(async () => {
  await app?.close();
  await testDb?.drop();
});

const UNKNOWN_RAFFLE = 'raf_01JZZZZZZZZZZZZZZZZZZZZZZZ';
const UNKNOWN_WORKSPACE = 'wks_01JZZZZZZZZZZZZZZZZZZZZZZZ';
const future = (ms: number) => new Date(Date.now() + ms).toISOString();

/** Every action the raffle's status does not allow answers 409 with the action's code leading the message, and changes nothing. */
async function expectOnlyAllowedActions(raffle: Raffle) {
  for (const action of ACTIONS) {
    if ((RAFFLE_ACTIONS[action].from as readonly string[]).includes(raffle.status)) continue;
    const res = await api.act(raffle.id, action);
    const body = expectManagementError(res, 409);
    expect(body.message).toMatch(new RegExp(`^${RAFFLE_ACTIONS[action].code}: `));
  }
  const after = await app.inject({ method: 'GET', url: api.raffleUrl(raffle.id), headers: as(tenant.owner.id) });
  expect((after.json() as Raffle).status).toBe(raffle.status);
}

describe('the lifecycle through HTTP', () => {
  const drawBody = async (mechanic: Mechanic, raffleId: string) => {
    if (mechanic !== 'application') return undefined;
    const entries = await api.entries(raffleId);
    return { entryIds: entries.data.slice(0, 2).reverse().map((e) => e.id) };
  };

  for (const mechanic of ['raffle', 'fcfs', 'collection', 'application'] as const) {
    it(`a ${mechanic} raffle: draft → open → closed → drawn → finalized, refusing every other move on the way`, async () => {
      const draft = await api.draft({ mechanic, spots: 2, description: 'Win a spot', requirements: [], settings: { excludeFlaggedDuplicates: false } });
      expect(draft).toMatchObject({ status: 'draft', mechanic, spots: 2, publishedAt: null, drawCommitment: null, settings: { autoDraw: false, autoFinalize: false } });
      await expectOnlyAllowedActions(draft);

      const opened = await api.ok(draft.id, 'publish');
      expect(opened.status).toBe('open');
      expect(opened.publishedAt).toEqual(opened.openedAt);
      expect(opened.drawCommitment).toMatch(/^[0-9a-f]{64}$/);
      await expectOnlyAllowedActions(opened);

      // Two spots: FCFS hands out both on arrival and closes itself on the second; a collection
      // raffle stays open but takes no more valid entries than it has spots.
      const entrants = await api.entrants(opened.slug, mechanic === 'fcfs' || mechanic === 'collection' ? 2 : 3);
      if (mechanic === 'collection') {
        const late = await api.enter(opened.slug, (await api.user()).id);
        expect(expectManagementError(late, 409).message).toMatch(/^RAFFLE_FULL: /);
      }
      let closed: Raffle;
      if (mechanic === 'fcfs') {
        // The last spot closed it; a latecomer is told it is full.
        const late = await api.enter(opened.slug, (await api.user()).id);
        expect(expectManagementError(late, 409).message).toMatch(/^RAFFLE_FULL: /);
        closed = (await app.inject({ method: 'GET', url: api.raffleUrl(opened.id), headers: as(tenant.owner.id) })).json() as Raffle;
        expect(closed.status).toBe('closed');
        expect((await api.wins(opened.id)).map((w) => [w.position, w.entryId])).toEqual(entrants.map((e, i) => [i + 1, e.entryId]));
      } else {
        closed = await api.ok(opened.id, 'close');
        expect(closed.closedAt).not.toBeNull();
      }
      await expectOnlyAllowedActions(closed);

      const drawn = await api.ok(closed.id, 'draw', await drawBody(mechanic, closed.id));
      expect(drawn.status).toBe('drawn');
      expect(drawn.drawnAt).not.toBeNull();
      expect(drawn.entriesDigest === null).toBe(mechanic !== 'raffle');
      await expectOnlyAllowedActions(drawn);
      const selected = await api.wins(drawn.id);
      expect(selected.map((w) => w.position)).toEqual([1, 2]);
      expect(selected.every((w) => w.status === 'selected' && w.finalizedAt === undefined)).toBe(true);
      if (mechanic === 'application') {
        const picks = (await drawBody(mechanic, drawn.id))!.entryIds;
        expect(selected.map((w) => [w.entryId, w.source])).toEqual(picks.map((id) => [id, 'manual']));
      }

      const finalized = await api.ok(drawn.id, 'finalize');
      expect(finalized.status).toBe('finalized');
      expect(finalized.finalizedAt).not.toBeNull();
      await expectOnlyAllowedActions(finalized);
      const wins = await api.wins(finalized.id);
      expect(wins.every((w) => w.status === 'finalized' && typeof w.finalizedAt === 'string')).toBe(true);
      expect(new Set(wins.map((w) => w.userId)).size).toBe(2);
    });
  }

  it('a raffle with a future startsAt is scheduled, opens by hand, and can be cancelled', async () => {
    const scheduled = await api.ok((await api.draft({ startsAt: future(3_600_000), endsAt: future(7_200_000) })).id, 'publish');
    expect(scheduled).toMatchObject({ status: 'scheduled', openedAt: null });
    await expectOnlyAllowedActions(scheduled);
    const opened = await api.ok(scheduled.id, 'open');
    expect(opened.status).toBe('open');
    const cancelled = await api.ok(opened.id, 'cancel');
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.cancelledAt).not.toBeNull();
    await expectOnlyAllowedActions(cancelled);
    const drafts = await api.draft();
    expect((await api.ok(drafts.id, 'cancel')).status).toBe('cancelled');
  });

  it('cancelling an FCFS raffle disqualifies the wins it already handed out', async () => {
    const raffle = await api.open({ mechanic: 'fcfs', spots: 5 });
    await api.entrants(raffle.slug, 2);
    await api.ok(raffle.id, 'cancel');
    expect((await api.wins(raffle.id)).map((w) => [w.status, w.deliveryStatus])).toEqual([
      ['disqualified', 'not_applicable'],
      ['disqualified', 'not_applicable'],
    ]);
  });

  it('accepts `{}` as well as no body on actions, and refuses anything else in it', async () => {
    const draft = await api.draft();
    expectManagementError(await api.act(draft.id, 'publish', { now: true }), 400);
    expect((await api.ok(draft.id, 'publish', {})).status).toBe('open');
    expectManagementError(await api.act(draft.id, 'close', { reason: 'x' }), 400);
    const closed = await api.ok(draft.id, 'close');
    expectManagementError(await api.act(closed.id, 'draw', { entryIds: [] }), 400);
    expectManagementError(await api.act(closed.id, 'draw', { seed: 'mine' }), 400);
  });

  it('draw: an application raffle needs entryIds, the others refuse them (400)', async () => {
    const application = await api.open({ mechanic: 'application' });
    const [entrant] = await api.entrants(application.slug, 1);
    await api.ok(application.id, 'close');
    expect(expectManagementError(await api.act(application.id, 'draw'), 400).message).toMatch(/^VALIDATION_FAILED: /);
    expect(expectManagementError(await api.act(application.id, 'draw', { entryIds: ['ent_01JZZZZZZZZZZZZZZZZZZZZZZZ'] }), 400).message).toMatch(/^VALIDATION_FAILED: /);
    expect(expectManagementError(await api.act(application.id, 'draw', { entryIds: [entrant!.entryId, entrant!.entryId] }), 400).message).toMatch(/repeat/);
    expect((await api.ok(application.id, 'draw', { entryIds: [entrant!.entryId] })).status).toBe('drawn');

    const weighted = await api.open();
    const [other] = await api.entrants(weighted.slug, 1);
    await api.ok(weighted.id, 'close');
    expect(expectManagementError(await api.act(weighted.id, 'draw', { entryIds: [other!.entryId] }), 400).message).toMatch(/^VALIDATION_FAILED: /);
  });

  it('publishing after endsAt has passed is 409 RAFFLE_CANNOT_PUBLISH', async () => {
    const draft = await api.draft({ endsAt: new Date(Date.now() - 1000).toISOString() });
    expect(expectManagementError(await api.act(draft.id, 'publish'), 409).message).toMatch(/^RAFFLE_CANNOT_PUBLISH: /);
  });
});

describe('create and update', () => {
  it('creates a draft with every field and reads it back', async () => {
    const body = {
      slug: uniqueSlug('full'),
      title: 'Full raffle',
      mechanic: 'raffle',
      allocationType: 'airdrop',
      visibility: 'private',
      spots: 25,
      description: 'All the fields',
      chain: 'ethereum',
      allowAutoEntry: true,
      requirements: [
        { id: 'wallet', type: 'wallet_connected', label: 'An Ethereum wallet', params: { chain: 'ethereum' } },
        { id: 'age', type: 'account_age_days', label: 'Older than a week', params: { min: 7, optional: true, multiplier: 2 } },
      ],
      settings: { autoDraw: true, autoFinalize: true, excludeFlaggedDuplicates: true },
      startsAt: future(3_600_000),
      endsAt: future(7_200_000),
    };
    const res = await api.create(body);
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json() as Raffle;
    expectSchema('DashboardRaffle', created);
    expect(created).toMatchObject({ ...body, status: 'draft', canonicalProject: null, drawnAt: null, cancelledAt: null, entriesDigest: null });
    const got = await app.inject({ method: 'GET', url: api.raffleUrl(created.id), headers: as(tenant.member.id) });
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual(created);
  });

  it('generates the id of a requirement sent without one (<type>-<n>, unique in the list), at create and update, keeping given ids', async () => {
    const res = await api.create({
      requirements: [
        { type: 'email_verified', label: 'A verified email' },
        { id: 'email_verified-1', type: 'workspace_member', label: 'A member', params: {} },
        { type: 'email_verified', label: 'Another verified email', params: {} },
      ],
    });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json() as Raffle;
    expectSchema('DashboardRaffle', created);
    expect(created.requirements).toEqual([
      { id: 'email_verified-2', type: 'email_verified', label: 'A verified email', params: {} },
      { id: 'email_verified-1', type: 'workspace_member', label: 'A member', params: {} },
      { id: 'email_verified-3', type: 'email_verified', label: 'Another verified email', params: {} },
    ]);
    const edited = await app.inject({
      method: 'PATCH',
      url: api.raffleUrl(created.id),
      headers: as(tenant.admin.id),
      payload: { requirements: [{ type: 'wallet_connected', label: 'A wallet', params: { chain: 'ethereum' } }] },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect((edited.json() as Raffle).requirements).toEqual([{ id: 'wallet_connected-1', type: 'wallet_connected', label: 'A wallet', params: { chain: 'ethereum' } }]);
  });

  it('updates a draft, then only what each status still allows', async () => {
    const draft = await api.draft();
    const patch = (raffleId: string, payload: Record<string, unknown>) =>
      app.inject({ method: 'PATCH', url: api.raffleUrl(raffleId), headers: as(tenant.admin.id), payload });
    const edited = await patch(draft.id, { title: 'Renamed', spots: 9, mechanic: 'collection', slug: uniqueSlug('renamed') });
    expect(edited.statusCode, edited.body).toBe(200);
    expectSchema('DashboardRaffle', edited.json());
    expect(edited.json()).toMatchObject({ title: 'Renamed', spots: 9, mechanic: 'collection' });

    await api.ok(draft.id, 'publish');
    expect(expectManagementError(await patch(draft.id, { spots: 1 }), 409).message).toMatch(/^RAFFLE_CANNOT_UPDATE: spots/);
    expect((await patch(draft.id, { title: 'Still editable', settings: { autoFinalize: true } })).json()).toMatchObject({
      title: 'Still editable',
      settings: { autoDraw: false, autoFinalize: true, excludeFlaggedDuplicates: false },
    });
    expect(expectManagementError(await patch(draft.id, { endsAt: new Date(Date.now() - 60_000).toISOString() }), 400).message).toMatch(/^VALIDATION_FAILED: /);
    await api.ok(draft.id, 'close');
    expect(expectManagementError(await patch(draft.id, { title: 'Too late' }), 409).message).toMatch(/^RAFFLE_CANNOT_UPDATE: /);
  });

  it('a taken slug is 409 SLUG_TAKEN', async () => {
    const first = await api.draft();
    expect(expectManagementError(await api.create({ slug: first.slug }), 409).message).toMatch(/^SLUG_TAKEN: /);
    const second = await api.draft();
    const res = await app.inject({ method: 'PATCH', url: api.raffleUrl(second.id), headers: as(tenant.owner.id), payload: { slug: first.slug } });
    expect(expectManagementError(res, 409).message).toMatch(/^SLUG_TAKEN: /);
  });

  it("does not reveal another workspace's draft by its slug; the first to publish a slug keeps it", async () => {
    const other = await seedTenant(testDb.database);
    const theirs = dashboardRaffles(app, testDb.database, other.workspace.id, other.owner.id);
    const hidden = await theirs.draft();

    // Answered as for a slug nobody uses: the outsider learns nothing of the draft.
    const mine = await api.draft({ slug: hidden.slug });
    const published = await api.ok(mine.id, 'publish');

    // Addressed by slug, the published raffle is the one: entering lands on it.
    const [entrant] = await api.entrants(hidden.slug, 1);
    expect((await api.entries(published.id)).data.map((e) => e.id)).toEqual([entrant!.entryId]);

    // The other workspace may keep its draft but cannot publish it under the published slug.
    const refused = await theirs.act(hidden.id, 'publish');
    expect(expectManagementError(refused, 409).message).toMatch(/^SLUG_TAKEN: /);
    const still = await app.inject({ method: 'GET', url: theirs.raffleUrl(hidden.id), headers: as(other.owner.id) });
    expect(still.json()).toMatchObject({ status: 'draft', publishedAt: null });
    const renamed = await app.inject({ method: 'PATCH', url: theirs.raffleUrl(hidden.id), headers: as(other.owner.id), payload: { slug: uniqueSlug() } });
    expect(renamed.statusCode, renamed.body).toBe(200);
    await theirs.ok(hidden.id, 'publish');

    // Nor may a new draft elsewhere be published under it.
    const late = await theirs.draft({ slug: hidden.slug });
    expect(expectManagementError(await theirs.act(late.id, 'publish'), 409).message).toMatch(/^SLUG_TAKEN: /);
  });

  it("names a project of the workspace as canonical, and refuses another workspace's", async () => {
    const mine = await app.inject({
      method: 'POST',
      url: `/api/dashboard/workspaces/${tenant.workspace.id}/projects`,
      headers: as(tenant.owner.id),
      payload: { slug: uniqueSlug('proj'), name: 'Project' },
    });
    expect(mine.statusCode, mine.body).toBe(201);
    const theirs = await app.inject({
      method: 'POST',
      url: `/api/dashboard/workspaces/${tenant.otherWorkspace.id}/projects`,
      headers: as(tenant.outsider.id),
      payload: { slug: uniqueSlug('proj'), name: 'Theirs' },
    });
    const created = await api.draft({ canonicalProjectId: (mine.json() as { id: string }).id });
    expect(created.canonicalProject).toMatchObject({ id: (mine.json() as { id: string }).id, name: 'Project' });
    const refused = await api.create({ canonicalProjectId: (theirs.json() as { id: string }).id });
    expect(expectManagementError(refused, 400).message).toMatch(/^VALIDATION_FAILED: canonicalProjectId/);
  });

  const invalid: Array<[string, Record<string, unknown>]> = [
    ['an extra field', { status: 'open' }],
    ['an uppercase slug', { slug: 'Bad-Slug' }],
    ['a two-character slug', { slug: 'ab' }],
    ['a slug with a trailing hyphen', { slug: 'bad-' }],
    ['a slug with an underscore', { slug: 'bad_slug' }],
    ['an unknown mechanic', { mechanic: 'lottery' }],
    ['zero spots', { spots: 0 }],
    ['fractional spots', { spots: 1.5 }],
    ['spots as a string', { spots: '2' }],
    ['an empty title', { title: '' }],
    ['a date-only startsAt', { startsAt: '2031-01-01' }],
    ['an unknown setting', { settings: { autoReroll: true } }],
    ['an empty canonicalProjectId (it passed the project check and broke the foreign key: a 500)', { canonicalProjectId: '' }],
    ['an unknown requirement type', { requirements: [{ id: 'x', type: 'holds_nft', label: 'NFT', params: {} }] }],
    ['a requirement with an extra field', { requirements: [{ id: 'x', type: 'email_verified', label: 'Email', params: {}, weight: 2 }] }],
  ];
  for (const [name, body] of invalid) {
    it(`refuses to create with ${name} (400)`, async () => {
      expectManagementError(await api.create(body), 400);
    });
  }

  const refusedByRules: Array<[string, Record<string, unknown>, RegExp]> = [
    ['endsAt before startsAt', { startsAt: future(7_200_000), endsAt: future(3_600_000) }, /endsAt must be after startsAt/],
    ['endsAt equal to startsAt', { startsAt: '2031-01-01T00:00:00Z', endsAt: '2031-01-01T00:00:00Z' }, /endsAt must be after startsAt/],
    ['wallet_connected without a chain', { requirements: [{ id: 'w', type: 'wallet_connected', label: 'Wallet', params: {} }] }, /requirements\[0\]/],
    ['account_age_days with a negative min', { requirements: [{ id: 'a', type: 'account_age_days', label: 'Age', params: { min: -1 } }] }, /requirements\[0\]/],
    ['a multiplier on a required requirement', { requirements: [{ id: 'e', type: 'email_verified', label: 'Email', params: { multiplier: 2 } }] }, /multiplier/],
    ['repeated requirement ids', { requirements: [{ id: 'e', type: 'email_verified', label: 'A', params: {} }, { id: 'e', type: 'workspace_member', label: 'B', params: {} }] }, /repeats/],
    ['autoDraw on an application raffle', { mechanic: 'application', settings: { autoDraw: true } }, /autoDraw/],
  ];
  for (const [name, body, message] of refusedByRules) {
    it(`refuses to create with ${name} (400 VALIDATION_FAILED)`, async () => {
      const error = expectManagementError(await api.create(body), 400);
      expect(error.message).toMatch(/^VALIDATION_FAILED: /);
      expect(error.message).toMatch(message);
    });
  }

  it('refuses an empty PATCH, an unknown field and a bad value (400)', async () => {
    const draft = await api.draft();
    for (const payload of [{}, { status: 'open' }, { spots: -1 }, { visibility: 'secret' }, { canonicalProjectId: '' }]) {
      expectManagementError(await app.inject({ method: 'PATCH', url: api.raffleUrl(draft.id), headers: as(tenant.owner.id), payload }), 400);
    }
  });
});

describe('access', () => {
  it('401 on every raffle route without a session token', async () => {
    const routes = app.managedRoutes.filter((r) => r.url.startsWith('/api/dashboard/workspaces/:workspaceId/raffles') || r.url.startsWith('/api/dashboard/raffles/'));
    // 19, plus the allowlist and its leaves, plus the two CSV exports (issue 35).
    expect(routes).toHaveLength(23);
    for (const route of routes) {
      const res = await app.inject({ method: route.method as 'GET', url: route.url.replace(':workspaceId', tenant.workspace.id), ...(['POST', 'PATCH'].includes(route.method) ? { payload: {} } : {}) });
      expectManagementError(res, 401);
    }
  });

  it('403 on every workspace raffle route for outsiders and unknown workspaces, before the body is read', async () => {
    const raffle = await api.open();
    const routes = app.managedRoutes.filter((r) => r.url.startsWith('/api/dashboard/workspaces/:workspaceId/raffles'));
    const cases: Array<[string, string]> = [
      [tenant.outsider.id, tenant.workspace.id],
      [tenant.owner.id, UNKNOWN_WORKSPACE],
      [tenant.owner.id, 'not-a-workspace'],
    ];
    for (const [userId, workspaceId] of cases) {
      for (const route of routes) {
        const url = route.url.replace(':workspaceId', workspaceId).replace(':raffleId', raffle.id);
        const res = await app.inject({ method: route.method as 'GET', url, headers: as(userId), ...(['POST', 'PATCH'].includes(route.method) ? { payload: { nope: 1 } } : {}) });
        expectManagementError(res, 403);
      }
    }
  });

  it('plain members read but get 403 on every write; admins write', async () => {
    const raffle = await api.open();
    const routes = app.managedRoutes.filter((r) => r.url.startsWith('/api/dashboard/workspaces/:workspaceId/raffles'));
    for (const route of routes) {
      const url = route.url.replace(':workspaceId', tenant.workspace.id).replace(':raffleId', raffle.id);
      const res = await app.inject({ method: route.method as 'GET', url, headers: as(tenant.member.id), ...(['POST', 'PATCH'].includes(route.method) ? { payload: {} } : {}) });
      // An open raffle has no allowlist version yet: its leaves are a 409 to anyone who may read them.
      const readable = url.endsWith('/allowlist/leaves') ? 409 : 200;
      if (route.method === 'GET' && !url.includes(':')) expect(res.statusCode, `${route.method} ${url}`).toBe(readable);
      else if (route.method !== 'GET') expectManagementError(res, 403);
    }
    const created = await api.create({}, tenant.admin.id);
    expect(created.statusCode, created.body).toBe(201);
  });

  it('404 for unknown raffles, entries and wins, and for a raffle of another workspace', async () => {
    const theirs = dashboardRaffles(app, testDb.database, tenant.otherWorkspace.id, tenant.outsider.id);
    const foreign = await theirs.open();
    for (const raffleId of [UNKNOWN_RAFFLE, 'nope', foreign.id]) {
      const url = api.raffleUrl(raffleId);
      expect(expectManagementError(await app.inject({ method: 'GET', url, headers: as(tenant.owner.id) }), 404).message).toMatch(/^RAFFLE_NOT_FOUND: /);
      expectManagementError(await app.inject({ method: 'PATCH', url, headers: as(tenant.owner.id), payload: { title: 'x' } }), 404);
      for (const action of ACTIONS) expectManagementError(await api.act(raffleId, action), 404);
      expectManagementError(await app.inject({ method: 'GET', url: `${url}/entries`, headers: as(tenant.owner.id) }), 404);
      expectManagementError(await app.inject({ method: 'GET', url: `${url}/wins`, headers: as(tenant.owner.id) }), 404);
    }
    const mine = await api.open({ mechanic: 'fcfs' });
    const [entrant] = await api.entrants(mine.slug, 1);
    const [win] = await api.wins(mine.id);
    const foreignEntrant = (await theirs.entrants(foreign.slug, 1))[0]!;
    for (const entryId of ['ent_01JZZZZZZZZZZZZZZZZZZZZZZZ', 'nope', foreignEntrant.entryId]) {
      const res = await app.inject({ method: 'POST', url: `${api.raffleUrl(mine.id)}/entries/${entryId}/disqualify`, headers: as(tenant.owner.id), payload: { reason: 'x' } });
      expect(expectManagementError(res, 404).message).toMatch(/^ENTRY_NOT_FOUND: /);
    }
    for (const winId of ['win_01JZZZZZZZZZZZZZZZZZZZZZZZ', 'nope']) {
      const winUrl = `${api.raffleUrl(mine.id)}/wins/${winId}`;
      expect(expectManagementError(await app.inject({ method: 'POST', url: `${winUrl}/disqualify`, headers: as(tenant.owner.id), payload: { reason: 'x' } }), 404).message).toMatch(/^WIN_NOT_FOUND: /);
      expectManagementError(await app.inject({ method: 'POST', url: `${winUrl}/reroll`, headers: as(tenant.owner.id) }), 404);
      expectManagementError(await app.inject({ method: 'PATCH', url: `${winUrl}/delivery`, headers: as(tenant.owner.id), payload: { deliveryStatus: 'processing' } }), 404);
    }
    // A real win addressed through another raffle of the workspace is not found either.
    const other = await api.open();
    expectManagementError(await app.inject({ method: 'POST', url: `${api.raffleUrl(other.id)}/wins/${win!.id}/disqualify`, headers: as(tenant.owner.id), payload: { reason: 'x' } }), 404);
    expectManagementError(await app.inject({ method: 'POST', url: `${api.raffleUrl(other.id)}/entries/${entrant!.entryId}/disqualify`, headers: as(tenant.owner.id), payload: { reason: 'x' } }), 404);
  });
});

describe('lists', () => {
  it('walks the raffle list newest first with an opaque cursor', async () => {
    const fresh = await seedTenant(testDb.database);
    const theirs = dashboardRaffles(app, testDb.database, fresh.workspace.id, fresh.owner.id);
    const created: Raffle[] = [];
    for (let i = 0; i < 7; i++) created.push(await theirs.draft({ title: `Raffle ${i}` }));
    await theirs.ok(created[2]!.id, 'publish');
    const walked = await theirs.walk<Raffle>(theirs.base(), 3, 'DashboardRafflePage');
    expect(walked.map((r) => r.id)).toEqual(created.map((r) => r.id).reverse());
    expect(walked.find((r) => r.id === created[2]!.id)!.status).toBe('open');
    const all = await app.inject({ method: 'GET', url: theirs.base(), headers: as(fresh.member.id) });
    expect(all.statusCode).toBe(200);
    expect((all.json() as { data: unknown[] }).data).toHaveLength(7);
    expectSchema('DashboardRafflePage', all.json());
  });

  it('refuses a bad limit, a bad cursor, a cursor of another list and an unknown parameter (400)', async () => {
    const raffle = await api.open();
    await api.entrants(raffle.slug, 3);
    const entriesUrl = `${api.raffleUrl(raffle.id)}/entries`;
    const first = await api.entries(raffle.id, '?limit=1');
    const entryCursor = encodeURIComponent(first.pagination.nextCursor!);
    const raffleCursor = (await app.inject({ method: 'GET', url: `${api.base()}?limit=1`, headers: as(tenant.owner.id) })).json() as { pagination: { nextCursor: string } };
    // A well-formed cursor whose key was edited (skip ahead to another entry id) fails its signature.
    const [payload, signature] = first.pagination.nextCursor!.split('.');
    const editedKey = Buffer.from(JSON.stringify([first.data[0]!.id.replace(/.$/, (c) => (c === 'Z' ? 'Y' : 'Z'))])).toString('base64url');
    expect(Buffer.from(payload!, 'base64url').toString()).toContain('ent_');
    const bad = [
      `${entriesUrl}?cursor=${editedKey}.${signature}`,
      `${api.base()}?limit=0`,
      `${api.base()}?limit=101`,
      `${api.base()}?limit=abc`,
      `${api.base()}?limit=1.5`,
      `${api.base()}?cursor=garbage`,
      `${api.base()}?cursor=${entryCursor}`,
      `${api.base()}?order=asc`,
      `${entriesUrl}?limit=251`,
      `${entriesUrl}?limit=0`,
      `${entriesUrl}?status=won`,
      `${entriesUrl}?cursor=${encodeURIComponent(raffleCursor.pagination.nextCursor)}`,
      // A cursor is bound to its filter: the unfiltered list's cursor cannot continue the valid-only one.
      `${entriesUrl}?status=valid&cursor=${entryCursor}`,
      `${api.raffleUrl(raffle.id)}/wins?cursor=${entryCursor}`,
      `${api.raffleUrl(raffle.id)}/wins?limit=300`,
    ];
    for (const url of bad) {
      const body = expectManagementError(await app.inject({ method: 'GET', url, headers: as(tenant.owner.id) }), 400);
      if (url.includes('cursor=')) expect(body.message, url).toMatch(/^INVALID_CURSOR: /);
      if (url.includes('limit=')) expect(String(body.message), url).toMatch(/^INVALID_LIMIT: /);
    }
    expect((await api.entries(raffle.id, '?limit=250')).data).toHaveLength(3);
  });

  it('walks entries in arrival order, filtered by status', async () => {
    const raffle = await api.open({ spots: 10 });
    const entrants = await api.entrants(raffle.slug, 5);
    const walked = await api.walk<{ id: string; source: string }>(`${api.raffleUrl(raffle.id)}/entries`, 2, 'DashboardEntryPage');
    expect(walked.map((e) => e.id)).toEqual(entrants.map((e) => e.entryId));
    expect(walked.every((e) => e.source === 'web')).toBe(true);

    const res = await app.inject({
      method: 'POST',
      url: `${api.raffleUrl(raffle.id)}/entries/${entrants[1]!.entryId}/disqualify`,
      headers: as(tenant.admin.id),
      payload: { reason: 'Bot' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expectSchema('WorkspaceEntry', res.json());
    expect(res.json()).toMatchObject({ id: entrants[1]!.entryId, status: 'disqualified', statusReason: 'Bot' });
    expect((await api.entries(raffle.id, '?status=disqualified')).data.map((e) => e.id)).toEqual([entrants[1]!.entryId]);
    const valid = await api.walk<{ id: string }>(`${api.raffleUrl(raffle.id)}/entries`, 2, 'DashboardEntryPage', '&status=valid');
    expect(valid.map((e) => e.id)).toEqual(entrants.filter((_, i) => i !== 1).map((e) => e.entryId));
    expect((await api.entries(raffle.id, '?status=withdrawn')).data).toEqual([]);
  });
});
