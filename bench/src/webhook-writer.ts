import { appendEvents, type Db } from '@raffle/db';

export type PacedWriter = {
  /** Epoch ms (sub-ms) at which batch `b`'s transaction had committed; NaN while it has not. */
  commitAt(batch: number): number;
  batches(): number;
  events(): number;
  /** The most transactions that were open at once (it grows when commits fall behind the pace). */
  maxInFlight(): number;
  /** How far behind its schedule the writer fell at worst, in ms. */
  maxLagMs(): number;
  stop(): Promise<void>;
};

const now = () => performance.timeOrigin + performance.now();
/** A few hundred bytes, roughly the size of a raffle as the data plane renders it. */
const FILLER = JSON.stringify({
  object: 'raffle',
  title: 'Benchmark raffle with a title of an ordinary length',
  description: 'x'.repeat(240),
  status: 'open',
  mechanic: 'raffle',
  spots: 100,
});

/**
 * Commits `raffle.published` events for one workspace at a fixed pace: a transaction of
 * `perTransaction` events every `perTransaction / eventsPerSecond` seconds, as domain
 * transitions would (appendEvents inside the transaction). Transactions overlap when one
 * is slow, so the pace holds; each event's data names its batch, whose commit time is kept.
 */
export function startPacedWriter(db: Db, workspaceId: string, args: { eventsPerSecond: number; perTransaction: number }): PacedWriter {
  const periodMs = (1000 * args.perTransaction) / args.eventsPerSecond;
  let commits = new Float64Array(1 << 14).fill(NaN);
  let next = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  let maxLagMs = 0;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const pending = new Set<Promise<void>>();
  const started = now();

  const commit = async (batch: number) => {
    const at = new Date();
    const events = Array.from({ length: args.perTransaction }, (_, i) => ({
      type: 'raffle.published' as const,
      audience: { workspaceId },
      data: `{"batch":${batch},"i":${i},"id":"raf_bench_${batch}_${i}","raffle":${FILLER}}`,
      at,
    }));
    await db.transaction((tx) => appendEvents(tx, events));
    if (batch >= commits.length) {
      const grown = new Float64Array(commits.length * 2).fill(NaN);
      grown.set(commits);
      commits = grown;
    }
    commits[batch] = now();
  };

  const tick = () => {
    if (stopped) return;
    const t = now();
    while (started + next * periodMs <= t) {
      maxLagMs = Math.max(maxLagMs, t - (started + next * periodMs));
      const batch = next++;
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      const p: Promise<void> = commit(batch).finally(() => {
        inFlight -= 1;
        pending.delete(p);
      });
      pending.add(p);
    }
    timer = setTimeout(tick, Math.max(0, started + next * periodMs - now()));
  };
  tick();

  return {
    commitAt: (batch) => (batch >= 0 && batch < commits.length ? commits[batch]! : NaN),
    batches: () => next,
    events: () => next * args.perTransaction,
    maxInFlight: () => maxInFlight,
    maxLagMs: () => maxLagMs,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await Promise.all(pending);
    },
  };
}
