import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from './support/app.js';
import { expectManagementError, expectSchema } from './support/contract.js';
import { as, dashboardRaffles, type DashboardRaffles, type Win } from './support/dashboard-raffles.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { seedTenant, type Tenant } from './support/tenant.js';

let testDb: TestDatabase;
let app: FastifyInstance;
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

const winUrl = (raffleId: string, winId: string) => `${api.raffleUrl(raffleId)}/wins/${winId}`;

function disqualifyWin(raffleId: string, winId: string, reason = 'Broke the rules') {
  return app.inject({ method: 'POST', url: `${winUrl(raffleId, winId)}/disqualify`, headers: as(tenant.owner.id), payload: { reason } });
}

function reroll(raffleId: string, winId: string, payload?: Record<string, unknown>) {
  return app.inject({ method: 'POST', url: `${winUrl(raffleId, winId)}/reroll`, headers: as(tenant.owner.id), ...(payload ? { payload } : {}) });
}

function delivery(raffleId: string, winId: string, payload: Record<string, unknown>) {
  return app.inject({ method: 'PATCH', url: `${winUrl(raffleId, winId)}/delivery`, headers: as(tenant.admin.id), payload });
}

/** A drawn collection raffle whose `entrants` entrants all won, at positions in arrival order. */
async function drawnCollection(entrants: number) {
  const raffle = await api.open({ mechanic: 'collection', spots: entrants });
  const entered = await api.entrants(raffle.slug, entrants);
  await api.ok(raffle.id, 'close');
  return { raffle: await api.ok(raffle.id, 'draw'), entered };
}

