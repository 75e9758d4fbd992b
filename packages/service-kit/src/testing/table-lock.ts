import postgres from 'postgres';

/** A table lock held by another session; `release` ends its transaction and closes its connection. */
export type HeldTableLock = { release(): Promise<void> };

/**
 * `LOCK TABLE <table> IN ACCESS EXCLUSIVE MODE` in a transaction on a connection of its own, as
 * an operator's manual lock or a migration rewriting the table would hold it: every statement
 * that touches the table, reads included, waits for it. Resolves once the lock is granted (it
 * queues behind transactions already using the table), and holds it until released.
 */
export async function holdTableLock(url: string, table: string): Promise<HeldTableLock> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let granted!: () => void;
  const lockGranted = new Promise<void>((resolve) => (granted = resolve));
  const transaction = sql.begin(async (tx) => {
    await tx`lock table ${tx(table)} in access exclusive mode`;
    granted();
    await released;
  });
  try {
    await Promise.race([lockGranted, transaction]);
  } catch (error) {
    await sql.end({ timeout: 5 });
    throw error;
  }
  return {
    async release() {
      release();
      try {
        await transaction;
      } finally {
        await sql.end({ timeout: 5 });
      }
    },
  };
}
