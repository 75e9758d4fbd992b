import {
  appendEvents,
  boundTransaction,
  findEntryWallets,
  findValidEntries,
  insertDrawSnapshot,
  STATEMENT_BOUNDS,
  type Db,
  type DbOrTx,
  type DrawBeaconRecord,
  type NewEvent,
  type RaffleContext,
  toDashboardRaffle,
  type Tx,
} from '@raffle/db';
import { systemClock } from '../clock.js';
import type { ChainReader } from '@raffle/chain';
import { chainsReadBy, pinCloseBlocks, type EligibilityAtClose } from '../eligibility/close-blocks.js';
import { prefetchHoldingsAtClose, recheckRequirementsAtClose } from '../eligibility/recheck-at-close.js';
import { readSocialAtClose, type SocialAtClose } from '../eligibility/social-at-close.js';
import { providersReadBy } from '../requirements/social/social-resources.js';
import type { SocialCheck } from '../requirements/social/social-verdicts.js';
import { eligibleEntriesInArrivalOrder, recheckRequirements } from '../entries/recheck-requirements.js';
import { DomainError } from '../errors.js';
import { raffleEvent } from '../events/resource-events.js';
import type { Principal } from '../principal.js';
import { createWins, type WinPick } from '../wins/create-wins.js';
import { drawBeaconRoundOf, drawRankingKey, fetchDrawBeacon, type BeaconRounds } from './draw-beacon.js';
import type { MovedRaffle, RaffleTarget } from './lifecycle.js';
import { moveRaffle } from './lifecycle-steps.js';
import { lockRaffleWithContextAs, relockRaffle, requireRaffleManager, type RaffleRecord } from './raffle-locks.js';
import { assertRaffleCan } from './transitions.js';
import { rankEligibleEntries } from './weighted-selection.js';

/** For `application` raffles: the entries the team picked, in position order. */
export type DrawSelection = { entryIds: string[] };

/** The weighted draw's picks, and the digest of the eligible set it ranked (stored on the raffle with the draw's own update). */
async function weightedPicks(
  tx: DbOrTx,
  raffle: RaffleRecord,
  beacon: DrawBeaconRecord | null,
  eligibility: EligibilityAtClose | null,
): Promise<{ picks: WinPick[]; entriesDigest: string }> {
  const { key, algorithm } = drawRankingKey(raffle, beacon);
  const ranked = await rankEligibleEntries(tx, raffle, key, raffle.spots);
  // The eligible set is frozen as the proof will serve it: the very bytes the ranking hashed.
  await insertDrawSnapshot(tx, { raffleId: raffle.id, algorithm, beacon, eligibilityBlocks: eligibility?.blocks ?? [], entryCount: ranked.count, chunks: ranked.chunks });
  const wallets = await findEntryWallets(tx, ranked.ranked.map((r) => r.id));
  const picks = ranked.ranked.map((r, i) => ({ entry: { ...r, walletSnapshot: wallets.get(r.id) ?? null }, position: i + 1, source: 'draw' as const }));
  return { picks, entriesDigest: ranked.entriesDigest };
}

async function selectedPicks(tx: DbOrTx, raffle: RaffleRecord, selection: DrawSelection | undefined): Promise<WinPick[]> {
  const ids = selection?.entryIds ?? [];
  if (ids.length === 0) throw new DomainError('VALIDATION_FAILED', 'an application raffle is drawn by naming the selected entries in entryIds');
  if (new Set(ids).size !== ids.length) throw new DomainError('VALIDATION_FAILED', 'entryIds must not repeat');
  if (ids.length > raffle.spots) throw new DomainError('VALIDATION_FAILED', `at most ${raffle.spots} entries can be selected (spots)`);
  const rows = await findValidEntries(tx, { raffleId: raffle.id, entryIds: ids });
  const byId = new Map(rows.map((r) => [r.id, r]));
  const missing = ids.filter((id) => !byId.has(id));
  if (missing.length > 0) throw new DomainError('VALIDATION_FAILED', `not valid entries of this raffle: ${missing.join(', ')}`);
  return ids.map((id, i) => ({ entry: byId.get(id)!, position: i + 1, source: 'manual' as const }));
}

