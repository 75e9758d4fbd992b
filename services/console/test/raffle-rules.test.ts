import { RAFFLE_STATUSES } from '@raffle/contracts/domain-values';
import { describe, expect, it } from 'vitest';
import { ALLOCATION_TYPES } from '@raffle/contracts/domain-values';
import { hasAllowlist } from '../../../packages/domain/src/allowlists/allowlist-settings.js';
import { RAFFLE_ACTIONS } from '../../../packages/domain/src/raffles/transitions.js';
import { actionsAllowedIn, editableFieldsIn, isAllowlistAllocation } from '../src/pages/raffles/raffle-rules.js';

/**
 * The console keeps its own copy of the raffle state machine (the domain package stays out of the
 * browser bundle). These checks hold the copy to the domain's table, so the controls a page offers
 * are the transitions the API accepts.
 */
describe("the console's raffle rules follow the domain's", () => {
  it.each(RAFFLE_STATUSES)('offers exactly the lifecycle actions the domain allows from %s', (status) => {
    const allowed = Object.entries(RAFFLE_ACTIONS)
      .filter(([action, rule]) => action !== 'update' && (rule.from as readonly string[]).includes(status))
      .map(([action]) => action);
    expect([...actionsAllowedIn(status)].sort()).toEqual(allowed.sort());
  });

  it.each(RAFFLE_STATUSES)('offers editing in %s exactly when the domain accepts an update', (status) => {
    expect(editableFieldsIn(status).size > 0).toBe((RAFFLE_ACTIONS.update.from as readonly string[]).includes(status));
  });

  it.each(ALLOCATION_TYPES)('shows the allowlist of a %s raffle exactly when the domain builds one', (allocationType) => {
    expect(isAllowlistAllocation(allocationType)).toBe(hasAllowlist({ allocationType }));
  });
});
