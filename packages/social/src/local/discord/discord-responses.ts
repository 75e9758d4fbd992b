import { createHash } from 'node:crypto';
import type { DemoDiscordAccount } from '../demo-accounts.js';
import type { BucketAnswer } from '../shared/rate-limit-buckets.js';

/**
 * Discord's answers, field for field as `UserPIIResponse`, `PrivateGuildMemberResponse`,
 * `ErrorResponse` and `RatelimitedResponse` in Discord's published document (the contract tests
 * hold them to it). Accounts have no avatar, banner or decorations, as a fresh account has none.
 */
export function currentUserBody(account: DemoDiscordAccount) {
  return {
    ...userFields(account),
    banner: null,
    accent_color: null,
    mfa_enabled: false,
    locale: 'en-US',
    premium_type: 0,
  };
}

export function guildMemberBody(account: DemoDiscordAccount, member: { roleIds: string[]; joinedAt: string }) {
  return {
    avatar: null,
    banner: null,
    communication_disabled_until: null,
    flags: 0,
    joined_at: member.joinedAt,
    nick: null,
    pending: false,
    premium_since: null,
    roles: [...member.roleIds],
    user: { ...userFields(account), primary_guild: null },
    mute: false,
    deaf: false,
  };
}

function userFields(account: DemoDiscordAccount) {
  return {
    id: account.id,
    username: account.username,
    avatar: null,
    // Discord's usernames no longer carry a tag; migrated and new accounts answer "0".
    discriminator: '0',
    public_flags: 0,
    flags: 0,
    global_name: account.globalName,
    avatar_decoration_data: null,
    collectibles: null,
  };
}

/** Discord's JSON error codes the stand-in answers with (https://discord.com/developers/docs/topics/opcodes-and-status-codes). */
export const DISCORD_ERRORS = {
  unauthorized: { status: 401, body: { message: '401: Unauthorized', code: 0 } },
  missingAccess: { status: 403, body: { message: 'Missing Access', code: 50001 } },
  unknownGuild: { status: 404, body: { message: 'Unknown Guild', code: 10004 } },
  notFound: { status: 404, body: { message: '404: Not Found', code: 0 } },
} as const;

/** The 429 body; Discord's document makes `code` required (0: no specific limit) besides `retry_after` in seconds. */
export const rateLimitedBody = (retryAfterMs: number) => ({
  message: 'You are being rate limited.',
  retry_after: Math.ceil(retryAfterMs) / 1000,
  global: false,
  code: 0,
});

/**
 * Discord's rate-limit headers: `X-RateLimit-Reset` in epoch seconds and `-Reset-After` in seconds,
 * both with milliseconds; a 429 adds `Retry-After` (whole seconds, rounded up) and the scope.
 */
export function rateLimitHeaders(route: string, bucket: BucketAnswer, nowMs: number): Record<string, string> {
  const headers: Record<string, string> = {
    'x-ratelimit-limit': String(bucket.limit),
    'x-ratelimit-remaining': String(bucket.remaining),
    'x-ratelimit-reset': (bucket.resetAtMs / 1000).toFixed(3),
    'x-ratelimit-reset-after': (Math.max(0, bucket.resetAtMs - nowMs) / 1000).toFixed(3),
    'x-ratelimit-bucket': createHash('md5').update(route).digest('hex'),
  };
  if (bucket.retryAfterMs !== null) {
    headers['retry-after'] = String(Math.ceil(bucket.retryAfterMs / 1000));
    headers['x-ratelimit-scope'] = 'user';
  }
  return headers;
}
