import type { WalClock } from './wal-clock.js';

/**
 * How fresh the read replica is, as this instance last saw it: the position it has replayed, and
 * an upper bound on how old its data may be. Every `intervalMs` the primary's WAL position is read
 * (remembered with the moment just before the read was sent), then the replica's replay position:
 * once the replica has replayed past a remembered position, everything committed before that
 * moment is visible on it, so its data is at most `now - moment` old.
 */
export type ReplicaFreshness = {
  /** The replay position last read, or null while the replica is unavailable (down, not replaying, never read). */
  replayed(): bigint | null;
  /** The bound in ms, or null while the replica is unavailable. */
  stalenessMs(now?: number): number | null;
  /** A read on the replica failed as if it were down: nothing more goes there until a sample reaches it again. */
  markUnavailable(): void;
  /** Samples now and then every interval; resolves after the first sample. */
  start(): Promise<void>;
  stop(): Promise<void>;
};

export type ReplicaFreshnessOptions = {
  primary: WalClock;
  /** The replica's replay position; null when it is not replaying; rejects when it cannot be reached. */
  replicaPosition: () => Promise<bigint | null>;
  intervalMs: number;
  /** Told when the replica becomes unavailable or available again (for the log). */
  onAvailabilityChange?: (available: boolean, reason: string) => void;
  now?: () => number;
};

type PrimarySample = { at: number; position: bigint };

/** Enough history for a replica whose replay stopped: older samples only lower a bound nobody uses. */
const MAX_SAMPLES = 600;

export function createReplicaFreshness(options: ReplicaFreshnessOptions): ReplicaFreshness {
  const now = options.now ?? Date.now;
  const samples: PrimarySample[] = [];
  let replayed: bigint | null = null;
  let freshAsOf: number | null = null;
  let available = false;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let stopped = false;

  const setAvailable = (next: boolean, reason: string) => {
    if (next !== available) options.onAvailabilityChange?.(next, reason);
    available = next;
    if (!next) replayed = null;
  };

  const sample = async () => {
    const at = now();
    try {
      samples.push({ at, position: await options.primary.afterNow() });
      if (samples.length > MAX_SAMPLES) samples.shift();
    } catch {
      // The primary did not answer: the replica's bound keeps growing from its last known point.
    }
    let position: bigint | null;
    try {
      position = await options.replicaPosition();
    } catch (error) {
      setAvailable(false, `the replica did not answer: ${(error as Error).message}`);
      return;
    }
    if (position === null) {
      setAvailable(false, 'the read database is not replaying WAL (a primary, or a promoted replica)');
      return;
    }
    replayed = position;
    // The newest sample the replica has passed; older ones are no longer needed.
    let passed = -1;
    for (let i = samples.length - 1; i >= 0; i--) {
      if (samples[i]!.position <= position) {
        passed = i;
        break;
      }
    }
    if (passed >= 0) {
      freshAsOf = Math.max(freshAsOf ?? 0, samples[passed]!.at);
      samples.splice(0, passed);
    }
    setAvailable(freshAsOf !== null, 'the replica has not yet replayed a position this instance saw on the primary');
  };

  const loop = () => {
    if (stopped) return;
    running = sample().finally(() => {
      running = null;
      if (!stopped) timer = setTimeout(loop, options.intervalMs).unref();
    });
  };

  return {
    replayed: () => (available ? replayed : null),
    stalenessMs: (at = now()) => (available && freshAsOf !== null ? Math.max(0, at - freshAsOf) : null),
    markUnavailable: () => setAvailable(false, 'a read on the replica failed'),
    async start() {
      await sample();
      timer = setTimeout(loop, options.intervalMs).unref();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
