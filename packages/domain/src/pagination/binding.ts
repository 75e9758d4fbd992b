/**
 * Every list that issues cursors, and what it is filtered by, in binding order. A cursor is signed
 * over its binding, so one replayed on another list, or under another filter, is refused like a
 * forged one. The names are part of the cursors already issued: renaming one voids them.
 */
type CursorLists = {
  'v1:public-raffles': [];
  'v1:my-entries': [userId: string];
  'v1:my-wins': [userId: string];
  'v1:workspace-raffles': [workspaceId: string, ...filters: RaffleFilterBinding];
  'v1:raffle-entries': [workspaceId: string, raffleId: string];
  'v1:projects': [workspaceId: string];
  'dashboard:workspaces': [userId: string];
  'dashboard:wallets': [userId: string];
  'dashboard:members': [workspaceId: string];
  'dashboard:projects': [workspaceId: string];
  'dashboard:raffles': [workspaceId: string, ...filters: RaffleFilterBinding];
  'dashboard:entries': [raffleId: string, status: string | undefined];
  'dashboard:wins': [raffleId: string, status: string | undefined];
  'webhook-endpoints': [ownerKind: 'user' | 'workspace', ownerId: string];
  'webhook-attempts': [endpointId: string, deliveryId: string | undefined];
  /** One version's leaves: a cursor of version 2 cannot continue version 3. */
  'allowlist-leaves': [raffleId: string, version: string];
};

export type CursorList = keyof CursorLists;

/**
 * A raffle list's filters in the binding: none when unfiltered, so the cursors the unfiltered list
 * issued before it had filters still continue it; all three, in a fixed order, when any is set.
 */
type RaffleFilterBinding = [] | [status: string | undefined, mechanic: string | undefined, q: string | undefined];

export function raffleFilterBinding(filters: { status?: string; mechanic?: string; q?: string }): RaffleFilterBinding {
  const { status, mechanic, q } = filters;
  // Quoted: a search for `*` must not read as an absent one.
  return status === undefined && mechanic === undefined && q === undefined ? [] : [status, mechanic, q === undefined ? undefined : JSON.stringify(q)];
}

/** `list:filter:…`; an absent filter is `*`, so a cursor of the unfiltered list cannot continue a filtered one. */
export function cursorBinding<L extends CursorList>(list: L, ...filters: CursorLists[L]): string {
  let binding: string = list;
  for (const filter of filters) binding += `:${filter ?? '*'}`;
  return binding;
}
