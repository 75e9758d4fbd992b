import { RaffleApiError } from '@raffle/sdk';

/**
 * Why a draw has to wait, and until when (ms since the epoch). The draw route answers 409 before
 * anything is done: DRAW_BEACON_PENDING while the raffle's beacon round (`beaconRound`, fixed at
 * the close) is not published, DRAW_CHAIN_PENDING while a chain its requirements read has not made
 * its first block after the close. Both carry Retry-After: the seconds until it is due.
 */
export type DrawWait =
  | { reason: 'beacon'; round: number | null; retryAt: number }
  | { reason: 'chain'; retryAt: number };

/** Without a Retry-After (a proxy dropped it), ask again soon rather than never. */
const FALLBACK_WAIT_SECONDS = 2;

/** The round the message names ("…draws with beacon round 1234, which…"), for a raffle record that predates the close. */
const roundInMessage = (message: string): number | null => {
  const match = /beacon round (\d+)/.exec(message);
  return match ? Number(match[1]) : null;
};

/** The wait a draw's refusal asks for, or null when the refusal is anything else (shown as the error it is). */
export function drawWaitOf(error: unknown, raffle: { beaconRound?: number | null }, now: number = Date.now()): DrawWait | null {
  if (!(error instanceof RaffleApiError) || error.status !== 409) return null;
  const retryAt = now + (error.retryAfter ?? FALLBACK_WAIT_SECONDS) * 1000;
  if (error.code === 'DRAW_BEACON_PENDING') return { reason: 'beacon', round: raffle.beaconRound ?? roundInMessage(error.message), retryAt };
  if (error.code === 'DRAW_CHAIN_PENDING') return { reason: 'chain', retryAt };
  return null;
}

/** Whole seconds left until `retryAt`, rounded up (never below 0): what the countdown shows. */
export const secondsLeft = (retryAt: number, now: number): number => Math.max(0, Math.ceil((retryAt - now) / 1000));
