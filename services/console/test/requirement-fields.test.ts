import { describe, expect, it } from 'vitest';
import { addressProblem } from '../src/pages/raffles/evm-address.js';
import { requirementProblems, createBodyOf, EMPTY_FORM, formValuesOf, type RequirementRow } from '../src/pages/raffles/raffle-form-values.js';
import { paramsBody, requirementFieldProblems, visibleFields } from '../src/pages/raffles/requirement-fields.js';

// The Nebula Pass of the demo chain, in its EIP-55 form.
const CHECKSUMMED = '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512';

describe('contract addresses', () => {
  it('takes an address in one case (no checksum) or in its EIP-55 mixed case', () => {
    expect(addressProblem(CHECKSUMMED)).toBeNull();
    expect(addressProblem(CHECKSUMMED.toLowerCase())).toBeNull();
    expect(addressProblem(`0x${CHECKSUMMED.slice(2).toUpperCase()}`)).toBeNull();
  });

  it('refuses a mixed-case address whose checksum fails, and anything that is not 0x + 40 hex digits', () => {
    expect(addressProblem('0xE7f1725E7734CE288F8367e1Bb143E90bb3F0512')).toMatch(/EIP-55 checksum/);
    for (const bad of ['', '0x', 'e7f1725E7734CE288F8367e1Bb143E90bb3F0512', `${CHECKSUMMED}00`, '0xg7f1725e7734ce288f8367e1bb143e90bb3f0512']) {
      expect(addressProblem(bad), bad).toMatch(/40 hexadecimal digits/);
    }
  });
});

describe('token_balance and native_balance fields', () => {
  const token = (params: Record<string, string>) => requirementFieldProblems('token_balance', params, ['anvil'], true);

  it('shows a token id for erc1155 only, and sends only the fields shown', () => {
    expect(visibleFields('token_balance', { standard: 'erc721' }).map((f) => f.key)).toEqual(['chain', 'contract', 'standard', 'min']);
    expect(visibleFields('token_balance', { standard: 'erc1155' }).map((f) => f.key)).toEqual(['chain', 'contract', 'standard', 'tokenId', 'min']);
    expect(paramsBody('token_balance', { chain: 'anvil', contract: CHECKSUMMED, standard: 'erc721', tokenId: '7', min: '1' })).toEqual({
      chain: 'anvil',
      contract: CHECKSUMMED,
      standard: 'erc721',
      min: '1',
    });
    expect(visibleFields('native_balance', {}).map((f) => f.key)).toEqual(['chain', 'min']);
  });

  it('names each wrong field: an unknown chain, a bad address, a minimum that is not a positive whole number, a missing token id', () => {
    expect(token({ chain: 'anvil', contract: CHECKSUMMED, standard: 'erc721', min: '1' })).toEqual({});
    expect(token({ chain: 'base', contract: CHECKSUMMED, standard: 'erc721', min: '1' })).toEqual({ chain: 'This platform does not read the chain "base".' });
    expect(Object.keys(token({ chain: 'anvil', contract: '0xE7f1725E7734CE288F8367e1Bb143E90bb3F0512', standard: 'erc721', min: '1' }))).toEqual(['contract']);
    for (const min of ['1.5', '-1', '1e3', '01', ' 1x']) expect(token({ chain: 'anvil', contract: CHECKSUMMED, standard: 'erc20', min }).min, min).toMatch(/whole number/);
    expect(token({ chain: 'anvil', contract: CHECKSUMMED, standard: 'erc20', min: '0' }).min).toMatch(/at least 1/);
    expect(token({ chain: 'anvil', contract: CHECKSUMMED, standard: 'erc20', min: '2'.repeat(78) }).min).toMatch(/uint256/);
    expect(token({ chain: 'anvil', contract: CHECKSUMMED, standard: 'erc1155', min: '1' })).toEqual({ tokenId: 'Token id is required.' });
    // Before a submit, an empty field is not yet a problem; a chain list still loading judges no chain.
    expect(requirementFieldProblems('token_balance', { chain: 'base', contract: '', standard: 'erc721', min: '' }, undefined, false)).toEqual({});
  });

  it('keeps the form from being sent while a requirement field is wrong, and sends base units as decimal strings', () => {
    const row: RequirementRow = { id: 'pass', type: 'token_balance', label: 'Holds a pass', params: { chain: 'anvil', contract: CHECKSUMMED, standard: 'erc721', min: '1' }, optional: false, multiplier: '' };
    const form = { ...EMPTY_FORM, requirements: [row] };
    expect(requirementProblems(form, ['anvil'])).toEqual([]);
    expect(createBodyOf(form).requirements).toEqual([{ id: 'pass', type: 'token_balance', label: 'Holds a pass', params: { chain: 'anvil', contract: CHECKSUMMED, standard: 'erc721', min: '1' } }]);
    const wrong = { ...form, requirements: [{ ...row, params: { ...row.params, contract: '0xE7f1725E7734CE288F8367e1Bb143E90bb3F0512' } }] };
    expect(requirementProblems(wrong, ['anvil'])).toEqual([expect.stringMatching(/^Requirement 1: .*EIP-55 checksum/)]);
    // account_age_days still goes as a number.
    const age: RequirementRow = { id: 'age', type: 'account_age_days', label: 'Old enough', params: { min: '30' }, optional: false, multiplier: '' };
    expect(createBodyOf({ ...EMPTY_FORM, requirements: [age] }).requirements?.[0]?.params).toEqual({ min: 30 });
  });
});

