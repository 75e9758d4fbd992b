import { QUICKNET, type BeaconChain } from '@raffle/beacon';
import type { EntrySource } from '@raffle/contracts';
import { enterRaffleInOneStatement, type Db, type EntryOutcome, type schema } from '@raffle/db';
import { systemClock, type Clock } from '../clock.js';
import { DomainError } from '../errors.js';
import type { Principal } from '../principal.js';
import type { RaffleRecord } from '../raffles/raffle-locks.js';
import type { ChainCheck } from '../requirements/chain-verdicts.js';
import type { SocialCheck } from '../requirements/social/social-verdicts.js';
import type { WinRecord } from '../wins/win-transitions.js';
import { isUniqueViolation } from '../unique-violation.js';
import { closeFcfsRaffleWhenFull } from '../wins/fcfs-positions.js';
import { entrantOf } from './entrant.js';
import { entryVerdictsFor } from './entry-verdicts.js';
import type { RaffleRef } from './find-entrable-raffle.js';
import { rememberRequirementPlan, requirementPlanOf } from './requirement-plans.js';

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
  /** The pinned chain (BEACON_CHAIN; QUICKNET when not given): the entry that fills an FCFS raffle closes it on it. */
  beacon?: BeaconChain;
  /**
   * How on-chain requirements are read (the reader and the entry's budget, CHAIN_ENTRY_TIMEOUT_MS).
   * Without it, or when the chain does not answer in time, an entry to a raffle with on-chain
   * requirements is stored `pending` and settled later (settlePendingEntries).
   */
  chain?: ChainCheck;
  /**
   * How Discord and X requirements are read, with the entrant's own linked accounts. Without it, or
   * when a provider is silent or asks to wait, such an entry is stored `pending` and settled later.
   */
  social?: SocialCheck;
  /** The request's Idempotency-Key: the response it replays (the entry's owner view) commits with the entry. */
  idempotency?: { apiKeyId: string; key: string };
};

export type EnteredRaffle = { entry: EntryRecord; win: WinRecord | null; raffle: RaffleRecord };

type Verdicts = Awaited<ReturnType<typeof entryVerdictsFor>>;

/** Each refusal of `enter_raffle` as the API error it is. */
function refusalOf(outcome: Exclude<EntryOutcome, { outcome: 'entered' | 'plan_changed' }>, failed: Verdicts['failed']): DomainError {
  switch (outcome.outcome) {
    case 'raffle_not_found':
      return new DomainError('RAFFLE_NOT_FOUND', 'no such raffle');
    case 'raffle_not_open': {
      const { status, endsAt } = outcome.raffle;
      if (status === 'open' && endsAt) return new DomainError('RAFFLE_NOT_OPEN', `entries closed at ${endsAt.toISOString()}`);
      return new DomainError('RAFFLE_NOT_OPEN', `the raffle is ${status}; entries are accepted only while it is open`);
    }
    case 'already_entered':
      return new DomainError('ALREADY_ENTERED', `you already entered this raffle (entry ${outcome.entryId})`);
    case 'raffle_full':
      return new DomainError('RAFFLE_FULL', `all ${outcome.spots} spots are taken`);
    case 'requirements_not_met':
      return new DomainError('REQUIREMENTS_NOT_MET', 'you do not meet every requirement of this raffle', { failedRequirements: failed });
  }
}

/**
 * The acting user enters a raffle: it must be open and visible to them, they must not have
 * entered before, and they must meet its requirements (422 naming the failed ones otherwise).
 * One statement, one round trip (`enter_raffle`, decision 0032): the rules that must hold inside
 * the database run there; the requirement verdicts are evaluated here before it, for the
 * requirements the raffle was last seen with, and evaluated again once if the raffle says it has
 * others. FCFS entries win on arrival until `spots` are filled, in the same statement (decision
 * 0033); the entry that may have taken the last spot closes the raffle in a second step, once
 * committed: the one entry allowed two round trips.
 */
export async function enterRaffle(db: Db, args: EnterRaffleArgs): Promise<EnteredRaffle> {
  const at = (args.clock ?? systemClock).now();
  const userId = entrantOf(args.actor);
  let plan = requirementPlanOf(args.raffle);
  for (let attempt = 0; ; attempt++) {
    const verdicts = await entryVerdictsFor(db, plan, { userId, at, chain: args.chain, social: args.social });
    let result: EntryOutcome;
    try {
      result = await enterRaffleInOneStatement(db, {
        ref: args.raffle,
        id: args.id,
        userId,
        source: args.source,
        ipHash: args.ipHash ?? null,
        at,
        fingerprint: plan.fingerprint,
        fcfs: plan.fcfs,
        verdict: verdicts.failed.length > 0 ? 'failed' : verdicts.pending ? 'pending' : 'passed',
        weight: verdicts.weight,
        evaluations: verdicts.evaluations,
        idempotency: args.idempotency,
      });
    } catch (error) {
      // Two requests of one user at once: the unique index lets one commit and refuses the other.
      if (isUniqueViolation(error, 'entries_one_per_user_idx')) throw new DomainError('ALREADY_ENTERED', 'you already entered this raffle');
      throw error;
    }
    switch (result.outcome) {
      case 'entered': {
        const { entry, win, raffle } = result;
        if (!result.mayClose) return { entry, win, raffle };
        // This entry took a spot when no other was left unclaimed: it may be the last to commit.
        // The close is its own transaction, after the entry's commit (decision 0029).
        const closed = await closeFcfsRaffleWhenFull(db, raffle.id, at, args.beacon ?? QUICKNET);
        return { entry, win, raffle: closed ?? raffle };
      }
      case 'plan_changed':
        rememberRequirementPlan(args.raffle, result.plan);
        // A plan cannot change once a raffle is open: twice in a row means it was edited meanwhile.
        if (attempt > 0) throw new DomainError('RAFFLE_NOT_OPEN', "the raffle's requirements changed while this entry was checked; send it again");
        plan = result.plan;
        continue;
      default:
        throw refusalOf(result, verdicts.failed);
    }
  }
}
