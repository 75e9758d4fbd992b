import { QUICKNET } from '@raffle/beacon';
import {
  appendEvents,
  completeIdempotentRequest,
  entryRecordOf,
  insertWins,
  newId,
  rawTransactionOf,
  readEntrantAdmission,
  evaluateUserRequirements,
  storeEntry,
  type Db,
  type NewEvent,
  type Tx,
} from '@raffle/db';
import { DomainError } from '../errors.js';
import { entryEvents } from '../events/resource-events.js';
import type { RaffleRecord } from '../raffles/raffle-locks.js';
import { combineVerdicts, readsRequirementsOf, type ChainCheck } from '../requirements/chain-verdicts.js';
import { planWins } from '../wins/create-wins.js';
import { claimFcfsPosition, closeFcfsRaffleWhenFull } from '../wins/fcfs-positions.js';
import type { WinRecord } from '../wins/win-transitions.js';
import { duplicateFlagsOf, flagEarlierEntries, MAX_LISTED_DUPLICATES } from './duplicate-check.js';
import { EXCLUSIVE_ENTRY_MECHANICS, SPOT_COUNTED_MECHANICS, SPOT_ROW_MECHANICS, type RaffleRef } from './find-entrable-raffle.js';
import { isUniqueViolation } from '../unique-violation.js';
import { readEntrantChainVerdicts, type EntrantChainReading } from './chain-at-entry.js';
import type { EnterRaffleArgs, EnteredRaffle } from './enter-raffle.js';

function assertAcceptingEntries(raffle: RaffleRecord, now: Date): void {
  if (raffle.status !== 'open') {
    throw new DomainError('RAFFLE_NOT_OPEN', `the raffle is ${raffle.status}; entries are accepted only while it is open`);
  }
  if (raffle.endsAt && raffle.endsAt <= now) throw new DomainError('RAFFLE_NOT_OPEN', `entries closed at ${raffle.endsAt.toISOString()}`);
}

/** FCFS raffles are full once every spot is taken, collection raffles count their valid entries; the others have no limit here. */
function assertSpotLeft(raffle: RaffleRecord, taken: number): void {
  if (SPOT_COUNTED_MECHANICS.includes(raffle.mechanic) && taken >= raffle.spots) throw new DomainError('RAFFLE_FULL', `all ${raffle.spots} spots are taken`);
}

/** The raffle, the entrant's standing in it and the earlier entries sharing their signals, in one round trip. */
async function admit(tx: Tx, args: EnterRaffleArgs, userId: string, entryId: string) {
  const admission = await readEntrantAdmission(rawTransactionOf(tx), {
    ref: args.raffle,
    userId,
    ipHash: args.ipHash ?? null,
    // Collection spots are counted one entry at a time; FCFS entries claim a spot row each and,
    // like other entries, share the lock, so they run in parallel yet never commit across a close.
    exclusiveMechanics: EXCLUSIVE_ENTRY_MECHANICS,
    sharedWhileOpenMechanics: SPOT_ROW_MECHANICS,
    duplicateLimit: MAX_LISTED_DUPLICATES,
    entryId,
  });
  if (!admission.raffle) throw new DomainError('RAFFLE_NOT_FOUND', 'no such raffle');
  // The losers of an FCFS rush find every spot taken (the row then read unlocked, decision 0029),
  // or the raffle closed by the entry that took the last spot: they are told it is full, not that
  // it is not open.
  const { raffle, locked, spotsTaken } = admission;
  if (raffle.mechanic === 'fcfs' && (raffle.status === 'closed' || (raffle.status === 'open' && !locked))) assertSpotLeft(raffle, spotsTaken);
  // It opened between the lock that needs it open and the read after it: a moment earlier it was not open.
  if (!locked && raffle.status === 'open') {
    throw new DomainError('RAFFLE_NOT_OPEN', 'the raffle opened while this entry was checked; send it again');
  }
  return { ...admission, raffle: admission.raffle };
}

/** The chain was read for other on-chain requirements than the raffle has now (a plan cached stale): read again. */
class StaleChainReading extends Error {}

/** The raffle's verdicts for the entrant: its platform requirements in SQL, its on-chain ones as read before the transaction. */
async function verdictsFor(tx: Tx, raffle: RaffleRecord, userId: string, now: Date, chain: ChainAtEntry) {
  const requirements = raffle.requirements;
  if (requirements.length === 0) return combineVerdicts([], { passed: [], evidence: [] }, []);
  const current = { requirements: chain.reading?.requirements ?? [], verdicts: chain.reading?.verdicts ?? null };
  const matches = chain.read && readsRequirementsOf(current, requirements);
  if (chain.read && !matches && chain.mayRetry) throw new StaleChainReading();
  const platform = await evaluateUserRequirements(tx, { requirements, workspaceId: raffle.workspaceId, userId, at: now });
  // Not read, or read twice for other requirements than the raffle's: pending, settled later.
  return combineVerdicts(requirements, platform, matches ? current.verdicts : null);
}

/** What was read of the chain before the transaction: `read` false when the caller has no reader at all. */
type ChainAtEntry = { read: boolean; reading: EntrantChainReading | null; mayRetry: boolean };

