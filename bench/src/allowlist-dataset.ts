import { createHash } from 'node:crypto';
import type { schema } from '@raffle/db';
import {
  DEFAULT_RAFFLE_SETTINGS,
  buildEntryRow,
  buildRaffleRow,
  renderEntryColumns,
  renderRaffleColumns,
  winRecordOf,
  type WorkspaceRow,
} from '@raffle/db';
import { assertIdShape, bulkIdFactory } from './bulk-ids.js';
import { lifecycle } from './dataset.js';

// The allowlist benchmark's raffles: drawn, every entrant a selected winner with a wallet of its
// own, so that finalize turns them all into finalized winners and the allowlist has one leaf each.

type RaffleInsert = typeof schema.raffles.$inferInsert;
type EntryInsert = typeof schema.entries.$inferInsert;
type WinInsert = typeof schema.wins.$inferInsert;

/** Every raffle the benchmark creates has this slug prefix: how a later run finds (and removes) them. */
export const ALLOWLIST_SLUG_PREFIX = 'bench-allowlist-';
const HOUR = 3_600_000;

/** Winner i's wallet: 20 bytes of a hash, lowercase; distinct for every i, and in no particular order. */
export const winnerWallet = (i: number): string => `0x${createHash('sha256').update(`bench allowlist winner ${i}`).digest('hex').slice(0, 40)}`;

/**
 * A drawn raffle of workspace `workspace` with `winners` spots. `allowlist` gives it allocation
 * allowlist_gtd on ethereum (finalize queues its allowlist); otherwise airdrop, the same raffle
 * with no allowlist: the baseline its finalize is compared with.
 */
export function drawnRaffleRow(args: { workspace: WorkspaceRow; slug: string; winners: number; allowlist: boolean; nowMs: number }): RaffleInsert {
  const publishedAt = new Date(args.nowMs - 10 * 24 * HOUR);
  const row = buildRaffleRow({
    workspaceId: args.workspace.id,
    slug: args.slug,
    title: args.allowlist ? 'Benchmark: an allowlist of 100k winners' : 'Benchmark: an airdrop of 100k winners',
    description: null,
    mechanic: 'raffle',
    allocationType: args.allowlist ? 'allowlist_gtd' : 'airdrop',
    // Unlisted: reachable by slug (the personal proof route) without joining the public list the read benchmark pages.
    visibility: 'unlisted',
    status: 'drawn',
    spots: args.winners,
    chain: 'ethereum',
    settings: DEFAULT_RAFFLE_SETTINGS,
    createdAt: new Date(publishedAt.getTime() - HOUR),
    ...lifecycle('drawn', publishedAt),
  });
  return { ...row, ...renderRaffleColumns(row, { workspace: args.workspace, canonicalProject: null }) };
}

/** User `userIds[i]` entered with winnerWallet(i), 1 s apart from `startMs`; every entry valid. */
export function* winnerEntryRows(raffle: { id: string; slug: string }, userIds: readonly string[], startMs: number): Generator<EntryInsert> {
  const nextId = bulkIdFactory('entry');
  for (let i = 0; i < userIds.length; i++) {
    const createdAt = new Date(startMs + i * 1000);
    const row = buildEntryRow({ id: nextId(createdAt.getTime()), raffle, userId: userIds[i]!, status: 'valid', source: 'api', walletSnapshot: winnerWallet(i), createdAt });
    if (i === 0) assertIdShape('entry', row.id);
    yield { ...row, ...renderEntryColumns(row, raffle.slug, []) };
  }
}

/** The draw's wins: entry i at position i + 1, selected, rendered by winRecordOf as a draw stores them. */
export function* selectedWinRows(
  raffle: Parameters<typeof winRecordOf>[1],
  entries: readonly { id: string; userId: string; walletSnapshot: string | null }[],
  selectedAt: Date,
): Generator<WinInsert> {
  const nextId = bulkIdFactory('win');
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i]!;
    const wallets = entry.walletSnapshot ? [{ chain: 'ethereum', address: entry.walletSnapshot }] : [];
    const win = winRecordOf(
      {
        id: nextId(selectedAt.getTime()),
        raffleId: raffle.id,
        entryId: entry.id,
        userId: entry.userId,
        position: i + 1,
        source: 'draw',
        status: 'selected',
        walletSnapshot: entry.walletSnapshot,
        identitySnapshot: { handle: `bench-user-${i}`, wallets },
        deliveryStatus: 'pending',
        deliveryNote: null,
        selectedAt,
        finalizedAt: null,
        disqualifiedAt: null,
        replacedAt: null,
        deliveredAt: null,
      },
      raffle,
    );
    if (i === 0) assertIdShape('win', win.id);
    yield win;
  }
}
