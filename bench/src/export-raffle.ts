import { createDatabase, insertRaffle, schema } from '@raffle/db';
import { copyRows } from './copy.js';
import { entryRows } from './dataset.js';
import type { Manifest } from './seed.js';

/** The raffle `bench:export` reads, in the dataset's workspace 0; created by each run and removed after it. */
export const EXPORT_RAFFLE_SLUG = 'bench-export';

export type ExportRaffle = { id: string; slug: string; entries: number };

/**
 * A closed raffle of `entries` entries by the dataset's first users, rendered and COPied as the
 * seed writes the big raffle's (entryRows). A raffle an interrupted run left behind is removed first.
 */
export async function createExportRaffle(databaseUrl: string, manifest: Manifest, entries: number): Promise<ExportRaffle> {
  const database = createDatabase({ url: databaseUrl, max: 2, applicationName: 'bench-export-seed' });
  try {
    await removeExportRaffleIn(database.sql);
    const users = await database.sql<{ id: string }[]>`select id from users order by id limit ${entries}`;
    const openedAt = new Date(Date.now() - 30 * 86_400_000);
    const raffle = await insertRaffle(database.db, {
      workspaceId: manifest.workspaceId,
      slug: EXPORT_RAFFLE_SLUG,
      title: `Export benchmark: ${entries.toLocaleString('en-US')} entries`,
      mechanic: 'raffle',
      allocationType: 'airdrop',
      visibility: 'unlisted',
      status: 'closed',
      spots: 100,
      publishedAt: openedAt,
      openedAt,
      closedAt: new Date(),
    });
    await copyRows(database.sql, schema.entries, entryRows({ id: raffle.id, slug: raffle.slug }, users.map((u) => u.id), entries, openedAt.getTime()));
    await database.sql`vacuum (analyze) entries`;
    return { id: raffle.id, slug: raffle.slug, entries };
  } finally {
    await database.close();
  }
}

/** Removes the raffle and its entries (they cascade), and the dead rows they leave: the dataset stays as seeded. */
export async function removeExportRaffle(databaseUrl: string): Promise<void> {
  const database = createDatabase({ url: databaseUrl, max: 1, applicationName: 'bench-export-cleanup' });
  try {
    await removeExportRaffleIn(database.sql);
  } finally {
    await database.close();
  }
}

async function removeExportRaffleIn(sql: ReturnType<typeof createDatabase>['sql']): Promise<void> {
  const removed = await sql`delete from raffles where slug = ${EXPORT_RAFFLE_SLUG}`;
  if (removed.count > 0) await sql`vacuum (analyze) entries`;
}
