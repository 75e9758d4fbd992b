import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PersonalEntry, RaffleManagementClient } from '../src/management/index.js';
import { collect, startManagement, uniqueSlug, type ManagementService } from './support/management-service.js';

let service: ManagementService;
let owner: RaffleManagementClient;
let workspaceId: string;

beforeAll(async () => {
  service = await startManagement();
  owner = service.clientFor(service.tenant.owner.id);
  workspaceId = service.tenant.workspace.id;
});

afterAll(async () => {
  await service?.close();
});

const draftParams = () => ({
  slug: uniqueSlug(),
  title: 'SDK raffle',
  mechanic: 'raffle' as const,
  allocationType: 'allowlist_gtd' as const,
  visibility: 'public' as const,
  spots: 2,
  // Every test user enters from 127.0.0.1: keep the IP-reuse flags out of the draw.
  settings: { excludeFlaggedDuplicates: false },
});

describe('a whole raffle lifecycle through the SDK', () => {
  it('create, update, publish (scheduled), open, web entries and a withdrawal, close, draw, wins, disqualify and reroll, delivery, finalize', async () => {
    const raffles = owner.workspaces.raffles;
    const draft = await raffles.create(workspaceId, { ...draftParams(), startsAt: new Date(Date.now() + 3_600_000).toISOString() });
    expect(draft).toMatchObject({ status: 'draft', spots: 2, drawCommitment: null });

    const updated = await raffles.update(workspaceId, draft.id, { title: 'SDK raffle, renamed', spots: 3 });
    expect(updated).toMatchObject({ id: draft.id, title: 'SDK raffle, renamed', spots: 3 });
    expect(await raffles.get(workspaceId, draft.id)).toMatchObject({ title: 'SDK raffle, renamed' });

    const scheduled = await raffles.publish(workspaceId, draft.id);
    expect(scheduled.status).toBe('scheduled');
    expect(scheduled.drawCommitment).toMatch(/^[0-9a-f]{64}$/);
    const opened = await raffles.open(workspaceId, draft.id);
    expect(opened.status).toBe('open');

    // Five users enter through the web as themselves; one withdraws.
    const entrants = await Promise.all(Array.from({ length: 5 }, () => service.newUser()));
    const entries: PersonalEntry[] = [];
    for (const user of entrants) {
      const entry = await service.clientFor(user.id).personal.entries.create(opened.slug);
      expect(entry).toMatchObject({ raffleId: opened.id, raffleSlug: opened.slug, source: 'web' });
      entries.push(entry);
    }
    const withdrawn = await service.clientFor(entrants[4]!.id).personal.entries.withdraw(opened.slug);
    expect(withdrawn).toMatchObject({ id: entries[4]!.id, status: 'withdrawn' });

    const listed = await collect(raffles.entries.list(workspaceId, draft.id, { limit: 2 }));
    expect(listed.map((e) => e.id)).toEqual(entries.map((e) => e.id));
    const onlyWithdrawn = await raffles.entries.list(workspaceId, draft.id, { status: 'withdrawn' }).page();
    expect(onlyWithdrawn.data.map((e) => e.id)).toEqual([entries[4]!.id]);

    expect((await raffles.close(workspaceId, draft.id)).status).toBe('closed');
    const drawn = await raffles.draw(workspaceId, draft.id);
    expect(drawn.status).toBe('drawn');
    expect(drawn.entriesDigest).toMatch(/^[0-9a-f]{64}$/);

    const wins = await collect(raffles.wins.list(workspaceId, draft.id));
    expect(wins.map((w) => w.position)).toEqual([1, 2, 3]);
    expect(wins.every((w) => w.status === 'selected' && entries.slice(0, 4).some((e) => e.id === w.entryId))).toBe(true);

    // The first winner is disqualified and the position rerolled to the one entrant left.
    const first = wins[0]!;
    const disqualified = await raffles.wins.disqualify(workspaceId, draft.id, first.id, { reason: 'Duplicate account' });
    expect(disqualified).toMatchObject({ id: first.id, status: 'disqualified' });
    const { replaced, replacement } = await raffles.wins.reroll(workspaceId, draft.id, first.id);
    expect(replaced).toMatchObject({ id: first.id, status: 'replaced' });
    expect(replacement).toMatchObject({ position: 1, status: 'selected', source: 'reroll' });
    const loser = entries.slice(0, 4).find((e) => !wins.some((w) => w.entryId === e.id))!;
    expect(replacement.entryId).toBe(loser.id);

    const delivering = await raffles.wins.updateDelivery(workspaceId, draft.id, replacement.id, { deliveryStatus: 'processing', deliveryNote: 'Sending' });
    expect(delivering).toMatchObject({ id: replacement.id, deliveryStatus: 'processing', deliveryNote: 'Sending' });

    const finalized = await raffles.finalize(workspaceId, draft.id);
    expect(finalized.status).toBe('finalized');
    const finalWins = await collect(raffles.wins.list(workspaceId, draft.id, { status: 'finalized' }));
    expect(finalWins.map((w) => w.position).sort()).toEqual([1, 2, 3]);

    // Disqualifying a winning entry after the fact takes its win with it.
    const victim = finalWins.find((w) => w.position === 2)!;
    const entryOut = await raffles.entries.disqualify(workspaceId, draft.id, victim.entryId, { reason: 'Bot' });
    expect(entryOut).toMatchObject({ id: victim.entryId, status: 'disqualified' });
    const afterwards = await raffles.wins.list(workspaceId, draft.id, { status: 'disqualified' }).page();
    expect(afterwards.data.map((w) => w.id)).toContain(victim.id);

    // The workspace list shows the raffle with its final status.
    const all = await collect(raffles.list(workspaceId));
    expect(all.find((r) => r.id === draft.id)).toMatchObject({ status: 'finalized' });
  });

  it('cancel: an open raffle is cancelled and is no longer there to enter', async () => {
    const raffles = owner.workspaces.raffles;
    const draft = await raffles.create(workspaceId, draftParams());
    const opened = await raffles.publish(workspaceId, draft.id);
    expect(opened.status).toBe('open');
    expect((await raffles.cancel(workspaceId, draft.id)).status).toBe('cancelled');
    // A cancelled raffle is not shown to entrants at all.
    const user = await service.newUser();
    await expect(service.clientFor(user.id).personal.entries.create(opened.slug)).rejects.toMatchObject({ status: 404, code: 'RAFFLE_NOT_FOUND' });
  });
});

