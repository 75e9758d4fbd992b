export {
  DEMO_ACCOUNT_NAMES,
  DEMO_ACCOUNTS,
  DEMO_NEBULA_MEMBERS,
  DEMO_X_FOLLOWS,
  NEBULA,
  type DemoAccount,
  type DemoAccountName,
  type DemoDiscordAccount,
  type DemoXAccount,
} from './demo-accounts.js';
export { LOCAL_DISCORD_CLIENT, startLocalDiscord, type LocalDiscord, type LocalDiscordApiRoute, type LocalDiscordOptions, type LocalDiscordRoute } from './discord/local-discord.js';
export { LOCAL_X_CLIENT, startLocalX, type LocalX, type LocalXApiRoute, type LocalXOptions, type LocalXRoute } from './x/local-x.js';
export type { LocalOAuthClient } from './shared/authorization-server.js';
export type { LocalFaults } from './shared/faults.js';
export type { OverLimitRequest, RouteLimit } from './shared/rate-limit-buckets.js';
export type { StandInAnswer, StandInListenOptions, StandInOptions } from './shared/stand-in-app.js';
export { consentThrough, type ConsentRedirect } from './consent-redirect.js';
