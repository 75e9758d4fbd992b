import { describe, expect, it } from 'vitest';
import { AUTO_DISABLE_AFTER_MS, DELIVERY_TIMEOUT_MS, RESPONSE_BODY_LIMIT_BYTES, RETRY_SCHEDULE_MS, delayBeforeNextAttempt } from '../src/index.js';

const s = 1000;
const min = 60 * s;
const h = 60 * min;

describe('retry schedule', () => {
  it('is product.md: immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h', () => {
    expect(RETRY_SCHEDULE_MS).toEqual([0, 5 * s, 5 * min, 30 * min, 2 * h, 5 * h, 10 * h, 10 * h]);
    expect(Object.isFrozen(RETRY_SCHEDULE_MS)).toBe(true);
    expect(AUTO_DISABLE_AFTER_MS).toBe(5 * 24 * h);
    expect(DELIVERY_TIMEOUT_MS).toBe(15_000);
    expect(RESPONSE_BODY_LIMIT_BYTES).toBe(1024);
  });

  it('gives the scheduled delay with a centred random, and stays within ±10% at the extremes', () => {
    for (let made = 1; made < 8; made++) {
      const base = RETRY_SCHEDULE_MS[made]!;
      expect(delayBeforeNextAttempt(made, () => 0.5)).toBe(base);
      expect(delayBeforeNextAttempt(made, () => 0)).toBe(Math.round(base * 0.9));
      expect(delayBeforeNextAttempt(made, () => 0.999999)).toBeLessThanOrEqual(Math.round(base * 1.1));
      for (let i = 0; i < 200; i++) {
        const delay = delayBeforeNextAttempt(made)!;
        expect(delay).toBeGreaterThanOrEqual(Math.floor(base * 0.9));
        expect(delay).toBeLessThanOrEqual(Math.ceil(base * 1.1));
      }
    }
  });

  it('waits 5 s after the first failure and 10 h after the seventh', () => {
    expect(delayBeforeNextAttempt(1, () => 0.5)).toBe(5 * s);
    expect(delayBeforeNextAttempt(7, () => 0.5)).toBe(10 * h);
  });

  it('is exhausted after 8 attempts', () => {
    expect(delayBeforeNextAttempt(8)).toBeNull();
    expect(delayBeforeNextAttempt(9)).toBeNull();
  });

  it('refuses a negative or fractional attempt count, and clamps a random outside [0, 1)', () => {
    expect(() => delayBeforeNextAttempt(-1)).toThrow(RangeError);
    expect(() => delayBeforeNextAttempt(1.5)).toThrow(RangeError);
    expect(delayBeforeNextAttempt(1, () => 7)).toBe(5500);
  });
});
