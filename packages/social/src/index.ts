export { DISCORD_ENDPOINTS, X_ENDPOINTS, type ProviderEndpoints } from './endpoints.js';
export { type ProviderFailure, type ProviderOutcome } from './provider-outcome.js';
export { createDiscordClient, type DiscordClient, type DiscordClientOptions, type DiscordGuildMember, type DiscordUser } from './discord/discord-client.js';
export { createXClient, type XAccount, type XClient, type XClientOptions } from './x/x-client.js';
export {
  createDiscordOAuth,
  createOAuthProvider,
  createXOAuth,
  DISCORD_SCOPES,
  X_SCOPES,
  type OAuthClientCredentials,
  type OAuthFailure,
  type OAuthProvider,
  type OAuthProviderOptions,
  type OAuthResult,
  type OAuthTokens,
  type SocialProvider,
} from './oauth/oauth-provider.js';
export { generateCodeVerifier, generateState } from 'arctic';
