import type { RequirementType } from '@raffle/contracts';

/**
 * The rules of one built-in requirement type: which `params` it takes. How it is evaluated is
 * SQL, in @raffle/db's requirement-checks.ts; a new type registers in both (each is keyed by
 * every RequirementType, so the compiler asks for both).
 */
export type RequirementTypeDefinition = {
  /** Problems with a raffle's `params` for this type; empty when they are usable. */
  paramProblems(params: Record<string, unknown>): string[];
};

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
  },
  account_age_days: {
    paramProblems: (p) => [
      ...(Number.isInteger(p.min) && (p.min as number) >= 0 && (p.min as number) <= 36_500 ? [] : ['params.min must be a whole number of days (0–36500)']),
      ...extraParams(p, ['min']),
    ],
  },
  email_verified: {
    paramProblems: noParams,
  },
  workspace_member: {
    paramProblems: noParams,
  },
  holds_role: {
    paramProblems: (p) => [
      ...(typeof p.role === 'string' && ROLE.test(p.role) ? [] : ['params.role must be a role name (a-z, 0-9, _ and -)']),
      ...extraParams(p, ['role']),
    ],
  },
};
