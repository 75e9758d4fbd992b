import { ROLE_MATCHES, TOKEN_STANDARDS } from '@raffle/contracts/domain-values';
import { addressProblem } from './evm-address.js';

/**
 * The parameters each requirement type takes, as the editor shows them and the API's body shapes
 * them (the contract's RaffleRequirement description). The API stays the judge; these rules catch
 * what a person can fix before sending, beside the field.
 */
export type FieldKind = 'text' | 'days' | 'chain' | 'address' | 'standard' | 'baseUnits' | 'snowflake' | 'snowflakes' | 'roleMatch' | 'xUserId' | 'ageDays';

export type RequirementField = { key: string; label: string; kind: FieldKind; hint?: string };

const chainField: RequirementField = { key: 'chain', label: 'Chain', kind: 'chain', hint: 'One of the chains this platform reads.' };
const minField = (hint: string): RequirementField => ({ key: 'min', label: 'Minimum', kind: 'baseUnits', hint });
const guildField: RequirementField = {
  key: 'guildId',
  label: 'Discord server id',
  kind: 'snowflake',
  hint: 'In Discord: User Settings → Advanced → Developer Mode on, then right-click the server → Copy Server ID (17 to 20 digits).',
};

export const REQUIREMENT_FIELDS: Record<string, readonly RequirementField[]> = {
  wallet_connected: [{ key: 'chain', label: 'Chain', kind: 'text' }],
  account_age_days: [{ key: 'min', label: 'Minimum age (days)', kind: 'days' }],
  holds_role: [{ key: 'role', label: 'Role', kind: 'text' }],
  email_verified: [],
  workspace_member: [],
  token_balance: [
    chainField,
    { key: 'contract', label: 'Contract address', kind: 'address', hint: '0x and 40 hex digits; mixed case must match its EIP-55 checksum.' },
    { key: 'standard', label: 'Token standard', kind: 'standard' },
    { key: 'tokenId', label: 'Token id', kind: 'baseUnits', hint: 'ERC-1155 balances are per token id.' },
    minField('A whole number in the token\'s base unit (1 pass; 1 token of 18 decimals is 1000000000000000000).'),
  ],
  native_balance: [chainField, minField('A whole number of wei (0.05 ETH is 50000000000000000).')],
  discord_member: [guildField],
  discord_role: [
    guildField,
    {
      key: 'roleIds',
      label: 'Role ids',
      kind: 'snowflakes',
      hint: 'Up to 20, separated by commas or spaces. In Discord: Server Settings → Roles, right-click a role → Copy Role ID.',
    },
    { key: 'match', label: 'Entrants must hold', kind: 'roleMatch' },
  ],
  x_follows: [{ key: 'userId', label: 'X account id', kind: 'xUserId', hint: "The account's numeric id (1 to 19 digits), not its @handle: X's API names accounts by id." }],
  x_account_age_days: [{ key: 'min', label: 'Minimum X account age (days)', kind: 'ageDays', hint: 'From 1 to 36500 days.' }],
};

/** What entrants must hold of a discord_role's roles. */
export const ROLE_MATCH_LABELS: Record<(typeof ROLE_MATCHES)[number], string> = { any: 'Any one of the roles', all: 'Every one of the roles' };
export { ROLE_MATCHES };

export const STANDARD_LABELS: Record<(typeof TOKEN_STANDARDS)[number], string> = { erc20: 'ERC-20 (fungible token)', erc721: 'ERC-721 (NFT collection)', erc1155: 'ERC-1155 (multi-token)' };
export { TOKEN_STANDARDS };

/** The fields shown for a row: an ERC-1155 token id only when the standard is erc1155. */
export function visibleFields(type: string, params: Record<string, string>): readonly RequirementField[] {
  return (REQUIREMENT_FIELDS[type] ?? []).filter((f) => f.key !== 'tokenId' || params.standard === 'erc1155');
}

