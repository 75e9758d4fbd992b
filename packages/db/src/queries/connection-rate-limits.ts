import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../client.js';

/**
 * The waits still running at `now` for these users with these providers, keyed `userId|provider`:
 * one query for a whole batch of entrants (an entry, a settling pass, a draw's re-check).
 */
export async function listConnectionRateLimits(
  tx: DbOrTx,
  args: { userIds: readonly string[]; providers: readonly string[]; now: Date },
): Promise<Map<string, Date>> {
  const waits = new Map<string, Date>();
  if (args.userIds.length === 0 || args.providers.length === 0) return waits;
  const rows = await tx.execute<{ userId: string; provider: string; resetAt: string | Date }>(sql`
    select l.user_id as "userId", l.provider, l.reset_at as "resetAt"
    from connection_rate_limits l
    where l.user_id in (select jsonb_array_elements_text(${JSON.stringify(args.userIds)}::jsonb))
      and l.provider in (select jsonb_array_elements_text(${JSON.stringify(args.providers)}::jsonb))
      and l.reset_at > ${args.now.toISOString()}::timestamptz`);
  for (const row of rows) waits.set(`${row.userId}|${row.provider}`, new Date(row.resetAt));
  return waits;
}

/** Records a provider's "wait until": a later reset replaces an earlier one, never the reverse. */
export async function recordConnectionRateLimit(tx: DbOrTx, args: { userId: string; provider: string; resetAt: Date }): Promise<void> {
  await tx.execute(sql`
    insert into connection_rate_limits (user_id, provider, reset_at)
    values (${args.userId}, ${args.provider}, ${args.resetAt.toISOString()}::timestamptz)
    on conflict (user_id, provider) do update set reset_at = greatest(connection_rate_limits.reset_at, excluded.reset_at)`);
}
