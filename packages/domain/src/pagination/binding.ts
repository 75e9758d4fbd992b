/**
 * Every list that issues cursors, and what it is filtered by, in binding order. A cursor is signed
 * over its binding, so one replayed on another list, or under another filter, is refused like a
 * forged one. The names are part of the cursors already issued: renaming one voids them.
 */
type CursorLists = {
  'v1:public-raffles': [];
  'v1:my-entries': [userId: string];
  'v1:my-wins': [userId: string];
  'v1:workspace-raffles': [workspaceId: string];
  'v1:raffle-entries': [workspaceId: string, raffleId: string];
  'v1:projects': [workspaceId: string];
  'dashboard:workspaces': [userId: string];
  'dashboard:members': [workspaceId: string];
  'dashboard:projects': [workspaceId: string];
  'dashboard:raffles': [workspaceId: string];
  'dashboard:entries': [raffleId: string, status: string | undefined];
  'dashboard:wins': [raffleId: string, status: string | undefined];
  'webhook-endpoints': [ownerKind: 'user' | 'workspace', ownerId: string];
  'webhook-attempts': [endpointId: string, deliveryId: string | undefined];
};

export type CursorList = keyof CursorLists;

/** `list:filter:…`; an absent filter is `*`, so a cursor of the unfiltered list cannot continue a filtered one. */
export function cursorBinding<L extends CursorList>(list: L, ...filters: CursorLists[L]): string {
  let binding: string = list;
  for (const filter of filters) binding += `:${filter ?? '*'}`;
  return binding;
}
