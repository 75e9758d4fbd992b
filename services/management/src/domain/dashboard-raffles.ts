import {
  DASHBOARD_PAGE_SIZE,
  DASHBOARD_RAFFLE_ITEMS_PAGE_SIZE,
  type DashboardEntryPage,
  type DashboardRaffle,
  type DashboardRafflePage,
  type DashboardWin,
  type DashboardWinPage,
  type EntryStatus,
  type WinStatus,
  type WorkspaceEntry,
  type WorkspaceRaffleItem,
} from '@raffle/contracts';
import { isIdOf, isoOrAbsent, loadRaffleContext, toDashboardRaffle, toWinner, type Db, type DbOrTx } from '@raffle/db';
import { DomainError, type CursorCodec, type RaffleRecord, type WinRecord } from '@raffle/domain';
import { pageOf } from './dashboard-page.js';

// Reads go through drizzle's relational API, whose callbacks hand over the operators: this
// service does not depend on drizzle-orm itself.

type RaffleScope = { workspaceId: string; raffleId: string };
type PageArgs = { limit?: number; cursor?: string; cursors: CursorCodec };

const raffleNotFound = (raffleId: string) => new DomainError('RAFFLE_NOT_FOUND', `no raffle ${raffleId} in this workspace`);

const isIdKey =
  (kind: 'raffle' | 'entry') =>
  (key: readonly unknown[]): key is [string] =>
    key.length === 1 && typeof key[0] === 'string' && isIdOf(kind, key[0]);

const isWinKey = (key: readonly unknown[]): key is [number, string] =>
  key.length === 2 && Number.isSafeInteger(key[0]) && (key[0] as number) >= 1 && typeof key[1] === 'string' && isIdOf('win', key[1]);

/** The team's view of a raffle the domain just returned. */
export async function renderDashboardRaffle(db: DbOrTx, raffle: RaffleRecord): Promise<DashboardRaffle> {
  return toDashboardRaffle(raffle, await loadRaffleContext(db, raffle));
}

const findRaffle = (db: Db, args: RaffleScope) =>
  isIdOf('raffle', args.raffleId)
    ? db.query.raffles.findFirst({ where: (r, { and, eq }) => and(eq(r.id, args.raffleId), eq(r.workspaceId, args.workspaceId)) })
    : Promise.resolve(undefined);

export async function getDashboardRaffle(db: Db, args: RaffleScope): Promise<DashboardRaffle> {
  const row = await findRaffle(db, args);
  if (!row) throw raffleNotFound(args.raffleId);
  return renderDashboardRaffle(db, row);
}

/** Every raffle of the workspace, drafts and private ones included, newest first. */
export async function listDashboardRaffles(db: Db, args: { workspaceId: string } & PageArgs): Promise<DashboardRafflePage> {
  const binding = `dashboard:raffles:${args.workspaceId}`;
  const limit = args.limit ?? DASHBOARD_PAGE_SIZE.default;
  const before = args.cursor === undefined ? null : args.cursors.decode(binding, args.cursor, isIdKey('raffle'))[0];
  const rows = await db.query.raffles.findMany({
    columns: { id: true, workspaceItemJson: true },
    where: (r, { and, eq, lt }) => and(eq(r.workspaceId, args.workspaceId), before === null ? undefined : lt(r.id, before)),
    orderBy: (r, { desc }) => [desc(r.id)],
    limit: limit + 1,
  });
  return pageOf(rows, { limit, binding, cursors: args.cursors, keyOf: (r) => [r.id], render: (r) => JSON.parse(r.workspaceItemJson) as WorkspaceRaffleItem });
}

async function assertRaffleInWorkspace(db: Db, args: RaffleScope): Promise<void> {
  const row = isIdOf('raffle', args.raffleId)
    ? await db.query.raffles.findFirst({
        columns: { id: true },
        where: (r, { and, eq }) => and(eq(r.id, args.raffleId), eq(r.workspaceId, args.workspaceId)),
      })
    : undefined;
  if (!row) throw raffleNotFound(args.raffleId);
}

/** A raffle's entries in arrival (id) order, optionally in one status, as the workspace API shows them. */
export async function listDashboardEntries(db: Db, args: RaffleScope & PageArgs & { status?: EntryStatus }): Promise<DashboardEntryPage> {
  await assertRaffleInWorkspace(db, args);
  // The filter is part of the binding: a cursor from the unfiltered list cannot continue a filtered one.
  const binding = `dashboard:entries:${args.raffleId}:${args.status ?? '*'}`;
  const limit = args.limit ?? DASHBOARD_RAFFLE_ITEMS_PAGE_SIZE.default;
  const after = args.cursor === undefined ? null : args.cursors.decode(binding, args.cursor, isIdKey('entry'))[0];
  const rows = await db.query.entries.findMany({
    columns: { id: true, workspaceJson: true },
    where: (e, { and, eq, gt }) =>
      and(eq(e.raffleId, args.raffleId), args.status ? eq(e.status, args.status) : undefined, after === null ? undefined : gt(e.id, after)),
    orderBy: (e, { asc }) => [asc(e.id)],
    limit: limit + 1,
  });
  return pageOf(rows, { limit, binding, cursors: args.cursors, keyOf: (r) => [r.id], render: (r) => JSON.parse(r.workspaceJson) as WorkspaceEntry });
}

/** Every win of a raffle in every status (replaced ones beside their replacements), by position then id. */
export async function listDashboardWins(db: Db, args: RaffleScope & PageArgs & { status?: WinStatus }): Promise<DashboardWinPage> {
  await assertRaffleInWorkspace(db, args);
  const binding = `dashboard:wins:${args.raffleId}:${args.status ?? '*'}`;
  const limit = args.limit ?? DASHBOARD_RAFFLE_ITEMS_PAGE_SIZE.default;
  const after = args.cursor === undefined ? null : args.cursors.decode(binding, args.cursor, isWinKey);
  const rows = await db.query.wins.findMany({
    where: (w, { and, eq, gt, or }) =>
      and(
        eq(w.raffleId, args.raffleId),
        args.status ? eq(w.status, args.status) : undefined,
        after === null ? undefined : or(gt(w.position, after[0]), and(eq(w.position, after[0]), gt(w.id, after[1]))),
      ),
    orderBy: (w, { asc }) => [asc(w.position), asc(w.id)],
    limit: limit + 1,
  });
  return pageOf(rows, { limit, binding, cursors: args.cursors, keyOf: (w) => [w.position, w.id], render: toDashboardWin });
}

/** The winner view of a win (as the workspace API renders it), plus what the team needs besides. */
export const toDashboardWin = (w: WinRecord): DashboardWin => ({
  ...toWinner(w),
  raffleId: w.raffleId,
  entryId: w.entryId,
  selectedAt: w.selectedAt.toISOString(),
  // Wins in every status are listed here: finalizedAt only once the win is final.
  finalizedAt: isoOrAbsent(w.finalizedAt),
  disqualifiedAt: isoOrAbsent(w.disqualifiedAt),
  replacedAt: isoOrAbsent(w.replacedAt),
});
