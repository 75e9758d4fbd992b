import { createHash, randomBytes } from 'node:crypto';
import type { schema } from '@raffle/db';
import {
  DEFAULT_RAFFLE_SETTINGS,
  buildRaffleRow,
  buildEntryRow,
  newId,
  renderEntryColumns,
  renderProfile,
  renderRaffleColumns,
  type CanonicalProject,
  type RaffleRow,
  type UserRow,
  type WorkspaceRow,
} from '@raffle/db';
import { PUBLISHED_RAFFLE_STATUSES } from '@raffle/contracts';
import { assertIdShape, bulkIdFactory } from './bulk-ids.js';

/** What the benchmark database holds; a change to any field means a re-seed. */
export type DatasetSpec = {
  workspaces: number;
  raffles: number;
  /** Entries of the one big raffle (the deep-pagination target). */
  bigRaffleEntries: number;
  /** Other raffles with a few entries each, so the big one is not alone in the indexes. */
  smallRaffles: number;
  smallRaffleEntries: number;
};

export const DEFAULT_SPEC: DatasetSpec = {
  workspaces: 5,
  raffles: 10_000,
  bigRaffleEntries: 1_000_000,
  smallRaffles: 4,
  smallRaffleEntries: 100,
};

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

type UserInsert = typeof schema.users.$inferInsert;
type RaffleInsert = typeof schema.raffles.$inferInsert;
type EntryInsert = typeof schema.entries.$inferInsert;

/** Users created 10 ms apart from `startMs`; their profiles are rendered exactly as `insertUser` does (no wallets). */
export function* userRows(count: number, startMs: number, ids: string[]): Generator<UserInsert> {
  const nextId = bulkIdFactory('user');
  for (let i = 0; i < count; i++) {
    const createdAt = new Date(startMs + i * 10);
    const row: UserRow = {
      id: nextId(createdAt.getTime()),
      handle: `bench-user-${i}`,
      displayName: i % 3 === 0 ? null : `Bench User ${i}`,
      avatarUrl: i % 4 === 0 ? `https://cdn.example.com/avatars/${i}.png` : null,
      email: `user${i}@bench.example`,
      emailVerifiedAt: i % 2 === 0 ? createdAt : null,
      createdAt,
      updatedAt: createdAt,
    };
    if (i === 0) assertIdShape('user', row.id);
    ids.push(row.id);
    yield { ...row, profileJson: renderProfile(row, []) };
  }
}

const MECHANICS = ['raffle', 'fcfs', 'collection', 'application'] as const;
const ALLOCATIONS = ['allowlist_gtd', 'allowlist_fcfs', 'airdrop', 'physical', 'custom'] as const;

/** Lifecycle timestamps that agree with `status`, the way the management service sets them. */
export function lifecycle(status: string, publishedAt: Date): Partial<RaffleRow> {
  const at = (days: number) => new Date(publishedAt.getTime() + days * DAY);
  const seed = randomBytes(32).toString('hex');
  const published = { publishedAt, drawSeed: seed, drawCommitment: createHash('sha256').update(seed).digest('hex') };
  switch (status) {
    case 'draft':
      return {};
    case 'scheduled':
      return { ...published, startsAt: at(30), endsAt: at(37) };
    case 'open':
      return { ...published, startsAt: publishedAt, endsAt: at(400), openedAt: publishedAt };
    case 'cancelled':
      return { ...published, openedAt: publishedAt, cancelledAt: at(1) };
    default: {
      const closed = { ...published, startsAt: publishedAt, endsAt: at(7), openedAt: publishedAt, closedAt: at(7) };
      if (status === 'closed') return closed;
      const drawn = { ...closed, drawnAt: at(8), entriesDigest: createHash('sha256').update(`${seed}:digest`).digest('hex') };
      return status === 'drawn' ? drawn : { ...drawn, finalizedAt: at(9) };
    }
  }
}

/** A workspace as raffle rendering sees it: the row and the projects a raffle may name. */
export type WorkspaceWithProjects = { workspace: WorkspaceRow; projects: NonNullable<CanonicalProject>[] };

/**
 * `spec.raffles` raffles over the workspaces, published over the last year. Raffle 0 is the
 * big one (workspace 0, public, open). Most others are public and published, so the public
 * list has many pages; a few are unlisted, private, drafts or cancelled, as in real data.
 */
