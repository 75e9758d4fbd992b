import type { RequirementType } from '@raffle/contracts';
import { sql, type SQL } from 'drizzle-orm';

/** Where a requirement is evaluated: one user, against one raffle's workspace, at one moment. */
export type EvaluationSubject = { userId: SQL; workspaceId: string; at: Date };

/**
 * One built-in requirement type. `passes` and `evidence` are SQL over the platform's own tables,
 * so the same definition evaluates one entrant at entry time and a million at draw time.
 * New types register here: nothing else in the platform names a type.
 */
export type RequirementTypeDefinition = {
  /** Problems with a raffle's `params` for this type; empty when they are usable. */
  paramProblems(params: Record<string, unknown>): string[];
  passes(params: Record<string, unknown>, subject: EvaluationSubject): SQL;
  /** Private evidence kept with the verdict (never shown to the entrant or on the data plane). */
  evidence(params: Record<string, unknown>, subject: EvaluationSubject): SQL;
};

const DAY_MS = 86_400_000;
const CHAIN = /^[a-z0-9-]{1,32}$/;
const ROLE = /^[a-z0-9_-]{1,48}$/;

const noParams = (params: Record<string, unknown>) =>
  Object.keys(params).filter((k) => !COMMON_PARAMS.has(k)).map((k) => `params.${k} is not used by this type`);

/** Params every type accepts: an optional requirement only adds weight when it passes. */
export const COMMON_PARAMS = new Set(['optional', 'multiplier']);

const extraParams = (params: Record<string, unknown>, own: string[]) =>
  Object.keys(params)
    .filter((k) => !own.includes(k) && !COMMON_PARAMS.has(k))
    .map((k) => `params.${k} is not used by this type`);

export const REQUIREMENT_DEFINITIONS: Record<RequirementType, RequirementTypeDefinition> = {
  wallet_connected: {
    paramProblems: (p) => [
      ...(typeof p.chain === 'string' && CHAIN.test(p.chain) ? [] : ['params.chain must be a chain name such as "ethereum"']),
      ...extraParams(p, ['chain']),
    ],
    passes: (p, s) =>
      sql`exists (select 1 from user_wallets w where w.user_id = ${s.userId} and w.chain = ${String(p.chain)} and w.verified)`,
    evidence: (p, s) =>
      sql`jsonb_build_object('chain', ${String(p.chain)}::text, 'address',
            (select w.address from user_wallets w where w.user_id = ${s.userId} and w.chain = ${String(p.chain)} and w.verified
             order by w.created_at limit 1))`,
  },
  account_age_days: {
    paramProblems: (p) => [
      ...(Number.isInteger(p.min) && (p.min as number) >= 0 && (p.min as number) <= 36_500 ? [] : ['params.min must be a whole number of days (0–36500)']),
      ...extraParams(p, ['min']),
    ],
    passes: (p, s) =>
      sql`(select u.created_at <= ${new Date(s.at.getTime() - Number(p.min) * DAY_MS).toISOString()}::timestamptz from users u where u.id = ${s.userId})`,
    evidence: (_p, s) => sql`(select jsonb_build_object('accountCreatedAt', u.created_at) from users u where u.id = ${s.userId})`,
  },
  email_verified: {
    paramProblems: noParams,
    passes: (_p, s) => sql`(select u.email_verified_at is not null from users u where u.id = ${s.userId})`,
    evidence: (_p, s) => sql`(select jsonb_build_object('verifiedAt', u.email_verified_at) from users u where u.id = ${s.userId})`,
  },
  workspace_member: {
    paramProblems: noParams,
    passes: (_p, s) =>
      sql`exists (select 1 from workspace_members m where m.workspace_id = ${s.workspaceId} and m.user_id = ${s.userId})`,
    evidence: (_p, s) =>
      sql`jsonb_build_object('role', (select m.role from workspace_members m where m.workspace_id = ${s.workspaceId} and m.user_id = ${s.userId}))`,
  },
  holds_role: {
    paramProblems: (p) => [
      ...(typeof p.role === 'string' && ROLE.test(p.role) ? [] : ['params.role must be a role name (a-z, 0-9, _ and -)']),
      ...extraParams(p, ['role']),
    ],
    passes: (p, s) =>
      sql`exists (select 1 from community_roles c where c.workspace_id = ${s.workspaceId} and c.user_id = ${s.userId} and c.role = ${String(p.role)})`,
    evidence: (p) => sql`jsonb_build_object('role', ${String(p.role)}::text)`,
  },
};
