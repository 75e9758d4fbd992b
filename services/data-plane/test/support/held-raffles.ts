import { createDatabase } from '@raffle/db';

export type HeldRaffles = {
  /** Ends the hold (rolls back); harmless when the server took the connection down already, or when called again. */
  release(): Promise<void>;
};

/**
 * Locks raffle rows `FOR UPDATE` on a connection of the test's own, so an entry into them stops
 * inside its transaction (the admission takes the raffle `FOR SHARE`) after its Idempotency-Key
 * was claimed: a fault made then meets requests that hold a key and have done nothing else.
 */
export async function holdRaffles(databaseUrl: string, slugs: string[]): Promise<HeldRaffles> {
  const database = createDatabase({ url: databaseUrl, max: 1, applicationName: 'raffle-holder' });
  const connection = await database.sql.reserve();
  await connection`begin`;
  await connection`select id from raffles where slug = any(${slugs}) for update`;
  let released: Promise<void> | null = null;
  const release = async () => {
    await connection`rollback`.catch(() => undefined);
    connection.release();
    await database.sql.end({ timeout: 1 }).catch(() => undefined);
  };
  return { release: () => (released ??= release()) };
}

/** Waits until `count` of the service's queries (on this database) wait on a lock: the held entries are in their transactions. */
export async function waitForLockWaits(databaseUrl: string, applicationName: string, count: number, timeoutMs = 20_000): Promise<void> {
  const database = createDatabase({ url: databaseUrl, max: 1, applicationName: 'lock-watcher' });
  try {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const [row] = await database.sql<{ n: number }[]>`
        select count(*)::int as n from pg_stat_activity
        where datname = current_database() and application_name = ${applicationName} and wait_event_type = 'Lock'`;
      if (row!.n >= count) return;
      if (Date.now() > deadline) throw new Error(`only ${row!.n} of ${count} entries reached the held raffles within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    await database.sql.end({ timeout: 1 });
  }
}

/** Ends every connection the service holds, as a failover or a network cut would, and leaves the server up. */
export async function terminateConnectionsOf(databaseUrl: string, applicationName: string): Promise<number> {
  const database = createDatabase({ url: databaseUrl, max: 1, applicationName: 'connection-cutter' });
  try {
    const rows = await database.sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = ${applicationName}`;
    return rows.length;
  } finally {
    await database.sql.end({ timeout: 1 });
  }
}
