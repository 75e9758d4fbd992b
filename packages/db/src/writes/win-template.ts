import { renderWinColumns, type WinRaffleRow, type WinRow } from '../render/win.js';
import { ENTRY_TEMPLATE_MARKERS } from './entry-template.js';

/**
 * Marker values for the fields of a first-come win's views that only the database knows when the
 * win is rendered, before `enter_raffle` runs (migration 0016): its position (the spot it claims),
 * the wallet snapshot, the winner's identity and the raffle's fields (the request may name the
 * raffle by slug, and a title can be edited while the raffle is open). The function's
 * `fill_win_template` replaces each marked `"field":"marker"` pair; a marker begins with U+0000,
 * as in entry-template.ts, so the pair can only be the field itself. Change both together
 * (packages/db/test/enter-raffle-function.test.ts compares a filled win with renderWinColumns).
 */
export const WIN_TEMPLATE_MARKERS = {
  position: '\u0000position',
  walletSnapshot: ENTRY_TEMPLATE_MARKERS.walletSnapshot,
  identitySnapshot: '\u0000identitySnapshot',
  raffleId: ENTRY_TEMPLATE_MARKERS.raffleId,
  raffleSlug: ENTRY_TEMPLATE_MARKERS.raffleSlug,
  raffleTitle: '\u0000raffleTitle',
  allocationType: '\u0000allocationType',
  chain: '\u0000chain',
  workspaceId: '\u0000workspaceId',
} as const;

export type WinTemplateInput = { id: string; entryId: string; userId: string; selectedAt: Date };

/**
 * The two views (`winJson`, `winnerJson`) of the win a first-come entry makes, as renderWinColumns
 * renders them, with markers where the database fills in what it knows. Such a win is `selected`
 * (a raffle being entered is open, never finalized), its delivery pending, and nothing has
 * happened to it yet.
 */
export function renderFcfsWinTemplate(input: WinTemplateInput) {
  const m = WIN_TEMPLATE_MARKERS;
  const row = {
    id: input.id,
    raffleId: m.raffleId,
    entryId: input.entryId,
    userId: input.userId,
    position: m.position as unknown as number,
    source: 'fcfs',
    status: 'selected',
    walletSnapshot: m.walletSnapshot,
    allowlistWallet: null,
    identitySnapshot: m.identitySnapshot as unknown as WinRow['identitySnapshot'],
    deliveryStatus: 'pending',
    deliveryNote: null,
    selectedAt: input.selectedAt,
    finalizedAt: null,
    disqualifiedAt: null,
    replacedAt: null,
    deliveredAt: null,
    createdAt: input.selectedAt,
    updatedAt: input.selectedAt,
  } satisfies WinRow;
  const raffle = {
    id: m.raffleId,
    slug: m.raffleSlug,
    title: m.raffleTitle,
    mechanic: 'fcfs',
    allocationType: m.allocationType,
    chain: m.chain,
    workspaceId: m.workspaceId,
  } satisfies WinRaffleRow;
  return renderWinColumns(row, raffle);
}
