import type { Database } from '@raffle/db';
import type { Manifest } from './seed.js';

/**
 * Deletes the raffles a benchmark created (slug starting with `slugPrefix`; their entries, wins,
 * snapshots and allowlists go with them) and every event recorded since the dataset was seeded:
 * the seed records none, and the benchmarks are all that write to this database (an entry's
 * workspace event does not name its raffle).
 */
export async function removeBenchRaffles(database: Database, manifest: Manifest, slugPrefix: string): Promise<{ raffles: number; events: number }> {
  const { sql } = database;
  const raffles = await sql`delete from raffles where slug like ${`${slugPrefix}%`}`;
  const events = await sql`delete from event_outbox where created_at > ${manifest.seededAt}`;
  // Dead rows would otherwise linger in the tables the read benchmark measures.
  if (raffles.count + events.count > 0) await sql`vacuum entries, wins, raffles, event_outbox, api_keys`;
  return { raffles: raffles.count, events: events.count };
}
