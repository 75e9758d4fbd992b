import type { Database, Sql } from '@raffle/db';

export type LostReplyRule = {
  /** Which statements (their text) fail. */
  matches: (statement: string) => boolean;
  /** How many of them fail; later ones pass. */
  times: number;
  /** True: the statement runs and commits, and only its reply is lost. False: it never reaches the server. */
  ran: boolean;
};

/**
 * The database as a service sees it when its connection is cut under a statement: matching
 * statements sent through `sql` (the idempotency store's path) fail with CONNECTION_CLOSED, the
 * driver's code for it, after running or without running. Everything else passes untouched.
 */
export function withLostReplies(database: Database, rule: LostReplyRule): { database: Database; lost: () => number } {
  const { sql } = database;
  let lost = 0;
  const send = sql as unknown as (...args: unknown[]) => Promise<unknown>;
  const cut = ((first: unknown, ...rest: unknown[]) => {
    const statement = Array.isArray(first) && 'raw' in first ? (first as string[]).join('?') : null;
    if (statement === null || lost >= rule.times || !rule.matches(statement)) return send(first, ...rest);
    lost += 1;
    const error = Object.assign(new Error('write CONNECTION_CLOSED 127.0.0.1:5432 (injected)'), { code: 'CONNECTION_CLOSED' });
    return rule.ran ? send(first, ...rest).then(() => Promise.reject(error)) : Promise.reject(error);
  }) as unknown as Sql;
  // The pool's own methods (begin, unsafe, reserve…) stay the real ones.
  Object.defineProperties(cut, Object.getOwnPropertyDescriptors(sql));
  return { database: { ...database, sql: cut }, lost: () => lost };
}
