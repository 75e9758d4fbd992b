/**
 * The demo world both stand-ins serve. Ids are fixed so a demo raffle's requirements can name them:
 * Discord ids are snowflakes (their timestamps are the dates below), X ids numeric strings.
 */
export const NEBULA = {
  discord: {
    guildId: '882595646668800001',
    name: 'Nebula',
    roles: { holder: { id: '882596904960000001', name: 'Holder' }, og: { id: '882596904960000002', name: 'OG' } },
  },
  x: { userId: '1432266841912246272', username: 'nebula', name: 'Nebula' },
} as const;

export type DemoAccountName = 'alice' | 'bob' | 'carol';

export type DemoDiscordAccount = { id: string; username: string; globalName: string };

/** X hides nothing of an account's age; it is given in days before the stand-in started so checks like "older than 30 days" stay true. */
export type DemoXAccount = { id: string; username: string; name: string; ageDays: number };

export type DemoAccount = { discord: DemoDiscordAccount; x: DemoXAccount };

export const DEMO_ACCOUNTS: Record<DemoAccountName, DemoAccount> = {
  alice: {
    discord: { id: '298033820467200001', username: 'alice', globalName: 'Alice' },
    x: { id: '576675856642998272', username: 'alice', name: 'Alice', ageDays: 4000 },
  },
  bob: {
    discord: { id: '779413251686400001', username: 'bob', globalName: 'Bob' },
    x: { id: '2006515713438646272', username: 'bob', name: 'Bob', ageDays: 3 },
  },
  carol: {
    discord: { id: '545518308556800001', username: 'carol', globalName: 'Carol' },
    x: { id: '1134791702737846272', username: 'carol', name: 'Carol', ageDays: 2500 },
  },
};

export const DEMO_ACCOUNT_NAMES = Object.keys(DEMO_ACCOUNTS) as DemoAccountName[];

/** Who is in Nebula's guild at start, with which roles: alice holds, bob does not, carol is not a member. */
export const DEMO_NEBULA_MEMBERS: ReadonlyArray<{ account: DemoAccountName; roleIds: string[]; joinedAt: string }> = [
  { account: 'alice', roleIds: [NEBULA.discord.roles.holder.id, NEBULA.discord.roles.og.id], joinedAt: '2021-09-02T10:00:00.000000+00:00' },
  { account: 'bob', roleIds: [NEBULA.discord.roles.og.id], joinedAt: '2022-01-15T16:20:00.000000+00:00' },
];

/** Who follows whom on X at start: carol follows Nebula; alice and bob do not. */
export const DEMO_X_FOLLOWS: ReadonlyArray<{ account: DemoAccountName; targetUserId: string }> = [{ account: 'carol', targetUserId: NEBULA.x.userId }];

export const isDemoAccountName = (value: unknown): value is DemoAccountName => typeof value === 'string' && value in DEMO_ACCOUNTS;
