import type { RequirementType } from '@raffle/contracts';

/**
 * The rules of one built-in requirement type: which `params` it takes. How it is evaluated is
 * SQL, in @raffle/db's requirement-checks.ts (the chain and social types are read outside it, and
 * marked there); a new type registers in both (each is keyed by every RequirementType, so the
 * compiler asks for both).
 */
export type RequirementTypeDefinition = {
  /** Problems with a raffle's `params` for this type; empty when they are usable. */
  paramProblems(params: Record<string, unknown>): string[];
};

const CHAIN = /^[a-z0-9-]{1,32}$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
/** A base-unit amount: a whole number as a decimal string, at most uint256. */
const BASE_UNITS = /^(0|[1-9][0-9]{0,77})$/;
const MAX_UINT256 = 2n ** 256n - 1n;

const isBaseUnits = (v: unknown): v is string => typeof v === 'string' && BASE_UNITS.test(v) && BigInt(v) <= MAX_UINT256;
const chainProblems = (p: Record<string, unknown>) =>
  typeof p.chain === 'string' && CHAIN.test(p.chain) ? [] : ['params.chain must be a chain name such as "ethereum"'];
const minProblems = (p: Record<string, unknown>) =>
  isBaseUnits(p.min) && p.min !== '0' ? [] : ['params.min must be a positive whole number of base units as a decimal string, e.g. "1" or "1000000000000000000"'];
const ROLE = /^[a-z0-9_-]{1,48}$/;
/** A Discord id (guild, role): a snowflake, 17 to 20 digits for anything made since 2015. */
const SNOWFLAKE = /^[0-9]{17,20}$/;
/** An X user id, as X's API document spells `UserId`. */
const X_USER_ID = /^[0-9]{1,19}$/;
const MAX_ROLE_IDS = 20;

const guildProblems = (p: Record<string, unknown>) =>
  typeof p.guildId === 'string' && SNOWFLAKE.test(p.guildId) ? [] : ["params.guildId must be the Discord server's id (a snowflake: 17 to 20 digits, as a string)"];

function roleIdProblems(roleIds: unknown): string[] {
  if (!Array.isArray(roleIds) || roleIds.length < 1 || roleIds.length > MAX_ROLE_IDS) return [`params.roleIds must be a list of 1 to ${MAX_ROLE_IDS} Discord role ids`];
  const problems = roleIds.flatMap((id, i) => (typeof id === 'string' && SNOWFLAKE.test(id) ? [] : [`params.roleIds[${i}] must be a Discord role id (a snowflake: 17 to 20 digits, as a string)`]));
  if (problems.length === 0 && new Set(roleIds).size !== roleIds.length) problems.push('params.roleIds must not repeat');
  return problems;
}

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
  token_balance: {
    paramProblems: (p) => [
      ...chainProblems(p),
      ...(typeof p.contract === 'string' && ADDRESS.test(p.contract) ? [] : ['params.contract must be a contract address (0x and 40 hex digits)']),
      ...(p.standard === 'erc20' || p.standard === 'erc721' || p.standard === 'erc1155' ? [] : ['params.standard must be one of erc20, erc721, erc1155']),
      ...(p.standard === 'erc1155'
        ? isBaseUnits(p.tokenId) ? [] : ['params.tokenId must be the token id as a decimal string (erc1155 balances are per token id)']
        : 'tokenId' in p ? ['params.tokenId is only used by erc1155'] : []),
      ...minProblems(p),
      ...extraParams(p, ['chain', 'contract', 'standard', 'tokenId', 'min']),
    ],
  },
  native_balance: {
    paramProblems: (p) => [...chainProblems(p), ...minProblems(p), ...extraParams(p, ['chain', 'min'])],
  },
  discord_member: {
    paramProblems: (p) => [...guildProblems(p), ...extraParams(p, ['guildId'])],
  },
  discord_role: {
    paramProblems: (p) => [
      ...guildProblems(p),
      ...roleIdProblems(p.roleIds),
      ...(p.match === 'any' || p.match === 'all' ? [] : ['params.match must be "any" (one of the roles) or "all" (every one)']),
      ...extraParams(p, ['guildId', 'roleIds', 'match']),
    ],
  },
  x_follows: {
    paramProblems: (p) => [
      ...(typeof p.userId === 'string' && X_USER_ID.test(p.userId) ? [] : ["params.userId must be the X account's numeric id (1 to 19 digits, as a string), not its @handle"]),
      ...extraParams(p, ['userId']),
    ],
  },
  x_account_age_days: {
    paramProblems: (p) => [
      ...(Number.isInteger(p.min) && (p.min as number) >= 1 && (p.min as number) <= 36_500 ? [] : ['params.min must be a whole number of days (1–36500)']),
      ...extraParams(p, ['min']),
    ],
  },
  holds_role: {
    paramProblems: (p) => [
      ...(typeof p.role === 'string' && ROLE.test(p.role) ? [] : ['params.role must be a role name (a-z, 0-9, _ and -)']),
      ...extraParams(p, ['role']),
    ],
  },
};
