import { createOAuthProvider, DISCORD_ENDPOINTS, X_ENDPOINTS, type OAuthProvider, type ProviderEndpoints, type SocialProvider } from '@raffle/social';
import { LOCAL_DISCORD_CLIENT, LOCAL_X_CLIENT } from '@raffle/social/local';
import { Type } from '@sinclair/typebox';
import { ConfigError, httpUrlProblem } from './config.js';

/** Outside production only: seals linked accounts' tokens when no CONNECTION_TOKEN_KEY is set. */
export const DEV_CONNECTION_TOKEN_KEY = 'development-only-connection-token-key-never-use-in-production';

/** Where the console runs when `start` runs it: the providers send the browser back to it. */
export const DEV_CONNECTION_REDIRECT_BASE_URL = 'http://127.0.0.1:3003';

/**
 * Discord and X accounts linked by OAuth 2.0 (issue 36): management runs the flows, the data
 * plane renews tokens and reads the providers for requirements, so both read the same settings.
 * A provider without a client id is not offered. The base URLs point at the real providers unless
 * set (`start` and the tests point them at the local stand-ins).
 */
export const SocialSettings = {
  /**
   * Seals the linked accounts' tokens at rest (AES-256-GCM, key derived by HKDF). At least 32
   * characters; every instance of management and the data plane needs the same value, and changing
   * it ends every link. Production must set it once a provider is configured.
   */
  CONNECTION_TOKEN_KEY: Type.String({ minLength: 32, default: DEV_CONNECTION_TOKEN_KEY }),
  /** The console's public origin: the providers send the browser back to `<this>/connections/{provider}/callback`, which must be registered with them exactly. */
  CONNECTION_REDIRECT_BASE_URL: Type.String({ minLength: 1, default: DEV_CONNECTION_REDIRECT_BASE_URL }),
  /** The bound on one token exchange, renewal or revocation at a provider. */
  CONNECTION_PROVIDER_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 30_000, default: 5000 }),
  /**
   * The bound on one read a Discord or X requirement makes with an entrant's token (and on a renewal
   * it waits for first): past it the provider is taken as silent, and the entry is accepted pending
   * and settled later (decision 0045).
   */
  SOCIAL_READ_TIMEOUT_MS: Type.Integer({ minimum: 50, maximum: 30_000, default: 2000 }),
  DISCORD_CLIENT_ID: Type.Optional(Type.String({ minLength: 1 })),
  DISCORD_CLIENT_SECRET: Type.Optional(Type.String({ minLength: 1 })),
  /** Discord's token endpoints and REST API (`/oauth2/token`, `/v10/users/@me`, … below it). */
  DISCORD_API_BASE_URL: Type.String({ minLength: 1, default: DISCORD_ENDPOINTS.apiBaseUrl }),
  /** Where Discord's consent page is (`/oauth2/authorize`). */
  DISCORD_WEB_BASE_URL: Type.String({ minLength: 1, default: DISCORD_ENDPOINTS.webBaseUrl }),
  X_CLIENT_ID: Type.Optional(Type.String({ minLength: 1 })),
  X_CLIENT_SECRET: Type.Optional(Type.String({ minLength: 1 })),
  /** X's token endpoints and API v2 (`/2/oauth2/token`, `/2/users/me`, …). */
  X_API_BASE_URL: Type.String({ minLength: 1, default: X_ENDPOINTS.apiBaseUrl }),
  /** Where X's consent page is (`/i/oauth2/authorize`). */
  X_WEB_BASE_URL: Type.String({ minLength: 1, default: X_ENDPOINTS.webBaseUrl }),
};

export type SocialConfig = {
  NODE_ENV: string;
  CONNECTION_TOKEN_KEY: string;
  CONNECTION_REDIRECT_BASE_URL: string;
  CONNECTION_PROVIDER_TIMEOUT_MS: number;
  DISCORD_CLIENT_ID?: string;
  DISCORD_CLIENT_SECRET?: string;
  DISCORD_API_BASE_URL: string;
  DISCORD_WEB_BASE_URL: string;
  X_CLIENT_ID?: string;
  X_CLIENT_SECRET?: string;
  X_API_BASE_URL: string;
  X_WEB_BASE_URL: string;
};

