import {
  DASHBOARD_PAGE_SIZE,
  DASHBOARD_RAFFLE_ITEMS_PAGE_SIZE,
  type DashboardEntryPage,
  type DashboardRaffle,
  type DashboardRafflePage,
  type DashboardWinPage,
  type EntryRequirementResults,
  type EntryStatus,
  type SanitizedEntry,
  type RaffleListFilters,
  type WinStatus,
  type WorkspaceEntry,
  type WorkspaceRaffleItem,
} from '@raffle/contracts';
import {
  findDashboardEntryOwnerJson,
  findWorkspaceRaffleRow,
  isIdOf,
  isRaffleOfWorkspace,
  loadDashboardRaffle,
  pageDashboardEntryRows,
  pageDashboardRaffleRows,
  pageDashboardWinRows,
  toDashboardWin,
  type Db,
} from '@raffle/db';
import { cursorBinding, DomainError, isIdKey, isPositionIdKey, raffleFilterBinding, readPageRequest, toPage, type PageRequest } from '@raffle/domain';

// The dashboard's raffle pages: any member reads them (the routes' access hook checks it). The SQL
// is @raffle/db's; what is here decides not-found, reads the page request and shapes the answer.

type RaffleScope = { workspaceId: string; raffleId: string };

const raffleNotFound = (raffleId: string) => new DomainError('RAFFLE_NOT_FOUND', `no raffle ${raffleId} in this workspace`);

export async function getDashboardRaffle(db: Db, args: RaffleScope): Promise<DashboardRaffle> {
  const row = isIdOf('raffle', args.raffleId) ? await findWorkspaceRaffleRow(db, args) : null;
  if (!row) throw raffleNotFound(args.raffleId);
  return loadDashboardRaffle(db, row);
}

/** Every raffle of the workspace, drafts and private ones included (or those `filter` keeps), newest first. */
export async function listDashboardRaffles(db: Db, args: { workspaceId: string; filter: RaffleListFilters } & PageRequest): Promise<DashboardRafflePage> {
  const binding = cursorBinding('dashboard:raffles', args.workspaceId, ...raffleFilterBinding(args.filter));
  const page = readPageRequest(args, { binding, rule: DASHBOARD_PAGE_SIZE, isKey: isIdKey('raffle') });
  const rows = await pageDashboardRaffleRows(db, { workspaceId: args.workspaceId, before: page.after?.[0] ?? null, limit: page.limit, filter: args.filter });
  return toPage(rows, page, (r) => [r.id], (r) => JSON.parse(r.json) as WorkspaceRaffleItem);
}

async function assertRaffleInWorkspace(db: Db, args: RaffleScope): Promise<void> {
  if (!isIdOf('raffle', args.raffleId) || !(await isRaffleOfWorkspace(db, args))) throw raffleNotFound(args.raffleId);
}

/** A raffle's entries in arrival (id) order, optionally in one status, as the workspace API shows them. */
export async function listDashboardEntries(db: Db, args: RaffleScope & PageRequest & { status?: EntryStatus }): Promise<DashboardEntryPage> {
  await assertRaffleInWorkspace(db, args);
  // The filter is part of the binding: a cursor from the unfiltered list cannot continue a filtered one.
  const binding = cursorBinding('dashboard:entries', args.raffleId, args.status);
  const page = readPageRequest(args, { binding, rule: DASHBOARD_RAFFLE_ITEMS_PAGE_SIZE, isKey: isIdKey('entry') });
  const rows = await pageDashboardEntryRows(db, { raffleId: args.raffleId, status: args.status, after: page.after?.[0] ?? null, limit: page.limit });
  return toPage(rows, page, (r) => [r.id], (r) => JSON.parse(r.workspaceJson) as WorkspaceEntry);
}

/**
 * One entry's requirement verdicts as its workspace sees them: the stored sanitized entry's
 * `requirements` reduced to type, label and passed. The entrant's `detail` stays theirs: for an
 * on-chain requirement it says what their wallets hold (issue 34).
 */
export async function getEntryRequirementResults(db: Db, args: RaffleScope & { entryId: string }): Promise<EntryRequirementResults> {
  await assertRaffleInWorkspace(db, args);
  const json = isIdOf('entry', args.entryId) ? await findDashboardEntryOwnerJson(db, args) : null;
  if (!json) throw new DomainError('ENTRY_NOT_FOUND', `no entry ${args.entryId} in this raffle`);
  const entry = JSON.parse(json) as SanitizedEntry;
  return { entryId: entry.id, status: entry.status, requirements: entry.requirements.map(({ type, label, passed }) => ({ type, label, passed })) };
}

/** Every win of a raffle in every status (replaced ones beside their replacements), by position then id. */
export async function listDashboardWins(db: Db, args: RaffleScope & PageRequest & { status?: WinStatus }): Promise<DashboardWinPage> {
  await assertRaffleInWorkspace(db, args);
  const binding = cursorBinding('dashboard:wins', args.raffleId, args.status);
  const page = readPageRequest(args, { binding, rule: DASHBOARD_RAFFLE_ITEMS_PAGE_SIZE, isKey: isPositionIdKey('win') });
  const rows = await pageDashboardWinRows(db, { raffleId: args.raffleId, status: args.status, after: page.after, limit: page.limit });
  return toPage(rows, page, (w) => [w.position, w.id], toDashboardWin);
}
