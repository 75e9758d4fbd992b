import { WINNER_CSV_COLUMNS, WORKSPACE_ENTRY_CSV_COLUMNS, type Winner, type WorkspaceEntry } from '@raffle/contracts';
import { findWorkspaceRaffleSlug, isIdOf, pageFinalizedWinnerJson, pageRaffleEntries, type Sql } from '@raffle/db';
import { DomainError } from '../errors.js';
import { readKeysetBatches } from '../pagination/keyset-batches.js';

/** Rows per query of an export: a batch of entries is about 300 KB of CSV. */
export const EXPORT_BATCH_SIZE = 1000;

/** An export, ready to send: the name its file is saved under, its columns and its records, batch by batch. */
export type RaffleExport<T> = { filename: string; columns: readonly (keyof T & string)[]; batches: AsyncIterable<readonly T[]> };

type RaffleScope = { workspaceId: string; raffleId: string };

/**
 * The stored JSON each list answers, parsed: an export's values are exactly those of the JSON
 * routes. `raffleFile` refuses a raffle the workspace does not have (404 RAFFLE_NOT_FOUND) before
 * anything is read, so the refusal is an error answer and never a file.
 */
async function raffleFile(sql: Sql, scope: RaffleScope, suffix: string): Promise<string> {
  const slug = isIdOf('raffle', scope.raffleId) ? await findWorkspaceRaffleSlug(sql, scope) : null;
  if (slug === null) throw new DomainError('RAFFLE_NOT_FOUND', `no raffle ${scope.raffleId} in this workspace`);
  return `${slug}-${suffix}.csv`;
}

async function* parsed<T>(batches: AsyncIterable<readonly { json: string }[]>): AsyncGenerator<T[]> {
  for await (const batch of batches) yield batch.map((row) => JSON.parse(row.json) as T);
}

/** Every entry of the raffle in arrival order, as `GET …/entries` pages through them. */
export async function openRaffleEntriesExport(sql: Sql, scope: RaffleScope, batchSize = EXPORT_BATCH_SIZE): Promise<RaffleExport<WorkspaceEntry>> {
  const filename = await raffleFile(sql, scope, 'entries');
  const batches = await readKeysetBatches(
    (after: string | null, limit) => pageRaffleEntries(sql, { raffleId: scope.raffleId, after, limit }),
    (row) => row.id,
    batchSize,
  );
  return { filename, columns: WORKSPACE_ENTRY_CSV_COLUMNS, batches: parsed<WorkspaceEntry>(batches) };
}

/** The finalized winners by position, as `GET …/winners` lists them. */
export async function openRaffleWinnersExport(sql: Sql, scope: RaffleScope, batchSize = EXPORT_BATCH_SIZE): Promise<RaffleExport<Winner>> {
  const filename = await raffleFile(sql, scope, 'winners');
  const batches = await readKeysetBatches(
    (after: readonly [number, string] | null, limit) => pageFinalizedWinnerJson(sql, { raffleId: scope.raffleId, after, limit }),
    (row) => [row.position, row.id] as const,
    batchSize,
  );
  return { filename, columns: WINNER_CSV_COLUMNS, batches: parsed<Winner>(batches) };
}
