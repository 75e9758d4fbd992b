import { CHAIN_REQUIREMENT_TYPES, SOCIAL_REQUIREMENT_TYPES, type ChainRequirementType, type RequirementType, type SocialRequirementType } from '@raffle/contracts';
import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../client.js';
import type { RaffleRequirement } from '../schema/raffles.js';

/** Where a requirement is evaluated: one user (or a column naming one), against one raffle's workspace, at one moment. */
type Subject = { userId: SQL; workspaceId: string; at: Date };

/**
 * One built-in requirement type as SQL over the platform's own tables, so the same definition
 * evaluates one entrant at entry time and a million at draw time. `evidence` is private: kept
 * with the verdict, never shown to the entrant or on the data plane. The domain checks each
 * type's params (see its requirement-types.ts) before a raffle can hold them.
 */
type RequirementSql = {
  passes(params: Record<string, unknown>, subject: Subject): SQL;
  evidence(params: Record<string, unknown>, subject: Subject): SQL;
};

const DAY_MS = 86_400_000;

/**
 * The types evaluated here, over the platform's own tables; chain types are read over JSON-RPC by
 * the domain, social ones (Discord, X) from the provider with the entrant's linked account.
 */
export type PlatformRequirementType = Exclude<RequirementType, ChainRequirementType | SocialRequirementType>;

const CHAIN_TYPES = new Set<string>(CHAIN_REQUIREMENT_TYPES);
export const isChainRequirement = (r: { type: string }): boolean => CHAIN_TYPES.has(r.type);
const SOCIAL_TYPES = new Set<string>(SOCIAL_REQUIREMENT_TYPES);
export const isSocialRequirement = (r: { type: string }): boolean => SOCIAL_TYPES.has(r.type);

/** A chain type's column here: not passed, and marked so; the domain fills in what the chain says. */
const READ_FROM_CHAIN: RequirementSql = {
  passes: () => sql`false`,
  evidence: () => sql`jsonb_build_object('readFromChain', true)`,
};

/** A social type's column here, the same way: the domain fills in what the provider says. */
const READ_FROM_PROVIDER: RequirementSql = {
  passes: () => sql`false`,
  evidence: () => sql`jsonb_build_object('readFromProvider', true)`,
};

const REQUIREMENT_SQL: Record<PlatformRequirementType, RequirementSql> = {
  wallet_connected: {
    passes: (p, s) =>
      sql`exists (select 1 from user_wallets w where w.user_id = ${s.userId} and w.chain = ${String(p.chain)} and w.verified)`,
    evidence: (p, s) =>
      sql`jsonb_build_object('chain', ${String(p.chain)}::text, 'address',
            (select w.address from user_wallets w where w.user_id = ${s.userId} and w.chain = ${String(p.chain)} and w.verified
             order by w.created_at limit 1))`,
  },
  account_age_days: {
    passes: (p, s) =>
      sql`(select u.created_at <= ${new Date(s.at.getTime() - Number(p.min) * DAY_MS).toISOString()}::timestamptz from users u where u.id = ${s.userId})`,
    evidence: (_p, s) => sql`(select jsonb_build_object('accountCreatedAt', u.created_at) from users u where u.id = ${s.userId})`,
  },
  email_verified: {
    passes: (_p, s) => sql`(select u.email_verified_at is not null from users u where u.id = ${s.userId})`,
    evidence: (_p, s) => sql`(select jsonb_build_object('verifiedAt', u.email_verified_at) from users u where u.id = ${s.userId})`,
  },
  workspace_member: {
    passes: (_p, s) =>
      sql`exists (select 1 from workspace_members m where m.workspace_id = ${s.workspaceId} and m.user_id = ${s.userId})`,
    evidence: (_p, s) =>
      sql`jsonb_build_object('role', (select m.role from workspace_members m where m.workspace_id = ${s.workspaceId} and m.user_id = ${s.userId}))`,
  },
  holds_role: {
    passes: (p, s) =>
      sql`exists (select 1 from community_roles c where c.workspace_id = ${s.workspaceId} and c.user_id = ${s.userId} and c.role = ${String(p.role)})`,
    evidence: (p) => sql`jsonb_build_object('role', ${String(p.role)}::text)`,
  },
};

const definitionOf = (r: RaffleRequirement): RequirementSql =>
  isChainRequirement(r) ? READ_FROM_CHAIN : isSocialRequirement(r) ? READ_FROM_PROVIDER : REQUIREMENT_SQL[r.type as PlatformRequirementType];
const passes = (r: RaffleRequirement, subject: Subject): SQL => sql`coalesce(${definitionOf(r).passes(r.params, subject)}, false)`;

