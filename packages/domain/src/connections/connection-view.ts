import type { Connection, ConnectionStatus, SocialProviderName } from '@raffle/contracts';
import type { UserConnectionRow } from '@raffle/db';

/** A stored link as its owner sees it: the account, never the tokens. */
export function toConnection(row: UserConnectionRow): Connection {
  return {
    provider: row.provider as SocialProviderName,
    accountId: row.accountId,
    accountName: row.accountName,
    scopes: row.scopes,
    linkedAt: row.linkedAt.toISOString(),
    status: row.status as ConnectionStatus,
  };
}