export type SocialConnections = {
  /** The configured providers' OAuth clients; an absent provider is not offered. */
  oauth: Partial<Record<SocialProvider, OAuthProvider>>;
  /** Where each provider's REST API is, for its client. */
  endpoints: Record<SocialProvider, ProviderEndpoints>;
  /** The key the tokens are sealed under (CONNECTION_TOKEN_KEY). */
  tokenKey: string;
};

type ProviderVariables = { id: keyof SocialConfig; secret: keyof SocialConfig; api: keyof SocialConfig; web: keyof SocialConfig };

const VARIABLES: Record<SocialProvider, ProviderVariables> = {
  discord: { id: 'DISCORD_CLIENT_ID', secret: 'DISCORD_CLIENT_SECRET', api: 'DISCORD_API_BASE_URL', web: 'DISCORD_WEB_BASE_URL' },
  x: { id: 'X_CLIENT_ID', secret: 'X_CLIENT_SECRET', api: 'X_API_BASE_URL', web: 'X_WEB_BASE_URL' },
};

/** The providers' clients from the settings, checked; every problem is a ConfigError naming the variable (never echoing a secret). */
export function socialConnectionsOf(config: SocialConfig): SocialConnections {
  const production = config.NODE_ENV === 'production';
  const problems: string[] = [];
  const urlOf = (name: keyof SocialConfig): string => {
    // Tokens and codes travel on every one of these URLs.
    const problem = httpUrlProblem(String(config[name]), production);
    if (problem) problems.push(`  ${name}: ${problem}`);
    return String(config[name]).replace(/\/+$/, '');
  };
  const oauth: SocialConnections['oauth'] = {};
  const endpoints = {} as SocialConnections['endpoints'];
  for (const provider of ['discord', 'x'] as const) {
    const names = VARIABLES[provider];
    endpoints[provider] = { apiBaseUrl: urlOf(names.api), webBaseUrl: urlOf(names.web) };
    const clientId = config[names.id] as string | undefined;
    const clientSecret = config[names.secret] as string | undefined;
    if (clientId === undefined && clientSecret === undefined) continue;
    if (clientId === undefined || clientSecret === undefined) {
      problems.push(`  ${clientId === undefined ? names.id : names.secret}: must be set with ${clientId === undefined ? names.secret : names.id}`);
      continue;
    }
    // Checked only once a provider is offered: the default names the console `start` runs.
    const redirectBase = urlOf('CONNECTION_REDIRECT_BASE_URL');
    oauth[provider] = createOAuthProvider(provider, {
      clientId,
      clientSecret,
      redirectUri: `${redirectBase}/connections/${provider}/callback`,
      endpoints: endpoints[provider],
      timeoutMs: config.CONNECTION_PROVIDER_TIMEOUT_MS,
    });
  }
  if (production && Object.keys(oauth).length > 0 && config.CONNECTION_TOKEN_KEY === DEV_CONNECTION_TOKEN_KEY) {
    problems.push('  CONNECTION_TOKEN_KEY: must be set in production when a provider is configured');
  }
  if (problems.length > 0) throw new ConfigError(`invalid configuration:\n${[...new Set(problems)].join('\n')}`);
  return { oauth, endpoints, tokenKey: config.CONNECTION_TOKEN_KEY };
}

/**
 * The settings that point a service at the local stand-ins (@raffle/social/local) with their
 * default clients: what `start` and the tests give management and the data plane.
 */
export function localSocialEnv(standIns: Record<SocialProvider, { endpoints: ProviderEndpoints }>, redirectBaseUrl: string): Record<string, string> {
  return {
    CONNECTION_REDIRECT_BASE_URL: redirectBaseUrl,
    DISCORD_CLIENT_ID: LOCAL_DISCORD_CLIENT.clientId,
    DISCORD_CLIENT_SECRET: LOCAL_DISCORD_CLIENT.clientSecret,
    DISCORD_API_BASE_URL: standIns.discord.endpoints.apiBaseUrl,
    DISCORD_WEB_BASE_URL: standIns.discord.endpoints.webBaseUrl,
    X_CLIENT_ID: LOCAL_X_CLIENT.clientId,
    X_CLIENT_SECRET: LOCAL_X_CLIENT.clientSecret,
    X_API_BASE_URL: standIns.x.endpoints.apiBaseUrl,
    X_WEB_BASE_URL: standIns.x.endpoints.webBaseUrl,
  };
}
