import type { RaffleRef, RequirementPlan } from '@raffle/db';
import { raffleRefKey } from './find-entrable-raffle.js';

/**
 * The requirements each raffle's entries were last evaluated for, by ref, as `enter_raffle`
 * reported them. An entry is evaluated for its raffle's plan before the call, and the function
 * refuses verdicts evaluated for other requirements than the raffle's (it compares fingerprints),
 * sending the raffle's own back. So a raffle without requirements costs no read at all (an
 * unknown raffle is planned as having none), and one with requirements costs its first entrant a
 * second call; a plan cannot go stale unnoticed, so it needs no expiry.
 */
const PLAN_CACHE_LIMIT = 1_000;
const plans = new Map<string, RequirementPlan>();

export const NO_REQUIREMENTS: RequirementPlan = { requirements: [], fingerprint: null, workspaceId: null };


export const requirementPlanOf = (ref: RaffleRef): RequirementPlan => plans.get(raffleRefKey(ref)) ?? NO_REQUIREMENTS;

export function rememberRequirementPlan(ref: RaffleRef, plan: RequirementPlan): void {
  if (plans.size >= PLAN_CACHE_LIMIT) plans.clear();
  plans.set(raffleRefKey(ref), plan);
}
