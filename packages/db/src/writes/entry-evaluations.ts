import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../client.js';
import type { RequirementEvaluation } from './entries.js';

/**
 * Replaces the verdicts of many entries at once (the draw's re-check of a batch), all evaluated
 * at `at`: one delete and one insert fed by a single JSON parameter, however many rows.
 */
export async function replaceEvaluationsOfEntries(
  tx: DbOrTx,
  batch: readonly { entryId: string; evaluations: readonly RequirementEvaluation[] }[],
  at: Date,
): Promise<void> {
  if (batch.length === 0) return;
  const rows = batch.flatMap(({ entryId, evaluations }) =>
    evaluations.map((e) => ({ entry_id: entryId, requirement_id: e.requirementId, type: e.type, label: e.label, passed: e.passed, detail: e.detail ?? null, evidence: e.evidence ?? {} })),
  );
  await tx.execute(sql`delete from entry_requirement_evaluations where entry_id in (select jsonb_array_elements_text(${JSON.stringify(batch.map((b) => b.entryId))}::jsonb))`);
  if (rows.length === 0) return;
  await tx.execute(sql`
    insert into entry_requirement_evaluations (entry_id, requirement_id, type, label, passed, detail, evidence, evaluated_at)
    select r.entry_id, r.requirement_id, r.type, r.label, r.passed, r.detail, r.evidence, ${at.toISOString()}::timestamptz
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(entry_id text, requirement_id text, type text, label text, passed boolean, detail text, evidence jsonb)`);
}
