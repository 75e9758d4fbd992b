import { describe, expect, it } from 'vitest';
import { RaffleBackoff } from '../src/plugins/raffle-backoff.js';

describe("the resolver's per-raffle backoff", () => {
  it('leaves a raffle whose read failed alone, longer after each failure, and never another raffle', () => {
    const backoff = new RaffleBackoff(1_000, 8_000);
    backoff.record({ silentRaffleIds: ['raf_a'], settledRaffleIds: ['raf_b'] }, 0);
    expect(backoff.waiting(999)).toEqual(['raf_a']);
    expect(backoff.waiting(1_000)).toEqual([]);
    backoff.record({ silentRaffleIds: ['raf_a'], settledRaffleIds: [] }, 1_000);
    expect(backoff.waiting(2_999)).toEqual(['raf_a']);
    expect(backoff.waiting(3_000)).toEqual([]);
    for (let at = 3_000; at < 60_000; at += 10_000) backoff.record({ silentRaffleIds: ['raf_a'], settledRaffleIds: [] }, at);
    // Capped: the last failure, at 53 s, waits 8 s.
    expect(backoff.waiting(60_999)).toEqual(['raf_a']);
    expect(backoff.waiting(61_000)).toEqual([]);
  });

  it('forgets the wait at the first successful read', () => {
    const backoff = new RaffleBackoff(1_000, 8_000);
    backoff.record({ silentRaffleIds: ['raf_a'], settledRaffleIds: [] }, 0);
    backoff.record({ silentRaffleIds: ['raf_a'], settledRaffleIds: [] }, 1_000);
    backoff.record({ silentRaffleIds: [], settledRaffleIds: ['raf_a'] }, 3_000);
    backoff.record({ silentRaffleIds: ['raf_a'], settledRaffleIds: [] }, 3_000);
    // Back to the first wait, not the doubled one.
    expect(backoff.waiting(3_999)).toEqual(['raf_a']);
    expect(backoff.waiting(4_000)).toEqual([]);
  });
});
