/** TanStack Query keys of one raffle: everything under `raffleKey` is refetched after any change to it. */
export const raffleKey = (workspaceId: string, raffleId: string) => ['raffle', workspaceId, raffleId] as const;
export const entriesKey = (workspaceId: string, raffleId: string, status: string) => [...raffleKey(workspaceId, raffleId), 'entries', status] as const;
export const winsKey = (workspaceId: string, raffleId: string) => [...raffleKey(workspaceId, raffleId), 'wins'] as const;
export const proofKey = (workspaceId: string, raffleId: string) => [...raffleKey(workspaceId, raffleId), 'proof'] as const;
export const allowlistKey = (workspaceId: string, raffleId: string) => [...raffleKey(workspaceId, raffleId), 'allowlist'] as const;
export const allowlistLeafKey = (workspaceId: string, raffleId: string, address: string) => [...allowlistKey(workspaceId, raffleId), 'leaf', address.toLowerCase()] as const;
