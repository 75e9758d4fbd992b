import { DomainError } from '../errors.js';
import type { Principal } from '../principal.js';

/**
 * Entering and withdrawing are a person's own acts: the acting user is the entrant. The system
 * (scheduler, seeds) acts for no one, so it may not enter or withdraw.
 */
export function entrantOf(actor: Principal): string {
  if (actor.kind !== 'user') throw new DomainError('FORBIDDEN', 'only a signed-in user enters or withdraws, as themselves');
  return actor.userId;
}
