import type { ApiKeyKind } from '@raffle/contracts';
import { and, desc, sql as drizzleSql } from 'drizzle-orm';
import type { DbOrTx, Sql } from '../client.js';
import { apiKeys } from '../schema/api-keys.js';
import type { ApiKeyRow } from '../render/api-key.js';
import { activeAt, ownedBy, type ApiKeyOwner } from './api-key-owners.js';

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

/** The owner's keys, newest first (ids are time-sortable, so id order breaks createdAt ties). */
export async function listApiKeyRows(db: DbOrTx, owner: ApiKeyOwner): Promise<ApiKeyRow[]> {
  return db.select().from(apiKeys).where(ownedBy(owner)).orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
}

export async function countActiveApiKeys(db: DbOrTx, owner: ApiKeyOwner, now: Date): Promise<number> {
  const [row] = await db
    .select({ count: drizzleSql<number>`count(*)::int` })
    .from(apiKeys)
    .where(and(ownedBy(owner), activeAt(now)));
  return row?.count ?? 0;
}
