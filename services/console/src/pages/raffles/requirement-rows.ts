import type { RequirementRow } from './raffle-form-values.js';
import { initialParams } from './requirement-fields.js';

/** The label a new row of each type starts with: entrants see it, so it reads as a sentence. */
export const DEFAULT_LABELS: Record<string, string> = {
  wallet_connected: 'Wallet connected',
  account_age_days: 'Account old enough',
  email_verified: 'Email verified',
  workspace_member: 'Member of the workspace',
  holds_role: 'Holds a community role',
  token_balance: 'Holds the token',
  native_balance: 'Holds enough of the native coin',
  discord_member: 'Member of our Discord server',
  discord_role: 'Holds the role in our Discord server',
  x_follows: 'Follows us on X',
  x_account_age_days: 'X account old enough',
};

const NEW_ROW_TYPE = 'email_verified';

/**
 * An id the editor chose: its type and a counter (`email_verified-1`). Ids must be unique within
 * the raffle; type plus counter is readable and stable. The first free counter from `start` on.
 */
function derivedId(type: string, taken: readonly RequirementRow[], start: number): string {
  let n = start;
  while (taken.some((r) => r.id === `${type}-${n}`)) n++;
  return `${type}-${n}`;
}

/** Whether the row's id is one the editor derived from its type (not one the user typed). */
const isDerivedId = (row: RequirementRow): boolean => new RegExp(`^${row.type}-[1-9][0-9]*$`).test(row.id);

/** The rows with a new one added: an email check, its id derived from its type and position. */
export function withNewRow(rows: readonly RequirementRow[]): RequirementRow[] {
  const id = derivedId(NEW_ROW_TYPE, rows, rows.length + 1);
  return [...rows, { id, type: NEW_ROW_TYPE, label: DEFAULT_LABELS[NEW_ROW_TYPE]!, params: {}, optional: false, multiplier: '' }];
}

/**
 * The rows after row `index` changed type. What the editor chose for the old type follows the new
 * one: the id (`email_verified-1` becomes `token_balance-1`, so no id names another type) and a label
 * still at the old type's default; the type's parameters start afresh. An id or label the user
 * typed stays.
 */
export function withRowType(rows: readonly RequirementRow[], index: number, type: string, chains: readonly string[]): RequirementRow[] {
  const row = rows[index];
  if (!row || row.type === type) return [...rows];
  const others = rows.filter((_, i) => i !== index);
  const counter = Number(/-([1-9][0-9]*)$/.exec(row.id)?.[1] ?? index + 1);
  const id = isDerivedId(row) ? derivedId(type, others, counter) : row.id;
  const label = row.label === DEFAULT_LABELS[row.type] ? (DEFAULT_LABELS[type] ?? row.label) : row.label;
  return rows.map((r, i) => (i === index ? { ...row, id, type, label, params: initialParams(type, chains) } : r));
}
