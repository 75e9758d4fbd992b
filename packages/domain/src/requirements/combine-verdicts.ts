import { isChainRequirement, isSocialRequirement, type RequirementOutcomes, type schema } from '@raffle/db';
import { NOT_EVALUATED_DETAIL } from './chain-verdicts.js';
import { verdictsOf, type RequirementVerdicts } from './evaluate.js';
import type { SocialVerdict } from './social/social-reader.js';

type RaffleRequirement = schema.RaffleRequirement;

/** One on-chain requirement's outcome as merged: a ChainVerdict, its evidence perhaps enriched (the draw adds the pinned block). */
type ChainOutcome = { passed: boolean; evidence: Record<string, unknown>; detail: string };

/** What the entrant is told of a social requirement no reader was asked about. */
export const SOCIAL_NOT_EVALUATED_DETAIL = 'not evaluated yet: the provider was not asked';

/**
 * A raffle's verdicts for one entrant: the SQL outcomes of its platform requirements with the
 * chain's for its on-chain ones and the providers' for its social ones (`social` aligned with the
 * social requirements, in order). `pending` when the chain did not answer or a provider was silent
 * or asked to wait: those requirements are not failed then, only not evaluated yet, and only the
 * others can refuse the entry.
 */
export function combineVerdicts(
  requirements: RaffleRequirement[],
  platform: RequirementOutcomes,
  chain: readonly ChainOutcome[] | null,
  social: readonly SocialVerdict[] | null = null,
): RequirementVerdicts & { pending: boolean } {
  const passed = [...platform.passed];
  const evidence = [...platform.evidence];
  const details: (string | undefined)[] = [];
  const undecided: boolean[] = [];
  let c = 0;
  let s = 0;
  requirements.forEach((r, i) => {
    if (isChainRequirement(r)) {
      const verdict = chain?.[c++];
      passed[i] = verdict?.passed ?? false;
      evidence[i] = verdict?.evidence ?? { notEvaluated: true };
      details[i] = verdict?.detail ?? NOT_EVALUATED_DETAIL;
      undecided[i] = chain === null;
    } else if (isSocialRequirement(r)) {
      const verdict = social?.[s++];
      const decided = verdict?.state === 'decided' ? verdict : null;
      passed[i] = decided?.passed ?? false;
      evidence[i] = decided?.evidence ?? { notEvaluated: true };
      details[i] = verdict?.detail ?? SOCIAL_NOT_EVALUATED_DETAIL;
      undecided[i] = decided === null;
    }
  });
  return { ...verdictsOf(requirements, passed, evidence, details, undecided), pending: undecided.includes(true) };
}
