import type { NewEvent } from '@raffle/db';

/**
 * The events a change to each resource records. A raffle change concerns its workspace only; an
 * entry or a win concerns its workspace and the entrant, each receiving the resource as its own
 * data-plane view shows it (the workspace entry vs the sanitized entry, the winner vs the win).
 */
type RaffleState = { workspaceId: string; workspaceItemJson: string };
type EntryState = { userId: string; workspaceJson: string; ownerJson: string };
type WinState = { userId: string; winJson: string; winnerJson: string };

export type RaffleEventType = 'raffle.published' | 'raffle.opened' | 'raffle.closed' | 'raffle.drawn' | 'raffle.finalized' | 'raffle.cancelled';
export type EntryEventType = 'entry.created' | 'entry.updated' | 'entry.withdrawn';
export type WinEventKind = 'selected' | 'finalized' | 'disqualified' | 'delivery_updated';

export const raffleEvent = (type: RaffleEventType, raffle: RaffleState, at: Date): NewEvent => ({
  type,
  audience: { workspaceId: raffle.workspaceId },
  data: raffle.workspaceItemJson,
  at,
});

export function entryEvents(type: EntryEventType, entry: EntryState, workspaceId: string, at: Date): NewEvent[] {
  return [
    { type, audience: { userId: entry.userId }, data: entry.ownerJson, at },
    { type, audience: { workspaceId }, data: entry.workspaceJson, at },
  ];
}

/** Only workspace-side entry changes (duplicate flags are not part of the entrant's view). */
export const workspaceEntryEvent = (entry: EntryState, workspaceId: string, at: Date): NewEvent => ({
  type: 'entry.updated',
  audience: { workspaceId },
  data: entry.workspaceJson,
  at,
});

export function winEvents(kind: WinEventKind, win: WinState, workspaceId: string, at: Date): NewEvent[] {
  return [
    { type: `win.${kind}`, audience: { userId: win.userId }, data: win.winJson, at },
    { type: `winner.${kind}`, audience: { workspaceId }, data: win.winnerJson, at },
  ];
}

/** A rerolled win's old holder is replaced: the workspace hears of it (personal events have no such type). */
export const winnerReplacedEvent = (win: WinState, workspaceId: string, at: Date): NewEvent => ({
  type: 'winner.replaced',
  audience: { workspaceId },
  data: win.winnerJson,
  at,
});
