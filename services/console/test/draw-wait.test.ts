import { RaffleApiError } from '@raffle/sdk';
import { describe, expect, it } from 'vitest';
import { drawWaitOf, secondsLeft } from '../src/pages/raffles/draw-wait.js';

const refusal = (status: number, code: string | null, message: string, retryAfter: number | null) =>
  new RaffleApiError({ status, code, message, requestId: 'req_1', retryAfter, body: { message }, headers: new Headers() });

const NOW = Date.UTC(2026, 0, 1);

describe("a draw's refusal as a wait", () => {
  it('waits for the beacon round the raffle names, until its Retry-After', () => {
    const error = refusal(409, 'DRAW_BEACON_PENDING', 'DRAW_BEACON_PENDING: the raffle draws with beacon round 812, which is not published yet; retry in 3 s', 3);
    expect(drawWaitOf(error, { beaconRound: 812 }, NOW)).toEqual({ reason: 'beacon', round: 812, retryAt: NOW + 3_000 });
    // A raffle record read before the close has no round yet: the message names it.
    expect(drawWaitOf(error, { beaconRound: null }, NOW)).toEqual({ reason: 'beacon', round: 812, retryAt: NOW + 3_000 });
  });

  it('waits for the close block too, and asks again soon when Retry-After is missing', () => {
    const error = refusal(409, 'DRAW_CHAIN_PENDING', 'DRAW_CHAIN_PENDING: chain anvil has not produced…', null);
    expect(drawWaitOf(error, {}, NOW)).toEqual({ reason: 'chain', retryAt: NOW + 2_000 });
  });

  it('leaves every other failure to be shown as the error it is', () => {
    expect(drawWaitOf(refusal(409, 'RAFFLE_CANNOT_DRAW', 'RAFFLE_CANNOT_DRAW: …', null), {}, NOW)).toBeNull();
    expect(drawWaitOf(refusal(503, 'BEACON_UNAVAILABLE', 'BEACON_UNAVAILABLE: …', 10), {}, NOW)).toBeNull();
    expect(drawWaitOf(new Error('offline'), {}, NOW)).toBeNull();
  });

  it('counts down in whole seconds, rounded up, never below zero', () => {
    expect(secondsLeft(NOW + 2_001, NOW)).toBe(3);
    expect(secondsLeft(NOW + 2_000, NOW)).toBe(2);
    expect(secondsLeft(NOW - 500, NOW)).toBe(0);
  });
});
