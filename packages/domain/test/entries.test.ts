import { describe, expect, it } from 'vitest';
import { schema } from '@raffle/db';
import { and, eq } from 'drizzle-orm';
import { closeRaffle, disqualifyEntry, enterRaffle, hashIp, userPrincipal, withdrawEntry } from '../src/index.js';
import { useWorld } from './support/world.js';

const world = useWorld();

const enter = (raffleId: string, userId: string, extra: { ipHash?: string } = {}) =>
  enterRaffle(world.db, { raffle: { raffleId }, actor: userPrincipal(userId), source: 'api', ...extra });

describe('entering', () => {
  it('creates a valid entry and records entry.created for the entrant and the workspace', async () => {
    const raffle = await world.openRaffle();
    const user = await world.user();
    const { entry, win } = await enter(raffle.id, user.id);
    expect(entry).toMatchObject({ status: 'valid', source: 'api', entryWeight: '1.000000' });
    expect(win).toBeNull();
    const personal = (await world.events({ userId: user.id })).filter((e) => e.type === 'entry.created');
    const workspace = (await world.events()).filter((e) => e.type === 'entry.created' && e.payload.data.id === entry.id);
    expect(personal).toHaveLength(1);
    expect(workspace).toHaveLength(1);
    expect(personal[0]!.payload.data).toEqual(JSON.parse(entry.ownerJson));
    expect(workspace[0]!.payload.data).toEqual(JSON.parse(entry.workspaceJson));
    expect(personal[0]!.payload.data).not.toHaveProperty('duplicateFlags');
  });

  it('judges the raffle as stored: the admission read returns the row drizzle reads, and a passed endsAt refuses', async () => {
    const endsAt = new Date(Date.now() + 60_000);
    const raffle = await world.openRaffle({ chain: 'solana', endsAt: endsAt.toISOString() });
    const entered = await enter(raffle.id, (await world.user()).id);
    const [stored] = await world.db.select().from(schema.raffles).where(eq(schema.raffles.id, raffle.id));
    expect(entered.raffle).toEqual(stored);
    expect(entered.raffle.endsAt).toBeInstanceOf(Date);

    const late = await world.user();
    const after = enterRaffle(world.db, { raffle: { raffleId: raffle.id }, actor: userPrincipal(late.id), source: 'api', clock: { now: () => new Date(endsAt.getTime() + 1) } });
    await expect(after).rejects.toMatchObject({ code: 'RAFFLE_NOT_OPEN', message: `entries closed at ${endsAt.toISOString()}` });
  });

  it('commits the response an Idempotency-Key replays with the entry (the entry\'s owner view)', async () => {
    const raffle = await world.openRaffle();
    const user = await world.user();
    const held = { apiKeyId: `key_${user.id}`, key: 'k1' };
    await world.db.insert(schema.idempotencyRecords).values({
      ...held,
      method: 'POST',
      path: `/v1/raffles/${raffle.slug}/entries`,
      requestHash: 'h',
      state: 'in_progress',
      expiresAt: new Date(Date.now() + 60_000),
    });
    const { entry } = await enterRaffle(world.db, { raffle: { raffleId: raffle.id }, actor: userPrincipal(user.id), source: 'api', idempotency: held });
    const [record] = await world.db.select().from(schema.idempotencyRecords).where(eq(schema.idempotencyRecords.key, 'k1'));
    expect(record).toMatchObject({ state: 'completed', responseStatus: 201, responseBody: entry.ownerJson });
  });

  it('refuses a second entry (409 ALREADY_ENTERED), also when both arrive at once', async () => {
    const raffle = await world.openRaffle();
    const user = await world.user();
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => enter(raffle.id, user.id)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results.filter((r) => r.status === 'rejected')) expect((r as PromiseRejectedResult).reason).toMatchObject({ code: 'ALREADY_ENTERED' });
    const rows = await world.db.select().from(schema.entries).where(eq(schema.entries.raffleId, raffle.id));
    expect(rows).toHaveLength(1);
  });

  it('refuses raffles that are not open (409 RAFFLE_NOT_OPEN) and drafts as not found', async () => {
    const draft = await world.raffle();
    const user = await world.user();
    await expect(enter(draft.id, user.id)).rejects.toMatchObject({ code: 'RAFFLE_NOT_FOUND', statusCode: 404 });
    const raffle = await world.openRaffle();
    await closeRaffle(world.db, { beacon: world.beacon.chain, actor: world.team, raffleId: raffle.id });
    await expect(enter(raffle.id, user.id)).rejects.toMatchObject({ code: 'RAFFLE_NOT_OPEN', statusCode: 409 });
  });

  it('refuses private raffles to non-members as not found', async () => {
    const raffle = await world.openRaffle({ visibility: 'private' });
    const outsider = await world.user();
    await expect(enter(raffle.id, outsider.id)).rejects.toMatchObject({ code: 'RAFFLE_NOT_FOUND' });
    await expect(enter(raffle.id, world.owner.id)).resolves.toMatchObject({ entry: { status: 'valid' } });
  });

  it('answers 422 REQUIREMENTS_NOT_MET naming only the failed requirements, and stores nothing', async () => {
    const raffle = await world.openRaffle({
      requirements: [
        { id: 'wallet', type: 'wallet_connected', label: 'An ethereum wallet', params: { chain: 'ethereum' } },
        { id: 'age', type: 'account_age_days', label: 'Account 30 days old', params: { min: 30 } },
        { id: 'email', type: 'email_verified', label: 'Verified email', params: {} },
      ],
    });
    const user = await world.user({ emailVerifiedAt: new Date('2021-01-01T00:00:00Z') });
    await expect(enter(raffle.id, user.id)).rejects.toMatchObject({
      statusCode: 422,
      code: 'REQUIREMENTS_NOT_MET',
      failedRequirements: [{ type: 'wallet_connected', label: 'An ethereum wallet' }],
    });
    expect(await world.db.select().from(schema.entries).where(eq(schema.entries.raffleId, raffle.id))).toHaveLength(0);
  });

  it('keeps private evidence out of the entrant view and multiplies weight for passed optional requirements', async () => {
    const raffle = await world.openRaffle({
      chain: 'ethereum',
      requirements: [
        { id: 'wallet', type: 'wallet_connected', label: 'An ethereum wallet', params: { chain: 'ethereum' } },
        { id: 'og', type: 'holds_role', label: 'OG bonus', params: { role: 'og', optional: true, multiplier: 2.5 } },
        { id: 'member', type: 'workspace_member', label: 'Member bonus', params: { optional: true, multiplier: 3 } },
      ],
    });
    const user = await world.user({ wallets: [{ chain: 'ethereum', address: '0xabc', verified: true }] });
    await world.db.insert(schema.communityRoles).values({ workspaceId: world.workspace.id, userId: user.id, role: 'og' });
    const { entry } = await enter(raffle.id, user.id);
    expect(entry.entryWeight).toBe('2.500000');
    expect(entry.walletSnapshot).toBe('0xabc');
    const owner = JSON.parse(entry.ownerJson);
    expect(owner.requirements).toEqual([
      { type: 'wallet_connected', label: 'An ethereum wallet', passed: true },
      { type: 'holds_role', label: 'OG bonus', passed: true },
      { type: 'workspace_member', label: 'Member bonus', passed: false },
    ]);
    expect(entry.ownerJson).not.toContain('evidence');
    expect(Object.keys(owner.requirements[0])).toEqual(['type', 'label', 'passed']);
    const evaluations = await world.db.select().from(schema.entryRequirementEvaluations).where(eq(schema.entryRequirementEvaluations.entryId, entry.id));
    expect(evaluations.find((e) => e.requirementId === 'wallet')!.evidence).toMatchObject({ chain: 'ethereum', address: '0xabc' });
  });

  it('flags wallet and IP reuse on both entries, keeping the IP only as a keyed hash', async () => {
    const raffle = await world.openRaffle({ chain: 'solana' });
    const shared = { chain: 'solana', address: 'So1shared', verified: true };
    const a = await world.user({ wallets: [shared] });
    const b = await world.user({ wallets: [shared] });
    const c = await world.user();
    const ip = hashIp('test-key-0123456789', '203.0.113.7');
    const first = (await enter(raffle.id, a.id, { ipHash: ip })).entry;
    const second = (await enter(raffle.id, b.id)).entry;
    const third = (await enter(raffle.id, c.id, { ipHash: ip })).entry;
    expect(second.duplicateFlags).toEqual({ walletReuse: [first.id] });
    expect(third.duplicateFlags).toEqual({ ipReuse: [first.id] });
    const [reread] = await world.db.select().from(schema.entries).where(eq(schema.entries.id, first.id));
    expect(reread!.duplicateFlags).toEqual({ walletReuse: [second.id], ipReuse: [third.id] });
    expect(JSON.parse(reread!.workspaceJson).duplicateFlags).toEqual(reread!.duplicateFlags);
    expect(reread!.ipHash).not.toContain('203.0.113.7');
  });

  it('entrants sharing an IP or a wallet who arrive at once still flag each other; the others are not flagged', async () => {
    // The duplicate lookup leaves in the same pipeline as the signal's advisory lock (one round
    // trip): it must still run after the lock is granted, or simultaneous entrants miss each other.
    const raffle = await world.openRaffle({ chain: 'solana' });
    const ip = hashIp('test-key-0123456789', '192.0.2.44');
    const wallet = { chain: 'solana', address: 'So1sharedAtOnce', verified: true };
    const sameIp = await Promise.all(Array.from({ length: 12 }, () => world.user()));
    const sameWallet = await Promise.all(Array.from({ length: 6 }, () => world.user({ wallets: [wallet] })));
    const strangers = await Promise.all(Array.from({ length: 6 }, () => world.user()));
    await Promise.all([
      ...sameIp.map((u) => enter(raffle.id, u.id, { ipHash: ip })),
      ...sameWallet.map((u) => enter(raffle.id, u.id)),
      ...strangers.map((u, i) => enter(raffle.id, u.id, { ipHash: hashIp('test-key-0123456789', `198.18.0.${i + 1}`) })),
    ]);
    const stored = await world.db.select().from(schema.entries).where(eq(schema.entries.raffleId, raffle.id));
    const idsOf = (users: { id: string }[]) => stored.filter((e) => users.some((u) => u.id === e.userId)).map((e) => e.id);
    const ipGroup = idsOf(sameIp);
    const walletGroup = idsOf(sameWallet);
    for (const entry of stored) {
      const others = (group: string[]) => group.filter((id) => id !== entry.id).sort();
      if (ipGroup.includes(entry.id)) expect([...(entry.duplicateFlags.ipReuse ?? [])].sort()).toEqual(others(ipGroup));
      else if (walletGroup.includes(entry.id)) expect([...(entry.duplicateFlags.walletReuse ?? [])].sort()).toEqual(others(walletGroup));
      else expect(entry.duplicateFlags).toEqual({});
    }
  });

  it('lists at most 50 reusers, and stops rewriting entries whose list is full', async () => {
    const raffle = await world.openRaffle();
    const ip = hashIp('test-key-0123456789', '198.51.100.9');
    const entries = [];
    for (let i = 0; i < 52; i++) entries.push((await enter(raffle.id, (await world.user()).id, { ipHash: ip })).entry);
    const last = entries[51]!;
    expect(last.duplicateFlags.ipReuse).toHaveLength(50);
    const [first] = await world.db.select().from(schema.entries).where(eq(schema.entries.id, entries[0]!.id));
    expect(first!.duplicateFlags.ipReuse).toHaveLength(50);
    expect(first!.duplicateFlags.ipReuse).not.toContain(last.id);
    const updatesAfterLast = (await world.events()).filter((e) => e.type === 'entry.updated' && e.payload.timestamp >= last.createdAt.toISOString());
    expect(updatesAfterLast).toHaveLength(0);
  });
});

