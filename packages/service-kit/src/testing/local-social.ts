import { consentThrough, LOCAL_DISCORD_CLIENT, LOCAL_X_CLIENT, startLocalDiscord, startLocalX, type LocalDiscord, type LocalOAuthClient, type LocalX, type StandInAnswer } from '@raffle/social/local';
import { localSocialEnv } from '../social-settings.js';
import { registerSecret } from './log-scan.js';

export type LocalSocial = {
  discord: LocalDiscord;
  x: LocalX;
  /** The services' settings for these stand-ins (client ids and secrets, base URLs, the redirect base). */
  env: Record<string, string>;
  /** A browser's consent at a stand-in (`as=<account>` or `deny`): the callback's code, state or error; the code registered as a secret. */
  consent: typeof consentThrough;
  close(): Promise<void>;
};

/**
 * Local Discord and X for one test file (its faults and revocations its own), every token they
 * issue registered as a secret: the file's log scan fails if any shows up in a log line. Its own
 * entry point (`@raffle/service-kit/testing/local-social`): the log scan it imports registers a
 * check after the file's tests, which only a test file may do.
 */
export async function startLocalSocial(
  options: { redirectBaseUrl?: string; now?: () => number; /** Clients both stand-ins know besides the services' (a code of another client). */ otherClients?: LocalOAuthClient[] } = {},
): Promise<LocalSocial> {
  const shared = { onAnswer: registerIssuedTokens, ...(options.now ? { now: options.now } : {}) };
  const others = options.otherClients ?? [];
  const discord = await startLocalDiscord({ ...shared, clients: [LOCAL_DISCORD_CLIENT, ...others] });
  const x = await startLocalX({ ...shared, clients: [LOCAL_X_CLIENT, ...others] }).catch(async (error: unknown) => {
    await discord.close();
    throw error;
  });
  return {
    discord,
    x,
    env: localSocialEnv({ discord, x }, options.redirectBaseUrl ?? 'http://127.0.0.1:3003'),
    async consent(authorizationUrl, account) {
      const back = await consentThrough(authorizationUrl, account);
      if (back.code) registerSecret(back.code);
      return back;
    },
    close: async () => {
      await Promise.all([discord.close(), x.close()]);
    },
  };
}

/** A stand-in's `onAnswer`: registers the tokens each successful token answer issues as secrets of the test file. */
export function registerIssuedTokens(answer: StandInAnswer<string>): void {
  if (answer.route !== 'token' || answer.status !== 200) return;
  const issued = JSON.parse(answer.body) as { access_token?: string; refresh_token?: string };
  for (const token of [issued.access_token, issued.refresh_token]) if (token) registerSecret(token);
}
