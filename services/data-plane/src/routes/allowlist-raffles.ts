import { findAllowlistRaffle, findPubliclyVisibleRaffle, findRaffleIdVisibleToUser, type AllowlistRaffleRow, type Database } from '@raffle/db';
import { DomainError } from '@raffle/domain';

// The raffle an allowlist route reads, found by who may see it: the same slug rules as the
// raffle's other routes (a raffle the caller may not see reads as one that does not exist).

const noSuchSlug = (slug: string) => new DomainError('RAFFLE_NOT_FOUND', `no raffle with slug "${slug}"`);

async function allowlistRaffleOf(database: Database, raffleId: string | null, slug: string): Promise<AllowlistRaffleRow> {
  const raffle = raffleId ? await findAllowlistRaffle(database.db, raffleId) : null;
  if (!raffle) throw noSuchSlug(slug);
  return raffle;
}

/** A personal key's raffle: published public and unlisted ones, and private ones of the owner's workspaces. */
export async function allowlistRaffleVisibleToUser(database: Database, slug: string, userId: string): Promise<AllowlistRaffleRow> {
  return allowlistRaffleOf(database, await findRaffleIdVisibleToUser(database.sql, { slug, userId }), slug);
}

/** A keyless caller's raffle: published public and unlisted ones only. */
export async function publicAllowlistRaffle(database: Database, slug: string): Promise<AllowlistRaffleRow> {
  return allowlistRaffleOf(database, (await findPubliclyVisibleRaffle(database.sql, slug))?.id ?? null, slug);
}
