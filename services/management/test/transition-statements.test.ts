import { createDatabase, insertProject, type Database } from '@raffle/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManagementApp } from '../src/app.js';
import { buildTestApp } from './support/app.js';
import { as, dashboardRaffles, untilBeaconRound, type DashboardRaffles, type Raffle } from './support/dashboard-raffles.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { seedTenant, type Tenant } from './support/tenant.js';

// Issue 26, "a transition is one read of its row": a lifecycle POST reads the caller's role once
// (the route's access hook), the raffle once (its lock), and the workspace and canonical project
// it renders with once (with that lock), however many steps pass the row along. Counted on the
// statements the app's pool sends, through the client's statement observer.

type Statement = { query: string; parameters: readonly unknown[] };

let testDb: TestDatabase;
let database: Database;
let app: ManagementApp;
let tenant: Tenant;
let api: DashboardRaffles;
let projectId: string;
let recording: Statement[] | null = null;

beforeAll(async () => {
  testDb = await createTestDatabase();
  database = createDatabase({ url: testDb.url, max: 5, onStatement: (query, parameters) => recording?.push({ query, parameters }) });
  app = await buildTestApp(database, testDb.url);
  tenant = await seedTenant(database);
  api = dashboardRaffles(app, database, tenant.workspace.id, tenant.owner.id);
  projectId = (await insertProject(database.db, { workspaceId: tenant.workspace.id, slug: `p-${tenant.tag}`, name: 'A project' })).id;
});

afterAll(async () => {
  await app?.close();
  await database?.close();
  await testDb?.drop();
});

/** The statements one POST of the action sends that concern this raffle (or its workspace or project). */
async function statementsOf(raffle: Raffle, action: string, payload?: object) {
  recording = [];
  const res = await app.inject({
    method: 'POST',
    url: `${api.raffleUrl(raffle.id)}/${action}`,
    headers: as(tenant.owner.id),
    ...(payload ? { payload } : {}),
  });
  const sent = recording;
  recording = null;
  expect(res.statusCode, `${action}: ${res.body}`).toBe(200);
  const ours = new Set<unknown>([raffle.id, tenant.workspace.id, projectId]);
  const concerning = sent.filter((s) => s.parameters.some((p) => ours.has(p)));
  const reads = (table: string) =>
    concerning.filter((s) => /^\s*select\b/i.test(s.query) && new RegExp(`(from|join) "?${table}"?\\b`, 'i').test(s.query)).length;
  return {
    answer: res.json() as Raffle,
    raffleReads: reads('raffles'),
    roleReads: reads('workspace_members'),
    workspaceReads: reads('workspaces'),
    projectReads: reads('projects'),
  };
}

const ONCE = { raffleReads: 1, roleReads: 1, workspaceReads: 1, projectReads: 1 };

describe('a lifecycle transition through HTTP', () => {
  it('publish, close and cancel read the role, the raffle, its workspace and its project once each', async () => {
    const draft = await api.draft({ canonicalProjectId: projectId });
    const published = await statementsOf(draft, 'publish');
    expect(published.answer).toMatchObject({ status: 'open', canonicalProject: { id: projectId } });
    expect(published).toMatchObject(ONCE);

    const closed = await statementsOf(published.answer, 'close');
    expect(closed.answer).toMatchObject({ status: 'closed', canonicalProject: { id: projectId } });
    expect(closed).toMatchObject(ONCE);

    const other = await api.draft({ canonicalProjectId: projectId });
    const cancelled = await statementsOf(other, 'cancel');
    expect(cancelled.answer.status).toBe('cancelled');
    expect(cancelled).toMatchObject(ONCE);
  });

  it('opening a scheduled raffle reads each once too', async () => {
    const scheduled = await api.ok((await api.draft({ canonicalProjectId: projectId, startsAt: new Date(Date.now() + 3_600_000).toISOString() })).id, 'publish');
    const opened = await statementsOf(scheduled, 'open');
    expect(opened.answer.status).toBe('open');
    expect(opened).toMatchObject(ONCE);
  });

  it('a draw that waits on no beacon and no chain reads the raffle once, in one transaction', async () => {
    const open = await api.open({ mechanic: 'collection', spots: 2, canonicalProjectId: projectId });
    await api.entrants(open.slug, 1);
    const closed = await api.ok(open.id, 'close');
    await untilBeaconRound(closed);
    const drawn = await statementsOf(closed, 'draw');
    expect(drawn.answer).toMatchObject({ status: 'drawn', canonicalProject: { id: projectId } });
    expect(drawn).toMatchObject(ONCE);
  });

  it('a draw that fetches its beacon round first reads the role once and the raffle once on each side of the fetch', async () => {
    const open = await api.open({ mechanic: 'raffle', spots: 1, canonicalProjectId: projectId });
    await api.entrants(open.slug, 2);
    const closed = await api.ok(open.id, 'close');
    await untilBeaconRound(closed);
    const drawn = await statementsOf(closed, 'draw');
    expect(drawn.answer).toMatchObject({ status: 'drawn', canonicalProject: { id: projectId } });
    expect(drawn).toMatchObject({ roleReads: 1, raffleReads: 2 });
  });
});
