import { randomBytes } from 'node:crypto';
import { newId, type Sql } from '@raffle/db';

/** Text a spreadsheet would run, and text RFC 4180 must quote: some of the bulk rows carry each. */
export const BULK_FORMULA_WALLET = '=HYPERLINK("http://evil.example","claim")';
export const BULK_STATUS_REASON = 'wallet "0xabc", too new\r\nsee the rules';

/**
 * `count` entries of one raffle, each by a user of its own, written by two set-based statements:
 * a 100,000-entry raffle takes seconds, where insertEntry would take minutes. Ids sort in
 * arrival order and have the platform's shape; `workspace_json` holds what `toWorkspaceEntry`
 * renders for the row (key order, absent fields, decimal weight, ISO times). Every 5th entry is
 * invalid with BULK_STATUS_REASON, every 11th has BULK_FORMULA_WALLET as its wallet, every 7th
 * none, every 13th an IP-reuse flag, every 3rd a weight of 2.5. Answers the ids in order.
 */
export async function insertBulkEntries(sql: Sql, args: { raffleId: string; count: number; startMs?: number }): Promise<string[]> {
  // 10 time characters and 6 random ones, then the row's number in 10 digits: 26, as newId's.
  const entryStem = newId('entry').slice(0, 'ent_'.length + 16);
  const userStem = newId('user').slice(0, 'usr_'.length + 16);
  const handleStem = `bulk-${randomBytes(4).toString('hex')}-`;
  const start = new Date(args.startMs ?? Date.now() - 86_400_000).toISOString();
  const rows = sql`
    select i,
      ${entryStem} || lpad(i::text, 10, '0') as id,
      ${userStem} || lpad(i::text, 10, '0') as user_id,
      ${start}::timestamptz + i * interval '1 millisecond' as at,
      to_char((${start}::timestamptz + i * interval '1 millisecond') at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as iso,
      case when i % 5 = 0 then 'invalid' else 'valid' end as status,
      case when i % 5 = 0 then ${BULK_STATUS_REASON} end as status_reason,
      case when i % 3 = 0 then '2.5' else '1' end as weight,
      case when i % 7 = 0 then null when i % 11 = 0 then ${BULK_FORMULA_WALLET} else '0x' || lpad(to_hex(i), 40, '0') end as wallet,
      case when i % 13 = 0 then '{"ipReuse":["ent_twin"]}' else '{}' end as flags
    from generate_series(1, ${args.count}::int) as i`;
  await sql`
    insert into users (id, handle, profile_json, created_at, updated_at)
    select user_id, ${handleStem} || i, '{}', at, at from (${rows}) as r`;
  const inserted = await sql<{ id: string }[]>`
    insert into entries (id, raffle_id, user_id, status, source, entry_weight, wallet_snapshot, status_reason,
                         duplicate_flags, created_at, updated_at, workspace_json, owner_json)
    select id, ${args.raffleId}, user_id, status, 'api', weight::numeric, wallet, status_reason, flags::jsonb, at, at,
      json_strip_nulls(json_build_object(
        'id', id, 'userId', user_id, 'status', status, 'source', 'api', 'entryWeight', weight,
        'walletSnapshot', wallet, 'statusReason', status_reason, 'duplicateFlags', flags::json,
        'createdAt', iso, 'updatedAt', iso))::text,
      '{}'
    from (${rows}) as r
    order by i
    returning id`;
  return inserted.map((r) => r.id).sort();
}
