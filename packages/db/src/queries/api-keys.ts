import type { ApiKeyKind } from '@raffle/contracts';
import type { Sql } from '../client.js';

export type ApiKeyAuthRecord = {
  id: string;
  kind: ApiKeyKind;
  userId: string;
  workspaceId: string | null;
  scopes: string[];
  /** Epoch milliseconds; numbers, because drizzle makes the shared client return timestamps as text. */
  expiresAtMs: number | null;
  revokedAtMs: number | null;
};

/** The verification read of every authenticated request: one unique-index probe. */
export async function findApiKeyByHash(sql: Sql, keyHash: string): Promise<ApiKeyAuthRecord | null> {
  const [row] = await sql<ApiKeyAuthRecord[]>`
    select id, kind, user_id as "userId", workspace_id as "workspaceId", scopes,
           (extract(epoch from expires_at) * 1000)::float8 as "expiresAtMs",
           (extract(epoch from revoked_at) * 1000)::float8 as "revokedAtMs"
    from api_keys where key_hash = ${keyHash}`;
  return row ?? null;
}

/**
 * Records the use of many keys in one statement (the data plane batches them: a drop of new
 * entrants would otherwise commit, and flush the WAL, once more per entrant). The guard keeps it
 * to one write a minute per key even across instances.
 */
export async function touchApiKeysLastUsed(sql: Sql, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await sql`
    update api_keys set last_used_at = now()
    where id = any(${sql.array([...ids])}::text[]) and (last_used_at is null or last_used_at < now() - interval '1 minute')`;
}
