/**
 * Run as its own process (`node --import tsx`), so that nothing but this file decides what loads
 * first: undici 7 is imported before anything else, and so installs its Agent as the process's
 * global dispatcher (the one Node 20's built-in `fetch` sends through), as it does in a service
 * that loads `@raffle/webhooks` before `@raffle/social`. Then the OAuth flows run against both
 * stand-ins and one JSON line reports how each step went.
 */
const undici = await import('undici');
const globalDispatcherIsUndici7Agent = undici.getGlobalDispatcher() instanceof undici.Agent;

const { createDiscordClient, createDiscordOAuth, createXClient, createXOAuth, generateCodeVerifier, generateState } = await import('../../src/index.js');
const { consentThrough, LOCAL_DISCORD_CLIENT, LOCAL_X_CLIENT, startLocalDiscord, startLocalX } = await import('../../src/local/index.js');
type OAuthProvider = import('../../src/index.js').OAuthProvider;
type ProviderEndpoints = import('../../src/index.js').ProviderEndpoints;

const REDIRECT_URI = 'http://127.0.0.1:9/connections/callback';

/** Each step's outcome: `ok`, or the failure the provider reported. */
async function roundTrip(oauth: OAuthProvider, whoIs: (accessToken: string) => Promise<string>) {
  const codeVerifier = generateCodeVerifier();
  const { code } = await consentThrough(oauth.authorizationUrl({ state: generateState(), codeVerifier }), 'alice');
  const exchanged = await oauth.exchangeCode(code ?? '', codeVerifier);
  if (!exchanged.ok) return { exchange: exchanged.failure };
  const refreshed = await oauth.refresh(exchanged.tokens.refreshToken ?? '');
  if (!refreshed.ok) return { exchange: 'ok', refresh: refreshed.failure };
  const accountId = await whoIs(refreshed.tokens.accessToken);
  const revoked = await oauth.revoke(refreshed.tokens.accessToken);
  return { exchange: 'ok', refresh: 'ok', accountId, revoke: revoked.ok ? 'ok' : revoked.failure, afterRevoke: await whoIs(refreshed.tokens.accessToken) };
}

const discord = await startLocalDiscord();
const x = await startLocalX();
try {
  const options = (client: { clientId: string; clientSecret: string }, endpoints: ProviderEndpoints) => ({ ...client, redirectUri: REDIRECT_URI, endpoints });
  const report = {
    globalDispatcherIsUndici7Agent,
    discord: await roundTrip(createDiscordOAuth(options(LOCAL_DISCORD_CLIENT, discord.endpoints)), async (token) => {
      const outcome = await createDiscordClient({ apiBaseUrl: discord.endpoints.apiBaseUrl }).currentUser(token);
      return outcome.status === 'ok' ? outcome.value.id : outcome.status;
    }),
    x: await roundTrip(createXOAuth(options(LOCAL_X_CLIENT, x.endpoints)), async (token) => {
      const outcome = await createXClient({ apiBaseUrl: x.endpoints.apiBaseUrl }).me(token);
      return outcome.status === 'ok' ? outcome.value.id : outcome.status;
    }),
  };
  process.stdout.write(`${JSON.stringify(report)}\n`);
} finally {
  await Promise.all([discord.close(), x.close()]);
}
