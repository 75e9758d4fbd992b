import { requestAllowlistBuild, type DbOrTx } from '@raffle/db';
import { allowlistSettingsOf, hasAllowlist } from './allowlist-settings.js';

type AllowlistRaffle = { id: string; allocationType: string; status: string; settings: Parameters<typeof allowlistSettingsOf>[0] };

/**
 * Queues the raffle's allowlist for a build, in the transaction that finalized it or changed its
 * finalized winners (a disqualification, a reroll). Nothing is built here: finalize is not held
 * up by a tree of 100,000 leaves; the builder publishes the version (publishDueAllowlists). While
 * winners may still name a wallet, the build waits for the deadline.
 */
export async function queueAllowlistBuild(tx: DbOrTx, raffle: AllowlistRaffle, now: Date): Promise<void> {
  if (!hasAllowlist(raffle) || raffle.status !== 'finalized') return;
  const { walletDeadline } = allowlistSettingsOf(raffle.settings);
  const notBefore = walletDeadline && walletDeadline > now ? walletDeadline : now;
  await requestAllowlistBuild(tx, { raffleId: raffle.id, requestedAt: now, notBefore });
}
