import type { RequirementResult, SanitizedEntry, WorkspaceEntry } from '@raffle/contracts';
import type { entries } from '../schema/entries.js';
import { decimalString, textOrAbsent } from './iso.js';

export type EntryRow = Omit<typeof entries.$inferSelect, 'workspaceJson' | 'ownerJson'>;

export const toWorkspaceEntry = (e: EntryRow): WorkspaceEntry => ({
  id: e.id,
  userId: e.userId,
  status: e.status as WorkspaceEntry['status'],
  source: e.source as WorkspaceEntry['source'],
  entryWeight: decimalString(e.entryWeight),
  walletSnapshot: textOrAbsent(e.walletSnapshot),
  statusReason: textOrAbsent(e.statusReason),
  duplicateFlags: e.duplicateFlags,
  createdAt: e.createdAt.toISOString(),
  updatedAt: e.updatedAt.toISOString(),
});

export const toSanitizedEntry = (e: EntryRow, raffleSlug: string, requirements: RequirementResult[]): SanitizedEntry => ({
  id: e.id,
  raffleId: e.raffleId,
  raffleSlug,
  status: e.status as SanitizedEntry['status'],
  source: e.source as SanitizedEntry['source'],
  entryWeight: decimalString(e.entryWeight),
  walletSnapshot: textOrAbsent(e.walletSnapshot),
  statusReason: textOrAbsent(e.statusReason),
  requirements: requirements.map(({ type, label, passed, detail }) => ({ type, label, passed, ...(detail === undefined ? {} : { detail }) })),
  createdAt: e.createdAt.toISOString(),
  updatedAt: e.updatedAt.toISOString(),
});

export const renderEntryColumns = (e: EntryRow, raffleSlug: string, requirements: RequirementResult[]) => ({
  workspaceJson: JSON.stringify(toWorkspaceEntry(e)),
  ownerJson: JSON.stringify(toSanitizedEntry(e, raffleSlug, requirements)),
});
