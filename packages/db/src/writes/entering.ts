import type { DuplicateFlags } from '@raffle/contracts';
import { rawTransactionOf, type DbOrTx } from '../client.js';
import { relayWakeOf } from '../outbox-wake.js';
import { activeTraceparent } from './outbox.js';
import { newId } from '../ids.js';
import { raffles, type RaffleRequirement } from '../schema/raffles.js';
import type { entries } from '../schema/entries.js';
import { rowOfTable } from '../queries/raw-rows.js';
import type { RaffleRef } from '../queries/raffle-locks.js';
import type { wins } from '../schema/wins.js';
import { renderEntryTemplate } from './entry-template.js';
import { storedWeight, verdictColumnsOf, type RequirementEvaluation } from './entries.js';
import { renderFcfsWinTemplate } from './win-template.js';

type EntryRecord = typeof entries.$inferSelect;
type RaffleRow = typeof raffles.$inferSelect;
type WinRecord = typeof wins.$inferSelect;

/**
 * What an entry to a raffle is prepared for before the call: the requirements its verdicts are
 * evaluated for (`fingerprint` null for none), and whether its entries win on arrival (FCFS: the
 * win is rendered too). The function sends the raffle's own back when they differ (`plan_changed`).
 */
export type RequirementPlan = { requirements: RaffleRequirement[]; fingerprint: string | null; workspaceId: string | null; fcfs: boolean };

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
  /** The plan says the raffle is first-come: the entry's win is rendered and sent with it. */
  fcfs?: boolean;
  /** `failed`: the entry is refused (once the raffle's other rules passed); `pending`: stored, settled later. */
  verdict: 'passed' | 'pending' | 'failed';
  weight: string;
  evaluations: readonly RequirementEvaluation[];
  /** The response an Idempotency-Key replays: the entry's owner view, committed with it. */
  idempotency?: { apiKeyId: string; key: string };
};

export type EntryOutcome =
  /**
   * `win` for a first-come entry that took a spot; `mayClose` when it left no spot unclaimed: it
   * may be the last to commit, and the caller tries the close (closeFcfsRaffleWhenFull).
   */
  | { outcome: 'entered'; entry: EntryRecord; raffle: RaffleRow; win: WinRecord | null; mayClose: boolean }
  | { outcome: 'raffle_not_found' }
  | { outcome: 'raffle_not_open'; raffle: RaffleRow }
  | { outcome: 'already_entered'; entryId: string }
  | { outcome: 'raffle_full'; spots: number }
  | { outcome: 'requirements_not_met' }
  | { outcome: 'plan_changed'; plan: RequirementPlan };

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
  mechanic: string | null;
  win_position: number | null;
  winner_identity: string | null;
  win_json: string | null;
  winner_json: string | null;
  may_close: boolean;
};

const parsed = <T>(value: T | string): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);

/**
 * One entry in one round trip: the migration-managed function `enter_raffle` (migrations 0015,
 * 0016) checks, locks and writes in a single statement sent in autocommit, so BEGIN and COMMIT
 * travel with it; a first-come entry claims its spot and writes its win there too. Written against
 * postgres.js, prepared, with no query builder: the hottest write there is. The entry (and a
 * first-come entry's win) is rendered here with markers the function fills (entry-template.ts,
 * win-template.ts).
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
  const win = attempt.fcfs ? { id: newId('win', attempt.at.getTime()) } : null;
  const winTemplate = win && renderFcfsWinTemplate({ id: win.id, entryId: id, userId: attempt.userId, selectedAt: attempt.at });
  const at = attempt.at.toISOString();
  // One entry's events share a stem; the function counts up the last two characters (ULID order).
  const eventStem = newId('event', attempt.at.getTime()).slice(0, -2);
  const evaluations = attempt.evaluations.map(verdictColumnsOf);
  const ref = attempt.ref;
  const [row] = await sql<Row[]>`select * from enter_raffle(${'raffleId' in ref ? ref.raffleId : null}::text, ${'slug' in ref ? ref.slug : null}::text,
    ${attempt.userId}, ${id}, ${attempt.source}, ${attempt.ipHash}::text, ${at}, ${attempt.fingerprint}::text, ${attempt.verdict},
    ${attempt.weight}, ${JSON.stringify(evaluations)}::jsonb, ${template.workspaceJson}, ${template.ownerJson}, ${eventStem},
    ${activeTraceparent()}::text, ${wake === null}, ${attempt.idempotency?.apiKeyId ?? null}::text, ${attempt.idempotency?.key ?? null}::text,
    ${win?.id ?? null}::text, ${winTemplate?.winJson ?? null}::text, ${winTemplate?.winnerJson ?? null}::text)`;
  if (row!.outcome === 'entered') wake?.();
  return outcomeOf(row!, { id, status, winId: win?.id ?? null, attempt });
}

/** The win the function inserted for a first-come entry, as a read returns it. */
function winOf(row: Row, made: { id: string; winId: string | null; attempt: EntryAttempt }, raffleId: string): WinRecord | null {
  if (row.win_position === null || made.winId === null) return null;
  const at = made.attempt.at;
  return {
    id: made.winId,
    raffleId,
    entryId: made.id,
    userId: made.attempt.userId,
    position: row.win_position,
    source: 'fcfs',
    status: 'selected',
    walletSnapshot: row.wallet_snapshot,
    allowlistWallet: null,
    identitySnapshot: JSON.parse(row.winner_identity!) as WinRecord['identitySnapshot'],
    deliveryStatus: 'pending',
    deliveryNote: null,
    selectedAt: at,
    finalizedAt: null,
    disqualifiedAt: null,
    replacedAt: null,
    deliveredAt: null,
    createdAt: at,
    updatedAt: at,
    winJson: row.win_json!,
    winnerJson: row.winner_json!,
  };
}

function outcomeOf(row: Row, made: { id: string; status: string; winId: string | null; attempt: EntryAttempt }): EntryOutcome {
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
      return { outcome: 'entered', entry, raffle: rowOfTable(raffles, parsed(row.raffle!)), win: winOf(row, made, entry.raffleId), mayClose: row.may_close };
    }
    case 'raffle_not_open':
      return { outcome: 'raffle_not_open', raffle: rowOfTable(raffles, parsed(row.raffle!)) };
    case 'already_entered':
      return { outcome: 'already_entered', entryId: row.detail! };
    case 'raffle_full':
      return { outcome: 'raffle_full', spots: Number(row.detail) };
    case 'plan_changed':
      return {
        outcome: 'plan_changed',
        plan: { requirements: parsed(row.requirements!), fingerprint: row.requirements_fingerprint, workspaceId: row.workspace_id, fcfs: row.mechanic === 'fcfs' },
      };
    default:
      return { outcome: row.outcome };
  }
}
