import { randomBytes, randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { drawKey, drawKeyHasher } from '../src/index.js';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const body = () => Array.from({ length: 26 }, () => CROCKFORD[randomInt(32)]).join('');

/** Weights as trim_scale prints them: integers, decimals of up to 6 places, tiny and huge. */
function randomWeight(): string {
  switch (randomInt(4)) {
    case 0:
      return String(randomInt(1, 101));
    case 1:
      return `${randomInt(1, 1000)}.${String(randomInt(1, 1_000_000)).padStart(6, '0')}`.replace(/0+$/, '');
    case 2:
      return `0.${String(randomInt(1, 1000)).padStart(6, '0')}`.replace(/0+$/, '');
    default:
      return `${randomInt(1, 2 ** 47)}${randomInt(10) ** 2}`;
  }
}

describe('drawKeyHasher', () => {
  it('gives bit-identical keys to the SDK drawKey on random seeds, ids and weights', () => {
    let compared = 0;
    for (let s = 0; s < 20; s++) {
      const seed = randomBytes(32);
      const hasher = drawKeyHasher(seed);
      for (let i = 0; i < 2_000; i++) {
        // Mostly real ids; some of other lengths up to 80 bytes, so both the one-block path and the node:crypto fallback run.
        const id = i % 10 === 0 ? randomBytes(randomInt(0, 81)).toString('base64url') : `ent_${body()}`;
        const weight = randomWeight();
        const line = Buffer.from(`xx${id}:usr_${body()}:${weight}\n`);
        const fast = hasher(line, 2, 2 + Buffer.byteLength(id), Number(weight));
        expect(Object.is(fast, drawKey(seed, { id, userId: 'usr_x', weight })), `${id} ${weight}`).toBe(true);
        compared++;
      }
    }
    expect(compared).toBe(40_000);
  });

  it('agrees for seeds of every length class: empty, one block, and longer than a block (hashed first)', () => {
    for (const seed of [randomBytes(32), randomBytes(64), randomBytes(65), Buffer.alloc(0)]) {
      const hasher = drawKeyHasher(seed);
      for (let i = 0; i < 5_000; i++) {
        const id = `ent_${String(i).padStart(26, '0')}`;
        expect(Object.is(hasher(Buffer.from(id), 0, id.length, 1), drawKey(seed, { id, userId: 'usr_x', weight: '1' }))).toBe(true);
      }
    }
  });
});
