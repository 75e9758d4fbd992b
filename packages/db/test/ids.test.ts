import { describe, expect, it } from 'vitest';
import { composeId, newId, timeOfId } from '../src/ids.js';

describe('ids', () => {
  it('carry their creation time, which timeOfId reads back (the webhook delivery lag metric uses it)', () => {
    for (const ms of [0, 1, 1_795_732_503_956, 2 ** 48 - 1]) expect(timeOfId(composeId('event', ms, new Uint8Array(10)))).toBe(ms);
    const before = Date.now();
    const id = newId('webhookDelivery');
    expect(timeOfId(id)).toBeGreaterThanOrEqual(before);
    expect(timeOfId(id)).toBeLessThanOrEqual(Date.now());
  });

  it('sort by creation time', () => {
    expect(composeId('event', 1000, new Uint8Array(10).fill(255)) < composeId('event', 1001, new Uint8Array(10))).toBe(true);
  });

  it('an id that is not ours has no time', () => {
    expect(timeOfId('evt_not-a-valid-id!')).toBeNaN();
  });
});