describe('disqualifying entries and wins, rerolling', () => {
  it("disqualifying a winning entry disqualifies its win; a reroll gives the position to the next entry", async () => {
    const raffle = await api.open({ mechanic: 'collection', spots: 3 });
    const entered = await api.entrants(raffle.slug, 3);
    await api.ok(raffle.id, 'close');
    const drawn = await api.ok(raffle.id, 'draw');
    const wins = await api.wins(drawn.id);
    expect(wins.map((w) => [w.position, w.entryId, w.status, w.source])).toEqual(entered.map((e, i) => [i + 1, e.entryId, 'selected', 'fcfs']));

    const disqualified = await app.inject({
      method: 'POST',
      url: `${api.raffleUrl(raffle.id)}/entries/${entered[0]!.entryId}/disqualify`,
      headers: as(tenant.owner.id),
      payload: { reason: 'Multiple accounts' },
    });
    expect(disqualified.statusCode, disqualified.body).toBe(200);
    expectSchema('WorkspaceEntry', disqualified.json());
    expect(disqualified.json()).toMatchObject({ status: 'disqualified', statusReason: 'Multiple accounts' });
    const [first] = await api.wins(raffle.id, '?status=disqualified');
    expect(first).toMatchObject({ id: wins[0]!.id, position: 1, status: 'disqualified', deliveryStatus: 'not_applicable', deliveryNote: 'Multiple accounts' });
    expect(typeof first!.disqualifiedAt).toBe('string');

    // Nobody is left who never won: the position stays free.
    expect(expectManagementError(await reroll(raffle.id, wins[0]!.id), 409).message).toMatch(/^NO_ELIGIBLE_ENTRIES: /);
    // Disqualifying it again, or the entry again, is a conflict.
    expect(expectManagementError(await disqualifyWin(raffle.id, wins[0]!.id), 409).message).toMatch(/^WIN_CANNOT_DISQUALIFY: /);
    const again = await app.inject({ method: 'POST', url: `${api.raffleUrl(raffle.id)}/entries/${entered[0]!.entryId}/disqualify`, headers: as(tenant.owner.id), payload: { reason: 'x' } });
    expect(expectManagementError(again, 409).message).toMatch(/^ENTRY_CANNOT_DISQUALIFY: /);
  });

  it('reroll: a replacement at the same position, the old win replaced; only disqualified wins reroll', async () => {
    // Four entrants, two spots: the weighted draw leaves two entries to reroll to.
    const raffle = await api.open({ spots: 2 });
    const entered = await api.entrants(raffle.slug, 4);
    await api.ok(raffle.id, 'close');
    await api.ok(raffle.id, 'draw');
    const [winA, winB] = await api.wins(raffle.id);
    expect(expectManagementError(await reroll(raffle.id, winA!.id), 409).message).toMatch(/^WIN_CANNOT_REROLL: /);

    const res = await disqualifyWin(raffle.id, winB!.id);
    expect(res.statusCode, res.body).toBe(200);
    expectSchema('DashboardWin', res.json());
    expect(res.json()).toMatchObject({ id: winB!.id, status: 'disqualified', position: winB!.position });

    expectManagementError(await reroll(raffle.id, winB!.id, { entryId: entered[0]!.entryId }), 400);
    const rerolled = await reroll(raffle.id, winB!.id);
    expect(rerolled.statusCode, rerolled.body).toBe(200);
    expectSchema('RerolledWin', rerolled.json());
    const { replaced, replacement } = rerolled.json() as { replaced: Win; replacement: Win };
    expect(replaced).toMatchObject({ id: winB!.id, status: 'replaced', position: winB!.position });
    expect(typeof replaced.replacedAt).toBe('string');
    expect(replacement).toMatchObject({ status: 'selected', source: 'reroll', position: winB!.position });
    expect([winA!.entryId, winB!.entryId]).not.toContain(replacement.entryId);
    expect(entered.map((e) => e.entryId)).toContain(replacement.entryId);

    // The replaced win cannot be rerolled twice; every win stays listed, by position then id.
    expect(expectManagementError(await reroll(raffle.id, winB!.id), 409).message).toMatch(/^WIN_CANNOT_REROLL: /);
    const all = await api.wins(raffle.id);
    expect(all).toHaveLength(3);
    expect(all.map((w) => w.position)).toEqual([...all.map((w) => w.position)].sort((a, b) => a - b));
    expect(all.filter((w) => w.position === winB!.position).map((w) => w.status).sort()).toEqual(['replaced', 'selected']);

    // After finalize, a reroll's replacement is final at once.
    await api.ok(raffle.id, 'finalize');
    const finalized = await api.wins(raffle.id, '?status=finalized');
    expect(finalized).toHaveLength(2);
    await disqualifyWin(raffle.id, replacement.id);
    const second = (await reroll(raffle.id, replacement.id, {})).json() as { replacement: Win };
    expect(second.replacement).toMatchObject({ status: 'finalized', position: winB!.position });
  });

  it('an application raffle rerolls to the entry the team names', async () => {
    const raffle = await api.open({ mechanic: 'application', spots: 1 });
    const [a, b] = await api.entrants(raffle.slug, 2);
    await api.ok(raffle.id, 'close');
    await api.ok(raffle.id, 'draw', { entryIds: [a!.entryId] });
    const [win] = await api.wins(raffle.id);
    await disqualifyWin(raffle.id, win!.id);
    expect(expectManagementError(await reroll(raffle.id, win!.id), 400).message).toMatch(/^VALIDATION_FAILED: /);
    expect(expectManagementError(await reroll(raffle.id, win!.id, { entryId: a!.entryId }), 409).message).toMatch(/^WIN_CANNOT_REROLL: /);
    const res = await reroll(raffle.id, win!.id, { entryId: b!.entryId });
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as { replacement: Win }).replacement).toMatchObject({ entryId: b!.entryId, position: 1, source: 'reroll' });
  });

  it('refuses bad bodies (400) and writes by plain members (403)', async () => {
    const { raffle } = await drawnCollection(2);
    const [win] = await api.wins(raffle.id);
    for (const payload of [{}, { reason: '' }, { reason: 'x', extra: 1 }, { reason: 5 }]) {
      expectManagementError(await app.inject({ method: 'POST', url: `${winUrl(raffle.id, win!.id)}/disqualify`, headers: as(tenant.owner.id), payload }), 400);
    }
    expectManagementError(await reroll(raffle.id, win!.id, { entryId: 5 }), 400);
    for (const payload of [{}, { deliveryStatus: 'not_applicable' }, { deliveryStatus: 'lost' }, { deliveryStatus: 'processing', extra: true }]) {
      expectManagementError(await delivery(raffle.id, win!.id, payload), 400);
    }
    const member = await app.inject({ method: 'POST', url: `${winUrl(raffle.id, win!.id)}/disqualify`, headers: as(tenant.member.id), payload: { reason: 'x' } });
    expectManagementError(member, 403);
    const listed = await app.inject({ method: 'GET', url: `${api.raffleUrl(raffle.id)}/wins`, headers: as(tenant.member.id) });
    expect(listed.statusCode).toBe(200);
  });
});

