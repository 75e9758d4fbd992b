/**
 * Where a provider lives. `webBaseUrl` serves the consent page the user's browser is sent to;
 * `apiBaseUrl` serves the token endpoints and the REST API. Defaults are the real providers; the
 * local stand-ins (`@raffle/social/local`) hand back their own.
 */
export type ProviderEndpoints = { webBaseUrl: string; apiBaseUrl: string };

/** Discord: consent at discord.com/oauth2/authorize; tokens and REST under discord.com/api. */
export const DISCORD_ENDPOINTS: ProviderEndpoints = { webBaseUrl: 'https://discord.com', apiBaseUrl: 'https://discord.com/api' };

/** X: consent at x.com/i/oauth2/authorize; tokens and REST (v2) on api.x.com. */
export const X_ENDPOINTS: ProviderEndpoints = { webBaseUrl: 'https://x.com', apiBaseUrl: 'https://api.x.com' };

export const trimTrailingSlash = (url: string) => url.replace(/\/+$/, '');
