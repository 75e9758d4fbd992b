import { describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { beaconMixedSeed, beaconRoundForClose, generateSecretKey, isRoundSignatureValid, publicKeyOf, QUICKNET, randomnessOf, roundAt, signRound } from '../src/index.js';
import { QUICKNET_ROUNDS } from './support/quicknet-rounds.js';

describe("the SDK's beacon checks", () => {
  it.each(Object.values(QUICKNET_ROUNDS))('accepts quicknet round $round as drand published it', ({ round, signature, randomness }) => {
    expect(isRoundSignatureValid(QUICKNET, round, signature)).toBe(true);
    expect(randomnessOf(signature)).toBe(randomness);
  });

  it("refuses a round's signature for the next round, a flipped bit, and another key's signature", () => {
    const { round, signature } = QUICKNET_ROUNDS.round1000;
    expect(isRoundSignatureValid(QUICKNET, round + 1, signature)).toBe(false);
    const flipped = (Number.parseInt(signature.slice(-1), 16) ^ 1).toString(16);
    expect(isRoundSignatureValid(QUICKNET, round, signature.slice(0, -1) + flipped)).toBe(false);
    const secretKey = generateSecretKey();
    expect(isRoundSignatureValid(QUICKNET, round, signRound(secretKey, round))).toBe(false);
    expect(isRoundSignatureValid({ publicKey: publicKeyOf(secretKey) }, round, signRound(secretKey, round))).toBe(true);
  });

  it('fixes the round two after the one current at the close', () => {
    // Round 1000 is due at 2023-08-23T15:59:24Z; a close in its period draws with round 1002.
    expect(roundAt(QUICKNET, Date.parse('2023-08-23T15:59:24Z') / 1000)).toBe(1000);
    expect(beaconRoundForClose(QUICKNET, new Date('2023-08-23T15:59:26.999Z'))).toBe(1002);
    expect(beaconRoundForClose(QUICKNET, new Date('2023-08-23T15:59:27Z'))).toBe(1003);
  });

  it('mixes the round into the key as HMAC-SHA256(seed, "drand:" + chainHash + ":" + round + ":" + randomness)', () => {
    const seed = new Uint8Array(32).fill(7);
    const { round, randomness } = QUICKNET_ROUNDS.round1000;
    const mixed = beaconMixedSeed(seed, { chainHash: QUICKNET.chainHash, round, randomness });
    expect(Buffer.from(mixed).toString('hex')).toBe(createHmac('sha256', seed).update(`drand:${QUICKNET.chainHash}:1000:${randomness}`).digest('hex'));
    expect(beaconMixedSeed(seed, { chainHash: QUICKNET.chainHash, round: round + 1, randomness })).not.toEqual(mixed);
  });
});
