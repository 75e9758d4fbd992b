import { ArcticFetchError, CodeChallengeMethod, OAuth2Client, OAuth2RequestError, UnexpectedErrorResponseBodyError, UnexpectedResponseError, type OAuth2Tokens } from 'arctic';
import { DISCORD_ENDPOINTS, trimTrailingSlash, X_ENDPOINTS, type ProviderEndpoints } from '../endpoints.js';

export type SocialProvider = 'discord' | 'x';

/** What a deployment registers with the provider (the redirect URI exactly as registered). */
export type OAuthClientCredentials = { clientId: string; clientSecret: string; redirectUri: string };

export type OAuthProviderOptions = OAuthClientCredentials & {
  /** Defaults to the real provider; a local stand-in hands back its own. */
  endpoints?: ProviderEndpoints;
  /** Bound on one token or revocation request; default 5 s. */
  timeoutMs?: number;
};

export type OAuthTokens = {
  accessToken: string;
  /** Absent when the provider gave none (X without `offline.access`). */
  refreshToken: string | null;
  accessTokenExpiresAt: Date;
  /** The scopes the user granted, which may be fewer than asked. */
  scopes: string[];
};

/** Why a token request failed: the provider's OAuth error code (`invalid_grant` for a used, expired or mismatched code), or no usable answer. */
export type OAuthFailure = { kind: 'refused'; error: string; description: string | null } | { kind: 'unavailable'; reason: string };

export type OAuthResult = { ok: true; tokens: OAuthTokens } | { ok: false; failure: OAuthFailure };

export type OAuthProvider = {
  provider: SocialProvider;
  /** The scopes this platform asks for. */
  scopes: readonly string[];
  /** The consent URL to send the user's browser to: authorization code flow with PKCE (S256). */
  authorizationUrl(args: { state: string; codeVerifier: string; scopes?: readonly string[] }): URL;
  exchangeCode(code: string, codeVerifier: string): Promise<OAuthResult>;
  refresh(refreshToken: string): Promise<OAuthResult>;
  /** Revokes the token and, at both providers, the grant behind it. */
  revoke(token: string): Promise<{ ok: true } | { ok: false; failure: OAuthFailure }>;
};

/** `identify` for `GET /users/@me`; `guilds.members.read` for `GET /users/@me/guilds/{guild.id}/member`. */
export const DISCORD_SCOPES = ['identify', 'guilds.members.read'] as const;

/**
 * `users.read` and `tweet.read` are what X's document asks of `GET /2/users/me` and
 * `GET /2/users/{id}` (X grants no user read without `tweet.read`); `follows.read` covers follow
 * relationships; `offline.access` brings a refresh token (X access tokens live two hours).
 */
export const X_SCOPES = ['tweet.read', 'users.read', 'follows.read', 'offline.access'] as const;

type ProviderShape = { authorizePath: string; tokenPath: string; revokePath: string; scopes: readonly string[] };

const SHAPES: Record<SocialProvider, ProviderShape> = {
  discord: { authorizePath: '/oauth2/authorize', tokenPath: '/oauth2/token', revokePath: '/oauth2/token/revoke', scopes: DISCORD_SCOPES },
  x: { authorizePath: '/i/oauth2/authorize', tokenPath: '/2/oauth2/token', revokePath: '/2/oauth2/revoke', scopes: X_SCOPES },
};

const DEFAULT_ENDPOINTS: Record<SocialProvider, ProviderEndpoints> = { discord: DISCORD_ENDPOINTS, x: X_ENDPOINTS };

export const createDiscordOAuth = (options: OAuthProviderOptions) => createOAuthProvider('discord', options);
export const createXOAuth = (options: OAuthProviderOptions) => createOAuthProvider('x', options);

/**
 * OAuth 2.0 authorization code with PKCE, on arctic's generic `OAuth2Client`: arctic's own Discord
 * and Twitter classes fix the real endpoints (the Twitter one still twitter.com), and the flows must
 * run against the local stand-ins too. Confidential client: the secret goes as HTTP Basic, which
 * both providers accept (X requires it of confidential clients).
 */
export function createOAuthProvider(provider: SocialProvider, options: OAuthProviderOptions): OAuthProvider {
  const shape = SHAPES[provider];
  const endpoints = options.endpoints ?? DEFAULT_ENDPOINTS[provider];
  const authorizeUrl = trimTrailingSlash(endpoints.webBaseUrl) + shape.authorizePath;
  const tokenUrl = trimTrailingSlash(endpoints.apiBaseUrl) + shape.tokenPath;
  const revokeUrl = trimTrailingSlash(endpoints.apiBaseUrl) + shape.revokePath;
  const timeoutMs = options.timeoutMs ?? 5000;
  const client = new OAuth2Client(options.clientId, options.clientSecret, options.redirectUri);

  const tokenRequest = async (send: () => Promise<OAuth2Tokens>): Promise<OAuthResult> => {
    try {
      return { ok: true, tokens: tokensOf(await withDeadline(send(), timeoutMs)) };
    } catch (error) {
      return { ok: false, failure: failureOf(error) };
    }
  };

  return {
    provider,
    scopes: shape.scopes,
    authorizationUrl: ({ state, codeVerifier, scopes = shape.scopes }) =>
      client.createAuthorizationURLWithPKCE(authorizeUrl, state, CodeChallengeMethod.S256, codeVerifier, [...scopes]),
    exchangeCode: (code, codeVerifier) => tokenRequest(() => client.validateAuthorizationCode(tokenUrl, code, codeVerifier)),
    refresh: (refreshToken) => tokenRequest(() => client.refreshAccessToken(tokenUrl, refreshToken, [])),
    async revoke(token) {
      try {
        await withDeadline(client.revokeToken(revokeUrl, token), timeoutMs);
        return { ok: true };
      } catch (error) {
        return { ok: false, failure: failureOf(error) };
      }
    },
  };
}

function tokensOf(tokens: OAuth2Tokens): OAuthTokens {
  return {
    accessToken: tokens.accessToken(),
    refreshToken: tokens.hasRefreshToken() ? tokens.refreshToken() : null,
    accessTokenExpiresAt: tokens.accessTokenExpiresAt(),
    scopes: tokens.hasScopes() ? tokens.scopes() : [],
  };
}

function failureOf(error: unknown): OAuthFailure {
  if (error instanceof OAuth2RequestError) return { kind: 'refused', error: error.code, description: error.description };
  if (error instanceof UnexpectedResponseError || error instanceof UnexpectedErrorResponseBodyError) {
    return { kind: 'unavailable', reason: `the provider answered ${error.status}` };
  }
  if (error instanceof ArcticFetchError) return { kind: 'unavailable', reason: 'the provider could not be reached' };
  if (error instanceof DeadlineExceeded) return { kind: 'unavailable', reason: error.message };
  // arctic reads the token fields only when asked; a 200 without them lands here.
  return { kind: 'unavailable', reason: `the provider's answer was unusable (${error instanceof Error ? error.message : String(error)})` };
}

class DeadlineExceeded extends Error {}

/** arctic's requests take no abort signal; past the deadline the answer is given up on, not awaited. */
function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineExceeded(`the provider did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
