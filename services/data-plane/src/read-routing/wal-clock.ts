/**
 * The primary's WAL position, read after a given moment. `afterNow()` resolves with a position
 * that a query sent after the call returned, so every commit acknowledged before the call ends
 * at or before it. Callers share reads: however many writes end at once, at most one read is in
 * flight and one more waits to be sent after it.
 */
export type WalClock = { afterNow(): Promise<bigint> };

export function createWalClock(readPosition: () => Promise<bigint>): WalClock {
  let inFlight: Promise<bigint> | null = null;
  let queued: Promise<bigint> | null = null;

  const send = (): Promise<bigint> => {
    const read = readPosition().finally(() => {
      if (inFlight === read) inFlight = null;
    });
    inFlight = read;
    return read;
  };

  return {
    afterNow() {
      if (!inFlight) return send();
      // The read in flight was sent before this call and may miss the caller's commit: the next one cannot.
      queued ??= inFlight
        .catch(() => undefined)
        .then(() => {
          queued = null;
          return send();
        });
      return queued;
    },
  };
}