describe('delivery', () => {
  it('moves pending → processing → failed → delivered, keeps notes, and refuses to leave delivered', async () => {
    const { raffle } = await drawnCollection(2);
    await api.ok(raffle.id, 'finalize');
    const [win, other] = await api.wins(raffle.id);
    expect(win!.deliveryStatus).toBe('pending');

    const steps: Array<[Record<string, unknown>, Partial<Win>]> = [
      [{ deliveryStatus: 'processing' }, { deliveryStatus: 'processing' }],
      [{ deliveryStatus: 'failed', deliveryNote: 'Wallet rejected the transfer' }, { deliveryStatus: 'failed', deliveryNote: 'Wallet rejected the transfer' }],
      [{ deliveryStatus: 'pending' }, { deliveryStatus: 'pending', deliveryNote: 'Wallet rejected the transfer' }],
      [{ deliveryStatus: 'delivered', deliveryNote: null }, { deliveryStatus: 'delivered' }],
      [{ deliveryStatus: 'delivered', deliveryNote: 'tx 0xabc' }, { deliveryStatus: 'delivered', deliveryNote: 'tx 0xabc' }],
    ];
    let deliveredAt: string | undefined;
    for (const [payload, expected] of steps) {
      const res = await delivery(raffle.id, win!.id, payload);
      expect(res.statusCode, res.body).toBe(200);
      expectSchema('DashboardWin', res.json());
      const body = res.json() as Win;
      expect(body).toMatchObject(expected);
      if (payload.deliveryNote === null) expect(body.deliveryNote).toBeUndefined();
      if (body.deliveryStatus === 'delivered') {
        expect(typeof body.deliveredAt).toBe('string');
        deliveredAt ??= body.deliveredAt;
        expect(body.deliveredAt).toBe(deliveredAt);
      } else {
        expect(body.deliveredAt).toBeUndefined();
      }
    }
    for (const deliveryStatus of ['pending', 'processing', 'failed']) {
      const refused = await delivery(raffle.id, win!.id, { deliveryStatus });
      expect(expectManagementError(refused, 409).message).toMatch(/^WIN_CANNOT_UPDATE_DELIVERY: /);
    }

    // A disqualified win is not delivered at all.
    await disqualifyWin(raffle.id, other!.id);
    expect(expectManagementError(await delivery(raffle.id, other!.id, { deliveryStatus: 'processing' }), 409).message).toMatch(/^WIN_CANNOT_UPDATE_DELIVERY: /);
  });
});

describe('lists of wins', () => {
  it('walks every win by position with an opaque cursor', async () => {
    const { raffle, entered } = await drawnCollection(5);
    const walked = await api.walk<Win>(`${api.raffleUrl(raffle.id)}/wins`, 2, 'DashboardWinPage');
    expect(walked.map((w) => [w.position, w.entryId, w.userId, w.raffleId])).toEqual(entered.map((e, i) => [i + 1, e.entryId, e.userId, raffle.id]));
    await disqualifyWin(raffle.id, walked[2]!.id);
    await reroll(raffle.id, walked[2]!.id).then((res) => expect(res.statusCode).toBe(409)); // nobody left
    const disqualified = await api.walk<Win>(`${api.raffleUrl(raffle.id)}/wins`, 1, 'DashboardWinPage', '&status=disqualified');
    expect(disqualified.map((w) => w.id)).toEqual([walked[2]!.id]);
    expect((await api.wins(raffle.id, '?status=selected')).map((w) => w.position)).toEqual([1, 2, 4, 5]);
  });
});

