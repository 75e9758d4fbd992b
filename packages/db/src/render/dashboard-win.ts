import type { DashboardWin } from '@raffle/contracts';
import { isoOrAbsent } from './iso.js';
import { toWinner, type WinRow } from './win.js';

/** The winner view of a win (as the workspace API renders it), plus what the team needs besides. */
export const toDashboardWin = (w: WinRow): DashboardWin => ({
  ...toWinner(w),
  raffleId: w.raffleId,
  entryId: w.entryId,
  selectedAt: w.selectedAt.toISOString(),
  // Wins in every status are listed here: finalizedAt only once the win is final.
  finalizedAt: isoOrAbsent(w.finalizedAt),
  disqualifiedAt: isoOrAbsent(w.disqualifiedAt),
  replacedAt: isoOrAbsent(w.replacedAt),
});