/** A type's starting values: an on-chain one starts on the first chain offered and, for tokens, as an ERC-721 holding of 1. */
export function initialParams(type: string, chains: readonly string[]): Record<string, string> {
  if (type === 'token_balance') return { chain: chains[0] ?? '', contract: '', standard: 'erc721', min: '1' };
  if (type === 'native_balance') return { chain: chains[0] ?? '', min: '' };
  if (type === 'discord_role') return { guildId: '', roleIds: '', match: 'any' };
  return {};
}

const WHOLE = /^(0|[1-9][0-9]*)$/;
/** Discord ids as the API takes them (requirement-types.ts): snowflakes of 17 to 20 digits. */
const SNOWFLAKE = /^[0-9]{17,20}$/;
const X_USER_ID = /^[0-9]{1,19}$/;
const MAX_ROLE_IDS = 20;

/** A list of ids as typed: split on commas and whitespace. */
export const idsOf = (value: string): string[] => value.split(/[\s,]+/).filter(Boolean);

function snowflakesProblem(value: string): string | null {
  const ids = idsOf(value);
  if (ids.length > MAX_ROLE_IDS) return `At most ${MAX_ROLE_IDS} role ids.`;
  const bad = ids.find((id) => !SNOWFLAKE.test(id));
  if (bad !== undefined) return `"${bad}" is not a Discord id (17 to 20 digits).`;
  return new Set(ids).size === ids.length ? null : 'A role id is listed twice.';
}

function fieldProblem(field: RequirementField, value: string, chains: readonly string[] | undefined): string | null {
  if (value === '') return field.kind === 'text' || field.kind === 'days' ? null : `${field.label} is required.`;
  switch (field.kind) {
    case 'address':
      return addressProblem(value);
    case 'baseUnits':
      if (!WHOLE.test(value)) return `${field.label} must be a whole number (digits only, no decimal point).`;
      if (value.length > 78 || BigInt(value) >= 2n ** 256n) return `${field.label} is larger than a uint256.`;
      return field.key === 'min' && value === '0' ? 'The minimum must be at least 1.' : null;
    case 'chain':
      return chains && !chains.includes(value) ? `This platform does not read the chain "${value}".` : null;
    case 'standard':
      return (TOKEN_STANDARDS as readonly string[]).includes(value) ? null : 'Choose ERC-20, ERC-721 or ERC-1155.';
    case 'snowflake':
      return SNOWFLAKE.test(value) ? null : `${field.label} is 17 to 20 digits (a Discord id), not a name or a link.`;
    case 'snowflakes':
      return snowflakesProblem(value);
    case 'roleMatch':
      return (ROLE_MATCHES as readonly string[]).includes(value) ? null : 'Choose any one of the roles, or every one.';
    case 'xUserId':
      return X_USER_ID.test(value) ? null : `${field.label} is the numeric id (1 to 19 digits), not the @handle.`;
    case 'ageDays':
      return WHOLE.test(value) && Number(value) >= 1 && Number(value) <= 36_500 ? null : 'A whole number of days from 1 to 36500.';
    default:
      return null;
  }
}

/**
 * Each shown field's problem, by key. Empty required fields are left out until `includeEmpty`
 * (the form was submitted), so a new row is not red before it is filled in. `chains` undefined:
 * the list is still loading, and chain names are not judged yet.
 */
export function requirementFieldProblems(
  type: string,
  params: Record<string, string>,
  chains: readonly string[] | undefined,
  includeEmpty: boolean,
): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const field of visibleFields(type, params)) {
    const value = (params[field.key] ?? '').trim();
    if (value === '' && !includeEmpty) continue;
    const problem = fieldProblem(field, value, chains);
    if (problem) problems[field.key] = problem;
  }
  return problems;
}

/** The params object the API takes: numbers for days, decimal strings for base units, only the shown fields. */
export function paramsBody(type: string, params: Record<string, string>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of visibleFields(type, params)) {
    const value = (params[field.key] ?? '').trim();
    if (value === '') continue;
    // Days go as a number when they are one, role ids as a list; anything else as typed, so the API's message names the problem.
    const days = field.kind === 'days' || field.kind === 'ageDays';
    body[field.key] = days && /^\d+$/.test(value) ? Number(value) : field.kind === 'snowflakes' ? idsOf(value) : value;
  }
  return body;
}
