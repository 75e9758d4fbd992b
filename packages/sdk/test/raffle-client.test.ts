import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchPublicAllowlist, publicAllowlistLeaves, RaffleApiError, RaffleClient, verifyAllowlistProof, verifyDraw } from '../src/index.js';
import { collectAll, newTestDatabase, recordingFetch, seedDataPlaneTenant, startDataPlane, type DataPlane, type Tenant } from './support/data-plane-service.js';

let dataPlane: DataPlane;
let tenant: Tenant;
let personal: RaffleClient;
let workspace: RaffleClient;

beforeAll(async () => {
  const testDb = await newTestDatabase();
  tenant = await seedDataPlaneTenant(testDb, { entries: 300, publicRaffles: 5 });
  dataPlane = await startDataPlane(testDb);
  personal = new RaffleClient({ apiKey: tenant.keys.personal, baseUrl: dataPlane.baseUrl });
  workspace = new RaffleClient({ apiKey: tenant.keys.workspace, baseUrl: dataPlane.baseUrl });
});

afterAll(async () => {
  await dataPlane?.close();
  await dataPlane?.testDb.drop();
});

describe('auto-pagination', () => {
  it('walks a 300-entry raffle page by page: every entry once, in the server\'s order', async () => {
    const { workspace: ws, finalized } = tenant;
    const walked = await collectAll(workspace.workspaces.raffles.entries(ws.id, finalized.id, { limit: 7 }));

    // The server's own order, read in two big pages (maximum 250).
    const first = await workspace.workspaces.raffles.entries(ws.id, finalized.id, { limit: 250 }).page();
    expect(first.pagination.hasMore).toBe(true);
    const second = await workspace.workspaces.raffles.entries(ws.id, finalized.id, { limit: 250 }).page({ cursor: first.pagination.nextCursor! });
    expect(second.pagination).toEqual({ nextCursor: null, hasMore: false });
    const serverOrder = [...first.data, ...second.data].map((e) => e.id);

    expect(walked).toHaveLength(300);
    expect(walked.map((e) => e.id)).toEqual(serverOrder);
    expect(new Set(walked.map((e) => e.id))).toEqual(new Set(tenant.entries.map((e) => e.id)));
  });

  it('fetches pages lazily: stopping after 10 items with limit 7 costs two requests', async () => {
    const recorder = recordingFetch();
    const client = new RaffleClient({ apiKey: tenant.keys.workspace, baseUrl: dataPlane.baseUrl, fetch: recorder.fetch });
    const list = client.workspaces.raffles.entries(tenant.workspace.id, tenant.finalized.id, { limit: 7 });
    expect(recorder.urls).toHaveLength(0);
    let seen = 0;
    for await (const _entry of list) if (++seen === 10) break;
    expect(recorder.urls).toHaveLength(2);
    expect(recorder.urls[0]).toMatch(/limit=7$/);
    expect(recorder.urls[1]).toMatch(/limit=7&cursor=/);
  });

  it('gives one page with .page(): { data, pagination }', async () => {
    const page = await personal.raffles.list({ limit: 2 }).page();
    expect(page.data).toHaveLength(2);
    expect(page.pagination.hasMore).toBe(true);
    expect(typeof page.pagination.nextCursor).toBe('string');
    const next = await personal.raffles.list({ limit: 2 }).page({ cursor: page.pagination.nextCursor! });
    expect(next.data.map((r) => r.slug)).not.toContain(page.data[0]!.slug);
  });
});

