import type { Win, Winner } from '@raffle/contracts';
import type { wins } from '../schema/wins.js';
import { isoOrAbsent, textOrAbsent } from './iso.js';
import type { RaffleRow } from './raffle.js';

export type WinRow = Omit<typeof wins.$inferSelect, 'winJson' | 'winnerJson'>;
export type WinRaffleRow = Pick<RaffleRow, 'id' | 'slug' | 'title' | 'mechanic' | 'allocationType' | 'chain' | 'workspaceId'>;

export const toWin = (w: WinRow, raffle: WinRaffleRow): Win => ({
  id: w.id,
  raffleId: w.raffleId,
  source: w.source as Win['source'],
  status: w.status as Win['status'],
  position: w.position,
  walletSnapshot: textOrAbsent(w.walletSnapshot),
  deliveryStatus: w.deliveryStatus as Win['deliveryStatus'],
  deliveryNote: textOrAbsent(w.deliveryNote),
  selectedAt: w.selectedAt.toISOString(),
  finalizedAt: isoOrAbsent(w.finalizedAt),
  disqualifiedAt: isoOrAbsent(w.disqualifiedAt),
  replacedAt: isoOrAbsent(w.replacedAt),
  deliveredAt: isoOrAbsent(w.deliveredAt),
  raffle: {
    id: raffle.id,
    slug: raffle.slug,
    title: raffle.title,
    mechanic: raffle.mechanic as Win['raffle']['mechanic'],
    allocationType: raffle.allocationType as Win['raffle']['allocationType'],
    chain: textOrAbsent(raffle.chain),
    workspaceId: raffle.workspaceId,
  },
});

/** Rendered for every win; only finalized ones are ever listed, so finalizedAt is then set. */
export const toWinner = (w: WinRow): Winner => ({
  id: w.id,
  userId: w.userId,
  source: w.source as Winner['source'],
  status: w.status as Winner['status'],
  position: w.position,
  walletSnapshot: textOrAbsent(w.walletSnapshot),
  identitySnapshot: w.identitySnapshot,
  deliveryStatus: w.deliveryStatus as Winner['deliveryStatus'],
  deliveryNote: textOrAbsent(w.deliveryNote),
  finalizedAt: (w.finalizedAt ?? w.selectedAt).toISOString(),
  deliveredAt: isoOrAbsent(w.deliveredAt),
});

export const renderWinColumns = (w: WinRow, raffle: WinRaffleRow) => ({
  winJson: JSON.stringify(toWin(w, raffle)),
  winnerJson: JSON.stringify(toWinner(w)),
});
