import { touchApiKeysLastUsed, type Sql } from '@raffle/db';

const MAX_REMEMBERED_KEYS = 50_000;
/** A key's `lastUsedAt` is kept to the minute: one write a minute per key is enough. */
const WRITE_INTERVAL_PER_KEY_MS = 60_000;

export type KeyUseRecorder = {
  /** Notes that a key was just used; written with the next flush. */
  note: (keyId: string) => void;
  /** Writes every noted use now, in one statement. */
  flush: () => Promise<void>;
  /** Stops the timer after a last flush. */
  close: () => Promise<void>;
};

/**
 * Records keys' `lastUsedAt` in batches: every noted key is written by one statement per
 * `flushIntervalMs`. Written one by one, each first use of a key was an autocommitted write of
 * its own, and a drop of 20,000 new entrants cost 20,000 WAL flushes beside their entries'.
 * Bookkeeping only: a failed flush never fails a request; its keys are noted again next time.
 */
export function createKeyUseRecorder(deps: { sql: Sql; flushIntervalMs: number; now?: () => number }): KeyUseRecorder {
  const now = deps.now ?? Date.now;
  const lastWritten = new Map<string, number>();
  let pending = new Set<string>();
  let flushing: Promise<void> = Promise.resolve();

  async function writePending() {
    if (pending.size === 0) return;
    const batch = pending;
    pending = new Set();
    try {
      await touchApiKeysLastUsed(deps.sql, [...batch]);
    } catch {
      for (const id of batch) lastWritten.delete(id);
    }
  }
  const flush = () => (flushing = flushing.then(writePending));
  const timer = setInterval(() => void flush(), deps.flushIntervalMs);
  timer.unref();

  return {
    note(keyId) {
      const at = now();
      if ((lastWritten.get(keyId) ?? -Infinity) > at - WRITE_INTERVAL_PER_KEY_MS) return;
      if (lastWritten.size >= MAX_REMEMBERED_KEYS) lastWritten.clear();
      lastWritten.set(keyId, at);
      pending.add(keyId);
    },
    flush,
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}