describe("an entry's requirement results and the platform's chains", () => {
  it('entries.getRequirements() answers each verdict as the entrant sees it; a plain member gets 403 FORBIDDEN', async () => {
    const raffles = owner.workspaces.raffles;
    const draft = await raffles.create(workspaceId, {
      ...draftParams(),
      requirements: [
        { id: 'age', type: 'account_age_days', label: 'Old enough', params: { min: 1 } },
        { id: 'email', type: 'email_verified', label: 'Verified email', params: { optional: true, multiplier: 2 } },
      ],
    });
    const opened = await raffles.publish(workspaceId, draft.id);
    const entrant = await service.newUser();
    const entry = await service.clientFor(entrant.id).personal.entries.create(opened.slug);
    const results = await raffles.entries.getRequirements(workspaceId, opened.id, entry.id);
    expect(results).toMatchObject({ entryId: entry.id, status: 'valid' });
    expect(results.requirements.map((r) => [r.label, r.passed])).toEqual([
      ['Old enough', true],
      ['Verified email', false],
    ]);
    await expect(service.clientFor(service.tenant.member.id).workspaces.raffles.entries.getRequirements(workspaceId, opened.id, entry.id)).rejects.toMatchObject({
      status: 403,
      code: 'FORBIDDEN',
    });
  });

  it('chains.list() answers the configured chains: the run\'s local chain, with its chain id', async () => {
    expect(await owner.chains.list()).toEqual({ data: [{ name: 'anvil', chainId: 31337 }] });
  });
});