describe('every RaffleClient method against the data plane', () => {
  it('me.get', async () => {
    const me = await personal.me.get();
    expect(me.id).toBe(tenant.owner.id);
    expect(me.handle).toBe(tenant.owner.handle);
  });

  it('raffles.list walks every public raffle, raffles.get reads one', async () => {
    const slugs = (await collectAll(personal.raffles.list({ limit: 2 }))).map((r) => r.slug);
    for (const raffle of tenant.publicRaffles) expect(slugs).toContain(raffle.slug);
    expect(new Set(slugs).size).toBe(slugs.length);
    const one = await personal.raffles.get(tenant.finalized.slug);
    expect(one.slug).toBe(tenant.finalized.slug);
  });

  it('raffles.enter, myEntry, entries.list and withdraw', async () => {
    const slug = tenant.entrable.slug;
    const entered = await personal.raffles.enter(slug);
    expect(entered.raffleId).toBe(tenant.entrable.id);
    expect((await personal.raffles.myEntry(slug)).id).toBe(entered.id);
    expect((await collectAll(personal.entries.list({ limit: 1 }))).map((e) => e.id)).toContain(entered.id);
    const withdrawn = await personal.raffles.withdraw(slug);
    expect(withdrawn.id).toBe(entered.id);
    expect(withdrawn.status).toBe('withdrawn');
  });

  it('wins.list', async () => {
    const wins = await collectAll(personal.wins.list({ limit: 1 }));
    // The finalized raffle's and the one whose winners may still name a wallet.
    expect(wins.map((w) => w.raffleId).sort()).toEqual([tenant.finalized.id, tenant.naming.id].sort());
  });

  it('allowlist.proof, nameWallet, get and leaves; the keyless fetchPublicAllowlist and publicAllowlistLeaves', async () => {
    const proof = await personal.allowlist.proof(tenant.finalized.slug);
    expect(proof.address.toLowerCase()).toBe(tenant.ownerWallet);
    expect(verifyAllowlistProof(proof)).toBe(true);
    const named = await personal.allowlist.nameWallet(tenant.naming.slug, tenant.ownerWallet);
    expect(named).toMatchObject({ raffleId: tenant.naming.id });
    expect(named.address.toLowerCase()).toBe(tenant.ownerWallet);

    const allowlist = await workspace.allowlist.get(tenant.workspace.id, tenant.finalized.id);
    expect(allowlist.current).toMatchObject({ version: 1, root: proof.root, count: 2 });
    const leaves = await collectAll(workspace.allowlist.leaves(tenant.workspace.id, tenant.finalized.id, { limit: 1 }));
    expect(leaves).toHaveLength(2);
    expect(leaves.every((leaf) => verifyAllowlistProof({ root: proof.root, ...leaf }))).toBe(true);
    const page = await workspace.allowlist.leaves(tenant.workspace.id, tenant.finalized.id, { address: proof.address, version: 1 }).page();
    expect(page).toMatchObject({ version: 1, root: proof.root, data: [{ address: proof.address, quantity: proof.quantity, proof: proof.proof }] });

    expect(await fetchPublicAllowlist(tenant.finalized.slug, { baseUrl: dataPlane.baseUrl })).toEqual(allowlist);
    expect(await collectAll(publicAllowlistLeaves(tenant.finalized.slug, { limit: 1 }, { baseUrl: dataPlane.baseUrl }))).toEqual(leaves);
    const refused = await publicAllowlistLeaves(tenant.naming.slug, {}, { baseUrl: dataPlane.baseUrl }).page().catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RaffleApiError);
    expect(refused).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it('raffles.drawProof gives a proof verifyDraw can check', async () => {
    const proof = await personal.raffles.drawProof(tenant.finalized.slug);
    expect(proof.entries.length).toBeGreaterThan(200);
    // The seeded wins are fixed, not drawn: the proof is served but does not verify. Which
    // positions differ depends on the tenant's random seed (position 1 can match by chance).
    expect(verifyDraw(proof).problems.join()).toMatch(/position \d+: the proof says/);
  });

  it('workspaces.raffles.list, get and winners', async () => {
    const ids = (await collectAll(workspace.workspaces.raffles.list(tenant.workspace.id, { limit: 1 }))).map((r) => r.id);
    expect(ids).toEqual(expect.arrayContaining([tenant.finalized.id, tenant.privateRaffle.id, tenant.draft.id]));
    expect((await workspace.workspaces.raffles.get(tenant.workspace.id, tenant.finalized.id)).id).toBe(tenant.finalized.id);
    const winners = await workspace.workspaces.raffles.winners(tenant.workspace.id, tenant.finalized.id);
    expect(winners.map((w) => w.position)).toEqual([1, 2]);
  });

  it('workspaces.projects.list and get', async () => {
    const projects = await collectAll(workspace.workspaces.projects.list(tenant.workspace.id, { limit: 2 }));
    expect(projects.map((p) => p.id).sort()).toEqual(tenant.projects.map((p) => p.id).sort());
    expect((await workspace.workspaces.projects.get(tenant.workspace.id, tenant.projects[1]!.id)).slug).toBe('project-1');
  });

  it('encodes path segments, so a slug cannot reach another route', async () => {
    const error = await personal.raffles.get('../me').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RaffleApiError);
    expect((error as RaffleApiError).status).toBe(404);
  });

  it('refuses to be built without an API key', () => {
    expect(() => new RaffleClient({ apiKey: '' })).toThrow(TypeError);
  });
});
