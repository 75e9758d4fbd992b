import { eq, sql } from 'drizzle-orm';
import type { DuplicateFlags, RequirementResult } from '@raffle/contracts';
import { rawTransactionOf, type DbOrTx } from '../client.js';
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

type EntryRecord = typeof entries.$inferSelect;

/** A weight as Postgres returns the numeric(20,6) column: six decimals ("2.5" reads back "2.500000"). */
export function storedWeight(weight: string): string {
  const [whole, fraction = ''] = weight.split('.');
  return `${whole}.${fraction.padEnd(6, '0')}`;
}

/** The entry exactly as `insertEntry` stores it and a read returns it, rendered views included, before it is written. */
export function entryRecordOf(input: NewEntry): EntryRecord {
  const row = buildEntryRow(input);
  return { ...row, entryWeight: storedWeight(row.entryWeight), ...renderEntryColumns(row, input.raffle.slug, input.evaluations ?? []) };
}

/** Builds (entryRecordOf) and stores a new entry with its requirement verdicts. */
export async function insertEntry(tx: DbOrTx, input: NewEntry): Promise<EntryRecord> {
  const entry = entryRecordOf(input);
  await storeEntry(tx, entry, input.evaluations ?? []);
  return entry;
}

/** One verdict as its row stores it (without its entry and time); the evidence stays in its private column. */
export const verdictColumnsOf = (e: RequirementEvaluation) => ({
  requirementId: e.requirementId,
  type: e.type,
  label: e.label,
  passed: e.passed,
  detail: e.detail ?? null,
  evidence: e.evidence ?? {},
});

/** An entry's verdicts as rows, all evaluated at `at`. */
const evaluationRows = (entryId: string, evaluations: readonly RequirementEvaluation[], at: Date) =>
  evaluations.map((e) => ({ entryId, ...verdictColumnsOf(e), evaluatedAt: at }));

/**
 * Stores an entry built by `entryRecordOf`, and its verdicts. Nothing is read back (no
 * `RETURNING`), so a caller holding the record can send the statements that go with it (its
 * outbox events) in the same round trip.
 */
export async function storeEntry(tx: DbOrTx, entry: EntryRecord, evaluations: readonly RequirementEvaluation[]): Promise<void> {
  // Written by hand rather than through drizzle's builder: the hottest insert there is, where
  // building it cost more CPU than sending it (issue 13). The entry tests read every column back.
  const sql = rawTransactionOf(tx);
  await sql`insert into entries (id, raffle_id, user_id, status, source, entry_weight, wallet_snapshot, status_reason,
      duplicate_flags, ip_hash, created_at, updated_at, workspace_json, owner_json)
    values (${entry.id}, ${entry.raffleId}, ${entry.userId}, ${entry.status}, ${entry.source}, ${entry.entryWeight}::numeric,
      ${entry.walletSnapshot}, ${entry.statusReason}, ${JSON.stringify(entry.duplicateFlags)}::jsonb, ${entry.ipHash},
      ${entry.createdAt.toISOString()}::timestamptz, ${entry.updatedAt.toISOString()}::timestamptz, ${entry.workspaceJson}, ${entry.ownerJson})`;
  if (evaluations.length === 0) return;
  await tx.insert(entryRequirementEvaluations).values(evaluationRows(entry.id, evaluations, entry.createdAt));
}

/** The requirement verdicts the entrant sees, in the raffle's order of its requirements. */
async function loadEntryRequirementResults(tx: DbOrTx, entryId: string, order: readonly { id: string }[]): Promise<RequirementResult[]> {
  const rows = await tx
    .select({
      requirementId: entryRequirementEvaluations.requirementId,
      type: entryRequirementEvaluations.type,
      label: entryRequirementEvaluations.label,
      passed: entryRequirementEvaluations.passed,
      detail: entryRequirementEvaluations.detail,
    })
    .from(entryRequirementEvaluations)
    .where(eq(entryRequirementEvaluations.entryId, entryId));
  const rank = new Map(order.map((r, i) => [r.id, i]));
  rows.sort((a, b) => (rank.get(a.requirementId) ?? 1e9) - (rank.get(b.requirementId) ?? 1e9));
  return rows.map(({ type, label, passed, detail }) => ({ type: type as RequirementResult['type'], label, passed, ...(detail ? { detail } : {}) }));
}

/** Replaces an entry's verdicts (a re-check at draw), keeping the evidence private. */
export async function replaceEntryEvaluations(tx: DbOrTx, entryId: string, evaluations: RequirementEvaluation[], at: Date) {
  await tx.delete(entryRequirementEvaluations).where(eq(entryRequirementEvaluations.entryId, entryId));
  if (evaluations.length === 0) return;
  await tx.insert(entryRequirementEvaluations).values(evaluationRows(entryId, evaluations, at));
}

/** Applies `changes` to an entry and re-renders both stored views of it. */
export async function updateEntry(
  tx: DbOrTx,
  entryId: string,
  raffle: { slug: string; requirements: readonly { id: string }[] },
  changes: Partial<Pick<EntryRow, 'status' | 'statusReason' | 'duplicateFlags' | 'entryWeight'>> & { updatedAt: Date },
) {
  const [current] = await tx.select().from(entries).where(eq(entries.id, entryId)).for('update');
  if (!current) return null;
  const next: EntryRow = { ...current, ...changes };
  const requirements = await loadEntryRequirementResults(tx, entryId, raffle.requirements);
  const [updated] = await tx
    .update(entries)
    .set({ ...changes, ...renderEntryColumns(next, raffle.slug, requirements) })
    .where(eq(entries.id, entryId))
    .returning();
  return updated!;
}
