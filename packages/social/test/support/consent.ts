import { expect } from 'vitest';
import { generateCodeVerifier, generateState, type OAuthProvider, type OAuthTokens } from '../../src/index.js';
import type { DemoAccountName } from '../../src/local/index.js';

export const REDIRECT_URI = 'http://127.0.0.1:9/connections/callback';

/** Where the stand-in's consent sent the browser back to, with its query read. */
export async function consentAs(provider: OAuthProvider, account: DemoAccountName | 'deny', args: { state?: string; codeVerifier?: string; scopes?: readonly string[] } = {}) {
  const state = args.state ?? generateState();
  const codeVerifier = args.codeVerifier ?? generateCodeVerifier();
  const url = provider.authorizationUrl({ state, codeVerifier, ...(args.scopes ? { scopes: args.scopes } : {}) });
  url.searchParams.set('as', account);
  const response = await fetch(url, { redirect: 'manual' });
  expect(response.status).toBe(302);
  const location = new URL(response.headers.get('location')!);
  return { state, codeVerifier, location, code: location.searchParams.get('code') };
}

/** The whole flow for a demo account: consent, then the code exchanged for tokens. */
export async function linkedTokens(provider: OAuthProvider, account: DemoAccountName, scopes?: readonly string[]): Promise<OAuthTokens> {
  const { code, codeVerifier } = await consentAs(provider, account, scopes ? { scopes } : {});
  const result = await provider.exchangeCode(code!, codeVerifier);
  if (!result.ok) throw new Error(`exchange failed: ${JSON.stringify(result.failure)}`);
  return result.tokens;
}
