import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { DemoAccountName } from '../demo-accounts.js';

/** A client the stand-in knows, as a deployment registers one with the provider. */
export type LocalOAuthClient = {
  clientId: string;
  clientSecret: string;
  /** Exact redirect URIs allowed; any http(s) URI when absent (a local convenience). */
  redirectUris?: string[];
};

export type AuthorizationServerOptions = {
  clients: LocalOAuthClient[];
  scopes: readonly string[];
  accessTokenTtlSeconds: number;
  codeTtlSeconds: number;
  /** X refuses an authorization request without a PKCE challenge; Discord takes one but does not require it. */
  requirePkce: boolean;
  /** X grants a refresh token only with `offline.access`; Discord always does. */
  refreshTokenScope: string | null;
  /** How the provider spells the token type (`Bearer` at Discord, `bearer` at X). */
  tokenType: string;
  now: () => number;
};

export type Grant = { account: DemoAccountName; scopes: string[] };

type IssuedGrant = Grant & {
  clientId: string;
  accessToken: string;
  accessTokenExpiresAt: number;
  refreshToken: string | null;
  revoked: boolean;
};

type PendingCode = {
  clientId: string;
  redirectUri: string;
  account: DemoAccountName;
  scopes: string[];
  codeChallenge: string | null;
  expiresAt: number;
  /** Set once exchanged: a second exchange revokes what the first one issued (RFC 6749 §4.1.2). */
  exchangedInto: IssuedGrant | null;
};

export type OAuthErrorBody = { error: string; error_description: string };
export type TokenResponseBody = { access_token: string; token_type: string; expires_in: number; refresh_token?: string; scope: string };
export type EndpointAnswer<T> = { status: number; body: T | OAuthErrorBody };

export type AuthorizationRequest =
  | { kind: 'valid'; clientId: string; redirectUri: string; state: string | undefined; scopes: string[]; codeChallenge: string | null }
  /** RFC 6749 §4.1.2.1: a bad client or redirect URI is shown to the user, never redirected to. */
  | { kind: 'show_error'; message: string }
  | { kind: 'redirect_error'; redirectUri: string; state: string | undefined; error: string; description: string };

/**
 * The OAuth 2.0 authorization server of a stand-in (RFC 6749 authorization code grant with RFC 7636
 * PKCE S256, refresh tokens with rotation, RFC 7009 revocation), kept apart from HTTP so both
 * stand-ins share it and differ only in paths and spelling. Everything lives in memory.
 */
export class LocalAuthorizationServer {
  readonly #codes = new Map<string, PendingCode>();
  readonly #byAccessToken = new Map<string, IssuedGrant>();
  readonly #byRefreshToken = new Map<string, IssuedGrant>();

  constructor(private readonly options: AuthorizationServerOptions) {}

  /** Checks the query of an authorization request before anyone is asked to consent. */
  checkAuthorizationRequest(query: Record<string, string | undefined>): AuthorizationRequest {
    const client = this.options.clients.find((c) => c.clientId === query.client_id);
    if (!client) return { kind: 'show_error', message: 'Unknown client_id.' };
    const redirectUri = query.redirect_uri;
    if (!redirectUri || !isAllowedRedirect(client, redirectUri)) return { kind: 'show_error', message: 'Invalid redirect_uri for this client.' };
    const redirectError = (error: string, description: string): AuthorizationRequest => ({ kind: 'redirect_error', redirectUri, state: query.state, error, description });
    if (query.response_type !== 'code') return redirectError('unsupported_response_type', 'Only response_type=code is supported.');
    const scopes = (query.scope ?? '').split(/[ +]/).filter(Boolean);
    const unknown = scopes.filter((scope) => !this.options.scopes.includes(scope));
    if (scopes.length === 0 || unknown.length > 0) return redirectError('invalid_scope', `Unknown or missing scope: ${unknown.join(' ') || '(none)'}`);
    const challenge = query.code_challenge ?? null;
    if (challenge === null && this.options.requirePkce) return redirectError('invalid_request', 'Missing required parameter: code_challenge.');
    if (challenge !== null && query.code_challenge_method !== 'S256') return redirectError('invalid_request', 'code_challenge_method must be S256.');
    return { kind: 'valid', clientId: client.clientId, redirectUri, state: query.state, scopes, codeChallenge: challenge };
  }

