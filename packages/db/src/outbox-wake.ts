import { OUTBOX_NOTIFY_CHANNEL } from '@raffle/contracts';
import type { Db, DbOrTx, Sql } from './client.js';

/**
 * Transactions that appended outbox events, each with the note to take when it does. A `NOTIFY`
 * inside a transaction makes its commit take a lock every notifying commit shares, held through
 * the commit's WAL flush: under a drop every entry then commits one at a time (issue 13 measured
 * `commit` waiting on `Lock:object`). Transactions opened through `db.transaction` of a
 * `createDatabase` pool notify after they commit instead, outside any transaction.
 */
const notedAppends = new WeakMap<object, () => void>();

/** Each `createDatabase` pool's coalescing wake, for statements that append events in autocommit. */
const relayWakes = new WeakMap<object, () => void>();

/**
 * The wake of `db`'s relay, to call once a statement that appended events in autocommit returned
 * (it committed); null for a database not made by `createDatabase`, whose statement must notify itself.
 */
export const relayWakeOf = (db: DbOrTx): (() => void) | null => relayWakes.get(db) ?? null;

/**
 * Records that `tx` appended events. True when the relay will be woken once `tx` commits; false
 * when `tx` is not such a transaction (an autocommitted `db`, a savepoint, another pool), and the
 * caller must notify inside it.
 */
export function noteEventsAppended(tx: DbOrTx): boolean {
  const note = notedAppends.get(tx);
  note?.();
  return note !== undefined;
}

/**
 * A coalescing `pg_notify` on the pool: one in flight at most, and one more after it when asked
 * meanwhile, so a burst of commits costs a few notifications, not one each. A failed one is
 * dropped: the relay's poll (RELAY_POLL_INTERVAL_MS) finds the rows anyway.
 */
function coalescedOutboxNotify(sql: Sql): () => void {
  let sending = false;
  let again = false;
  const send = () => {
    sending = true;
    again = false;
    sql`select pg_notify(${OUTBOX_NOTIFY_CHANNEL}, '')`.then(sent, sent);
  };
  const sent = () => {
    sending = false;
    if (again) send();
  };
  return () => {
    if (sending) again = true;
    else send();
  };
}

/** Makes `db.transaction` wake the outbox relay after a transaction that appended events commits (not on rollback). */
export function wakeRelayAfterCommits(db: Db, sql: Sql): void {
  const transaction = db.transaction.bind(db);
  const wake = coalescedOutboxNotify(sql);
  relayWakes.set(db, wake);
  db.transaction = (async (run, config) => {
    let appended = false;
    const result = await transaction((tx) => {
      notedAppends.set(tx, () => (appended = true));
      return run(tx);
    }, config);
    if (appended) wake();
    return result;
  }) as Db['transaction'];
}
