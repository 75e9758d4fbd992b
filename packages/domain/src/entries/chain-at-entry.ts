import { findChainRequirementsOfRaffle, listVerifiedWallets, type Db, type RaffleRef, type schema } from '@raffle/db';
import type { ChainVerdict } from '../requirements/chain-requirements.js';
import { readChainVerdicts, type ChainCheck } from '../requirements/chain-verdicts.js';
import { raffleRefKey } from './find-entrable-raffle.js';

type RaffleRequirement = schema.RaffleRequirement;

/** One entrant's reading of a raffle's on-chain requirements; `verdicts` null when the chain did not answer. */
export type EntrantChainReading = { requirements: RaffleRequirement[]; verdicts: ChainVerdict[] | null };

/**
 * A raffle's on-chain requirements by ref, reused for a moment: a drop asks for the same raffle
 * thousands of times a second, and a plain raffle must not pay a round trip for the question.
 * Requirements cannot change once a raffle is open; one edited while scheduled and read here
 * stale is caught inside the transaction (readsRequirementsOf) and read again.
 */
const PLAN_TTL_MS = 2_000;
const PLAN_CACHE_LIMIT = 1_000;
const plans = new Map<string, { at: number; requirements: RaffleRequirement[] | null }>();


async function chainRequirementsOf(db: Db, ref: RaffleRef, fresh: boolean): Promise<RaffleRequirement[] | null> {
  const key = raffleRefKey(ref);
  const cached = plans.get(key);
  if (!fresh && cached && Date.now() - cached.at < PLAN_TTL_MS) return cached.requirements;
  const requirements = await findChainRequirementsOfRaffle(db, ref);
  if (plans.size >= PLAN_CACHE_LIMIT) plans.clear();
  plans.set(key, { at: Date.now(), requirements });
  return requirements;
}

/**
 * Before an entry's transaction (no lock is held while the chain is asked): the chain's verdicts
 * on the raffle's on-chain requirements over the entrant's verified wallets on the chains they
 * name, within the entry's budget. Null when the raffle has none.
 */
export async function readEntrantChainVerdicts(
  db: Db,
  check: ChainCheck,
  args: { ref: RaffleRef; userId: string; fresh?: boolean },
): Promise<EntrantChainReading | null> {
  const requirements = await chainRequirementsOf(db, args.ref, args.fresh ?? false);
  if (!requirements || requirements.length === 0) return null;
  const chains = [...new Set(requirements.map((r) => String(r.params.chain)))];
  const wallets = (await listVerifiedWallets(db, { userIds: [args.userId], chains })).get(args.userId) ?? [];
  const reading = await readChainVerdicts(check, requirements, [{ userId: args.userId, wallets }]);
  return { requirements, verdicts: reading.verdicts?.[0] ?? null };
}
