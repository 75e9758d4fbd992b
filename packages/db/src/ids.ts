import { randomFillSync } from 'node:crypto';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export const ID_PREFIXES = {
  user: 'usr',
  workspace: 'wks',
  project: 'prj',
  raffle: 'raf',
  entry: 'ent',
  win: 'win',
  apiKey: 'key',
  event: 'evt',
  webhookEndpoint: 'whe',
  webhookDelivery: 'whd',
  webhookAttempt: 'wha',
  request: 'req',
} as const;
export type IdKind = keyof typeof ID_PREFIXES;

const RANDOM_BYTES_PER_ID = 10;
/** Random bytes are drawn from the kernel 4 KB at a time: every request gets an id, and a syscall per id showed in profiles. */
const randomPool = Buffer.alloc(4096);
let randomOffset = randomPool.length;

function takeRandomBytes(): Buffer {
  if (randomOffset + RANDOM_BYTES_PER_ID > randomPool.length) {
    randomFillSync(randomPool);
    randomOffset = 0;
  }
  const bytes = randomPool.subarray(randomOffset, randomOffset + RANDOM_BYTES_PER_ID);
  randomOffset += RANDOM_BYTES_PER_ID;
  return bytes;
}

/**
 * `<prefix>_` + 26 Crockford base32 characters: 48 bits of milliseconds, then 80 bits (the
 * ULID layout). Ids sort by creation time, so keyset pages in id order are arrival order.
 */
export function composeId(kind: IdKind, ms: number, random: Uint8Array): string {
  let time = '';
  let rest = ms;
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[rest % 32] + time;
    rest = Math.floor(rest / 32);
  }
  let tail = '';
  let acc = 0;
  let bits = 0;
  for (const byte of random.subarray(0, RANDOM_BYTES_PER_ID)) {
    acc = (acc << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      tail += CROCKFORD[(acc >> bits) & 31];
    }
    acc &= (1 << bits) - 1;
  }
  return `${ID_PREFIXES[kind]}_${time}${tail}`;
}

export const newId = (kind: IdKind, now: number = Date.now()): string => composeId(kind, now, takeRandomBytes());

/**
 * Ids for things created in this order that sort in it, even within one millisecond, where
 * `newId`'s random part would order them by chance: an id whose time is not after the previous
 * one's takes that time and its random part plus one (ULID's monotonic rule). One transaction's
 * events are the case: `raffle.published` and `raffle.opened` of one publish share a millisecond,
 * and consumers order events by id.
 */
export function newIdsInOrder(kind: IdKind, times: readonly number[]): string[] {
  const ids: string[] = [];
  let previous: { ms: number; random: Uint8Array } | null = null;
  for (const time of times) {
    const next: { ms: number; random: Uint8Array } =
      previous && time <= previous.ms ? { ms: previous.ms, random: plusOne(previous.random) } : { ms: time, random: Uint8Array.from(takeRandomBytes()) };
    ids.push(composeId(kind, next.ms, next.random));
    previous = next;
  }
  return ids;
}

/** The big-endian number one higher; 80 random bits do not overflow from a handful of increments. */
function plusOne(bytes: Uint8Array): Uint8Array {
  const next = Uint8Array.from(bytes);
  for (let i = next.length - 1; i >= 0; i--) {
    next[i] = (next[i]! + 1) & 0xff;
    if (next[i] !== 0) break;
  }
  return next;
}

const ID_BODY = /^[0-9A-HJKMNP-TV-Z]{26}$/;

/** True when `value` has the shape of an id of `kind`; lets routes answer 404 without a query. */
export function isIdOf(kind: IdKind, value: string): boolean {
  const prefix = `${ID_PREFIXES[kind]}_`;
  return value.startsWith(prefix) && ID_BODY.test(value.slice(prefix.length));
}

/** The creation time (epoch ms) an id of `composeId` carries in its first ten characters after the prefix. */
export function timeOfId(id: string): number {
  const time = id.slice(id.indexOf('_') + 1, id.indexOf('_') + 11);
  let ms = 0;
  for (const char of time) {
    const digit = CROCKFORD.indexOf(char);
    if (digit < 0) return Number.NaN;
    ms = ms * 32 + digit;
  }
  return ms;
}
