import type { ConnectionProvider } from '@raffle/sdk';

export const connectionKeys = { list: ['me', 'connections'] as const };

/** The providers in the order the console shows them, with their names. */
export const CONNECTION_PROVIDERS: ReadonlyArray<{ provider: ConnectionProvider; name: string }> = [
  { provider: 'discord', name: 'Discord' },
  { provider: 'x', name: 'X' },
];

export const providerNameOf = (provider: string): string | undefined => CONNECTION_PROVIDERS.find((p) => p.provider === provider)?.name;

/** What a raffle can ask of each provider's account, said where the user links it. */
export const PROVIDER_USES: Record<ConnectionProvider, string> = {
  discord: 'membership and roles in a server',
  x: 'following an account, and the account\'s age',
};
