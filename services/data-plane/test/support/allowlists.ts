import { randomBytes } from 'node:crypto';
import type { CreateRaffleBody } from '@raffle/contracts';
import { addWorkspaceMember, listAllowlistWinners } from '@raffle/db';
import { disqualifyWin, enterRaffle, publishDueAllowlists, rerollWin, systemClock, userPrincipal, type Clock } from '@raffle/domain';
import type { LifecycleWorld } from './lifecycle.js';

/** A fresh EVM address in lowercase: every entrant's wallet on the raffle's chain. */
export const randomAddress = () => `0x${randomBytes(20).toString('hex')}`;

export type AllowlistEntrant = Awaited<ReturnType<LifecycleWorld['entrant']>> & { address: string };

/**
 * An allowlist raffle (on ethereum) with `entrants` entrants, each with a verified wallet there,
 * taken through the real lifecycle up to its draw: finalize it (and publish its allowlist) in the
 * test. A private raffle's entrants are made members, as only members may enter it.
 */
export async function drawnAllowlistRaffle(world: LifecycleWorld, options: { spots: number; entrants: number; body?: Partial<CreateRaffleBody> }) {
  const raffle = await world.open({ spots: options.spots, chain: 'ethereum', allocationType: 'allowlist_gtd', ...options.body });
  const entrants: AllowlistEntrant[] = [];
  for (let i = 0; i < options.entrants; i++) {
    const address = randomAddress();
    const entrant = await world.entrant({ wallets: [{ chain: 'ethereum', address, verified: true }] });
    if (raffle.visibility === 'private') await addWorkspaceMember(world.db, { workspaceId: world.workspace.id, userId: entrant.user.id, role: 'member' });
    await enterRaffle(world.db, { raffle: { raffleId: raffle.id }, actor: userPrincipal(entrant.user.id), source: 'api' });
    entrants.push({ ...entrant, address });
  }
  await world.close(raffle.id);
  await world.draw(raffle.id);
  return { raffle, entrants };
}

/** Builds and publishes every due allowlist, as the scheduler's pass does after each tick. */
export const publishAllowlists = (world: LifecycleWorld, clock: Clock = systemClock) => publishDueAllowlists(world.db, { clock });

/** The finalized wins, by position, with the wallet each one's leaf is for. */
export const finalizedWins = (world: LifecycleWorld, raffleId: string) => listAllowlistWinners(world.db, raffleId);

/** The team disqualifies a win (a finalized one queues a new version). */
export const disqualify = (world: LifecycleWorld, raffleId: string, winId: string) =>
  disqualifyWin(world.db, { actor: world.team, workspaceId: world.workspace.id, raffleId, winId, reason: 'bot' });

/** The team gives a disqualified win's position to the next entry. */
export const reroll = (world: LifecycleWorld, raffleId: string, winId: string) => rerollWin(world.db, { actor: world.team, workspaceId: world.workspace.id, raffleId, winId });
