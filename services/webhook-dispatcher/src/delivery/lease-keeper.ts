import { renewDeliveryLeases, type Sql } from '@raffle/db';
import type { FastifyBaseLogger as Logger } from 'fastify';

export type LeaseKeeperOptions = { sql: Sql; leaseMs: number; now: () => Date; log: Logger };

/**
 * The deliveries this instance holds — claimed, queued, in flight, or sent with their outcome not
 * yet recorded — and the heartbeat that keeps their leases: every third of a lease, one UPDATE
 * pushes forward the lease of every held delivery that has used a third of its own. A lease so
 * only has to outlive a couple of heartbeats, not the longest time a delivery can be held (a
 * queue, a 15 s POST, an outcome waiting for Postgres), and can be short: a dead instance's
 * deliveries come back within it, and nothing alive waits for one to run out.
 */
export function createLeaseKeeper(options: LeaseKeeperOptions) {
  const { leaseMs } = options;
  /** By delivery id: the attempts made when it was claimed (its lease is renewed only until that changes) and when its lease ends. */
  const held = new Map<string, { attemptsMade: number; leasedUntil: number }>();
  let timer: NodeJS.Timeout | null = null;
  let renewing: Promise<void> | null = null;
  let failing = false;

  const renew = async () => {
    const now = options.now().getTime();
    const due = [...held].filter(([, lease]) => lease.leasedUntil - now <= (leaseMs * 2) / 3);
    if (due.length === 0) return;
    const leasedUntil = now + leaseMs;
    try {
      await renewDeliveryLeases(options.sql, {
        leases: due.map(([deliveryId, lease]) => ({ deliveryId, attemptsMade: lease.attemptsMade })),
        leasedUntil: new Date(leasedUntil),
      });
      for (const [id] of due) {
        const lease = held.get(id);
        if (lease) lease.leasedUntil = leasedUntil;
      }
      if (failing) options.log.info({ held: due.length }, 'delivery leases renewed again');
      failing = false;
    } catch (error) {
      // Once per outage: the next heartbeats keep trying. A lease that runs out meanwhile lets
      // another instance send its delivery too (at least once, never lost).
      if (!failing) options.log.warn({ err: error, held: due.length }, 'renewing delivery leases failed; retrying at the next heartbeat');
      failing = true;
    }
  };

  const beat = () => {
    // A renewal still waiting on Postgres is not overtaken by the next one.
    renewing ??= renew().finally(() => {
      renewing = null;
    });
  };

  return {
    /** Holds a delivery claimed with a lease of `leaseMs` from now; false when it is held here already. */
    hold(deliveryId: string, attemptsMade: number): boolean {
      if (held.has(deliveryId)) return false;
      held.set(deliveryId, { attemptsMade, leasedUntil: options.now().getTime() + leaseMs });
      return true;
    },
    /** Stops renewing its lease: the delivery is settled, handed back, or left to its lease. */
    letGo(deliveryId: string) {
      held.delete(deliveryId);
    },
    get size() {
      return held.size;
    },
    start() {
      timer ??= setInterval(beat, Math.max(1, Math.floor(leaseMs / 3)));
      timer.unref();
    },
    /** Stops the heartbeat: what is still held comes back to the pollers when its lease runs out. */
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await renewing;
    },
  };
}

export type LeaseKeeper = ReturnType<typeof createLeaseKeeper>;
