import type { AllocationType, DeliveryStatus, WinSource, WinStatus } from '@raffle/contracts';
import type { NewWin } from '../writes/wins.js';
import { addDays, addHours } from './demo-clock.js';
import { demoBytes, demoHex, demoId } from './demo-derive.js';
import type { PlannedEntry } from './demo-entries.js';
import type { DemoRaffleSpec } from './demo-raffle-catalogue.js';
import type { RaffleTimeline } from './raffle-timeline.js';
import { entriesDigest, rankEntries, type DrawEntry } from '@raffle/sdk';

export type PlannedWin = NewWin & { id: string };

export type PlannedDraw = { seed: Buffer; entriesDigest: string | null };

export type WinsPlan = { wins: PlannedWin[]; draw: PlannedDraw };

const MAX_SEED_ATTEMPTS = 10_000;

const defaultSeed = (slug: string): PlannedDraw => ({ seed: demoBytes(`draw-seed:${slug}:0`, 32), entriesDigest: null });

function deliveredNote(allocationType: AllocationType, label: string): string | null {
  switch (allocationType) {
    case 'allowlist_gtd':
    case 'allowlist_fcfs':
      return 'Wallet added to the allowlist';
    case 'airdrop':
      return `Airdropped in transaction 0x${demoHex(`tx:${label}`, 32)}`;
    case 'physical':
      return `Shipped, tracking number KT${demoHex(`parcel:${label}`, 5).toUpperCase()}`;
    default:
      return null;
  }
}

/** A spread of delivery states over a finalized raffle's positions, so lists show every one. */
function deliveryOf(spec: DemoRaffleSpec, entry: PlannedEntry, position: number, finalizedAt: Date) {
  const override = spec.deliveryOverrides?.get(entry.userId);
  const status: DeliveryStatus = override?.deliveryStatus ??
    (position % 6 === 0 ? 'processing' : position === 13 ? 'failed' : position % 7 === 0 ? 'pending' : 'delivered');
  const note =
    override?.deliveryNote ??
    (status === 'failed'
      ? 'The wallet rejected the delivery; support is in touch with the winner'
      : status === 'delivered'
        ? deliveredNote(spec.allocationType, `${spec.slug}:${position}`)
        : null);
  return {
    deliveryStatus: status,
    deliveryNote: note,
    deliveredAt: status === 'delivered' ? addDays(finalizedAt, 1 + (position % 3)) : null,
  };
}

type WinFacts = {
  position: number;
  source: WinSource;
  status: WinStatus;
  selectedAt: Date;
  finalizedAt?: Date | null;
  disqualifiedAt?: Date | null;
  replacedAt?: Date | null;
  delivery: { deliveryStatus: DeliveryStatus; deliveryNote: string | null; deliveredAt: Date | null };
};

function win(spec: DemoRaffleSpec, raffleId: string, entry: PlannedEntry, facts: WinFacts): PlannedWin {
  const { person } = entry;
  return {
    id: demoId('win', `${spec.slug}:${facts.position}:${person.handle}`, facts.selectedAt),
    raffleId,
    entryId: entry.id,
    userId: person.id,
    position: facts.position,
    source: facts.source,
    status: facts.status,
    walletSnapshot: entry.walletSnapshot ?? null,
    identitySnapshot: {
      handle: person.handle,
      displayName: person.displayName,
      wallets: person.wallets.map(({ chain, address }) => ({ chain, address })),
    },
    ...facts.delivery,
    selectedAt: facts.selectedAt,
    finalizedAt: facts.finalizedAt ?? null,
    disqualifiedAt: facts.disqualifiedAt ?? null,
    replacedAt: facts.replacedAt ?? null,
  };
}

/** A live win: finalized when the raffle is, otherwise still selected and awaiting delivery. */
function liveWin(spec: DemoRaffleSpec, raffleId: string, t: RaffleTimeline, entry: PlannedEntry, position: number, source: WinSource, selectedAt: Date) {
  const finalizedAt = t.finalizedAt;
  return win(spec, raffleId, entry, {
    position,
    source,
    status: finalizedAt ? 'finalized' : 'selected',
    selectedAt,
    finalizedAt,
    delivery: finalizedAt
      ? deliveryOf(spec, entry, position, finalizedAt)
      : { deliveryStatus: 'pending', deliveryNote: null, deliveredAt: null },
  });
}

const isFlagged = (e: PlannedEntry) => Boolean(e.duplicateFlags.walletReuse?.length || e.duplicateFlags.ipReuse?.length);

