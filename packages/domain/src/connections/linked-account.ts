import type { DiscordClient, ProviderOutcome, SocialProvider, XClient } from '@raffle/social';

/** The provider account behind a token: what a link stores of it. */
export type LinkedAccount = { accountId: string; accountName: string };

/** Reads the account a fresh token belongs to (Discord `GET /users/@me`, X `GET /2/users/me`). */
export type LinkedAccountReader = (provider: SocialProvider, accessToken: string) => Promise<ProviderOutcome<LinkedAccount>>;

/** The reader on the provider clients of @raffle/social; the username is the name shown (both providers keep it unique). */
export function linkedAccountReader(clients: { discord: Pick<DiscordClient, 'currentUser'>; x: Pick<XClient, 'me'> }): LinkedAccountReader {
  return async (provider, accessToken) =>
    provider === 'discord'
      ? mapOk(await clients.discord.currentUser(accessToken), (user) => ({ accountId: user.id, accountName: user.username }))
      : mapOk(await clients.x.me(accessToken), (account) => ({ accountId: account.id, accountName: account.username }));
}

function mapOk<T, U>(outcome: ProviderOutcome<T>, map: (value: T) => U): ProviderOutcome<U> {
  return outcome.status === 'ok' ? { status: 'ok', value: map(outcome.value) } : outcome;
}
