import { ChainUnavailable } from '@raffle/chain';
import { describe, expect, it } from 'vitest';
import { CloseBlockPending, createChainWaits } from '../src/index.js';

const closedAt = new Date('2026-01-01T00:00:00Z');

describe('what a scheduler remembers about draws waiting on a chain', () => {
  it('asks again for a raffle whose close block is pending after its Retry-After, and only for that raffle', () => {
    const waits = createChainWaits();
    expect(waits.failed('raf_a', new CloseBlockPending('anvil', closedAt), 0)).toBe('pending');
    expect(waits.waiting('raf_a', ['anvil'], 1_999)).toBe('pending');
    expect(waits.waiting('raf_a', ['anvil'], 2_000)).toBeNull();
    expect(waits.waiting('raf_b', ['anvil'], 1_000)).toBeNull();
  });

  it('holds every raffle reading an unreachable chain, doubling the delay up to 30 s, and forgets it once the chain answers', () => {
    const waits = createChainWaits();
    const down = () => new ChainUnavailable('anvil', 'no answer');
    expect(waits.failed('raf_a', down(), 0)).toBe('unavailable');
    expect(waits.waiting('raf_b', ['anvil', 'base'], 1_999)).toBe('unavailable');
    expect(waits.waiting('raf_c', ['base'], 1_000)).toBeNull();
    const delays: number[] = [];
    let now = 0;
    for (let i = 0; i < 6; i++) {
      waits.failed('raf_a', down(), now);
      let at = now;
      while (waits.waiting('raf_a', ['anvil'], at)) at += 1_000;
      delays.push((at - now) / 1000);
      now = at;
    }
    expect(delays).toEqual([4, 8, 16, 30, 30, 30]);
    waits.pinned('raf_a', ['anvil']);
    expect(waits.waiting('raf_b', ['anvil'], now)).toBeNull();
  });

  it('is not the place for other errors: they are failures, not waits', () => {
    expect(createChainWaits().failed('raf_a', new Error('a bug'), 0)).toBeNull();
  });
});
