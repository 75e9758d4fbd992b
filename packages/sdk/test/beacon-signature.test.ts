import { describe, expect, it } from 'vitest';
import { generateSecretKey, isRoundSignatureValid, publicKeyOf, QUICKNET, randomnessOf, signRound } from '../src/index.js';
import { ALL_QUICKNET_ROUNDS, QUICKNET_ROUNDS } from './support/quicknet-rounds.js';

const { round1000 } = QUICKNET_ROUNDS;

describe('isRoundSignatureValid', () => {
  it.each(ALL_QUICKNET_ROUNDS)('accepts published quicknet round $round ($source)', ({ round, signature, randomness }) => {
    expect(isRoundSignatureValid(QUICKNET, round, signature)).toBe(true);
    expect(randomnessOf(signature)).toBe(randomness);
  });

  it('refuses a signature with one bit flipped', () => {
    const last = round1000.signature.at(-1) === '8' ? '9' : '8';
    expect(isRoundSignatureValid(QUICKNET, 1000, round1000.signature.slice(0, -1) + last)).toBe(false);
  });

  it("refuses a round's signature offered for the next round", () => {
    expect(isRoundSignatureValid(QUICKNET, 1001, round1000.signature)).toBe(false);
  });

  it('refuses a signature by another key', () => {
    const signature = signRound(generateSecretKey(), 1000);
    expect(isRoundSignatureValid(QUICKNET, 1000, signature)).toBe(false);
  });

  it("accepts a round signed by a local key against that key, on drand's scheme", () => {
    const secretKey = generateSecretKey();
    expect(isRoundSignatureValid({ publicKey: publicKeyOf(secretKey) }, 7, signRound(secretKey, 7))).toBe(true);
  });

  it.each(['', 'zz', round1000.signature.toUpperCase(), round1000.signature + '00', '00'.repeat(48)])('refuses the malformed signature %j without throwing', (signature) => {
    expect(isRoundSignatureValid(QUICKNET, 1000, signature)).toBe(false);
  });
});