/**
 * One entry in as few round trips as its rules allow: the admission read (raffle lock, standing,
 * signal locks, duplicates), the requirement check when the raffle has requirements, then the
 * entry's writes sent together (decision 0016). On-chain requirements were read before the
 * transaction (`reading`); when the chain did not answer, the entry is stored `pending`: it takes
 * no spot until settlePendingEntries evaluates it (decision 0027).
 */
async function enterIn(tx: Tx, args: EnterRaffleArgs, userId: string, now: Date, chain: ChainAtEntry): Promise<EnteredRaffle & { mayCloseRaffle?: boolean }> {
  const entryId = args.id ?? newId('entry', now.getTime());
  const { raffle, existingEntryId, walletSnapshot, spotsTaken, walletReuse, ipReuse, winnerIdentity, fcfsClaim } = await admit(tx, args, userId, entryId);
  assertAcceptingEntries(raffle, now);
  if (existingEntryId) throw new DomainError('ALREADY_ENTERED', `you already entered this raffle (entry ${existingEntryId})`);

  const verdicts = await verdictsFor(tx, raffle, userId, now, chain);
  if (verdicts.failed.length > 0) {
    throw new DomainError('REQUIREMENTS_NOT_MET', 'you do not meet every requirement of this raffle', { failedRequirements: verdicts.failed });
  }
  assertSpotLeft(raffle, spotsTaken);
  const pending = verdicts.pending;

  const duplicateFlags = duplicateFlagsOf({ walletReuse, ipReuse });
  const input = {
    id: entryId,
    raffle,
    userId,
    status: pending ? ('pending' as const) : ('valid' as const),
    source: args.source,
    entryWeight: verdicts.weight,
    walletSnapshot,
    duplicateFlags,
    ipHash: args.ipHash ?? null,
    createdAt: now,
    evaluations: verdicts.evaluations,
  };
  const entry = entryRecordOf(input);
  const events: NewEvent[] = [
    ...entryEvents('entry.created', entry, raffle.workspaceId, now),
    ...(await flagEarlierEntries(tx, raffle, entry.id, duplicateFlags, now)),
  ];
  const held = args.idempotency;
  const alongside = async () => {
    await args.inTransaction?.(tx, { entry });
    if (held) await completeIdempotentRequest(tx, { ...held, status: 201, body: entry.ownerJson });
  };

  // A pending FCFS entry takes no position yet: it takes the next one left when it is settled.
  if (raffle.mechanic !== 'fcfs' || pending) {
    await Promise.all([storeEntry(tx, entry, input.evaluations), appendEvents(tx, events), alongside()]);
    return { entry, win: null, raffle };
  }
  // The lowest free spot, claimed with the admission when the raffle has no requirements, else
  // in a round trip of its own now: the win's rendered JSON carries the position, so it is known
  // before the write pipeline is built. The spot's row is held to the commit; other entrants
  // claim other spots meanwhile (decision 0029). Then everything goes out in one pipeline, the
  // entry's insert first (its win references it): storeEntry's postgres.js statement is handed to
  // the connection a microtask after the call, drizzle's insert of the win only after drizzle's
  // own awaits.
  const claimed = await claimFcfsPosition(tx, raffle, entry.id, now, fcfsClaim);
  if (!claimed) throw new DomainError('RAFFLE_FULL', `all ${raffle.spots} spots are taken`);
  const created = planWins(raffle, [{ entry, position: claimed.position, source: 'fcfs' }], now, new Map([[userId, winnerIdentity!]]));
  await Promise.all([
    storeEntry(tx, entry, input.evaluations),
    insertWins(tx, created.wins),
    appendEvents(tx, [...events, ...claimed.replacing, ...created.events]),
    alongside(),
  ]);
  return { entry, win: created.wins[0]!, raffle, mayCloseRaffle: !claimed.unclaimedLeft };
}

/**
 * An FCFS entry, as entries were made before `enter_raffle` (decisions 0016 and 0029): in a
 * transaction, a spot row claimed. Kept only until FCFS spots are claimed in the function.
 */
export async function enterFcfsRaffle(db: Db, args: EnterRaffleArgs, userId: string, now: Date): Promise<EnteredRaffle> {
  // The chain is asked before the transaction: no lock is held while it answers (or does not).
  const readChain = (fresh: boolean) => (args.chain ? readEntrantChainVerdicts(db, args.chain, { ref: args.raffle, userId, fresh }) : Promise.resolve(null));
  let reading = await readChain(false);
  for (let attempt = 0; ; attempt++) {
    try {
      const chain = { read: args.chain !== undefined, reading, mayRetry: attempt === 0 };
      const { mayCloseRaffle, ...entered } = await db.transaction(async (tx) => enterIn(tx, args, userId, now, chain));
      if (!mayCloseRaffle) return entered;
      // This entry took a spot when no other was left unclaimed: it may be the last to commit.
      // The close is its own transaction, after the entry's commit (decision 0029).
      const closed = await closeFcfsRaffleWhenFull(db, entered.raffle.id, now, args.beacon ?? QUICKNET);
      return closed ? { ...entered, raffle: closed } : entered;
    } catch (error) {
      if (error instanceof StaleChainReading && attempt === 0) {
        reading = await readChain(true);
        continue;
      }
      // Two requests of one user at once: the unique index lets one commit and refuses the other.
      if (isUniqueViolation(error, 'entries_one_per_user_idx')) throw new DomainError('ALREADY_ENTERED', 'you already entered this raffle');
      throw error;
    }
  }
}