  /** The user consented as `account`: a single-use code for the client's redirect. */
  issueCode(request: Extract<AuthorizationRequest, { kind: 'valid' }>, account: DemoAccountName): string {
    const code = randomToken();
    this.#codes.set(code, {
      clientId: request.clientId,
      redirectUri: request.redirectUri,
      account,
      scopes: request.scopes,
      codeChallenge: request.codeChallenge,
      expiresAt: this.options.now() + this.options.codeTtlSeconds * 1000,
      exchangedInto: null,
    });
    return code;
  }

  token(form: Record<string, string | undefined>, authorization: string | undefined): EndpointAnswer<TokenResponseBody> {
    const client = this.#authenticate(form, authorization);
    if (!client) return invalidClient();
    if (form.grant_type === 'authorization_code') return this.#exchangeCode(client, form);
    if (form.grant_type === 'refresh_token') return this.#refresh(client, form);
    return oauthError(400, 'unsupported_grant_type', `Unsupported grant_type: ${form.grant_type ?? '(none)'}`);
  }

  /** RFC 7009: revoking either token ends the whole grant; an unknown token is not an error. */
  revoke(form: Record<string, string | undefined>, authorization: string | undefined): EndpointAnswer<null> {
    const client = this.#authenticate(form, authorization);
    if (!client) return invalidClient();
    if (!form.token) return oauthError(400, 'invalid_request', 'Missing required parameter: token.');
    const grant = this.#byAccessToken.get(form.token) ?? this.#byRefreshToken.get(form.token);
    if (grant && grant.clientId === client.clientId) this.#end(grant);
    return { status: 200, body: null };
  }

  /** The grant behind a bearer token, or null when it is unknown, expired or revoked. */
  grantFor(accessToken: string): Grant | null {
    const grant = this.#byAccessToken.get(accessToken);
    if (!grant || grant.revoked || grant.accessTokenExpiresAt <= this.options.now()) return null;
    return { account: grant.account, scopes: grant.scopes };
  }

  /** The user removed the app in the provider's settings: every grant of theirs ends. */
  revokeAccount(account: DemoAccountName): void {
    for (const grant of this.#byAccessToken.values()) if (grant.account === account) this.#end(grant);
  }

  #exchangeCode(client: LocalOAuthClient, form: Record<string, string | undefined>): EndpointAnswer<TokenResponseBody> {
    const pending = form.code ? this.#codes.get(form.code) : undefined;
    if (!pending || pending.clientId !== client.clientId) return invalidGrant('Invalid "code" in request.');
    if (pending.exchangedInto) {
      this.#end(pending.exchangedInto);
      return invalidGrant('The authorization code was already used.');
    }
    if (pending.expiresAt <= this.options.now()) return invalidGrant('The authorization code expired.');
    if (form.redirect_uri !== pending.redirectUri) return invalidGrant('Invalid "redirect_uri" in request.');
    if (pending.codeChallenge !== null && !verifierMatches(form.code_verifier, pending.codeChallenge)) {
      return invalidGrant('Invalid "code_verifier".');
    }
    const grant = this.#issue(client.clientId, pending.account, pending.scopes);
    pending.exchangedInto = grant;
    return { status: 200, body: this.#tokenBody(grant) };
  }

  #refresh(client: LocalOAuthClient, form: Record<string, string | undefined>): EndpointAnswer<TokenResponseBody> {
    const previous = form.refresh_token ? this.#byRefreshToken.get(form.refresh_token) : undefined;
    if (!previous || previous.revoked || previous.clientId !== client.clientId) return invalidGrant('Invalid "refresh_token" in request.');
    // Rotation: the old refresh token and its access token end with the new pair's issue.
    this.#end(previous);
    const grant = this.#issue(client.clientId, previous.account, previous.scopes);
    return { status: 200, body: this.#tokenBody(grant) };
  }

  #issue(clientId: string, account: DemoAccountName, scopes: string[]): IssuedGrant {
    const { refreshTokenScope, accessTokenTtlSeconds, now } = this.options;
    const grant: IssuedGrant = {
      clientId,
      account,
      scopes,
      accessToken: randomToken(),
      accessTokenExpiresAt: now() + accessTokenTtlSeconds * 1000,
      refreshToken: refreshTokenScope === null || scopes.includes(refreshTokenScope) ? randomToken() : null,
      revoked: false,
    };
    this.#byAccessToken.set(grant.accessToken, grant);
    if (grant.refreshToken) this.#byRefreshToken.set(grant.refreshToken, grant);
    return grant;
  }

  #end(grant: IssuedGrant) {
    grant.revoked = true;
    if (grant.refreshToken) this.#byRefreshToken.delete(grant.refreshToken);
  }

  #tokenBody(grant: IssuedGrant): TokenResponseBody {
    return {
      access_token: grant.accessToken,
      token_type: this.options.tokenType,
      expires_in: this.options.accessTokenTtlSeconds,
      ...(grant.refreshToken ? { refresh_token: grant.refreshToken } : {}),
      scope: grant.scopes.join(' '),
    };
  }

  /** Client authentication by HTTP Basic (RFC 6749 §2.3.1), or by client_id and client_secret in the form. */
  #authenticate(form: Record<string, string | undefined>, authorization: string | undefined): LocalOAuthClient | null {
    const [clientId, clientSecret] = basicCredentials(authorization) ?? [form.client_id, form.client_secret];
    const client = this.options.clients.find((c) => c.clientId === clientId);
    return client && clientSecret !== undefined && sameText(client.clientSecret, clientSecret) ? client : null;
  }
}

function basicCredentials(authorization: string | undefined): [string, string] | null {
  const match = /^Basic\s+(\S+)$/i.exec(authorization ?? '');
  if (!match) return null;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  return [formDecoded(decoded.slice(0, colon)), formDecoded(decoded.slice(colon + 1))];
}

/** RFC 6749 §2.3.1: the id and the secret inside Basic are each form-urlencoded (`+` for a space). */
const formDecoded = (value: string) => new URLSearchParams(`value=${value}`).get('value') ?? '';

function isAllowedRedirect(client: LocalOAuthClient, redirectUri: string): boolean {
  if (client.redirectUris) return client.redirectUris.includes(redirectUri);
  return /^https?:\/\//.test(redirectUri);
}

/** RFC 7636 §4.6: BASE64URL(SHA256(ASCII(code_verifier))) == code_challenge. */
function verifierMatches(verifier: string | undefined, challenge: string): boolean {
  if (!verifier || !/^[A-Za-z0-9\-._~]{43,128}$/.test(verifier)) return false;
  return sameText(createHash('sha256').update(verifier).digest('base64url'), challenge);
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

const randomToken = () => randomBytes(24).toString('base64url');

const oauthError = (status: number, error: string, description: string): EndpointAnswer<never> => ({ status, body: { error, error_description: description } });
const invalidClient = () => oauthError(401, 'invalid_client', 'Client authentication failed.');
const invalidGrant = (description: string) => oauthError(400, 'invalid_grant', description);
