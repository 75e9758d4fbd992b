import { QUICKNET, timeOfRound, type BeaconChain } from '@raffle/beacon';
import { boundTransaction, lockNextDueRaffle, STATEMENT_BOUNDS, type Db, type DrawBeaconRecord, type DueRaffleKind, type StatementBounds, type Tx } from '@raffle/db';
import type { Clock } from '../clock.js';
import { isDomainError } from '../errors.js';
import { SCHEDULER, type Principal } from '../principal.js';
import { drawBeaconRoundOf, fetchDrawBeacon, type BeaconRounds } from '../raffles/draw-beacon.js';
import { drawNeedsInputs, drawRaffleIn, type DrawReadings } from '../raffles/draw.js';
import { closeRaffleIn, finalizeRaffleIn, openRaffleIn } from '../raffles/lifecycle.js';
import { publishDueAllowlists } from '../allowlists/publish-allowlists.js';
import type { RaffleRecord } from '../raffles/raffle-locks.js';
import type { ChainReader } from '@raffle/chain';
import { chainsReadBy, pinCloseBlocks, type EligibilityAtClose } from '../eligibility/close-blocks.js';
import { prefetchHoldingsAtClose } from '../eligibility/recheck-at-close.js';
import { createBeaconWaits, type BeaconWaitReason, type BeaconWaits } from './beacon-waits.js';
import { createChainWaits, type ChainWaitReason, type ChainWaits } from './chain-waits.js';
import { readSocialAtClose, type SocialAtClose } from '../eligibility/social-at-close.js';
import { providersReadBy, type SocialProvider } from '../requirements/social/social-resources.js';
import type { SocialCheck } from '../requirements/social/social-verdicts.js';
import { createProviderDrawWaits, type ProviderDrawWaits, type ProviderWaitReason } from './provider-waits.js';

/** What a draw fetched with no lock held: its beacon round, the close blocks of the chains it reads and the providers' verdicts. */
type DrawInputs = DrawReadings & { beacon: DrawBeaconRecord | null };
const NO_INPUTS: DrawInputs = { beacon: null, eligibility: null, social: null };

/** One kind of deadline the scheduler keeps (which raffles are due is @raffle/db's lockNextDueRaffle), and what moves them. */
type DueTransition = {
  name: DueRaffleKind;
  apply: (tx: Tx, actor: Principal, raffle: RaffleRecord, now: Date, beacon: BeaconChain, inputs: DrawInputs) => Promise<RaffleRecord>;
  /** When the raffle became due: how late the scheduler moved it is measured from here. */
  dueAt: (raffle: RaffleRecord) => Date | null;
  /** What its transaction may take once a raffle is picked (the pick itself is bounded as a request). */
  bounds: StatementBounds;
};

/** In the order a missed stretch of time would have run them: one pass catches a raffle all the way up. */
export const DUE_TRANSITIONS: DueTransition[] = [
  { name: 'opened', apply: openRaffleIn, dueAt: (r) => r.startsAt, bounds: STATEMENT_BOUNDS.transition },
  { name: 'closed', apply: closeRaffleIn, dueAt: (r) => r.endsAt, bounds: STATEMENT_BOUNDS.transition },
  {
    name: 'drawn',
    apply: (tx, actor, raffle, now, _chain, inputs) => drawRaffleIn(tx, actor, raffle, now, inputs.beacon, undefined, inputs),
    dueAt: (r) => r.closedAt,
    bounds: STATEMENT_BOUNDS.draw,
  },
  { name: 'finalized', apply: finalizeRaffleIn, dueAt: (r) => r.drawnAt, bounds: STATEMENT_BOUNDS.transition },
];

/** A raffle due to be drawn whose beacon round the pass could not get (it stays closed, and is tried at a later pass). */
export type BeaconWait = { raffleId: string; round: number; reason: BeaconWaitReason; roundDueAt: Date };

/** A raffle due to be drawn whose close block the pass could not pin, or whose chain stopped answering mid-draw (it stays closed). */
export type ChainWait = { raffleId: string; chains: string[]; reason: ChainWaitReason };

/** A raffle due to be drawn whose entrants a provider its requirements read did not answer for, or asked to wait for (it stays closed). */
export type ProviderWait = { raffleId: string; providers: SocialProvider[]; reason: ProviderWaitReason };

export type SchedulerPass = Record<DueTransition['name'], number> & {
  /** Allowlist versions published in the pass: raffles finalized, or whose finalized winners changed (issue 35). */
  allowlistsPublished: number;
  failed: { raffleId: string; reason: string }[];
  waitingOnBeacon: BeaconWait[];
  waitingOnChain: ChainWait[];
  waitingOnProvider: ProviderWait[];
};

