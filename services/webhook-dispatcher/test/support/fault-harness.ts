import { afterAll, beforeAll } from 'vitest';
import { isolatedStreamNames } from './app.js';
import { createTestDatabase, type TestDatabase } from './database.js';
import { sinkEndpoints, type LedgerEndpoint } from './delivery-ledger.js';
import { startDispatcherProcess, type DispatcherProcess } from './dispatcher-process.js';
import { createOwners } from './fixtures.js';
import { createStreamForFaults, streamNamesOf } from './jetstream-probe.js';
import type { Received } from './sink.js';
import { startPrivateNats, type PrivateNats } from '@raffle/service-kit/testing/faults';

/**
 * What every fault scenario stands on: its own database and private NATS server, dispatcher child
 * processes it may kill, and sink endpoints; all of it torn down after the file, whatever happened.
 */
export function useFaultHarness() {
  let testDb: TestDatabase | undefined;
  let nats: PrivateNats | undefined;
  const children: DispatcherProcess[] = [];
  let endpoints: LedgerEndpoint[] = [];

  beforeAll(async () => {
    [testDb, nats] = await Promise.all([createTestDatabase(), startPrivateNats()]);
  });
  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await Promise.all(children.map((c) => c.exited));
    await Promise.all(endpoints.map((e) => e.sink.close()));
    await nats?.destroy();
    await testDb?.drop();
  });

  return {
    /**
     * An isolated stream (5 s ack_wait, so redeliveries come quickly), a workspace with `count`
     * endpoints answering as `respond` says, and the environment a dispatcher child needs.
     */
    async prepare(count: number, respond: (request: Received) => { status: number; delayMs?: number }) {
      const names = isolatedStreamNames();
      await createStreamForFaults(nats!.url, streamNamesOf(names), 5000);
      const owners = await createOwners(testDb!.database.db);
      endpoints = await sinkEndpoints(owners, count, respond);
      return { testDb: testDb!, nats: nats!, names, owners, endpoints, env: { DATABASE_URL: testDb!.url, NATS_URL: nats!.url, ...names } };
    },
    /** A dispatcher child, killed at teardown if the test did not. */
    async spawn(label: string, env: Record<string, string>): Promise<DispatcherProcess> {
      const child = await startDispatcherProcess(label, env);
      children.push(child);
      return child;
    },
  };
}
