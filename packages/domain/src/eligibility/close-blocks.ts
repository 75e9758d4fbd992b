import { CHAIN_REQUIREMENT_TYPES } from '@raffle/contracts';
import type { ChainReader } from '@raffle/chain';
import type { EligibilityBlockRecord, schema } from '@raffle/db';

/**
 * Where a draw re-reads on-chain requirements: per chain the raffle's requirements name, the first
 * block whose timestamp is at or after the close (decision 0028), as the proof will show it.
 */
export type EligibilityAtClose = { reader: ChainReader; blocks: readonly EligibilityBlockRecord[] };

const CHAIN_TYPES = new Set<string>(CHAIN_REQUIREMENT_TYPES);

/** The chains a raffle's requirements read, sorted, each once: none for a raffle without on-chain requirements. */
export function chainsReadBy(raffle: { requirements: readonly schema.RaffleRequirement[] }): string[] {
  const chains = raffle.requirements.filter((r) => CHAIN_TYPES.has(r.type)).map((r) => String(r.params.chain));
  return [...new Set(chains)].sort();
}

/** Seconds until a chain producing a block a second or so is asked again for its close block. */
export const CLOSE_BLOCK_RETRY_SECONDS = 2;

/**
 * The chain has not produced a block at or after the close yet (the draw came within a block time
 * of it): nothing was done; ask again in `retryAfterSeconds`.
 */
export class CloseBlockPending extends Error {
  readonly retryAfterSeconds = CLOSE_BLOCK_RETRY_SECONDS;
  constructor(
    readonly chain: string,
    readonly closedAt: Date,
  ) {
    super(`chain ${chain} has no block at or after the close (${closedAt.toISOString()}) yet`);
    this.name = 'CloseBlockPending';
  }
}

/**
 * Pins the block of every chain the raffle reads: `firstBlockAtOrAfter(chain, closedAt)`. Called
 * with no lock held, like the beacon round's fetch. Throws CloseBlockPending when a chain has not
 * reached the close yet, and the reader's ChainUnavailable when one does not answer. A raffle that
 * reads no chain pins nothing and asks nothing (null), whatever the reader.
 */
export async function pinCloseBlocks(
  reader: ChainReader | undefined,
  raffle: { id: string; closedAt: Date | null; requirements: readonly schema.RaffleRequirement[] },
): Promise<EligibilityAtClose | null> {
  const chains = chainsReadBy(raffle);
  if (chains.length === 0) return null;
  if (!reader) throw new Error(`raffle ${raffle.id} has requirements read from ${chains.join(', ')}, and no chain reader was given to read them`);
  if (!raffle.closedAt) throw new Error(`raffle ${raffle.id} has no closedAt to pin its eligibility blocks to`);
  const closedAt = raffle.closedAt;
  const blocks = await Promise.all(
    chains.map(async (chain): Promise<EligibilityBlockRecord> => {
      const [block, chainId] = await Promise.all([reader.firstBlockAtOrAfter(chain, closedAt), reader.chainIdOf(chain)]);
      if (block === null) throw new CloseBlockPending(chain, closedAt);
      return { chain, chainId, number: block.number.toString(), hash: block.hash.toLowerCase() as `0x${string}`, timestamp: block.timestamp.toISOString() };
    }),
  );
  return { reader, blocks };
}
