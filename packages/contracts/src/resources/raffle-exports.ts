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

/** A record of each file, for the OpenAPI documents' examples. */
export const WORKSPACE_ENTRY_CSV_EXAMPLE: WorkspaceEntry = {
  id: 'ent_01JR3C5F8H2K6N9Q4T7W1Z5B8D',
  userId: 'usr_01JM4Q8Z3V7T2K9R5X6W1B8N4D',
  status: 'valid',
  source: 'api',
  entryWeight: '1',
  walletSnapshot: '0x52908400098527886E0F7030069857D2E4169EE7',
  duplicateFlags: { ipReuse: ['ent_01JR3C9K2M5P8S1V4X7Z0C3F6J'] },
  createdAt: '2026-03-14T16:00:00.000Z',
  updatedAt: '2026-03-14T16:00:00.000Z',
};

export const WINNER_CSV_EXAMPLE: Winner = {
  id: 'win_01JR3D7G2J5M8Q1S4V7Y9B3E6H',
  userId: 'usr_01JM4Q8Z3V7T2K9R5X6W1B8N4D',
  source: 'draw',
  status: 'finalized',
  position: 1,
  walletSnapshot: '0x52908400098527886E0F7030069857D2E4169EE7',
  identitySnapshot: { handle: 'ada', displayName: 'Ada', wallets: [{ chain: 'ethereum', address: '0x52908400098527886E0F7030069857D2E4169EE7' }] },
  deliveryStatus: 'pending',
  finalizedAt: '2026-03-14T16:00:00.000Z',
};
