import type { DashboardRaffle } from '@raffle/contracts';
import { and, asc, eq, gt, or } from 'drizzle-orm';
import { rawTransactionOf, type DbOrTx } from '../client.js';
import { toDashboardRaffle } from '../render/dashboard-raffle.js';
import type { RaffleRow } from '../render/raffle.js';
import { entries } from '../schema/entries.js';
import { raffles } from '../schema/raffles.js';
import { wins } from '../schema/wins.js';
import { afterKey, keysetReadSize } from './keyset.js';
import { loadRaffleContext } from './raffle-details.js';
import type { RaffleListFilter } from './raffle-list-filters.js';
import { pageWorkspaceRaffles } from './raffles.js';

// The dashboard's raffle pages. Each page query reads `limit + 1` rows: the extra one only says
// whether another page exists.

type RaffleScope = { workspaceId: string; raffleId: string };

/** The team's view of a raffle row (its workspace and canonical project are read to render it). */
export async function loadDashboardRaffle(tx: DbOrTx, raffle: RaffleRow): Promise<DashboardRaffle> {
  return toDashboardRaffle(raffle, await loadRaffleContext(tx, raffle));
}

export async function findWorkspaceRaffleRow(tx: DbOrTx, args: RaffleScope) {
  const [row] = await tx
    .select()
    .from(raffles)
    .where(and(eq(raffles.id, args.raffleId), eq(raffles.workspaceId, args.workspaceId)))
    .limit(1);
  return row ?? null;
}

export async function isRaffleOfWorkspace(tx: DbOrTx, args: RaffleScope): Promise<boolean> {
  const [row] = await tx
    .select({ id: raffles.id })
    .from(raffles)
    .where(and(eq(raffles.id, args.raffleId), eq(raffles.workspaceId, args.workspaceId)))
    .limit(1);
  return row !== undefined;
}

/**
 * The workspace's raffles in every status (or those `filter` keeps), newest (highest id) first,
 * before the id `before`: the data plane's workspace list, on the caller's transaction or pool.
 */
export async function pageDashboardRaffleRows(tx: DbOrTx, args: { workspaceId: string; before: string | null; limit: number; filter?: RaffleListFilter }) {
  return pageWorkspaceRaffles(rawTransactionOf(tx), args);
}

/** A raffle's entries in arrival (id) order after the id `after`, optionally in one status. */
export async function pageDashboardEntryRows(tx: DbOrTx, args: { raffleId: string; status?: string; after: string | null; limit: number }) {
  return tx
    .select({ id: entries.id, workspaceJson: entries.workspaceJson })
    .from(entries)
    .where(
      and(
        eq(entries.raffleId, args.raffleId),
        args.status ? eq(entries.status, args.status) : undefined,
        afterKey(entries.id, args.after),
      ),
    )
    .orderBy(asc(entries.id))
    .limit(keysetReadSize(args.limit));
}

/**
 * One entry of a raffle as its entrant sees it (the stored sanitized entry), for the team's view
 * of its requirement verdicts; null when the raffle has no such entry.
 */
export async function findDashboardEntryOwnerJson(tx: DbOrTx, args: { raffleId: string; entryId: string }): Promise<string | null> {
  const [row] = await tx
    .select({ json: entries.ownerJson })
    .from(entries)
    .where(and(eq(entries.id, args.entryId), eq(entries.raffleId, args.raffleId)))
    .limit(1);
  return row?.json ?? null;
}

/** A raffle's wins in every status (or one), by position then id, after the key `after`. */
export async function pageDashboardWinRows(
  tx: DbOrTx,
  args: { raffleId: string; status?: string; after: readonly [position: number, id: string] | null; limit: number },
) {
  const { after } = args;
  return tx
    .select()
    .from(wins)
    .where(
      and(
        eq(wins.raffleId, args.raffleId),
        args.status ? eq(wins.status, args.status) : undefined,
        after === null ? undefined : or(gt(wins.position, after[0]), and(eq(wins.position, after[0]), gt(wins.id, after[1]))),
      ),
    )
    .orderBy(asc(wins.position), asc(wins.id))
    .limit(keysetReadSize(args.limit));
}
