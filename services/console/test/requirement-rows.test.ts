import { describe, expect, it } from 'vitest';
import { withNewRow, withRowType } from '../src/pages/raffles/requirement-rows.js';

describe('requirement rows in the editor', () => {
  it('gives a new row an id derived from its type and position, never one taken', () => {
    const one = withNewRow([]);
    expect(one.map((r) => [r.id, r.type, r.label])).toEqual([['email_verified-1', 'email_verified', 'Email verified']]);
    const taken = withNewRow([{ ...one[0]!, id: 'email_verified-2' }]);
    expect(taken.map((r) => r.id)).toEqual(['email_verified-2', 'email_verified-3']);
  });

  it('moves an id it derived to the new type when the type changes, with the default label and fresh parameters', () => {
    const rows = withNewRow(withNewRow([]));
    const changed = withRowType(rows, 1, 'token_balance', ['anvil']);
    expect(changed[1]).toMatchObject({ id: 'token_balance-2', type: 'token_balance', label: 'Holds the token', params: { chain: 'anvil', standard: 'erc721', min: '1' } });
    expect(changed[0]).toEqual(rows[0]);
    // And back again, without colliding with a row that already holds the name.
    const back = withRowType([{ ...changed[0]!, id: 'email_verified-2' }, changed[1]!], 1, 'email_verified', ['anvil']);
    expect(back.map((r) => r.id)).toEqual(['email_verified-2', 'email_verified-3']);
  });

  it('keeps an id and a label the user typed when the type changes', () => {
    const [row] = withNewRow([]);
    const typed = withRowType([{ ...row!, id: 'pass-holders', label: 'Holds a Nebula Pass' }], 0, 'token_balance', ['anvil']);
    expect(typed[0]).toMatchObject({ id: 'pass-holders', label: 'Holds a Nebula Pass', type: 'token_balance' });
    // An id that only looks like another type's is the user's too.
    const other = withRowType([{ ...row!, id: 'holds_role-1' }], 0, 'token_balance', ['anvil']);
    expect(other[0]!.id).toBe('holds_role-1');
  });
});

describe('Discord and X rows', () => {
  it('start with a label entrants read as a sentence, and a role row asks for any one of the roles', () => {
    const [row] = withNewRow([]);
    expect(withRowType([row!], 0, 'discord_member', [])[0]).toMatchObject({ id: 'discord_member-1', label: 'Member of our Discord server', params: {} });
    expect(withRowType([row!], 0, 'discord_role', [])[0]).toMatchObject({ label: 'Holds the role in our Discord server', params: { guildId: '', roleIds: '', match: 'any' } });
    expect(withRowType([row!], 0, 'x_follows', [])[0]!.label).toBe('Follows us on X');
    expect(withRowType([row!], 0, 'x_account_age_days', [])[0]!.label).toBe('X account old enough');
  });
});
