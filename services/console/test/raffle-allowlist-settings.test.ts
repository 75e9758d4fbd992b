import { describe, expect, it } from 'vitest';
import { createBodyOf, EMPTY_FORM, formHints, formValuesOf, isoToLocalInput, updateBodyOf, type RaffleFormValues } from '../src/pages/raffles/raffle-form-values.js';
import { editableFieldsIn } from '../src/pages/raffles/raffle-rules.js';

const form = (changes: Partial<RaffleFormValues>): RaffleFormValues => ({ ...EMPTY_FORM, title: 'Drop', slug: 'drop', ...changes });
const DEADLINE = '2031-03-01T12:00:00.000Z';

describe("the raffle form's allowlist settings", () => {
  it('sends the quantity as a number, the public flag and the deadline as an instant', () => {
    const { settings } = createBodyOf(form({ allowlistQuantity: ' 3 ', allowlistPublic: true, walletDeadline: isoToLocalInput(DEADLINE) }));
    expect(settings).toMatchObject({ allowlistQuantity: 3, allowlistPublic: true, walletDeadline: DEADLINE });
  });

  it('drops a deadline typed before switching to an allocation that has no allowlist (the API refuses one there)', () => {
    const { settings } = createBodyOf(form({ allocationType: 'airdrop', walletDeadline: isoToLocalInput(DEADLINE) }));
    expect(settings?.walletDeadline).toBeNull();
  });

  it('hints at a quantity out of range and a deadline before the end, on allowlist allocations only', () => {
    const quantityHint = /quantity per winner must be a whole number/;
    expect(formHints(form({ allowlistQuantity: '0' }))).toEqual([expect.stringMatching(quantityHint)]);
    expect(formHints(form({ allowlistQuantity: '1000001' }))).toEqual([expect.stringMatching(quantityHint)]);
    expect(formHints(form({ allowlistQuantity: '2.5' }))).toEqual([expect.stringMatching(quantityHint)]);
    expect(formHints(form({ allowlistQuantity: '1000000' }))).toEqual([]);
    expect(formHints(form({ allocationType: 'physical', allowlistQuantity: '0' }))).toEqual([]);
    const ends = isoToLocalInput('2031-03-01T10:00:00.000Z');
    expect(formHints(form({ endsAt: ends, walletDeadline: ends }))).toEqual([expect.stringMatching(/wallet deadline must come after the end/)]);
    expect(formHints(form({ endsAt: ends, walletDeadline: isoToLocalInput(DEADLINE) }))).toEqual([]);
  });

  it('edits start from the saved settings, and only a changed setting is sent', () => {
    const saved = formValuesOf({
      ...createBodyOf(form({})),
      id: 'raf_1',
      status: 'draft',
      chain: null,
      description: null,
      requirements: [],
      settings: { autoDraw: false, autoFinalize: false, excludeFlaggedDuplicates: false, allowlistQuantity: 4, allowlistPublic: true, walletDeadline: DEADLINE },
    } as never);
    expect(saved).toMatchObject({ allowlistQuantity: '4', allowlistPublic: true, walletDeadline: isoToLocalInput(DEADLINE) });
    const editable = editableFieldsIn('draft');
    expect(updateBodyOf(saved, saved, editable)).toEqual({});
    expect(updateBodyOf({ ...saved, allowlistQuantity: '5' }, saved, editable)).toEqual({ settings: expect.objectContaining({ allowlistQuantity: 5, allowlistPublic: true, walletDeadline: DEADLINE }) });
  });
});
