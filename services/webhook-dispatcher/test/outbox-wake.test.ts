import { listenForOutboxAppends } from '@raffle/db';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitUntil } from './support/conditions.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { createOwners, writeEvents } from './support/fixtures.js';

/**
 * Writers wake the relay after their transaction commits, not with a NOTIFY inside it (a NOTIFY
 * makes every notifying commit take one shared lock through its WAL flush: issue 13). The relay
 * listens as before; what it hears, and when, is checked here on a real Postgres.
 */
describe('waking the outbox relay', () => {
  let testDb: TestDatabase;
  let listenSql: postgres.Sql;
  const heard: number[] = [];

  beforeAll(async () => {
    testDb = await createTestDatabase();
    listenSql = postgres(testDb.url, { max: 1, onnotice: () => {} });
    await listenForOutboxAppends(listenSql, () => heard.push(Date.now()));
  });
  afterAll(async () => {
    await listenSql?.end({ timeout: 5 });
    await testDb?.drop();
  });

  it('is heard once a transaction that appended events commits, and only then', async () => {
    const { workspace } = await createOwners(testDb.database.db);
    const before = heard.length;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let appended!: () => void;
    const appendedYet = new Promise<void>((resolve) => (appended = resolve));
    const executedInside: unknown[] = [];
    const committed = testDb.database.db.transaction(async (tx) => {
      // appendEvents' only raw statement was the in-transaction NOTIFY: none may run here now.
      const execute = tx.execute.bind(tx);
      tx.execute = ((query: Parameters<typeof execute>[0]) => (executedInside.push(query), execute(query))) as typeof tx.execute;
      await writeEvents(tx, [{ type: 'raffle.published', audience: { workspaceId: workspace.id } }]);
      appended();
      await held;
    });
    await appendedYet;
    // The transaction is still open: nothing may have been announced (a NOTIFY would not be either,
    // but a wake sent before the commit would find no row).
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(heard.length).toBe(before);
    expect(executedInside).toEqual([]);
    release();
    await committed;
    await waitUntil('a notification after the commit', () => heard.length > before, 5000);
  });

  it('is not heard for a transaction that rolled back', async () => {
    const { workspace } = await createOwners(testDb.database.db);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const before = heard.length;
    await expect(
      testDb.database.db.transaction(async (tx) => {
        await writeEvents(tx, [{ type: 'raffle.published', audience: { workspaceId: workspace.id } }]);
        throw new Error('rolled back on purpose');
      }),
    ).rejects.toThrow('rolled back on purpose');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(heard.length).toBe(before);
  });

  it('coalesces a burst of concurrent commits and still wakes after the last of them', async () => {
    const { workspace } = await createOwners(testDb.database.db);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const before = heard.length;
    const burst = 40;
    await Promise.all(
      Array.from({ length: burst }, () =>
        testDb.database.db.transaction((tx) => writeEvents(tx, [{ type: 'raffle.published', audience: { workspaceId: workspace.id } }])),
      ),
    );
    const lastCommitAt = Date.now();
    await waitUntil('a notification after the last commit', () => heard.at(-1)! >= lastCommitAt - 5, 5000);
    expect(heard.length - before).toBeGreaterThan(0);
  });

  it('still notifies inside a savepoint or an autocommitted write, delivered at commit', async () => {
    const { workspace } = await createOwners(testDb.database.db);
    await new Promise((resolve) => setTimeout(resolve, 300));
    let before = heard.length;
    await testDb.database.db.transaction((tx) =>
      tx.transaction((savepoint) => writeEvents(savepoint, [{ type: 'raffle.published', audience: { workspaceId: workspace.id } }])),
    );
    await waitUntil('a notification after the commit', () => heard.length > before, 5000);
    before = heard.length;
    await writeEvents(testDb.database.db, [{ type: 'raffle.published', audience: { workspaceId: workspace.id } }]);
    await waitUntil('a notification after the commit', () => heard.length > before, 5000);
    const [row] = await testDb.database.sql<{ n: number }[]>`select count(*)::int as n from event_outbox where workspace_id = ${workspace.id}`;
    expect(row!.n).toBe(2);
  });
});
