import { OAuth2RequestResult, TokenRequestResult } from '@oslojs/oauth2';
import { CodeChallengeMethod, OAuth2Client } from 'arctic';
import { DISCORD_ENDPOINTS, trimTrailingSlash, X_ENDPOINTS, type ProviderEndpoints } from '../endpoints.js';
import { postToEndpoint } from './token-endpoint-request.js';

export type SocialProvider = 'discord' | 'x';

/** What a deployment registers with the provider (the redirect URI exactly as registered). */
export type OAuthClientCredentials = { clientId: string; clientSecret: string; redirectUri: string };

export type OAuthProviderOptions = OAuthClientCredentials & {
  /** Defaults to the real provider; a local stand-in hands back its own. */
  endpoints?: ProviderEndpoints;
  /** Bound on one token or revocation request, connect to the answer's last byte; default 5 s. */
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
 * OAuth 2.0 authorization code with PKCE. The consent URL is arctic's generic `OAuth2Client`'s
 * (arctic's own Discord and Twitter classes fix the real endpoints, the Twitter one still
 * twitter.com, and the flows must run against the local stand-ins too). The token and revocation
 * requests go through undici on a pool of their own (see token-endpoint-request.ts), not through
 * arctic, whose requests use the built-in `fetch` and so whatever dispatcher the process loaded
 * first; `@oslojs/oauth2` reads the answers. Confidential client: the secret goes as HTTP Basic,
 * which both providers accept (X requires it of confidential clients).
 */
export function createOAuthProvider(provider: SocialProvider, options: OAuthProviderOptions): OAuthProvider {
  const shape = SHAPES[provider];
  const endpoints = options.endpoints ?? DEFAULT_ENDPOINTS[provider];
  const authorizeUrl = trimTrailingSlash(endpoints.webBaseUrl) + shape.authorizePath;
  const tokenUrl = trimTrailingSlash(endpoints.apiBaseUrl) + shape.tokenPath;
  const revokeUrl = trimTrailingSlash(endpoints.apiBaseUrl) + shape.revokePath;
  const timeoutMs = options.timeoutMs ?? 5000;
  const credentials = { clientId: options.clientId, clientSecret: options.clientSecret };
  // Builds the consent URL only, which carries no secret.
  const client = new OAuth2Client(options.clientId, null, options.redirectUri);

  /** RFC 6749 §5.1 (200 with the tokens) and §5.2 (400 or 401 with the error). */
  const tokenRequest = async (form: Record<string, string>): Promise<OAuthResult> => {
    const answer = await postToEndpoint(tokenUrl, new URLSearchParams(form), credentials, timeoutMs);
    if (!answer.answered) return { ok: false, failure: { kind: 'unavailable', reason: answer.reason } };
    if (answer.status !== 200) return { ok: false, failure: refusalOf(answer.status, new OAuth2RequestResult(answer.body ?? {})) };
    const unusable = (why: string): OAuthResult => ({ ok: false, failure: { kind: 'unavailable', reason: `the provider's answer was unusable (${why})` } });
    if (!answer.body) return unusable('not a JSON object');
    try {
      return { ok: true, tokens: tokensOf(new TokenRequestResult(answer.body)) };
    } catch (error) {
      // The token fields are read only when asked; a 200 without them lands here.
      return unusable(error instanceof Error ? error.message : String(error));
    }
  };

  return {
    provider,
    scopes: shape.scopes,
    authorizationUrl: ({ state, codeVerifier, scopes = shape.scopes }) =>
      client.createAuthorizationURLWithPKCE(authorizeUrl, state, CodeChallengeMethod.S256, codeVerifier, [...scopes]),
    exchangeCode: (code, codeVerifier) =>
      tokenRequest({ grant_type: 'authorization_code', code, redirect_uri: options.redirectUri, code_verifier: codeVerifier }),
    refresh: (refreshToken) => tokenRequest({ grant_type: 'refresh_token', refresh_token: refreshToken }),
    /** RFC 7009 §2.2: 200 whether or not the token was still valid; §2.2.1: an error as in RFC 6749 §5.2. */
    async revoke(token) {
      const answer = await postToEndpoint(revokeUrl, new URLSearchParams({ token }), credentials, timeoutMs);
      if (!answer.answered) return { ok: false, failure: { kind: 'unavailable', reason: answer.reason } };
      if (answer.status === 200) return { ok: true };
      return { ok: false, failure: refusalOf(answer.status, new OAuth2RequestResult(answer.body ?? {})) };
    },
  };
}

function tokensOf(result: TokenRequestResult): OAuthTokens {
  return {
    accessToken: result.accessToken(),
    refreshToken: result.hasRefreshToken() ? result.refreshToken() : null,
    accessTokenExpiresAt: result.accessTokenExpiresAt(),
    scopes: result.hasScopes() ? result.scopes() : [],
  };
}

/** An OAuth error only from a 400 or 401 that names one (RFC 6749 §5.2); any other answer says the provider could not serve the request. */
function refusalOf(status: number, result: OAuth2RequestResult): OAuthFailure {
  if ((status === 400 || status === 401) && result.hasErrorCode()) {
    return { kind: 'refused', error: result.errorCode(), description: result.hasErrorDescription() ? result.errorDescription() : null };
  }
  return { kind: 'unavailable', reason: `the provider answered ${status}` };
}
