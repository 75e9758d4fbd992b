import type { Db } from '@raffle/db';
import {
  createDiscordClient,
  createDiscordOAuth,
  createXClient,
  createXOAuth,
  type DiscordClient,
  type SocialProvider,
  type XClient,
} from '@raffle/social';
import { LOCAL_DISCORD_CLIENT, LOCAL_X_CLIENT, startLocalDiscord, startLocalX, type DemoAccountName, type LocalDiscord, type LocalX } from '@raffle/social/local';
import {
  completeConnection,
  createConnectionTokens,
  createConnectionTokenSealing,
  createSocialReader,
  linkedAccountReader,
  providerWaitsIn,
  startConnection,
  type ConnectionOAuth,
  type ConnectionTokenSealing,
  type SocialCheck,
} from '../../src/index.js';

const REDIRECT_URI = 'http://127.0.0.1:9/connections/callback';

/** How many requests each stand-in route answered, by route (a dropped connection is no answer). */
export type AnswerCounts = Map<string, number>;

/**
 * The local Discord and X of one test file, the connections of issue 36 on them (OAuth clients,
 * sealed tokens, the token source with its refresh) and the reader social requirements are
 * evaluated with, as the services build them. Accounts are linked through the connections' own
 * flow: consent at the stand-in as a demo account, then the callback completed.
 */
export async function startSocialWorld(db: Db, options: { timeoutMs?: number } = {}) {
  const answers: AnswerCounts = new Map();
  const count = (answer: { route: string }) => answers.set(answer.route, (answers.get(answer.route) ?? 0) + 1);
  const discordStandIn: LocalDiscord = await startLocalDiscord({ onAnswer: count });
  const xStandIn: LocalX = await startLocalX({ onAnswer: count });
  const timeoutMs = options.timeoutMs ?? 1_000;
  const oauth: ConnectionOAuth = {
    discord: createDiscordOAuth({ ...LOCAL_DISCORD_CLIENT, redirectUri: REDIRECT_URI, endpoints: discordStandIn.endpoints, timeoutMs }),
    x: createXOAuth({ ...LOCAL_X_CLIENT, redirectUri: REDIRECT_URI, endpoints: xStandIn.endpoints, timeoutMs }),
  };
  const sealing: ConnectionTokenSealing = createConnectionTokenSealing('social requirement tests: a key of at least 32 characters');
  /** What one service instance holds: its own clients (with their own memory of rate limits), tokens and reader, over the shared database. */
  const instance = () => {
    const discord: DiscordClient = createDiscordClient({ apiBaseUrl: discordStandIn.endpoints.apiBaseUrl, timeoutMs });
    const x: XClient = createXClient({ apiBaseUrl: xStandIn.endpoints.apiBaseUrl, timeoutMs });
    const tokens = createConnectionTokens({ db, sealing, oauth });
    const social: SocialCheck = { reader: createSocialReader({ tokens, discord, x, waits: providerWaitsIn(db), timeoutMs: timeoutMs * 2 }) };
    return { discord, x, tokens, social };
  };
  const { discord, x, tokens, social } = instance();

  /** Links `account`'s Discord or X account to the user, as the console's callback does after consent. */
  async function link(userId: string, provider: SocialProvider, account: DemoAccountName) {
    const started = await startConnection(db, { userId, provider, sealing, oauth });
    const url = new URL(started.authorizationUrl);
    url.searchParams.set('as', account);
    const response = await fetch(url, { redirect: 'manual' });
    const back = new URL(response.headers.get('location')!);
    const body = { state: back.searchParams.get('state')!, code: back.searchParams.get('code')! };
    return completeConnection(db, { userId, provider, sealing, oauth, accounts: linkedAccountReader({ discord, x }), body });
  }

  return {
    discord: discordStandIn,
    x: xStandIn,
    social,
    tokens,
    /** Another replica's reader: nothing of this one's memory, only what the database keeps. */
    replica: () => instance().social,
    answers,
    link,
    /** Requests either stand-in received after it had said to wait: must stay empty. */
    overLimitRequests: () => [...discordStandIn.overLimitRequests(), ...xStandIn.overLimitRequests()],
    async close() {
      await Promise.all([discordStandIn.close(), xStandIn.close()]);
    },
  };
}

export type SocialWorld = Awaited<ReturnType<typeof startSocialWorld>>;
