import { usersLinkedToAccount, type DbOrTx } from '@raffle/db';
import type { OAuthProvider, OAuthTokens, SocialProvider } from '@raffle/social';
import { revokeGrant, type GrantTokens, type ProviderRevocation } from './provider-access.js';
import type { ConnectionTokenSealing } from './token-sealing.js';

type Flow = { userId: string; provider: SocialProvider };

/** The tokens as stored: each sealed for its own column. */
export function sealedTokensOf({ userId, provider }: Flow, tokens: Pick<OAuthTokens, 'accessToken' | 'refreshToken'>, sealing: ConnectionTokenSealing) {
  return {
    accessToken: sealing.seal(tokens.accessToken, { userId, provider, field: 'access_token' }),
    refreshToken: tokens.refreshToken === null ? null : sealing.seal(tokens.refreshToken, { userId, provider, field: 'refresh_token' }),
  };
}

/**
 * Revokes a removed or replaced link's grant at the provider, best effort, unless another user
 * here links the same account: the provider keeps one authorization per account and application
 * (at Discord a revocation ends all of its tokens), which their link shares.
 */
export async function revokeUnlessShared(db: DbOrTx, client: OAuthProvider, args: Flow & { sealing: ConnectionTokenSealing }, stored: GrantTokens & { accountId: string }): Promise<ProviderRevocation> {
  const linkers = await usersLinkedToAccount(db, { provider: args.provider, accountId: stored.accountId });
  if (linkers.some((userId) => userId !== args.userId)) return { revoked: false, reason: 'another user links the same account, and the provider shares its authorization between their links' };
  return revokeStoredGrant(client, args, stored);
}

/** Revokes a stored link's grant at the provider, best effort: tokens that no longer open are said so. */
export async function revokeStoredGrant(client: OAuthProvider, args: Flow & { sealing: ConnectionTokenSealing }, stored: GrantTokens): Promise<ProviderRevocation> {
  const tokens = openedTokensOf(args, stored, args.sealing);
  if (!tokens) return { revoked: false, reason: 'the stored tokens do not open with this CONNECTION_TOKEN_KEY' };
  return revokeGrant(client, tokens);
}

/** A stored link's tokens in the clear, or null when they do not open (another key, a row moved). */
export function openedTokensOf({ userId, provider }: Flow, stored: GrantTokens, sealing: ConnectionTokenSealing): GrantTokens | null {
  try {
    return {
      accessToken: sealing.open(stored.accessToken, { userId, provider, field: 'access_token' }),
      refreshToken: stored.refreshToken === null ? null : sealing.open(stored.refreshToken, { userId, provider, field: 'refresh_token' }),
    };
  } catch {
    return null;
  }
}

/**
 * When an access token expires on the domain's clock: the provider gives a lifetime, which the
 * OAuth client turned into a time on the machine's clock when the answer came; the lifetime is
 * what counts from `receivedAt`.
 */
export function expiryOf(tokens: Pick<OAuthTokens, 'accessTokenExpiresAt'>, receivedAt: Date): Date {
  return new Date(receivedAt.getTime() + (tokens.accessTokenExpiresAt.getTime() - Date.now()));
}
