import { MAX_ENTRY_WEIGHT, REQUIREMENT_TYPES, type RequirementFailure, type RequirementType } from '@raffle/contracts';
import { evaluateUserRequirements, isChainRequirement, isSocialRequirement, listEntriesFailingRequirements, type DbOrTx, type RequirementEvaluation, type schema } from '@raffle/db';
import { providerName } from '../connections/provider-access.js';
import { REQUIREMENT_DEFINITIONS } from './requirement-types.js';
import { providerOf } from './social/social-resources.js';

type RaffleRequirement = schema.RaffleRequirement;

const KNOWN_TYPES = new Set<string>(REQUIREMENT_TYPES);
const MAX_REQUIREMENTS = 20;

const isOptional = (r: RaffleRequirement) => r.params.optional === true;

/**
 * Everything wrong with a raffle's requirement list, so one 400 reports it all. `chains`: the
 * chains this deployment reads (CHAIN_RPC_URLS); an on-chain requirement naming another is refused.
 * `providers`: the providers accounts can be linked with here (a client configured); a Discord or
 * X requirement of another is refused, as no entrant could ever meet it.
 */
export function requirementProblems(requirements: RaffleRequirement[], options: { chains?: readonly string[]; providers?: readonly string[] } = {}): string[] {
  const problems: string[] = [];
  if (requirements.length > MAX_REQUIREMENTS) problems.push(`at most ${MAX_REQUIREMENTS} requirements`);
  const ids = new Set<string>();
  requirements.forEach((r, i) => {
    const at = `requirements[${i}]`;
    if (ids.has(r.id)) problems.push(`${at}.id ${JSON.stringify(r.id)} repeats`);
    ids.add(r.id);
    if (!KNOWN_TYPES.has(r.type)) {
      problems.push(`${at}.type must be one of ${REQUIREMENT_TYPES.join(', ')}`);
      return;
    }
    if ('optional' in r.params && typeof r.params.optional !== 'boolean') problems.push(`${at}.params.optional must be a boolean`);
    if ('multiplier' in r.params) {
      const m = r.params.multiplier;
      if (!isOptional(r)) problems.push(`${at}.params.multiplier needs params.optional: only an optional requirement adds weight`);
      else if (typeof m !== 'number' || !(m >= 1) || m > 100) problems.push(`${at}.params.multiplier must be a number from 1 to 100`);
    }
    const own = REQUIREMENT_DEFINITIONS[r.type as RequirementType].paramProblems(r.params);
    for (const p of own) problems.push(`${at}.${p}`);
    if (own.length === 0 && options.chains && isChainRequirement(r) && !options.chains.includes(String(r.params.chain))) {
      const configured = options.chains.length > 0 ? `one of ${options.chains.join(', ')}` : 'none is configured (CHAIN_RPC_URLS)';
      problems.push(`${at}.params.chain ${JSON.stringify(r.params.chain)} is not a chain this platform reads: ${configured}`);
    }
    if (options.providers && isSocialRequirement(r) && !options.providers.includes(providerOf(r))) {
      const name = providerName(providerOf(r));
      problems.push(`${at}.type ${r.type} reads ${name} accounts, and none can be linked here: this platform has no ${name} client configured`);
    }
  });
  // Judged only on multipliers that are each in range: an entrant meeting every optional
  // requirement weighs their product, which must fit the weight's column and a proof's line.
  if (problems.length === 0) {
    const heaviest = Number(weightOf(requirements, requirements.map(() => true)));
    if (heaviest > MAX_ENTRY_WEIGHT) {
      problems.push(`the multipliers of the optional requirements multiply to ${heaviest}; an entry may weigh at most ${MAX_ENTRY_WEIGHT}`);
    }
  }
  return problems;
}

export type RequirementVerdicts = {
  evaluations: RequirementEvaluation[];
  /** The requirements that must pass and did not. */
  failed: RequirementFailure[];
  /** "1" times the multiplier of every optional requirement that passed. */
  weight: string;
};

/** Multiplies exactly in millionths (numeric(20,6)), so a weight is the same decimal everywhere. */
export function weightOf(requirements: RaffleRequirement[], passed: boolean[]): string {
  let micro = 1_000_000n;
  requirements.forEach((r, i) => {
    if (!isOptional(r) || !passed[i] || typeof r.params.multiplier !== 'number') return;
    micro = (micro * BigInt(Math.round(r.params.multiplier * 1_000_000))) / 1_000_000n;
  });
  const whole = micro / 1_000_000n;
  const fraction = (micro % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : `${whole}`;
}

/**
 * The verdicts of a raffle's requirements from their outcomes (aligned with `requirements`);
 * `details` says what the entrant is shown of each (on-chain types: "holds 0 Nebula Pass, needs 1").
 */
export function verdictsOf(
  requirements: RaffleRequirement[],
  passed: boolean[],
  evidence: Record<string, unknown>[],
  details: (string | undefined)[] = [],
  /** The requirements not evaluated yet (their chain or provider did not answer): not failed, whatever `passed` says. */
  undecided: readonly boolean[] = [],
): RequirementVerdicts {
  const detailOf = (i: number) => (details[i] ? { detail: details[i] } : {});
  const evaluations = requirements.map((r, i) => ({
    requirementId: r.id,
    type: r.type as RequirementType,
    label: r.label,
    passed: passed[i]!,
    ...detailOf(i),
    evidence: { ...evidence[i] },
  }));
  const failed = requirements.flatMap((r, i) => (!isOptional(r) && !passed[i] && !undecided[i] ? [{ type: r.type, label: r.label, ...detailOf(i) }] : []));
  return { evaluations, failed, weight: weightOf(requirements, passed) };
}

/** Evaluates every requirement of a raffle for one user in one query. */
export async function evaluateRequirements(
  tx: DbOrTx,
  raffle: { workspaceId: string; requirements: RaffleRequirement[] },
  userId: string,
  at: Date,
): Promise<RequirementVerdicts> {
  const reqs = raffle.requirements;
  if (reqs.length === 0) return { evaluations: [], failed: [], weight: '1' };
  const { passed, evidence } = await evaluateUserRequirements(tx, { requirements: reqs, workspaceId: raffle.workspaceId, userId, at });
  return verdictsOf(reqs, passed, evidence);
}

/**
 * The valid entries of a raffle that no longer meet a required requirement, with every verdict:
 * the draw's re-check, one set-based query however many entries there are.
 */
export async function entriesFailingRequirements(
  tx: DbOrTx,
  raffle: { id: string; workspaceId: string; requirements: RaffleRequirement[] },
  at: Date,
): Promise<{ entryId: string; passed: boolean[]; evidence: Record<string, unknown>[] }[]> {
  const reqs = raffle.requirements;
  const required = reqs.map((r) => !isOptional(r));
  if (!required.includes(true)) return [];
  return listEntriesFailingRequirements(tx, { raffleId: raffle.id, workspaceId: raffle.workspaceId, requirements: reqs, required, at });
}

export const failedRequirementsReason = (failed: RequirementFailure[]): string =>
  `Requirements not met: ${failed.map((f) => f.label).join('; ')}`;
