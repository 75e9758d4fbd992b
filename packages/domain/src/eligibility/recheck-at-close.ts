import {
  listVerifiedWallets,
  lockWinsOfEntries,
  pageEntryOutcomes,
  replaceEvaluationsOfEntries,
  updateEntry,
  type DbOrTx,
  type EntryOutcomes,
  type NewEvent,
  type RequirementEvaluation,
} from '@raffle/db';
import { entryEvents } from '../events/resource-events.js';
import type { RaffleRecord } from '../raffles/raffle-locks.js';
import { failedRequirementsReason, type RequirementVerdicts } from '../requirements/evaluate.js';
import { combineVerdicts } from '../requirements/combine-verdicts.js';
import type { SocialVerdict } from '../requirements/social/social-reader.js';
import { providersReadBy } from '../requirements/social/social-resources.js';
import { disqualifyLiveWin } from '../wins/win-steps.js';
import { LIVE_WIN_STATUSES } from '../wins/win-transitions.js';
import { evaluateChainRequirements, type ChainVerdict } from '../requirements/chain-requirements.js';
import { chainsReadBy, type EligibilityAtClose } from './close-blocks.js';
import { ProviderWaitAtDraw, type SocialAtClose } from './social-at-close.js';

/** Entries re-evaluated per round trip: a batch's wallets, holdings and verdicts are read and written together. */
export const RECHECK_BATCH_SIZE = 2000;

/** `numeric(20,6)` as Postgres prints it ("2.500000") and as weightOf writes it ("2.5") compare equal. */
const plainWeight = (w: string) => (w.includes('.') ? w.replace(/0+$/, '').replace(/\.$/, '') : w);

type Decided = { row: EntryOutcomes; verdicts: RequirementVerdicts };

/**
 * Every requirement's verdict for one entry: the SQL outcome, the chain's at the pinned block
 * (`chain[i]` non-null), kept with the block (chain, number, hash) it was read at and the detail the
 * entrant is shown, or the provider's as read before the lock (`social`). The same merge as at
 * entry (combineVerdicts), with every chain and provider verdict present.
 */
function decide(
  raffle: RaffleRecord,
  row: EntryOutcomes,
  chain: readonly (ChainVerdict | null)[],
  eligibility: EligibilityAtClose | null,
  social: readonly SocialVerdict[],
): Decided {
  const pinned = chain
    .filter((verdict): verdict is ChainVerdict => verdict !== null)
    .map((verdict) => {
      const block = eligibility!.blocks.find((b) => b.chain === verdict.evidence.chain)!;
      return { ...verdict, evidence: { ...verdict.evidence, block: { chain: block.chain, number: block.number, hash: block.hash } } };
    });
  return { row, verdicts: combineVerdicts(raffle.requirements, row, pinned, social) };
}

/** An entrant's social verdicts as read before the lock; one not read then (nothing should be) waits like a silent provider. */
function socialOf(raffle: RaffleRecord, social: SocialAtClose | null, userId: string, at: Date): readonly SocialVerdict[] {
  if (!social) return [];
  const verdicts = social.verdicts.get(userId);
  if (verdicts) return verdicts;
  throw new ProviderWaitAtDraw(providersReadBy(raffle)[0]!, 'unavailable', null, at);
}

/** Whether what the entrant sees of a verdict (passed, detail) changed since it was stored. */
const verdictsChanged = (row: EntryOutcomes, evaluations: readonly RequirementEvaluation[]) =>
  evaluations.some((e) => {
    const before = row.previous[e.requirementId];
    return !before || before.passed !== e.passed || (before.detail ?? undefined) !== e.detail;
  });

/**
 * The draw's re-check of a raffle whose requirements read a chain (decision 0028) or a provider
 * (decision 0045): every `valid` and `pending` entry, in batches, its platform requirements
 * evaluated as at entry, its on-chain ones at the close blocks (`eligibility`), over the entrant's
 * wallets verified by the close, and its social ones as the providers answered just before the
 * lock (`social`). A required requirement failing makes the entry invalid (a win it holds is
 * disqualified); a pending entry that passes becomes valid; optional requirements set the weight
 * again, so the proof's weights are what the pinned blocks give. Every chain verdict is stored
 * with its block.
 */
