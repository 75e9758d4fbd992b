import type { DuplicateFlags, RequirementResult } from '@raffle/contracts';
import type { DbOrTx } from '../client.js';
import { newId } from '../ids.js';
import { renderEntryColumns, type EntryRow } from '../render/entry.js';
import { entries, entryRequirementEvaluations } from '../schema/entries.js';

export type RequirementEvaluation = RequirementResult & { requirementId: string; evidence?: Record<string, unknown> };

export type NewEntry = {
  id?: string;
  raffle: { id: string; slug: string };
  userId: string;
  status: EntryRow['status'];
  source: EntryRow['source'];
  entryWeight?: string;
  walletSnapshot?: string | null;
  statusReason?: string | null;
  duplicateFlags?: DuplicateFlags;
  ipHash?: string | null;
  createdAt?: Date;
  evaluations?: RequirementEvaluation[];
};

export function buildEntryRow(input: NewEntry): EntryRow {
  const now = input.createdAt ?? new Date();
  return {
    id: input.id ?? newId('entry', now.getTime()),
    raffleId: input.raffle.id,
    userId: input.userId,
    status: input.status,
    source: input.source,
    entryWeight: input.entryWeight ?? '1',
    walletSnapshot: input.walletSnapshot ?? null,
    statusReason: input.statusReason ?? null,
    duplicateFlags: input.duplicateFlags ?? {},
    ipHash: input.ipHash ?? null,
    createdAt: now,
    updatedAt: now,
  };
}

export async function insertEntry(tx: DbOrTx, input: NewEntry) {
  const row = buildEntryRow(input);
  const evaluations = input.evaluations ?? [];
  const [entry] = await tx
    .insert(entries)
    .values({ ...row, ...renderEntryColumns(row, input.raffle.slug, evaluations) })
    .returning();
  if (evaluations.length > 0) {
    await tx.insert(entryRequirementEvaluations).values(
      evaluations.map((e) => ({
        entryId: row.id,
        requirementId: e.requirementId,
        type: e.type,
        label: e.label,
        passed: e.passed,
        evidence: e.evidence ?? {},
        evaluatedAt: row.createdAt,
      })),
    );
  }
  return entry!;
}
