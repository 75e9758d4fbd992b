import { describe, expect, it } from 'vitest';
import { createProviderDrawWaits, ProviderWaitAtDraw } from '../src/index.js';

const at = (ms: number) => new Date(ms);

describe('what a scheduler remembers about draws waiting on Discord or X', () => {
  it('holds a raffle whose entrants a provider asked to wait for until that reset, and only that raffle', () => {
    const waits = createProviderDrawWaits();
    expect(waits.failed('raf_a', new ProviderWaitAtDraw('discord', 'rate_limited', at(45_000), at(0)), 0)).toBe('rate_limited');
    expect(waits.waiting('raf_a', ['discord'], 44_999)).toBe('rate_limited');
    expect(waits.waiting('raf_a', ['discord'], 45_000)).toBeNull();
    expect(waits.waiting('raf_b', ['discord'], 1_000)).toBeNull();
  });

  it('holds every raffle reading a silent provider, doubling the delay up to 30 s, and forgets it once the provider answers', () => {
    const waits = createProviderDrawWaits();
    const silent = (now: number) => new ProviderWaitAtDraw('x', 'unavailable', null, at(now));
    expect(waits.failed('raf_a', silent(0), 0)).toBe('unavailable');
    expect(waits.waiting('raf_b', ['discord', 'x'], 1_999)).toBe('unavailable');
    expect(waits.waiting('raf_c', ['discord'], 1_000)).toBeNull();
    const delays: number[] = [];
    let now = 0;
    for (let i = 0; i < 6; i++) {
      waits.failed('raf_a', silent(now), now);
      let t = now;
      while (waits.waiting('raf_a', ['x'], t)) t += 1_000;
      delays.push((t - now) / 1000);
      now = t;
    }
    expect(delays).toEqual([4, 8, 16, 30, 30, 30]);
    waits.read('raf_a', ['x']);
    expect(waits.waiting('raf_b', ['x'], now)).toBeNull();
  });

  it('is not the place for other errors: they are failures, not waits', () => {
    expect(createProviderDrawWaits().failed('raf_a', new Error('a bug'), 0)).toBeNull();
  });

  it('tells a manual draw when to ask again: the reset, or 10 s for a silent provider', () => {
    expect(new ProviderWaitAtDraw('discord', 'rate_limited', at(12_300), at(0)).retryAfterSeconds).toBe(13);
    expect(new ProviderWaitAtDraw('discord', 'unavailable', null, at(0)).retryAfterSeconds).toBe(10);
  });
});
