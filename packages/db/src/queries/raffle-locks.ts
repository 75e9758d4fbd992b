import { PUBLISHED_RAFFLE_STATUSES } from '@raffle/contracts';
import { and, eq, exists, inArray, isNotNull, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../client.js';
import type { RaffleContext } from '../render/raffle.js';
import { projects } from '../schema/projects.js';
import { raffles } from '../schema/raffles.js';
import { workspaceMembers, workspaces } from '../schema/workspaces.js';

/**
 * How a raffle is locked: `no key update` runs its transitions (and FCFS and collection entries)
 * one at a time, `share` lets entries run side by side. Never `update`: it would also block the
 * key-share lock every insert of a row referencing the raffle takes, so a transaction that inserted
 * such a row (an entry) and then waited for the raffle could deadlock with one that locked it
 * (found while trying FCFS with the lock taken last, issue 13). The one write that changes a key
 * column, a draft's new slug, gets the stronger lock from its own UPDATE; a draft has no entries.
 */
export type RaffleLockMode = 'no key update' | 'share';

/** The raffle row, locked for the rest of the transaction; scoped to a workspace when one is named. */
export async function lockRaffleRow(tx: DbOrTx, args: { raffleId: string; workspaceId?: string; mode?: RaffleLockMode }) {
  const where = args.workspaceId ? and(eq(raffles.id, args.raffleId), eq(raffles.workspaceId, args.workspaceId)) : eq(raffles.id, args.raffleId);
  const [row] = await tx.select().from(raffles).where(where).for(args.mode ?? 'no key update');
  return row ?? null;
}

/** A raffle row its transaction has locked, with what rendering it needs (read with it, in the same statement). */
export type LockedRaffle = { raffle: typeof raffles.$inferSelect; context: RaffleContext };

/**
 * As lockRaffleRow (`no key update`, only the raffle's row is locked), with the workspace and the
 * canonical project joined in: a transition renders the raffle it writes from these, so neither
 * it nor the caller that shows the result reads them again (issue 26).
 */
export async function lockRaffleWithContext(tx: DbOrTx, args: { raffleId: string; workspaceId?: string }): Promise<LockedRaffle | null> {
  const where = args.workspaceId ? and(eq(raffles.id, args.raffleId), eq(raffles.workspaceId, args.workspaceId)) : eq(raffles.id, args.raffleId);
  const [row] = await tx
    .select({
      raffle: raffles,
      workspace: workspaces,
      canonicalProject: { id: projects.id, slug: projects.slug, name: projects.name, logoUrl: projects.logoUrl },
    })
    .from(raffles)
    .innerJoin(workspaces, eq(workspaces.id, raffles.workspaceId))
    .leftJoin(projects, eq(projects.id, raffles.canonicalProjectId))
    .where(where)
    .for('no key update', { of: raffles });
  if (!row) return null;
  return { raffle: row.raffle, context: { workspace: row.workspace, canonicalProject: row.canonicalProject ?? null } };
}

export type RaffleRef = { slug: string } | { raffleId: string };

/**
 * The published raffle a user may see, by slug or id: public or unlisted, or private to a
 * workspace the user belongs to (as on the personal raffle routes). Read without a lock, so the
 * caller can choose the lock its mechanic needs.
 */
export async function findRaffleVisibleToUser(tx: DbOrTx, args: { ref: RaffleRef; userId: string }): Promise<{ id: string; mechanic: string } | null> {
  const member = tx
    .select({ one: sql`1` })
    .from(workspaceMembers)
    .where(and(eq(workspaceMembers.workspaceId, raffles.workspaceId), eq(workspaceMembers.userId, args.userId)));
  const [found] = await tx
    .select({ id: raffles.id, mechanic: raffles.mechanic })
    .from(raffles)
    .where(
      and(
        'slug' in args.ref ? and(eq(raffles.slug, args.ref.slug), isNotNull(raffles.publishedAt)) : eq(raffles.id, args.ref.raffleId),
        inArray(raffles.status, [...PUBLISHED_RAFFLE_STATUSES]),
        or(inArray(raffles.visibility, ['public', 'unlisted']), exists(member)),
      ),
    );
  return found ?? null;
}