/** What formValuesOf reads of a saved raffle, besides its requirements. */
const SAVED_RAFFLE = {
  slug: 'nebula-drop',
  title: 'Nebula drop',
  description: null,
  mechanic: 'raffle',
  allocationType: 'allowlist_gtd',
  visibility: 'public',
  spots: 10,
  chain: null,
  allowAutoEntry: false,
  startsAt: null,
  endsAt: null,
  settings: { autoDraw: false, autoFinalize: false, excludeFlaggedDuplicates: false },
};

describe('Discord and X fields', () => {
  const GUILD = '882595646668800001';
  const HOLDER = '882596904960000001';
  const OG = '882596904960000002';
  const problems = (type: string, params: Record<string, string>) => requirementFieldProblems(type, params, ['anvil'], true);

  it('asks a server id, role ids with how many must be held, an X account id, or an age', () => {
    expect(visibleFields('discord_member', {}).map((f) => [f.key, f.kind])).toEqual([['guildId', 'snowflake']]);
    expect(visibleFields('discord_role', {}).map((f) => [f.key, f.kind])).toEqual([['guildId', 'snowflake'], ['roleIds', 'snowflakes'], ['match', 'roleMatch']]);
    expect(visibleFields('x_follows', {}).map((f) => [f.key, f.kind])).toEqual([['userId', 'xUserId']]);
    expect(visibleFields('x_account_age_days', {}).map((f) => [f.key, f.kind])).toEqual([['min', 'ageDays']]);
    for (const type of ['discord_member', 'discord_role', 'x_follows']) expect(visibleFields(type, {})[0]!.hint).toBeTruthy();
  });

  it('names what is wrong beside each field: a name for an id, a handle for an X id, a repeated or malformed role, an age out of range', () => {
    expect(problems('discord_member', { guildId: GUILD })).toEqual({});
    expect(problems('discord_member', { guildId: 'Nebula' }).guildId).toMatch(/17 to 20 digits/);
    expect(problems('discord_role', { guildId: GUILD, roleIds: `${HOLDER}, ${OG}`, match: 'all' })).toEqual({});
    expect(problems('discord_role', { guildId: GUILD, roleIds: `${HOLDER} Holder`, match: 'any' }).roleIds).toBe('"Holder" is not a Discord id (17 to 20 digits).');
    expect(problems('discord_role', { guildId: GUILD, roleIds: `${HOLDER},${HOLDER}`, match: 'any' }).roleIds).toBe('A role id is listed twice.');
    expect(problems('discord_role', { guildId: GUILD, roleIds: Array.from({ length: 21 }, (_, i) => `${10n ** 17n + BigInt(i)}`).join(' '), match: 'any' }).roleIds).toBe('At most 20 role ids.');
    expect(problems('discord_role', { guildId: GUILD, roleIds: '', match: 'any' })).toEqual({ roleIds: 'Role ids is required.' });
    expect(problems('x_follows', { userId: '@nebula' }).userId).toMatch(/not the @handle/);
    expect(problems('x_follows', { userId: '1432266841912246272' })).toEqual({});
    for (const min of ['0', '36501', '1.5', 'ten']) expect(problems('x_account_age_days', { min }).min, min).toMatch(/from 1 to 36500/);
    expect(problems('x_account_age_days', { min: '30' })).toEqual({});
  });

  it('sends role ids as a list and an age as a number, and reads a saved list back as ids separated by commas', () => {
    expect(paramsBody('discord_role', { guildId: GUILD, roleIds: `${HOLDER},  ${OG}\n`, match: 'all' })).toEqual({ guildId: GUILD, roleIds: [HOLDER, OG], match: 'all' });
    expect(paramsBody('x_account_age_days', { min: '30' })).toEqual({ min: 30 });
    const saved = { requirements: [{ id: 'holder', type: 'discord_role', label: 'Holder', params: { guildId: GUILD, roleIds: [HOLDER, OG], match: 'any' } }] };
    const row = formValuesOf({ ...SAVED_RAFFLE, ...saved } as never).requirements[0]!;
    expect(row.params).toEqual({ guildId: GUILD, roleIds: `${HOLDER}, ${OG}`, match: 'any' });
    expect(createBodyOf({ ...EMPTY_FORM, requirements: [row] }).requirements?.[0]?.params).toEqual({ guildId: GUILD, roleIds: [HOLDER, OG], match: 'any' });
  });
});
