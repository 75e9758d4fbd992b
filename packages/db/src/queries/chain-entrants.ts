import { inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../client.js';
import { raffles, type RaffleRequirement } from '../schema/raffles.js';
import type { RaffleRef } from './raffle-locks.js';
import { isChainRequirement } from './requirement-checks.js';

/**
 * The on-chain requirements of the published raffle a ref names, read without a lock: what an
 * entry must ask the chain before its transaction (decision 0027). Null when no published raffle
 * has that ref; the transaction's own admission decides visibility and status.
 */
export async function findChainRequirementsOfRaffle(tx: DbOrTx, ref: RaffleRef): Promise<RaffleRequirement[] | null> {
  const match = 'slug' in ref ? sql`r.slug = ${ref.slug} and r.published_at is not null` : sql`r.id = ${ref.raffleId}`;
  const [row] = await tx.execute(sql`select r.requirements from raffles r where ${match} limit 1`);
  if (!row) return null;
  return (row.requirements as RaffleRequirement[]).filter(isChainRequirement);
}

/** The raffles whose pending entries the resolver settles (`r`): the claim and the backlog agree. */
const awaitingChain = sql`(r.status = 'open' or (r.status = 'closed' and r.mechanic in ('fcfs', 'collection')))`;

export type PendingEntryClaim = { id: string; raffleId: string; userId: string };

/**
 * The oldest pending entries no other transaction holds, locked for this one (`FOR UPDATE SKIP
 * LOCKED`): every replica's resolver claims its own batch, and none settles an entry twice. Only
 * the entries something still waits for (`awaitingChain`): an open raffle's, and a filled FCFS or
 * collection raffle's (no spot is left for them); never a cancelled raffle's (nothing of it is read
 * again) nor a closed draw's (its draw re-checks them at the close blocks). `skipRaffleIds` leaves
 * out raffles whose chain read failed lately, so their backlog cannot crowd others out of the batch.
 */
export async function claimPendingEntries(tx: DbOrTx, args: { limit: number; skipRaffleIds?: readonly string[] }): Promise<PendingEntryClaim[]> {
  const skip = args.skipRaffleIds ?? [];
  const rows = await tx.execute(sql`
    select e.id, e.raffle_id, e.user_id from entries e
    join raffles r on r.id = e.raffle_id and ${awaitingChain}
    where e.status = 'pending' ${skip.length === 0 ? sql`` : sql`and e.raffle_id not in (${sql.join(skip.map((id) => sql`${id}`), sql`, `)})`}
    order by e.id limit ${args.limit} for update of e skip locked`);
  return rows.map((row) => ({ id: row.id as string, raffleId: row.raffle_id as string, userId: row.user_id as string }));
}

/** How many entries wait for the resolver, and since when the oldest (its backlog metrics): those it may claim. */
export async function readPendingEntryBacklog(tx: DbOrTx): Promise<{ count: number; oldestCreatedAt: Date | null }> {
  const [row] = await tx.execute(sql`
    select count(*)::int as count, min(e.created_at) as oldest from entries e
    join raffles r on r.id = e.raffle_id and ${awaitingChain} where e.status = 'pending'`);
  const oldest = row?.oldest;
  return { count: Number(row?.count ?? 0), oldestCreatedAt: oldest ? new Date(oldest as string) : null };
}

/** Raffles by id, read without a lock (the resolver locks each only after the chain answered). */
export async function readRafflesById(tx: DbOrTx, ids: readonly string[]): Promise<Map<string, typeof raffles.$inferSelect>> {
  if (ids.length === 0) return new Map();
  const rows = await tx.select().from(raffles).where(inArray(raffles.id, [...ids]));
  return new Map(rows.map((r) => [r.id, r]));
}

/** A collection raffle's spots held: its valid entries. */
export async function countValidEntries(tx: DbOrTx, raffleId: string): Promise<number> {
  const [row] = await tx.execute(sql`select count(*)::int as n from entries where raffle_id = ${raffleId} and status = 'valid'`);
  return Number(row?.n ?? 0);
}

/** For the rest of the transaction, a lock not granted within `wait` (e.g. '500ms') fails the statement instead of waiting on. */
export async function limitLockWait(tx: DbOrTx, wait: `${number}ms`): Promise<void> {
  await tx.execute(sql.raw(`set local lock_timeout = '${wait}'`));
}
