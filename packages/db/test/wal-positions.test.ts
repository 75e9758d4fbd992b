import { describe, expect, it } from 'vitest';
import { formatWalPosition, parseWalPosition } from '../src/queries/wal-positions.js';

describe('WAL positions', () => {
  it('compare as Postgres orders them: the high word first', () => {
    expect(parseWalPosition('0/16B3748')).toBe(0x16b3748n);
    expect(parseWalPosition('1/0') > parseWalPosition('0/FFFFFFFF')).toBe(true);
    expect(parseWalPosition('16/b374d848')).toBe((0x16n << 32n) | 0xb374d848n);
  });

  it('print back as Postgres prints them', () => {
    for (const text of ['0/0', '0/16B3748', '16/B374D848', 'FFFFFFFF/FFFFFFFF']) expect(formatWalPosition(parseWalPosition(text))).toBe(text);
  });

  it('refuse what is not a position', () => {
    for (const text of ['', '0', '0/', '/0', '123456789/0', '0/G', ' 0/1', '0/1 ']) expect(() => parseWalPosition(text), text).toThrow(RangeError);
  });
});
