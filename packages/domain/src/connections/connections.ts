import { SOCIAL_PROVIDERS, type ConnectionList } from '@raffle/contracts';
import { connectedAccountIds, deleteUserConnection, listUserConnections, type Db, type DbOrTx } from '@raffle/db';
import type { SocialProvider } from '@raffle/social';
import { DomainError } from '../errors.js';
import { toConnection } from './connection-view.js';
import { providerName, type ConnectionOAuth, type ProviderRevocation } from './provider-access.js';
import { revokeUnlessShared } from './stored-tokens.js';
import type { ConnectionTokenSealing } from './token-sealing.js';

/** The user's connections, and the providers this deployment offers. */
export async function listConnections(db: DbOrTx, args: { userId: string; oauth: ConnectionOAuth }): Promise<ConnectionList> {
  const rows = await listUserConnections(db, args.userId);
  return { data: rows.map(toConnection), providers: SOCIAL_PROVIDERS.filter((provider) => args.oauth[provider] !== undefined) };
}

/**
 * Removes the user's link of the provider (404 CONNECTION_NOT_FOUND when there is none), then
 * revokes its grant at the provider (unless another user links the same account). The link is
 * gone whatever the provider says: a provider that cannot be asked leaves a grant that the user
 * can end in its settings, and the answer says so.
 */
export async function unlinkConnection(
  db: Db,
  args: { userId: string; provider: SocialProvider; sealing: ConnectionTokenSealing; oauth: ConnectionOAuth },
): Promise<ProviderRevocation> {
  const removed = await db.transaction((tx) => deleteUserConnection(tx, { userId: args.userId, provider: args.provider }));
  if (!removed) throw new DomainError('CONNECTION_NOT_FOUND', `you have no ${providerName(args.provider)} account linked`);
  const client = args.oauth[args.provider];
  if (!client) return { revoked: false, reason: `no ${providerName(args.provider)} client is configured here any more` };
  return revokeUnlessShared(db, client, args, removed);
}

/**
 * The provider account each of these users linked (a user without one is absent), for flagging
 * entrants who share an account, as a shared wallet is flagged.
 */
export async function connectedAccountsOf(db: DbOrTx, userIds: readonly string[], provider: SocialProvider): Promise<Map<string, string>> {
  const rows = await connectedAccountIds(db, { userIds, provider });
  return new Map(rows.map((row) => [row.userId, row.accountId]));
}
