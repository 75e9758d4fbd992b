import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../client.js';
import { newId } from '../ids.js';
import { loadRaffleContext } from '../queries/raffle-details.js';
import type { LockedRaffle } from '../queries/raffle-locks.js';
import { renderRaffleColumns, type RaffleContext, type RaffleRow } from '../render/raffle.js';
import { raffles, type RaffleRequirement, type RaffleSettings } from '../schema/raffles.js';

export type NewRaffle = Partial<Omit<RaffleRow, 'workspaceId' | 'slug' | 'title' | 'mechanic' | 'allocationType' | 'visibility' | 'spots'>> &
  Pick<RaffleRow, 'workspaceId' | 'slug' | 'title' | 'mechanic' | 'allocationType' | 'visibility' | 'spots'>;

export const DEFAULT_RAFFLE_SETTINGS: RaffleSettings = {
  autoDraw: false,
  autoFinalize: false,
  excludeFlaggedDuplicates: false,
  allowlistQuantity: 1,
  allowlistPublic: false,
  walletDeadline: null,
};

/** The full row for a new raffle: unset fields get their defaults. */
export function buildRaffleRow(input: NewRaffle): RaffleRow {
  const now = input.createdAt ?? new Date();
  return {
    id: input.id ?? newId('raffle', now.getTime()),
    description: null,
    status: 'draft',
    chain: null,
    allowAutoEntry: false,
    requirements: [] as RaffleRequirement[],
    settings: DEFAULT_RAFFLE_SETTINGS,
    canonicalProjectId: null,
    startsAt: null,
    endsAt: null,
    publishedAt: null,
    openedAt: null,
    closedAt: null,
    drawnAt: null,
    finalizedAt: null,
    cancelledAt: null,
    drawSeed: null,
    drawCommitment: null,
    drawAlgorithm: null,
    entriesDigest: null,
    beaconRound: null,
    beaconChainHash: null,
    positionsTaken: 0,
    positionsFreed: 0,
    updatedAt: now,
    ...input,
    createdAt: now,
  };
}

export async function insertRaffle(tx: DbOrTx, input: NewRaffle) {
  const row = buildRaffleRow(input);
  const context = await loadRaffleContext(tx, row);
  const [raffle] = await tx
    .insert(raffles)
    .values({ ...row, ...renderRaffleColumns(row, context) })
    .returning();
  return raffle!;
}

/**
 * Applies `changes` to a raffle the transaction has locked (lockRaffleWithContext) and re-renders
 * its stored representations, in one statement: the row and its context are the ones locked, not
 * read again. Only the changed columns and the renderings are written, so a column another
 * statement of the transaction moved since the lock (an FCFS raffle's positions) keeps its value;
 * the renderings show none of those columns.
 */
export async function updateLockedRaffle(tx: DbOrTx, locked: LockedRaffle, changes: Partial<RaffleRow>): Promise<LockedRaffle> {
  const next: RaffleRow = { ...locked.raffle, ...changes, id: locked.raffle.id, updatedAt: changes.updatedAt ?? new Date() };
  const movedProject = next.canonicalProjectId !== locked.raffle.canonicalProjectId || next.workspaceId !== locked.raffle.workspaceId;
  const context = movedProject ? await loadRaffleContext(tx, next) : locked.context;
  const [updated] = await tx
    .update(raffles)
    .set({ ...changes, updatedAt: next.updatedAt, ...renderRaffleColumns(next, context) })
    .where(eq(raffles.id, next.id))
    .returning();
  return { raffle: updated!, context };
}

/** Applies `changes` and re-renders the stored representations in the same statement. */
export async function updateRaffle(tx: DbOrTx, raffleId: string, changes: Partial<RaffleRow>) {
  // `no key update`, as every raffle lock (see RaffleLockMode); a slug change escalates in the UPDATE.
  const [current] = await tx.select().from(raffles).where(eq(raffles.id, raffleId)).for('no key update');
  if (!current) return null;
  const next: RaffleRow = { ...current, ...changes, id: current.id, updatedAt: changes.updatedAt ?? new Date() };
  const context = await loadRaffleContext(tx, next);
  const [updated] = await tx
    .update(raffles)
    .set({ ...next, ...renderRaffleColumns(next, context) })
    .where(eq(raffles.id, raffleId))
    .returning();
  return updated!;
}
