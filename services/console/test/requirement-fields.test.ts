import { describe, expect, it } from 'vitest';
import { addressProblem } from '../src/pages/raffles/evm-address.js';
import { requirementProblems, createBodyOf, EMPTY_FORM, type RequirementRow } from '../src/pages/raffles/raffle-form-values.js';
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