/**
 * The draw of a `raffle`-mechanic raffle. The seed is the first of a fixed sequence under which
 * the story holds (alice wins, bob does not), so the winners are both scripted and exactly what
 * the published commitment and the algorithm produce.
 */
function planDraw(spec: DemoRaffleSpec & { outcome: { kind: 'draw' } }, raffleId: string, t: RaffleTimeline, entries: PlannedEntry[]): WinsPlan {
  const { outcome } = spec;
  const eligible = entries.filter((e) => e.status === 'valid' && !(spec.settings.excludeFlaggedDuplicates && isFlagged(e)));
  const drawEntries: DrawEntry[] = eligible.map((e) => ({ id: e.id, userId: e.userId, weight: e.entryWeight }));
  const mustWin = new Set(outcome.mustWin.map((p) => p.id));
  const mustLose = new Set(outcome.mustLose.map((p) => p.id));

  for (let attempt = 0; attempt < MAX_SEED_ATTEMPTS; attempt++) {
    const seed = demoBytes(`draw-seed:${spec.slug}:${attempt}`, 32);
    const ranking = rankEntries(seed, drawEntries);
    const winners = ranking.slice(0, spec.spots);
    const reroll = ranking[spec.spots];
    const winnerIds = new Set(winners.map((w) => w.userId));
    if ([...mustWin].some((id) => !winnerIds.has(id)) || [...mustLose].some((id) => winnerIds.has(id))) continue;
    if (outcome.disqualifiedWinner?.rerolled && (!reroll || mustLose.has(reroll.userId))) continue;

    const byId = new Map(entries.map((e) => [e.id, e]));
    const drawnAt = t.drawnAt!;
    const wins: PlannedWin[] = [];
    // The disqualified winner is never one the story needs to keep.
    const dq = outcome.disqualifiedWinner;
    const dqPosition = dq
      ? winners.findIndex((w, i) => i + 1 >= dq.fromPosition && !mustWin.has(w.userId)) + 1
      : 0;
    winners.forEach((w, i) => {
      const entry = byId.get(w.id)!;
      const position = i + 1;
      if (position !== dqPosition) {
        wins.push(liveWin(spec, raffleId, t, entry, position, 'draw', drawnAt));
        return;
      }
      const disqualifiedAt = addHours(drawnAt, 20);
      const replacedAt = dq!.rerolled ? addHours(disqualifiedAt, 2) : null;
      wins.push(
        win(spec, raffleId, entry, {
          position,
          source: 'draw',
          status: replacedAt ? 'replaced' : 'disqualified',
          selectedAt: drawnAt,
          disqualifiedAt,
          replacedAt,
          delivery: { deliveryStatus: 'not_applicable', deliveryNote: dq!.reason, deliveredAt: null },
        }),
      );
      if (replacedAt) wins.push(liveWin(spec, raffleId, t, byId.get(reroll!.id)!, position, 'reroll', replacedAt));
    });
    return { wins, draw: { seed, entriesDigest: entriesDigest(drawEntries) } };
  }
  throw new Error(`no draw seed for ${spec.slug} satisfies the demo story within ${MAX_SEED_ATTEMPTS} attempts`);
}

/** Every win of one raffle, and the seed its commitment is published for. */
export function planWins(spec: DemoRaffleSpec, raffleId: string, t: RaffleTimeline, entries: PlannedEntry[]): WinsPlan {
  const { outcome } = spec;
  switch (outcome.kind) {
    case 'none':
      return { wins: [], draw: defaultSeed(spec.slug) };
    case 'draw':
      return planDraw({ ...spec, outcome }, raffleId, t, entries);
    case 'arrival': {
      // FCFS wins the moment an entry is valid; a collection allocates at close.
      const winners = entries.filter((e) => e.status === 'valid').slice(0, spec.spots);
      const wins = winners.map((entry, i) =>
        liveWin(spec, raffleId, t, entry, i + 1, 'fcfs', spec.mechanic === 'fcfs' ? entry.createdAt : (t.closedAt ?? entry.createdAt)),
      );
      return { wins, draw: defaultSeed(spec.slug) };
    }
    case 'manual': {
      const wins = outcome.winners.map((person, i) => {
        const entry = entries.find((e) => e.userId === person.id && e.status === 'valid');
        if (!entry) throw new Error(`${person.handle} has no valid entry in ${spec.slug} to be selected`);
        return liveWin(spec, raffleId, t, entry, i + 1, 'manual', t.drawnAt!);
      });
      return { wins, draw: defaultSeed(spec.slug) };
    }
  }
}
