import { findRaffleWorkspaceId, isIdOf, type Sql } from '@raffle/db';
import { DomainError } from '@raffle/domain';

const MAX_CACHED = 100_000;

/**
 * Answers "does this raffle belong to this workspace?". A raffle never changes workspace, so
 * a positive answer is cached for the life of the process; ids that cannot be raffle ids are
 * refused without a query.
 */
export function createRaffleOwnership(sql: Sql) {
  const workspaceOf = new Map<string, string>();
  return {
    async require(workspaceId: string, raffleId: string): Promise<void> {
      let owner = workspaceOf.get(raffleId);
      if (owner === undefined && isIdOf('raffle', raffleId)) {
        owner = (await findRaffleWorkspaceId(sql, raffleId)) ?? undefined;
        if (owner !== undefined) {
          if (workspaceOf.size >= MAX_CACHED) workspaceOf.clear();
          workspaceOf.set(raffleId, owner);
        }
      }
      if (owner !== workspaceId) throw new DomainError('RAFFLE_NOT_FOUND', `no raffle ${raffleId} in this workspace`);
    },
  };
}