export function planRaffles(spec: DatasetSpec, workspaces: WorkspaceWithProjects[], nowMs: number): RaffleInsert[] {
  const rows: RaffleInsert[] = [];
  const yearAgo = nowMs - 365 * DAY;
  for (let i = 0; i < spec.raffles; i++) {
    const { workspace, projects } = workspaces[i % workspaces.length]!;
    const createdAt = new Date(yearAgo + Math.floor((i * 365 * DAY) / spec.raffles));
    const publishedAt = new Date(createdAt.getTime() + HOUR);
    // Statuses cycle on i / workspaces so that every workspace gets every status.
    const cycle = Math.floor(i / workspaces.length);
    const status =
      i === 0
        ? 'open'
        : cycle % 25 === 2
          ? 'draft'
          : cycle % 25 === 3
            ? 'cancelled'
            : PUBLISHED_RAFFLE_STATUSES[cycle % PUBLISHED_RAFFLE_STATUSES.length]!;
    const visibility = i === 0 ? 'public' : i % 20 === 5 ? 'unlisted' : i % 20 === 6 ? 'private' : 'public';
    const project = i % 3 === 0 || projects.length === 0 ? null : projects[i % projects.length]!;
    const row = buildRaffleRow({
      id: newId('raffle', createdAt.getTime()),
      workspaceId: workspace.id,
      slug: i === 0 ? 'bench-big-raffle' : `bench-raffle-${i}`,
      title: i === 0 ? 'The big one: a million entries' : `Bench raffle #${i}`,
      description: i % 2 === 0 ? `Raffle number ${i} of the benchmark dataset; win an allowlist spot.` : null,
      mechanic: MECHANICS[i % MECHANICS.length]!,
      allocationType: ALLOCATIONS[i % ALLOCATIONS.length]!,
      visibility,
      status,
      spots: 1 + (i % 500),
      chain: i % 4 === 0 ? null : i % 4 === 1 ? 'ethereum' : i % 4 === 2 ? 'solana' : 'base',
      allowAutoEntry: i % 7 === 0,
      requirements:
        i % 5 === 1
          ? [{ id: 'req_wallet', type: 'wallet_connected', label: 'Connect a wallet', params: { chain: 'ethereum' } }]
          : [],
      settings: { ...DEFAULT_RAFFLE_SETTINGS, autoDraw: i % 2 === 0, excludeFlaggedDuplicates: i % 3 === 0 },
      canonicalProjectId: project?.id ?? null,
      createdAt,
      ...lifecycle(status, publishedAt),
    });
    rows.push({ ...row, ...renderRaffleColumns(row, { workspace, canonicalProject: project }) });
  }
  return rows;
}

/**
 * `count` entries of one raffle by the first `count` users, 1.5 s apart from `startMs`, rendered
 * with `buildEntryRow` + `renderEntryColumns` exactly as `insertEntry` renders them (no
 * requirement evaluations, as for a raffle without requirements).
 */
export function* entryRows(raffle: { id: string; slug: string }, userIds: readonly string[], count: number, startMs: number): Generator<EntryInsert> {
  if (count > userIds.length) throw new Error(`${count} entries need as many users; only ${userIds.length} exist`);
  const nextId = bulkIdFactory('entry');
  for (let i = 0; i < count; i++) {
    const invalid = i % 17 === 0;
    const createdAt = new Date(startMs + i * 1500);
    const row = buildEntryRow({
      id: nextId(createdAt.getTime()),
      raffle,
      userId: userIds[i]!,
      status: invalid ? 'invalid' : i % 101 === 0 ? 'withdrawn' : 'valid',
      statusReason: invalid ? 'requirements not met' : null,
      source: i % 10 === 0 ? 'web' : i % 10 === 1 ? 'auto' : 'api',
      entryWeight: i % 13 === 0 ? '2.5' : '1',
      walletSnapshot: `0x${i.toString(16).padStart(40, '0')}`,
      duplicateFlags: i % 997 === 0 && i > 0 ? { walletReuse: [`ent_bench${i - 1}`] } : {},
      ipHash: ((i * 2654435761) >>> 0).toString(16).padStart(64, 'a'),
      createdAt,
    });
    if (i === 0) assertIdShape('entry', row.id);
    yield { ...row, ...renderEntryColumns(row, raffle.slug, []) };
  }
}
