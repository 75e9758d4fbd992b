import { describe, expect, it } from 'vitest';
import { createReplicaFreshness } from '../src/read-routing/replica-freshness.js';
import { createWalClock } from '../src/read-routing/wal-clock.js';
import { createWriteFences } from '../src/read-routing/write-fences.js';

/** The read routing's parts on their own: what each promises, with the clock and the positions in the test's hands. */

const deferred = <T>() => {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
};

describe('the WAL clock', () => {
  it('never answers a caller with a read sent before its call, and shares reads among callers', async () => {
    const reads: Array<ReturnType<typeof deferred<bigint>>> = [];
    const clock = createWalClock(() => {
      const read = deferred<bigint>();
      reads.push(read);
      return read.promise;
    });
    const early = clock.afterNow();
    const lateA = clock.afterNow();
    const lateB = clock.afterNow();
    expect(reads).toHaveLength(1);
    reads[0]!.resolve(10n);
    expect(await early).toBe(10n);
    // The late callers came while the first read was out: they wait for one sent after it.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(reads).toHaveLength(2);
    reads[1]!.resolve(20n);
    expect([await lateA, await lateB]).toEqual([20n, 20n]);
  });

  it('a failed read fails its callers, and the next caller gets a new read', async () => {
    let n = 0;
    const clock = createWalClock(async () => {
      n++;
      if (n === 1) throw new Error('primary down');
      return 5n;
    });
    await expect(clock.afterNow()).rejects.toThrow('primary down');
    expect(await clock.afterNow()).toBe(5n);
  });
});

describe('the replica freshness', () => {
  function scene() {
    let now = 1_000;
    let primary = 100n;
    let replica: bigint | null | Error = 100n;
    const changes: boolean[] = [];
    const freshness = createReplicaFreshness({
      primary: { afterNow: async () => primary },
      replicaPosition: async () => {
        if (replica instanceof Error) throw replica;
        return replica;
      },
      intervalMs: 1_000_000,
      onAvailabilityChange: (available) => changes.push(available),
      now: () => now,
    });
    return {
      freshness,
      changes,
      at: (ms: number) => (now = ms),
      primaryAt: (p: bigint) => (primary = p),
      replicaAt: (r: bigint | null | Error) => (replica = r),
    };
  }

  it('is unavailable until a sample places the replica, then bounds its age by the newest primary position it has passed', async () => {
    const s = scene();
    expect(s.freshness.stalenessMs()).toBeNull();
    await s.freshness.start();
    expect(s.freshness.replayed()).toBe(100n);
    expect(s.freshness.stalenessMs(1_250)).toBe(250);
    // The primary moves on; the replica does not: the bound grows from the last position it passed.
    s.at(2_000);
    s.primaryAt(200n);
    await s.freshness.start();
    expect(s.freshness.stalenessMs(2_500)).toBe(1_500);
    // It replays past 200: as fresh as the moment 200 was read.
    s.at(3_000);
    s.primaryAt(300n);
    s.replicaAt(250n);
    await s.freshness.start();
    expect(s.freshness.stalenessMs(3_100)).toBe(1_100);
    await s.freshness.stop();
  });

  it('a replica that does not answer, or is not replaying, is unavailable until a sample reaches it again', async () => {
    const s = scene();
    await s.freshness.start();
    s.replicaAt(new Error('down'));
    await s.freshness.start();
    expect([s.freshness.stalenessMs(), s.freshness.replayed()]).toEqual([null, null]);
    s.replicaAt(null);
    await s.freshness.start();
    expect(s.freshness.stalenessMs()).toBeNull();
    s.replicaAt(100n);
    await s.freshness.start();
    expect(s.freshness.replayed()).toBe(100n);
    s.freshness.markUnavailable();
    expect(s.freshness.stalenessMs()).toBeNull();
    expect(s.changes).toEqual([true, false, true, false]);
    await s.freshness.stop();
  });
});

describe('the write fences', () => {
  it("keep each caller's latest write, forget what the replica replayed, and stay bounded", () => {
    const fences = createWriteFences(2);
    fences.record('a', 10n);
    fences.record('a', 5n);
    expect(fences.fenceOf('a')).toBe(10n);
    fences.record('b', 20n);
    fences.record('c', 30n);
    // Three callers in a map of two: the oldest write goes.
    expect([fences.fenceOf('a'), fences.fenceOf('b'), fences.fenceOf('c')]).toEqual([null, 20n, 30n]);
    fences.forgetReplayed(25n);
    expect([fences.fenceOf('b'), fences.fenceOf('c'), fences.size()]).toEqual([null, 30n, 1]);
  });
});