/** What refuses a draw before anything is read or fetched for it. */
function assertDrawable(raffle: RaffleRecord, selection: DrawSelection | undefined): void {
  assertRaffleCan('draw', raffle.status);
  if (selection && raffle.mechanic !== 'application') {
    throw new DomainError('VALIDATION_FAILED', `entryIds are only for application raffles; a ${raffle.mechanic} raffle selects its own winners`);
  }
}

/**
 * What a draw read with no lock held, for the requirements it re-checks: the close blocks of the
 * chains they read (pinCloseBlocks), and the providers' verdicts on every entrant (readSocialAtClose).
 */
export type DrawReadings = { eligibility: EligibilityAtClose | null; social: SocialAtClose | null };
const NO_READINGS: DrawReadings = { eligibility: null, social: null };

/**
 * The draw's second look at requirements. A raffle that reads no chain and no provider is
 * re-checked in one set-based query, as always, and touches neither; one that does is re-evaluated
 * entry by entry at the close blocks pinned before the lock (decision 0028), which must be the
 * close's, and with what the providers said just before it (decision 0045).
 */
async function recheckEntries(tx: DbOrTx, raffle: RaffleRecord, now: Date, readings: DrawReadings): Promise<NewEvent[]> {
  const chains = chainsReadBy(raffle);
  const providers = providersReadBy(raffle);
  if (chains.length === 0 && providers.length === 0) return recheckRequirements(tx, raffle, now);
  const pinned = readings.eligibility?.blocks.map((b) => b.chain).join(',');
  if (chains.length > 0 && pinned !== chains.join(',')) {
    throw new Error(`raffle ${raffle.id} reads ${chains.join(', ')} and was given blocks for ${pinned ?? 'no chain'}: pin them with pinCloseBlocks first`);
  }
  if (providers.length > 0 && !readings.social) {
    throw new Error(`raffle ${raffle.id} reads ${providers.join(', ')} and was given no reading of them: read them with readSocialAtClose first`);
  }
  return recheckRequirementsAtClose(tx, raffle, now, chains.length > 0 ? readings.eligibility : null, readings.social);
}

/**
 * closed → drawn. Requirements are re-checked first, then each mechanic selects: `raffle` by the
 * verifiable weighted draw (its eligible set frozen for the proof), `collection` every eligible
 * entry in arrival order up to `spots`, `application` the team's picks; `fcfs` already holds its
 * winners from entry time. `beacon` is the raffle's round, fetched before the transaction
 * (fetchDrawBeacon), for a `raffle` closed with one; `readings` the close blocks of the chains
 * its requirements read and the providers' verdicts, read before it too. `context`: as the lifecycle steps'.
 */
async function drawStep(
  tx: DbOrTx,
  raffle: RaffleRecord,
  now: Date,
  beacon: DrawBeaconRecord | null,
  selection?: DrawSelection,
  readings: DrawReadings = NO_READINGS,
  context?: RaffleContext,
): Promise<RaffleRecord> {
  assertDrawable(raffle, selection);
  const events: NewEvent[] = await recheckEntries(tx, raffle, now, readings);
  let picks: WinPick[] = [];
  let entriesDigest: { entriesDigest: string } | null = null;
  switch (raffle.mechanic) {
    case 'raffle': {
      const weighted = await weightedPicks(tx, raffle, beacon, readings.eligibility);
      picks = weighted.picks;
      entriesDigest = { entriesDigest: weighted.entriesDigest };
      break;
    }
    case 'collection':
      picks = (await eligibleEntriesInArrivalOrder(tx, raffle, raffle.spots)).map((entry, i) => ({ entry, position: i + 1, source: 'fcfs' as const }));
      break;
    case 'application':
      picks = await selectedPicks(tx, raffle, selection);
      break;
    case 'fcfs':
      break;
  }
  const drawn = await moveRaffle(tx, raffle, context, { ...entriesDigest, status: 'drawn', drawnAt: now, updatedAt: now });
  const created = await createWins(tx, drawn, picks, now);
  await appendEvents(tx, [...events, raffleEvent('raffle.drawn', drawn, now), ...created.events]);
  return drawn;
}

