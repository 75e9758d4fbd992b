import { ChainNotConfigured, ChainUnavailable, type ChainReader } from '@raffle/chain';
import { isChainRequirement, type schema, type EntrantWallet } from '@raffle/db';
import { evaluateChainRequirements, type ChainSubject, type ChainVerdict } from './chain-requirements.js';
import { OverBudget, withinBudget } from './within-budget.js';

type RaffleRequirement = schema.RaffleRequirement;

/** What the entrant is told of an on-chain requirement while their entry is pending. */
export const NOT_EVALUATED_DETAIL = 'not evaluated yet: the chain did not answer';

/** The chain reader an entry asks, and how long it may wait for it (CHAIN_ENTRY_TIMEOUT_MS). */
export type ChainCheck = { reader: ChainReader | null; timeoutMs: number };

/**
 * What the chain said about one raffle's on-chain requirements (`requirements`, in the raffle's
 * order) for each subject, or null when it did not answer in time: the entries wait, `pending`.
 */
export type ChainReading = { requirements: RaffleRequirement[]; verdicts: ChainVerdict[][] | null };

/** Whether an error means "ask again later" rather than a defect: the entry goes pending. */
export const isChainSilence = (error: unknown) =>
  error instanceof ChainUnavailable || error instanceof ChainNotConfigured || error instanceof OverBudget;

/**
 * The chain's verdicts on `requirements` (all on-chain) for each subject's verified wallets, at
 * the latest block, in subject order; null when the chain is down, over budget, or not configured
 * here. Holders of no wallet on a chain are read as holding nothing.
 */
export async function readChainVerdicts(
  check: ChainCheck,
  requirements: RaffleRequirement[],
  subjects: readonly { userId: string; wallets: readonly EntrantWallet[] }[],
  options: { fresh?: boolean } = {},
): Promise<ChainReading> {
  if (requirements.length === 0) return { requirements, verdicts: subjects.map(() => []) };
  if (!check.reader) return { requirements, verdicts: null };
  const asked: ChainSubject[] = subjects.map((s) => ({ userId: s.userId, wallets: [...s.wallets] }));
  const reading = evaluateChainRequirements(check.reader, requirements, asked, () => 'latest', options);
  try {
    const byUser = await withinBudget(reading, check.timeoutMs);
    // Every requirement asked is an on-chain one, so no verdict is null.
    return { requirements, verdicts: subjects.map((s) => byUser.get(s.userId)!.map((v) => v!)) };
  } catch (error) {
    if (isChainSilence(error)) {
      reading.catch(() => undefined); // the abandoned read's own failure is expected and already answered
      return { requirements, verdicts: null };
    }
    throw error;
  }
}

/** Whether a reading was taken of exactly these on-chain requirements (a stale plan is read again). */
export const readsRequirementsOf = (reading: { requirements: readonly RaffleRequirement[] }, requirements: readonly RaffleRequirement[]) =>
  JSON.stringify(reading.requirements) === JSON.stringify(requirements.filter(isChainRequirement));
