import type { Sql } from '../client.js';

/**
 * A WAL position as Postgres prints it ('16/B374D848': the high and low 32 bits in hex) turned
 * into a number that compares: positions only grow, so "the replica has replayed up to here" and
 * "this write ended before here" are comparisons of two of them.
 */
export function parseWalPosition(text: string): bigint {
  const match = /^([0-9A-Fa-f]{1,8})\/([0-9A-Fa-f]{1,8})$/.exec(text);
  if (!match) throw new RangeError(`not a WAL position: ${JSON.stringify(text)}`);
  return (BigInt(`0x${match[1]}`) << 32n) | BigInt(`0x${match[2]}`);
}

export function formatWalPosition(position: bigint): string {
  return `${(position >> 32n).toString(16).toUpperCase()}/${(position & 0xffffffffn).toString(16).toUpperCase()}`;
}

/**
 * The primary's WAL insert position: every record written before this call (every commit already
 * acknowledged, whether synchronous or not) ends at or before it, so a replica that has replayed
 * up to it shows them all. (`pg_current_wal_lsn()`, the write position, can lag an asynchronous
 * commit's record.)
 */
export async function readPrimaryWalPosition(sql: Sql): Promise<bigint> {
  const [row] = await sql<[{ position: string }]>`select pg_current_wal_insert_lsn()::text as position`;
  return parseWalPosition(row.position);
}

/**
 * How far a streaming replica has replayed the primary's WAL, or null when the server is not
 * replaying (a primary, or a replica promoted since): its data cannot be placed on the primary's
 * timeline, so nothing may be read from it as a replica.
 */
export async function readReplicaReplayPosition(sql: Sql): Promise<bigint | null> {
  const [row] = await sql<[{ position: string | null; recovering: boolean }]>`
    select pg_last_wal_replay_lsn()::text as position, pg_is_in_recovery() as recovering`;
  return row.recovering && row.position ? parseWalPosition(row.position) : null;
}
