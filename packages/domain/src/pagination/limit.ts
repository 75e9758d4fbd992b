import type { PageSizeRule } from '@raffle/contracts';
import { DomainError } from '../errors.js';

/**
 * The page size a list request asks for: the list's default when absent, otherwise an integer
 * from 1 to the list's maximum (400 INVALID_LIMIT). Each list has its rule in the contracts
 * (`PAGE_SIZES`, `DASHBOARD_PAGE_SIZE`, `DASHBOARD_RAFFLE_ITEMS_PAGE_SIZE`); the route schemas
 * check the same range first, this holds for callers that skip them.
 */
export function pageLimit(limit: number | undefined, rule: PageSizeRule): number {
  const value = limit ?? rule.default;
  if (!Number.isInteger(value) || value < 1 || value > rule.max) {
    throw new DomainError('INVALID_LIMIT', `limit must be an integer from 1 to ${rule.max}`);
  }
  return value;
}
