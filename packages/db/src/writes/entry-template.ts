import type { RequirementResult } from '@raffle/contracts';
import { renderEntryColumns, type EntryRow } from '../render/entry.js';

/**
 * Marker values for the fields of an entry's stored views that only the database knows when the
 * entry is rendered: the entry is rendered here before `enter_raffle` runs (migrations 0015, 0016), and
 * the function replaces each marked `"field":"marker"` pair. A marker begins with U+0000, which
 * JSON.stringify always escapes, so the pair with its unescaped quotes can only be the field
 * itself, never text inside a label. The function spells the same pairs: change both together
 * (packages/db/test/enter-raffle-function.test.ts renders and fills one of each).
 */
export const ENTRY_TEMPLATE_MARKERS = {
  walletSnapshot: '\u0000walletSnapshot',
  duplicateFlags: '\u0000duplicateFlags',
  raffleId: '\u0000raffleId',
  raffleSlug: '\u0000raffleSlug',
} as const;

export type EntryTemplateInput = Pick<EntryRow, 'id' | 'userId' | 'status' | 'source' | 'entryWeight' | 'ipHash' | 'createdAt'>;

/**
 * The entry's two views (`workspaceJson`, `ownerJson`) as renderEntryColumns renders them, with
 * markers where the database fills in the raffle's id and slug, the wallet snapshot and the
 * duplicate flags. A new entry has no status reason and was created and updated at once.
 */
export function renderEntryTemplate(input: EntryTemplateInput, requirements: RequirementResult[]) {
  const m = ENTRY_TEMPLATE_MARKERS;
  const row = {
    ...input,
    raffleId: m.raffleId,
    walletSnapshot: m.walletSnapshot,
    statusReason: null,
    duplicateFlags: m.duplicateFlags as unknown as EntryRow['duplicateFlags'],
    updatedAt: input.createdAt,
  } satisfies EntryRow;
  return renderEntryColumns(row, m.raffleSlug, requirements);
}
