import { completeConnection, createConnectionTokenSealing, linkedAccountReader, startConnection } from '@raffle/domain';
import { DEV_CONNECTION_TOKEN_KEY } from '@raffle/service-kit';
import { startLocalSocial, type LocalSocial } from '@raffle/service-kit/testing/local-social';
import { createDiscordClient, createDiscordOAuth, createXClient, type OAuthProvider } from '@raffle/social';
import { consentThrough, DEMO_ACCOUNTS, LOCAL_DISCORD_CLIENT, NEBULA, type DemoAccountName } from '@raffle/social/local';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from './support/app.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { registerSecret } from './support/log-scan.js';
import { createLifecycleWorld, type LifecycleWorld } from './support/lifecycle.js';

/**
 * Discord down, then rate-limiting, while entrants enter through the API (decision 0045): every
 * entry is answered 201 `pending` (never a 5xx), and the data plane's resolver settles each once
 * Discord answers, never sending a read before a rate limit's reset. Accounts are linked through
 * the connections' domain functions against the local stand-ins, sealed under the key the data
 * plane opens them with. No token or account id appears in a log line (the file's log scan).
 */

let db: TestDatabase;
let app: FastifyInstance;
let world: LifecycleWorld;
let social: LocalSocial;
let oauth: OAuthProvider;

const member = { id: 'member', type: 'discord_member', label: 'In the Nebula server', params: { guildId: NEBULA.discord.guildId } };

beforeAll(async () => {
  social = await startLocalSocial();
  db = await createTestDatabase();
  world = await createLifecycleWorld(db.database);
  app = await buildTestApp(db.database, db.url, {
    ...social.env,
    SOCIAL_READ_TIMEOUT_MS: '500',
    PENDING_ENTRIES_ENABLED: 'true',
    PENDING_ENTRIES_INTERVAL_MS: '200',
  });
  oauth = createDiscordOAuth({ ...LOCAL_DISCORD_CLIENT, redirectUri: 'http://127.0.0.1:3003/connections/discord/callback', endpoints: social.discord.endpoints });
  for (const account of Object.values(DEMO_ACCOUNTS)) registerSecret(account.discord.id);
}, 120_000);
afterAll(async () => {
  await app?.close();
  await social?.close();
  await db?.drop();
});

/** An API entrant whose Discord account is `account`'s, linked as management links it. */
async function entrant(account: DemoAccountName) {
  const who = await world.entrant();
  const sealing = createConnectionTokenSealing(DEV_CONNECTION_TOKEN_KEY);
  const linking = { sealing, oauth: { discord: oauth }, accounts: linkedAccountReader({ discord: createDiscordClient({ apiBaseUrl: social.discord.endpoints.apiBaseUrl }), x: createXClient() }) };
  const started = await startConnection(world.db, { userId: who.user.id, provider: 'discord', ...linking });
  const back = await consentThrough(started.authorizationUrl, account);
  await completeConnection(world.db, { userId: who.user.id, provider: 'discord', ...linking, body: { state: back.state!, code: back.code! } });
  return who;
}

const enter = (slug: string, who: { headers: Record<string, string> }) => app.inject({ method: 'POST', url: `/api/v1/raffles/${slug}/entries`, headers: who.headers });

async function statusesUntilSettled(raffleId: string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await db.database.sql<{ user_id: string; status: string }[]>`select user_id, status from entries where raffle_id = ${raffleId}`;
    if (rows.every((r) => r.status !== 'pending')) return new Map(rows.map((r) => [r.user_id, r.status]));
    if (Date.now() > deadline) throw new Error('entries still pending');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('Discord cannot be asked while entrants come in', () => {
  it('down: 201 pending for each entrant, settled valid or invalid by the resolver once Discord is back', async () => {
    const raffle = await world.open({ requirements: [member] as never, spots: 10 });
    const alice = await entrant('alice');
    const carol = await entrant('carol');
    social.discord.faults.down('guildMember');
    try {
      for (const who of [alice, carol]) {
        const res = await enter(raffle.slug, who);
        expect(res.statusCode, res.body).toBe(201);
        expect(res.json()).toMatchObject({ status: 'pending', requirements: [{ passed: false, detail: 'not evaluated yet: Discord did not answer' }] });
      }
    } finally {
      social.discord.faults.clear();
    }
    const settled = await statusesUntilSettled(raffle.id, 30_000);
    expect(settled.get(alice.user.id)).toBe('valid');
    expect(settled.get(carol.user.id)).toBe('invalid');
  });

  it('429: pending until the reset, settled after it, and no read sent before it', async () => {
    const raffle = await world.open({ requirements: [member] as never, spots: 10 });
    const bob = await entrant('bob');
    social.discord.faults.rateLimit('guildMember', 2);
    const res = await enter(raffle.slug, bob);
    expect(res.statusCode, res.body).toBe(201);
    expect((res.json() as { requirements: { detail: string }[] }).requirements[0]!.detail).toMatch(/^not evaluated yet: Discord asked to wait until /);
    const settled = await statusesUntilSettled(raffle.id, 30_000);
    expect(settled.get(bob.user.id)).toBe('valid');
    expect(social.discord.overLimitRequests()).toEqual([]);
  });
});