/** `p<i>` (passed) and `e<i>` (evidence) for every requirement, in order. */
const verdictColumns = (requirements: readonly RaffleRequirement[], subject: Subject): SQL =>
  sql.join(
    requirements.map((r, i) => sql`${passes(r, subject)} as ${sql.raw(`p${i}`)}, ${definitionOf(r).evidence(r.params, subject)} as ${sql.raw(`e${i}`)}`),
    sql`, `,
  );

/** Each requirement's outcome, in the raffle's order of its requirements. */
export type RequirementOutcomes = { passed: boolean[]; evidence: Record<string, unknown>[] };

const outcomesOf = (requirements: readonly RaffleRequirement[], row: Record<string, unknown>): RequirementOutcomes => ({
  passed: requirements.map((_, i) => row[`p${i}`] === true),
  evidence: requirements.map((_, i) => (row[`e${i}`] ?? {}) as Record<string, unknown>),
});

/** Evaluates every requirement for one user in one query. */
export async function evaluateUserRequirements(
  tx: DbOrTx,
  args: { requirements: readonly RaffleRequirement[]; workspaceId: string; userId: string; at: Date },
): Promise<RequirementOutcomes> {
  if (args.requirements.length === 0) return { passed: [], evidence: [] };
  const subject: Subject = { userId: sql`${args.userId}`, workspaceId: args.workspaceId, at: args.at };
  const [row] = await tx.execute(sql`select ${verdictColumns(args.requirements, subject)}`);
  return outcomesOf(args.requirements, row!);
}

/**
 * The raffle's valid entries failing any requirement flagged in `required` (aligned with
 * `requirements`), with every outcome: one set-based query however many entries there are.
 */
export async function listEntriesFailingRequirements(
  tx: DbOrTx,
  args: { raffleId: string; workspaceId: string; requirements: readonly RaffleRequirement[]; required: readonly boolean[]; at: Date },
): Promise<(RequirementOutcomes & { entryId: string })[]> {
  const mustPass = args.requirements.filter((_, i) => args.required[i]);
  if (mustPass.length === 0) return [];
  const subject: Subject = { userId: sql`e.user_id`, workspaceId: args.workspaceId, at: args.at };
  const allRequired = sql.join(mustPass.map((r) => passes(r, subject)), sql` and `);
  const rows = await tx.execute(sql`
    select e.id as "entryId", ${verdictColumns(args.requirements, subject)}
    from entries e
    where e.raffle_id = ${args.raffleId} and e.status = 'valid' and not (${allRequired})`);
  return rows.map((row) => ({ entryId: row.entryId as string, ...outcomesOf(args.requirements, row) }));
}

/** One entry the draw re-evaluates, with its outcomes (chain types unread: the domain reads them). */
export type EntryOutcomes = RequirementOutcomes & {
  entryId: string;
  userId: string;
  status: 'valid' | 'pending';
  entryWeight: string;
  /** The verdicts stored before, by requirement id: an entry whose verdicts change is re-rendered. */
  previous: Record<string, { passed: boolean; detail: string | null }>;
};

/**
 * The raffle's `valid` and `pending` entries after `afterId` (id order, at most `limit`), every
 * requirement evaluated: the draw's re-check of a raffle whose requirements read a chain streams
 * them in batches, so a large raffle never sits in memory at once.
 */
export async function pageEntryOutcomes(
  tx: DbOrTx,
  args: { raffleId: string; workspaceId: string; requirements: readonly RaffleRequirement[]; at: Date; afterId: string | null; limit: number },
): Promise<EntryOutcomes[]> {
  const subject: Subject = { userId: sql`e.user_id`, workspaceId: args.workspaceId, at: args.at };
  const columns = args.requirements.length === 0 ? sql`` : sql`, ${verdictColumns(args.requirements, subject)}`;
  const rows = await tx.execute(sql`
    select e.id as "entryId", e.user_id as "userId", e.status, e.entry_weight::text as "entryWeight",
      coalesce((select jsonb_object_agg(v.requirement_id, jsonb_build_object('passed', v.passed, 'detail', v.detail))
                from entry_requirement_evaluations v where v.entry_id = e.id), '{}'::jsonb) as previous ${columns}
    from entries e
    where e.raffle_id = ${args.raffleId} and e.status in ('valid', 'pending') ${args.afterId === null ? sql`` : sql`and e.id > ${args.afterId}`}
    order by e.id
    limit ${args.limit}`);
  return rows.map((row) => ({
    entryId: row.entryId as string,
    userId: row.userId as string,
    status: row.status as 'valid' | 'pending',
    entryWeight: row.entryWeight as string,
    previous: (typeof row.previous === 'string' ? JSON.parse(row.previous) : row.previous) as EntryOutcomes['previous'],
    ...outcomesOf(args.requirements, row),
  }));
}
