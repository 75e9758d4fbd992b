import { appendEvents, type Db } from '@raffle/db';

export type EventWriter = {
  /** Resolves once the last transaction committed, with how many events were written. */
  done: Promise<number>;
  committed(): number;
  stop(): Promise<number>;
};

/**
 * Commits `raffle.published` events for one workspace at a steady pace, `perTransaction` in
 * each transaction, as domain transitions would, until `total` are written or it is stopped.
 */
export function writeEventsSteadily(db: Db, workspaceId: string, args: { total: number; perTransaction: number; everyMs: number }): EventWriter {
  let committed = 0;
  let stopped = false;
  const done = (async () => {
    while (!stopped && committed < args.total) {
      const started = Date.now();
      const n = Math.min(args.perTransaction, args.total - committed);
      const at = new Date();
      await db.transaction((tx) =>
        appendEvents(
          tx,
          Array.from({ length: n }, (_, i) => ({
            type: 'raffle.published' as const,
            audience: { workspaceId },
            data: { id: `raf_fault_${committed + i}`, n: committed + i },
            at,
          })),
        ),
      );
      committed += n;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, args.everyMs - (Date.now() - started))));
    }
    return committed;
  })();
  return {
    done,
    committed: () => committed,
    async stop() {
      stopped = true;
      return done;
    },
  };
}
