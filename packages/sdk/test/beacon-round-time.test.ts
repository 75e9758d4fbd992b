import { describe, expect, it } from 'vitest';
import { QUICKNET, roundAt, timeOfRound } from '../src/index.js';

describe('round math on quicknet', () => {
  it('starts round 1 at genesis and has no round before it', () => {
    expect(roundAt(QUICKNET, QUICKNET.genesisTime)).toBe(1);
    expect(roundAt(QUICKNET, QUICKNET.genesisTime - 1)).toBe(0);
    expect(timeOfRound(QUICKNET, 1)).toBe(QUICKNET.genesisTime);
  });

  it("puts round 1000 at 2023-08-23 15:59:24 UTC, the time dee's README shows for it", () => {
    const t = Date.parse('2023-08-23T15:59:24Z') / 1000;
    expect(timeOfRound(QUICKNET, 1000)).toBe(t);
    expect(roundAt(QUICKNET, t)).toBe(1000);
    expect(roundAt(QUICKNET, t + 2.999)).toBe(1000);
    expect(roundAt(QUICKNET, t + 3)).toBe(1001);
    expect(roundAt(QUICKNET, t - 0.001)).toBe(999);
  });

  it('is the inverse of timeOfRound for far rounds', () => {
    for (const round of [2, 42, 12040883, 40_000_000]) expect(roundAt(QUICKNET, timeOfRound(QUICKNET, round))).toBe(round);
  });

  it('refuses a round that is not a positive integer', () => {
    expect(() => timeOfRound(QUICKNET, 0)).toThrow(RangeError);
    expect(() => timeOfRound(QUICKNET, 1.5)).toThrow(RangeError);
  });
});
