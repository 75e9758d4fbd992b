import type { OAuthProvider, SocialProvider } from '@raffle/social';
import { DomainError } from '../errors.js';

/** The OAuth clients this deployment has; a provider without one is not offered. */
export type ConnectionOAuth = Partial<Record<SocialProvider, OAuthProvider>>;

/** The provider's OAuth client, or 404 PROVIDER_NOT_CONFIGURED. */
export function oauthClientFor(oauth: ConnectionOAuth, provider: SocialProvider): OAuthProvider {
  const client = oauth[provider];
  if (!client) throw new DomainError('PROVIDER_NOT_CONFIGURED', `${providerName(provider)} accounts cannot be linked here: this deployment has no ${providerName(provider)} client configured`);
  return client;
}

export const providerName = (provider: SocialProvider) => (provider === 'x' ? 'X' : 'Discord');

/**
 * A provider that could not be asked (down, slow, or asking to wait): 503 PROVIDER_UNAVAILABLE,
 * with the seconds to wait, which the route sends as Retry-After.
 */
export class ProviderUnavailable extends DomainError {
  readonly retryAfterSeconds: number;

  constructor(provider: SocialProvider, what: string, retryAfterSeconds: number) {
    super('PROVIDER_UNAVAILABLE', `${providerName(provider)} ${what}; retry in ${retryAfterSeconds} s`);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** Tokens of one grant, in the clear: what a revocation sends. */
export type GrantTokens = { accessToken: string; refreshToken: string | null };

/** Whether the provider confirmed the end of a grant; a provider that could not be asked is said, never thrown. */
export type ProviderRevocation = { revoked: true } | { revoked: false; reason: string };

/**
 * Ends a grant at the provider: its refresh token (which ends the grant at both providers) and its
 * access token, side by side so a provider that is down costs one timeout.
 */
export async function revokeGrant(client: OAuthProvider, tokens: GrantTokens): Promise<ProviderRevocation> {
  const sent = [tokens.refreshToken, tokens.accessToken].filter((token): token is string => token !== null);
  const answers = await Promise.all(sent.map((token) => client.revoke(token)));
  const failed = answers.find((answer) => !answer.ok);
  if (!failed || failed.ok) return { revoked: true };
  const { failure } = failed;
  return { revoked: false, reason: failure.kind === 'unavailable' ? failure.reason : `the provider refused: ${failure.error}` };
}