/**
 * Moves every raffle whose deadline has passed, one raffle per transaction. `FOR UPDATE SKIP
 * LOCKED` lets any number of instances run this at once: each raffle is taken by exactly one,
 * and a raffle a user is transitioning by hand is simply left for the next pass. A raffle whose
 * transition fails is logged and skipped for the rest of the pass, never retried in a hot loop.
 * Every transition runs as the SCHEDULER principal. A raffle due to be drawn with a beacon round
 * is let go, its round fetched with no lock held, and picked again; a round that is not there yet
 * (or no relay gives) leaves the raffle closed for a later pass, asked again only after its retry
 * time (`beaconWaits`, kept across passes). The close blocks of the chains a raffle's requirements
 * read are pinned the same way (`chainWaits`): a close block not produced yet, or a chain that does
 * not answer, leaves the raffle closed for a later pass; and so are its entrants' Discord and X
 * requirements read (`providerWaits`): a provider that does not answer, or asks to wait, leaves it
 * closed until a later pass, never before the provider's reset.
 */
export async function runDueTransitions(
  db: Db,
  options: {
    clock: Clock;
    /** The pinned chain a close by schedule fixes the draw's round on (BEACON_CHAIN; QUICKNET when not given). */
    beacon?: BeaconChain;
    /** The pinned chain's relay client, for draws of raffles closed with a beacon round. */
    rounds?: BeaconRounds;
    /** The rounds this scheduler is waiting for, across passes (startRaffleScheduler keeps one). */
    beaconWaits?: BeaconWaits;
    /** Reads the chains on-chain requirements name: auto-draws of raffles with such requirements pin their close blocks through it. */
    chainReader?: ChainReader;
    /** The close blocks and chains this scheduler is waiting for, across passes. */
    chainWaits?: ChainWaits;
    /** Reads Discord and X with the entrants' linked accounts: auto-draws of raffles with such requirements re-read them through it. */
    social?: SocialCheck;
    /** The providers and rate limits this scheduler is waiting for, across passes. */
    providerWaits?: ProviderDrawWaits;
    onError?: (raffleId: string, error: unknown) => void;
    /** A raffle moved, `lagMs` after it became due (the metrics). */
    onTransition?: (name: DueRaffleKind, lagMs: number) => void;
  },
): Promise<SchedulerPass> {
  const pass: SchedulerPass = { opened: 0, closed: 0, drawn: 0, finalized: 0, allowlistsPublished: 0, failed: [], waitingOnBeacon: [], waitingOnChain: [], waitingOnProvider: [] };
  const chain = options.beacon ?? QUICKNET;
  const waits = options.beaconWaits ?? createBeaconWaits();
  const chainWaits = options.chainWaits ?? createChainWaits();
  const providerWaits = options.providerWaits ?? createProviderDrawWaits();
  // Rounds and close blocks fetched during this pass, by raffle: the raffle is drawn when it is picked again.
  const fetched = new Map<string, DrawInputs>();
  for (const transition of DUE_TRANSITIONS) {
    const skip: string[] = [];
    for (;;) {
      const now = options.clock.now();
      let picked: RaffleRecord | null = null;
      let attempted: string | null = null;
      let needsRound: RaffleRecord | null = null;
      try {
        picked = await db.transaction(async (tx) => {
          const raffle = await lockNextDueRaffle(tx, { kind: transition.name, now, skip });
          if (!raffle) return null;
          attempted = raffle.id;
          if (transition.name === 'drawn' && drawNeedsInputs(raffle) && !fetched.has(raffle.id)) {
            // Never wait on relays or chains holding the raffle's lock: let it go, fetch, pick it again.
            needsRound = raffle;
            return null;
          }
          // Only once a raffle is picked: a pass that finds nothing due costs no extra round trip.
          await boundTransaction(tx, transition.bounds);
          await transition.apply(tx, SCHEDULER, raffle, now, chain, fetched.get(raffle.id) ?? NO_INPUTS);
          return raffle;
        });
        if (needsRound !== null) {
          await fetchInputsFor(needsRound, skip);
          continue;
        }
      } catch (error) {
        if (attempted === null) throw error;
        // A chain that stopped answering during the draw's reads: the draw rolled back, and waits like a pin that failed.
        const chainReason = transition.name === 'drawn' ? chainWaits.failed(attempted, error, options.clock.now().getTime()) : null;
        if (chainReason) {
          skip.push(attempted);
          fetched.delete(attempted);
          pass.waitingOnChain.push({ raffleId: attempted, chains: [], reason: chainReason });
          continue;
        }
        // An entrant the readings before the lock did not cover: the draw rolled back, and waits like a read that failed.
        const providerReason = transition.name === 'drawn' ? providerWaits.failed(attempted, error, options.clock.now().getTime()) : null;
        if (providerReason) {
          skip.push(attempted);
          fetched.delete(attempted);
          pass.waitingOnProvider.push({ raffleId: attempted, providers: [], reason: providerReason });
          continue;
        }
        options.onError?.(attempted, error);
        // Only a name: a failed query's text carries its parameters (a raffle's draw seed among them).
        pass.failed.push({ raffleId: attempted, reason: isDomainError(error) ? error.code : (error as Error)?.constructor?.name ?? 'Error' });
        skip.push(attempted);
        continue;
      }
      if (picked === null) break;
      pass[transition.name] += 1;
      const dueAt = transition.dueAt(picked);
      if (dueAt) options.onTransition?.(transition.name, Math.max(0, options.clock.now().getTime() - dueAt.getTime()));
    }
  }
  // After the transitions: a raffle finalized in this pass gets its allowlist in the same pass.
  pass.allowlistsPublished = await publishDueAllowlists(db, {
    clock: options.clock,
    onError: (raffleId, error) => {
      options.onError?.(raffleId, error);
      pass.failed.push({ raffleId, reason: `allowlist: ${isDomainError(error) ? error.code : ((error as Error)?.constructor?.name ?? 'Error')}` });
    },
  });
  return pass;

  /** Gets the raffle's round and close blocks for its draw, or notes why it waits and skips it for this pass. */
  async function fetchInputsFor(raffle: RaffleRecord, skip: string[]): Promise<void> {
    const beacon = await fetchRoundFor(raffle, skip);
    if (beacon === undefined) return;
    const eligibility = await pinBlocksFor(raffle, skip);
    if (eligibility === undefined) return;
    const social = await readProvidersFor(raffle, skip);
    if (social === undefined) return;
    fetched.set(raffle.id, { beacon, eligibility, social });
  }

  /** The raffle's verified round (null when its draw takes none), or undefined when it waits. */
  async function fetchRoundFor(raffle: RaffleRecord, skip: string[]): Promise<DrawBeaconRecord | null | undefined> {
    const round = drawBeaconRoundOf(raffle);
    if (round === null) return null;
    const nowMs = options.clock.now().getTime();
    const wait = (reason: BeaconWaitReason) => {
      skip.push(raffle.id);
      pass.waitingOnBeacon.push({ raffleId: raffle.id, round, reason, roundDueAt: new Date(timeOfRound(chain, round) * 1000) });
      return undefined;
    };
    const already = waits.waiting(round, nowMs);
    if (already) return wait(already);
    try {
      const beacon = await fetchDrawBeacon(options.rounds, raffle);
      waits.arrived(round);
      return beacon;
    } catch (error) {
      const reason = waits.failed(round, error, nowMs);
      if (reason) return wait(reason);
      throw error;
    }
  }

  /** The raffle's close blocks (null when it reads no chain), or undefined when it waits. */
  async function pinBlocksFor(raffle: RaffleRecord, skip: string[]): Promise<EligibilityAtClose | null | undefined> {
    const chains = chainsReadBy(raffle);
    if (chains.length === 0) return null;
    const nowMs = options.clock.now().getTime();
    const wait = (reason: ChainWaitReason) => {
      skip.push(raffle.id);
      pass.waitingOnChain.push({ raffleId: raffle.id, chains, reason });
      return undefined;
    };
    const already = chainWaits.waiting(raffle.id, chains, nowMs);
    if (already) return wait(already);
    try {
      const eligibility = await pinCloseBlocks(options.chainReader, raffle);
      // Every holding at the blocks read into the reader's cache now, with no lock held: the draw's reads under it are answered from memory.
      if (eligibility) await prefetchHoldingsAtClose(db, raffle, eligibility);
      chainWaits.pinned(raffle.id, chains);
      return eligibility;
    } catch (error) {
      const reason = chainWaits.failed(raffle.id, error, nowMs);
      if (reason) return wait(reason);
      throw error;
    }
  }

  /** Every entrant's verdicts from the providers the raffle reads (null when it reads none), or undefined when it waits. */
  async function readProvidersFor(raffle: RaffleRecord, skip: string[]): Promise<SocialAtClose | null | undefined> {
    const providers = providersReadBy(raffle);
    if (providers.length === 0) return null;
    const nowMs = options.clock.now().getTime();
    const wait = (reason: ProviderWaitReason) => {
      skip.push(raffle.id);
      pass.waitingOnProvider.push({ raffleId: raffle.id, providers, reason });
      return undefined;
    };
    const already = providerWaits.waiting(raffle.id, providers, nowMs);
    if (already) return wait(already);
    try {
      const social = await readSocialAtClose(db, raffle, options.social, options.clock.now());
      providerWaits.read(raffle.id, providers);
      return social;
    } catch (error) {
      const reason = providerWaits.failed(raffle.id, error, nowMs);
      if (reason) return wait(reason);
      throw error;
    }
  }
}
