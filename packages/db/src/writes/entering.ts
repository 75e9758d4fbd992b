import type { DuplicateFlags } from '@raffle/contracts';
import { rawTransactionOf, type DbOrTx } from '../client.js';
import { relayWakeOf } from '../outbox-wake.js';
import { activeTraceparent } from './outbox.js';
import { newId } from '../ids.js';
import { raffles, type RaffleRequirement } from '../schema/raffles.js';
import type { entries } from '../schema/entries.js';
import { rowOfTable } from '../queries/raw-rows.js';
import type { RaffleRef } from '../queries/raffle-locks.js';
import { renderEntryTemplate } from './entry-template.js';
import { storedWeight, verdictColumnsOf, type RequirementEvaluation } from './entries.js';

type EntryRecord = typeof entries.$inferSelect;
type RaffleRow = typeof raffles.$inferSelect;

/** The requirements an entry's verdicts were evaluated for; `fingerprint` null for none. */
export type RequirementPlan = { requirements: RaffleRequirement[]; fingerprint: string | null; workspaceId: string | null };

export type EntryAttempt = {
  ref: RaffleRef;
  /** Only for imports and the demo, which carry their own (time-sortable) ids; otherwise generated. */
  id?: string;
  userId: string;
  source: EntryRecord['source'];
  ipHash: string | null;
  at: Date;
  /** The fingerprint of the requirements the verdicts below are for (RequirementPlan). */
  fingerprint: string | null;
  /** `failed`: the entry is refused (once the raffle's other rules passed); `pending`: stored, settled later. */
  verdict: 'passed' | 'pending' | 'failed';
  weight: string;
  evaluations: readonly RequirementEvaluation[];
  /** The response an Idempotency-Key replays: the entry's owner view, committed with it. */
  idempotency?: { apiKeyId: string; key: string };
};

export type EntryOutcome =
  | { outcome: 'entered'; entry: EntryRecord; raffle: RaffleRow }
  | { outcome: 'raffle_not_found' }
  | { outcome: 'raffle_not_open'; raffle: RaffleRow }
  | { outcome: 'already_entered'; entryId: string }
  | { outcome: 'raffle_full'; raffle: RaffleRow }
  | { outcome: 'requirements_not_met' }
  /** FCFS raffles are entered the earlier way until their spots are claimed in the function. */
  | { outcome: 'fcfs' }
  | { outcome: 'requirements_changed'; plan: RequirementPlan };

type Row = {
  outcome: EntryOutcome['outcome'];
  detail: string | null;
  raffle: Record<string, unknown> | string | null;
  wallet_snapshot: string | null;
  duplicate_flags: string | null;
  workspace_json: string | null;
  owner_json: string | null;
  requirements: RaffleRequirement[] | string | null;
  requirements_fingerprint: string | null;
  workspace_id: string | null;
};

const parsed = <T>(value: T | string): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);

/**
 * One entry in one round trip: the migration-managed function `enter_raffle` (migration 0015)
 * checks, locks and writes in a single statement sent in autocommit, so BEGIN and COMMIT travel
 * with it. Written against postgres.js, prepared, with no query builder: the hottest write there is.
 * The entry is rendered here with markers the function fills (entry-template.ts).
 */
export async function enterRaffleInOneStatement(db: DbOrTx, attempt: EntryAttempt): Promise<EntryOutcome> {
  // The pool (or, for the demo's load, the transaction it runs in: the statement then commits with it).
  const sql = rawTransactionOf(db);
  // The relay is woken after the commit (a NOTIFY inside would serialise commits, outbox-wake.ts);
  // a database made elsewhere (a test's) has no such wake, and the statement notifies itself.
  const wake = relayWakeOf(db);
  const status = attempt.verdict === 'pending' ? 'pending' : 'valid';
  const id = attempt.id ?? newId('entry', attempt.at.getTime());
  const template = renderEntryTemplate(
    { id, userId: attempt.userId, status, source: attempt.source, entryWeight: attempt.weight, ipHash: attempt.ipHash, createdAt: attempt.at },
    [...attempt.evaluations],
  );
  const at = attempt.at.toISOString();
  // One entry's events share a stem; the function counts up the last two characters (ULID order).
  const eventStem = newId('event', attempt.at.getTime()).slice(0, -2);
  const evaluations = attempt.evaluations.map(verdictColumnsOf);
  const ref = attempt.ref;
  const [row] = await sql<Row[]>`select * from enter_raffle(${'raffleId' in ref ? ref.raffleId : null}::text, ${'slug' in ref ? ref.slug : null}::text,
    ${attempt.userId}, ${id}, ${attempt.source}, ${attempt.ipHash}::text, ${at}, ${attempt.fingerprint}::text, ${attempt.verdict},
    ${attempt.weight}, ${JSON.stringify(evaluations)}::jsonb, ${template.workspaceJson}, ${template.ownerJson}, ${eventStem},
    ${activeTraceparent()}::text, ${wake === null}, ${attempt.idempotency?.apiKeyId ?? null}::text, ${attempt.idempotency?.key ?? null}::text)`;
  if (row!.outcome === 'entered') wake?.();
  return outcomeOf(row!, { id, status, attempt });
}

function outcomeOf(row: Row, made: { id: string; status: string; attempt: EntryAttempt }): EntryOutcome {
  switch (row.outcome) {
    case 'entered': {
      const { attempt } = made;
      const entry: EntryRecord = {
        id: made.id,
        raffleId: row.raffle ? String(parsed(row.raffle).id) : '',
        userId: attempt.userId,
        status: made.status,
        source: attempt.source,
        entryWeight: storedWeight(attempt.weight),
        walletSnapshot: row.wallet_snapshot,
        statusReason: null,
        duplicateFlags: JSON.parse(row.duplicate_flags!) as DuplicateFlags,
        ipHash: attempt.ipHash,
        createdAt: attempt.at,
        updatedAt: attempt.at,
        workspaceJson: row.workspace_json!,
        ownerJson: row.owner_json!,
      };
      return { outcome: 'entered', entry, raffle: rowOfTable(raffles, parsed(row.raffle!)) };
    }
    case 'raffle_not_open':
      return { outcome: 'raffle_not_open', raffle: rowOfTable(raffles, parsed(row.raffle!)) };
    case 'already_entered':
      return { outcome: 'already_entered', entryId: row.detail! };
    case 'raffle_full':
      return { outcome: 'raffle_full', raffle: rowOfTable(raffles, parsed(row.raffle!)) };
    case 'requirements_changed':
      return {
        outcome: 'requirements_changed',
        plan: { requirements: parsed(row.requirements!), fingerprint: row.requirements_fingerprint, workspaceId: row.workspace_id },
      };
    default:
      return { outcome: row.outcome };
  }
}
