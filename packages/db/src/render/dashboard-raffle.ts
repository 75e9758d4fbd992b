import type { DashboardRaffle } from '@raffle/contracts';
import { isoOrNull } from './iso.js';
import { DEFAULT_RAFFLE_SETTINGS } from '../writes/raffles.js';
import { toWorkspaceRaffle, type RaffleContext, type RaffleRow } from './raffle.js';

/** The team's view: everything the workspace view shows plus settings, requirement params and every lifecycle time. */
export const toDashboardRaffle = (r: RaffleRow, ctx: RaffleContext): DashboardRaffle => ({
  ...toWorkspaceRaffle(r, ctx),
  requirements: r.requirements.map((q) => ({ ...q, type: q.type as DashboardRaffle['requirements'][number]['type'] })),
  // Defaults first: a row an older version wrote lacks the settings added since (migration 0021 filled the rest).
  settings: { ...DEFAULT_RAFFLE_SETTINGS, ...r.settings },
  drawnAt: isoOrNull(r.drawnAt),
  cancelledAt: isoOrNull(r.cancelledAt),
  entriesDigest: r.entriesDigest,
});
