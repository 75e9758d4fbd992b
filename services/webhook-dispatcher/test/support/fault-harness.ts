import { createDatabase, runMigrations } from '@raffle/db';
import postgres from 'postgres';
import { afterAll, beforeAll } from 'vitest';
import { isolatedStreamNames } from './app.js';
import { createTestDatabase, type TestDatabase } from './database.js';
import { sinkEndpoints, type LedgerEndpoint } from './delivery-ledger.js';
import { startDispatcherProcess, type DispatcherProcess } from './dispatcher-process.js';
import { createOwners } from './fixtures.js';
import { createStreamForFaults, streamNamesOf } from './jetstream-probe.js';
import type { Received, SinkAnswer } from './sink.js';
import { startPrivateNats, startPrivatePostgres, type PrivateNats, type PrivatePostgres } from '@raffle/service-kit/testing/faults';

type Owners = Awaited<ReturnType<typeof createOwners>>;

/**
 * What every fault scenario stands on: its own database and private NATS server, dispatcher child
 * processes it may kill, and sink endpoints; all of it torn down after the file, whatever happened.
 * With `ownPostgres` the database lives on a Postgres server of the file's own, which the test
 * may stop and start (`postgres()`); otherwise it is a clone on the shared server.
 */
export function useFaultHarness(options: { ownPostgres?: boolean } = {}) {
  let testDb: TestDatabase | undefined;
  let nats: PrivateNats | undefined;
  let server: PrivatePostgres | undefined;
  const children: DispatcherProcess[] = [];
  const endpoints: LedgerEndpoint[] = [];

  beforeAll(async () => {
    const database = options.ownPostgres
      ? startPrivatePostgres().then(async (started) => {
          server = started;
          return databaseOn(started);
        })
      : createTestDatabase();
    [testDb, nats] = await Promise.all([database, startPrivateNats()]);
  }, 120_000);
  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await Promise.all(children.map((c) => c.exited));
    await Promise.all(endpoints.map((e) => e.sink.close()));
    await nats?.destroy();
    await testDb?.drop();
    await server?.destroy();
  }, 60_000);

  return {
    /**
     * An isolated stream (5 s ack_wait, so redeliveries come quickly), a workspace with `count`
     * endpoints answering as `respond` says, and the environment a dispatcher child needs.
     */
    async prepare(count: number, respond: (request: Received) => { status: number; delayMs?: number }) {
      const names = isolatedStreamNames();
      await createStreamForFaults(nats!.url, streamNamesOf(names), 5000);
      const owners = await createOwners(testDb!.database.db);
      const prepared = await this.addEndpoints(owners, count, respond);
      return { testDb: testDb!, nats: nats!, names, owners, endpoints: prepared, env: { DATABASE_URL: testDb!.url, NATS_URL: nats!.url, ...names } };
    },
    /** More endpoints of the same owners, answering their own way (closed at teardown). */
    async addEndpoints(owners: Owners, count: number, respond: (request: Received) => SinkAnswer): Promise<LedgerEndpoint[]> {
      const added = await sinkEndpoints(owners, count, respond);
      endpoints.push(...added);
      return added;
    },
    /** The file's own Postgres server (only with `ownPostgres`). */
    postgres(): PrivatePostgres {
      if (!server) throw new Error('useFaultHarness({ ownPostgres: true }) brings a Postgres server of its own; this file did not ask for one');
      return server;
    },
    /** A dispatcher child, killed at teardown if the test did not. */
    async spawn(label: string, env: Record<string, string>): Promise<DispatcherProcess> {
      const child = await startDispatcherProcess(label, env);
      children.push(child);
      return child;
    },
  };
}

/** A migrated database on the private server, shaped like the shared server's clones. */
async function databaseOn(server: PrivatePostgres): Promise<TestDatabase> {
  const admin = postgres(server.url(), { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe('create database raffle');
  } finally {
    await admin.end({ timeout: 5 });
  }
  const url = server.url('raffle');
  await runMigrations(url);
  const database = createDatabase({ url, max: 5 });
  // The server is destroyed with its data right after: nothing to drop.
  return { url, directUrl: url, database, drop: () => database.close() };
}
