import { createDatabase, runMigrations, type Database } from '@raffle/db';
import postgres from 'postgres';
import { afterAll, beforeAll } from 'vitest';
import { createTestDatabase, secretsHeldBy } from './database.js';
import { startPrivateNats, type PrivateNats } from './private-nats.js';
import { startPrivateRedis, type PrivateRedis } from './private-redis.js';
import { recordRunSecrets } from './run-log.js';
import { startServiceProcess, type ServiceProcess, type ServiceProcessOptions } from './service-process.js';

/** What the harness needs of a Postgres of the file's own; the file keeps the full handle to stop and kill it. */
export type OwnPostgres = {
  /** A connection URL to `database` on that server, as its superuser. */
  url(database: string): string;
  destroy(): Promise<void>;
};

/** What the harness needs of a NATS of the file's own (one server or a cluster): NATS_URL and teardown. */
export type OwnNats = { url: string; destroy(): Promise<void> };

export type FaultDependencies<P extends OwnPostgres = OwnPostgres, N extends OwnNats = PrivateNats> = {
  /** The migrated database the service under test uses. */
  databaseUrl: string;
  /** Set when the file brought a Postgres of its own (to stop and kill); null on the shared server. */
  postgres: P | null;
  /** A private nats-server, or what the file's `ownNats` started (a cluster). */
  nats: N;
  redis: PrivateRedis;
  /** A short-lived client for seeding and checking: closed again before any fault, so the test's own pool never sits on a dying server. */
  withDatabase<T>(fn: (database: Database) => Promise<T>): Promise<T>;
  /** A service child process, killed at teardown if the test did not stop it. */
  startService(options: ServiceProcessOptions): Promise<ServiceProcess>;
};

/**
 * What a fault test file stands on: NATS (one server, or the cluster `ownNats` starts) and Redis servers of its own, a migrated database (on
 * the Postgres the file brings when it stops Postgres, else a clone on the shared server), and the
 * service processes it starts; everything is torn down after the file, whatever happened.
 */
export function useFaultDependencies<P extends OwnPostgres = OwnPostgres, N extends OwnNats = PrivateNats>(
  options: { ownPostgres?: () => Promise<P>; ownNats?: () => Promise<N> } = {},
): () => FaultDependencies<P, N> {
  let deps: FaultDependencies<P, N> | undefined;
  const cleanups: Array<() => Promise<void>> = [];
  const children: ServiceProcess[] = [];

  beforeAll(async () => {
    // Without `ownNats`, N is PrivateNats (the default type argument), which startPrivateNats gives.
    const startNats = options.ownNats ?? (startPrivateNats as unknown as () => Promise<N>);
    const [nats, redis] = await Promise.all([startNats(), startPrivateRedis()]);
    cleanups.push(() => nats.destroy(), () => redis.destroy());
    let databaseUrl: string;
    let ownPostgres: P | null = null;
    if (options.ownPostgres) {
      const server = await options.ownPostgres();
      ownPostgres = server;
      cleanups.push(() => server.destroy());
      databaseUrl = await createMigratedDatabase(server.url('postgres'), server.url('raffle'));
      // As the shared clones do when dropped: the run's log scan must know this database's secrets too.
      const recordSecrets = async (database: Database) => recordRunSecrets({ label: 'private-postgres', values: await secretsHeldBy(database.sql) });
      cleanups.push(() => withShortLivedDatabase(databaseUrl, recordSecrets));
    } else {
      const testDb = await createTestDatabase();
      cleanups.push(() => testDb.drop());
      databaseUrl = testDb.url;
    }
    deps = {
      databaseUrl,
      postgres: ownPostgres,
      nats,
      redis,
      withDatabase: (fn) => withShortLivedDatabase(databaseUrl, fn),
      async startService(serviceOptions) {
        const child = await startServiceProcess(serviceOptions);
        children.push(child);
        return child;
      },
    };
  }, 120_000);

  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await Promise.all(children.map((c) => c.exited));
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  }, 60_000);

  return () => {
    if (!deps) throw new Error('the fault dependencies are not ready (beforeAll failed)');
    return deps;
  };
}

async function withShortLivedDatabase<T>(url: string, fn: (database: Database) => Promise<T>): Promise<T> {
  const database = createDatabase({ url, max: 2 });
  try {
    return await fn(database);
  } finally {
    await database.close();
  }
}

async function createMigratedDatabase(adminUrl: string, url: string): Promise<string> {
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe('create database raffle');
  } finally {
    await admin.end({ timeout: 5 });
  }
  await runMigrations(url);
  return url;
}
