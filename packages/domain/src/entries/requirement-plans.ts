import type { RaffleRef, RequirementPlan } from '@raffle/db';
import { raffleRefKey } from './find-entrable-raffle.js';

/**
 * The plan each raffle's entries were last prepared for, by ref, as `enter_raffle` reported it: its
 * requirements, and whether its entries win on arrival (FCFS: the win is rendered before the call).
 * An entry is evaluated (and its win rendered) for its raffle's plan before the call, and the
 * function refuses an entry prepared for another plan than the raffle's (it compares fingerprints
 * and the mechanic), sending the raffle's own back. So a raffle of mechanic `raffle` without
 * requirements costs no read at all (an unknown raffle is planned as such), and any other costs
 * its first entrant per process a second call; a plan cannot go stale unnoticed (a published
 * raffle's mechanic never changes), so it needs no expiry.
 */
const PLAN_CACHE_LIMIT = 1_000;
const plans = new Map<string, RequirementPlan>();

export const NO_REQUIREMENTS: RequirementPlan = { requirements: [], fingerprint: null, workspaceId: null, fcfs: false };

export const requirementPlanOf = (ref: RaffleRef): RequirementPlan => plans.get(raffleRefKey(ref)) ?? NO_REQUIREMENTS;

export function rememberRequirementPlan(ref: RaffleRef, plan: RequirementPlan): void {
  if (plans.size >= PLAN_CACHE_LIMIT) plans.clear();
  plans.set(raffleRefKey(ref), plan);
}
