import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../client.js';
import type { DrawBeaconRecord, EligibilityBlockRecord } from '../schema/draws.js';
import { eligibleEntriesFilter, type EligibleRaffle } from '../queries/eligible-entries-filter.js';

/**
 * Freezes the raffle's eligible set as the proof will serve it: Postgres concatenates the
 * canonical lines itself (`trim_scale` prints weights as the API does), so the multi-megabyte
 * text never passes through Node. Answers what it stored: the count and the lines' sha256. The
 * blocks the draw re-read on-chain requirements at are stored with it (none: null).
 */
export async function insertDrawSnapshot(tx: DbOrTx, args: { raffle: EligibleRaffle; algorithm: string; beacon: DrawBeaconRecord | null; eligibilityBlocks?: readonly EligibilityBlockRecord[] }): Promise<{ count: number; digest: string }> {
  const [stored] = await tx.execute<{ count: number; digest: string }>(sql`
    insert into raffle_draw_snapshots (raffle_id, algorithm, beacon, eligibility_blocks, entry_count, entry_lines)
    select ${args.raffle.id}, ${args.algorithm}, ${args.beacon === null ? null : JSON.stringify(args.beacon)}::jsonb,
           ${args.eligibilityBlocks?.length ? JSON.stringify(args.eligibilityBlocks) : null}::jsonb, count(*),
           coalesce(string_agg(id || ':' || user_id || ':' || trim_scale(entry_weight)::text || E'\\n', '' order by id), '')
    from entries where ${eligibleEntriesFilter(args.raffle)}
    returning entry_count as count, encode(sha256(convert_to(entry_lines, 'UTF8')), 'hex') as digest`);
  return stored!;
}
