import { requestAllowlistBuild, schema, type Database } from '@raffle/db';
import { eq } from 'drizzle-orm';
import { ALLOWLIST_SLUG_PREFIX, drawnRaffleRow, selectedWinRows, winnerEntryRows } from './allowlist-dataset.js';
import { copyRows } from './copy.js';
import type { Manifest } from './seed.js';

/** A raffle the allowlist benchmark seeded: drawn, `winners` selected wins. */
export type SeededRaffle = { id: string; slug: string };
export type AllowlistRaffles = { allowlist: SeededRaffle; airdrop: SeededRaffle; winners: number };

/**
 * Two drawn raffles of workspace 0 with `winners` selected wins each, every winner a user of the
 * dataset (the first `winners` by id, the owner left out) with a wallet of its own: the allowlist
 * raffle, and an airdrop the same in every other way. Rows are rendered by the functions the
 * services use and written with COPY: 100,000 wins through the API would take longer than the
 * benchmark.
 */
export async function seedAllowlistRaffles(database: Database, manifest: Manifest, winners: number, runTag: string): Promise<AllowlistRaffles> {
  const { sql, db } = database;
  const [workspace] = await db.select().from(schema.workspaces).where(eq(schema.workspaces.id, manifest.workspaceId));
  const users = await sql<{ id: string }[]>`select id from users where id <> ${manifest.ownerUserId} order by id limit ${winners}`;
  if (users.length < winners) throw new Error(`${winners} winners need as many users besides the owner; the dataset has ${users.length}`);
  const userIds = users.map((u) => u.id);
  const nowMs = Date.now();

  const seedOne = async (allowlist: boolean): Promise<SeededRaffle> => {
    const raffle = drawnRaffleRow({ workspace: workspace!, slug: `${ALLOWLIST_SLUG_PREFIX}${runTag}-${allowlist ? 'gtd' : 'airdrop'}`, winners, allowlist, nowMs });
    await copyRows(sql, schema.raffles, [raffle]);
    const target = { id: raffle.id!, slug: raffle.slug };
    const entries = [...winnerEntryRows(target, userIds, raffle.openedAt!.getTime())];
    await copyRows(sql, schema.entries, entries);
    const entryRefs = entries.map((e) => ({ id: e.id!, userId: e.userId, walletSnapshot: e.walletSnapshot ?? null }));
    await copyRows(sql, schema.wins, selectedWinRows({ ...raffle, id: target.id, chain: raffle.chain ?? null }, entryRefs, raffle.drawnAt!));
    return target;
  };
  const raffles = { allowlist: await seedOne(true), airdrop: await seedOne(false), winners };
  await sql`vacuum (analyze) raffles, entries, wins`;
  return raffles;
}

/**
 * Puts a finalized raffle back to drawn, its wins selected and its allowlist gone, so the next
 * round finalizes (and builds) it again. The rendered JSON columns keep saying finalized until
 * then: finalize renders them again from the rows.
 */
export async function resetToDrawn(database: Database, raffleId: string): Promise<void> {
  const { sql } = database;
  await sql.begin(async (tx) => {
    await tx`update wins set status = 'selected', finalized_at = null, updated_at = selected_at where raffle_id = ${raffleId} and status = 'finalized'`;
    await tx`update raffles set status = 'drawn', finalized_at = null where id = ${raffleId}`;
    await tx`delete from raffle_allowlist_builds where raffle_id = ${raffleId}`;
    await tx`delete from raffle_allowlists where raffle_id = ${raffleId}`;
  });
  await sql`vacuum (analyze) wins, raffles`;
}

/** Drops a finalized raffle's published versions and queues its build again, due now: the next publish round builds it from scratch. */
export async function requeueBuild(database: Database, raffleId: string): Promise<void> {
  await database.sql`delete from raffle_allowlists where raffle_id = ${raffleId}`;
  const now = new Date();
  await requestAllowlistBuild(database.db, { raffleId, requestedAt: now, notBefore: now });
}

/** Builds due besides `raffleId`'s: a publish round must build that raffle alone. */
export async function otherDueBuilds(database: Database, raffleId: string): Promise<number> {
  const [row] = await database.sql<{ n: number }[]>`select count(*)::int as n from raffle_allowlist_builds where raffle_id <> ${raffleId}`;
  return row!.n;
}
