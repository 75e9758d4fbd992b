import { QUICKNET, type BeaconChain } from '@raffle/beacon';
import {
  appendEvents,
  claimPendingEntries,
  countValidEntries,
  evaluateUserRequirements,
  insertWins,
  isChainRequirement,
  loadIdentitySnapshots,
  listVerifiedWallets,
  lockRaffleRow,
  readRafflesById,
  replaceEntryEvaluations,
  limitLockWait,
  updateEntry,
  type Db,
  type NewEvent,
  type PendingEntryClaim,
  type Tx,
} from '@raffle/db';
import type { Clock } from '../clock.js';
import { systemClock } from '../clock.js';
import { entryEvents } from '../events/resource-events.js';
import type { RaffleRecord } from '../raffles/raffle-locks.js';
import type { ChainVerdict } from '../requirements/chain-requirements.js';
import { readChainVerdicts, type ChainCheck } from '../requirements/chain-verdicts.js';
import { combineVerdicts } from '../requirements/combine-verdicts.js';
import type { SocialVerdict } from '../requirements/social/social-reader.js';
import { readSocialVerdicts, waitsForProvider, type SocialCheck } from '../requirements/social/social-verdicts.js';
import { failedRequirementsReason } from '../requirements/evaluate.js';
import { planWins } from '../wins/create-wins.js';
import { claimFcfsPosition, closeFcfsWhenFull, type FcfsPosition } from '../wins/fcfs-positions.js';
import { SPOT_COUNTED_MECHANICS } from './find-entrable-raffle.js';

export type SettlePendingArgs = {
  db: Db;
  chain: ChainCheck;
  /** How Discord and X requirements are read; without it, entries waiting on them stay pending. */
  social?: SocialCheck;
  /** Entries claimed per pass (one chain read per raffle of the batch, all in one tick). */
  batchSize?: number;
  clock?: Clock;
  beacon?: BeaconChain;
  /** Raffles not to claim entries of this pass (the resolver's per-raffle backoff after a failed read). */
  skipRaffleIds?: readonly string[];
};

/**
 * What one pass did. `silentRaffleIds`: the raffles some of whose claimed entries stay pending
 * (their chain read failed, or a provider was silent or asked to wait for some entrants);
 * `settledRaffleIds`: those whose claimed entries were all settled; `waitingOnProvider`: the
 * claimed entries left pending for a provider; `chainSilent` when nothing could be settled.
 */
export type SettlePass = {
  claimed: number;
  valid: number;
  invalid: number;
  chainSilent: boolean;
  waitingOnProvider: number;
  silentRaffleIds: string[];
  settledRaffleIds: string[];
};

/**
 * How long settling waits for a raffle's lock before it gives the pass up: an entrant withdrawing
 * a pending entry holds the raffle and waits for the entry this pass holds, so the pass yields
 * (before Postgres's deadlock check would pick either) and the entry is settled at the next one.
 */
const RAFFLE_LOCK_WAIT = '500ms' as const;

type Outcome = { status: 'valid' | 'invalid'; statusReason: string | null };

/**
 * One pass over the entries waiting for the chain (decision 0027): claims the oldest pending
 * entries no other resolver holds (`FOR UPDATE SKIP LOCKED`, so replicas share the queue and
 * none settles an entry twice), reads the chain for them, then settles each, valid or invalid,
 * and records `entry.updated` through the outbox, all in one transaction. An FCFS entry found
 * valid takes the next position left, and the one that fills the last closes the raffle, as at
 * entry; when none is left it is invalid. Each raffle's read stands alone: a raffle whose read
 * failed (its chain silent, or a read of its gate refused) keeps its entries pending, and the
 * batch's other raffles are settled all the same. Discord and X requirements are read per entrant
 * (decision 0045): an entrant whose provider is silent, or asked to wait (no read is sent before
 * its reset), stays pending, and the raffle's other entries are settled.
 */
