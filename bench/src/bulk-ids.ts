import { randomFillSync } from 'node:crypto';
import { ID_PREFIXES, isIdOf, type IdKind } from '@raffle/db';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const POOL_BYTES = 64 * 1024;

/**
 * Ids with exactly `newId`'s layout (prefix, 10 base32 characters of milliseconds, 16 of
 * randomness), but the randomness comes from a pooled buffer: `newId` asks the kernel for 10
 * bytes per id, which dominated seeding time (about 10 µs a call here, 2 million calls).
 */
export function bulkIdFactory(kind: IdKind): (ms: number) => string {
  const prefix = `${ID_PREFIXES[kind]}_`;
  const pool = Buffer.alloc(POOL_BYTES);
  let offset = POOL_BYTES;
  return (ms) => {
    let time = '';
    for (let i = 0, rest = ms; i < 10; i++, rest = Math.floor(rest / 32)) time = CROCKFORD[rest % 32] + time;
    if (offset + 16 > POOL_BYTES) {
      randomFillSync(pool);
      offset = 0;
    }
    // One random byte per character, 5 bits used: 80 random bits, as in newId.
    let random = '';
    for (let i = 0; i < 16; i++) random += CROCKFORD[pool[offset++]! & 31];
    return prefix + time + random;
  };
}

/** Fails fast if the layout ever drifts from what the data plane accepts as an id. */
export function assertIdShape(kind: IdKind, id: string) {
  if (!isIdOf(kind, id)) throw new Error(`generated ${kind} id ${id} does not have the platform's id shape`);
}