describe('withdrawing and disqualifying', () => {
  it('the entrant withdraws while open, once; then the raffle must be open', async () => {
    const raffle = await world.openRaffle();
    const user = await world.user();
    await enter(raffle.id, user.id);
    const withdrawn = await withdrawEntry(world.db, { raffle: { slug: raffle.slug }, actor: userPrincipal(user.id) });
    expect(withdrawn.status).toBe('withdrawn');
    await expect(withdrawEntry(world.db, { raffle: { slug: raffle.slug }, actor: userPrincipal(user.id) })).rejects.toMatchObject({ code: 'ENTRY_NOT_WITHDRAWABLE' });
    const other = await world.user();
    await expect(withdrawEntry(world.db, { raffle: { slug: raffle.slug }, actor: userPrincipal(other.id) })).rejects.toMatchObject({ code: 'ENTRY_NOT_FOUND' });
    const types = (await world.events({ userId: user.id })).map((e) => e.type);
    expect(types).toEqual(['entry.created', 'entry.withdrawn']);
  });

  it('an FCFS winner cannot withdraw; disqualifying the entry disqualifies its win too', async () => {
    const raffle = await world.openRaffle({ mechanic: 'fcfs', spots: 5 });
    const user = await world.user();
    const { entry, win } = await enter(raffle.id, user.id);
    expect(win).toMatchObject({ position: 1, status: 'selected', source: 'fcfs' });
    await expect(withdrawEntry(world.db, { raffle: { raffleId: raffle.id }, actor: userPrincipal(user.id) })).rejects.toMatchObject({ code: 'ENTRY_NOT_WITHDRAWABLE' });
    const disqualified = await disqualifyEntry(world.db, { actor: world.team, workspaceId: world.workspace.id, raffleId: raffle.id, entryId: entry.id, reason: 'Bot' });
    expect(disqualified).toMatchObject({ status: 'disqualified', statusReason: 'Bot' });
    const [w] = await world.db.select().from(schema.wins).where(and(eq(schema.wins.entryId, entry.id)));
    expect(w).toMatchObject({ status: 'disqualified', deliveryStatus: 'not_applicable' });
    await expect(
      disqualifyEntry(world.db, { actor: world.team, workspaceId: world.workspace.id, raffleId: raffle.id, entryId: entry.id, reason: 'again' }),
    ).rejects.toMatchObject({ code: 'ENTRY_CANNOT_DISQUALIFY' });
    const types = (await world.events({ userId: user.id })).map((e) => e.type);
    expect(types).toEqual(['entry.created', 'win.selected', 'entry.updated', 'win.disqualified']);
  });
});