export async function settlePendingEntries(args: SettlePendingArgs): Promise<SettlePass> {
  const now = (args.clock ?? systemClock).now();
  return args.db.transaction(async (tx) => {
    const claims = await claimPendingEntries(tx, { limit: args.batchSize ?? 200, skipRaffleIds: args.skipRaffleIds });
    const pass: SettlePass = { claimed: claims.length, valid: 0, invalid: 0, chainSilent: false, waitingOnProvider: 0, silentRaffleIds: [], settledRaffleIds: [] };
    if (claims.length === 0) return pass;
    const byRaffle = groupBy(claims, (c) => c.raffleId);
    const raffles = await readRafflesById(tx, [...byRaffle.keys()]);
    // A filled and closed FCFS or collection raffle has no spot left for anyone: nothing to read.
    const filled = [...byRaffle.keys()].filter((raffleId) => raffles.get(raffleId)!.status !== 'open');
    const toRead = new Map([...byRaffle].filter(([raffleId]) => !filled.includes(raffleId)));
    const chainVerdicts = await readChainFor(tx, args.chain, raffles, toRead);
    // The providers are asked only for the raffles whose chain answered: the others wait anyway.
    const socialVerdicts = await readSocialFor(args.social, raffles, new Map([...toRead].filter(([raffleId]) => chainVerdicts.has(raffleId))));
    // What this pass settles, by raffle: every claim of a filled raffle; of a raffle read, those no provider holds back.
    const ready = new Map<string, PendingEntryClaim[]>(filled.map((raffleId) => [raffleId, byRaffle.get(raffleId)!]));
    for (const [raffleId, raffleClaims] of toRead) {
      if (!chainVerdicts.has(raffleId)) continue;
      const settleable = raffleClaims.filter((c) => !waitsForProvider(socialVerdicts.get(c.id) ?? []));
      pass.waitingOnProvider += raffleClaims.length - settleable.length;
      if (settleable.length > 0) ready.set(raffleId, settleable);
    }
    const allSettled = (raffleId: string) => ready.get(raffleId)?.length === byRaffle.get(raffleId)!.length;
    pass.silentRaffleIds = [...byRaffle.keys()].filter((raffleId) => !allSettled(raffleId)).sort();
    pass.settledRaffleIds = [...byRaffle.keys()].filter(allSettled).sort();
    if (ready.size === 0) return { ...pass, chainSilent: true };

    await limitLockWait(tx, RAFFLE_LOCK_WAIT);
    const events: NewEvent[] = [];
    for (const raffleId of [...ready.keys()].sort()) {
      const verdictsOfRaffle = chainVerdicts.get(raffleId);
      let raffle = (await lockRaffleRow(tx, { raffleId, mode: SPOT_COUNTED_MECHANICS.includes(raffles.get(raffleId)!.mechanic) ? 'no key update' : 'share' }))!;
      let validInRaffle = raffle.mechanic === 'collection' ? await countValidEntries(tx, raffleId) : 0;
      const entries = ready.get(raffleId)!.sort((a, b) => a.id.localeCompare(b.id));
      for (const claim of entries) {
        if (!verdictsOfRaffle) {
          const entry = (await updateEntry(tx, claim.id, raffle, { ...noSpotLeft(raffle), entryWeight: '1', updatedAt: now }))!;
          events.push(...entryEvents('entry.updated', entry, raffle.workspaceId, now));
          pass.invalid++;
          continue;
        }
        const verdicts = combineVerdicts(
          raffle.requirements,
          await evaluateUserRequirements(tx, { requirements: raffle.requirements, workspaceId: raffle.workspaceId, userId: claim.userId, at: now }),
          verdictsOfRaffle.get(claim.id)!,
          socialVerdicts.get(claim.id) ?? [],
        );
        let outcome: Outcome = verdicts.failed.length > 0
          ? { status: 'invalid', statusReason: failedRequirementsReason(verdicts.failed) }
          : { status: 'valid', statusReason: null };
        if (outcome.status === 'valid' && raffle.mechanic === 'collection') {
          if (validInRaffle >= raffle.spots) outcome = noSpotLeft(raffle);
          else validInRaffle++;
        }
        // The raffle row is held exclusively here: no entry is claiming a spot meanwhile, so the
        // claim is exact, and the close when it took the last one happens in this transaction.
        const position = outcome.status === 'valid' && raffle.mechanic === 'fcfs'
          ? raffle.status === 'open' ? await claimFcfsPosition(tx, raffle, claim.id, now) : null
          : undefined;
        if (position === null) outcome = noSpotLeft(raffle);
        await replaceEntryEvaluations(tx, claim.id, verdicts.evaluations, now);
        const entry = (await updateEntry(tx, claim.id, raffle, {
          status: outcome.status,
          statusReason: outcome.statusReason,
          entryWeight: outcome.status === 'valid' ? verdicts.weight : '1',
          updatedAt: now,
        }))!;
        events.push(...entryEvents('entry.updated', entry, raffle.workspaceId, now));
        pass[outcome.status]++;
        if (position) raffle = await winFcfsPosition(tx, raffle, entry, position, now, args.beacon ?? QUICKNET, events);
      }
    }
    await appendEvents(tx, events);
    return pass;
  });
}