export async function recheckRequirementsAtClose(
  tx: DbOrTx,
  raffle: RaffleRecord,
  at: Date,
  eligibility: EligibilityAtClose | null,
  social: SocialAtClose | null = null,
): Promise<NewEvent[]> {
  const chains = chainsReadBy(raffle);
  const blockOf = (chain: string) => BigInt(eligibility!.blocks.find((b) => b.chain === chain)!.number);
  const events: NewEvent[] = [];
  for (let afterId: string | null = null; ; ) {
    const rows = await pageEntryOutcomes(tx, { raffleId: raffle.id, workspaceId: raffle.workspaceId, requirements: raffle.requirements, at, afterId, limit: RECHECK_BATCH_SIZE });
    if (rows.length === 0) break;
    afterId = rows[rows.length - 1]!.entryId;
    const wallets = await listVerifiedWallets(tx, { userIds: rows.map((r) => r.userId), chains, linkedBy: raffle.closedAt! });
    const subjects = rows.map((r) => ({ userId: r.userId, wallets: wallets.get(r.userId) ?? [] }));
    // One evaluation per batch: every holding of every entrant in it read in one readHoldings per chain.
    const chainVerdicts = eligibility ? await evaluateChainRequirements(eligibility.reader, raffle.requirements, subjects, blockOf) : null;
    const decided = rows.map((row) => decide(raffle, row, chainVerdicts?.get(row.userId) ?? [], eligibility, socialOf(raffle, social, row.userId, at)));
    await replaceEvaluationsOfEntries(tx, decided.map((d) => ({ entryId: d.row.entryId, evaluations: d.verdicts.evaluations })), at);
    events.push(...(await applyVerdicts(tx, raffle, decided, at)));
    if (rows.length < RECHECK_BATCH_SIZE) break;
  }
  return events;
}

/**
 * Reads every holding the draw will read, at the close blocks, before the draw locks the raffle:
 * the reader keeps reads at a pinned block, so the draw's own reads under the lock are answered
 * from memory, and a chain that does not answer fails the draw here, with no lock held. Nothing is
 * written; whatever changes meanwhile (an entry disqualified, a wallet unlinked) the draw reads
 * again under the lock.
 */
export async function prefetchHoldingsAtClose(db: DbOrTx, raffle: RaffleRecord, eligibility: EligibilityAtClose): Promise<void> {
  const chains = chainsReadBy(raffle);
  const blockOf = (chain: string) => BigInt(eligibility.blocks.find((b) => b.chain === chain)!.number);
  for (let afterId: string | null = null; ; ) {
    const rows = await pageEntryOutcomes(db, { raffleId: raffle.id, workspaceId: raffle.workspaceId, requirements: [], at: raffle.closedAt!, afterId, limit: RECHECK_BATCH_SIZE });
    if (rows.length === 0) return;
    afterId = rows[rows.length - 1]!.entryId;
    const wallets = await listVerifiedWallets(db, { userIds: rows.map((r) => r.userId), chains, linkedBy: raffle.closedAt! });
    const subjects = rows.map((r) => ({ userId: r.userId, wallets: wallets.get(r.userId) ?? [] }));
    await evaluateChainRequirements(eligibility.reader, raffle.requirements, subjects, blockOf);
    if (rows.length < RECHECK_BATCH_SIZE) return;
  }
}

/** Writes what changed: status, weight, and the rendered entry whenever the entrant would see a difference. */
async function applyVerdicts(tx: DbOrTx, raffle: RaffleRecord, decided: readonly Decided[], at: Date): Promise<NewEvent[]> {
  const failing = decided.filter((d) => d.verdicts.failed.length > 0).map((d) => d.row.entryId);
  const liveWins = failing.length === 0 ? [] : await lockWinsOfEntries(tx, { entryIds: failing, statuses: LIVE_WIN_STATUSES });
  const events: NewEvent[] = [];
  for (const { row, verdicts } of decided) {
    const fails = verdicts.failed.length > 0;
    const status = fails ? 'invalid' : 'valid';
    const weightChanged = !fails && plainWeight(row.entryWeight) !== verdicts.weight;
    if (status === row.status && !weightChanged && !verdictsChanged(row, verdicts.evaluations)) continue;
    const entry = await updateEntry(tx, row.entryId, raffle, {
      status,
      ...(fails ? { statusReason: failedRequirementsReason(verdicts.failed) } : row.status === 'pending' ? { statusReason: null } : {}),
      ...(weightChanged ? { entryWeight: verdicts.weight } : {}),
      updatedAt: at,
    });
    if (status !== row.status || weightChanged) events.push(...entryEvents('entry.updated', entry!, raffle.workspaceId, at));
    const win = fails ? liveWins.find((w) => w.entryId === row.entryId) : undefined;
    if (win) events.push(...(await disqualifyLiveWin(tx, win, raffle, 'Requirements no longer met at the draw', at)).events);
  }
  return events;
}
