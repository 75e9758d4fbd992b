import type { EntrySource } from '@raffle/contracts';
import {
  appendEvents,
  countValidEntries,
  countWinsInStatus,
  findEntrantWallet,
  findEntryIdOfUser,
  insertEntry,
  type Db,
  type NewEvent,
  type schema,
  type Tx,
} from '@raffle/db';
import { systemClock, type Clock } from '../clock.js';
import { DomainError } from '../errors.js';
import { entryEvents } from '../events/resource-events.js';
import type { Principal } from '../principal.js';
import { closeStep } from '../raffles/lifecycle-steps.js';
import type { RaffleRecord } from '../raffles/raffle-locks.js';
import { evaluateRequirements } from '../requirements/evaluate.js';
import { createWins } from '../wins/create-wins.js';
import { LIVE_WIN_STATUSES, type WinRecord } from '../wins/win-transitions.js';
import { findDuplicates, flagEarlierEntries, lockDuplicateSignals } from './duplicate-check.js';
import { entrantOf } from './entrant.js';
import { lockEntrableRaffle, type RaffleRef } from './find-entrable-raffle.js';
import { isUniqueViolation } from '../unique-violation.js';

export type EntryRecord = typeof schema.entries.$inferSelect;

export type EnterRaffleArgs = {
  /** Only for imports and the demo, which carry their own (time-sortable) ids; otherwise generated. */
  id?: string;
  raffle: RaffleRef;
  /** The entrant: a user enters as themselves (the system may not enter). */
  actor: Principal;
  source: EntrySource;
  /** The keyed hash of the entrant's IP (see hashIp), when the request had one. */
  ipHash?: string | null;
  clock?: Clock;
  /** Runs last inside the entry's transaction: what must commit with the entry or not at all. */
  inTransaction?: (tx: Tx, entered: EnteredRaffle) => Promise<void>;
};

export type EnteredRaffle = { entry: EntryRecord; win: WinRecord | null; raffle: RaffleRecord };

function assertAcceptingEntries(raffle: RaffleRecord, now: Date): void {
  if (raffle.status !== 'open') {
    throw new DomainError('RAFFLE_NOT_OPEN', `the raffle is ${raffle.status}; entries are accepted only while it is open`);
  }
  if (raffle.endsAt && raffle.endsAt <= now) throw new DomainError('RAFFLE_NOT_OPEN', `entries closed at ${raffle.endsAt.toISOString()}`);
}

/** FCFS raffles count the spots their live wins hold; collection raffles their valid entries. */
async function assertSpotLeft(tx: Tx, raffle: RaffleRecord): Promise<number> {
  const taken =
    raffle.mechanic === 'fcfs'
      ? await countWinsInStatus(tx, { raffleId: raffle.id, statuses: LIVE_WIN_STATUSES })
      : await countValidEntries(tx, raffle.id);
  if (taken >= raffle.spots) throw new DomainError('RAFFLE_FULL', `all ${raffle.spots} spots are taken`);
  return taken;
}

const walletOnChain = (tx: Tx, userId: string, chain: string | null): Promise<string | null> =>
  chain ? findEntrantWallet(tx, { userId, chain }) : Promise.resolve(null);

async function enterIn(tx: Tx, args: EnterRaffleArgs, userId: string, now: Date): Promise<EnteredRaffle> {
  const raffle = await lockEntrableRaffle(tx, args.raffle, userId);
  // The losers of an FCFS rush find the raffle closed by the entry that took the last spot:
  // they are told it is full, not that it is not open.
  if (raffle.status === 'closed' && raffle.mechanic === 'fcfs') await assertSpotLeft(tx, raffle);
  assertAcceptingEntries(raffle, now);
  const existing = await findEntryIdOfUser(tx, { raffleId: raffle.id, userId });
  if (existing) throw new DomainError('ALREADY_ENTERED', `you already entered this raffle (entry ${existing})`);

  const verdicts = await evaluateRequirements(tx, raffle, userId, now);
  if (verdicts.failed.length > 0) {
    throw new DomainError('REQUIREMENTS_NOT_MET', 'you do not meet every requirement of this raffle', { failedRequirements: verdicts.failed });
  }
  const taken = raffle.mechanic === 'fcfs' || raffle.mechanic === 'collection' ? await assertSpotLeft(tx, raffle) : 0;

  const signals = { walletSnapshot: await walletOnChain(tx, userId, raffle.chain), ipHash: args.ipHash ?? null };
  await lockDuplicateSignals(tx, raffle.id, signals);
  const duplicateFlags = await findDuplicates(tx, raffle.id, signals);
  const entry = await insertEntry(tx, {
    id: args.id,
    raffle,
    userId,
    status: 'valid',
    source: args.source,
    entryWeight: verdicts.weight,
    walletSnapshot: signals.walletSnapshot,
    duplicateFlags,
    ipHash: signals.ipHash,
    createdAt: now,
    evaluations: verdicts.evaluations,
  });
  const events: NewEvent[] = [
    ...entryEvents('entry.created', entry, raffle.workspaceId, now),
    ...(await flagEarlierEntries(tx, raffle, entry.id, duplicateFlags, now)),
  ];

  let win: WinRecord | null = null;
  let current = raffle;
  if (raffle.mechanic === 'fcfs') {
    // Arrival order is lock order: the raffle row is held exclusively, so positions never collide.
    const created = await createWins(tx, raffle, [{ entry, position: taken + 1, source: 'fcfs' }], now);
    win = created.wins[0]!;
    events.push(...created.events);
  }
  await appendEvents(tx, events);
  if (raffle.mechanic === 'fcfs' && taken + 1 >= raffle.spots) current = await closeStep(tx, raffle, now);
  return { entry, win, raffle: current };
}

/**
 * The acting user enters a raffle: it must be open and visible to them, they must not have
 * entered before, and they must meet its requirements (422 naming the failed ones otherwise).
 * FCFS entries win on arrival until `spots` are filled, and the entry that fills the last spot
 * closes the raffle.
 */
export async function enterRaffle(db: Db, args: EnterRaffleArgs): Promise<EnteredRaffle> {
  const now = (args.clock ?? systemClock).now();
  try {
    return await db.transaction(async (tx) => {
      const entered = await enterIn(tx, args, entrantOf(args.actor), now);
      await args.inTransaction?.(tx, entered);
      return entered;
    });
  } catch (error) {
    // Two requests of one user at once: the unique index lets one commit and refuses the other.
    if (isUniqueViolation(error, 'entries_one_per_user_idx')) throw new DomainError('ALREADY_ENTERED', 'you already entered this raffle');
    throw error;
  }
}