const noSpotLeft = (raffle: RaffleRecord): Outcome => ({
  status: 'invalid',
  statusReason: `All ${raffle.spots} spots were taken before the chain answered for this entry`,
});

/** The FCFS steps of an entry, for one settled late: its win at the position it claimed, and the close when it took the last. */
async function winFcfsPosition(
  tx: Tx,
  raffle: RaffleRecord,
  entry: { id: string; userId: string; walletSnapshot: string | null },
  claimed: FcfsPosition,
  now: Date,
  beacon: BeaconChain,
  events: NewEvent[],
): Promise<RaffleRecord> {
  const identities = await loadIdentitySnapshots(tx, [entry.userId]);
  const created = planWins(raffle, [{ entry, position: claimed.position, source: 'fcfs' }], now, identities);
  await insertWins(tx, created.wins);
  events.push(...claimed.replacing, ...created.events);
  if (claimed.unclaimedLeft) return raffle;
  return (await closeFcfsWhenFull(tx, raffle.id, now, beacon)) ?? raffle;
}

/**
 * The chain's verdicts per claimed entry, by raffle: one read per raffle of the batch, all started
 * in the same tick so the reader coalesces them (it still answers each on its own). A raffle whose
 * read failed is absent: only its entries wait.
 */
async function readChainFor(
  tx: Tx,
  check: ChainCheck,
  raffles: Map<string, RaffleRecord>,
  byRaffle: Map<string, PendingEntryClaim[]>,
): Promise<Map<string, Map<string, ChainVerdict[] | null>>> {
  const requirementsOf = (raffleId: string) => raffles.get(raffleId)!.requirements.filter(isChainRequirement);
  const chains = [...new Set([...raffles.values()].flatMap((r) => r.requirements.filter(isChainRequirement).map((q) => String(q.params.chain))))];
  const userIds = [...new Set([...byRaffle.values()].flat().map((c) => c.userId))];
  const wallets = await listVerifiedWallets(tx, { userIds, chains });
  const readings = await Promise.all(
    [...byRaffle.entries()].map(async ([raffleId, claims]) => ({
      raffleId,
      claims,
      reading: await readChainVerdicts(check, requirementsOf(raffleId), claims.map((c) => ({ userId: c.userId, wallets: wallets.get(c.userId) ?? [] }))),
    })),
  );
  const byRaffleVerdicts = new Map<string, Map<string, ChainVerdict[] | null>>();
  for (const { raffleId, claims, reading } of readings) {
    if (reading.verdicts === null) continue;
    byRaffleVerdicts.set(raffleId, new Map(claims.map((c, i) => [c.id, reading.verdicts![i]!])));
  }
  return byRaffleVerdicts;
}

/**
 * The providers' verdicts per claimed entry, for the raffles given: each raffle's social
 * requirements read with each entrant's own token, all raffles at once (the reader asks one user's
 * same resource once however many raffles want it). Entries of raffles without any are absent.
 */
async function readSocialFor(
  check: SocialCheck | undefined,
  raffles: Map<string, RaffleRecord>,
  byRaffle: Map<string, PendingEntryClaim[]>,
): Promise<Map<string, SocialVerdict[]>> {
  const byClaim = new Map<string, SocialVerdict[]>();
  await Promise.all(
    [...byRaffle.entries()].map(async ([raffleId, claims]) => {
      const verdicts = await readSocialVerdicts(check, raffles.get(raffleId)!.requirements, claims.map((c) => c.userId));
      claims.forEach((c, i) => byClaim.set(c.id, verdicts[i]!));
    }),
  );
  return byClaim;
}

function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(keyOf(item), [...(groups.get(keyOf(item)) ?? []), item]);
  return groups;
}