describe('entering through the web', () => {
  it('201 with the entry as its owner sees it; 409 ALREADY_ENTERED the second time; withdraw', async () => {
    const raffle = await api.open({ spots: 5 });
    const user = await api.user();
    const res = await api.enter(raffle.slug, user.id);
    expect(res.statusCode, res.body).toBe(201);
    expectSchema('SanitizedEntry', res.json());
    expect(res.json()).toMatchObject({ raffleId: raffle.id, raffleSlug: raffle.slug, status: 'valid', source: 'web', entryWeight: '1', requirements: [] });
    expect(res.json()).not.toHaveProperty('duplicateFlags');

    expect(expectManagementError(await api.enter(raffle.slug, user.id), 409).message).toMatch(/^ALREADY_ENTERED: /);

    const withdrawn = await api.withdraw(raffle.slug, user.id);
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    expectSchema('SanitizedEntry', withdrawn.json());
    expect(withdrawn.json()).toMatchObject({ id: (res.json() as { id: string }).id, status: 'withdrawn' });
    expect(expectManagementError(await api.withdraw(raffle.slug, user.id), 409).message).toMatch(/^ENTRY_NOT_WITHDRAWABLE: /);
    expect(expectManagementError(await api.withdraw(raffle.slug, (await api.user()).id), 404).message).toMatch(/^ENTRY_NOT_FOUND: /);
    // Withdrawn is still entered: one entry per user per raffle.
    expect(expectManagementError(await api.enter(raffle.slug, user.id), 409).message).toMatch(/^ALREADY_ENTERED: /);
  });

  it('409 REQUIREMENTS_NOT_MET names the failed requirements; a user who meets them enters', async () => {
    const raffle = await api.open({
      requirements: [
        { id: 'email', type: 'email_verified', label: 'A verified email', params: {} },
        { id: 'team', type: 'workspace_member', label: 'On the team', params: {} },
        { id: 'old', type: 'account_age_days', label: 'A year old', params: { min: 365, optional: true, multiplier: 3 } },
      ],
    });
    const stranger = await api.user({ emailVerifiedAt: null });
    const refused = expectManagementError(await api.enter(raffle.slug, stranger.id), 409);
    expect(refused.message).toMatch(/^REQUIREMENTS_NOT_MET: /);
    expect(refused.message).toContain('A verified email');
    expect(refused.message).toContain('On the team');
    expect(refused.message).not.toContain('A year old');

    // The seeded member has no verified email either: only that requirement fails.
    expect(expectManagementError(await api.enter(raffle.slug, tenant.member.id), 409).message).not.toContain('On the team');
  });

  it('404 for unknown, draft and other workspaces\' private raffles; 409 when not open', async () => {
    const unknown = await api.enter('no-such-raffle', tenant.outsider.id);
    expect(expectManagementError(unknown, 404).message).toMatch(/^RAFFLE_NOT_FOUND: /);
    const draft = await api.draft();
    expectManagementError(await api.enter(draft.slug, tenant.outsider.id), 404);
    const privateRaffle = await api.open({ visibility: 'private' });
    expectManagementError(await api.enter(privateRaffle.slug, tenant.outsider.id), 404);
    expect((await api.enter(privateRaffle.slug, tenant.member.id)).statusCode).toBe(201);
    const scheduled = await api.ok((await api.draft({ startsAt: new Date(Date.now() + 3_600_000).toISOString() })).id, 'publish');
    expect(expectManagementError(await api.enter(scheduled.slug, tenant.outsider.id), 409).message).toMatch(/^RAFFLE_NOT_OPEN: /);
    expectManagementError(await app.inject({ method: 'POST', url: `/api/dashboard/raffles/${privateRaffle.slug}/entries`, headers: as(tenant.admin.id), payload: { wallet: '0x1' } }), 400);
  });

  it('stores a keyed hash of the IP: entries from one address flag each other', async () => {
    const raffle = await api.open({ spots: 5 });
    const [first, second] = await api.entrants(raffle.slug, 2);
    const page = await api.entries(raffle.id);
    const byId = new Map(page.data.map((e) => [e.id, e]));
    expect(byId.get(first!.entryId)!.duplicateFlags.ipReuse).toEqual([second!.entryId]);
    expect(byId.get(second!.entryId)!.duplicateFlags.ipReuse).toEqual([first!.entryId]);
  });
});