/**
 * The draw inside the caller's transaction, on a raffle it has locked: the actor is checked first.
 * The caller fetched the raffle's beacon round (fetchDrawBeacon) before locking it.
 */
export async function drawRaffleIn(
  tx: Tx,
  actor: Principal,
  raffle: RaffleRecord,
  now: Date,
  beacon: DrawBeaconRecord | null,
  selection?: DrawSelection,
  readings: DrawReadings = NO_READINGS,
): Promise<RaffleRecord> {
  await requireRaffleManager(tx, actor, raffle);
  return drawStep(tx, raffle, now, beacon, selection, readings);
}

export type DrawTarget = RaffleTarget & {
  selection?: DrawSelection;
  /** The pinned chain's relay client: a raffle closed with a beacon round waits for that round. */
  rounds?: BeaconRounds;
  /** Reads the chains on-chain requirements name (CHAIN_RPC_URLS): a raffle with such requirements is re-evaluated at its close blocks. */
  chainReader?: ChainReader;
  /** Reads Discord and X with the entrants' linked accounts: a raffle with such requirements re-reads them before its lock. */
  social?: SocialCheck;
};

/** A draw that must fetch something with no lock held first: its beacon round, the close blocks of the chains it reads, or the providers it reads. */
export const drawNeedsInputs = (raffle: RaffleRecord) =>
  drawBeaconRoundOf(raffle) !== null || chainsReadBy(raffle).length > 0 || providersReadBy(raffle).length > 0;

/**
 * The draw in a transaction of its own, bounded as a draw: ranking every entry takes longer than
 * a request's statements may. Who may draw and whether the raffle can be drawn are checked first,
 * with the raffle locked (with its context); a raffle that waits on nothing is drawn right there,
 * its row read once. Otherwise that transaction ends, and the beacon round is fetched with no lock
 * held (it throws BeaconRoundPending before the round is published, BeaconUnavailable when no relay
 * answers); so are the close blocks of the chains its requirements read (CloseBlockPending before
 * a chain reaches the close, ChainUnavailable when it does not answer), and every holding at them
 * read once into the reader's cache, and every entrant's Discord and X requirements read with their
 * own linked accounts (ProviderWaitAtDraw when a provider is silent or asks to wait); then the
 * raffle is locked again and drawn, its reads at the blocks answered from that cache. The actor checked in the first transaction is not read again in
 * the second: the draw is theirs from the moment it was let start. A raffle that reads no chain
 * asks none.
 */
export async function drawRaffleMoved(db: Db, target: DrawTarget): Promise<MovedRaffle> {
  const first = await db.transaction(async (tx) => {
    await boundTransaction(tx, STATEMENT_BOUNDS.draw);
    const locked = await lockRaffleWithContextAs(tx, target.actor, target);
    assertDrawable(locked.raffle, target.selection);
    if (drawNeedsInputs(locked.raffle)) return { moved: null, waits: locked.raffle };
    const drawn = await drawStep(tx, locked.raffle, (target.clock ?? systemClock).now(), null, target.selection, NO_READINGS, locked.context);
    return { moved: { raffle: drawn, dashboard: toDashboardRaffle(drawn, locked.context) }, waits: null };
  });
  if (first.moved) return first.moved;
  const closed = first.waits;
  const beacon = await fetchDrawBeacon(target.rounds, closed);
  const eligibility = await pinCloseBlocks(target.chainReader, closed);
  if (eligibility) await prefetchHoldingsAtClose(db, closed, eligibility);
  const social = await readSocialAtClose(db, closed, target.social, (target.clock ?? systemClock).now());
  return db.transaction(async (tx) => {
    await boundTransaction(tx, STATEMENT_BOUNDS.draw);
    const { raffle, context } = await relockRaffle(tx, target);
    const drawn = await drawStep(tx, raffle, (target.clock ?? systemClock).now(), beacon, target.selection, { eligibility, social }, context);
    return { raffle: drawn, dashboard: toDashboardRaffle(drawn, context) };
  });
}

/** drawRaffleMoved, answering the drawn row alone. */
export async function drawRaffle(db: Db, target: DrawTarget): Promise<RaffleRecord> {
  return (await drawRaffleMoved(db, target)).raffle;
}
