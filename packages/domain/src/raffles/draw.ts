import { appendEvents, schema, updateRaffle, type Db, type NewEvent } from '@raffle/db';
import { DRAW_ALGORITHM } from '@raffle/sdk';
import { and, eq, inArray } from 'drizzle-orm';
import { systemClock } from '../clock.js';
import { eligibleEntriesInArrivalOrder, recheckRequirements } from '../entries/recheck-requirements.js';
import { DomainError } from '../errors.js';
import { raffleEvent } from '../events/resource-events.js';
import { createWins, type WinPick } from '../wins/create-wins.js';
import type { RaffleTarget } from './lifecycle.js';
import { lockRaffle, type RaffleRecord } from './raffle-locks.js';
import { assertRaffleCan } from './transitions.js';
import { rankEligibleEntries, storeDrawSnapshot } from './weighted-selection.js';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** For `application` raffles: the entries the team picked, in position order. */
export type DrawSelection = { entryIds: string[] };

async function weightedPicks(tx: Tx, raffle: RaffleRecord): Promise<WinPick[]> {
  if (!raffle.drawSeed) throw new Error(`raffle ${raffle.id} was published without a draw seed`);
  const seed = Buffer.from(raffle.drawSeed, 'hex');
  const ranked = await rankEligibleEntries(tx, raffle, seed, raffle.spots);
  await storeDrawSnapshot(tx, raffle, DRAW_ALGORITHM, ranked);
  await updateRaffle(tx, raffle.id, { entriesDigest: ranked.entriesDigest });
  const wallets = await walletsOf(tx, ranked.ranked.map((r) => r.id));
  return ranked.ranked.map((r, i) => ({ entry: { ...r, walletSnapshot: wallets.get(r.id) ?? null }, position: i + 1, source: 'draw' as const }));
}

async function walletsOf(tx: Tx, entryIds: string[]): Promise<Map<string, string | null>> {
  if (entryIds.length === 0) return new Map();
  const { entries } = schema;
  const rows = await tx.select({ id: entries.id, wallet: entries.walletSnapshot }).from(entries).where(inArray(entries.id, entryIds));
  return new Map(rows.map((r) => [r.id, r.wallet]));
}

async function selectedPicks(tx: Tx, raffle: RaffleRecord, selection: DrawSelection | undefined): Promise<WinPick[]> {
  const ids = selection?.entryIds ?? [];
  if (ids.length === 0) throw new DomainError('VALIDATION_FAILED', 'an application raffle is drawn by naming the selected entries in entryIds');
  if (new Set(ids).size !== ids.length) throw new DomainError('VALIDATION_FAILED', 'entryIds must not repeat');
  if (ids.length > raffle.spots) throw new DomainError('VALIDATION_FAILED', `at most ${raffle.spots} entries can be selected (spots)`);
  const { entries } = schema;
  const rows = await tx
    .select({ id: entries.id, userId: entries.userId, walletSnapshot: entries.walletSnapshot })
    .from(entries)
    .where(and(eq(entries.raffleId, raffle.id), eq(entries.status, 'valid'), inArray(entries.id, ids)));
  const byId = new Map(rows.map((r) => [r.id, r]));
  const missing = ids.filter((id) => !byId.has(id));
  if (missing.length > 0) throw new DomainError('VALIDATION_FAILED', `not valid entries of this raffle: ${missing.join(', ')}`);
  return ids.map((id, i) => ({ entry: byId.get(id)!, position: i + 1, source: 'manual' as const }));
}

/**
 * closed → drawn. Requirements are re-checked first, then each mechanic selects: `raffle` by the
 * verifiable weighted draw (its eligible set frozen for the proof), `collection` every eligible
 * entry in arrival order up to `spots`, `application` the team's picks; `fcfs` already holds its
 * winners from entry time.
 */
export async function drawRaffleIn(tx: Tx, raffle: RaffleRecord, now: Date, selection?: DrawSelection): Promise<RaffleRecord> {
  assertRaffleCan('draw', raffle.status);
  if (selection && raffle.mechanic !== 'application') {
    throw new DomainError('VALIDATION_FAILED', `entryIds are only for application raffles; a ${raffle.mechanic} raffle selects its own winners`);
  }
  const events: NewEvent[] = await recheckRequirements(tx, raffle, now);
  let picks: WinPick[] = [];
  switch (raffle.mechanic) {
    case 'raffle':
      picks = await weightedPicks(tx, raffle);
      break;
    case 'collection':
      picks = (await eligibleEntriesInArrivalOrder(tx, raffle, raffle.spots)).map((entry, i) => ({ entry, position: i + 1, source: 'fcfs' as const }));
      break;
    case 'application':
      picks = await selectedPicks(tx, raffle, selection);
      break;
    case 'fcfs':
      break;
  }
  const drawn = await updateRaffle(tx, raffle.id, { status: 'drawn', drawnAt: now, updatedAt: now });
  const created = await createWins(tx, drawn!, picks, now);
  await appendEvents(tx, [...events, raffleEvent('raffle.drawn', drawn!, now), ...created.events]);
  return drawn!;
}

export function drawRaffle(db: Db, target: RaffleTarget & { selection?: DrawSelection }) {
  return db.transaction(async (tx) => {
    const raffle = await lockRaffle(tx, target);
    return drawRaffleIn(tx, raffle, (target.clock ?? systemClock).now(), target.selection);
  });
}
