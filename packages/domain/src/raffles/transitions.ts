import type { ErrorCode, RaffleStatus } from '@raffle/contracts';
import { DomainError } from '../errors.js';

/**
 * product.md's raffle lifecycle as data: the statuses each action may start from. An action from
 * any other status is a 409 whose code names the action.
 *
 *   draft ─publish─► scheduled ─open─► open ─close─► closed ─draw─► drawn ─finalize─► finalized
 *   draft | scheduled | open ─cancel─► cancelled
 */
export const RAFFLE_ACTIONS = {
  update: { from: ['draft', 'scheduled', 'open'], code: 'RAFFLE_CANNOT_UPDATE' },
  publish: { from: ['draft'], code: 'RAFFLE_CANNOT_PUBLISH' },
  open: { from: ['scheduled'], code: 'RAFFLE_CANNOT_OPEN' },
  close: { from: ['open'], code: 'RAFFLE_CANNOT_CLOSE' },
  draw: { from: ['closed'], code: 'RAFFLE_CANNOT_DRAW' },
  finalize: { from: ['drawn'], code: 'RAFFLE_CANNOT_FINALIZE' },
  cancel: { from: ['draft', 'scheduled', 'open'], code: 'RAFFLE_CANNOT_CANCEL' },
} as const satisfies Record<string, { from: readonly RaffleStatus[]; code: ErrorCode }>;

export type RaffleAction = keyof typeof RAFFLE_ACTIONS;

export function assertRaffleCan(action: RaffleAction, status: string): void {
  const rule = RAFFLE_ACTIONS[action];
  if ((rule.from as readonly string[]).includes(status)) return;
  throw new DomainError(rule.code, `cannot ${action} a raffle that is ${status}; ${action} applies to ${rule.from.join(' or ')} raffles`);
}
