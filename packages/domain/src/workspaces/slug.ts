import { SLUG_PATTERN } from '@raffle/contracts';
import { DomainError } from '../errors.js';

const SLUG = new RegExp(SLUG_PATTERN);

/** The route schemas check this too; domain callers that skip them (seeds, scripts) get the same rule. */
export function assertSlug(slug: string): void {
  if (!SLUG.test(slug)) {
    throw new DomainError('VALIDATION_FAILED', 'slug must be 3 to 48 lowercase letters, digits or inner hyphens');
  }
}
