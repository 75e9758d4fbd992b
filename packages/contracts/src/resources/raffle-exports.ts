import type { WorkspaceEntry } from './entry.js';
import type { Winner } from './win.js';

/**
 * The columns of a raffle's CSV exports: the fields of the JSON resource the matching list
 * answers, in the spec's order, so a column holds exactly what that field holds in JSON.
 */

/** `exports/winners.csv`: the spec's "Winner (workspace, finalized)" fields. */
export const WINNER_CSV_COLUMNS = [
  'id',
  'userId',
  'source',
  'status',
  'position',
  'walletSnapshot',
  'identitySnapshot',
  'deliveryStatus',
  'deliveryNote',
  'finalizedAt',
  'deliveredAt',
] as const satisfies readonly (keyof Winner)[];

/** `exports/entries.csv`: the spec's "Workspace raffle entry" fields. */
export const WORKSPACE_ENTRY_CSV_COLUMNS = [
  'id',
  'userId',
  'status',
  'source',
  'entryWeight',
  'walletSnapshot',
  'statusReason',
  'duplicateFlags',
  'createdAt',
  'updatedAt',
] as const satisfies readonly (keyof WorkspaceEntry)[];
